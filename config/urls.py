"""The site's URL map: the club pages, log in / log out, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club.views import HomeView

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("club/", include("club.urls")),
    path("games/", include("games.urls")),
    path("scoring/", include("scoring.urls")),
    path("admin/", admin.site.urls),
]
