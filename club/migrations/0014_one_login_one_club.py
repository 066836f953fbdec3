# Roles are per club: a login is linked to one player, in one club.

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count


def refuse_logins_in_two_clubs(apps, schema_editor):
    """A login linked in two clubs would be an organiser (or judge) of both: say which, and let
    the administrator choose which link to keep, instead of choosing for them."""
    Player = apps.get_model("club", "Player")
    shared = (
        Player.objects.filter(user__isnull=False)
        .values("user__username")
        .annotate(clubs=Count("club", distinct=True))
        .filter(clubs__gt=1)
        .order_by("user__username")
    )
    names = [row["user__username"] for row in shared]
    if names:
        raise RuntimeError(
            "These logins are linked to players of more than one club: "
            + ", ".join(names)
            + ". A login now acts in one club only: in the admin, clear the login of all but one "
            "of each one's player records, then migrate again."
        )


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0013_money_moves_out"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(refuse_logins_in_two_clubs, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_one_per_user_per_club",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("user",),
                name="player_one_per_login",
            ),
        ),
    ]
