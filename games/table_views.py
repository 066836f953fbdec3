"""The table page, `/t/<token>/`: the seating chart's QR code opens it on a phone at the table,
without a login (docs/spec.md "A Thursday, step by step", step 4; games.services.table).

Terms:
- table page: one game's page for the people at it: the round, the table, the players by side,
  and the result's state. No result confirmed yet: the scores form ("Who is entering?" and a
  score per side). A draft: its scores, who entered it, an Accept button per player who may
  accept it (with a PIN field when the session asks for table PINs) and "Enter the scores
  again". Confirmed: the result, read-only. Apps above add panels (scoring's claims) through
  `games.hooks.register_table_panel`.
- dead link: a token no game nor card has (404), or a game whose link does not work now (410,
  with `table_refusal`'s sentence: links off, the session settled, a later round drawn).
- card link: a table card's token (games.services.table_cards). A GET goes (302) to the game at
  the card's table number in the current round; with no game there, a page saying so with the
  round's tables and "Find your name" (200); a replaced card or links off: 410 with the reason.
  Nothing is posted through a card's address (the game's page posts to the game's own link).
- forwarding: a GET of a game's link whose round is over (a later round drawn, the session
  still open) goes to the same table number's current game, as a card does; its posts stay
  refused (410), so no result is entered at a past round's game, and the refusal links on to
  that table's game now (or, with no game there, to where everyone plays).
- offline worker: the service worker of static/js/table-worker.js, served at `/t/sw.js`
  (`table_worker`) so that its scope is `/t/`: it keeps the last copy of each table page a phone
  opened and shows it on a reload when the network is down (docs/decisions/table-links.md).

Everything the page writes is "at the table": by the player named in the form, never by a login,
even when the visitor is logged in (the phone is shared; the audit entry has no actor). Every
answer, refusals too, says `Cache-Control: no-store` (a shared phone's back button or a proxy
must not show a stale or someone else's table). The token is in the address, and the site's
`Referrer-Policy: same-origin` already keeps it from every other site (the page links nowhere
else); a stricter `no-referrer` would make browsers post the page's forms with `Origin: null`,
which Django's CSRF check refuses, and the forms keep that check like every other form. A double
post is saved once (the forms' one-time tokens).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django.views.generic import View

from club.models import Player
from club.services import pin_refusal
from club.views.logins import never_cached
from core.mixins import add_service_errors
from core.submissions import AlreadySaved
from games.forms import FindNameForm, TableAcceptForm, TableResultForm
from games.hooks import table_panels
from games.models import Game, Result, ResultState
from games.selectors import round_tables
from games.services import (
    TableNow,
    card_now,
    table_acceptors,
    table_card,
    table_forward,
    table_game,
    table_refusal,
)
from games.services import table_result_accept as accept_service
from games.services import table_result_enter as enter_service
from games.services.results import current_result

# The page's own navigation, whoever looks: nothing of the organisers' pages is linked from a
# page whose address is a key (docs/club/table-links.md).
TABLE_NAV = [("Home", "home"), ("Hand counter", "scoring:counter")]


def table_url(game: Game) -> str:
    return reverse("table:page", args=[game.table_token])


def seated(game: Game) -> list[tuple[int, str]]:
    """(player pk, name) of everyone at the table, in seat order."""
    return [
        (seat.player_id, seat.player.display_name)
        for seat in game.seats.select_related("player").order_by("position")
    ]


def side_names(game: Game) -> list[list[str]]:
    sides: list[list[str]] = [[] for _ in range(game.side_count)]
    for seat in game.seats.select_related("player").order_by("position"):
        sides[seat.side].append(seat.player.display_name)
    return sides


def entry_form(game: Game, data=None, current: Result | None = None) -> TableResultForm:
    initial = {}
    if current is not None:
        initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
    return TableResultForm(
        data, game=game, sides=side_names(game), seated=seated(game), initial=initial
    )


def accept_form(game: Game, player: Player, data=None) -> TableAcceptForm:
    return TableAcceptForm(
        data,
        pin=game.session.house_rules.table_pins,
        name=player.display_name,
        initial={"player": player.pk},
        auto_id=f"accept_{player.pk}_%s",
    )


def with_table_headers(response: HttpResponse) -> HttpResponse:
    """The headers every answer of a table link carries (see the module's terms): never cached
    (no-cache, no-store, must-revalidate, private)."""
    return never_cached(response)


def table_context(
    request,
    game: Game,
    *,
    result_form: TableResultForm | None = None,
    accept_bound: TableAcceptForm | None = None,
    bound: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the table page shows; the bound forms of a refused post replace the blank ones."""
    session = game.session
    rules = session.house_rules
    current = current_result(game)
    sides = side_names(game)
    context: dict[str, Any] = {
        "game": game,
        "session": session,
        "club": session.club,  # the table's club, whatever club the visitor belongs to
        "nav_items": TABLE_NAV,
        "rules": rules,
        "sides": [" & ".join(names) for names in sides],
        "current": current,
        "pins": rules.table_pins,
        "panels": table_panels(request, game, bound),
    }
    if current is not None:
        by_side = {line.side: line for line in current.lines.all()}
        context["current_sides"] = [
            (names, by_side[side].score if side in by_side else "–")
            for side, names in enumerate(context["sides"])
        ]
        context["winner"] = next(
            (context["sides"][side] for side, line in by_side.items() if line.won), ""
        )
    confirmed = current is not None and current.state == ResultState.CONFIRMED
    if not confirmed:
        if result_form is None:
            result_form = entry_form(game, current=current)
        context["result_form"] = result_form
        context["entry_open"] = bool(result_form.errors)
    if current is not None and current.state == ResultState.DRAFT:
        acceptors = []
        for seat in table_acceptors(game, current):
            player = seat.player
            refusal = pin_refusal(player) if rules.table_pins else None
            form = None
            if refusal is None:
                posted = accept_bound is not None and accept_bound.data.get("player") == str(
                    player.pk
                )
                form = accept_bound if posted else accept_form(game, player)
            acceptors.append({"player": player, "form": form, "refusal": refusal})
        context["acceptors"] = acceptors
    shown = [acceptor["form"] for acceptor in context.get("acceptors", [])]
    if accept_bound is not None and accept_bound not in shown:
        # Refused for a player who has no Accept button (the side that entered it): say why.
        context["accept_errors"] = [
            error for errors in accept_bound.errors.values() for error in errors
        ]
    return context


def render_table_page(request, game: Game, *, status: int = 200, **forms) -> HttpResponse:
    """The table page (status 400 with the bound form of a refused post: `result_form`,
    `accept_bound`, or `bound` for an app's panel)."""
    response = render(
        request, "games/table.html", table_context(request, game, **forms), status=status
    )
    return with_table_headers(response)


WORKER_SCRIPT = "js/table-worker.js"


@require_safe
def table_worker(request) -> HttpResponse:
    """The offline worker's script, from an address under /t/ so that it may serve the table
    pages; `no-cache`, so a phone picks up a new version at its next visit."""
    found = finders.find(WORKER_SCRIPT)
    if found:
        with open(found, encoding="utf-8") as script:
            text = script.read()
    else:  # only the collected files are there
        with staticfiles_storage.open(WORKER_SCRIPT) as script:
            text = script.read().decode("utf-8")
    response = HttpResponse(text, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


NO_SUCH_TABLE = (
    "No table has this link. Check the address on the seating chart, or scan the table's QR "
    "code again."
)
NOT_AT_THIS_TABLE = "That is not at this table: this link shows its own table only."


def not_found(request, sentence: str, game: Game | None = None) -> HttpResponse:
    context = {"nav_items": TABLE_NAV, "sentence": sentence, "game": game}
    if game is not None:
        context.update(session=game.session, club=game.session.club)
    return with_table_headers(render(request, "games/table_missing.html", context, status=404))


NOTHING_POSTED_TO_A_CARD = (
    "A table card only opens its table's page: scan the card again and enter the result there."
)


def table_now_answer(request, now: TableNow) -> HttpResponse:
    """The answer of a card's link, or of a forwarded old game link: the current game's page
    (302), the reason it does not work (410), or what the table has now (200)."""
    if now.game is not None:
        return with_table_headers(redirect(table_url(now.game)))
    context: dict[str, Any] = {
        "nav_items": TABLE_NAV,
        "club": now.club,
        "now": now,
        "session": now.session,
    }
    if now.refusal:
        return with_table_headers(
            render(request, "games/table_card_closed.html", context, status=410)
        )
    if now.round is not None:
        tables = round_tables(now.round)
        form = FindNameForm(request.GET or None)
        key = form.key() if form.is_bound else ""
        found = [table for table in tables if table.has_name(key)]
        context.update(
            round=now.round,
            tables=tables,
            find_form=form,
            find_key=key,
            find_name=" ".join(form.cleaned_data["name"].split()) if key else "",
            found={table.game.pk for table in found},
            found_tables=found,
        )
    return with_table_headers(render(request, "games/table_card.html", context))


class TableMixin:
    """Finds the game of the URL's `token` and refuses a dead link, for every method; every
    answer gets the table's headers. The game is `self.game`. The table page itself
    (`opens_cards`) also answers a card's link and forwards an old game link (a GET only)."""

    opens_cards = False

    def dispatch(self, request, *args, **kwargs):
        reads = request.method in ("GET", "HEAD")
        game = table_game(kwargs["token"])
        if game is None:
            card = table_card(kwargs["token"])
            if card is None:
                return not_found(request, NO_SUCH_TABLE)
            if not (self.opens_cards and reads):
                return not_found(request, NOTHING_POSTED_TO_A_CARD)
            return table_now_answer(request, card_now(card))
        refusal = table_refusal(game)
        if refusal:
            now = table_forward(game)
            if now is not None and self.opens_cards and reads:
                return table_now_answer(request, now)
            context = {
                "game": game,
                "session": game.session,
                "club": game.session.club,
                "nav_items": TABLE_NAV,
                "refusal": refusal,
                "forward": now,
                # A post refused at a past round's page leads on: the table's game now, or
                # (no game there now) this link, which shows where everyone plays.
                "forward_url": table_url(now.game if now and now.game else game),
            }
            return with_table_headers(
                render(request, "games/table_closed.html", context, status=410)
            )
        self.game = game
        try:
            response = super().dispatch(request, *args, **kwargs)
        except Http404:
            # A result or a player of another table named through this one's link.
            return not_found(request, NOT_AT_THIS_TABLE, game)
        return with_table_headers(response)

    def back(self) -> HttpResponse:
        return redirect(table_url(self.game))

    def player(self, pk: int) -> Player:
        """A player at this table (404 for anyone else: a post names no other table's rows)."""
        return get_object_or_404(Player, pk=pk, seats__game=self.game)


class TablePageView(TableMixin, View):
    opens_cards = True

    def get(self, request, token):
        return render_table_page(request, self.game)


class TableResultEnterView(TableMixin, View):
    """A player at the table enters the scores: a draft for another side to accept."""

    def post(self, request, token):
        game = self.game
        form = entry_form(game, request.POST)
        if form.is_valid():
            player = self.player(form.cleaned_data["player"])
            try:
                enter_service(
                    game=game,
                    player=player,
                    scores=form.scores(),
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                current = current_result(game)
                if current is not None and current.state == ResultState.CONFIRMED:
                    # Accepted a moment ago (the page has no scores form any more): say so.
                    messages.error(request, " ".join(error.messages))
                    return self.back()
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"Saved, entered by {player}. Now a player of another side checks the "
                    "scores and presses Accept.",
                )
                return self.back()
        return render_table_page(request, game, status=400, result_form=form)


class TableResultAcceptView(TableMixin, View):
    """A player of another side accepts the draft (with their PIN when the session asks)."""

    def post(self, request, token, result):
        game = self.game
        draft = get_object_or_404(Result, pk=result, game=game)
        posted = TableAcceptForm(request.POST, pin=False)
        if not posted.is_valid():
            messages.error(request, "Press the Accept button under your own name.")
            return self.back()
        player = self.player(posted.cleaned_data["player"])
        form = accept_form(game, player, request.POST)
        if form.is_valid():
            try:
                accept_service(result=draft, player=player, pin=form.typed_pin())
            except ValidationError as error:
                draft.refresh_from_db()
                if draft.state == ResultState.CONFIRMED:
                    # A second press, or another player's accept a moment earlier.
                    messages.info(request, "This result is confirmed already.")
                    return self.back()
                add_service_errors(form, error, field_map={"player": None})
            else:
                messages.success(request, f"Accepted by {player}: the result is confirmed.")
                return self.back()
        return render_table_page(request, game, status=400, accept_bound=form)
