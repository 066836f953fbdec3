"""A browser without a page: one cookie jar sending plain HTTP requests to a server on loopback,
for the tests that drive a real server (gunicorn, the live server) without chromium.

Terms: each request goes to 127.0.0.1 on the port it names (or the browser's own), with the
cookies the answers set so far; a post sends the CSRF cookie's token as Django's forms do, and
redirects are followed on the same server unless `follow=False`. A connection that fails answers
status 0.
"""

from __future__ import annotations

import http.client
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

from django.urls import reverse


class Browser:
    """One browser's cookies, sent to whichever server `port` names for each request."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        *,
        port: int = 0,
        headers: dict | None = None,
        follow: bool = True,
    ) -> tuple[int, str]:
        """(status, body) of the request and (`follow`) the redirects after it, all on the
        same server."""
        port = port or self.port
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode({**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    if morsel.value:
                        self.cookies[name] = morsel.value
                    else:
                        self.cookies.pop(name, None)
        except OSError:
            return 0, ""
        finally:
            conn.close()
        location = response.getheader("Location")
        if follow and location and 300 <= response.status < 400:
            target = urlsplit(location)
            return self.request(
                "GET", target.path + (f"?{target.query}" if target.query else ""), port=port
            )
        return response.status, text

    def get(self, path: str, **kwargs) -> tuple[int, str]:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict, **kwargs) -> tuple[int, str]:
        return self.request("POST", path, data, **kwargs)

    def log_in(self, username: str, password: str, *, port: int) -> tuple[int, str]:
        self.get(reverse("login"), port=port)  # the CSRF cookie
        return self.post(reverse("login"), {"username": username, "password": password}, port=port)
