"""URLs of the club app, under /club/ (money's and web's pages share that prefix)."""

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
    path("sessions/<int:pk>/date/", views.SessionRedateView.as_view(), name="session_redate"),
    path("sessions/<int:pk>/delete/", views.SessionDeleteView.as_view(), name="session_delete"),
]
