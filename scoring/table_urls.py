"""URLs of the claims made at a table through its link (scoring.table_views), under the table
page's own prefix `/t/<token>/` (games.table_urls)."""

from django.urls import path

from scoring import table_views

app_name = "table_claims"

urlpatterns = [
    path("<str:token>/claims/new/", table_views.TableClaimFileView.as_view(), name="claim_new"),
    path(
        "<str:token>/claims/<int:claim>/muggins/",
        table_views.TableMugginsCallView.as_view(),
        name="muggins",
    ),
    path(
        "<str:token>/claims/<int:claim>/cards/",
        table_views.TableCardsConfirmView.as_view(),
        name="cards_confirm",
    ),
    path(
        "<str:token>/claims/<int:claim>/dispute/",
        table_views.TableDisputeOpenView.as_view(),
        name="dispute_open",
    ),
]
