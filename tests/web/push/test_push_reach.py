"""Where a push may go (issue 46: the server was a blind port scanner for anyone with a cookie): only https, only the
browsers' push services (or the operator's own), only global addresses, to the very address that was checked, no
redirect followed, short timeouts; each refusal says why; at subscribing and again at sending.

Attacked as an attacker would: the endpoints are posted through the server (in process), and the pushes go out over
real TLS to listeners of the test's own on 127.0.0.1 (tests/pushing.py), which say whether anything reached them.
Names resolve through a resolver of the test's own (a name an attacker controls answers what they like); the
private and link-local ranges other than loopback are tested at the address check only, never by sending."""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from starlette.testclient import TestClient

from people import get_as, person
from pushing import DeviceKeys, PushService
from racko.web.app import ServerSettings, create_app
from racko.web.push import KNOWN_SERVICES, PushKeys, PushReach, Unreachable, inside_a_network
from racko.web.push import reach as reach_module
from racko.web.push.pushes import Device
from racko.web.push.reach import parse_service
from racko.web.store import SqliteTables

GLOBAL = "142.250.1.1"
"""An address on the internet a name may resolve to in these tests (nothing is ever sent there)."""


class Names:
    """A resolver of the test's own: each name answers what the test says, and every look-up is counted."""

    def __init__(self) -> None:
        self.answers: dict[str, list[str]] = {}
        self.asked: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host not in self.answers:
            raise OSError(f"no such name: {host}")
        return list(self.answers[host])


@pytest.fixture
def service(tmp_path: Path) -> Iterator[PushService]:
    """The operator's own push service (``--push-service push.example.org:PORT``), over https on 127.0.0.1."""
    made = PushService(tmp_path)
    yield made
    made.close()


@pytest.fixture
def bystander(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PushService]:
    """Another https listener on 127.0.0.1: what an attacker aims at inside the server's network."""
    made = PushService(tmp_path_factory.mktemp("bystander"))
    yield made
    made.close()


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[PushService]:
    """A plain-http listener on 127.0.0.1 (where a redirect would lead)."""
    made = PushService(None)
    yield made
    made.close()


@pytest.fixture
def names(service: PushService) -> Names:
    found = Names()
    found.answers["push.example.org"] = ["127.0.0.1"]
    return found


@pytest.fixture
def client(tmp_path: Path, service: PushService, names: Names) -> Iterator[TestClient]:
    reach = PushReach(services=(("push.example.org", service.port),), ca_file=service.certificate, resolve=names)
    app = create_app(
        SqliteTables(tmp_path / "tables.sqlite3", grouped=True),
        ServerSettings(pace=0.0, new_tables_per_address=10**6, push_keys=PushKeys.made(), push_reach=reach),
    )
    with TestClient(app) as made:
        yield made


def _subscribe(client: TestClient, who: dict[str, str], endpoint: str) -> Any:
    answer = client.post("/api/push/devices", json=DeviceKeys(endpoint).subscription(), headers=who)
    client.cookies.clear()
    return answer


def _device(endpoint: str) -> Device:
    subscription = DeviceKeys(endpoint).subscription()
    return Device(endpoint, subscription["keys"]["p256dh"], subscription["keys"]["auth"], "en")


MESSAGE = {"title": "t", "body": "b", "url": "/t/x", "tag": "turn-x"}

# --- the address check -------------------------------------------------------------------------------------------

INSIDE = [
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "169.254.169.254",  # a cloud's metadata service
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "192.0.2.1",  # documentation
    "198.18.0.1",  # benchmarking
    "224.0.0.1",  # multicast
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "2002:c0a8:101::1",  # 6to4 of 192.168.1.1
    "2001:db8::1",  # documentation
]
OUTSIDE = ["8.8.8.8", "142.250.1.1", "17.253.144.10", "2001:4860:4860::8888", "2a00:1450:4001:81c::200a"]


@pytest.mark.parametrize("address", INSIDE)
def test_an_address_inside_a_network_is_told(address: str) -> None:
    assert inside_a_network(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", OUTSIDE)
def test_an_address_on_the_internet_is_not(address: str) -> None:
    assert not inside_a_network(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", INSIDE)
def test_a_push_service_s_name_that_leads_inside_is_refused(address: str) -> None:
    names = Names()
    names.answers["fcm.googleapis.com"] = [address]
    with pytest.raises(Unreachable) as refused:
        PushReach(resolve=names).check("https://fcm.googleapis.com/fcm/send/abc")
    assert refused.value.code == "inside"
    assert str(refused.value) == (
        f"fcm.googleapis.com leads to {ipaddress.ip_address(address)}, an address inside a network: this server "
        "sends no notification there."
    )


def test_one_address_inside_among_others_on_the_internet_is_enough_to_refuse() -> None:
    names = Names()
    names.answers["web.push.apple.com"] = [GLOBAL, "2001:4860:4860::8888", "10.0.0.7"]
    with pytest.raises(Unreachable, match=r"10\.0\.0\.7"):
        PushReach(resolve=names).check("https://web.push.apple.com/QGuQyavXutnMHqnI")


def test_the_browsers_push_services_on_the_internet_are_taken() -> None:
    names = Names()
    endpoints = {
        "https://fcm.googleapis.com/fcm/send/c1Kw:APA91b": "fcm.googleapis.com",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA": "updates.push.services.mozilla.com",
        "https://web.push.apple.com/QGuQyavXutnMHqnI": "web.push.apple.com",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA": "wns2-par02p.notify.windows.com",
    }
    for endpoint, host in endpoints.items():
        names.answers[host] = [GLOBAL]
        target = PushReach(resolve=names).check(endpoint)
        assert (target.host, target.port, target.address) == (host, 443, GLOBAL)
    assert target.path == "/w/?token=BQYAAA"
    assert KNOWN_SERVICES == ("fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com")


def test_an_operator_s_service_is_written_host_or_host_and_port() -> None:
    assert parse_service("push.example.org") == ("push.example.org", 443)
    assert parse_service("Push.Example.org:8443") == ("push.example.org", 8443)
    assert parse_service("[fd00::5]:8443") == ("fd00::5", 8443)
    for wrong in ("https://push.example.org", "push.example.org/x", "push.example.org:port", "", "a@b"):
        with pytest.raises(ValueError, match="HOST or HOST:PORT"):
            parse_service(wrong)


# --- refused when a device subscribes ------------------------------------------------------------------------------


def _refusals(port: int) -> list[tuple[str, str, list[str] | None]]:
    """An endpoint, the code it is refused with, and what its name resolves to (None: not asked)."""
    return [
        (f"http://127.0.0.1:{port}/x", "not-https", None),
        ("http://fcm.googleapis.com/fcm/send/x", "not-https", None),
        ("ftp://fcm.googleapis.com/x", "not-https", None),
        (f"https://127.0.0.1:{port}/x", "not-a-push-service", None),
        (f"https://localhost:{port}/x", "not-a-push-service", None),
        ("https://0.0.0.0/x", "not-a-push-service", None),
        ("https://2130706433/x", "not-a-push-service", None),
        ("https://0x7f.1/x", "not-a-push-service", None),
        ("https://[::1]/x", "not-a-push-service", None),
        ("https://[::ffff:127.0.0.1]/x", "not-a-push-service", None),
        ("https://169.254.169.254/latest/meta-data/", "not-a-push-service", None),
        ("https://fcm.googleapis.com:8443/fcm/send/x", "not-a-push-service", None),
        ("https://fcm.googleapis.com.evil.example/x", "not-a-push-service", None),
        ("https://evilfcm.googleapis.com/x", "not-a-push-service", None),
        ("https://push.example.org:1/x", "not-a-push-service", None),  # the operator's service on another port
        ("https://fcm.googleapis.com/fcm/send/x", "inside", ["127.0.0.1"]),  # a global-looking name, inside
        ("https://updates.push.services.mozilla.com/wpush/v2/x", "inside", ["10.0.0.7"]),
        ("https://web.push.apple.com/x", "inside", [GLOBAL, "fd00::1"]),
        ("https://wns2-par02p.notify.windows.com/w/?token=x", "inside", ["::ffff:192.168.1.1"]),
        ("https://nowhere.push.apple.com/x", "unresolved", []),
        ("https://user:secret@fcm.googleapis.com/x", "bad-endpoint", None),
        ("https://:443/x", "bad-endpoint", None),
        ("https://[::1/x", "bad-endpoint", None),
    ]


def test_each_endpoint_inside_or_elsewhere_is_refused_with_the_reason_and_nothing_is_reached(
    client: TestClient, names: Names, bystander: PushService
) -> None:
    bob = person(client, "Bob")
    for endpoint, code, answer in _refusals(bystander.port):
        if answer is not None:
            names.answers[str(urlsplit(endpoint).hostname)] = answer
        refused = _subscribe(client, bob, endpoint)
        assert refused.status_code == 400, (endpoint, refused.text)
        assert refused.json()["code"] == code, (endpoint, refused.json())
        assert refused.json()["error"], endpoint
    assert get_as(client, "/api/push", bob).json()["devices"] == 0
    assert bystander.nothing_within(0.2)
    said = {endpoint: _subscribe(client, bob, endpoint).json()["error"] for endpoint, _, _ in _refusals(1)[:5]}
    assert said == {
        "http://127.0.0.1:1/x": "A push service is reached over https only.",
        "http://fcm.googleapis.com/fcm/send/x": "A push service is reached over https only.",
        "ftp://fcm.googleapis.com/x": "A push service is reached over https only.",
        "https://127.0.0.1:1/x": "127.0.0.1:1 is not a browser's push service (this server sends notifications to "
        "fcm.googleapis.com, push.services.mozilla.com, push.apple.com, notify.windows.com and those its operator "
        "names).",
        "https://localhost:1/x": "localhost:1 is not a browser's push service (this server sends notifications to "
        "fcm.googleapis.com, push.services.mozilla.com, push.apple.com, notify.windows.com and those its operator "
        "names).",
    }


def test_a_browser_s_push_service_on_the_internet_and_the_operator_s_own_are_taken(
    client: TestClient, names: Names, service: PushService
) -> None:
    bob = person(client, "Bob")
    names.answers["fcm.googleapis.com"] = [GLOBAL]
    assert _subscribe(client, bob, "https://fcm.googleapis.com/fcm/send/c1Kw:APA91b").json()["on"] is True
    assert _subscribe(client, bob, f"https://push.example.org:{service.port}/bob").json()["devices"] == 2


# --- refused when a push is sent -----------------------------------------------------------------------------------


def test_a_push_goes_to_the_address_checked_without_a_second_look_up(
    client: TestClient, names: Names, service: PushService
) -> None:
    """``push.example.org`` resolves only in the test's resolver: a push that reaches the service was sent to the
    address the check found (TLS checked against the name), and the name was looked up once for it."""
    pushes = client.app.state.pushes  # type: ignore[attr-defined]
    before = len(names.asked)
    assert pushes.send(_device(f"https://push.example.org:{service.port}/bob/1"), MESSAGE)
    assert names.asked[before:] == ["push.example.org"]
    push = service.next_push()
    assert push.path == "/bob/1" and push.headers["host"] == f"push.example.org:{service.port}"


def test_a_name_that_leads_inside_by_the_time_of_the_push_gets_none(
    client: TestClient, names: Names, caplog: pytest.LogCaptureFixture
) -> None:
    """Subscribed while its name led to the internet; by the turn it leads to 127.0.0.1 (a rebinding name): no push,
    and the device is kept (the name may lead out again)."""
    bob = person(client, "Bob")
    names.answers["fcm.googleapis.com"] = [GLOBAL]
    endpoint = "https://fcm.googleapis.com/fcm/send/rebinding"
    assert _subscribe(client, bob, endpoint).json()["on"] is True
    names.answers["fcm.googleapis.com"] = ["127.0.0.1"]
    pushes = client.app.state.pushes  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO, logger="racko.serve"):
        assert not pushes.send(_device(endpoint), MESSAGE)
    assert "push: no push to fcm.googleapis.com: inside" in caplog.text
    assert get_as(client, "/api/push", bob).json()["devices"] == 1


def test_an_endpoint_kept_from_before_these_checks_gets_no_push_and_is_dropped(
    client: TestClient, bystander: PushService
) -> None:
    bob = person(client, "Bob")
    bob_id = get_as(client, "/api/me", bob).json()["id"]
    pushes = client.app.state.pushes  # type: ignore[attr-defined]
    for endpoint in (f"https://127.0.0.1:{bystander.port}/old", f"http://127.0.0.1:{bystander.port}/older"):
        pushes.subscribe(bob_id, _device(endpoint))  # as an older racko kept them
        assert not pushes.send(_device(endpoint), MESSAGE)
    assert bystander.nothing_within(0.3)
    assert get_as(client, "/api/push", bob).json()["devices"] == 0


def test_a_redirect_is_never_followed(
    client: TestClient, service: PushService, plain: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    """The operator's push service answers 307 towards a plain-http listener on 127.0.0.1: the push is not sent
    again there (no POST, no GET)."""
    service.redirect_to = plain.origin
    pushes = client.app.state.pushes  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO, logger="racko.serve"):
        assert not pushes.send(_device(f"https://push.example.org:{service.port}/redirect/bob"), MESSAGE)
    assert service.next_push().path == "/redirect/bob"
    assert plain.nothing_within(0.5)
    assert "push: push.example.org answered a redirect (307): not followed" in caplog.text


def test_a_push_service_that_does_not_answer_is_given_up_quickly(
    client: TestClient, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service that takes the request and never answers holds a sender for :data:`ANSWER_SECONDS` only (made short
    here)."""
    import socket
    import threading

    silent = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    taker = threading.Thread(target=lambda: held.append(silent.accept()[0]), daemon=True)
    taker.start()
    monkeypatch.setattr(reach_module, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(reach_module, "CONNECT_SECONDS", 0.5)
    port = silent.getsockname()[1]
    reach = PushReach(services=(("127.0.0.1", port),), resolve=lambda host, port: ["127.0.0.1"])
    started = time.monotonic()
    with pytest.raises(OSError):
        reach.post(reach.check(f"https://127.0.0.1:{port}/slow"), b"x", {})
    assert time.monotonic() - started < 3
    taker.join(timeout=5)
    for connection in held:
        connection.close()
    silent.close()
