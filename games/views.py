"""Views of the games app: draw a round, the round page (public while the club publishes its
standings, with "Find your name") and its printable seating chart, swap seats, withdraw a round
drawn by mistake, type in a round's scorecards, and the game page where results are entered,
confirmed and corrected (apps above add their panels to the game page through `games.hooks`).

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
A form that fails renders its page again with the errors (status 400). A form posted twice saves
once: the second post shows "This was already saved." (core.submissions). Every lookup is within
the current club.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.generic import View

from club.mixins import ClubMixin, PublicReadMixin, SessionMixin
from club.models import Player, Session
from club.views.logins import NeverCachedMixin
from core.mixins import PageMixin, add_service_errors
from core.qr import absolute_url, is_local_only, qr_svg
from core.submissions import AlreadySaved
from games import services
from games.forms import (
    CorrectionForm,
    DrawForm,
    FindNameForm,
    ResultForm,
    ScorecardsForm,
    SwapForm,
    UnfinishedForm,
    WithdrawForm,
)
from games.hooks import game_panels
from games.models import Game, GameStatus, Result, ResultSource, ResultState, Round
from games.selectors import RoundTable, game_history, round_tables


class RoundDrawView(PermissionRequiredMixin, ClubMixin, View):
    """Draw the round the button names (`round_number`); pressed twice, it draws once and the
    second press shows the round drawn."""

    permission_required = "games.add_round"

    def post(self, request, pk):
        session = get_object_or_404(Session, pk=pk, club=self.club)
        back = reverse("web:session", args=[session.pk]) + "#rounds"
        form = DrawForm(request.POST)
        if not form.is_valid():
            messages.error(request, "This page is out of date: reload it and draw again.")
            return redirect(back)
        try:
            round_ = services.round_draw(
                session=session,
                actor=request.user,
                expected_number=form.cleaned_data["round_number"],
            )
        except AlreadySaved as done:
            messages.info(request, done.message)
            drawn = done.made_pk(Round)
            return redirect("games:round", pk=drawn) if drawn else redirect(back)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(back)
        messages.success(request, f"Round {round_.number} drawn: {round_.games.count()} tables.")
        return redirect("games:round", pk=round_.pk)


class RoundMixin(PermissionRequiredMixin, ClubMixin):
    permission_required = "games.view_round"

    def get_round(self) -> Round:
        if not hasattr(self, "round"):
            self.round = get_object_or_404(
                Round.objects.select_related("session"),
                pk=self.kwargs["pk"],
                session__club=self.club,
            )
        return self.round

    def seated(self) -> list[tuple[int, str]]:
        return [
            (seat.player_id, seat.player.display_name)
            for seat in self.get_round()
            .seats.select_related("player")
            .order_by("player__display_name")
        ]

    def page_context(self, **overrides) -> dict:
        round_ = self.get_round()
        user = self.request.user
        games = round_.games.prefetch_related("seats__player")
        open_ = round_.session.is_open
        # Why the organiser cannot swap or withdraw any more (a result, a claim, a later round).
        swap_refusal = (
            services.swap_refusal(round_) if open_ and user.has_perm("games.change_round") else None
        )
        can_swap = open_ and user.has_perm("games.change_round") and swap_refusal is None
        can_withdraw = (
            open_
            and user.has_perm(services.WITHDRAW_PERMISSION)
            and services.withdraw_refusal(round_) is None
        )
        tables = round_tables(round_)
        context = {
            "round": round_,
            "session": round_.session,
            "games": games,
            "tables": tables,
            "can_swap": can_swap,
            "swap_refusal": swap_refusal,
            "can_withdraw": can_withdraw,
            "can_type_scorecards": open_
            and user.has_perm(services.CORRECT_PERMISSION)
            and any(table.to_type for table in tables),
            **self.find_context(tables),
        }
        if can_swap:
            context["swap_form"] = SwapForm(round_=round_, seated=self.seated())
        context.update(overrides)
        return context

    def find_context(self, tables: list[RoundTable]) -> dict:
        """ "Find your name": the tables with a player whose name holds what `?name=` says (the
        page's script does the same as you type, without asking the server)."""
        form = FindNameForm(self.request.GET or None)
        key = form.key() if form.is_bound else ""
        found = [table for table in tables if table.has_name(key)]
        return {
            "find_form": form,
            "find_key": key,
            "find_name": " ".join(form.cleaned_data["name"].split()) if key else "",
            "found": {table.game.pk for table in found},
            "found_tables": found,
        }


class RoundView(PublicReadMixin, RoundMixin, View):
    """The round's tables: public while the club publishes its standings (members read it
    always), without the organisers' tools for those who may not use them, and never a table's
    link (that is on the seating chart, for the people at the venue)."""

    template_name = "games/round.html"

    def get(self, request, pk):
        return render(request, self.template_name, self.page_context())


class RoundPrintView(NeverCachedMixin, RoundMixin, View):
    """The seating chart, members only. For those who draw rounds (organisers), while the round's
    table links work, every table has its QR code and short link (`/t/<token>/`) for the players'
    phones; players see the chart without them. The links' host is `PEGBOARD_BASE_URL` when set
    (the address phones at the venue reach the site by); a loopback host no phone can open
    (127.0.0.1) gets a warning on screen. A table with the club's table card on it gets no
    code: the chart says "Scan the card on your table". The links are keys to the tables, so the
    chart is never cached (`Cache-Control: no-store`), as the table pages are not."""

    template_name = "games/round_print.html"

    def get(self, request, pk):
        return render(request, self.template_name, self.page_context())

    def page_context(self, **overrides) -> dict:
        context = super().page_context(**overrides)
        games = list(context["games"])
        context["games"] = games
        round_ = self.get_round()
        if not games or not self.request.user.has_perm("games.add_round"):
            return context
        session = round_.session
        if not (session.house_rules.table_links and session.club.table_links):
            return context  # the club does not use table links: a plain chart
        refusal = services.table_refusal(games[0])  # the same for every table of the round
        if refusal:
            context["links_refusal"] = refusal
            return context
        # A table with the club's card on it needs no code of its own: "Scan the card on your
        # table". A table number without a card keeps its code.
        carded = set(services.current_cards(session.club).values_list("number", flat=True))
        context["cards"] = any(game.table in carded for game in games)
        for game in games:
            if game.table in carded:
                game.carded = True
                continue
            path = reverse("table:page", args=[game.table_token])
            game.link = absolute_url(self.request, path)
            game.link_host = game.link.split("://", 1)[-1].removesuffix(path)
            game.link_path = path
            game.qr = qr_svg(game.link, title=f"Table {game.table}: {game.link}")
        coded = [game for game in games if hasattr(game, "qr")]
        context["codes"] = bool(coded)
        context["local_only"] = bool(coded) and is_local_only(coded[0].link)
        return context


class RoundSwapView(RoundMixin, View):
    permission_required = "games.change_round"

    def post(self, request, pk):
        round_ = self.get_round()
        form = SwapForm(request.POST, round_=round_, seated=self.seated())
        if form.is_valid():
            players = {
                field: get_object_or_404(Player, pk=form.cleaned_data[field], club=self.club)
                for field in ("player_a", "player_b")
            }
            try:
                services.round_swap_seats(
                    round_=round_, actor=request.user, token=form.submission_token(), **players
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect("games:round", pk=round_.pk)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request, f"Swapped {players['player_a']} and {players['player_b']}."
                )
                return redirect("games:round", pk=round_.pk)
        context = self.page_context(swap_form=form)
        return render(request, "games/round.html", context, status=400)


class RoundWithdrawView(PermissionRequiredMixin, SessionMixin, View):
    """Withdraw a round drawn by mistake: the page says what goes and asks to confirm (GET);
    the confirm button posts. Pressed twice, it withdraws once (the form's one-time token), and
    never the round drawn again in the withdrawn one's place."""

    permission_required = services.WITHDRAW_PERMISSION
    template_name = "games/round_withdraw.html"

    def render_page(self, round_: Round, form: WithdrawForm, status: int = 200):
        session = self.get_session()
        refusal = (
            services.withdraw_refusal(round_)
            if session.is_open
            else "The session is settled: an organiser reopens it first."
        )
        context = {
            "round": round_,
            "session": session,
            "games": round_.games.prefetch_related("seats__player"),
            "refusal": refusal,
            "form": form,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk, number):
        round_ = get_object_or_404(Round, session=self.get_session(), number=number)
        return self.render_page(round_, WithdrawForm())

    def post(self, request, pk, number):
        session = self.get_session()
        back = reverse("web:session", args=[session.pk]) + "#rounds"
        round_ = session.rounds.filter(number=number).first()
        if round_ is None:
            messages.info(request, f"Round {number} is not drawn (withdrawn already?).")
            return redirect(back)
        form = WithdrawForm(request.POST)
        if form.is_valid():
            try:
                services.round_withdraw(
                    round_=round_, actor=request.user, token=form.submission_token()
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect(back)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"Round {number} withdrawn; the audit log keeps its seed ({round_.seed}) "
                    "and tables. Draw it again when everyone is checked in.",
                )
                return redirect(back)
        return self.render_page(round_, form, status=400)


class RoundScorecardsView(PermissionRequiredMixin, ClubMixin, View):
    """An organiser types in the round's paper scorecards on one screen (docs/spec.md "A
    Thursday, step by step", step 4): every table still without a confirmed result, all or nothing
    (games.services.round_results_enter), each bad table's error on its row. Signed scorecards
    are confirmed at once when the club's rule says so; otherwise they are drafts to confirm."""

    permission_required = services.CORRECT_PERMISSION
    template_name = "games/round_scorecards.html"

    def get_round(self) -> Round:
        return get_object_or_404(
            Round.objects.select_related("session"), pk=self.kwargs["pk"], session__club=self.club
        )

    @staticmethod
    def refusal(round_: Round, tables: list[RoundTable]) -> str | None:
        if not round_.session.is_open:
            return (
                "This session is settled: nothing in it can change. An organiser reopens it "
                "first, from its payout sheet."
            )
        if not tables:
            return f"Round {round_.number} has no tables."
        if not any(table.to_type for table in tables):
            return (
                f"Every table of round {round_.number} has a confirmed result or is marked not "
                "played: nothing is left to type. A wrong result is corrected on its game page, "
                "with a reason."
            )
        return None

    def render_page(self, round_, tables, form: ScorecardsForm, status: int = 200):
        refusal = self.refusal(round_, tables)
        if refusal is None:
            form.focus()
        context = {
            "round": round_,
            "session": round_.session,
            "rules": round_.session.house_rules,
            "tables": tables,
            "confirmed_count": sum(table.confirmed for table in tables),
            "not_played_count": sum(table.game.status == GameStatus.NOT_PLAYED for table in tables),
            "refusal": refusal,
            "form": None if refusal else form,
        }
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        round_ = self.get_round()
        tables = round_tables(round_)
        form = ScorecardsForm(tables=tables, rules=round_.session.house_rules)
        return self.render_page(round_, tables, form)

    def post(self, request, pk):
        round_ = self.get_round()
        tables = round_tables(round_)
        form = ScorecardsForm(request.POST, tables=tables, rules=round_.session.house_rules)
        if form.is_valid():
            try:
                results = services.round_results_enter(
                    round_=round_,
                    actor=request.user,
                    scores=form.scores(),
                    source=ResultSource.SCORECARD,
                    signed=form.cleaned_data["signed"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect("games:round", pk=round_.pk)
            except ValidationError as error:
                if getattr(error, "code", None) == services.NO_SCORES:
                    form.add_error(None, nothing_to_save(form))
                else:
                    form.add_table_errors(error)
            else:
                messages.success(request, entered_message(len(results), form.confirms()))
                return redirect("games:round", pk=round_.pk)
        return self.render_page(round_, tables, form, status=400)


def entered_message(count: int, confirmed: bool) -> str:
    if confirmed:
        return f"{count} result{'s' if count != 1 else ''} confirmed from signed scorecards."
    drafts = "1 draft" if count == 1 else f"{count} drafts"
    them = "it" if count == 1 else "them"
    return f"{drafts} entered: the other side or another organiser confirms {them}."


def nothing_to_save(form: ScorecardsForm) -> str:
    if any(table.draft for table in form.open_tables):
        if form.rules.signed_scorecards_confirm and not form.confirms():
            return (
                "Nothing to save: the drafts shown are saved already. Type another table's "
                "scores, or tick “The players signed these scorecards” to confirm them."
            )
        return "Nothing to save: the drafts shown are saved already; type another table's scores."
    return "Nothing to save: type at least one table's final scores."


class GameMixin(PageMixin, PermissionRequiredMixin, ClubMixin):
    permission_required = "games.view_game"
    template_name = "games/game.html"

    def get_game(self) -> Game:
        if not hasattr(self, "game"):
            self.game = get_object_or_404(
                Game.objects.select_related("session", "round"),
                pk=self.kwargs["pk"],
                session__club=self.club,
            )
        return self.game

    def sides(self) -> list[list[str]]:
        game = self.get_game()
        sides: list[list[str]] = [[] for _ in range(game.side_count)]
        for seat in game.seats.select_related("player").order_by("position"):
            sides[seat.side].append(seat.player.display_name)
        return sides

    def page_context(self, **overrides) -> dict:
        game = self.get_game()
        user = self.request.user
        history = list(game_history(game))
        current = next((r for r in history if r.state != ResultState.SUPERSEDED), None)
        for newer, older in zip(history, history[1:], strict=False):  # newest first
            older.replaced_by = newer
        seated = game.seats.filter(player__user=user).exists() if user.is_authenticated else False
        organiser = user.has_perm(services.CORRECT_PERMISSION)
        open_ = game.session.is_open
        context = {
            "game": game,
            "session": game.session,
            "seats": game.seats.select_related("player").order_by("position"),
            "history": history,
            "current": current,
            "sides": self.sides(),
            "panels": game_panels(self.request, game),
        }
        confirmed = current is not None and current.state == ResultState.CONFIRMED
        open_ = open_ and game.status == GameStatus.PLAYED  # else "back to playing" first
        if open_ and not confirmed and (seated or organiser) and user.has_perm("games.add_result"):
            initial = {}
            if current is not None:
                initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
            context["result_form"] = ResultForm(game=game, sides=self.sides(), initial=initial)
        if open_ and current is not None and current.state == ResultState.DRAFT:
            context["can_confirm"] = user.has_perm("games.confirm_result") and services.can_confirm(
                current, user
            )
        if open_ and organiser and game.status == GameStatus.PLAYED and not confirmed:
            context["unfinished_form"] = UnfinishedForm(seated=self.seated_players())
        context["can_resume"] = (
            game.session.is_open and organiser and game.status != GameStatus.PLAYED
        )
        if open_ and confirmed and services.can_correct(game, user):
            initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
            context["correction_form"] = CorrectionForm(
                game=game, sides=self.sides(), initial=initial
            )
        from games.correction_views import correction_panel  # it builds on this module

        bound = overrides.get("proposal_form")
        context.update(correction_panel(self.request, game, current, self.sides(), bound))
        context.update(overrides)
        return context

    def back(self):
        return redirect("games:game", pk=self.get_game().pk)

    def seated_players(self) -> list[tuple[int, str]]:
        seats = self.get_game().seats.select_related("player").order_by("position")
        return [(seat.player_id, seat.player.display_name) for seat in seats]


class GameUnfinishedView(GameMixin, View):
    """A game that cannot be finished: not played, or a forfeit (games.services.unfinished)."""

    permission_required = services.CORRECT_PERMISSION

    def post(self, request, pk):
        game = self.get_game()
        form = UnfinishedForm(request.POST, seated=self.seated_players())
        if form.is_valid():
            data = form.cleaned_data
            player = None
            if data["leaving"]:
                player = get_object_or_404(Player, pk=data["leaving"], club=self.club)
            try:
                if data["outcome"] == UnfinishedForm.FORFEIT:
                    services.game_forfeit(
                        game=game,
                        actor=request.user,
                        leaving=player,
                        reason=data["reason"],
                        leaves=data["leaves"],
                        token=form.submission_token(),
                    )
                else:
                    services.game_not_played(
                        game=game,
                        actor=request.user,
                        reason=data["reason"],
                        leaves=player if data["leaves"] else None,
                        token=form.submission_token(),
                    )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                game.refresh_from_db()
                gone = (
                    f" {player} leaves after round {game.round.number}." if data["leaves"] else ""
                )
                messages.success(request, f"Table {game.table}: {game.status_text}.{gone}")
                return self.back()
        return self.render_page(status=400, unfinished_form=form)


class GameBackToPlayingView(GameMixin, View):
    """Take back "not played" or a forfeit while the session is open."""

    permission_required = services.CORRECT_PERMISSION

    def post(self, request, pk):
        game = self.get_game()
        try:
            services.game_back_to_playing(game=game, actor=request.user)
        except ValidationError as error:
            return self.render_page(status=400, resume_error=" ".join(error.messages))
        messages.success(request, f"Table {game.table} is back to playing: enter its result.")
        return self.back()


class GameView(GameMixin, View):
    def get(self, request, pk):
        return self.render_page()


class ResultEnterView(GameMixin, View):
    permission_required = "games.add_result"

    def post(self, request, pk):
        game = self.get_game()
        form = ResultForm(request.POST, game=game, sides=self.sides())
        if form.is_valid():
            try:
                result = services.result_enter(
                    game=game,
                    actor=request.user,
                    scores=form.scores(),
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                who = (
                    "a player at the table or another organiser"
                    if result.entered_side is None
                    else "a player of another side"
                )
                messages.success(request, f"Result entered: {who} confirms it.")
                return self.back()
        return self.render_page(status=400, result_form=form)


class ResultConfirmView(GameMixin, View):
    permission_required = "games.confirm_result"

    def post(self, request, pk, result):
        game = self.get_game()
        draft = get_object_or_404(Result, pk=result, game=game)
        try:
            services.result_confirm(result=draft, actor=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, f"Table {game.table}'s result confirmed.")
        return self.back()


class ResultCorrectView(GameMixin, View):
    permission_required = services.CORRECT_PERMISSION

    def post(self, request, pk):
        game = self.get_game()
        form = CorrectionForm(request.POST, game=game, sides=self.sides())
        if form.is_valid():
            try:
                services.result_correct(
                    game=game,
                    actor=request.user,
                    scores=form.scores(),
                    reason=form.cleaned_data["reason"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Result corrected; the earlier version is kept below.")
                return self.back()
        return self.render_page(status=400, correction_form=form)
