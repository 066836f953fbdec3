"""Fill the parties of the claims filed before claims recorded them: the game's seats as they are
now (the best record there is of who was at the table)."""

from django.db import migrations


def fill_parties(apps, schema_editor):
    Claim = apps.get_model("scoring", "Claim")
    Seat = apps.get_model("games", "Seat")
    claims = [
        (pk, game_id)
        for pk, game_id, parties in Claim.objects.values_list("pk", "game_id", "parties")
        if not parties
    ]
    games = sorted({game_id for _, game_id in claims})
    seats: dict[int, dict[str, int]] = {}
    for start in range(0, len(games), 500):  # a bounded IN list, for SQLite's variable limit
        rows = Seat.objects.filter(game_id__in=games[start : start + 500])
        for game_id, player_id, side in rows.values_list("game_id", "player_id", "side"):
            seats.setdefault(game_id, {})[str(player_id)] = side
    for pk, game_id in claims:
        if seats.get(game_id):
            Claim.objects.filter(pk=pk).update(parties=seats[game_id])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_session_totals"),
        ("scoring", "0004_claim_parties_cards_confirmed"),
    ]

    operations = [migrations.RunPython(fill_parties, migrations.RunPython.noop)]
