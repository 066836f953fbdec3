"""URLs of the standings app. They keep the /games/ addresses they had when the tables were part
of games."""

from django.urls import path

from standings import views

app_name = "standings"

urlpatterns = [
    path("standings/", views.StandingsView.as_view(), name="season"),
    path("all-time/", views.AllTimeView.as_view(), name="all_time"),
    path("ratings/", views.RatingsView.as_view(), name="ratings"),
    path("players/<int:pk>/", views.PlayerPageView.as_view(), name="player"),
]
