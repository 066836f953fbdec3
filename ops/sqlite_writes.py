"""The `sqlite_writes` benchmark of `make bench`: phones writing at once to a venue laptop.

gunicorn (2 sync workers, production settings) serves the demo club from a SQLite file while
CLIENTS phones post for SECONDS: check-ins, payments, undone check-ins, results entered, confirmed
and corrected. SQLite lets one writer in at a time: without its settings to wait its turn
(config/settings.py: write-ahead log, immediate transactions, a busy timeout), two writes at the
same moment end in "database is locked" and a 500 page; with them, every write gets through.

Terms:
- client: one thread of this process acting as one organiser's phone, with two logged-in browser
  sessions of its own (cookies, CSRF token), made by logging in through the login page:
  `organiser`, who checks players in, marks them paid, undoes the check-in, enters and corrects
  results, and `organiser2`, who confirms what `organiser` entered (nobody confirms his own
  entry). Each client works on its own player and its own game, so business refusals are rare.
- its player: one of the club's players who is not checked in; the client checks them in (late,
  from round 2), marks them paid, undoes the check-in, and again.
- its game: one table of round 1, drawn before the clock starts; neither organiser plays in it.
  The client enters the result, organiser2 confirms it, then the client corrects it (a new
  confirmed version each time), and again.
- step: one POST and what a browser does around it (load the page that holds the form, follow
  the redirect). A client alternates a check-in step and a result step.
- write: a POST answered 2xx or 3xx (not a redirect to the login page). refusal: a POST answered
  400, the form back with a reason (the player is already checked in, ...): the expected answer
  to a business rule, counted apart. error: any other answer (500, 503, 403, a redirect to the
  login page, ...) or a connection that fails, to a POST or a GET, logging in included.
- the report: `clients`, `seconds` (as measured, from the moment every client is logged in),
  `writes`, `writes_per_s`, `refusals`, `errors`, `statuses` (each answer's status while
  writing, by method), `login_statuses`, `database_locked_in_log` (how often gunicorn's log says
  "database is locked") and up to five `error_examples`.
"""

from __future__ import annotations

import html
import http.client
import json
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Player
from games import services as game_services
from ops import benchmarks

CLIENTS = 8
SECONDS = 20
PASSWORD = "pegboard-demo"  # the demo logins' (fixtures/demo_club.json)
ENTERER, CONFIRMER = "organiser", "organiser2"
DEMO_SLUG = "thursday-peggers"
LOCKED = "database is locked"
TOKEN = re.compile(r'name="submission_token" value="([A-Za-z0-9_-]+)"')


# --- The session the clients write to (the child `manage.py bench --writes-setup`) ---------------


def static_files_current() -> bool:
    """Whether the collected static files (production settings serve them from the manifest)
    are newer than every source file: then the setup does not collect them again, and leaves
    alone whatever else in this checkout is reading them."""
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if not manifest.exists():
        return False
    built = manifest.stat().st_mtime
    return all(
        Path(storage.path(path)).stat().st_mtime <= built
        for finder in finders.get_finders()
        for path, storage in finder.list([])
    )


def prepare(clients: int) -> dict:
    """Open today's session of the demo club, seat 2 players per client in round 1 (a table each)
    and pick one more player per client to check in: what the parent needs, as plain data.
    Players are added when the club has too few who are not the two organisers."""
    users = get_user_model().objects
    organiser = users.get(username=ENTERER)
    with transaction.atomic():
        club = Club.objects.get(slug=DEMO_SLUG)
        pool = list(
            Player.objects.filter(club=club, active=True)
            .exclude(user__username__in=(ENTERER, CONFIRMER))
            .order_by("pk")
        )
        for n in range(len(pool), 3 * clients):
            pool.append(
                club_services.player_create(
                    club=club, actor=organiser, display_name=f"Bench Player {n + 1:02d}"
                )
            )
        session = club_services.session_open(club=club, actor=organiser, date=timezone.localdate())
        for player in pool[: 2 * clients]:
            checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
            club_services.fee_mark_paid(checkin=checkin, actor=organiser)
        round_ = game_services.round_draw(session=session, actor=organiser, seed=1)
        games = list(round_.games.order_by("table").values_list("pk", flat=True))
    return {
        "session": session.pk,
        "games": games,
        "players": [p.display_name for p in pool[2 * clients : 3 * clients]],
    }


# --- A phone ------------------------------------------------------------------------------------


class Tally:
    """What the clients saw, shared between their threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: dict[str, Counter] = {"POST": Counter(), "GET": Counter()}
        self.writes = self.refusals = self.errors = 0
        self.examples: list[str] = []

    def answer(self, method: str, path: str, status: int | None, *, logged_out=False) -> None:
        """Count one answer; `logged_out`: it sent a logged-in session to the login page."""
        with self.lock:
            self.statuses[method][str(status or "no answer")] += 1
            good = status is not None and 200 <= status < 400 and not logged_out
            if method == "POST" and good:
                self.writes += 1
            elif method == "POST" and status == 400:
                self.refusals += 1
            elif not good:
                self.errors += 1
                if len(self.examples) < 5:
                    said = "to the login page" if logged_out else ""
                    self.examples.append(f"{method} {path}: {status or 'no answer'} {said}".strip())


class Browser:
    """One logged-in browser session: cookies kept, CSRF token sent, redirects followed."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.port = port
        self.tally = tally
        self.cookies: dict[str, str] = {}
        self.logged_in = False

    def request(self, method: str, path: str, data: dict | None = None) -> tuple[int | None, str]:
        """(status, body) of one request and of the redirects after it; (None, "") when the
        connection fails."""
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            status, location = response.status, response.getheader("Location")
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        except OSError:
            self.tally.answer(method, path, None)
            return None, ""
        finally:
            conn.close()
        target = urlsplit(location or "")
        login = reverse("login")
        logged_out = target.path == login and urlsplit(path).path != login
        self.tally.answer(method, path, status, logged_out=logged_out)
        if location and 300 <= status < 400:
            return self.request("GET", target.path + (f"?{target.query}" if target.query else ""))
        return status, text

    def log_in(self, username: str) -> bool:
        login = reverse("login")
        self.request("GET", login)
        status, _ = self.request("POST", login, {"username": username, "password": PASSWORD})
        return status == 200 and "sessionid" in self.cookies  # 200: the page after the redirect


class Phone:
    """One client: its two browser sessions, its player and its game, and where it stands."""

    def __init__(self, port: int, tally: Tally, *, session: int, player: str, game: int):
        self.organiser = Browser(port, tally)
        self.confirmer = Browser(port, tally)
        self.session, self.player, self.game = session, player, game
        self.checkin: int | None = None  # its player's check-in, while there is one
        self.paid = False
        self.draft = False  # its game has the organiser's draft, to be confirmed
        self.corrections = 0

    def log_in(self, tries: int = 3) -> bool:
        """Both sessions logged in through the login page, each tried up to `tries` times (an
        answer that is not the page after the login counts as an error like any other)."""
        for browser, username in ((self.organiser, ENTERER), (self.confirmer, CONFIRMER)):
            browser.logged_in = any(browser.log_in(username) for _ in range(tries))
        return self.logged_in

    @property
    def logged_in(self) -> bool:
        return self.organiser.logged_in and self.confirmer.logged_in

    def count_in(self, tally: Tally) -> None:
        self.organiser.tally = self.confirmer.tally = tally

    # A check-in step: check in, mark paid, undo; and again.
    def checkin_step(self) -> None:
        if self.checkin is None:
            status, page = self.organiser.request(
                "POST", reverse("web:checkin_add", args=[self.session]), {"name": self.player}
            )
            self.checkin = self._checkin_on(page)  # also on a 400: checked in already
            self.paid = False
        elif not self.paid:
            url = reverse("web:checkin_paid", args=[self.session, self.checkin])
            status, _ = self.organiser.request("POST", url, {})
            self.paid = status is not None and status < 400
        else:
            url = reverse("web:checkin_undo", args=[self.session, self.checkin])
            status, _ = self.organiser.request("POST", url, {})
            if status is not None and status < 400:
                self.checkin = None

    def _checkin_on(self, page: str) -> int | None:
        row = re.search(
            rf'<tr data-player="{re.escape(html.escape(self.player))}"[^>]*>(.*?)</tr>', page, re.S
        )
        found = row and re.search(r"/checkins/(\d+)/", row.group(1))
        return int(found.group(1)) if found else None

    # A result step: enter, confirm (the other organiser), correct; correct again.
    def result_step(self) -> None:
        game_url = reverse("games:game", args=[self.game])
        if self.draft:  # the organiser's entry, waiting for the other organiser
            _, page = self.confirmer.request("GET", game_url)
            found = re.search(rf"/games/{self.game}/results/(\d+)/confirm/", page)
            if found:
                status, _ = self.confirmer.request("POST", found.group(0), {})
                self.draft = status is None or status >= 400
            elif reverse("games:result_enter", args=[self.game]) not in page:
                self.draft = False  # confirmed after all (the answer was lost)
            return
        status, page = self.organiser.request("GET", game_url)
        token = TOKEN.search(page)
        if token and reverse("games:result_correct", args=[self.game]) in page:
            self.corrections += 1
            self.organiser.request(
                "POST",
                reverse("games:result_correct", args=[self.game]),
                {
                    "side_0": 121,
                    "side_1": 60 + self.corrections % 60,
                    "reason": f"Recounted the pegs ({self.corrections})",
                    "submission_token": token.group(1),
                },
            )
        elif token and reverse("games:result_enter", args=[self.game]) in page:
            status, _ = self.organiser.request(
                "POST",
                reverse("games:result_enter", args=[self.game]),
                {"side_0": 121, "side_1": 100, "submission_token": token.group(1)},
            )
            self.draft = status is not None and status < 400

    def run(self, stop: float) -> None:
        while time.perf_counter() < stop:
            self.checkin_step()
            if time.perf_counter() < stop:
                self.result_step()


# --- The run ----------------------------------------------------------------------------------


def drive(port: int, setup: dict, *, clients: int, seconds: float) -> dict:
    """`clients` phones log in, then write for `seconds`: the tallies of both phases."""
    logins, writing = Tally(), Tally()
    phones = [
        Phone(
            port,
            logins,
            session=setup["session"],
            player=setup["players"][i % len(setup["players"])],
            game=setup["games"][i % len(setup["games"])],
        )
        for i in range(clients)
    ]
    clock: list[float] = []  # [start, stop], set as the last one is ready
    ready = threading.Barrier(
        clients + 1, action=lambda: clock.extend([now := time.perf_counter(), now + seconds])
    )

    def client(phone: Phone) -> None:
        if not phone.logged_in:
            phone.log_in()
        phone.count_in(writing)
        ready.wait()
        if phone.logged_in:
            phone.run(clock[1])

    # The demo logins' stored hashes are upgraded (a new salt) at their first login, which ends
    # every other session of that login: the first phone logs in alone, the others after it.
    phones[0].log_in()
    threads = [threading.Thread(target=client, args=(p,)) for p in phones]
    for thread in threads:
        thread.start()
    ready.wait()
    for thread in threads:
        thread.join()
    return {
        "logins": logins,
        "writing": writing,
        "elapsed": time.perf_counter() - clock[0],
        "logged_in": sum(p.logged_in for p in phones),
    }


def sqlite_writes(*, clients: int = CLIENTS, seconds: float = SECONDS, season: bool = True) -> dict:
    """The demo club on a fresh SQLite file under gunicorn, CLIENTS phones writing for SECONDS.
    `season=False` loads the demo club without its past season (quicker, for the tests)."""
    with tempfile.TemporaryDirectory(prefix="pegboard-writes-") as folder:
        database = Path(folder) / "writes.sqlite3"
        print("loading the demo club for the sqlite_writes bench ...", file=sys.stderr)
        args = ["bench", f"--writes-setup={clients}"] + ([] if season else ["--no-season"])
        setup = json.loads(benchmarks.manage(*args, database=database).strip().splitlines()[-1])
        log = Path(folder) / "gunicorn.log"
        print(f"{clients} clients writing for {seconds} s ...", file=sys.stderr)
        with log.open("w") as errors, benchmarks.serve(database, log=errors) as port:
            figures = drive(port, setup, clients=clients, seconds=seconds)
        server_log = log.read_text(errors="replace")
    logins, tally, elapsed = figures["logins"], figures["writing"], figures["elapsed"]
    return {
        "server": "gunicorn, 2 sync workers, DEBUG off, SQLite file with the demo club",
        "clients": clients,
        "logged_in": figures["logged_in"],
        "seconds": round(elapsed, 1),
        "writes": tally.writes,
        "writes_per_s": round(tally.writes / elapsed, 1),
        "refusals": tally.refusals,
        "errors": tally.errors + logins.errors,
        "statuses": {method: dict(sorted(c.items())) for method, c in tally.statuses.items()},
        "login_statuses": {m: dict(sorted(c.items())) for m, c in logins.statuses.items()},
        "database_locked_in_log": server_log.count(LOCKED),
        "error_examples": (logins.examples + tally.examples)[:5],
    }
