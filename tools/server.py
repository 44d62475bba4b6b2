"""Real server processes on this machine, for the load benchmark and the multi-process
test: the production server (gunicorn, sync or uvicorn workers) with the given settings on
a free port, waited for until it answers, and stopped cleanly (the whole process group).

    with serve(environment(DEBUG="0"), workers=2, asgi=True) as server:
        ... requests to 127.0.0.1:{server.port} ...
"""

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """DATABASE_URL for another process to use this database (PostgreSQL or SQLite)."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or ""
    if settings_dict.get("PASSWORD"):
        user += f":{settings_dict['PASSWORD']}"
    return (f"postgres://{user}@{settings_dict.get('HOST') or '127.0.0.1'}:"
            f"{settings_dict.get('PORT') or 5432}/{settings_dict['NAME']}")


def environment(**overrides: str) -> dict[str, str]:
    """The environment of a server that shares this process's database, broker, Redis and
    secret key (so that sessions made here are valid there); `overrides` on top."""
    from django.conf import settings
    from django.db import connection

    env = {**os.environ,
           "DATABASE_URL": database_url(connection.settings_dict),
           "SECRET_KEY": settings.SECRET_KEY,
           "ALLOWED_HOSTS": "127.0.0.1",
           "PYTHONUNBUFFERED": "1"}
    for name in ("CELERY_BROKER_URL", "REDIS_URL"):
        value = getattr(settings, name, "") or ""
        if value:
            env[name] = value
        else:
            env.pop(name, None)
    return {**env, **overrides}


def start(command: list[str], env: dict[str, str], quiet: bool = True,
          cwd: Path | None = None) -> subprocess.Popen:
    """A process in a session of its own, so that stopping it stops its children too."""
    output = subprocess.DEVNULL if quiet else None
    return subprocess.Popen(command, env=env, start_new_session=True, cwd=cwd,
                            stdout=output, stderr=output)


def stop(*processes: subprocess.Popen, timeout: float = 30) -> None:
    """SIGTERM to each process group, then wait; what does not stop in time is killed."""
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(10)


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    workers: int
    asgi: bool

    @property
    def kind(self) -> str:
        return "uvicorn (ASGI)" if self.asgi else "sync"

    def worker_pids(self) -> list[int]:
        """The worker processes of the gunicorn master (Linux; empty where unknown)."""
        pid = self.process.pid
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as children:
                return [int(child) for child in children.read().split()]
        except OSError:
            return []

    def wait_until_up(self, seconds: float = 60) -> None:
        """Until the server answers an HTTP request (any status: a worker has booted)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the web server on port {self.port} exited at start")
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                conn.request("GET", "/health/", headers={"Host": "127.0.0.1"})
                conn.getresponse().read()
                return
            except OSError:
                time.sleep(0.1)
            finally:
                conn.close()
        raise RuntimeError(f"no web server answered on port {self.port}")


def collect_static(env: dict[str, str]) -> None:
    """What a deploy does before serving with DEBUG=0: the hashed static files (and their
    manifest, without which every page fails) collected into STATIC_ROOT."""
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   env=env, cwd=ROOT, check=True)


def start_server(env: dict[str, str], workers: int = 1, asgi: bool = True,
                 graceful_timeout: float | None = None, quiet: bool = True) -> Server:
    """The production server (as deployed: gunicorn, with uvicorn workers for ASGI) on a
    free port; not yet waited for. With DEBUG=0 the static files are collected first."""
    if env.get("DEBUG") == "0":
        collect_static(env)
    port = free_port()
    app = (["dalmuti_site.asgi", "-k", "uvicorn_worker.UvicornWorker"] if asgi
           else ["dalmuti_site.wsgi"])
    command = [sys.executable, "-m", "gunicorn", *app, "--workers", str(workers),
               "--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    if graceful_timeout is not None:
        command += ["--graceful-timeout", str(graceful_timeout)]
    return Server(port, start(command, env, quiet, cwd=ROOT), workers, asgi)


@contextmanager
def serve(env: dict[str, str], workers: int = 1, asgi: bool = True,
          graceful_timeout: float | None = None, stop_timeout: float = 30,
          quiet: bool = True) -> Iterator[Server]:
    """One server, up when the block starts, stopped (and waited for) when it ends."""
    server = start_server(env, workers, asgi, graceful_timeout, quiet)
    try:
        server.wait_until_up()
        yield server
    finally:
        stop(server.process, timeout=stop_timeout)
