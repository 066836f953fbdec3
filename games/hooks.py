"""Places on the games app's pages that apps above it fill: the game page's panels.

Terms:
- panel: a section of the game page that belongs to another app (scoring lists the table's
  claims). The app registers it in its AppConfig's `ready()` with `register_game_panel`: a
  template and a function `(request, game) -> dict | None` giving the template's `panel`
  context (None: nothing to show to this user). The games app names no app above it; the game
  page shows whatever panels are registered, in registration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from games.models import Game

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
