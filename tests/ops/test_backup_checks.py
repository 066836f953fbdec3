"""An edited backup does not import silently (issue 13, defect 12): `import_club` checks every
row of the file against what the site keeps true before it writes one, and refuses with exit
code 2, naming the first broken row, with nothing imported; a login is never made staff or
superuser unless `--with-staff` says so.

Terms: the *document* is the export of the history (tests/ops/backup_support.py), built once for
this module and rolled back, so every test starts from an empty database; an *edit* changes one
thing in a copy of the document, as a hand or a script might.
"""

import copy
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import transaction

from club.models import MONEY_LIMIT_CENTS, Club, Player
from tests.factories import UserFactory
from tests.ops.backup_support import (
    SLUG,
    TODAY,
    User,
    build_history,
    cli,
    empty_the_database,
    export_text,
    row_counts,
    without_export_time,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> dict:
    """The history's document, and the id of the other club's player (not in it)."""
    with django_db_blocker.unblock(), transaction.atomic():
        build_history()
        document = json.loads(export_text())
        document["outsider"] = Player.objects.get(display_name="Otto Outsider").pk
        transaction.set_rollback(True)
    return document


@pytest.fixture
def document(exported) -> dict:
    copied = copy.deepcopy(exported)
    del copied["outsider"]
    return copied


def rows(document: dict, label: str) -> list[dict]:
    return [row for row in document["objects"] if row["model"] == label]


def find(document: dict, label: str, **fields) -> dict:
    return next(
        row
        for row in rows(document, label)
        if all(row["fields"][name] == value for name, value in fields.items())
    )


def write(document: dict, path: Path) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def refused(monkeypatch, capsys, path: Path, *options: str) -> str:
    """Import `path`, which must be refused with exit code 2 and nothing written: the message."""
    before = row_counts()
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path), *options)
    assert code == 2, (out, err)
    assert "Nothing was imported." in err and "Traceback" not in err and out == ""
    assert row_counts() == before
    assert not Club.objects.exists()
    return err


# --- The edits the issue names -----------------------------------------------------------------


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
    find(document, "club.club")["fields"]["entry_fee_cents"] = 10_001
    club = find(document, "club.club")["pk"]
    return f"club.club #{club}: entry_fee_cents: "


def snapshot_coin_over_the_limit(document, outsider):
    session = rows(document, "club.session")[1]
    session["fields"]["rules"]["payout_coin_cents"] = 20_000
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
    entry = rows(document, "club.auditentry")[5]
    entry["fields"]["action"] = "club_deleted"
    return f"club.auditentry #{entry['pk']}: action: 'club_deleted' is not a registered audit verb."


def audit_entry_made_site_wide(document, outsider):
    entry = rows(document, "club.auditentry")[2]
    entry["fields"]["club"] = None
    return f"club.auditentry #{entry['pk']}: it is not the club's: its club is missing."


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
    assert Club.objects.get().entry_fee_cents == MONEY_LIMIT_CENTS == 10_000


# --- Logins: never staff unless asked ----------------------------------------------------------


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
    judge, player = User.objects.get(username="judge"), User.objects.get(username="player")
    assert not (judge.is_staff or judge.is_superuser)
    assert not (player.is_staff or player.is_superuser)  # staff in the club's own database
    assert "Left out the staff and superuser flags of judge, player" in out
    assert "--with-staff" in out
    # Their roles in the club are the file's: groups and extra permissions are kept.
    assert judge.has_perm("scoring.rule_dispute") and player.has_perm("money.view_ledgerentry")


def test_with_staff_keeps_the_flags(monkeypatch, capsys, tmp_path, document):
    path = write(made_superuser(document), tmp_path / "edited.json")
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path), "--with-staff")
    assert (code, err) == (0, "")
    judge = User.objects.get(username="judge")
    assert judge.is_staff and judge.is_superuser
    assert User.objects.get(username="player").is_staff
    assert "Left out" not in out


# --- Clean files still import ------------------------------------------------------------------


def test_the_history_as_exported_imports(monkeypatch, capsys, tmp_path, document):
    code, out, err = cli(monkeypatch, capsys, "import_club", str(write(document, tmp_path / "h")))
    assert (code, err) == (0, "")
    assert f"Restored the club Thursday Peggers ({SLUG}): 3 sessions" in out


@pytest.mark.parametrize(
    ("build", "slug"),
    [
        (lambda: call_command("load_demo", stdout=io.StringIO()), SLUG),
        (
            lambda: call_command(
                "seed_history",
                "--years=1",
                "--players=4",
                "--seed=5",
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
    call_command("import_club", str(path), "--with-staff", stdout=io.StringIO())
    assert without_export_time(export_text(slug)) == without_export_time(first)
