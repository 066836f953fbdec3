"""An edited backup does not import silently: `import_club` checks every row of the file
against what the site keeps true before it writes one, and refuses with exit code 2, naming the
first broken row, with nothing imported, however the file is signed: the money's rows agree
with each other (the claims recounted: tests/ops/test_backup_claims.py), and the logins carry
their role groups only. A login is never made staff or superuser.

Terms: the *document* is the export of the history (tests/ops/conftest.py), built once for this
module and rolled back, so every test starts from an empty database; an *edit* changes one
thing in a copy of the document, as a hand or a script might; the edited document is written
*signed* with this site's key (as by someone who has it), or unsigned and imported with
`--trust-unsigned`: the row checks hold either way.
"""

import copy
import datetime as dt
import io
from collections import Counter

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from club.models import Club, Player
from core.cents import MONEY_LIMIT_CENTS
from core.models import AuditEntry
from ops.audit import OpsVerb
from tests.demo_snapshot import load_demo
from tests.factories import UserFactory
from tests.ops.backup_support import (
    SLUG,
    TODAY,
    User,
    cli,
    empty_the_database,
    export_text,
    find,
    refused,
    rows,
    without_export_time,
    without_restores,
    write,
    write_unsigned,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


# --- Edits of the rows ------------------------------------------------------------------------


def payout_plus_100(document, outsider):
    payout = next(row for row in rows(document, "money.payout") if row["fields"]["amount_cents"])
    payout["fields"]["amount_cents"] += 100
    settlement = payout["fields"]["settlement"]
    pot = next(r for r in rows(document, "money.settlement") if r["pk"] == settlement)["fields"]
    total = sum(
        row["fields"]["amount_cents"]
        for row in rows(document, "money.payout")
        if row["fields"]["settlement"] == settlement
    )
    return (
        f"money.settlement #{settlement}: its payouts sum to {total:,}¢ "
        f"but its pot is {pot['pot_cents']:,}¢"
    )


def ledger_row_changed(document, outsider):
    fee = find(document, "money.ledgerentry", pot="main", kind="fee")
    fee["fields"]["amount_cents"] += 25
    return (
        f"money.settlement #{fee['fields']['settlement']}: its ledger rows in the session pot "
        "net to +25¢, not 0"
    )


def session_state_bogus(document, outsider):
    session = rows(document, "club.session")[0]
    session["fields"]["state"] = "bogus"
    return f"club.session #{session['pk']}: state: Value 'bogus' is not a valid choice."


def rules_emptied(document, outsider):
    session = rows(document, "club.session")[-1]
    session["fields"]["rules"] = {}
    return f"club.session #{session['pk']}: rules: This field cannot be blank."


def rules_without_a_rule(document, outsider):
    session = rows(document, "club.session")[0]
    del session["fields"]["rules"]["skunk_line"]
    return f"club.session #{session['pk']}: its house rules lack skunk_line."


def checkin_of_a_missing_player(document, outsider):
    checkin = rows(document, "club.checkin")[3]
    checkin["fields"]["player"] = 999
    return f"club.checkin #{checkin['pk']}: its player (#999) is not a player in the file."


def checkin_of_another_clubs_player(document, outsider):
    checkin = rows(document, "club.checkin")[4]
    checkin["fields"]["player"] = outsider
    return f"club.checkin #{checkin['pk']}: its player (#{outsider}) is not a player in the file."


def wrong_pin_of_another_clubs_player(document, outsider):
    wrong_pin = rows(document, "club.wrongpin")[0]
    wrong_pin["fields"]["player"] = outsider
    return (
        f"club.wrongpin #{wrong_pin['pk']}: its player (#{outsider}) is not a player in the file."
    )


# --- More of what the site keeps ----------------------------------------------------------------


def game_in_another_sessions_round(document, outsider):
    game = rows(document, "games.game")[0]
    other = next(
        row
        for row in rows(document, "games.round")
        if row["fields"]["session"] != game["fields"]["session"]
    )
    game["fields"]["round"] = other["pk"]
    return (
        f"games.game #{game['pk']}: its session (#{game['fields']['session']}) is not its "
        f"round's session (#{other['fields']['session']})."
    )


def settled_session_made_open(document, outsider):
    settlement = find(document, "money.settlement", state="current")
    session = next(
        r for r in rows(document, "club.session") if r["pk"] == settlement["fields"]["session"]
    )
    session["fields"]["state"] = "open"
    return (
        f"club.session #{session['pk']}: it is open, yet money.settlement "
        f"#{settlement['pk']} is its current settlement."
    )


def fee_over_the_limit(document, outsider):
    find(document, "club.club")["fields"]["entry_fee_cents"] = MONEY_LIMIT_CENTS + 1
    club = find(document, "club.club")["pk"]
    return f"club.club #{club}: entry_fee_cents: "


def snapshot_coin_over_the_limit(document, outsider):
    session = rows(document, "club.session")[1]
    session["fields"]["rules"]["payout_coin_cents"] = MONEY_LIMIT_CENTS + 1
    return f"club.session #{session['pk']}: its house rules are not valid: payout_coin_cents: "


def snapshot_target_as_text(document, outsider):
    session = rows(document, "club.session")[0]
    session["fields"]["rules"]["game_target"] = "121"
    return (
        f"club.session #{session['pk']}: its house rules' game_target is '121', not a whole number."
    )


def session_in_1899(document, outsider):
    session = rows(document, "club.session")[0]
    session["fields"]["date"] = "1899-12-31"
    return f"club.session #{session['pk']}: date: "


def session_two_years_ahead(document, outsider):
    session = rows(document, "club.session")[0]
    session["fields"]["date"] = (dt.date.today() + dt.timedelta(days=731)).isoformat()
    return f"club.session #{session['pk']}: date: "


def unknown_audit_verb(document, outsider):
    entry = rows(document, "core.auditentry")[5]
    entry["fields"]["action"] = "club_deleted"
    return f"core.auditentry #{entry['pk']}: action: 'club_deleted' is not a registered audit verb."


def audit_entry_made_site_wide(document, outsider):
    entry = rows(document, "core.auditentry")[2]
    entry["fields"]["club"] = None
    return f"core.auditentry #{entry['pk']}: it is not the club's: its club is missing."


def reversal_in_a_current_settlement(document, outsider):
    settlement = find(document, "money.settlement", state="current")
    fee = find(document, "money.ledgerentry", settlement=settlement["pk"], kind="fee")
    fee["fields"]["kind"] = "reversal"
    return (
        f"money.settlement #{settlement['pk']}: it is current, yet money.ledgerentry "
        f"#{fee['pk']} reverses a row of it."
    )


def a_row_twice(document, outsider):
    player = copy.deepcopy(rows(document, "club.player")[-1])
    document["objects"].append(player)
    document["counts"]["club.player"] += 1
    return f"club.player #{player['pk']}: the file holds two rows with this id."


def two_players_one_name(document, outsider):
    first, second = rows(document, "club.player")[:2]
    second["fields"]["display_name"] = first["fields"]["display_name"].upper()
    return (
        f"club.player #{second['pk']}: its club and display name are those of "
        f"club.player #{first['pk']} (player_display_name_unique_in_club)."
    )


# --- Money: what a settlement booked from the check-ins and the skunk coins --------------------


def current_ledger(document, **fields) -> list[dict]:
    """Ledger rows of current settlements with these fields."""
    current = {
        r["pk"] for r in rows(document, "money.settlement") if r["fields"]["state"] == "current"
    }
    return [
        row
        for row in rows(document, "money.ledgerentry")
        if row["fields"]["settlement"] in current
        and all(row["fields"][name] == value for name, value in fields.items())
    ]


def checkin_of(document, entry: dict) -> dict:
    """The paid check-in behind a ledger row: its session's, of its player."""
    return find(
        document,
        "club.checkin",
        session=entry["fields"]["session"],
        player=entry["fields"]["player"],
    )


def jackpot_contribution_raised_on_a_checkin(document, outsider):
    entry = current_ledger(document, pot="jackpot_29", kind="jackpot_coin")[0]
    checkin = checkin_of(document, entry)
    checkin["fields"]["jackpot_29_cents"] += 10
    return (
        f"money.ledgerentry #{entry['pk']}: its 29 jackpot contribution from club.player "
        f"#{entry['fields']['player']} is {entry['fields']['amount_cents']}¢, but club.checkin "
        f"#{checkin['pk']} says {checkin['fields']['jackpot_29_cents']}¢."
    )


def jackpot_coin_row_raised(document, outsider):
    entry = current_ledger(document, pot="jackpot_24", kind="jackpot_coin")[1]
    checkin = checkin_of(document, entry)
    entry["fields"]["amount_cents"] += 5
    return (
        f"money.ledgerentry #{entry['pk']}: its 24 jackpot contribution from club.player "
        f"#{entry['fields']['player']} is {entry['fields']['amount_cents']}¢, but club.checkin "
        f"#{checkin['pk']} says {checkin['fields']['jackpot_24_cents']}¢."
    )


def jackpot_coin_row_of_a_checkin_that_paid_none(document, outsider):
    entry = current_ledger(document, pot="jackpot_28", kind="jackpot_coin")[0]
    checkin = checkin_of(document, entry)
    checkin["fields"]["jackpot_28_cents"] = 0
    return (
        f"money.ledgerentry #{entry['pk']}: its 28 jackpot contribution from club.player "
        f"#{entry['fields']['player']} ({entry['fields']['amount_cents']}¢) matches no paid "
        "check-in of its session."
    )


def fee_row_moved_to_another_player(document, outsider):
    fees = current_ledger(document, pot="main", kind="fee")
    entry = fees[0]
    other = next(
        row
        for row in fees
        if row["fields"]["settlement"] == entry["fields"]["settlement"]
        and row["fields"]["player"] > entry["fields"]["player"]
        and row["fields"]["amount_cents"] == entry["fields"]["amount_cents"]
    )
    checkin = checkin_of(document, entry)
    entry["fields"]["player"] = other["fields"]["player"]
    return (
        f"club.checkin #{checkin['pk']}: its entry fee of {checkin['fields']['fee_cents']}¢ is not "
        f"in the ledger of money.settlement #{entry['fields']['settlement']}, its session's "
        "settlement."
    )


def settled_coins(document) -> list[dict]:
    """Skunk coins of settled sessions, each its player's only coin in the session."""
    settled = {r["pk"] for r in rows(document, "club.session") if r["fields"]["state"] == "settled"}
    coins = [r for r in rows(document, "money.skunkcoin") if r["fields"]["session"] in settled]
    players = Counter((r["fields"]["session"], r["fields"]["player"]) for r in coins)
    return [r for r in coins if players[(r["fields"]["session"], r["fields"]["player"])] == 1]


def skunk_row_of(document, coin: dict) -> dict:
    return next(
        row
        for row in current_ledger(document, pot="skunk_bank", kind="skunk_coin")
        if row["fields"]["session"] == coin["fields"]["session"]
        and row["fields"]["player"] == coin["fields"]["player"]
    )


def skunk_coin_made_bigger(document, outsider):
    coin = settled_coins(document)[0]
    entry = skunk_row_of(document, coin)
    coin["fields"]["cents"] *= 2
    return (
        f"money.ledgerentry #{entry['pk']}: its skunk coin from club.player "
        f"#{coin['fields']['player']} is {entry['fields']['amount_cents']}¢, but "
        f"money.skunkcoin #{coin['pk']} says {coin['fields']['cents']}¢."
    )


def skunk_coin_row_removed(document, outsider):
    coin = settled_coins(document)[-1]
    entry = skunk_row_of(document, coin)
    document["objects"].remove(coin)
    document["counts"]["money.skunkcoin"] -= 1
    return (
        f"money.ledgerentry #{entry['pk']}: its skunk coin from club.player "
        f"#{coin['fields']['player']} ({entry['fields']['amount_cents']}¢) matches no "
        "money.skunkcoin row of its session."
    )


def skunk_coin_row_of_another_player(document, outsider):
    coin = settled_coins(document)[0]
    entry = skunk_row_of(document, coin)
    session = coin["fields"]["session"]
    coined = {r["fields"]["player"] for r in rows(document, "money.skunkcoin")}
    stranger = next(
        r["fields"]["player"]
        for r in rows(document, "club.checkin")
        if r["fields"]["session"] == session and r["fields"]["player"] not in coined
    )
    entry["fields"]["player"] = stranger
    first = min(stranger, coin["fields"]["player"])
    if first == stranger:
        return (
            f"money.ledgerentry #{entry['pk']}: its skunk coin from club.player #{stranger} "
            f"({entry['fields']['amount_cents']}¢) matches no money.skunkcoin row of its session."
        )
    return (
        f"money.skunkcoin #{coin['pk']}: its skunk coin of {coin['fields']['cents']}¢ is not in "
        f"the ledger of money.settlement #{entry['fields']['settlement']}, its session's "
        "settlement."
    )


@pytest.mark.parametrize(
    "edit",
    [
        payout_plus_100,
        ledger_row_changed,
        session_state_bogus,
        rules_emptied,
        rules_without_a_rule,
        checkin_of_a_missing_player,
        checkin_of_another_clubs_player,
        wrong_pin_of_another_clubs_player,
        game_in_another_sessions_round,
        settled_session_made_open,
        fee_over_the_limit,
        snapshot_coin_over_the_limit,
        snapshot_target_as_text,
        session_in_1899,
        session_two_years_ahead,
        unknown_audit_verb,
        audit_entry_made_site_wide,
        reversal_in_a_current_settlement,
        two_players_one_name,
        a_row_twice,
        jackpot_contribution_raised_on_a_checkin,
        jackpot_coin_row_raised,
        jackpot_coin_row_of_a_checkin_that_paid_none,
        fee_row_moved_to_another_player,
        skunk_coin_made_bigger,
        skunk_coin_row_removed,
        skunk_coin_row_of_another_player,
    ],
)
def test_an_edited_backup_is_refused_naming_the_row(
    monkeypatch, capsys, tmp_path, exported, document, edit
):
    message = edit(document, exported["outsider"])
    err = refused(monkeypatch, capsys, write(document, tmp_path / "edited.json"))
    assert message in err


def test_a_player_linked_to_a_login_outside_the_file_is_refused(
    monkeypatch, capsys, tmp_path, document
):
    # The site's own administrator, made before the import: the file must not claim them.
    admin = UserFactory(id=900, username="admin", is_staff=True, is_superuser=True)
    player = find(document, "club.player", user=None)
    player["fields"]["user"] = admin.pk
    err = refused(monkeypatch, capsys, write(document, tmp_path / "edited.json"))
    assert f"club.player #{player['pk']}: its user (#{admin.pk}) is not a login in the file." in err
    assert not Player.objects.filter(user=admin).exists()


def test_the_limits_themselves_import(monkeypatch, capsys, tmp_path, document):
    club = find(document, "club.club")
    club["fields"].update(entry_fee_cents=MONEY_LIMIT_CENTS, jackpot_29_cents=MONEY_LIMIT_CENTS)
    session = rows(document, "club.session")[0]
    session["fields"]["rules"]["payout_coin_cents"] = MONEY_LIMIT_CENTS
    code, out, err = cli(monkeypatch, capsys, "import_club", str(write(document, tmp_path / "x")))
    assert (code, err) == (0, "")
    assert Club.objects.get().entry_fee_cents == MONEY_LIMIT_CENTS == 50_000


# --- Logins: their role groups, nothing more ----------------------------------------------------


def made_superuser(document) -> dict:
    login = find(document, "auth.user", username="judge")
    login["fields"].update(is_staff=True, is_superuser=True)
    return document


def test_a_login_made_superuser_is_imported_without_staff_or_superuser(
    monkeypatch, capsys, tmp_path, document
):
    path = write(made_superuser(document), tmp_path / "edited.json")
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert (code, err) == (0, "")
    judge = User.objects.get(username="judge")
    assert not (judge.is_staff or judge.is_superuser)
    assert not User.objects.filter(is_staff=True).exists()
    assert not User.objects.filter(is_superuser=True).exists()
    assert (
        "Left out the staff and superuser flags of judge: a backup makes no site administrator. "
        "Make one with manage.py createsuperuser." in out
    )
    assert judge.has_perm("scoring.rule_dispute")  # the judges' role, from the file's group
    entry = AuditEntry.objects.get(action=OpsVerb.CLUB_RESTORED)
    assert entry.data["staff_left_out"] == ["judge"]


def test_the_option_to_keep_staff_flags_is_gone(monkeypatch, capsys, tmp_path, document):
    path = write(made_superuser(document), tmp_path / "edited.json")
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path), "--with-staff")
    assert code == 2
    assert "unrecognized arguments: --with-staff" in err
    assert not Club.objects.exists() and not User.objects.exists()


def login_in_another_group(document):
    login = find(document, "auth.user", username="player")
    login["fields"]["groups"].append(["treasurers"])
    return (
        f"auth.user #{login['pk']} (player): its group 'treasurers' is not one of the role "
        "groups (organisers, judges, players)"
    )


def login_with_a_permission(document):
    login = find(document, "auth.user", username="player")
    login["fields"]["user_permissions"] = [["view_ledgerentry", "money", "ledgerentry"]]
    return (
        f"auth.user #{login['pk']} (player): it has permissions of its own (money.view_ledgerentry)"
    )


def login_with_a_superuser_permission(document):
    login = find(document, "auth.user", username="judge2")
    login["fields"]["user_permissions"] = [
        ["change_user", "auth", "user"],
        ["add_permission", "auth", "permission"],
    ]
    return (
        f"auth.user #{login['pk']} (judge2): it has permissions of its own (auth.change_user, "
        "auth.add_permission)"
    )


@pytest.mark.parametrize(
    "edit", [login_in_another_group, login_with_a_permission, login_with_a_superuser_permission]
)
@pytest.mark.parametrize("signing", ["signed", "trusted unsigned"])
def test_a_login_gets_its_role_groups_and_nothing_more(
    monkeypatch, capsys, tmp_path, document, edit, signing
):
    message = edit(document)
    if signing == "signed":
        err = refused(monkeypatch, capsys, write(document, tmp_path / "edited.json"))
    else:
        path = write_unsigned(document, tmp_path / "edited.json")
        err = refused(monkeypatch, capsys, path, "--trust-unsigned")
    assert message in err
    assert not Group.objects.filter(name="treasurers").exists()


def test_a_missing_role_group_is_made_with_its_permissions(monkeypatch, capsys, tmp_path, document):
    Group.objects.filter(name="judges").delete()
    code, out, err = cli(monkeypatch, capsys, "import_club", str(write(document, tmp_path / "h")))
    assert (code, err) == (0, "")
    assert "Made the role groups judges, which this database lacked, with their permissions." in out
    assert User.objects.get(username="judge").has_perm("scoring.rule_dispute")


# --- Clean files still import ------------------------------------------------------------------


def test_the_history_as_exported_imports(monkeypatch, capsys, tmp_path, document):
    code, out, err = cli(monkeypatch, capsys, "import_club", str(write(document, tmp_path / "h")))
    assert (code, err) == (0, "")
    assert f"Restored the club Thursday Peggers ({SLUG}): 3 sessions" in out


@pytest.mark.parametrize(
    ("build", "slug"),
    [
        (lambda: load_demo(season=True), SLUG),  # what the command builds
        (
            lambda: call_command(
                "seed_history",
                "--years=1",
                "--players=4",
                "--seed=5",
                "--rounds=2",  # every kind of row a session holds, at a third of the games
                f"--today={TODAY}",
                "--slug=h",
                "--json",
                stdout=io.StringIO(),
            ),
            "h",
        ),
    ],
    ids=["demo with its season", "seeded history"],
)
def test_a_clean_export_round_trips(tmp_path, build, slug):
    build()
    first = export_text(slug)
    path = tmp_path / "club.json"
    path.write_text(first, encoding="utf-8")
    empty_the_database()
    call_command("import_club", str(path), stdout=io.StringIO())
    assert without_restores(export_text(slug)) == without_export_time(first)
