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
]
