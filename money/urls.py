"""URLs of the money app. They keep the /club/ addresses they had when money was part of club."""

from django.urls import path

from money import views

app_name = "money"

urlpatterns = [
    path("sessions/<int:pk>/settle/", views.SessionSettleView.as_view(), name="session_settle"),
    path(
        "sessions/<int:pk>/settle/preview/",
        views.SettlePreviewView.as_view(),
        name="settle_preview",
    ),
    path("sessions/<int:pk>/settlement/", views.SettlementView.as_view(), name="settlement"),
    path("sessions/<int:pk>/reopen/", views.SessionReopenView.as_view(), name="session_reopen"),
    path(
        "sessions/<int:pk>/skunk-coins/<int:game>/<int:player>/paid/",
        views.SkunkCoinPaidView.as_view(),
        name="skunk_coin_paid",
    ),
    path(
        "sessions/<int:pk>/skunk-coins/collect/",
        views.SkunkCoinsCollectView.as_view(),
        name="skunk_coins_collect",
    ),
    path(
        "sessions/<int:pk>/skunk-coins/<int:coin>/back/",
        views.SkunkCoinBackView.as_view(),
        name="skunk_coin_back",
    ),
    path("ledger/", views.LedgerView.as_view(), name="ledger"),
    path("players/<int:pk>/money/", views.PlayerMoneyView.as_view(), name="player_money"),
]
