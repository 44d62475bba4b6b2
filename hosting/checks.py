"""What a host needs to know about the running installation, checked end to end and told
in plain words: what is wrong and what to do about it.

Each check returns one Result. `manage.py doctor` prints them; the admin's System status
page shows them to superusers (with the request, so that it can also judge the proxy's
forwarded headers).
"""

import json
import os
import smtplib
import time
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings
from django.core.mail import get_connection
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http.request import validate_host
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import heartbeat

OK, WARNING, ERROR, SKIPPED = "ok", "warning", "error", "skipped"


@dataclass
class Result:
    key: str
    title: str
    status: str
    message: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        return self.status == ERROR


def _redis_url() -> str:
    broker = "" if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL
    return broker if broker.startswith(("redis://", "rediss://")) else ""


def _where(url: str) -> str:
    parsed = urlparse(url)
    return f"{parsed.hostname or '127.0.0.1'}:{parsed.port or 6379}"


def database() -> Result:
    title = _("Database")
    try:
        connection.ensure_connection()
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:  # noqa: BLE001 - whatever failed is what the host must read
        return Result("database", title, ERROR,
                      _("The database cannot be reached: %(error)s") % {"error": exc},
                      _("Check DATABASE_URL in the environment file and that PostgreSQL is "
                        "running (systemctl status postgresql)."))
    if pending:
        return Result("database", title, ERROR,
                      ngettext("%(count)s database change (migration) is not applied yet.",
                               "%(count)s database changes (migrations) are not applied yet.",
                               len(pending)) % {"count": len(pending)},
                      _("Run: manage.py migrate, then restart the site."))
    return Result("database", title, OK,
                  _("Reachable (%(vendor)s), every migration applied.")
                  % {"vendor": connection.vendor})


def redis() -> Result:
    title = _("Redis")
    url = _redis_url()
    if not url:
        return Result("redis", title, WARNING,
                      _("No broker is set: background work (bot moves, emails) runs inside "
                        "the web server, and live updates fall back to polling."),
                      _("For a group, install Redis and set CELERY_BROKER_URL "
                        "(redis://127.0.0.1:6379/0)."))
    import redis as redis_client

    problems = []
    for name, address in (("CELERY_BROKER_URL", url), ("REDIS_URL", settings.REDIS_URL)):
        if not address:
            continue
        try:
            redis_client.Redis.from_url(address, socket_timeout=2,
                                        socket_connect_timeout=2).ping()
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{name} ({_where(address)}): {exc}")
    if problems:
        return Result("redis", title, ERROR,
                      _("Redis does not answer: %(error)s") % {"error": "; ".join(problems)},
                      _("Start Redis (systemctl start redis-server) and check the address "
                        "and port in CELERY_BROKER_URL and REDIS_URL."))
    return Result("redis", title, OK, _("Reachable at %(where)s.") % {"where": _where(url)})


def worker() -> Result:
    title = _("Celery worker")
    if not _redis_url():
        return Result("worker", title, SKIPPED,
                      _("No broker: tasks run inside the web server, no worker is needed."))
    from dalmuti_site.celery import app

    try:
        replies = app.control.ping(timeout=2.0)
    except Exception as exc:  # noqa: BLE001
        replies, error = [], str(exc)
    else:
        error = ""
    if not replies:
        message = _("No worker answered within 2 seconds: bots do not move and no email "
                    "is sent.")
        if error:
            message += " " + error
        return Result("worker", title, ERROR, message,
                      _("Start it: systemctl start dalmuti-worker; its log says why it "
                        "stopped: journalctl -u dalmuti-worker."))
    names = sorted(name for reply in replies for name in reply)
    return Result("worker", title, OK,
                  ngettext("%(count)s worker answered: %(names)s.",
                           "%(count)s workers answered: %(names)s.", len(names))
                  % {"count": len(names), "names": ", ".join(names)})


def beat() -> Result:
    title = _("Periodic sweep (beat)")
    try:
        last = heartbeat.sweep_last_ran()
    except Exception as exc:  # noqa: BLE001
        return Result("beat", title, ERROR,
                      _("The cache cannot be read: %(error)s") % {"error": exc},
                      _("Check REDIS_URL and that Redis is running."))
    late_after = 3 * settings.SWEEP_SECONDS
    fix = _("Start beat: systemctl start dalmuti-beat (and a worker to run the sweep); "
            "its log: journalctl -u dalmuti-beat.")
    if last is None and not _redis_url():
        return Result("beat", title, SKIPPED,
                      _("No broker: the web server runs the sweep itself, no beat is needed."))
    if last is None:
        return Result("beat", title, ERROR,
                      _("The sweep has not run yet: turns do not time out, and reminders "
                        "and daily summaries are not sent."), fix)
    ago = max(0, int(time.time() - last))
    if ago > late_after:
        return Result("beat", title, ERROR,
                      _("The sweep last ran %(seconds)s seconds ago; it should run every "
                        "%(every)s seconds.") % {"seconds": ago, "every": settings.SWEEP_SECONDS},
                      fix)
    return Result("beat", title, OK,
                  _("The sweep last ran %(seconds)s seconds ago.") % {"seconds": ago})


def email() -> Result:
    title = _("Email")
    if not settings.EMAIL_BACKEND.endswith("smtp.EmailBackend"):
        return Result("email", title, WARNING,
                      _("Emails are written as files into %(path)s: nobody receives them.")
                      % {"path": getattr(settings, "EMAIL_FILE_PATH", "?")},
                      _("Set EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER and EMAIL_HOST_PASSWORD "
                        "to your mail provider's SMTP server."))
    where = f"{settings.EMAIL_HOST}:{settings.EMAIL_PORT}"
    try:
        mail = get_connection(fail_silently=False, timeout=5)
        mail.open()
        mail.close()
    except (OSError, smtplib.SMTPException) as exc:
        return Result("email", title, ERROR,
                      _("The mail server %(where)s refuses: %(error)s")
                      % {"where": where, "error": exc or exc.__class__.__name__},
                      _("Check EMAIL_HOST, EMAIL_PORT, EMAIL_USE_TLS and the user name and "
                        "password with your mail provider."))
    if "@localhost" in settings.DEFAULT_FROM_EMAIL:
        return Result("email", title, WARNING,
                      _("The mail server %(where)s answers, but emails are sent from "
                        "%(sender)s, which mail providers reject as spam.")
                      % {"where": where, "sender": settings.DEFAULT_FROM_EMAIL},
                      _("Set DEFAULT_FROM_EMAIL to an address of your own domain."))
    return Result("email", title, OK,
                  _("The mail server %(where)s answers; emails are sent from %(sender)s.")
                  % {"where": where, "sender": settings.DEFAULT_FROM_EMAIL})


def _generated_public_key(path: Path) -> str:
    try:
        return json.loads(path.read_text())["public"]
    except (OSError, ValueError, KeyError):
        return ""


def push_keys() -> Result:
    title = _("Push notification keys")
    path = Path(settings.VAR_DIR) / "vapid.json"
    from_environment = bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)
    current = settings.VAPID_PUBLIC_KEY if from_environment else _generated_public_key(path)
    try:
        changed = heartbeat.push_key_changed(current) if current else None
    except Exception:  # noqa: BLE001 - the cache's own check says what is wrong with it
        changed = None
    if changed:
        return Result("push", title, ERROR,
                      _("The push key pair changed %(minutes)s minutes ago: devices that "
                        "turned notifications on before no longer get them.")
                      % {"minutes": int((time.time() - changed) // 60)},
                      _("Put the previous pair back if you still have it; otherwise each "
                        "player turns notifications on again (profile page). Then keep the "
                        "pair in VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY."))
    if from_environment:
        return Result("push", title, OK, _("Set in the environment."))
    return Result("push", title, WARNING,
                  _("Not set: a pair generated into %(path)s is used, and a new one is "
                    "made if that file is lost.") % {"path": path},
                  _("Make a pair once and set VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY (README, "
                    "“Web push”): a changed pair silently ends every device's notifications."))


def site_url() -> Result:
    title = _("Site address")
    parsed = urlparse(settings.SITE_URL)
    problems = []
    if parsed.scheme != "https":
        problems.append(_("SITE_URL (%(url)s) is not an https:// address: links in emails "
                          "go to an unencrypted page, and push needs HTTPS.")
                        % {"url": settings.SITE_URL})
    if not validate_host(parsed.hostname or "", settings.ALLOWED_HOSTS):
        problems.append(_("Its host %(host)s is not in ALLOWED_HOSTS (%(allowed)s): the site "
                          "answers 400 to every link in an email.")
                        % {"host": parsed.hostname, "allowed": ", ".join(settings.ALLOWED_HOSTS)})
    if problems:
        return Result("site_url", title, ERROR, " ".join(problems),
                      _("Set SITE_URL to https://your.domain and add your.domain to "
                        "ALLOWED_HOSTS."))
    return Result("site_url", title, OK, _("%(url)s, an allowed host.")
                  % {"url": settings.SITE_URL})


def proxies(request=None) -> Result:
    title = _("Proxy headers")
    trusted = settings.TRUSTED_PROXIES
    if request is None:
        return Result("proxies", title, SKIPPED,
                      _("Judged from a request: open System status in the admin, through "
                        "your HTTPS address."))
    forwarded = [a for a in (a.strip() for a in
                 request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")) if a]
    proto = request.META.get("HTTP_X_FORWARDED_PROTO", "")
    if forwarded and not trusted:
        return Result("proxies", title, ERROR,
                      _("A proxy sends X-Forwarded-For, but TRUSTED_PROXIES is 0: every "
                        "player looks like the proxy (%(address)s), so one player's wrong "
                        "passwords lock everybody out.")
                      % {"address": request.META.get("REMOTE_ADDR", "?")},
                      _("Set TRUSTED_PROXIES=1 (one proxy, such as Caddy or nginx, in "
                        "front)."))
    if trusted and len(forwarded) < trusted:
        return Result("proxies", title, ERROR,
                      _("TRUSTED_PROXIES is %(trusted)s, but this request came with "
                        "%(count)s X-Forwarded-For addresses: it did not pass through the "
                        "proxy, or the proxy does not set the header.")
                      % {"trusted": trusted, "count": len(forwarded)},
                      _("Let only the proxy reach the site (bind it to 127.0.0.1) and have "
                        "it set X-Forwarded-For; without a proxy, set TRUSTED_PROXIES=0."))
    if not settings.DEBUG and proto != "https" and not request.is_secure():
        return Result("proxies", title, WARNING,
                      _("The proxy does not say X-Forwarded-Proto: https."),
                      _("Use the Caddyfile or nginx example in deploy/, which set it."))
    if trusted:
        return Result("proxies", title, OK,
                      ngettext("Behind %(trusted)s proxy; your address is seen as %(address)s.",
                               "Behind %(trusted)s proxies; your address is seen as "
                               "%(address)s.", trusted)
                      % {"trusted": trusted, "address": forwarded[-trusted]})
    return Result("proxies", title, OK, _("No proxy in front, and none expected."))


def debug() -> Result:
    title = _("Debug mode")
    if settings.DEBUG:
        return Result("debug", title, ERROR,
                      _("DEBUG is on: error pages show the site's settings and code, and "
                        "static files are not cached."),
                      _("Set DEBUG=0 and a SECRET_KEY of your own in the environment file."))
    return Result("debug", title, OK, _("Off."))


def time_zone() -> Result:
    title = _("Time zone")
    name = settings.TIME_ZONE
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return Result("time_zone", title, ERROR,
                      _("%(zone)s is not a time zone.") % {"zone": name},
                      _("Set TIME_ZONE to a name such as Europe/Amsterdam."))
    if "TIME_ZONE" not in os.environ:
        return Result("time_zone", title, WARNING,
                      _("Not set: players who have not chosen one get %(zone)s.")
                      % {"zone": name},
                      _("Set TIME_ZONE to your group's zone (for example Europe/London)."))
    return Result("time_zone", title, OK, _("%(zone)s for players who have not chosen one.")
                  % {"zone": name})


def run(request=None) -> list[Result]:
    """Every check, in the order a host would fix things."""
    return [database(), redis(), worker(), beat(), email(), push_keys(), site_url(),
            proxies(request), debug(), time_zone()]
