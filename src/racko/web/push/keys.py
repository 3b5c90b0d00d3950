"""The server's VAPID keys: one P-256 key pair that signs every push (RFC 8292), made on the server's first start and
kept in a file only its owner may read (mode 0600).  Only the public key ever leaves the process: the pages pass it
to the browser's push service when they subscribe."""

from __future__ import annotations

import base64
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

KEYS_FILE_SUFFIX = ".push-keys.pem"
"""Beside a SQLite database ``tables.sqlite3``: ``tables.sqlite3.push-keys.pem``."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class PushKeys:
    """The private key (PEM, PKCS #8) and the public key as the browsers take it (the uncompressed point, base64url
    without padding).  Its ``repr`` never shows the private key."""

    private_pem: bytes
    public: str

    def __repr__(self) -> str:
        return f"PushKeys(public={self.public!r})"

    @classmethod
    def of_pem(cls, pem: bytes) -> PushKeys:
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
            raise ValueError("the push keys' file holds no P-256 private key")
        point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return cls(pem, b64url(point))

    @classmethod
    def made(cls) -> PushKeys:
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        return cls.of_pem(pem)


def keys_at(path: Path) -> PushKeys:
    """The keys kept at ``path``, made there first if there are none (mode 0600, written whole: a server started at
    the same moment reads the same keys, never half a file).  ``ValueError`` if the file holds no such key;
    ``OSError`` if it cannot be read or written."""
    try:
        return PushKeys.of_pem(path.read_bytes())
    except FileNotFoundError:
        pass
    keys = PushKeys.made()
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.draft")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as written:
            written.write(keys.private_pem)
            written.flush()
            os.fsync(written.fileno())
        try:
            os.link(draft, path)  # fails if another process made the keys first: theirs are kept
        except FileExistsError:
            return PushKeys.of_pem(path.read_bytes())
    finally:
        with contextlib.suppress(FileNotFoundError):
            draft.unlink()
    return keys


def keys_beside(database: Path) -> Path:
    """Where a SQLite database's push keys are kept: beside it."""
    return database.with_name(database.name + KEYS_FILE_SUFFIX)
