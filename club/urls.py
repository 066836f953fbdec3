"""URLs of the club app."""

from django.urls import path

from club import views

app_name = "club"

urlpatterns = [
    path("rules/", views.HouseRulesView.as_view(), name="rules"),
    path("rules/edit/", views.HouseRulesEditView.as_view(), name="rules_edit"),
    path("players/", views.PlayerListView.as_view(), name="players"),
    path("players/add/", views.PlayerCreateView.as_view(), name="player_add"),
    path("players/<int:pk>/edit/", views.PlayerUpdateView.as_view(), name="player_edit"),
    path("audit/", views.AuditLogView.as_view(), name="audit"),
    path("sessions/", views.SessionListView.as_view(), name="sessions"),
    path("sessions/open/", views.SessionOpenView.as_view(), name="session_open"),
    path("sessions/<int:pk>/", views.SessionDetailView.as_view(), name="session"),
    path("sessions/<int:pk>/checkin/", views.CheckInCreateView.as_view(), name="checkin_add"),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/paid/",
        views.CheckInActionView.as_view(action="paid"),
        name="checkin_paid",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/unpaid/",
        views.CheckInActionView.as_view(action="unpaid"),
        name="checkin_unpaid",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/undo/",
        views.CheckInActionView.as_view(action="undo"),
        name="checkin_undo",
    ),
    path("sessions/<int:pk>/export/", views.SessionExportView.as_view(), name="session_export"),
    path("sessions/<int:pk>/settle/", views.SessionSettleView.as_view(), name="session_settle"),
    path("sessions/<int:pk>/settlement/", views.SettlementView.as_view(), name="settlement"),
    path("sessions/<int:pk>/reopen/", views.SessionReopenView.as_view(), name="session_reopen"),
    path("ledger/", views.LedgerView.as_view(), name="ledger"),
    path("players/<int:pk>/money/", views.PlayerMoneyView.as_view(), name="player_money"),
]
