"""URLs of the games app."""

app_name = "games"

urlpatterns: list = []
