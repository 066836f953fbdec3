"""Login lock-outs on the web: the page a locked-out login gets, and the organisers' page that
lists their club's lock-outs and lifts them.

Terms: see web.selectors (failures, lock-out, a club's lock-outs). django-axes calls
`lockout_response` (settings.AXES_LOCKOUT_CALLABLE) instead of the log-in page's answer when a
login is refused for being locked out: a 429 page that says until when, and that an organiser can
lift it sooner; or, when every login from the address is refused (web.throttle), that nobody can
lift that and when it ends by itself.
"""

from __future__ import annotations

from axes.helpers import get_client_username, get_failure_limit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.generic import TemplateView, View

from club.mixins import ClubMixin
from club.models import Player
from web import services
from web.forms import LoginNameForm
from web.selectors import club_lockouts, cool_off, lockout_ends
from web.throttle import address_refused_until

LOCKED_OUT_STATUS = 429  # Too Many Requests


def duration_text(delta) -> str:
    """ "1 hour", "90 minutes", "2 hours": the cool-off in words."""
    minutes = int(delta.total_seconds() // 60)
    if minutes % 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hour{'s' if hours != 1 else ''}"


def lockout_response(request, original_response=None, credentials=None):
    """The lock-out page (django-axes' AXES_LOCKOUT_CALLABLE): the address limit's when the
    address is refused (lifting a login's lock-out would not let it in), else the login's."""
    address_until = address_refused_until(getattr(request, "axes_ip_address", None))
    if address_until is not None:
        context = {
            "address_limit": settings.PEGBOARD_ADDRESS_FAILURE_LIMIT,
            "window_text": duration_text(settings.PEGBOARD_ADDRESS_WINDOW),
            "ends": address_until,
        }
        return render(request, "web/locked_out.html", context, status=LOCKED_OUT_STATUS)
    username = get_client_username(request, credentials) or ""
    ends = lockout_ends(username, getattr(request, "axes_ip_address", None))
    context = {
        "username": username,
        "failure_limit": get_failure_limit(request, credentials),
        "cool_off_text": duration_text(cool_off()),
        "ends": ends or timezone.now() + cool_off(),
    }
    return render(request, "web/locked_out.html", context, status=LOCKED_OUT_STATUS)


class LockoutListView(PermissionRequiredMixin, ClubMixin, TemplateView):
    """The club's current lock-outs, each with a "Lift" button (organisers)."""

    permission_required = "club.change_player"
    template_name = "web/lockouts.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            lockouts=club_lockouts(self.club),
            cool_off_text=duration_text(cool_off()),
            failure_limit=get_failure_limit(self.request, None),
            **kwargs,
        )


class LockoutLiftView(PermissionRequiredMixin, ClubMixin, View):
    """POST `username`: lift that login's lock-out. A login no player of the club is linked to
    is a 404, as if it did not exist."""

    permission_required = "club.change_player"
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = LoginNameForm(request.POST)
        if not form.is_valid():
            raise Http404("No such login.")  # too long, or with a NUL: no login is called that
        username = form.cleaned_data["username"]
        player = get_object_or_404(Player, club=self.club, user__username=username)
        try:
            services.lockout_lift(actor=request.user, club=self.club, username=username)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, f"{player}'s login {username} may log in again.")
        return redirect("web:lockouts")
