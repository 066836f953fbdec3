"""URLs of the scoring app."""

app_name = "scoring"

urlpatterns: list = []
