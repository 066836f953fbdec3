"""Where the games app asks the apps above it: the game page's and the table page's panels,
what of theirs holds a round as drawn, and who must hear that a session's results changed.

Terms:
- panel: a section of the game page that belongs to another app (scoring lists the table's
  claims). The app registers it in its AppConfig's `ready()` with `register_game_panel`: a
  template and a function `(request, game) -> dict | None` giving the template's `panel`
  context (None: nothing to show to this user). The games app names no app above it; the game
  page shows whatever panels are registered, in registration order.
- table panel: the same for the table page (`/t/<token>/`, games.table_views), which anyone
  holding the link reads without a login: registered with `register_table_panel`, its function
  `(request, game, bound) -> dict | None` gets `bound`, what the app's own POST view hands back
  to show again with its errors (a bound form), empty on a plain GET. The app's POST views
  render the page through `games.table_views.render_table_page(..., bound={name: {...}})`.
- round guard: a function `(round) -> str | None` an app above registers with
  `register_round_guard`; it names what of that app is attached to the round's tables ("A claim
  is filed at table 2 of round 1"), or None. While any guard answers, the round's seats are
  not swapped and the round is not withdrawn (docs/spec.md "A Thursday, step by step", step 3):
  scoring's claims name their parties by the seats they were filed under.
- results changed: a function `(session) -> None` an app above registers with
  `register_results_changed`; every service that confirms a result, corrects a confirmed one or
  confirms a round's drafts calls `results_changed(session)` inside its own transaction, after
  its writes (and `refresh_session_totals`), so what the app keeps from the confirmed results
  (standings' ratings) never disagrees with them. Redating or deleting a session and withdrawing
  a round never change a confirmed result (they are refused once one exists), so they do not call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from club.models import Session
from games.models import Game, Round

PanelContext = Callable[[HttpRequest, Game], dict[str, Any] | None]


@dataclass(frozen=True)
class GamePanel:
    name: str
    template_name: str
    context: PanelContext


@dataclass(frozen=True)
class RenderedPanel:
    """One panel for one page: its template and what the template reads as `panel`."""

    name: str
    template_name: str
    data: dict[str, Any]


_PANELS: dict[str, GamePanel] = {}


def register_game_panel(*, name: str, template_name: str, context: PanelContext) -> None:
    """Add a panel to the game page (registering a name again replaces it)."""
    _PANELS[name] = GamePanel(name=name, template_name=template_name, context=context)


def game_panels(request: HttpRequest, game: Game) -> list[RenderedPanel]:
    """The panels this request shows on `game`'s page."""
    panels = []
    for panel in _PANELS.values():
        data = panel.context(request, game)
        if data is not None:
            panels.append(RenderedPanel(panel.name, panel.template_name, data))
    return panels


TablePanelContext = Callable[[HttpRequest, Game, dict[str, Any]], dict[str, Any] | None]

_TABLE_PANELS: dict[str, tuple[str, TablePanelContext]] = {}


def register_table_panel(*, name: str, template_name: str, context: TablePanelContext) -> None:
    """Add a panel to the table page (registering a name again replaces it)."""
    _TABLE_PANELS[name] = (template_name, context)


def table_panels(
    request: HttpRequest, game: Game, bound: dict[str, dict[str, Any]] | None = None
) -> list[RenderedPanel]:
    """The panels of `game`'s table page; `bound[name]` goes to that panel's function."""
    bound = bound or {}
    panels = []
    for name, (template_name, context) in _TABLE_PANELS.items():
        data = context(request, game, bound.get(name, {}))
        if data is not None:
            panels.append(RenderedPanel(name, template_name, data))
    return panels


RoundGuard = Callable[[Round], str | None]

_ROUND_GUARDS: dict[str, RoundGuard] = {}


def register_round_guard(*, name: str, guard: RoundGuard) -> None:
    """Add what of an app holds a round as drawn (registering a name again replaces it)."""
    _ROUND_GUARDS[name] = guard


def round_holds(round_: Round) -> list[str]:
    """What the apps above attach to `round_`'s tables, one sentence each (empty: nothing).
    Called inside the changing service's transaction, after its locks."""
    return [hold for guard in _ROUND_GUARDS.values() if (hold := guard(round_))]


ResultsChanged = Callable[[Session], None]

_RESULTS_CHANGED: dict[str, ResultsChanged] = {}


def register_results_changed(*, name: str, handler: ResultsChanged) -> None:
    """Add what must follow a session's confirmed results (registering a name again replaces
    it)."""
    _RESULTS_CHANGED[name] = handler


def results_changed(session: Session) -> None:
    """Tell the apps above that `session`'s confirmed results changed (a result confirmed or
    corrected). Called inside the changing service's transaction, after its writes."""
    for handler in _RESULTS_CHANGED.values():
        handler(session)
