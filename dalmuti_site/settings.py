"""Settings for Dalmuti: the whole configuration, read from the environment in one place.

The defaults run on a laptop with nothing installed: SQLite under var/, no broker (Celery
tasks run in-process once the transaction commits) and emails written as files into
var/mail/. Set DATABASE_URL / CELERY_BROKER_URL to run on PostgreSQL and Redis.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.getenv("DALMUTI_VAR_DIR", BASE_DIR / "var"))


def envbool(name: str, default: str) -> bool:
    return os.getenv(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def envfloat(name: str, default: str) -> float:
    return float(os.getenv(name, default))


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", "1")
SECRET_KEY = os.getenv("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# A form sent from a stale page is told so on a page of the site (dalmuti_site/errors.py).
CSRF_FAILURE_VIEW = "dalmuti_site.errors.csrf_failure"
# Links in emails: SITE_URL when set, else the address `make run` serves (HOST and PORT),
# so that a server on another port sends links that work. A server bound to every
# interface (0.0.0.0) is reached locally at 127.0.0.1.
_SERVED_HOST = os.getenv("HOST", "127.0.0.1")
if _SERVED_HOST in ("0.0.0.0", "::", ""):
    _SERVED_HOST = "127.0.0.1"
SITE_URL = (
    os.getenv("SITE_URL") or f"http://{_SERVED_HOST}:{os.getenv('PORT', '8000')}"
).rstrip("/")

INSTALLED_APPS = [
    "dalmuti_site.admin.DalmutiAdminConfig",  # django.contrib.admin, titled and ordered
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # intcomma: a count grouped as the reader's language groups it
    "django_htmx",
    "csp",
    "template_partials",
    "accounts",
    "games",
    "leagues",
    "chat",
    "push",
    "players",
    "hosting",
]

MIDDLEWARE = [
    # First: a path with a NUL byte or a control character is a 404 before anything reads it.
    "dalmuti_site.middleware.InvalidPathMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "dalmuti_site.middleware.FormCharsetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "dalmuti_site.middleware.SignedOutPartsMiddleware",
    "games.middleware.SeatGoneMiddleware",
    "dalmuti_site.middleware.FormOnlyMiddleware",
    # Last, so that its answer to a failed database connection (503, try again) comes
    # before any other's.
    "dalmuti_site.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "dalmuti_site.urls"
WSGI_APPLICATION = "dalmuti_site.wsgi.application"

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
                "games.views.context.awaiting_you",
            ],
        },
    },
]

# Database: DATABASE_URL, else a SQLite file under var/.
DATABASES = {
    "default": dj_database_url.parse(
        os.getenv("DATABASE_URL", f"sqlite:///{VAR_DIR / 'dalmuti.sqlite3'}"),
        conn_max_age=envint("DB_CONN_MAX_AGE", "0"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and envbool("DB_POOL", "1"):
    # Connections are reused from psycopg's pool instead of opened for every request
    # (about 10 ms each); each web or worker process keeps its own pool.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A connection is checked (one empty query) before the pool hands it out: after a
    # restart or a failover the pool holds dead connections, which it then replaces
    # instead of failing the requests that get them. With a pool, Django passes psycopg's
    # own check (ConnectionPool.check_connection) when this is on; a `check` in the
    # options below would clash with it.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": envint("DB_POOL_SIZE", "8"), "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction starts: concurrent moves queue up instead of
    # failing with "database is locked" when a read lock would have to be upgraded.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
    # A file, not memory, so that a Celery worker thread in tests shares it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "accounts.backends.PlayerBackend",
    # Named by the sessions begun before the one above: they stay signed in.
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# How many proxies in front of the site append to X-Forwarded-For (an HTTPS front end: 1).
# Only then is that header trusted to tell the client's address (login throttling).
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", "0")
# Sign-ups that made an account or were told their username is taken, per browser and
# address, and per address for everyone behind it (a shared address: an office, a
# school), per hour; and player look-ups by name per inviter, per hour.
SIGNUP_ATTEMPT_LIMIT = envint("SIGNUP_ATTEMPT_LIMIT", "10")
SIGNUP_ADDRESS_LIMIT = envint("SIGNUP_ADDRESS_LIMIT", "50")
LOOKUP_LIMIT = envint("LOOKUP_LIMIT", "20")
# Confirmation links a player may ask to be sent again, per hour.
RESEND_CONFIRMATION_LIMIT = envint("RESEND_CONFIRMATION_LIMIT", "3")
# Failed logins allowed per username from one address, and per address over any names,
# within the window (seconds). Never per username alone: anyone could lock its owner out.
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "5")
LOGIN_FAILURE_WINDOW = envint("LOGIN_FAILURE_WINDOW", "900")
LOGIN_ADDRESS_FAILURE_LIMIT = envint("LOGIN_ADDRESS_FAILURE_LIMIT", "20")

# How often an open game page asks whether anything changed (seconds).
GAME_POLL_SECONDS = envint("GAME_POLL_SECONDS", "3")
# How often a game page whose live stream is open asks all the same (seconds): a safety net
# for an event lost on the way; the stream brings every change at once.
STREAM_SAFETY_SECONDS = envint("STREAM_SAFETY_SECONDS", "30")

# The cache (rate limits, sessions, the tables' versions for the cheap poll): Redis when
# there is one (REDIS_URL, else the broker's Redis, in the next database number), so that
# every web process shares it; else a table in the database.
def _redis_cache_url() -> str:
    url = os.getenv("REDIS_URL", "")
    if url:
        return url
    broker = os.getenv("CELERY_BROKER_URL", "")
    if not broker.startswith(("redis://", "rediss://")):
        return ""
    base, _, db = broker.rstrip("/").rpartition("/")
    if not db.isdigit():
        return broker.rstrip("/") + "/1"
    return f"{base}/{int(db) + 1}"


REDIS_URL = _redis_cache_url()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "dalmuti_site.cache.RedisCache",  # one pool per process
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "dalmuti",
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "dalmuti_cache",
        }
    }

# Internationalisation: English, Dutch, German and French.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("nl", _("Dutch")),
    ("de", _("German")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A moment in French, Dutch and German as a sentence writes it (dalmuti_site/formats).
FORMAT_MODULE_PATH = "dalmuti_site.formats"
USE_I18N = True
TIME_ZONE = os.getenv("TIME_ZONE", "Europe/Amsterdam")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", VAR_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names (css/dalmuti.1a2b3c.css): WhiteNoise serves them with a far-future,
        # immutable lifetime. Needs collectstatic, so only in production.
        # Each file's URL looked up once per process (dalmuti_site.staticfiles).
        "BACKEND": "dalmuti_site.staticfiles.KeptManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Email: SMTP when EMAIL_HOST is set, else one readable file per message in var/mail/.
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "Dalmuti <dalmuti@localhost>")
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", "587")
    EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "1")
    # A mail server that stops answering must not hold a worker (or, without a broker,
    # a request) for ever: the send fails and is tried again later.
    EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "15")
else:
    EMAIL_BACKEND = "dalmuti_site.mail.FileBackend"
    EMAIL_FILE_PATH = VAR_DIR / "mail"

# Celery: with no broker, tasks run in-process (after the transaction commits).
CELERY_TASK_ALWAYS_EAGER = not os.getenv("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.getenv("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_RESULT_BACKEND = os.getenv("CELERY_RESULT_BACKEND", os.getenv("CELERY_BROKER_URL"))
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Enqueuing must never hang a request when the broker is down or hangs (accepts the
# connection, never answers): fail fast with short socket timeouts and no publish retry;
# the sweep sends the work again later.
# A worker takes the queues in the order of CELERY_TASK_QUEUES ("priority"), not in turn.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2,
    "socket_timeout": envfloat("BROKER_SOCKET_TIMEOUT", "1.5"),
    "socket_connect_timeout": envfloat("BROKER_SOCKET_TIMEOUT", "1.5"),
    "queue_order_strategy": "priority",
}
# Four queues, and every worker consumes all (a worker started without -Q takes every
# queue declared here), in this order: the bot moves that a person at the table waits for
# (games.tasks.REPLY_QUEUE), then everything else (the sweep, emails), then the moves of
# tables where nobody waits for the bots (games.tasks.BOT_PLAY_QUEUE), and last the
# reviews of finished games (games.tasks.REVIEW_QUEUE). A bot's reply to a move is never
# queued behind other tables' bot-only stretches, nor anything behind a review.
# Each queue is bound with a routing key of its own (not Celery's default "celery" for
# all), so that the bindings say plainly where work goes.
CELERY_TASK_QUEUES = tuple(Queue(name, routing_key=name)
                           for name in ("bot_replies", "celery", "bot_play", "reviews"))
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_BROKER_CONNECTION_TIMEOUT = envfloat("BROKER_SOCKET_TIMEOUT", "1.5")
CELERY_TASK_PUBLISH_RETRY = False
SWEEP_SECONDS = envint("SWEEP_SECONDS", "60")
# A bot decision that takes longer than this (seconds) is replaced by the next simpler
# bot's (the expert's own budget is half a second a move).
BOT_DECISION_SECONDS = envfloat("BOT_DECISION_SECONDS", "5")
# A person dealt both jesters may call a revolution until the Dalmutis have chosen what
# they give back: a Dalmuti's choice made by a bot or a standing order waits this long
# after the deal (seconds; a quarter of the time per turn when that is longer, up to an
# hour) at a table where a person plays. 0: at once (the test suite's default).
REVOLUTION_WINDOW_SECONDS = envint("REVOLUTION_WINDOW_SECONDS", "20")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite locks the whole database for a transaction (bots decide and reviews judge
    # outside theirs): a busy site's queue of writes (moves, a review's verdicts, an
    # organiser's form) waits its turn instead of failing with "database is locked" after
    # SQLite's usual five seconds.
    DATABASES["default"]["OPTIONS"]["timeout"] = max(30.0, 4 * BOT_DECISION_SECONDS)
# The expert bot's search, passed to the engine with each decision (engine.Effort): seconds
# per move (0: the engine's own half a second), or instead a fixed number of sampled deals
# per move (0: none), which makes its moves depend only on the game's seed.
DALMUTI_EXPERT_BUDGET = envfloat("DALMUTI_EXPERT_BUDGET", "0") or None
DALMUTI_EXPERT_SAMPLES = envint("DALMUTI_EXPERT_SAMPLES", "0") or None
# The expert's review of every finished game with people at it (games.commands.reviews):
# on unless DALMUTI_REVIEWS=0; the deals sampled per candidate of each decision (0: the
# engine's own, engine.review.REVIEW_SAMPLES); how long one review task judges before it
# hands the rest to the next one (seconds).
DALMUTI_REVIEWS = envbool("DALMUTI_REVIEWS", "1")
DALMUTI_REVIEW_SAMPLES = envint("DALMUTI_REVIEW_SAMPLES", "0") or None
REVIEW_CHUNK_SECONDS = envfloat("REVIEW_CHUNK_SECONDS", "20")
# The daily summary goes out at this hour of each reader's own time zone: the task runs
# every hour and finds whose hour it is.
DAILY_SUMMARY_HOUR = envint("DAILY_SUMMARY_HOUR", "8")
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "games.tasks.sweep", "schedule": SWEEP_SECONDS},
    "daily-summaries": {"task": "games.tasks.daily_summaries", "schedule": crontab(minute=0)},
}
# A host may invite at most this many people to one table, and send at most this many
# invitations a day: enough for friends, too few to use the site to send spam.
INVITATIONS_PER_TABLE = envint("INVITATIONS_PER_TABLE", "20")
INVITATIONS_PER_DAY = envint("INVITATIONS_PER_DAY", "30")
# After joining or leaving a game in progress, a player waits this long (seconds) before
# joining or leaving that table again: each step redraws every open page of the table.
SEAT_CHANGE_SECONDS = envint("SEAT_CHANGE_SECONDS", "30")
# Event streams one session may hold open (tabs, tables); opening one more closes the
# oldest, whose page then polls.
STREAMS_PER_SESSION = envint("STREAMS_PER_SESSION", "8")
# Turn emails wait this long (a player watching the table acts first), and are held back
# while the player has been active on the table this recently (seconds).
NOTIFY_GRACE_SECONDS = envint("NOTIFY_GRACE_SECONDS", "120")
NOTIFY_WATCHING_SECONDS = envint("NOTIFY_WATCHING_SECONDS", "300")
# A player's "last seen at the table" is written at most once this often (seconds), so a
# player watching may look absent for up to this long: a shorter watching window than
# this would email players who are looking at the table.
LAST_SEEN_SECONDS = 60
if NOTIFY_WATCHING_SECONDS < LAST_SEEN_SECONDS:
    raise RuntimeError(
        f"NOTIFY_WATCHING_SECONDS must be at least {LAST_SEEN_SECONDS}: a player's last "
        f"visit to a table is written once every {LAST_SEEN_SECONDS} seconds."
    )

# Content-Security-Policy (django-csp) on every response: no inline scripts or styles
# anywhere, every script and stylesheet is a static file of this site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

# Web push (VAPID): the key pair that identifies the site to the browsers' push services,
# base64url (see push/keys.py; without them a pair is made once in var/vapid.json), and a
# contact address the push services may write to.
VAPID_PRIVATE_KEY = os.getenv("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.getenv("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.getenv("VAPID_SUBJECT", "mailto:dalmuti@localhost")
# Requests to addresses players give (push services) reach only the public internet over
# HTTPS (dalmuti_site/outbound.py). On, this lets them reach loopback too, over plain HTTP
# as well: for tests and a push service on this machine, never in production.
OUTBOUND_ALLOW_LOOPBACK = envbool("OUTBOUND_ALLOW_LOOPBACK", "0")

# The debug page (DEBUG=1, as with make run) hides a game's state, seed and hands.
DEFAULT_EXCEPTION_REPORTER_FILTER = "dalmuti_site.debug.GameSecretsFilter"

LOG_LEVEL = os.getenv("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # The level on the handler as well as the root: Django's own loggers have a level of
    # their own (INFO) and reach this handler by propagation, past the root's level.
    "handlers": {"console": {"class": "logging.StreamHandler", "level": LOG_LEVEL}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}

# Production hardening: on whenever DEBUG is off.
if not DEBUG:
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "whitenoise.middleware.WhiteNoiseMiddleware")
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "1")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1")
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "1")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
