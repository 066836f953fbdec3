"""URL of a named judge's one-time link, `/j/<key>/` (scoring.judge_views): the link an organiser
shows, with its QR code, to the player named judge for one dispute."""

from django.urls import path

from scoring import judge_views

app_name = "judge_link"

urlpatterns = [
    path("<str:key>/", judge_views.JudgeLinkView.as_view(), name="page"),
]
