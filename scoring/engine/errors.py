"""The engine's error types.

A *ScoringError* is anything a user can fix by entering different cards: its message names the
offending card or text and says why it was refused. *CardError* is a card text that is not a card;
*PlayError* is a recorded play phase that could not have happened under the rules.
"""


class ScoringError(ValueError):
    """Cards or plays the engine refuses; the message says which and why."""


class CardError(ScoringError):
    """A text (or rank/suit pair) that is not one of the 52 cards."""


class PlayError(ScoringError):
    """A play (pegging) record that breaks the rules of the play."""
