"""A URL map for tests/config/test_database.py: views that fail the way a database does."""

from django.db import InterfaceError, OperationalError
from django.urls import path
from django.views import View


class Broken(View):
    error: type[Exception] = OperationalError

    def get(self, request, *args, **kwargs):
        raise self.error("server closed the connection unexpectedly")


urlpatterns = [
    path("operational/", Broken.as_view()),
    path("interface/", Broken.as_view(error=InterfaceError)),
    path("other/", Broken.as_view(error=ValueError)),
]
