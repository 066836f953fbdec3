"""Addresses never change when code moves between apps: every URL the site had before the apps
were laid in layers (money, standings and web came out of club and games) answers at the same
path, and the names that moved say where they went.

Terms: OLD_URLS is the site's URL conf as it stood before the move, (old name, path pattern),
written down then; NEW_NAMES maps each name that moved to its name now (the others kept theirs).
"""

import re

import pytest
from django.urls import resolve, reverse

from tests.web.test_pages import named_urls

OLD_URLS = (
    ("health", "healthz"),
    ("home", ""),
    ("login", "login/"),
    ("logout", "logout/"),
    ("club:rules", "club/rules/"),
    ("club:rules_edit", "club/rules/edit/"),
    ("club:players", "club/players/"),
    ("club:player_add", "club/players/add/"),
    ("club:player_edit", "club/players/<int:pk>/edit/"),
    ("club:audit", "club/audit/"),
    ("club:sessions", "club/sessions/"),
    ("club:session_open", "club/sessions/open/"),
    ("club:session", "club/sessions/<int:pk>/"),
    ("club:checkin_add", "club/sessions/<int:pk>/checkin/"),
    ("club:checkin_paid", "club/sessions/<int:pk>/checkins/<int:checkin>/paid/"),
    ("club:checkin_unpaid", "club/sessions/<int:pk>/checkins/<int:checkin>/unpaid/"),
    ("club:checkin_undo", "club/sessions/<int:pk>/checkins/<int:checkin>/undo/"),
    ("club:session_export", "club/sessions/<int:pk>/export/"),
    ("club:session_settle", "club/sessions/<int:pk>/settle/"),
    ("money:settle_preview", "club/sessions/<int:pk>/settle/preview/"),
    ("club:settlement", "club/sessions/<int:pk>/settlement/"),
    ("club:session_reopen", "club/sessions/<int:pk>/reopen/"),
    ("club:ledger", "club/ledger/"),
    ("club:player_money", "club/players/<int:pk>/money/"),
    ("games:standings", "games/standings/"),
    ("games:all_time", "games/all-time/"),
    ("standings:ratings", "games/ratings/"),
    ("games:player", "games/players/<int:pk>/"),
    ("games:round_draw", "games/sessions/<int:pk>/draw/"),
    ("games:round", "games/rounds/<int:pk>/"),
    ("games:round_print", "games/rounds/<int:pk>/print/"),
    ("games:round_swap", "games/rounds/<int:pk>/swap/"),
    ("games:table_cards", "games/table-cards/"),
    ("games:table_cards_renew", "games/table-cards/new/"),
    ("games:game", "games/<int:pk>/"),
    ("games:result_enter", "games/<int:pk>/result/"),
    ("games:result_confirm", "games/<int:pk>/results/<int:result>/confirm/"),
    ("games:result_correct", "games/<int:pk>/correct/"),
    ("scoring:counter", "scoring/counter/"),
    ("scoring:discard", "scoring/discard/"),
    ("scoring:claim_new", "scoring/games/<int:pk>/claims/new/"),
    ("scoring:claim", "scoring/claims/<int:pk>/"),
    ("scoring:muggins", "scoring/claims/<int:pk>/muggins/"),
    ("scoring:dispute_open", "scoring/claims/<int:pk>/dispute/"),
    ("scoring:queue", "scoring/disputes/"),
    ("scoring:dispute_rule", "scoring/disputes/<int:pk>/rule/"),
    ("scoring:dispute_appeal", "scoring/disputes/<int:pk>/appeal/"),
    ("scoring:session_report", "scoring/sessions/<int:pk>/disputes/"),
    # Added after the move: the organisers' login lock-outs.
    ("web:lockouts", "club/lockouts/"),
    ("web:lockout_lift", "club/lockouts/lift/"),
    # ... and moving or deleting a session nobody has played in yet.
    ("club:session_redate", "club/sessions/<int:pk>/date/"),
    ("club:session_delete", "club/sessions/<int:pk>/delete/"),
    # ... withdrawing a round drawn by mistake (its confirm step and the withdraw).
    ("games:round_withdraw", "games/sessions/<int:pk>/rounds/<int:number>/withdraw/"),
    # ... skunk coins taken (and handed back) on the session page, and a jackpot's cards confirmed.
    ("money:skunk_coin_paid", "club/sessions/<int:pk>/skunk-coins/<int:game>/<int:player>/paid/"),
    ("money:skunk_coins_collect", "club/sessions/<int:pk>/skunk-coins/collect/"),
    ("money:skunk_coin_back", "club/sessions/<int:pk>/skunk-coins/<int:coin>/back/"),
    ("scoring:claim_confirm_cards", "scoring/claims/<int:pk>/confirm-cards/"),
    # ... a round's scorecards typed in on one screen.
    ("games:round_scorecards", "games/rounds/<int:pk>/scorecards/"),
    # ... the welcome page of one-time login links, a player's login page and its actions,
    # one's own account.
    ("welcome", "welcome/<str:link>/"),
    ("club:player_login", "club/players/<int:pk>/login/"),
    ("club:player_login_give", "club/players/<int:pk>/login/give/"),
    ("club:player_login_role", "club/players/<int:pk>/login/role/"),
    ("club:player_login_link", "club/players/<int:pk>/login/link/"),
    ("club:player_pin", "club/players/<int:pk>/pin/"),
    ("club:account", "club/account/"),
    ("club:account_password", "club/account/password/"),
    ("club:account_pin", "club/account/pin/"),
    # ... a table's link (the seating chart's QR codes): its page, its result, its claims.
    ("table:page", "t/<str:token>/"),
    ("table:worker", "t/sw.js"),
    ("table:result", "t/<str:token>/result/"),
    ("table:accept", "t/<str:token>/results/<int:result>/accept/"),
    ("table_claims:claim_new", "t/<str:token>/claims/new/"),
    ("table_claims:dispute_open", "t/<str:token>/claims/<int:claim>/dispute/"),
    ("table_claims:muggins", "t/<str:token>/claims/<int:claim>/muggins/"),
    ("table_claims:cards_confirm", "t/<str:token>/claims/<int:claim>/cards/"),
    # ... the live board of a session and the refresh of its parts.
    ("web:board", "club/sessions/<int:pk>/board/"),
    ("web:board_parts", "club/sessions/<int:pk>/board/parts/"),
    # ... a check-in's rounds not drawn: leaves after a round, sits out a round, their undos.
    ("web:checkin_leaves", "club/sessions/<int:pk>/checkins/<int:checkin>/leaves/"),
    ("web:checkin_leaves_undo", "club/sessions/<int:pk>/checkins/<int:checkin>/leaves/undo/"),
    ("web:checkin_sits_out", "club/sessions/<int:pk>/checkins/<int:checkin>/sits-out/"),
    ("games:game_unfinished", "games/<int:pk>/unfinished/"),
    ("games:game_back_to_playing", "games/<int:pk>/back-to-playing/"),
    ("web:checkin_sits_out_undo", "club/sessions/<int:pk>/checkins/<int:checkin>/sits-out/undo/"),
    # ... the fee per game on a check-in: take, change given back, undo.
    ("web:checkin_fee_take", "club/sessions/<int:pk>/checkins/<int:checkin>/fee/take/"),
    ("web:checkin_fee_change", "club/sessions/<int:pk>/checkins/<int:checkin>/fee/change/"),
    ("web:checkin_fee_undo", "club/sessions/<int:pk>/checkins/<int:checkin>/fee/undo/"),
    # ... a correction proposed to the other side, withdrawn, accepted by its one-time link.
    ("games:correction_propose", "games/<int:pk>/corrections/propose/"),
    ("games:correction_withdraw", "games/<int:pk>/corrections/<int:proposal>/withdraw/"),
    ("accept_link:page", "a/<str:key>/"),
    # ... a judge named for one dispute and that judge's one-time link.
    ("scoring:dispute_name_judge", "scoring/disputes/<int:pk>/judge/"),
    ("judge_link:page", "j/<str:key>/"),
    # ... the tournaments: the list, a new one, the director's page and its actions, the
    # standings and the bracket.
    ("tournaments:list", "tournaments/"),
    ("tournaments:new", "tournaments/new/"),
    ("tournaments:detail", "tournaments/<int:pk>/"),
    ("tournaments:draw", "tournaments/<int:pk>/draw/"),
    ("tournaments:close", "tournaments/<int:pk>/close/"),
    ("tournaments:prizes", "tournaments/<int:pk>/prizes/"),
    ("tournaments:forfeit", "tournaments/matches/<int:pk>/forfeit/"),
    ("tournaments:standings", "tournaments/<int:pk>/standings/"),
    ("tournaments:bracket", "tournaments/<int:pk>/bracket/"),
)
NEW_NAMES = {
    "club:session": "web:session",
    "club:checkin_add": "web:checkin_add",
    "club:checkin_paid": "web:checkin_paid",
    "club:checkin_unpaid": "web:checkin_unpaid",
    "club:checkin_undo": "web:checkin_undo",
    "club:session_export": "web:session_export",
    "club:session_settle": "money:session_settle",
    "club:settlement": "money:settlement",
    "club:session_reopen": "money:session_reopen",
    "club:ledger": "money:ledger",
    "club:player_money": "money:player_money",
    "games:standings": "standings:season",
    "games:all_time": "standings:all_time",
    "games:player": "standings:player",
}


def test_every_url_keeps_its_path():
    now = dict(named_urls())
    full = {name: path for name, path in _full_paths()}
    for old, path in OLD_URLS:
        name = NEW_NAMES.get(old, old)
        assert name in now, f"{old} (now {name}) is gone"
        assert full[name] == path, f"{name} moved from /{path} to /{full[name]}"
    assert len(full) == len(OLD_URLS), "a new page: add it to OLD_URLS once it has shipped"


def _full_paths(resolver=None, prefix="", namespace=""):
    from django.urls import URLPattern, URLResolver, get_resolver

    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _full_paths(pattern, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}", prefix + str(pattern.pattern)


@pytest.mark.parametrize(("old", "path"), [pair for pair in OLD_URLS if "<" in pair[1]])
def test_old_paths_resolve_to_the_view_of_the_new_name(old, path):
    concrete = "/" + re.sub(r"<str:\w+>", "abc", re.sub(r"<int:\w+>", "7", path))
    match = resolve(concrete)
    assert match.view_name == NEW_NAMES.get(old, old)
    assert reverse(match.view_name, kwargs=match.kwargs) == concrete
