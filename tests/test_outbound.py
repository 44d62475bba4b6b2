"""The guard for requests the server makes to addresses players give it (push services
now): HTTPS to the public internet only. Every address a name resolves to is checked,
the connection goes to the address that was checked (the name is not resolved again)
with TLS still checked against the name, redirects are not followed, and answers are
cut short in time and size. Nothing here leaves this machine: names come from a fake
resolver, and the loopback refusals are proved with a listener that must see nothing."""

import datetime
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from dalmuti_site import outbound

NAME = "push.example.net"
PUBLIC_V4, PUBLIC_V6 = "93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"

# Each address class the guard refuses, with the reason it gives.
REFUSED = [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"),
    ("10.0.0.1", "private"), ("172.16.0.1", "private"), ("172.31.255.254", "private"),
    ("192.168.1.1", "private"),
    ("169.254.1.1", "link-local"), ("fe80::1", "link-local"), ("fe80::1%1", "link-local"),
    ("fc00::1", "unique-local"), ("fd12:3456::1", "unique-local"), ("fec0::1", "site-local"),
    ("224.0.0.1", "multicast"), ("239.255.255.250", "multicast"), ("ff02::1", "multicast"),
    ("ff0e::1", "multicast"),
    ("240.0.0.1", "reserved"), ("255.255.255.255", "reserved"), ("192.0.2.7", "reserved"),
    ("198.18.0.1", "reserved"), ("2001:db8::1", "reserved"), ("100::1", "reserved"),
    ("169.254.169.254", "metadata"), ("fd00:ec2::254", "metadata"),
    ("168.63.129.16", "metadata"), ("100.100.100.200", "metadata"),
    ("0.0.0.0", "unspecified"), ("0.1.2.3", "unspecified"), ("::", "unspecified"),
    ("100.64.0.1", "shared"),
    # IPv4 inside IPv6: judged by the IPv4 address they carry.
    ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"),
    ("::ffff:169.254.169.254", "metadata"), ("::ffff:0.0.0.0", "unspecified"),
    ("::ffff:224.0.0.1", "multicast"), ("::127.0.0.1", "reserved"),
    ("2002:7f00:1::1", "loopback"), ("2002:a9fe:a9fe::1", "metadata"),
    ("64:ff9b::7f00:1", "loopback"), ("64:ff9b::a00:1", "private"),
    ("64:ff9b:1::1", "reserved"),
]


@pytest.fixture
def loopback_allowed(settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = True


@pytest.fixture
def loopback_refused(settings):
    settings.OUTBOUND_ALLOW_LOOPBACK = False


@pytest.mark.parametrize("address, reason", REFUSED)
def test_each_address_class_is_refused_with_its_reason(address, reason, loopback_refused):
    assert outbound.refusal(address) == reason


@pytest.mark.parametrize("address", [PUBLIC_V4, PUBLIC_V6, "8.8.8.8", "::ffff:8.8.8.8",
                                     "2002:808:808::1", "64:ff9b::808:808"])
def test_public_addresses_are_allowed(address, loopback_refused):
    assert outbound.refusal(address) is None


@pytest.mark.parametrize("address, reason", REFUSED)
def test_a_name_resolving_to_a_refused_address_is_never_connected(
        address, reason, loopback_refused, fake_dns, quiet_listener, quiet_listener6,
        only_loopback):
    """Through the session, the way the site sends: refused before any connection. For
    loopback the listeners prove it; for the others the test's own guard would have
    failed the test had a connection been tried."""
    fake_dns.names[NAME] = [address]
    for listener in (quiet_listener, quiet_listener6):
        with pytest.raises(outbound.Refused, match=reason):
            outbound.session().post(f"https://{NAME}:{listener.port}/push/x", data=b"hi")
    assert quiet_listener.connections() == 0 and quiet_listener6.connections() == 0
    assert fake_dns.lookups == [NAME, NAME]
    assert only_loopback == []


def test_every_address_of_a_name_is_checked(loopback_refused, fake_dns, quiet_listener,
                                            only_loopback):
    fake_dns.names[NAME] = [PUBLIC_V4, PUBLIC_V6, "127.0.0.1"]
    with pytest.raises(outbound.Refused, match="loopback"):
        outbound.session().post(f"https://{NAME}:{quiet_listener.port}/x", data=b"hi")
    assert quiet_listener.connections() == 0
    assert only_loopback == []  # not even the public addresses were tried


@pytest.mark.parametrize("url", [
    "https://127.0.0.1:{port}/x", "https://[::1]:{port}/x", "https://[::ffff:127.0.0.1]:{port}/x",
    "http://127.0.0.1:{port}/x", "https://localhost:{port}/x", "https://2130706433:{port}/x",
    "https://127.1:{port}/x", "https://0x7f.0.0.1:{port}/x", "https://0177.0.0.1:{port}/x",
])
def test_loopback_written_any_way_is_refused(url, loopback_refused, fake_dns, quiet_listener):
    with pytest.raises(outbound.Refused):
        outbound.session().post(url.format(port=quiet_listener.port), data=b"hi")
    assert quiet_listener.connections() == 0
    assert fake_dns.lookups == []


@pytest.mark.parametrize("url", [
    "http://127.0.0.1@evil.example/", "https://127.0.0.1@evil.example/",
    "https://evil.example@127.0.0.1/", "https://user:secret@push.example.net/",
    "https://push.example.net\\@127.0.0.1/", "https://push.example.net#@127.0.0.1/",
])
def test_addresses_with_userinfo_are_refused_unresolved(url, loopback_refused, fake_dns):
    fake_dns.names.update({"evil.example": [PUBLIC_V4], NAME: [PUBLIC_V4]})
    with pytest.raises(outbound.Refused):
        outbound.session().post(url, data=b"hi")
    assert fake_dns.lookups == []


@pytest.mark.parametrize("url", [
    f"http://{NAME}/x", f"ftp://{NAME}/x", "file:///etc/passwd", f"gopher://{NAME}/x",
    f"HTTP://{NAME}/x", f"ws://{NAME}/x", "https:///x", "https://:443/x", f"https://{NAME}:0/x",
    f"https://{NAME}:99999/x", f"https://{NAME}/\u202ex", f"https://{NAME}/a%00b",
    f"https://{NAME}/a\r\nHost: x", f"https://{NAME}/a b", "https://intranet/x",
    "https://push.example.123/x", f"https://{NAME}." + "a" * 64 + "/x",
    f"https://{NAME}/" + "a" * 3000, "https://[::1/x", "https://[v1.fe]/x", "https://[]/x",
    "https://push_service.example.net/x", "https://-push.example.net/x",
])
def test_anything_but_a_plain_https_address_is_refused(url, loopback_refused, fake_dns):
    fake_dns.names[NAME] = [PUBLIC_V4]
    with pytest.raises(outbound.Refused):
        outbound.check_url(url)
    with pytest.raises((outbound.Refused, requests.exceptions.InvalidURL)):
        outbound.session().post(url, data=b"hi")
    assert fake_dns.lookups == []


def test_the_flag_allows_loopback_only(loopback_allowed, fake_dns, quiet_listener,
                                       only_loopback):
    """With OUTBOUND_ALLOW_LOOPBACK (tests' own servers), loopback may be reached, also
    over plain HTTP; every other refusal stands."""
    assert outbound.refusal("127.0.0.1") is None and outbound.refusal("::1") is None
    for address, reason in REFUSED:
        if reason != "loopback":
            assert outbound.refusal(address) == reason, address
    fake_dns.names[NAME] = [PUBLIC_V4]
    with pytest.raises(outbound.Refused, match="HTTPS"):
        outbound.session().post(f"http://{NAME}/x", data=b"hi")
    fake_dns.names["inside.example.net"] = ["127.0.0.1", "10.0.0.1"]
    with pytest.raises(outbound.Refused, match="private"):
        outbound.session().post(f"http://inside.example.net:{quiet_listener.port}/x")
    assert quiet_listener.connections() == 0 and only_loopback == []


def test_the_flag_is_off_by_default():
    from django.conf import settings

    assert settings.OUTBOUND_ALLOW_LOOPBACK is False


# Servers on this machine, reached through the guard when the flag allows loopback.

class Recorder:
    def __init__(self, tls_name: str | None = None, tmp_path=None):
        self.requests: list[dict] = []
        self.sni: list[str | None] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 - the http.server API
                length = int(self.headers.get("Content-Length", 0))
                recorder.requests.append({"path": self.path, "body": self.rfile.read(length),
                                          "headers": {k.lower(): v for k, v in
                                                      self.headers.items()}})
                if self.path.startswith("/moved"):
                    self.send_response(307)
                    self.send_header("Location", "/push/elsewhere")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif self.path.startswith("/big"):
                    size = 4 * 1024 * 1024
                    self.send_response(201)
                    self.send_header("Content-Length", str(size))
                    self.end_headers()
                    try:
                        for _ in range(size // 65536):
                            self.wfile.write(b"x" * 65536)
                    except OSError:
                        pass  # the client stopped reading: what the test wants
                elif self.path.startswith("/endless"):
                    self.send_response(201)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    try:
                        while True:
                            self.wfile.write(b"10000\r\n" + b"y" * 65536 + b"\r\n")
                    except OSError:
                        pass
                else:
                    self.send_response(201)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")

            do_GET = do_POST  # noqa: N815

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        if tls_name:
            self.ca = _self_signed(tls_name, tmp_path)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.ca, tmp_path / "key.pem")
            context.sni_callback = lambda sock, name, ctx: self.sni.append(name)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _self_signed(name: str, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    path = tmp_path / "cert.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path


@pytest.fixture
def http_server():
    server = Recorder()
    yield server
    server.close()


@pytest.fixture
def https_server(tmp_path):
    server = Recorder(tls_name=NAME, tmp_path=tmp_path)
    yield server
    server.close()


def test_https_goes_to_the_checked_address_with_the_name_for_tls(
        loopback_allowed, fake_dns, https_server):
    """The name is resolved once; the connection goes to that address while TLS (SNI and
    the certificate check) and the Host header still use the name."""
    fake_dns.names[NAME] = ["127.0.0.1"]
    session = outbound.session()
    session.verify = str(https_server.ca)
    answer = session.post(f"https://{NAME}:{https_server.port}/push/a", data=b"sealed")
    assert answer.status_code == 201 and answer.content == b"ok"
    assert fake_dns.lookups == [NAME]
    assert https_server.sni == [NAME]
    assert https_server.requests[0]["headers"]["host"] == f"{NAME}:{https_server.port}"
    assert https_server.requests[0]["body"] == b"sealed"


def test_the_certificate_is_checked_against_the_name(loopback_allowed, fake_dns, https_server):
    fake_dns.names["other.example.net"] = ["127.0.0.1"]
    session = outbound.session()
    session.verify = str(https_server.ca)
    with pytest.raises(requests.exceptions.SSLError):
        session.post(f"https://other.example.net:{https_server.port}/push/a", data=b"x")
    assert https_server.requests == []


def test_verification_cannot_be_switched_off(loopback_allowed, fake_dns, https_server):
    fake_dns.names[NAME] = ["127.0.0.1"]
    session = outbound.session()
    session.verify = False
    with pytest.raises(requests.exceptions.SSLError):
        session.post(f"https://{NAME}:{https_server.port}/push/a", data=b"x", verify=False)
    assert https_server.requests == []


def test_a_name_is_not_resolved_again_for_the_connection(loopback_allowed, fake_dns,
                                                         http_server, only_loopback):
    """A resolver that answers loopback first and an inside address afterwards (DNS
    rebinding) gets asked once: the connection uses the first, checked answer."""
    answers = iter([["127.0.0.1"]])
    real = fake_dns.getaddrinfo

    def rebinding(host, *args, **kwargs):
        if host == NAME:
            fake_dns.names[NAME] = next(answers, ["10.0.0.1"])
        return real(host, *args, **kwargs)

    socket.getaddrinfo = rebinding  # restored by fake_dns's monkeypatch
    answer = outbound.session().post(f"http://{NAME}:{http_server.port}/push/a", data=b"x")
    assert answer.status_code == 201
    assert fake_dns.lookups == [NAME]
    assert http_server.requests[0]["headers"]["host"] == f"{NAME}:{http_server.port}"
    assert only_loopback == []


def test_the_next_checked_address_is_tried_when_one_cannot_be_reached(
        loopback_allowed, fake_dns, http_server):
    """Nothing listens on ::1 at the server's port: the connection fails before anything
    was sent, and the next address the name resolved to (also checked) is used."""
    fake_dns.names[NAME] = ["::1", "127.0.0.1"]
    answer = outbound.session().post(f"http://{NAME}:{http_server.port}/push/a", data=b"x")
    assert answer.status_code == 201
    assert fake_dns.lookups == [NAME] and len(http_server.requests) == 1


def test_redirects_are_not_followed(loopback_allowed, http_server):
    url = f"http://127.0.0.1:{http_server.port}/moved"
    session = outbound.session()
    assert session.post(url, data=b"x").status_code == 307
    assert session.post(url, data=b"x", allow_redirects=True).status_code == 307
    assert session.get(url, allow_redirects=True).status_code == 307
    assert [r["path"] for r in http_server.requests] == ["/moved"] * 3


def test_answers_are_read_up_to_the_cap(loopback_allowed, http_server):
    session = outbound.session()
    for path in ("/big", "/endless"):
        answer = session.post(f"http://127.0.0.1:{http_server.port}{path}", data=b"x")
        assert answer.status_code == 201
        assert len(answer.content) == outbound.MAX_ANSWER_BYTES
        assert len(answer.text) == outbound.MAX_ANSWER_BYTES


def test_time_outs_are_short_whatever_the_caller_asks(loopback_allowed, http_server,
                                                      monkeypatch):
    seen = []
    real_send = requests.adapters.HTTPAdapter.send

    def spy(self, request, **kwargs):
        seen.append(kwargs["timeout"])
        return real_send(self, request, **kwargs)

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", spy)
    session = outbound.session()
    for timeout in (None, 600, (600, 600), 1):
        session.post(f"http://127.0.0.1:{http_server.port}/push/a", data=b"x",
                     timeout=timeout)
    limit = (outbound.CONNECT_SECONDS, outbound.READ_SECONDS)
    assert seen[:3] == [limit] * 3
    assert seen[3] == (1, 1)


def test_a_server_that_never_answers_times_out(loopback_allowed, monkeypatch):
    silent = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setattr(outbound, "READ_SECONDS", 0.2)
    try:
        with pytest.raises(requests.exceptions.ReadTimeout):
            outbound.session().post(f"http://127.0.0.1:{silent.getsockname()[1]}/x",
                                    data=b"x")
    finally:
        silent.close()


def test_no_proxy_from_the_environment_is_used(loopback_allowed, http_server, monkeypatch):
    """A proxy would resolve the name itself, after the check: the environment's proxies
    are ignored."""
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("HTTPS_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("ALL_PROXY", "http://10.9.9.9:3128")
    answer = outbound.session().post(f"http://127.0.0.1:{http_server.port}/push/a", data=b"x")
    assert answer.status_code == 201


def test_the_tests_cannot_reach_beyond_loopback(only_loopback):
    """The guard every test runs under: checked before anything could be sent."""
    assert socket.socket.connect is not _REAL_CONNECT
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("192.0.2.1", 9), timeout=0.5)
    with pytest.raises(socket.gaierror):
        socket.getaddrinfo("example.com", 443)
    assert only_loopback == ["connect to ('192.0.2.1', 9)", "resolve 'example.com'"]
    only_loopback.clear()


_REAL_CONNECT = socket.socket.connect
