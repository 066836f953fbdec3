"""URLs of the games app (the standings pages under /games/ are the standings app's)."""

from django.urls import path

from games import card_views, correction_views, views

app_name = "games"

urlpatterns = [
    path("sessions/<int:pk>/draw/", views.RoundDrawView.as_view(), name="round_draw"),
    path("rounds/<int:pk>/", views.RoundView.as_view(), name="round"),
    path("rounds/<int:pk>/print/", views.RoundPrintView.as_view(), name="round_print"),
    path("rounds/<int:pk>/swap/", views.RoundSwapView.as_view(), name="round_swap"),
    path(
        "rounds/<int:pk>/scorecards/",
        views.RoundScorecardsView.as_view(),
        name="round_scorecards",
    ),
    # Keyed by the session and the round's number: a second press after the round is gone
    # still finds the session to go back to.
    path(
        "sessions/<int:pk>/rounds/<int:number>/withdraw/",
        views.RoundWithdrawView.as_view(),
        name="round_withdraw",
    ),
    # The club's table cards: one per table number, printed once (organisers).
    path("table-cards/", card_views.TableCardsView.as_view(), name="table_cards"),
    path("table-cards/new/", card_views.TableCardsRenewView.as_view(), name="table_cards_renew"),
    path("<int:pk>/", views.GameView.as_view(), name="game"),
    path("<int:pk>/result/", views.ResultEnterView.as_view(), name="result_enter"),
    path(
        "<int:pk>/results/<int:result>/confirm/",
        views.ResultConfirmView.as_view(),
        name="result_confirm",
    ),
    path("<int:pk>/correct/", views.ResultCorrectView.as_view(), name="result_correct"),
    path(
        "<int:pk>/corrections/propose/",
        correction_views.CorrectionProposeView.as_view(),
        name="correction_propose",
    ),
    path(
        "<int:pk>/corrections/<int:proposal>/withdraw/",
        correction_views.CorrectionWithdrawView.as_view(),
        name="correction_withdraw",
    ),
    path("<int:pk>/unfinished/", views.GameUnfinishedView.as_view(), name="game_unfinished"),
    path(
        "<int:pk>/back-to-playing/",
        views.GameBackToPlayingView.as_view(),
        name="game_back_to_playing",
    ),
]
