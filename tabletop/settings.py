"""Settings for Strategium, read from the environment (see the README's table).

Embedded by default (SQLite under var/, the in-memory channel layer); with DATABASE_URL and
REDIS_URL set, the same code runs on PostgreSQL and channels-redis across several daphne workers.
"""

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from tabletop import channel_layer
from tabletop.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

DEVELOPMENT_SECRET_KEY = "strategium-development-key-never-use-in-production"

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    # A public site signed with a key printed in the repository would let anyone forge sessions.
    raise ImproperlyConfigured("Set SECRET_KEY: the development key is refused when DEBUG=0.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "rules",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tabletop.urls"

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
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "tabletop.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'strategium.sqlite3'}"),
        # One connection per worker thread, kept between requests and actions (a new PostgreSQL
        # connection per action cost more than the engine), checked before reuse.
        conn_max_age=env_int("CONN_MAX_AGE", 600),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Websocket consumers and HTTP views write from several threads: wait for the lock instead
    # of failing with "database is locked", and take the write lock when a transaction begins
    # (a read lock upgraded to a write lock later fails at once when another writer holds it).
    # Write-ahead log: readers (hello, snapshots, the log) do not wait for the writer nor it for
    # them, and a commit appends to the log instead of rewriting pages; with it, NORMAL
    # synchronisation loses no committed transaction on a crash of the process, only possibly the
    # last ones on a power cut. `timeout` (seconds) is the busy timeout a waiting writer gets.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL",
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Off by default: a commit returns before its write-ahead log reaches the disk (flushed within
    # about 0.6 s), as SQLite's NORMAL above. A crash of the database server or the machine may
    # lose the last actions committed, never corrupts a game; waiting for the disk put 1 ms at the
    # median and 9 ms at the 95th percentile on every action of a busy machine
    # (docs/performance.md, "Commits without waiting for the disk").
    SYNCHRONOUS_COMMIT = "on" if env_bool("DATABASE_SYNCHRONOUS_COMMIT", False) else "off"
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = f"{options.get('options', '')} -c synchronous_commit={SYNCHRONOUS_COMMIT}"
    options["options"] = options["options"].strip()

# Threads of each server process that apply players' actions (games/consumers.py). Each one more
# is one more contender for the interpreter lock that the event loop needs for every delivery:
# with 6, one worker serving 100 games delivered with a p99 of 0.5-1.2 s, with 2 of 0.15-0.38 s
# (docs/performance.md, "Threads against the event loop"). Two still overlap one action's
# database round trips with another's engine work.
ACTION_THREADS = env_int("ACTION_THREADS", 2)
# How long (microseconds) a thread of a server process may hold the interpreter while another
# waits for it (sys.setswitchinterval, set by tabletop/asgi.py): the event loop that delivers
# every message gives it up at each socket call and waits this long for it back while action
# threads compute (Python's default is 5,000; 1,000 halved the bare fan-out's p99 of the 20-game
# bench, docs/performance.md).
SWITCH_INTERVAL_US = env_int("SWITCH_INTERVAL_US", 1000)

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL and env_str("PYTEST_XDIST_WORKER", ""):
    # `make test` runs the suite in parallel processes that share one Redis: each takes its own
    # database number, because the tests empty the cache between tests and number their games
    # from 1 in their own test databases (the same group names would cross).
    REDIS_URL = channel_layer.with_database_offset(
        REDIS_URL, int(env_str("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    )
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tabletop.channel_layer.WaitingRedisChannelLayer",
            "CONFIG": {"hosts": [channel_layer.host(REDIS_URL)], "capacity": 1500, "expiry": 10},
        }
    }
else:
    # The capacity of the Redis layer's: one channel of the process receives every game's
    # broadcasts (games/fanout.py), and a full channel drops what is sent to it.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1500},
        }
    }

# The cache counts throttles, chat budgets and login failures: shared by every worker through
# Redis when REDIS_URL is set, in the process's memory otherwise (one process, embedded).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "strategium",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a login from a locked-out username and address.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from
# one address, that pair is locked out for AXES_COOLOFF_MINUTES (failures kept in the database).
AXES_FAILURE_LIMIT = int(env_str("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(env_str("AXES_COOLOFF_MINUTES", "15")) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind a proxy that sets X-Forwarded-For, axes must see the client's address, not the proxy's.
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
    if env_bool("USE_X_FORWARDED_FOR", False)
    else ["REMOTE_ADDR"]
)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Costly endpoints name their own throttles (rules/preview_limits.py); the rates are here.
    "DEFAULT_THROTTLE_RATES": {
        "attack_preview_anon": env_str("THROTTLE_ATTACK_PREVIEW_ANON", "20/min"),
        "attack_preview_user": env_str("THROTTLE_ATTACK_PREVIEW_USER", "120/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Strategium API",
    "DESCRIPTION": "Rules data, games and their event logs for the Strategium tabletop.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from the sidecar package so the docs page works without internet access.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Logs: one JSON object a line (time, level, logger, message and the context the code adds:
# game_id, version, action_type, seat, code...) with LOG_FORMAT=json, the default when DEBUG=0;
# plain lines otherwise.
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"()": "tabletop.logs.ContextFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Prometheus metrics at /metrics (tabletop/metrics.py); with METRICS_TOKEN set, only for
# `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")

# --- Deployment behind HTTPS (README, "Settings") ---------------------------------------------
# Each is off by default (the embedded `make run` serves plain HTTP on 127.0.0.1).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(env_str("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
# Behind a TLS-terminating proxy: trust its X-Forwarded-Proto (only if it always sets it).
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles only from this site, no inline code,
# websockets to this site only ('self' covers ws: and wss: of the same host in current browsers).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# The Wahapedia export the admin's "import from the Wahapedia export" actions read (the command
# `import_wahapedia` takes its directory as an argument).
WAHAPEDIA_EXPORT_DIR = env_str(
    "WAHAPEDIA_EXPORT_DIR", str(BASE_DIR.parent / "shared" / "data" / "wahapedia-export-2026-02-14")
)

# Practice games (games/practice.py): the computer's pause between two of its actions, so that a
# player sees each one on the table.
PRACTICE_PAUSE_SECONDS = env_int("PRACTICE_PAUSE_MS", 400) / 1000
