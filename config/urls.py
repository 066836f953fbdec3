"""The site's URL map: every app's pages, log in / log out, the welcome page of one-time login
links, the admin, a health check.

Addresses never change when code moves between apps: money's and web's session pages share
/club/ with the club app, and the standings tables share /games/ with the games app."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_safe

from club.views.logins import WelcomeView
from web.forms import LoginForm
from web.views import HomeView


@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """ "ok" in plain text, touching no database: for an uptime monitor, and the trivial view the
    throughput benchmark compares the standings page with."""
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


urlpatterns = [
    path("healthz", health, name="health"),
    path("", HomeView.as_view(), name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=LoginForm
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # One-time links where a login sets its password (club.views.logins).
    path("welcome/<str:link>/", WelcomeView.as_view(), name="welcome"),
    path("club/", include("club.urls")),
    path("club/", include("money.urls")),
    path("club/", include("web.urls")),
    path("games/", include("standings.urls")),
    path("games/", include("games.urls")),
    path("scoring/", include("scoring.urls")),
    path("tournaments/", include("tournaments.urls")),
    # A table's link (the seating chart's QR codes): its page and result are the games app's,
    # its claims and calls for a judge the scoring app's.
    path("t/", include("games.table_urls")),
    path("t/", include("scoring.table_urls")),
    path("j/", include("scoring.judge_urls")),
    path("a/", include("games.accept_urls")),
    path("admin/", admin.site.urls),
]
