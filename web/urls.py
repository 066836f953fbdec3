"""URLs of the web app: the session page and its check-in actions and downloads, under the
/club/ addresses they have always had (the home page is wired in config/urls.py), the session's
live board and its refresh, and the organisers' page of login lock-outs."""

from django.urls import path

from web import board, fee_views, lockouts, views

app_name = "web"

urlpatterns = [
    path("sessions/<int:pk>/", views.SessionDetailView.as_view(), name="session"),
    path("sessions/<int:pk>/checkin/", views.CheckInCreateView.as_view(), name="checkin_add"),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/paid/",
        views.CheckInActionView.as_view(action="paid"),
        name="checkin_paid",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/unpaid/",
        views.CheckInActionView.as_view(action="unpaid"),
        name="checkin_unpaid",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/undo/",
        views.CheckInActionView.as_view(action="undo"),
        name="checkin_undo",
    ),
    # The fee per game: take what is owed (or an amount ahead), change given back, undo.
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/fee/take/",
        fee_views.CheckInFeeView.as_view(action="take"),
        name="checkin_fee_take",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/fee/change/",
        fee_views.CheckInFeeView.as_view(action="change"),
        name="checkin_fee_change",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/fee/undo/",
        fee_views.CheckInFeeView.as_view(action="undo"),
        name="checkin_fee_undo",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/leaves/",
        views.CheckInAbsenceView.as_view(action="leaves"),
        name="checkin_leaves",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/leaves/undo/",
        views.CheckInAbsenceView.as_view(action="leaves_undo"),
        name="checkin_leaves_undo",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/sits-out/",
        views.CheckInAbsenceView.as_view(action="sits_out"),
        name="checkin_sits_out",
    ),
    path(
        "sessions/<int:pk>/checkins/<int:checkin>/sits-out/undo/",
        views.CheckInAbsenceView.as_view(action="sits_out_undo"),
        name="checkin_sits_out_undo",
    ),
    path("sessions/<int:pk>/export/", views.SessionExportView.as_view(), name="session_export"),
    path("sessions/<int:pk>/board/", board.BoardView.as_view(), name="board"),
    path("sessions/<int:pk>/board/parts/", board.BoardPartsView.as_view(), name="board_parts"),
    path("lockouts/", lockouts.LockoutListView.as_view(), name="lockouts"),
    path("lockouts/lift/", lockouts.LockoutLiftView.as_view(), name="lockout_lift"),
]
