"""Where a push may go: only to the browsers' own push services, on the internet, and to nothing inside a network.

A subscription's endpoint is an address a browser (or anybody with a cookie) hands the server, and the server then
sends requests there: left unchecked, that lets a stranger make the server knock on its own network (its loopback,
a cloud's metadata address, the machines beside it).  So an endpoint is taken, and a push is sent, only when:

- it is ``https://`` (a push is encrypted for the device, but the request's headers are the server's: never in the
  clear), with no user name or password in it;
- its host is one of the browsers' push services (:data:`KNOWN_SERVICES`: Google's for Chrome, Edge, Opera and
  Samsung Internet; Mozilla's for Firefox; Apple's for Safari; Microsoft's, which Edge used before), on port 443, or
  one the operator named (``racko serve --push-service HOST[:PORT]``: an operator's own push service, which may stand
  inside their network: they vouch for it);
- every address its name resolves to is a global one (no loopback, private, link-local, shared, multicast or
  reserved range, nor an IPv6 address that wraps one), for a known service.

The request then goes to the very address that was checked (the TLS certificate is still checked against the
name): the name is not looked up a second time, so that a name whose answer changes between the check and the
connection (DNS rebinding) reaches nothing it should not.  A redirect is never followed, and a push service gets
:data:`CONNECT_SECONDS` to accept the connection and :data:`ANSWER_SECONDS` to answer.  Each refusal says why
(:class:`Unreachable`)."""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import urllib3

KNOWN_SERVICES = (
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
)
"""The browsers' push services: an endpoint's host is one of these or a name under one (``web.push.apple.com``,
``updates.push.services.mozilla.com``, ``wns2-par02p.notify.windows.com``)."""
HTTPS_PORT = 443
CONNECT_SECONDS = 3.0
ANSWER_SECONDS = 5.0
ENDPOINT_LENGTH = 1000

Resolver = Callable[[str, int], list[str]]
"""A name and a port to the addresses they resolve to (the system's resolver; a test's own)."""
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")


class Unreachable(Exception):
    """An endpoint no push goes to: ``code`` for programs (``not-https``, ``not-a-push-service``, ``inside``,
    ``unresolved``, ``bad-endpoint``), the message for people (it says why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Target:
    """An endpoint checked: its host (the TLS name and the ``Host`` header), port and path, and the address the
    request goes to."""

    host: str
    port: int
    path: str
    address: str


@dataclass(frozen=True)
class Answer:
    """What the push service answered (a redirect is an answer too: never followed)."""

    status: int
    reason: str
    text: str


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system's resolver gives ``host`` (``OSError`` when it gives none)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def inside_a_network(address: IpAddress) -> bool:
    """Whether ``address`` is anything but a global unicast address (an IPv6 address that wraps an IPv4 one, mapped,
    NAT64 or 6to4, is judged by the IPv4 address it wraps)."""
    if isinstance(address, ipaddress.IPv6Address):
        wrapped = address.ipv4_mapped
        if wrapped is None and address in _NAT64:
            wrapped = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if wrapped is None and address in _SIX_TO_FOUR:
            wrapped = address.sixtofour
        if wrapped is None and address.teredo is not None:
            wrapped = address.teredo[1]
        if wrapped is not None and inside_a_network(wrapped):
            return True
    return not address.is_global or address.is_multicast or address.is_reserved or address.is_unspecified


def parse_service(text: str) -> tuple[str, int]:
    """An operator's push service, ``HOST`` or ``HOST:PORT`` (``[v6]:PORT``); ``ValueError`` says what is wrong."""
    try:
        parts = urlsplit("https://" + text.strip())
        host, port = parts.hostname, parts.port or HTTPS_PORT
    except ValueError:
        host, port = None, 0
    if not host or parts.path or parts.query or parts.username or "/" in text:
        raise ValueError(f"a push service is HOST or HOST:PORT, not {text!r}")
    return host.lower().rstrip("."), port


@dataclass(frozen=True)
class PushReach:
    """Where this server sends pushes: the browsers' push services, and the operator's own (``services``: host and
    port each); ``ca_file``: certificates trusted besides the system's (an operator's own push service's);
    ``resolve``: the resolver (a test's own maps names to addresses it chooses)."""

    services: tuple[tuple[str, int], ...] = ()
    ca_file: Path | None = None
    resolve: Resolver = field(default=system_resolver, compare=False)

    @classmethod
    def of(cls, services: tuple[str, ...] = (), ca_file: Path | None = None) -> PushReach:
        """From ``racko serve``'s options (``ValueError`` for a service that is no HOST[:PORT])."""
        return cls(tuple(parse_service(service) for service in services), ca_file)

    def known(self, host: str) -> bool:
        return any(host == service or host.endswith("." + service) for service in KNOWN_SERVICES)

    def check(self, endpoint: object) -> Target:
        """Where a push to ``endpoint`` goes (resolved now: blocks), or :class:`Unreachable` saying why not."""
        if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_LENGTH:
            raise Unreachable("bad-endpoint", "A subscription names its push service's https address.")
        try:
            parts = urlsplit(endpoint)
            host, port = (parts.hostname or "").lower().rstrip("."), parts.port or HTTPS_PORT
        except ValueError:
            raise Unreachable("bad-endpoint", "A subscription names its push service's https address.") from None
        if parts.scheme != "https":
            raise Unreachable("not-https", "A push service is reached over https only.")
        if not host or parts.username is not None or parts.password is not None:
            raise Unreachable("bad-endpoint", "A subscription names its push service's https address.")
        operators = (host, port) in self.services
        if not operators and not (self.known(host) and port == HTTPS_PORT):
            raise Unreachable(
                "not-a-push-service",
                f"{host}:{port} is not a browser's push service (this server sends notifications to "
                f"{', '.join(KNOWN_SERVICES)} and those its operator names).",
            )
        try:
            found = [ipaddress.ip_address(text.split("%", 1)[0]) for text in self.resolve(host, port)]
        except (OSError, ValueError, UnicodeError):
            found = []
        if not found:
            raise Unreachable("unresolved", f"{host} cannot be found now: turn notifications on again later.")
        inside = [address for address in found if inside_a_network(address)]
        if inside and not operators:
            raise Unreachable(
                "inside",
                f"{host} leads to {inside[0]}, an address inside a network: this server sends no notification there.",
            )
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return Target(host, port, path, str(found[0]))

    def post(self, target: Target, body: bytes, headers: Mapping[str, str]) -> Answer:
        """One POST to the checked address (blocks): TLS checked against the name, no redirect followed, short
        timeouts; ``OSError`` (urllib3's errors) when nothing answered."""
        context = ssl.create_default_context()
        if self.ca_file is not None:
            context.load_verify_locations(cafile=str(self.ca_file))
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            timeout=urllib3.Timeout(connect=CONNECT_SECONDS, read=ANSWER_SECONDS),
            retries=False,
            maxsize=1,
            ssl_context=context,
            server_hostname=target.host,
            assert_hostname=target.host,
        )
        named = target.host if ":" not in target.host else f"[{target.host}]"
        host = named if target.port == HTTPS_PORT else f"{named}:{target.port}"
        try:
            response = pool.urlopen(
                "POST",
                target.path,
                body=body,
                headers={**headers, "Host": host},
                redirect=False,
                retries=False,
                assert_same_host=False,
                preload_content=True,
            )
            return Answer(response.status, response.reason or "", response.data[:2000].decode("utf-8", "replace"))
        except urllib3.exceptions.HTTPError as error:
            raise OSError(f"{type(error).__name__}") from error
        finally:
            pool.close()
