"""How long a wrong table PIN makes the next try wait: arithmetic only, no Django.

Terms:
- wrong PINs counted: a player's wrong PINs typed at tables within the last PIN_MEMORY_DAYS and
  since their PIN was last set (club.selectors.pin_tries). A right PIN does not reset the count:
  it does not make the guesses before it any less made. A new PIN does, since they were
  guesses at the old one.
- wait: after the n-th counted wrong PIN nobody may try that player's PIN for `wait_after(n)`
  seconds: no wait after the first FREE_WRONG_PINS, then FIRST_WAIT doubling with each wrong
  PIN up to LONGEST_WAIT. A try during the wait is refused without reading the PIN and is not
  counted; a right PIN outside a wait always works, so the rightful player waits at most
  LONGEST_WAIT, never a session.
"""

from __future__ import annotations

FREE_WRONG_PINS = 3
FIRST_WAIT = 5  # seconds
LONGEST_WAIT = 5 * 60  # seconds
PIN_MEMORY_DAYS = 30


def wait_after(wrong: int) -> int:
    """The seconds of the wait after the `wrong`-th counted wrong PIN (0: none)."""
    if wrong <= FREE_WRONG_PINS:
        return 0
    doublings = min(wrong - FREE_WRONG_PINS - 1, 32)  # far past LONGEST_WAIT already
    return min(FIRST_WAIT * 2**doublings, LONGEST_WAIT)


def guesses_within(seconds: int, *, wrong_before: int = 0) -> int:
    """How many PINs someone typing nothing but wrong ones can try in `seconds`, trying again
    the moment each wait ends, when `wrong_before` wrong PINs are counted already."""
    guesses, elapsed, wrong = 0, 0, wrong_before
    while elapsed <= seconds:
        guesses += 1
        wrong += 1
        elapsed += wait_after(wrong)
    return guesses


def wait_text(seconds: int) -> str:
    """ "5 seconds", "1 minute 20 seconds", "5 minutes": a wait in words."""
    minutes, seconds = divmod(max(int(seconds), 0), 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if seconds or not minutes:
        parts.append(f"{seconds} second{'s' if seconds != 1 else ''}")
    return " ".join(parts)
