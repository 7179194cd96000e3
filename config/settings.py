"""Settings for the tournament manager: one module, driven by the environment.

With nothing set it runs on SQLite, the in-memory channel layer and eager Celery tasks.
DATABASE_URL switches to PostgreSQL (psycopg 3); REDIS_URL to channels-redis and a
Redis Celery broker. With DEBUG off, SECRET_KEY and ID_HASH_KEY must be set.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "dev-only-insecure-secret-key-do-not-use-in-production-0123456789"
_DEV_ID_HASH_KEY = "dev-only-insecure-id-hash-key"

SECRET_KEY = os.environ.get("SECRET_KEY", "")
ID_HASH_KEY = os.environ.get("ID_HASH_KEY", "")
if not DEBUG:
    missing = [name for name, value in (("SECRET_KEY", SECRET_KEY), ("ID_HASH_KEY", ID_HASH_KEY)) if not value]
    if missing:
        raise ImproperlyConfigured(
            "DEBUG is off, so these secrets must be set in the environment: "
            + ", ".join(missing)
            + ". Generate each with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if SECRET_KEY == _DEV_SECRET_KEY or ID_HASH_KEY == _DEV_ID_HASH_KEY:
        raise ImproperlyConfigured("DEBUG is off but a development key is in use; set real secrets.")
SECRET_KEY = SECRET_KEY or _DEV_SECRET_KEY
ID_HASH_KEY = ID_HASH_KEY or _DEV_ID_HASH_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*" if DEBUG else "localhost,127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "channels",
    "tournament",
    "tables",
    "venues",
    "clock",
    "payouts",
    "flights",
    "days",
    "leagues",
    "archive",
    "live",
    "notify",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy header (below)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "web.middleware.PlayerLocaleMiddleware",  # Django's LocaleMiddleware, with the players' languages on their screens
    "django.middleware.common.CommonMiddleware",
    "web.middleware.RefuseOversizedBodyMiddleware",
    "web.middleware.RefuseNulMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "web.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "web.middleware.SessionLeftMiddleware",  # X-Session-Left: how long a tablet's offline copy may be shown
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
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.roles_context",
                "web.context.player_languages",  # the language switcher at the foot of the players' pages
            ],
            "builtins": ["web.templatetags.access"],  # {% if user|may:"register" %} on every page: the one role check
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# The production server's worker processes (config/serve.py): one per core unless WEB_CONCURRENCY says.
WEB_CONCURRENCY = max(1, int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1))
# PostgreSQL connections of all the web workers together, never more whatever the load: each worker
# holds a bounded pool of DB_CONNECTIONS // WEB_CONCURRENCY (at least 2). A request that finds its
# worker's pool busy waits up to DB_POOL_TIMEOUT seconds, then gets 503 with Retry-After (web/server.py).
DB_CONNECTIONS = int(os.environ.get("DB_CONNECTIONS", "40"))
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", "10"))
# The database lost (restarted, failed over): the pool's tries to open a connection back off (1, 2, 4... s)
# for at most DB_POOL_RECONNECT seconds, then the next request that needs one tries at once. Left at
# psycopg_pool's 300 s, the backoff would keep the room without writes up to as long again after the
# database is back (tests/resilience/test_database_lost.py).
DB_POOL_RECONNECT = float(os.environ.get("DB_POOL_RECONNECT", "5"))
# Public HTTP requests in progress per worker before one more is answered 503 with Retry-After at once
# (the staff's requests count apart, against the same number).
WEB_MAX_PENDING = int(os.environ.get("WEB_MAX_PENDING", "400"))
# Public reads (phones, lobby TVs) processed at once per worker; more wait their turn (web/server.py).
# Below the worker's pool size, so that the floor always finds a database connection free.
WEB_PUBLIC_CONCURRENCY = int(os.environ.get("WEB_PUBLIC_CONCURRENCY", "16"))
# The threads of each worker that run Django's requests (config/asgi.py): the public reads' share, and as
# many again for the staff's, which never wait at the public gate.
WEB_THREADS = int(os.environ.get("WEB_THREADS") or 2 * WEB_PUBLIC_CONCURRENCY)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise ImproperlyConfigured(
            "DATABASE_URL is a PostgreSQL URL (postgres://...); for SQLite leave it unset (SQLITE_PATH names the file)"
        )
    if env_bool("DB_POOL", True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {  # beside the URL's own options (sslmode...)
            "min_size": 1,
            "max_size": max(2, DB_CONNECTIONS // WEB_CONCURRENCY),
            "timeout": DB_POOL_TIMEOUT,
            "reconnect_timeout": DB_POOL_RECONNECT,
        }
        # The pool checks a connection before handing it out (an empty query): the ones it kept while the
        # database restarted are dropped, never given to a request that would fail on them.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "0"))
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "var" / "db.sqlite3")),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # A file, not memory, so a live server thread in the browser tests shares it.
            "TEST": {"NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")},
        }
    }

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Hot public reads per state version (web/caching.py), in each worker's memory.
    "public": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "public", "OPTIONS": {"MAX_ENTRIES": 20000}},
}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # The pub/sub layer: the core layer drops group members after 24 h (docs/architecture.md pitfalls).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # CHANNEL_PREFIX keeps apart the rooms (or the parallel test workers) that share one Redis.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 50}], "prefix": os.environ.get("CHANNEL_PREFIX", "asgi")},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BEAT_SCHEDULE = {
    # Announcements due (level changes, one-minute warnings, breaks) are kept in PostgreSQL;
    # this short periodic task claims them (docs/architecture.md: no long ETA tasks).
    "clock-tick": {"task": "clock.tick", "schedule": 1.0},
    # Waiting lists: alternates who did not sit down in time are passed over, and open seats offered to the next.
    "waiting-list-sweep": {"task": "waiting_list.sweep", "schedule": 10.0},
}
# With no broker there is no beat: the ASGI web process runs the tick itself.
CLOCK_TICKER_IN_PROCESS = env_bool("CLOCK_TICKER_IN_PROCESS", not REDIS_URL)
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "web.login_guard.SprayGuardBackend",  # password spraying: many usernames failing from one address
    "django.contrib.auth.backends.ModelBackend",
]

# Login rate limiting: lock a username from one IP (tablets share an IP behind NAT), with a cool-off.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_SENSITIVE_PARAMETERS = ["password", "document_number"]
# Password spraying (web/login_guard.py): this many different usernames failed from one address within this many
# minutes, and every log-in from it is refused until fewer have (usernames that then log in are forgotten).
LOGIN_SPRAY_USERNAMES = int(os.environ.get("LOGIN_SPRAY_USERNAMES", "10"))
LOGIN_SPRAY_MINUTES = int(os.environ.get("LOGIN_SPRAY_MINUTES", "15"))
# A login's open socket (the floor's, a table's) re-checks every this many seconds whether its login may still hold it
# (live/consumers.py): the backstop for a role changed by a management command, which on the embedded in-memory
# channel layer cannot reach the server's sockets, and for a session that expired or ended elsewhere. 0: off.
SOCKET_RECHECK_SECONDS = float(os.environ.get("SOCKET_RECHECK_SECONDS", "60"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# British English: day-first dates and a 24-hour clock, as in the rooms we serve.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", _("English")), ("cs", _("Czech")), ("sk", _("Slovak"))]
# The players' screens (their phones and the TVs: core.access.PLAYERS) speak these too, for the players of a festival
# who read none of the staff's languages; every other page and API answer stays in LANGUAGES, the staff's
# (web/middleware.py, PlayerLocaleMiddleware). A staff member's own language (StaffProfile.language) is one of LANGUAGES.
PLAYER_LANGUAGES = [*LANGUAGES, ("de", _("German")), ("pl", _("Polish")), ("hu", _("Hungarian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
# Pages show times in the venue's zone: a tournament's own (Tournament.time_zone), and where a page
# has no tournament (structure templates, API tokens) this one.
VENUE_TIME_ZONE = os.environ.get("VENUE_TIME_ZONE", "Europe/Prague")
# Display formats that differ from Django's (config/formats/): a 24-hour clock in every language.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.ModuleManifestStaticFilesStorage"  # whitenoise's, with the JS module imports hashed
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# In development and tests the files are found when asked for, not indexed each time a handler starts
# (every test client builds one: about 25 ms each).
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "web.auth.ApiTokenAuthentication",  # first, so a request with neither gets 401 and the challenge
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "web.parsers.JSONObjectParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "web.idempotency.IdempotentAutoSchema",  # documents the Idempotency-Key header
    "EXCEPTION_HANDLER": "web.api.exception_handler",
    # Throttles key on REMOTE_ADDR, never on an X-Forwarded-For the client may have written: uvicorn sets
    # REMOTE_ADDR from that header only for the proxies it trusts (FORWARDED_ALLOW_IPS, default loopback).
    "NUM_PROXIES": 0,
}
# The public API's throttle (web/api.py): per device cookie, and a ceiling per address for a room behind one NAT.
PUBLIC_API_RATE = os.environ.get("PUBLIC_API_RATE", "120/minute")
PUBLIC_API_ADDRESS_RATE = os.environ.get("PUBLIC_API_ADDRESS_RATE", "6000/minute")
# Places reserved from phones (tournament/rules/reservations.py): how many one phone (its cookie) and one address (a
# room's Wi-Fi behind one NAT) may make for a tournament.
RESERVATIONS_PER_DEVICE = int(os.environ.get("RESERVATIONS_PER_DEVICE", "2"))
RESERVATIONS_PER_ADDRESS = int(os.environ.get("RESERVATIONS_PER_ADDRESS", "30"))
# API tokens (web/auth.py): stored hashed, valid this many hours (a tournament day), revoked at logout.
API_TOKEN_TTL_HOURS = float(os.environ.get("API_TOKEN_TTL_HOURS", "16"))
# How long a press's Idempotency-Key and its answer are kept (web/idempotency.py).
IDEMPOTENCY_KEY_HOURS = 24
# A second hand start at a table within this many seconds of the first is the same hand (tables/services/hands.py):
# a shuffler that sends its green button twice, or no Idempotency-Key, starts one hand.
HAND_START_REPEAT_SECONDS = float(os.environ.get("HAND_START_REPEAT_SECONDS", "5"))
# The largest tournament file an import reads (archive/services/transfer.py), in MB: a file of 10,000 entries is about 11 MB.
# A bigger body is refused before it is parsed, and so is one holding more values than a file of this size would; an
# import's memory stays within about 12 times this (docs/tournament-file.md, "Size and memory").
TOURNAMENT_FILE_MAX_MB = int(os.environ.get("TOURNAMENT_FILE_MAX_MB", "32"))
# The address players type or scan for the public pages (the lobby's seat finder, the seat cards' QR codes),
# e.g. https://poker.example.com. Empty: the address the request came to (request.build_absolute_uri,
# right behind a proxy that passes the Host header and X-Forwarded-Proto, see BEHIND_TLS_PROXY).
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").strip().rstrip("/")

# Web Push (notify/, docs/notifications.md): the VAPID key pair the server signs its pushes with (base64url; make one
# with `python manage.py webpush_keys`) and the contact the push services see. Unset with DEBUG on, a pair is made
# once and kept in var/webpush-vapid.json, so scripts/dev works as it is; unset with DEBUG off, the phones are not
# offered notifications and `manage.py check` says why (notify/apps.py). One key without the other is refused.
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "").strip()
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "").strip()
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "").strip() or "mailto:floor@localhost"
if bool(WEBPUSH_VAPID_PUBLIC_KEY) != bool(WEBPUSH_VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "Set both WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY (python manage.py webpush_keys), or neither."
    )
if not WEBPUSH_VAPID_PRIVATE_KEY and DEBUG:
    from notify.rules.vapid_file import dev_pair  # noqa: E402 (the pair of this checkout's var/, made once)

    WEBPUSH_VAPID_PRIVATE_KEY, WEBPUSH_VAPID_PUBLIC_KEY = dev_pair(BASE_DIR / "var" / "webpush-vapid.json")
# The push services the server posts to (the endpoint a page gives is a stranger's address): a host or "*.domain".
WEBPUSH_PUSH_HOSTS = env_list(
    "WEBPUSH_PUSH_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,*.push.services.mozilla.com,*.notify.windows.com,*.push.apple.com",
)
WEBPUSH_MAX_PER_ENTRY = int(os.environ.get("WEBPUSH_MAX_PER_ENTRY", "5"))  # phones told of one entry (or one alternate's place)
WEBPUSH_SUBSCRIBE_RATE = os.environ.get("WEBPUSH_SUBSCRIBE_RATE", "10/minute")  # opt-ins and opt-outs per device (web/notify/api.py)
WEBPUSH_TIMEOUT = float(os.environ.get("WEBPUSH_TIMEOUT", "10"))  # seconds a push service has to answer one message

SPECTACULAR_SETTINGS = {
    "TITLE": "Poker tournament manager API",
    "DESCRIPTION": "Every action of the tournament manager, with the same roles as the screens.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Numbers in paths (core/converters.py): whole numbers of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}},
    # Several models have a "kind" or "status": name each choice set in the schema.
    "ENUM_NAME_OVERRIDES": {
        "LevelKindEnum": "tournament.models.Level.Kind",
        "VenueTableStatusEnum": "venues.models.VenueTable.Status",
        "RoomTableStateEnum": "web.venues.api.STATES",
        "StateEnum": ["live", "frozen", "edited"],  # the payouts' state (named before the venue's states came)
        "EntryKindEnum": "tournament.models.Entry.Kind",
        "PurchaseKindEnum": "tournament.models.Purchase.Kind",
        "TournamentStatusEnum": "tournament.models.Tournament.Status",
        "EntryStatusEnum": "tournament.models.Entry.Status",
        "PurchaseStatusEnum": "tournament.models.Purchase.Status",
        "ClockStatusEnum": "clock.models.ClockState.Status",
        "DrawKindEnum": "tables.models.Draw.Kind",
        "MoveKindEnum": "tables.models.Move.Kind",
        "MoveStatusEnum": "tables.models.Move.Status",
        "DonorEnum": "tables.models.HouseRules.Donor",
        "TiesEnum": "tables.models.HouseRules.Ties",
        "DealKindEnum": "payouts.models.Deal.Kind",
        "DealStatusEnum": "payouts.models.Deal.Status",
        "DealModeEnum": "payouts.models.Deal.Mode",
        "PenaltyKindEnum": "tables.models.Penalty.Kind",
        "PaymentStatusEnum": "payouts.models.Payment.Status",
        "BountyFormatEnum": "tournament.models.Tournament.BountyFormat",
    },
}

# Production hardening: secure by default when DEBUG is off; each can be relaxed by the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# The container's own health check asks over plain HTTP on loopback (scripts/healthcheck.py).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy on every response (django-csp): scripts, styles, fonts and connections
# (the API and the live WebSockets) from this site only, images also as data: (the payout signature);
# no inline script, no style="..." attribute, no eval; no plugin, no other site may frame a page. A browser
# posts what it blocked to CSP_REPORT_PATH (web/csp_report.py), which logs it. The API docs pages loosen
# it on their own URLs only (web/api_docs.py). A room's own additions (a logo or a font from another
# host): CSP_EXTRA="img-src https://cdn.example.com; font-src https://fonts.example.com" adds sources.
CSP_REPORT_PATH = "/csp-report/"
CSP_DIRECTIVES = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "report-uri": [CSP_REPORT_PATH],
}
for _extra in filter(str.strip, os.environ.get("CSP_EXTRA", "").split(";")):
    _directive, *_sources = _extra.split()
    CSP_DIRECTIVES.setdefault(_directive, ["'self'"]).extend(_sources)
CONTENT_SECURITY_POLICY = {"DIRECTIVES": CSP_DIRECTIVES}
if env_bool("BEHIND_TLS_PROXY", not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = 60 * 60 * 16  # one long tournament day

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No link secret in a log line; a database away is one line per failure, not a traceback.
    "filters": {"secrets": {"()": "config.logmask.SecretMask"}, "database_down": {"()": "config.logmask.DatabaseDown"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["secrets", "database_down"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's own console handler (under DEBUG) would print each of its lines a second time, through the root's.
    "loggers": {"django": {"handlers": [], "level": "INFO"}, "django.db.backends": {"level": "WARNING"}},
}
