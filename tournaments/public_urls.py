"""The tournament's public pages (tournaments.public_views), mounted at /tournaments/: the
qualifying standings and the bracket. Their two patterns join tournaments/urls.py when that
holds the director's pages; the names and addresses stay."""

from django.urls import path

from tournaments import public_views

app_name = "tournaments"

urlpatterns = [
    path("<int:pk>/standings/", public_views.StandingsView.as_view(), name="standings"),
    path("<int:pk>/bracket/", public_views.BracketView.as_view(), name="bracket"),
]
