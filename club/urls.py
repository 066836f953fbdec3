"""URLs of the club app, under /club/ (money's and web's pages share that prefix). The welcome
page of one-time login links is wired at /welcome/<link>/ in config/urls.py."""

from django.urls import path

from club import logins, views

app_name = "club"

urlpatterns = [
    path("rules/", views.HouseRulesView.as_view(), name="rules"),
    path("rules/edit/", views.HouseRulesEditView.as_view(), name="rules_edit"),
    path("players/", views.PlayerListView.as_view(), name="players"),
    path("players/add/", views.PlayerCreateView.as_view(), name="player_add"),
    path("players/<int:pk>/edit/", views.PlayerUpdateView.as_view(), name="player_edit"),
    path("players/<int:pk>/login/", logins.PlayerLoginView.as_view(), name="player_login"),
    path("players/<int:pk>/login/give/", logins.LoginGiveView.as_view(), name="player_login_give"),
    path("players/<int:pk>/login/role/", logins.LoginRoleView.as_view(), name="player_login_role"),
    path("players/<int:pk>/login/link/", logins.LoginLinkView.as_view(), name="player_login_link"),
    path("players/<int:pk>/pin/", logins.PlayerPinView.as_view(), name="player_pin"),
    path("account/", logins.AccountView.as_view(), name="account"),
    path("account/password/", logins.AccountPasswordView.as_view(), name="account_password"),
    path("account/pin/", logins.AccountPinView.as_view(), name="account_pin"),
    path("audit/", views.AuditLogView.as_view(), name="audit"),
    path("sessions/", views.SessionListView.as_view(), name="sessions"),
    path("sessions/open/", views.SessionOpenView.as_view(), name="session_open"),
    path("sessions/<int:pk>/date/", views.SessionRedateView.as_view(), name="session_redate"),
    path("sessions/<int:pk>/delete/", views.SessionDeleteView.as_view(), name="session_delete"),
]
