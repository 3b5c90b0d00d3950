"""What the push room's tests share: a push service of the test's own, over https on 127.0.0.1 with a certificate made
for it (it keeps each push it is sent, answers 410 for a subscription it says is gone, and a redirect where asked),
a device's keys made in the test, and a push read as the device reads it: its VAPID signature checked against the
server's public key, its aes128gcm payload decrypted; and Chromium's own push service played on 127.0.0.1, for a
page's real subscription in Debian's Chromium."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import queue
import re
import ssl
import struct
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One push as the push service took it."""

    path: str
    headers: dict[str, str]
    body: bytes


NAMES = ("localhost", "push.example.org")
"""The names the test push service's certificate is good for besides 127.0.0.1 (``push.example.org`` resolves
nowhere but in a test's own resolver)."""


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and :data:`NAMES`, and its key (PEM files in ``folder``): the push
    service's, and the one certificate the server under test is told to trust (``PushReach.ca_file``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "racko test push service")])
    now = datetime.datetime.now(datetime.UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), *(x509.DNSName(name) for name in NAMES)]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "push-service.pem", folder / "push-service.key"
    cert_file.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


class PushService:
    """A push service on 127.0.0.1, over https (``folder`` gets its certificate, :attr:`certificate`) or plain http
    (``folder`` None: a listener that only notes what reaches it).  A POST to ``/gone/...`` is answered 410 (the
    subscription is gone for good), one to ``/redirect/...`` 307 to :attr:`redirect_to`, any other is taken (201);
    every request is kept in :attr:`received`.  Stopped (its thread joined) by :meth:`close`."""

    def __init__(self, folder: Path | None = None, redirect_to: str = "") -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        self.redirect_to = redirect_to
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.received.put(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if self.path.startswith("/redirect/"):
                    self.send_response(307)
                    self.send_header("Location", service.redirect_to + self.path)
                else:
                    self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.certificate: Path | None = None
        if folder is not None:
            self.certificate, key_file = certificate(folder)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.certificate, key_file)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = f"{'https' if folder is not None else 'http'}://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def next_push(self, seconds: float = 10.0) -> Received:
        return self.received.get(timeout=seconds)

    def nothing_within(self, seconds: float) -> bool:
        try:
            self.received.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@dataclass
class DeviceKeys:
    """A browser's side of a subscription: its P-256 key pair and its 16-byte auth secret, made here."""

    endpoint: str
    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        """What a page posts to /api/push/devices (PushSubscription.toJSON() and the page's language)."""
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}, "lang": lang}

    def read(self, push: Received, server_key: str, contact: str) -> dict[str, Any]:
        """The push's message, once its VAPID signature is checked against ``server_key`` (the server's public key
        as /api/push gives it) for this push service, and its payload decrypted with this device's keys."""
        assert push.headers["content-encoding"] == "aes128gcm"
        assert int(push.headers["ttl"]) > 0
        found = re.fullmatch(r"vapid t=([^,\s]+),\s*k=([^,\s]+)", push.headers["authorization"])
        assert found, push.headers["authorization"]
        token, key = found.groups()
        assert key == server_key
        head, claims, signature = token.split(".")
        assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
        said = json.loads(unb64url(claims))
        origin = self.endpoint.split("/", 3)[:3]
        assert said["aud"] == "/".join(origin)
        assert said["sub"] == contact
        assert time.time() < said["exp"] <= time.time() + 24 * 3600
        plain = http_ece.decrypt(push.body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        message: dict[str, Any] = json.loads(plain)
        return message


class ChromiumPushService:
    """Chromium's own push service (Google's, in a Chrome) played on 127.0.0.1, so that a page's
    ``pushManager.subscribe()`` in Debian's Chromium gets a real subscription (the browser's own keys) without
    leaving the machine: the device check-in and the registrations Chromium's GCM client asks for, at the addresses
    :meth:`switches` points Chromium to.  A registration for a page's subscription (``X-subtype=wp:…``) is answered by
    :attr:`answer`: ``"token"`` (a token of its own), ``"refuse"`` (``Error=INVALID_SENDER``: Chromium gives up at once,
    "Registration failed - push service error") or ``"hold"`` (no answer until :meth:`release`: a push service out of
    reach, which Chromium waits for); Chromium's own registrations get a token.  Stopped by :meth:`close`."""

    def __init__(self) -> None:
        self.answer = "token"
        self.asked: queue.Queue[str] = queue.Queue()
        """The ``X-subtype`` of each registration for a page, as it is asked for."""
        self._released = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/checkin":
                    self._send(service.checked_in(), "application/x-protobuf")
                    return
                form = urllib.parse.parse_qs(body.decode())
                subtype = form.get("X-subtype", [""])[0]
                if not subtype.startswith("wp:"):
                    self._send(b"token=" + os.urandom(8).hex().encode(), "text/plain")
                    return
                service.asked.put(subtype)
                if service.answer == "hold":
                    service._released.wait(60)
                if service.answer == "refuse":
                    self._send(b"Error=INVALID_SENDER", "text/plain")
                else:
                    self._send(b"token=" + b64url(os.urandom(24)).encode(), "text/plain")

            def _send(self, data: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @staticmethod
    def checked_in() -> bytes:
        """The check-in's answer (an AndroidCheckinResponse, protocol buffers written out by hand): stats_ok (field 1),
        the device's android_id and security_token (fields 7 and 8, fixed64), not 0."""
        return b"\x08\x01" + b"\x39" + struct.pack("<Q", 4_000_000_001) + b"\x41" + struct.pack("<Q", 7_000_000_003)

    def switches(self) -> list[str]:
        """Chromium's switches to this service; every other host is made unresolvable, so that nothing leaves the
        machine (the message channel's address is a closed port: a page's subscription does not need it)."""
        return [
            f"--gcm-checkin-url={self.origin}/checkin",
            f"--gcm-registration-url={self.origin}/register",
            "--gcm-mcs-endpoint=https://127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ]

    def release(self) -> None:
        """Answer the registrations held, and the ones to come, by :attr:`answer` (set it first)."""
        self._released.set()

    def close(self) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)
