"""URLs of the games app."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("standings/", views.StandingsView.as_view(), name="standings"),
    path("all-time/", views.AllTimeView.as_view(), name="all_time"),
    path("players/<int:pk>/", views.PlayerPageView.as_view(), name="player"),
    path("sessions/<int:pk>/draw/", views.RoundDrawView.as_view(), name="round_draw"),
    path("rounds/<int:pk>/", views.RoundView.as_view(), name="round"),
    path("rounds/<int:pk>/print/", views.RoundPrintView.as_view(), name="round_print"),
    path("rounds/<int:pk>/swap/", views.RoundSwapView.as_view(), name="round_swap"),
    path("<int:pk>/", views.GameView.as_view(), name="game"),
    path("<int:pk>/result/", views.ResultEnterView.as_view(), name="result_enter"),
    path(
        "<int:pk>/results/<int:result>/confirm/",
        views.ResultConfirmView.as_view(),
        name="result_confirm",
    ),
    path("<int:pk>/correct/", views.ResultCorrectView.as_view(), name="result_correct"),
]
