"""URLs of the club app, under /club/ (money's and web's pages share that prefix). The welcome
page of one-time login links is wired at /welcome/<link>/ in config/urls.py."""

from django.urls import path

from club.views import audit_log, logins, players, rules, sessions

app_name = "club"

urlpatterns = [
    path("rules/", rules.HouseRulesView.as_view(), name="rules"),
    path("rules/edit/", rules.HouseRulesEditView.as_view(), name="rules_edit"),
    path("players/", players.PlayerListView.as_view(), name="players"),
    path("players/add/", players.PlayerCreateView.as_view(), name="player_add"),
    path("players/<int:pk>/edit/", players.PlayerUpdateView.as_view(), name="player_edit"),
    path("players/<int:pk>/login/", logins.PlayerLoginView.as_view(), name="player_login"),
    path("players/<int:pk>/login/give/", logins.LoginGiveView.as_view(), name="player_login_give"),
    path("players/<int:pk>/login/role/", logins.LoginRoleView.as_view(), name="player_login_role"),
    path("players/<int:pk>/login/link/", logins.LoginLinkView.as_view(), name="player_login_link"),
    path("players/<int:pk>/pin/", logins.PlayerPinView.as_view(), name="player_pin"),
    path("account/", logins.AccountView.as_view(), name="account"),
    path("account/password/", logins.AccountPasswordView.as_view(), name="account_password"),
    path("account/pin/", logins.AccountPinView.as_view(), name="account_pin"),
    path("audit/", audit_log.AuditLogView.as_view(), name="audit"),
    path("sessions/", sessions.SessionListView.as_view(), name="sessions"),
    path("sessions/open/", sessions.SessionOpenView.as_view(), name="session_open"),
    path("sessions/<int:pk>/date/", sessions.SessionRedateView.as_view(), name="session_redate"),
    path("sessions/<int:pk>/delete/", sessions.SessionDeleteView.as_view(), name="session_delete"),
]
