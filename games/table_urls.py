"""URLs of the table page, `/t/<token>/` (games.table_views): the short link under each table's
QR code on the seating chart. The claims made at the table are scoring's (scoring.table_urls,
mounted under the same prefix). The offline worker's script is here too, `/t/sw.js`: a service
worker may only serve the addresses under its own."""

from django.urls import path

from games import table_views

app_name = "table"

urlpatterns = [
    # The offline worker's script, before the token's pattern: its address under /t/ is its scope.
    path("sw.js", table_views.table_worker, name="worker"),
    path("<str:token>/", table_views.TablePageView.as_view(), name="page"),
    path("<str:token>/result/", table_views.TableResultEnterView.as_view(), name="result"),
    path(
        "<str:token>/results/<int:result>/accept/",
        table_views.TableResultAcceptView.as_view(),
        name="accept",
    ),
]
