"""Pegboard's settings, read from the environment.

Terms: "production" means DEBUG is off. Then SECRET_KEY must be set and the HTTPS hardening that
`manage.py check --deploy` asks for is on (PEGBOARD_HTTPS=0 turns it off for a plain-HTTP laptop at
the venue, and `check --deploy` will then say so). With DEBUG on, a development key is used when
none is given. Every variable is documented in docs/operators/configuration.md.
"""

import datetime as dt
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.caches import caches_from_env

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: use 1/0, true/false, yes/no or on/off.")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

DEVELOPMENT_SECRET_KEY = "django-insecure-pegboard-development-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production (DEBUG off) refuses to start without one: "
            'set SECRET_KEY to a long random string, e.g. python3 -c "import secrets; '
            'print(secrets.token_urlsafe(50))", or set DEBUG=1 for development.'
        )
    SECRET_KEY = DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if not DEBUG else "*")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    # Login throttling (django-axes) and the Content-Security-Policy header (django-csp): see
    # the AXES_* and CONTENT_SECURITY_POLICY settings at the end.
    "axes",
    "csp",
    # Pegboard's apps, in their layers (docs/architecture.md): each imports only those above it
    # in this list. web syncs the role groups after migrate, so it comes after every app whose
    # permissions it gives out.
    "core",
    "club",
    "games",
    "scoring",
    "money",
    "standings",
    "tournaments",
    "web",
    "ops",
]

MIDDLEWARE = [
    # First, around everything: every answer carries the policy and refuses framing, the 400
    # page of a Host not in ALLOWED_HOSTS too. That answer comes from the first middleware that
    # asks for the host (CommonMiddleware; SecurityMiddleware itself when it redirects plain
    # HTTP to HTTPS), and only the middlewares listed before it see it.
    "csp.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware, as whitenoise asks.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A database that does not answer gets the 503 page, not a 500.
    "web.middleware.DatabaseUnavailableMiddleware",
    # `request.htmx`: whether htmx asked (the live board's refresh, web/board.py).
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out login into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.messages",
                "web.context_processors.pegboard",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"


def env_count(name: str, default: int) -> int:
    """A whole number from the environment, 0 or more."""
    raw = os.environ.get(name, "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit()):
        raise ImproperlyConfigured(f"{name}={raw!r}: give a whole number, 0 or more.")
    return int(raw)


def env_seconds(name: str, default: int) -> int:
    """A whole number of seconds (or milliseconds) from the environment, 1 or more."""
    raw = os.environ.get(name, "").strip() or str(default)
    if not raw.isdigit() or int(raw) < 1:
        raise ImproperlyConfigured(f"{name}={raw!r}: give a whole number, 1 or more.")
    return int(raw)


PREPARE_THRESHOLD = 5  # psycopg's own default, which Django turns off

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
# SQLite (a venue laptop serving several phones through gunicorn's workers) lets one
# writer in at a time; these settings make a write wait its turn instead of failing with
# "database is locked": the write-ahead log (readers never block the writer nor it them;
# synchronous=NORMAL is safe with it and spares a disk flush per commit), transactions that
# take the write lock when they begin (a transaction that read first and then wanted to write
# could not wait: SQLite refused it at once), and a busy timeout (how long a write waits for
# the lock before it fails). PostgreSQL: a connect timeout and a statement timeout, so a hung
# database gets an answer (web.middleware's 503 page) within seconds instead of holding a worker;
# and prepared statements (DB_PREPARED_STATEMENTS, on unless a connection pooler in transaction
# mode stands between the site and PostgreSQL): a query the connection has run five times is
# planned once and kept on the server (psycopg's prepare_threshold, which needs the parameters
# bound on the server). A page's queries join four to six tables, and planning them again for
# every request cost the session page more time than running them.
_database = DATABASES["default"]
if _database["ENGINE"] == "django.db.backends.sqlite3":
    _database["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        "transaction_mode": "IMMEDIATE",
        "timeout": env_seconds("DB_SQLITE_TIMEOUT", 20),
        **_database.get("OPTIONS", {}),
    }
elif _database["ENGINE"] == "django.db.backends.postgresql":
    _database["OPTIONS"] = {
        "connect_timeout": env_seconds("DB_CONNECT_TIMEOUT", 5),
        "options": f"-c statement_timeout={env_seconds('DB_STATEMENT_TIMEOUT_MS', 10000)}",
        **(
            {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD}
            if env_bool("DB_PREPARED_STATEMENTS", True)
            else {}
        ),
        **_database.get("OPTIONS", {}),
    }

# The cache (config/caches.py): Redis, shared by every app server, when CACHE_URL (or REDIS_URL)
# gives one; else each process's own memory. Sessions stay in the database (Django's default
# engine), which every server shares already.
CACHES = caches_from_env(os.environ)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Roles are per club: a login has its role's permissions only through its player record
# (club/backends.py). Django's own ModelBackend must not be listed beside it.
# django-axes' backend comes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "club.backends.ClubBackend"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` gathers the static files and whitenoise serves them from.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Django's database sessions, each request's session read by a plain statement (core/sessions.py).
SESSION_ENGINE = "core.sessions"

DJANGO_TABLES2_TEMPLATE = "tables/table.html"

# The model of a club: core's audit trail keeps each entry under one (core knows no app above it).
PEGBOARD_CLUB_MODEL = "club.Club"

# The club whose pages an anonymous visitor sees when several clubs share one site.
PEGBOARD_DEFAULT_CLUB = os.environ.get("PEGBOARD_DEFAULT_CLUB", "")

# The address phones at the venue open the site by (e.g. http://192.168.1.20:8000): the table
# links and QR codes on the seating chart and the organisers' one-time login links use it.
# Empty: the address the page was opened by (core/qr.py).
PEGBOARD_BASE_URL = os.environ.get("PEGBOARD_BASE_URL", "").strip().rstrip("/")

# The key that signs club backups (`manage.py export_club`) and checks them on import
# (ops/backup_signature.py). Empty: a key derived from SECRET_KEY, so a site signs and checks its
# own backups without one; set it to import another site's backups (to that site's key) or to
# keep older backups valid across a change of SECRET_KEY.
PEGBOARD_BACKUP_KEY = os.environ.get("PEGBOARD_BACKUP_KEY", "")

# E-mail (optional): with EMAIL_HOST set, an organiser's one-time login link is also e-mailed to
# a login that has an address (club/mail.py, through core/mail.py); without it nothing is sent
# and nothing fails.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = env_seconds("EMAIL_PORT", 587)  # a whole number, like the seconds
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = env_seconds("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or (
    EMAIL_HOST_USER if "@" in EMAIL_HOST_USER else "pegboard@localhost"
)
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("EMAIL_USE_SSL and EMAIL_USE_TLS: turn one of them off.")

# HTTPS hardening, on in production unless PEGBOARD_HTTPS=0 (a plain-HTTP laptop at the venue).
HTTPS = env_bool("PEGBOARD_HTTPS", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A Host header the site does not serve: one warning line, no traceback (config/log_filters.py).
    "filters": {"drop_traceback": {"()": "config.log_filters.DropTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.security.DisallowedHost": {"filters": ["drop_traceback"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, that username is locked out from that address for
# AXES_COOLOFF_TIME. An organiser lifts a lock-out on the "Lock-outs" page (web.views); an admin
# runs `manage.py axes_reset_username USERNAME`.
AXES_FAILURE_LIMIT = 10
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = 1  # hours
# A failure while locked out does not push the end of the lock-out further away, so the page
# can say when to try again.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "web.lockouts.lockout_response"
AXES_VERBOSE = False
# Keep failed logins only (for the lock-outs), not a row per successful login.
AXES_DISABLE_ACCESS_LOG = True
# And per address, whatever the username (web.throttle): someone trying a new username each
# time is never locked out per login, yet each try costs a password hash. After
# PEGBOARD_ADDRESS_FAILURE_LIMIT failed logins from one address within the last
# PEGBOARD_ADDRESS_WINDOW, every login from there is refused, before any password is checked,
# until the window has slid past enough of them: far more than a venue's members, who share its
# one address, mistype in ten minutes. The counters are in the cache (CACHES).
AXES_HANDLER = "web.throttle.ClubLoginHandler"
PEGBOARD_ADDRESS_FAILURE_LIMIT = 30
PEGBOARD_ADDRESS_WINDOW = dt.timedelta(minutes=10)
# The proxies in front of the site (0: none), each appending the address it was reached from to
# X-Forwarded-For: the client's address is read from there (web.throttle.client_address), not
# from the connection, which is the proxy's. Only what the proxies themselves wrote is trusted.
AXES_CLIENT_IP_CALLABLE = "web.throttle.client_address"
PEGBOARD_PROXIES = env_count("PEGBOARD_PROXIES", 0)

# Content-Security-Policy (django-csp 4): only the site's own scripts, styles and images; no
# inline script, style attribute or event handler anywhere (tests/security/test_csp.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
