"""deploy/: the environment file template names every setting with a comment, the systemd
units hold what a host relies on (and systemd itself accepts them), and Caddy accepts
both Caddyfiles."""

import configparser
import gc
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
READ = re.compile(r"""(?:env(?:int|bool|float|list)|os\.getenv)\(\s*["']([A-Z_]+)["']""")
REQUIRE_SERVICES = os.getenv("REQUIRE_SERVICES", "") == "1"


def settings_read() -> set[str]:
    names = set()
    for path in (ROOT / "dalmuti_site").glob("*.py"):
        names |= set(READ.findall(path.read_text()))
    return names


def template_blocks() -> dict[str, list[str]]:
    """Each NAME=value line of the template (commented out or not) with the comment
    lines right above it, up to the previous setting or blank line."""
    blocks, comments = {}, []
    for line in (DEPLOY / "dalmuti.env").read_text().splitlines():
        setting = re.match(r"^#? ?([A-Z][A-Z0-9_]+)=", line)
        if setting:
            blocks[setting.group(1)] = list(comments)
        elif line.startswith("#") and not line.startswith("##"):
            comments.append(line)
            continue
        comments = [] if not setting else comments
    return blocks


def test_every_setting_is_in_the_environment_template_with_a_comment():
    names = settings_read()
    assert {"SECRET_KEY", "ASGI_CONCURRENCY", "TRUSTED_PROXIES"} <= names
    blocks = template_blocks()
    assert sorted(names - set(blocks)) == []
    uncommented = sorted(name for name in names if not blocks.get(name))
    assert uncommented == []


def test_the_template_names_nothing_the_site_and_its_scripts_do_not_read():
    scripts = "".join(p.read_text() for p in DEPLOY.glob("*.sh"))
    unknown = sorted(n for n in template_blocks() if n not in settings_read() and n not in scripts)
    assert unknown == []


def test_the_template_is_production_ready_once_the_marked_lines_are_filled():
    text = (DEPLOY / "dalmuti.env").read_text()
    active = dict(line.split("=", 1) for line in text.splitlines()
                  if line and not line.startswith("#"))
    assert active["DEBUG"] == "0"
    assert active["TRUSTED_PROXIES"] == "1"
    assert active["SITE_URL"].startswith("https://")
    assert active["DATABASE_URL"].startswith("postgres://")
    assert active["CELERY_BROKER_URL"].startswith("redis://")


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNITS / name)
    return parser


@pytest.mark.parametrize("name", ["dalmuti-web.service", "dalmuti-worker.service",
                                  "dalmuti-beat.service"])
def test_each_long_running_unit_restarts_starts_after_its_services_and_is_sandboxed(name):
    parsed = unit(name)
    service = parsed["Service"]
    assert service["User"] == service["Group"] == "dalmuti"
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"] == "/etc/dalmuti/dalmuti.env"
    assert service["ExecStart"].startswith("/opt/dalmuti/.venv/bin/")
    after = parsed["Unit"]["After"].split()
    assert {"postgresql.service", "redis-server.service", "network-online.target"} <= set(after)
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["PrivateTmp"] == "yes"
    assert service["ReadWritePaths"] == "/var/lib/dalmuti"
    assert service["StateDirectory"] == "dalmuti"
    assert parsed["Install"]["WantedBy"] == "multi-user.target"


def test_the_units_run_the_commands_of_the_readme():
    readme = (ROOT / "README.md").read_text()
    web = unit("dalmuti-web.service")["Service"]["ExecStart"]
    assert "dalmuti_site.asgi" in web and "uvicorn_worker.UvicornWorker" in web
    assert "--bind 127.0.0.1:8000" in web
    assert " worker " in unit("dalmuti-worker.service")["Service"]["ExecStart"]
    assert " beat " in unit("dalmuti-beat.service")["Service"]["ExecStart"]
    for name in ("dalmuti-web", "dalmuti-worker", "dalmuti-beat", "dalmuti-backup.timer"):
        assert name in readme


def test_the_web_workers_serve_with_the_compiled_event_loop_and_http_parser():
    """The worker class the unit names picks its event loop and HTTP parser from what is
    installed: uvloop and httptools, not asyncio's own loop and h11 (pure Python, which
    every request and stream event would go through)."""
    import uvloop
    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn_worker import UvicornWorker

    assert "uvicorn_worker.UvicornWorker" in unit("dalmuti-web.service")["Service"]["ExecStart"]
    config = Config(app="dalmuti_site.asgi:application", **UvicornWorker.CONFIG_KWARGS)
    young = gc.get_threshold()
    try:
        config.load()
    finally:
        # Loading the site readies this process as a web process (dalmuti_site.serving):
        # the tests' own process is given back its collector as it was.
        gc.unfreeze()
        gc.set_threshold(*young)
    assert config.http_protocol_class is HttpToolsProtocol
    loop = config.get_loop_factory()()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_the_backup_runs_daily_and_keeps_what_the_template_says():
    timer = unit("dalmuti-backup.timer")
    assert timer["Timer"]["Persistent"] == "true"
    assert "03:15" in timer["Timer"]["OnCalendar"]
    service = unit("dalmuti-backup.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["ExecStart"] == "/opt/dalmuti/deploy/backup.sh"
    assert service["ReadWritePaths"] == "/var/backups/dalmuti"
    assert os.access(DEPLOY / "backup.sh", os.X_OK) and os.access(DEPLOY / "restore.sh", os.X_OK)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        if REQUIRE_SERVICES and name == "caddy":
            pytest.fail("REQUIRE_SERVICES=1 but caddy is not installed", pytrace=False)
        pytest.skip(f"{name} is not installed")
    return found


def test_systemd_accepts_every_unit(tmp_path):
    """Installed at this checkout instead of /opt/dalmuti, so that the commands exist."""
    analyze = _tool("systemd-analyze")
    for source in UNITS.iterdir():
        text = source.read_text().replace("/opt/dalmuti", str(ROOT))
        text = text.replace("/etc/dalmuti/dalmuti.env", str(DEPLOY / "dalmuti.env"))
        (tmp_path / source.name).write_text(text)
    done = subprocess.run([analyze, "verify", *sorted(map(str, tmp_path.iterdir()))],
                          capture_output=True, text=True, timeout=60)
    if "Failed to connect to bus" in done.stderr or "System has not been booted" in done.stderr:
        pytest.skip("systemd-analyze cannot run here: " + done.stderr.strip())
    # It exits 0 even when it ignores a key it does not know: any word from it is a fault.
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


@pytest.mark.parametrize("name", ["Caddyfile", "Caddyfile.local"])
def test_caddy_accepts_the_caddyfiles(name):
    caddy = _tool("caddy")
    done = subprocess.run(
        [caddy, "validate", "--config", str(DEPLOY / name), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60, cwd=DEPLOY,
        env={**os.environ, "DALMUTI_DOMAIN": "dalmuti.example.org",
             "ACME_EMAIL": "host@example.org", "HTTP_PORT": "18080", "HTTPS_PORT": "18443"})
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr


def test_the_nginx_example_streams_unbuffered_and_sets_the_forwarded_headers():
    text = (DEPLOY / "nginx.conf").read_text()
    stream = text.split("location ~ ^/t/[^/]+/stream/$ {", 1)[1].split("}", 1)[0]
    assert "proxy_buffering off;" in stream and "gzip off;" in stream
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in text
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text
    assert "return 301 https://$host$request_uri;" in text


def filled_in(template: str, **values) -> str:
    """The template with the lines marked CHANGE filled in, as a host would."""
    lines = []
    for line in template.splitlines():
        name = line.split("=", 1)[0]
        lines.append(f"{name}={values[name]}" if name in values else line)
    return "\n".join(lines) + "\n"


@pytest.mark.django_db
def test_the_filled_in_template_passes_the_deploy_check_through_manage_sh(tmp_path):
    """deploy/manage.sh reads the file as the shell does (quotes and all) and runs
    manage.py as the site's user; the production settings it gives pass Django's
    deployment check."""
    import secrets

    from django.db import connection

    db = connection.settings_dict
    env_file = tmp_path / "dalmuti.env"
    env_file.write_text(filled_in(
        (DEPLOY / "dalmuti.env").read_text(),
        SECRET_KEY=secrets.token_urlsafe(50),
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:"
                     f"{db['PORT'] or 5432}/{db['NAME']}" if db["ENGINE"].endswith(
                         "postgresql") else f"sqlite:///{db['NAME']}",
        DALMUTI_VAR_DIR=str(tmp_path), STATIC_ROOT=str(tmp_path / "static"),
    ))
    env_file.chmod(0o644)
    tmp_path.chmod(0o755)
    # Run as root (as in CI), the script drops to DALMUTI_USER: here root itself, since the
    # checkout's interpreter may live where no other user can read (a pyenv under /root).
    user = "root" if os.geteuid() == 0 else ""
    done = subprocess.run(
        [str(DEPLOY / "manage.sh"), "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "DALMUTI_ENV_FILE": str(env_file), "DALMUTI_USER": user,
             "DATABASE_URL": "", "DEBUG": "", "CELERY_BROKER_URL": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_every_file_and_unit_the_readme_names_exists():
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"deploy/[\w./-]+\w", readme))
    assert {"deploy/manage.sh", "deploy/backup.sh", "deploy/restore.sh", "deploy/dalmuti.env",
            "deploy/Caddyfile", "deploy/nginx.conf"} <= named
    missing = sorted(n for n in named if not (ROOT / n).exists() and "*" not in n)
    assert missing == []
    for unit_name in set(re.findall(r"\bdalmuti-(?:web|worker|beat|backup)\b(?:\.timer)?",
                                    readme)):
        suffix = "" if unit_name.endswith(".timer") else ".service"
        assert (UNITS / f"{unit_name}{suffix}").exists(), unit_name
