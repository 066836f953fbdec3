"""The state the site's forms need, and how to post to every view that accepts POST.

Terms:
- world: the state the forms need, built once per test through the services (the `world` fixture
  of conftest.py): a club with a session open, four checked-in, paid players seated by round 1's
  draw, two organisers and a judge, a spare player not checked in, and another club on the same
  site, nothing of which may change.
- endpoint: a named URL whose view accepts POST (a class view with a `post` method; a function
  view that does not answer POST with 405). The set is read from the URL conf, so a new POST
  view without a `Target` here fails `test_every_post_view_is_fuzzed`.
- target: how to post to one endpoint: the URL (with real objects in the state the form needs), the
  user who posts (the most powerful role that may: an organiser, a judge for rulings, a seated
  player for disputes), the form's fields with a strategy each, and valid baselines.
- objects: the objects of a world that fill a page's URL parameters (`url_of`), keyed as
  tests.web.test_pages.url_for names them.

The world and what a target is live in `hostile_world_base`; the targets of a table's link and of
logins, passwords and PINs in `hostile_links`, the tournaments' in `hostile_tournaments`;
`TARGETS` here holds them all.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from hypothesis import strategies as st

from club import services as club_services
from club.forms import (
    CheckInForm,
    HouseRulesForm,
    PlayerForm,
    SessionOpenForm,
    SessionRedateForm,
)
from club.models import CheckIn, Session
from club.services import login_give
from games import services as game_services
from games.forms import (
    CorrectionForm,
    ResultForm,
    ScorecardsForm,
    SwapForm,
    TableAcceptForm,
    TableCardsForm,
    TableCardsRenewForm,
    UnfinishedForm,
    WithdrawForm,
)
from games.selectors import round_tables
from money import services as club_settlement
from money.forms import ReopenForm
from scoring import services as scoring_services
from scoring.forms import (
    ClaimForm,
    ConfirmCardsForm,
    LinkRulingForm,
    MugginsForm,
    NameJudgeForm,
    RulingForm,
    StatementForm,
)
from tests.factories import PASSWORD
from tests.security import hostile_links, hostile_tournaments
from tests.security.hostile_values import CARD, HAND, HOSTILE
from tests.security.hostile_world_base import (
    Fields,
    Target,
    World,
    as_post,
    confirm_all,
    file_claim,
    form_fields,
    open_dispute,
    side_names,
)
from tests.web.test_pages import PK_OBJECT, name_a_judge, named_urls, url_for


def rules_edit(w: World) -> Target:
    form = HouseRulesForm(instance=w.club)
    valid = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            valid[name] = "on"
        elif value is not False:
            valid[name] = as_post(value)
    valid["venue"] = "The Legion hall"
    return Target(reverse("club:rules_edit"), w.organiser, form_fields(form, w), [valid])


def player_add(w: World) -> Target:
    form = PlayerForm(club=w.club)
    valid = [
        {"display_name": "New Player", "active": "on"},
        {"display_name": "Al", "nickname": "Big Al", "joined": "2026-01-15"},
    ]
    return Target(reverse("club:player_add"), w.organiser, form_fields(form, w), valid)


def player_edit(w: World) -> Target:
    form = PlayerForm(club=w.club, player=w.spare)
    valid = [{"display_name": "Spare Renamed", "active": "on"}]
    url = reverse("club:player_edit", args=[w.spare.pk])
    return Target(url, w.organiser, form_fields(form, w), valid)


def session_open(w: World) -> Target:
    valid = [{"date": "2026-12-03", "starts_at": "09:30"}]
    fields = form_fields(SessionOpenForm(), w)
    return Target(reverse("club:session_open"), w.organiser, fields, valid)


def unplayed_session(w: World) -> Session:
    """A session opened a week after the world's, with nobody drawn yet (one may move it)."""
    return club_services.session_open(club=w.club, actor=w.organiser, date=dt.date(2026, 3, 12))


def session_redate(w: World) -> Target:
    session = unplayed_session(w)
    fields = form_fields(SessionRedateForm(), w)
    valid = [{"date": "2026-03-19"}]
    return Target(reverse("club:session_redate", args=[session.pk]), w.organiser, fields, valid)


def session_delete(w: World) -> Target:
    session = unplayed_session(w)
    return Target(reverse("club:session_delete", args=[session.pk]), w.organiser)


def checkin_add(w: World) -> Target:
    fields = form_fields(CheckInForm(club=w.club), w)
    fields["name"] = st.one_of(
        st.sampled_from(("Spare Player", "spare  player", "Outsider", w.players[0].display_name)),
        HOSTILE,
    )
    valid = [{"name": "Spare Player"}, {"name": "Brand New", "new_player": "on"}]
    return Target(reverse("web:checkin_add", args=[w.session.pk]), w.organiser, fields, valid)


def checkin_action(action: str) -> Callable[[World], Target]:
    def target(w: World) -> Target:
        if action == "unpaid":
            checkin = CheckIn.objects.get(session=w.session, player=w.players[0])
        else:  # mark the spare's fee paid, or take the spare's check-in back
            checkin = club_services.checkin_create(
                session=w.session, actor=w.organiser, player=w.spare
            )
        url = reverse(f"web:checkin_{action}", args=[w.session.pk, checkin.pk])
        return Target(url, w.organiser)

    return target


def checkin_absence(action: str) -> Callable[[World], Target]:
    """Leaves after a round, sits out a round, and their undos, on a seated player's check-in
    (round 1 is drawn: leaving after 1 and sitting out 2 are valid)."""

    def target(w: World) -> Target:
        checkin = CheckIn.objects.get(session=w.session, player=w.players[0])
        url = reverse(f"web:checkin_{action}", args=[w.session.pk, checkin.pk])
        if action == "leaves_undo":
            return Target(url, w.organiser)
        rounds = st.sampled_from(("1", "2", "3", "0", "-1", "99", ""))
        fields = Fields({"round": st.one_of(rounds, HOSTILE)}, text=["round"])
        valid = {"leaves": "1", "sits_out": "2", "sits_out_undo": "2"}[action]
        return Target(url, w.organiser, fields, [{"round": valid}])

    return target


def _per_game_checkin(w: World) -> CheckIn:
    """A check-in of a second session of the club, opened while its fee is per game."""
    w.club.fee_per = "game"
    w.club.save(update_fields=["fee_per"])
    day = w.session.date + dt.timedelta(days=1)
    session = club_services.session_open(club=w.club, actor=w.organiser, date=day)
    w.club.fee_per = "session"
    w.club.save(update_fields=["fee_per"])
    return club_services.checkin_create(session=session, actor=w.organiser, player=w.players[0])


def checkin_fee(action: str) -> Callable[[World], Target]:
    """The fee per game's buttons on a check-in of a per-game session: take what is owed (or
    an amount ahead, fuzzed), change given back, undo the last payment."""

    def target(w: World) -> Target:
        checkin = _per_game_checkin(w)
        url = reverse(f"web:checkin_fee_{action}", args=[checkin.session_id, checkin.pk])
        if action != "take":
            return Target(url, w.organiser)
        amounts = st.sampled_from(("25", "75¢", "$1.50", "0", "-25", "1e9", ""))
        fields = Fields(
            {"amount": st.one_of(amounts, HOSTILE), "kept": st.one_of(amounts, HOSTILE)},
            text=["amount", "kept"],
        )
        return Target(url, w.organiser, fields, [{"amount": "25"}, {}])

    return target


def round_draw(w: World) -> Target:
    """The draw button names the round it draws (round 1 is drawn: 1 is a no-op, 2 draws)."""
    fields = Fields(
        {"round_number": st.one_of(st.sampled_from(("1", "2", "3", "0", "")), HOSTILE)},
        text=["round_number"],
    )
    url = reverse("games:round_draw", args=[w.session.pk])
    return Target(url, w.organiser, fields, [{"round_number": "2"}, {}])


def round_swap(w: World) -> Target:
    round_ = w.game.round
    seated = [(p.pk, p.display_name) for p in w.players]
    elsewhere = next(p for p in w.players if p not in w.seat_players())
    valid = [{"player_a": str(w.players[0].pk), "player_b": str(elsewhere.pk)}]
    fields = form_fields(SwapForm(round_=round_, seated=seated), w)
    return Target(reverse("games:round_swap", args=[round_.pk]), w.organiser, fields, valid)


def round_withdraw(w: World) -> Target:
    """Withdraw round 1 (drawn, no result, no claim: allowed); only the one-time token is read."""
    url = reverse("games:round_withdraw", args=[w.session.pk, w.game.round.number])
    return Target(url, w.organiser, form_fields(WithdrawForm(), w), [{}])


def table_cards_make(w: World) -> Target:
    """The club's cards for tables 1 to N (N from 1 to 200)."""
    url = reverse("games:table_cards")
    return Target(url, w.organiser, form_fields(TableCardsForm(), w), [{"up_to": "3"}])


def table_cards_renew(w: World) -> Target:
    """New cards for the club's cards (made first); only the one-time token is read."""
    game_services.table_cards_make(club=w.club, actor=w.organiser, up_to=2)
    url = reverse("games:table_cards_renew")
    return Target(url, w.organiser, form_fields(TableCardsRenewForm(), w), [{}])


def round_scorecards(w: World) -> Target:
    """Round 1's two tables typed in at once: one table as a draft, or both signed (confirmed)."""
    round_ = w.game.round
    form = ScorecardsForm(tables=round_tables(round_), rules=w.session.house_rules)
    first, second = (game.table for game in round_.games.order_by("table"))
    one = {f"table_{first}_side_0": "121", f"table_{first}_side_1": "100"}
    both = {**one, f"table_{second}_side_0": "60", f"table_{second}_side_1": "121", "signed": "on"}
    url = reverse("games:round_scorecards", args=[round_.pk])
    return Target(url, w.organiser, form_fields(form, w), [one, both])


def result_enter(w: World) -> Target:
    fields = form_fields(ResultForm(game=w.game, sides=side_names(w)), w)
    valid = [{"side_0": "121", "side_1": "100"}, {"side_0": "45", "side_1": "121"}]
    return Target(reverse("games:result_enter", args=[w.game.pk]), w.organiser, fields, valid)


def result_confirm(w: World) -> Target:
    draft = game_services.result_enter(game=w.game, actor=w.organiser, scores=[121, 100])
    url = reverse("games:result_confirm", args=[w.game.pk, draft.pk])
    return Target(url, w.organiser2)


def result_correct(w: World) -> Target:
    confirm_all(w)
    fields = form_fields(CorrectionForm(game=w.game, sides=side_names(w)), w)
    valid = [{"side_0": "121", "side_1": "90", "reason": "Miscounted the last hand."}]
    return Target(reverse("games:result_correct", args=[w.game.pk]), w.organiser, fields, valid)


def game_unfinished(w: World) -> Target:
    """Not played or a forfeit at the world's first game (no result yet)."""
    seated = [(seat.player_id, seat.player.display_name) for seat in w.game.seats.all()]
    fields = form_fields(UnfinishedForm(seated=seated), w)
    leaving = str(seated[0][0])
    valid = [
        {"outcome": "not_played", "reason": "Taken ill."},
        {"outcome": "forfeit", "leaving": leaving, "leaves": "on"},
    ]
    return Target(reverse("games:game_unfinished", args=[w.game.pk]), w.organiser, fields, valid)


def game_back_to_playing(w: World) -> Target:
    game_services.game_not_played(game=w.game, actor=w.organiser)
    return Target(reverse("games:game_back_to_playing", args=[w.game.pk]), w.organiser)


def session_settle(w: World) -> Target:
    confirm_all(w)
    return Target(reverse("money:session_settle", args=[w.session.pk]), w.organiser)


def session_reopen(w: World) -> Target:
    confirm_all(w)
    club_settlement.session_settle(session=w.session, actor=w.organiser, seed=1)
    fields = form_fields(ReopenForm(), w)
    valid = [{"reason": "A fee was counted twice."}]
    return Target(reverse("money:session_reopen", args=[w.session.pk]), w.organiser, fields, valid)


def skunk_bank_on(w: World) -> None:
    """The world's session runs the skunk bank and its games are confirmed, table 1's loser
    skunked (80 is under the skunk line of 91): a coin is owed."""
    rules = {**w.session.rules, "skunk_bank": True}
    Session.objects.filter(pk=w.session.pk).update(rules=rules)
    w.session.refresh_from_db()
    w.session.__dict__.pop("house_rules", None)
    confirm_all(w, scores=(121, 80))


def skunk_coin_paid(w: World) -> Target:
    skunk_bank_on(w)
    loser = w.seat_players()[1]
    url = reverse("money:skunk_coin_paid", args=[w.session.pk, w.game.pk, loser.pk])
    return Target(url, w.organiser)


def skunk_coins_collect(w: World) -> Target:
    skunk_bank_on(w)
    return Target(reverse("money:skunk_coins_collect", args=[w.session.pk]), w.organiser)


def skunk_coin_back(w: World) -> Target:
    skunk_bank_on(w)
    (coin, *_) = club_settlement.skunk_coins_collect(session=w.session, actor=w.organiser)
    return Target(reverse("money:skunk_coin_back", args=[w.session.pk, coin.pk]), w.organiser)


def claim_new(w: World) -> Target:
    seated = [(p.pk, p.display_name) for p in w.seat_players()]
    first, second = (str(pk) for pk, _ in seated)
    overrides = {"hand": HAND, "starter": CARD}
    overrides.update({f"play_card_{row}": CARD for row in range(1, 9)})
    fields = form_fields(ClaimForm(seated=seated), w, **overrides)
    valid = [
        {
            "kind": "hand",
            "claimant": first,
            "claimed_points": "12",
            "hand": "5H 5C 5S JD",
            "starter": "5D",
            "deal": "3",
        },
        {"kind": "heels", "claimant": second, "claimed_points": "2", "starter": "JH"},
        {
            "kind": "play",
            "claimant": second,
            "claimed_points": "2",
            "play_player_1": first,
            "play_card_1": "10H",
            "play_player_2": second,
            "play_card_2": "5S",
        },
    ]
    return Target(reverse("scoring:claim_new", args=[w.game.pk]), w.organiser, fields, valid)


def muggins(w: World) -> Target:
    claim = file_claim(w)
    opponent = w.seat_players()[1]
    fields = form_fields(MugginsForm(opponents=[(opponent.pk, opponent.display_name)]), w)
    valid = [{"caller": str(opponent.pk), "points": points} for points in ("1", "5")]
    return Target(reverse("scoring:muggins", args=[claim.pk]), w.organiser, fields, valid)


def claim_confirm_cards(w: World) -> Target:
    """The claim counts 29: the other side (seated at side 1) confirms its cards."""
    claim = file_claim(w)
    fields = form_fields(ConfirmCardsForm(), w)
    url = reverse("scoring:claim_confirm_cards", args=[claim.pk])
    return Target(url, w.seat_users()[1], fields, [{}])


def dispute_open(w: World) -> Target:
    claim = file_claim(w)
    fields = form_fields(StatementForm(), w)
    valid = [{"statement": "The jack is his nobs: 29."}]
    url = reverse("scoring:dispute_open", args=[claim.pk])
    return Target(url, w.seat_users()[1], fields, valid)


def dispute_rule(w: World) -> Target:
    dispute = open_dispute(w)
    sides = [(side, p.display_name) for side, p in enumerate(w.seat_players())]
    fields = form_fields(RulingForm(sides=sides), w)
    fields["decision"] = st.one_of(st.sampled_from(("agree", "override", "AGREE")), HOSTILE)
    fields.text.add("decision")  # read from the POST as it is, outside the form
    valid = [
        {"decision": "agree"},
        {"decision": "override", "side_0": "28", "side_1": "0", "reason": "Nobs was missed."},
    ]
    return Target(reverse("scoring:dispute_rule", args=[dispute.pk]), w.judge, fields, valid)


def dispute_appeal(w: World) -> Target:
    dispute = open_dispute(w)
    scoring_services.dispute_rule(dispute=dispute, actor=w.judge, decision="agree")
    fields = form_fields(StatementForm(), w)
    valid = [{"statement": "The judge missed the run."}]
    url = reverse("scoring:dispute_appeal", args=[dispute.pk])
    return Target(url, w.seat_users()[0], fields, valid)


def propose(game, scores=(121, 95)):
    """A correction of `game`'s confirmed result proposed by its first seated login."""
    seat = game.seats.filter(player__user__isnull=False).select_related("player__user").first()
    return game_services.correction_propose(
        game=game, actor=seat.player.user, scores=list(scores), reason="Miscounted."
    )


def correction_propose(w: World) -> Target:
    confirm_all(w)
    fields = form_fields(CorrectionForm(game=w.game, sides=side_names(w)), w)
    valid = [{"side_0": "121", "side_1": "90", "reason": "Miscounted the last hand."}]
    url = reverse("games:correction_propose", args=[w.game.pk])
    return Target(url, w.seat_users()[0], fields, valid)


def correction_withdraw(w: World) -> Target:
    confirm_all(w)
    proposal, _ = propose(w.game)
    user = proposal.proposed_by
    url = reverse("games:correction_withdraw", args=[w.game.pk, proposal.pk])
    return Target(url, user)


def accept_link(w: World) -> Target:
    """A player of the other side accepts a proposed correction, nobody logged in."""
    confirm_all(w)
    proposal, key = propose(w.game)
    other = next(s for s in w.game.seats.all() if s.side != proposal.proposed_side)
    fields = form_fields(TableAcceptForm(pin=False), w)
    valid = [{"player": str(other.player_id)}]
    return Target(reverse("accept_link:page", args=[key]), None, fields, valid)


def dispute_name_judge(w: World) -> Target:
    dispute = open_dispute(w)
    candidates = [(p.pk, p.display_name) for p in scoring_services.judge_candidates(dispute)]
    fields = form_fields(NameJudgeForm(candidates=candidates), w)
    valid = [{"player": str(candidates[0][0])}]
    url = reverse("scoring:dispute_name_judge", args=[dispute.pk])
    return Target(url, w.organiser, fields, valid)


def judge_link(w: World) -> Target:
    """A bystander named judge rules through the link, nobody logged in."""
    dispute = open_dispute(w)
    key = name_a_judge(dispute)
    sides = [(side, p.display_name) for side, p in enumerate(w.seat_players())]
    fields = form_fields(LinkRulingForm(sides=sides, pin=False), w)
    fields["decision"] = st.one_of(st.sampled_from(("agree", "override", "AGREE")), HOSTILE)
    fields.text.add("decision")
    valid = [
        {"decision": "agree"},
        {"decision": "override", "side_0": "28", "side_1": "0", "reason": "Nobs was missed."},
    ]
    return Target(reverse("judge_link:page", args=[key]), None, fields, valid)


def login(w: World) -> Target:
    username = w.organiser.get_username()
    fields = Fields(
        {
            "username": st.one_of(st.just(username), HOSTILE),
            "password": st.one_of(st.just(PASSWORD), HOSTILE),
        },
        text=["username", "password"],
    )
    return Target(reverse("login"), None, fields, [{"username": username, "password": PASSWORD}])


def logout(w: World) -> Target:
    return Target(reverse("logout"), w.organiser)


def lockout_lift(w: World) -> Target:
    """A player's login locked out (ten failures from one address), lifted by an organiser."""
    username = w.users[w.players[0].pk].get_username()
    AccessAttempt.objects.create(
        username=username,
        ip_address="203.0.113.9",
        user_agent="hostile",
        failures_since_start=10,
        get_data="",
        post_data="",
        http_accept="*/*",
        path_info="/login/",
    )
    names = [username, w.outsider.display_name, w.organiser.get_username(), username.upper()]
    fields = Fields({"username": st.one_of(st.sampled_from(names), HOSTILE)}, text=["username"])
    return Target(reverse("web:lockout_lift"), w.organiser, fields, [{"username": username}])


TARGETS: dict[str, Callable[[World], Target]] = {
    **hostile_links.TARGETS,
    **hostile_tournaments.TARGETS,
    "login": login,
    "logout": logout,
    "web:lockout_lift": lockout_lift,
    "club:rules_edit": rules_edit,
    "club:player_add": player_add,
    "club:player_edit": player_edit,
    "club:session_open": session_open,
    "club:session_redate": session_redate,
    "club:session_delete": session_delete,
    "web:checkin_add": checkin_add,
    "web:checkin_paid": checkin_action("paid"),
    "web:checkin_unpaid": checkin_action("unpaid"),
    "web:checkin_undo": checkin_action("undo"),
    "web:checkin_leaves": checkin_absence("leaves"),
    "web:checkin_leaves_undo": checkin_absence("leaves_undo"),
    "web:checkin_sits_out": checkin_absence("sits_out"),
    "web:checkin_sits_out_undo": checkin_absence("sits_out_undo"),
    "web:checkin_fee_take": checkin_fee("take"),
    "web:checkin_fee_change": checkin_fee("change"),
    "web:checkin_fee_undo": checkin_fee("undo"),
    "money:session_settle": session_settle,
    "money:session_reopen": session_reopen,
    "money:skunk_coin_paid": skunk_coin_paid,
    "money:skunk_coins_collect": skunk_coins_collect,
    "money:skunk_coin_back": skunk_coin_back,
    "games:round_draw": round_draw,
    "games:round_swap": round_swap,
    "games:round_withdraw": round_withdraw,
    "games:round_scorecards": round_scorecards,
    "games:table_cards": table_cards_make,
    "games:table_cards_renew": table_cards_renew,
    "games:result_enter": result_enter,
    "games:result_confirm": result_confirm,
    "games:result_correct": result_correct,
    "games:game_unfinished": game_unfinished,
    "games:game_back_to_playing": game_back_to_playing,
    "scoring:claim_new": claim_new,
    "scoring:muggins": muggins,
    "scoring:claim_confirm_cards": claim_confirm_cards,
    "scoring:dispute_open": dispute_open,
    "scoring:dispute_rule": dispute_rule,
    "scoring:dispute_appeal": dispute_appeal,
    "scoring:dispute_name_judge": dispute_name_judge,
    "judge_link:page": judge_link,
    "games:correction_propose": correction_propose,
    "games:correction_withdraw": correction_withdraw,
    "accept_link:page": accept_link,
}


def post_views(club, organiser) -> set[str]:
    """Every URL name whose view accepts POST: a class view with a `post` method; a function
    view that does not answer an organiser's empty POST with 405."""
    names = set()
    for name, pattern in named_urls():
        view_class = getattr(pattern.callback, "view_class", None)
        if view_class is not None:
            if hasattr(view_class, "post") and "post" in view_class.http_method_names:
                names.add(name)
            continue
        client = Client()
        client.force_login(organiser)
        if client.post(url_for(name, club)).status_code != 405:
            names.add(name)
    return names


def url_of(name: str, objects: dict) -> str:
    pattern = dict(named_urls())[name]
    kwargs = {}
    for key in pattern.pattern.converters:
        if key == "pk":
            owner = next(obj for prefix, obj in PK_OBJECT.items() if name.startswith(prefix))
            kwargs[key] = objects[owner].pk
        elif key == "number":  # a round's number within the session
            kwargs[key] = objects["round"].number
        elif key == "link":  # a live one-time login link of a new player of the club
            newcomer = club_services.player_create(
                club=objects["player"].club, actor=None, display_name=f"New {len(objects)}"
            )
            username = f"new{newcomer.pk}"
            kwargs[key] = login_give(player=newcomer, actor=None, username=username, role="player")
        elif key == "token":  # a table's link
            kwargs[key] = objects["game"].table_token
        elif key == "key" and name.startswith("accept_link"):
            kwargs[key] = propose(objects["game"])[1]
        elif key == "key":  # a live judge's link: a bystander named judge
            kwargs[key] = name_a_judge(objects.get("open dispute", objects["dispute"]))
        elif key == "proposal":
            kwargs[key] = propose(objects["game"])[0].pk
        else:
            kwargs[key] = objects[key].pk
    return reverse(name, kwargs=kwargs)
