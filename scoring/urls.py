"""URLs of the scoring app."""

from django.urls import path

from scoring import judge_views, views

app_name = "scoring"

urlpatterns = [
    path("counter/", views.HandCounterView.as_view(), name="counter"),
    path("discard/", views.DiscardAdvisorView.as_view(), name="discard"),
    path("games/<int:pk>/claims/new/", views.ClaimCreateView.as_view(), name="claim_new"),
    path("claims/<int:pk>/", views.ClaimDetailView.as_view(), name="claim"),
    path("claims/<int:pk>/muggins/", views.MugginsView.as_view(), name="muggins"),
    path(
        "claims/<int:pk>/confirm-cards/",
        views.ClaimConfirmCardsView.as_view(),
        name="claim_confirm_cards",
    ),
    path("claims/<int:pk>/dispute/", views.DisputeOpenView.as_view(), name="dispute_open"),
    path("disputes/", views.JudgesQueueView.as_view(), name="queue"),
    path("disputes/<int:pk>/rule/", views.DisputeRuleView.as_view(), name="dispute_rule"),
    path("disputes/<int:pk>/appeal/", views.DisputeAppealView.as_view(), name="dispute_appeal"),
    path(
        "disputes/<int:pk>/judge/",
        judge_views.DisputeNameJudgeView.as_view(),
        name="dispute_name_judge",
    ),
    path(
        "sessions/<int:pk>/disputes/",
        views.SessionDisputesReportView.as_view(),
        name="session_report",
    ),
]
