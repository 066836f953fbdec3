"""URLs of the tournaments app, under /tournaments/: the list, a new tournament, the director's
page and its actions; the standings and the bracket of a tournament."""

from django.urls import path

from tournaments import public_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.TournamentListView.as_view(), name="list"),
    path("new/", views.TournamentCreateView.as_view(), name="new"),
    path("<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    path("<int:pk>/draw/", views.QualifyingDrawView.as_view(), name="draw"),
    path("<int:pk>/close/", views.QualifyingCloseView.as_view(), name="close"),
    path("<int:pk>/prizes/", views.PrizeSharesView.as_view(), name="prizes"),
    path("matches/<int:pk>/forfeit/", views.MatchForfeitView.as_view(), name="forfeit"),
    # The public pages of a tournament.
    path("<int:pk>/standings/", public_views.StandingsView.as_view(), name="standings"),
    path("<int:pk>/bracket/", public_views.BracketView.as_view(), name="bracket"),
]
