"""URLs of the scoring app."""

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("counter/", views.HandCounterView.as_view(), name="counter"),
]
