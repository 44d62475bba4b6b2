"""A push service of our own: a small HTTP server on this machine that takes what the
site sends the way a browser vendor's push service would, and a browser's side of a
subscription (a real P-256 key pair and auth secret), so that what arrives can be
decrypted and read."""

import base64
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    def __init__(self):
        self.received: list[dict] = []
        self.status_for: dict[str, int] = {}  # path -> the status it answers
        self.location_for: dict[str, str] = {}  # path -> where it redirects to
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append({"path": self.path, "headers": headers,
                                         "body": body})
                self.send_response(service.status_for.get(self.path, 201))
                if self.path in service.location_for:
                    self.send_header("Location", service.location_for[self.path])
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's side of a subscription."""

    def __init__(self, service: PushService, name: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.secret = os.urandom(16)
        self.endpoint = service.endpoint(name)
        self.path = f"/push/{name}"

    def info(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint,
                "keys": {"p256dh": b64(public), "auth": b64(self.secret)}}


@pytest.fixture
def push_service(settings):
    # The service is on this machine: let the site reach loopback (and only that).
    settings.OUTBOUND_ALLOW_LOOPBACK = True
    service = PushService()
    yield service
    service.close()
