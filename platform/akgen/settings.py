"""Settings for the akgen platform, driven entirely by environment variables.

Without any variables the site runs in the embedded mode a newcomer gets from the README:
SQLite under var/, an in-process Dramatiq worker, DEBUG on. Setting DATABASE_URL and
BROKER_URL switches to production mode (PostgreSQL, RabbitMQ or Redis, separate workers).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent  # the repository root
VAR_DIR = Path(os.environ.get("AKGEN_VAR_DIR", BASE_DIR / "var"))


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DATABASE_URL = os.environ.get("DATABASE_URL", "")
BROKER_URL = os.environ.get("BROKER_URL", "")
PRODUCTION = bool(DATABASE_URL and BROKER_URL)

DEBUG = _env_bool("AKGEN_DEBUG", not PRODUCTION)
#: Plain HTTP on this machine (the embedded default, whatever DEBUG says): HTTPS-only cookies,
#: redirects and HSTS apply in production mode only, and static files come straight from
#: static/ (no collectstatic). `scripts/serve` turns DEBUG off, so a newcomer sees the site's own
#: error pages, not Django's technical ones, while keeping these conveniences.
LOCAL_HTTP = _env_bool("AKGEN_LOCAL_HTTP", not PRODUCTION)
SECRET_KEY = os.environ.get("AKGEN_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION and not DEBUG:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "AKGEN_SECRET_KEY must be set in production mode (DATABASE_URL and BROKER_URL set)."
        )
    SECRET_KEY = "django-insecure-local-development-key-akgen-do-not-use-in-production"

ALLOWED_HOSTS = _env_list(
    "AKGEN_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = _env_list("AKGEN_CSRF_TRUSTED_ORIGINS", [])

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
    "django_htmx",
    "django_dramatiq",
    "accounts",
    "tasks",
    "submissions",
    "workers",
    "api",
    "leaderboard",
    "annotations",
    "releases",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "core.input.RejectMalformedInput",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last: it needs the user, and its 429 page gets the security headers of the others.
    "accounts.pagelimit.AnonymousPageLimit",
]

if not DEBUG:  # production serves collected, hashed static files itself; locally, from static/
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    WHITENOISE_USE_FINDERS = LOCAL_HTTP

ROOT_URLCONF = "akgen.urls"
WSGI_APPLICATION = "akgen.wsgi.application"
ASGI_APPLICATION = "akgen.asgi.application"

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
                "csp.context_processors.nonce",
            ],
        },
    },
]

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # the embedded database lives here
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("AKGEN_SQLITE_PATH", str(VAR_DIR / "akgen.sqlite3")),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("AKGEN_STATIC_ROOT", VAR_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or LOCAL_HTTP
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- Background work -------------------------------------------------------------------------
# Embedded mode uses dramatiq's in-memory broker and a worker thread inside the web process
# (workers.embedded); production uses RabbitMQ (amqp://) or Redis (redis://).
if BROKER_URL.startswith("redis"):
    _broker_class = "dramatiq.brokers.redis.RedisBroker"
    _broker_options: dict = {"url": BROKER_URL}
elif BROKER_URL:
    _broker_class = "dramatiq.brokers.rabbitmq.RabbitmqBroker"
    _broker_options = {"url": BROKER_URL, "confirm_delivery": True}
else:
    _broker_class = "dramatiq.brokers.stub.StubBroker"
    _broker_options = {}

DRAMATIQ_BROKER = {
    "BROKER": _broker_class,
    "OPTIONS": _broker_options,
    "MIDDLEWARE": [
        "dramatiq.middleware.AgeLimit",
        "dramatiq.middleware.TimeLimit",
        "dramatiq.middleware.Callbacks",
        "dramatiq.middleware.Retries",
        "django_dramatiq.middleware.DbConnectionsMiddleware",
        "workers.middleware.HeartbeatMiddleware",
    ],
}
DRAMATIQ_AUTODISCOVER_MODULES = ["actors"]
AKGEN_EMBEDDED_WORKER = _env_bool("AKGEN_EMBEDDED_WORKER", not BROKER_URL)
AKGEN_WORKER_HEARTBEAT_S = int(os.environ.get("AKGEN_WORKER_HEARTBEAT_S", "15"))
AKGEN_EVAL_LEASE_S = float(os.environ.get("AKGEN_EVAL_LEASE_S", "60"))
# An evaluation not finished this long after it was queued is overdue: /healthz counts it and its
# page says so (a judged kernel takes seconds; minutes mean busy or missing workers).
# Fair dispatch: a worker takes the queued evaluation whose submitter had the fewest started in
# this window (workers.pipeline.evaluation_claim_fair), so one user's flood delays that user.
AKGEN_FAIRNESS_WINDOW_S = float(os.environ.get("AKGEN_FAIRNESS_WINDOW_S", "600"))
# /healthz answers only its status to the public; the details (worker hosts, queue figures) to
# staff, or to a monitor sending "Authorization: Bearer <AKGEN_HEALTH_TOKEN>".
AKGEN_HEALTH_TOKEN = os.environ.get("AKGEN_HEALTH_TOKEN", "")
AKGEN_EVAL_OVERDUE_S = float(os.environ.get("AKGEN_EVAL_OVERDUE_S", "600"))

# --- REST API --------------------------------------------------------------------------------
# Token auth (accounts.authentication) for scripts, the session (CSRF enforced) for the browser;
# every error is JSON {"code", "message", "fields"} (api.exceptions).
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.schema.ApiSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_THROTTLE_CLASSES": [],  # api.views.ApiView counts requests atomically instead
    "EXCEPTION_HANDLER": "api.exceptions.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
# Request bodies: a batch of many kernels (each at most 64 KiB) must fit; larger gets a JSON 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("AKGEN_MAX_REQUEST_BYTES", str(8 * 1024 * 1024)))
# Fixed-window rate limits (requests per window), per token and per user, counted atomically in
# Redis (INCR) when REDIS_URL is set, else in the database (accounts.ratelimit).
REDIS_URL = os.environ.get("REDIS_URL", "")
AKGEN_RATE_BACKEND = os.environ.get("AKGEN_RATE_BACKEND", "redis" if REDIS_URL else "db")
AKGEN_RATE_WINDOW_S = int(os.environ.get("AKGEN_RATE_WINDOW_S", "60"))
AKGEN_RATE_SUBMIT_PER_MIN = int(os.environ.get("AKGEN_RATE_SUBMIT_PER_MIN", "120"))
# Per user, for a new account; trusted accounts (staff, group "trusted") get AKGEN_TRUSTED_FACTOR
# times this, the pending cap and the worker-time budget (accounts.tiers).
AKGEN_RATE_SUBMIT_USER_PER_MIN = int(os.environ.get("AKGEN_RATE_SUBMIT_USER_PER_MIN", "60"))
AKGEN_RATE_READ_PER_MIN = int(os.environ.get("AKGEN_RATE_READ_PER_MIN", "600"))
AKGEN_RATE_READ_USER_PER_MIN = int(os.environ.get("AKGEN_RATE_READ_USER_PER_MIN", "1200"))
# Anonymous API reads of public data (tasks, public submissions, leaderboards), per client address.
AKGEN_RATE_ANON_READ_PER_MIN = int(os.environ.get("AKGEN_RATE_ANON_READ_PER_MIN", "120"))
# Anonymous page reads (GET/HEAD of any page but /api/v1/, static files, /healthz, sign-in and
# sign-up), per client address; 0 turns the limit off (accounts.pagelimit).
AKGEN_RATE_ANON_PAGE_PER_MIN = int(os.environ.get("AKGEN_RATE_ANON_PAGE_PER_MIN", "120"))
# Sign-in attempts per client address and per account name, and sign-ups per address, a minute.
AKGEN_RATE_LOGIN_PER_MIN = int(os.environ.get("AKGEN_RATE_LOGIN_PER_MIN", "10"))
AKGEN_RATE_SIGNUP_PER_MIN = int(os.environ.get("AKGEN_RATE_SIGNUP_PER_MIN", "5"))
# Concurrency cap: evaluations queued or running per (new) user before submissions get 429.
AKGEN_MAX_PENDING_PER_USER = int(os.environ.get("AKGEN_MAX_PENDING_PER_USER", "256"))
# Worker time (seconds of compile + run, wall clock) a new account's evaluations may take per
# window before its new submissions get 429; what is already queued still runs.
AKGEN_EVAL_BUDGET_S = float(os.environ.get("AKGEN_EVAL_BUDGET_S", "1800"))
AKGEN_EVAL_BUDGET_WINDOW_S = int(os.environ.get("AKGEN_EVAL_BUDGET_WINDOW_S", "3600"))
# Trusted accounts' allowances are this multiple of a new account's.
AKGEN_TRUSTED_FACTOR = int(os.environ.get("AKGEN_TRUSTED_FACTOR", "8"))
AKGEN_API_BATCH_MAX = int(os.environ.get("AKGEN_API_BATCH_MAX", "256"))
SPECTACULAR_SETTINGS = {
    "TITLE": "akgen API",
    "DESCRIPTION": (
        "Submit AscendC kernels, read verdicts, browse the task suite.\n\n"
        "Authenticate with `Authorization: Token <key>` (create keys in your profile; scopes `submit`, "
        "`read`, `export`); public data (tasks, public submissions, leaderboards) can also be read without a key, "
        "rate-limited per client address. Every error is JSON `{\"code\", \"message\", \"fields\"}`. Responses carry "
        "`X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds) for the "
        "tighter of your per-key and per-user limits; 429 answers add `Retry-After`. `GET /api/v1/me/` "
        "shows your limits, usage and pending evaluations."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Security --------------------------------------------------------------------------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG and not LOCAL_HTTP:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = _env_bool("AKGEN_SSL_REDIRECT", True)
    # Trust X-Forwarded-Proto only behind a proxy that sets it (and strips a client's own).
    if _env_bool("AKGEN_TRUST_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("AKGEN_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("AKGEN_LOG_LEVEL", "INFO")},
    "loggers": {"pika": {"level": "WARNING"}},
}
