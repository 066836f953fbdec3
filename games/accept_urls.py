"""URL of a proposed correction's one-time acceptance link, `/a/<key>/`
(games.correction_views): shown with its QR code on the game page to the side that proposed."""

from django.urls import path

from games import correction_views

app_name = "accept_link"

urlpatterns = [
    path("<str:key>/", correction_views.AcceptLinkView.as_view(), name="page"),
]
