"""The one way the server makes a request to an address a player gave it (a push service
for web push; any later channel the same): HTTPS to the public internet only.

- The address is checked for its shape first (`check_url`): https, a host that is a
  public DNS name or a public IP address, no user name or password, no control or
  invisible characters, nothing percent-encoded below a space, a bounded length.
- The name is resolved once and every address it resolves to must be public
  (`refusal` says why one is not: loopback, private, link-local, unique-local, multicast,
  reserved, the unspecified address, cloud metadata services, IPv4 hidden in IPv6).
- The connection goes to an address that was checked (never a second resolution, which
  a DNS server could answer differently), while TLS (SNI and the certificate) and the
  Host header still use the name.
- Redirects are not followed, time-outs are short whatever the caller asks, proxies from
  the environment are ignored (a proxy would resolve the name again), and at most
  MAX_ANSWER_BYTES of an answer are read.

`session()` gives a requests session that does all this (pywebpush takes one).
OUTBOUND_ALLOW_LOOPBACK (tests, a push service on the same machine) lets loopback
addresses through, over plain HTTP too; every other refusal stands.
"""

import ipaddress
import re
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, NewConnectionError

CONNECT_SECONDS = 3.0
READ_SECONDS = 5.0
# The whole answer, however slowly it drips in.
ANSWER_SECONDS = 10.0
MAX_ANSWER_BYTES = 64 * 1024
MAX_URL_LENGTH = 2048

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Services inside a cloud that answer every machine there (instance credentials).
METADATA = {ipaddress.ip_address(a) for a in (
    "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean…
    "fd00:ec2::254",  # AWS over IPv6
    "168.63.129.16",  # Azure's host endpoint (a public address)
    "100.100.100.200",  # Alibaba Cloud
)}
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT, inside a provider
PRIVATE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")]
THIS_NETWORK = ipaddress.ip_network("0.0.0.0/8")
UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
SITE_LOCAL = ipaddress.ip_network("fec0::/10")
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known prefix: IPv4 in the low bits
LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")  # a network's own translators

_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
# Percent-encoded control characters: a server may decode them into the request line.
_ENCODED_CONTROL = re.compile(r"%(?:[01][0-9a-f]|7f)", re.IGNORECASE)


class Refused(ValueError):
    """The address may not be reached from the server; the message says why."""


@dataclass(frozen=True)
class Destination:
    scheme: str
    host: str  # a lower-case DNS name, or an IP address without brackets
    port: int
    ip: IPAddress | None  # when the host is written as an address

    @property
    def authority(self) -> str:
        """The host (and the port if not the scheme's own) as the Host header says it."""
        host = f"[{self.host}]" if self.ip is not None and self.ip.version == 6 else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


def loopback_allowed() -> bool:
    return bool(getattr(settings, "OUTBOUND_ALLOW_LOOPBACK", False))


def refusal(address: str | IPAddress) -> str | None:
    """Why the server may not connect to this address, or None if it may."""
    ip = address if not isinstance(address, str) else ipaddress.ip_address(address)
    if ip.version == 6:
        ip = ipaddress.IPv6Address(str(ip).split("%")[0])  # a zone says nothing here
        inner = ip.ipv4_mapped or ip.sixtofour or (
            ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in NAT64 else None)
        if inner is not None:
            return refusal(inner)
    if ip in METADATA:
        return "metadata"
    if ip.is_loopback:
        return None if loopback_allowed() else "loopback"
    if ip.is_unspecified or (ip.version == 4 and ip in THIS_NETWORK):
        return "unspecified"
    if ip.is_multicast:
        return "multicast"
    if ip.is_link_local:
        return "link-local"
    if ip.version == 6 and ip in SITE_LOCAL:
        return "site-local"
    if ip.version == 6 and ip in UNIQUE_LOCAL:
        return "unique-local"
    if ip.version == 4 and ip in SHARED:
        return "shared"
    if ip.version == 4 and any(ip in network for network in PRIVATE):
        return "private"
    if ip.version == 6 and ip in LOCAL_NAT64:
        return "reserved"
    if ip.is_reserved or ip.is_private or not ip.is_global:
        # Documentation, benchmarking, protocol assignments, the old class E, broadcast…
        return "reserved"
    return None


def _loopback(ip: IPAddress) -> bool:
    return ip.is_loopback or bool(ip.version == 6 and ip.ipv4_mapped
                                  and ip.ipv4_mapped.is_loopback)


def check_url(url: str, *, max_length: int = MAX_URL_LENGTH) -> Destination:
    """The address's shape, without resolving anything; Refused if it is not a plain
    https address of a public host (or, with the flag, a loopback one)."""
    if not isinstance(url, str) or not url:
        raise Refused("not an address")
    if len(url) > max_length:
        raise Refused(f"longer than {max_length} characters")
    # Printable ASCII only: no controls, spaces, invisible or bidirectional characters.
    if not all(0x21 <= ord(c) <= 0x7E for c in url):
        raise Refused("characters that have no place in an address")
    if "\\" in url or "#" in url or _ENCODED_CONTROL.search(url):
        raise Refused("characters that have no place in an address")
    try:
        parts = urlsplit(url)
    except ValueError:  # an unclosed IPv6 bracket
        raise Refused("not an address") from None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise Refused("not HTTPS")
    if "@" in parts.netloc:
        raise Refused("a user name in the address")
    try:
        port = parts.port
    except ValueError:
        raise Refused("not a port") from None
    host = (parts.hostname or "").lower()
    if not host:
        raise Refused("no host")
    if port == 0:
        raise Refused("not a port")
    port = port or (443 if scheme == "https" else 80)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
        _check_name(host)
    if ("[" in parts.netloc) != (ip is not None and ip.version == 6):
        raise Refused("not an address")  # brackets hold an IPv6 address, and only that
    if ip is not None:
        reason = refusal(ip)
        if reason:
            raise Refused(f"{host} is {reason}")
    elif (host == "localhost" or host.endswith(".localhost")) and not loopback_allowed():
        raise Refused(f"{host} is loopback")
    # Plain HTTP only to loopback, when the flag allows it (a name is checked once resolved).
    if scheme == "http" and not (loopback_allowed() and (ip is None or _loopback(ip))):
        raise Refused("not HTTPS")
    return Destination(scheme, host, port, ip)


def _check_name(host: str) -> None:
    """A DNS name as public services have: dotted labels of letters, digits and hyphens,
    ending in a top-level domain that is not a number (which resolvers would read as an
    IPv4 address: 2130706433, 127.1, 0x7f.1)."""
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise Refused(f"{host[:60]} is not a host name")
    if host in ("localhost",) or host.endswith(".localhost"):
        return
    if len(labels) < 2:
        raise Refused(f"{host} is not a public host name")
    if not labels[-1][0].isalpha() or labels[-1].isdigit():
        raise Refused(f"{host} is not a public host name")


def resolve(destination: Destination) -> list[IPAddress]:
    """Every address the host resolves to, each checked; Refused if any is not allowed,
    OSError (socket.gaierror) if the name does not resolve."""
    if destination.ip is not None:
        addresses = [destination.ip]
    else:
        found = socket.getaddrinfo(destination.host, destination.port,
                                   type=socket.SOCK_STREAM)
        addresses = []
        for _family, _type, _proto, _name, sockaddr in found:
            ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            if ip not in addresses:
                addresses.append(ip)
    if not addresses:
        raise socket.gaierror(socket.EAI_NONAME, f"{destination.host} has no address")
    for ip in addresses:
        reason = refusal(ip)
        if reason:
            raise Refused(f"{destination.host} resolves to {ip}, which is {reason}")
    if destination.scheme != "https" and not all(_loopback(ip) for ip in addresses):
        raise Refused("not HTTPS")
    return addresses


class _Adapter(HTTPAdapter):
    """Connects to the checked addresses of the request's host, in turn, keeping the name
    for TLS and the Host header."""

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        destination = check_url(request.url)
        try:
            addresses = resolve(destination)
        except Refused:
            raise
        except OSError as exc:
            raise requests.ConnectionError(
                f"{destination.host} does not resolve ({exc})", request=request) from exc
        request.headers["Host"] = destination.authority
        last = None
        for ip in addresses:
            request.outbound = (destination, ip)
            try:
                return super().send(request, stream=stream, timeout=timeout, verify=verify,
                                    cert=cert, proxies={})
            except requests.ConnectionError as exc:
                # Only a connection never made moves on to the next address: once sent,
                # the request is not sent again.
                reason = exc.args[0] if exc.args else None
                if isinstance(exc, requests.ConnectTimeout) or (
                        isinstance(reason, MaxRetryError)
                        and isinstance(reason.reason, NewConnectionError)):
                    last = exc
                    continue
                raise
        raise last

    def get_connection_with_tls_context(self, request, verify, proxies=None, cert=None):
        destination, ip = request.outbound
        host_params, pool_kwargs = self.build_connection_pool_key_attributes(
            request, verify, cert)
        host_params["host"] = str(ip)
        if destination.scheme == "https":
            # SNI and the certificate's check use the name, not the address.
            pool_kwargs["server_hostname"] = destination.host
        return self.poolmanager.connection_from_host(**host_params, pool_kwargs=pool_kwargs)


class GuardedSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.trust_env = False  # no proxies or .netrc from the environment
        self.headers["Accept-Encoding"] = "identity"  # the cap counts what is read
        self.adapters.clear()
        self.mount("https://", _Adapter(max_retries=0))
        self.mount("http://", _Adapter(max_retries=0))

    def request(self, method, url, *args, **kwargs):
        check_url(url)
        return super().request(method, url, *args, **kwargs)

    def send(self, request, **kwargs):
        kwargs["allow_redirects"] = False
        kwargs["stream"] = True
        kwargs["proxies"] = {}
        if kwargs.get("verify") is False:
            kwargs["verify"] = True
        kwargs["timeout"] = _short(kwargs.get("timeout"))
        response = super().send(request, **kwargs)
        try:
            response._content = _read_capped(response)
        finally:
            response.close()
        return response

    def merge_environment_settings(self, url, proxies, stream, verify, cert):
        merged = super().merge_environment_settings(url, proxies, stream, verify, cert)
        if merged.get("verify") is False:
            merged["verify"] = True
        return merged


def _short(timeout) -> tuple[float, float]:
    """The caller's time-outs, never longer than ours."""
    if timeout is None:
        return (CONNECT_SECONDS, READ_SECONDS)
    if isinstance(timeout, tuple):
        connect, read = timeout
    else:
        connect = read = timeout
    return (min(connect or CONNECT_SECONDS, CONNECT_SECONDS),
            min(read or READ_SECONDS, READ_SECONDS))


def _read_capped(response) -> bytes:
    """At most MAX_ANSWER_BYTES of the body, within ANSWER_SECONDS; the rest is left
    unread (the connection is closed)."""
    body = bytearray()
    deadline = time.monotonic() + ANSWER_SECONDS
    while len(body) < MAX_ANSWER_BYTES and time.monotonic() < deadline:
        chunk = response.raw.read(min(16384, MAX_ANSWER_BYTES - len(body)),
                                  decode_content=False)
        if not chunk:
            break
        body += chunk
    return bytes(body)


def session() -> requests.Session:
    return GuardedSession()
