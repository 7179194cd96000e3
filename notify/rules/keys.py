"""A browser's push subscription checked before it is stored, and the server's VAPID key pair, in plain Python (no
Django): the Push API's subscription (https://www.w3.org/TR/push-api/) is an endpoint, the push service's address for
this browser, and two keys the message is encrypted to (RFC 8291): `p256dh`, the browser's P-256 public key as an
uncompressed point, and `auth`, 16 random bytes; both base64url. The server signs each request to the push service
with its VAPID key (RFC 8292): a P-256 private key, given as the base64url of its 32 bytes, whose public key (the
uncompressed point, base64url) is the `applicationServerKey` the page subscribes with."""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ENDPOINT_MAX = 1024  # the push services' addresses are a few hundred characters
P256DH_MAX = 100  # 65 bytes: 87 characters unpadded
AUTH_MAX = 40  # 16 bytes: 22 characters unpadded
AUTH_BYTES = 16
POINT_BYTES = 65


class BadSubscription(ValueError):
    """What is wrong with a subscription: `field` names it, `code` for programs; the words are the caller's."""

    def __init__(self, field: str, code: str) -> None:
        super().__init__(f"{field}: {code}")
        self.field, self.code = field, code


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str  # base64url, unpadded, as given by the browser once its padding is dropped
    auth: str


def b64url_decode(value: str) -> bytes:
    """base64url with or without its padding; ValueError on anything else."""
    if not isinstance(value, str) or not value or any(c not in _B64URL for c in value):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not base64url") from exc


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=")


def host_allowed(host: str, allowed: tuple[str, ...] | list[str]) -> bool:
    """Whether a push service's host is one the server posts to: a name of the list, or under a "*.name" of it;
    "*" alone allows any host. The server posts to the address a stranger gave, so it keeps to the push services."""
    host = host.lower().rstrip(".")
    for pattern in allowed:
        pattern = pattern.strip().lower()
        if pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def checked(data: object, *, allowed_hosts: tuple[str, ...] | list[str]) -> Subscription:
    """The subscription a page posted ({"endpoint", "keys": {"p256dh", "auth"}}), checked: an https endpoint of an allowed
    push service, a P-256 point and 16 auth bytes. Raises BadSubscription naming the first thing wrong."""
    if not isinstance(data, dict):
        raise BadSubscription("endpoint", "missing")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise BadSubscription("endpoint", "missing")
    if len(endpoint) > ENDPOINT_MAX:
        raise BadSubscription("endpoint", "too_long")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise BadSubscription("endpoint", "not_https")
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password or any(c.isspace() for c in endpoint):
        raise BadSubscription("endpoint", "not_https")
    if port not in (None, 443) or not host_allowed(parts.hostname, allowed_hosts):
        raise BadSubscription("endpoint", "not_a_push_service")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("keys", "missing")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not p256dh:
        raise BadSubscription("keys.p256dh", "missing")
    if not isinstance(auth, str) or not auth:
        raise BadSubscription("keys.auth", "missing")
    if len(p256dh) > P256DH_MAX:
        raise BadSubscription("keys.p256dh", "too_long")
    if len(auth) > AUTH_MAX:
        raise BadSubscription("keys.auth", "too_long")
    try:
        point = b64url_decode(p256dh)
    except ValueError:
        raise BadSubscription("keys.p256dh", "not_base64url")
    try:
        secret = b64url_decode(auth)
    except ValueError:
        raise BadSubscription("keys.auth", "not_base64url")
    if len(point) != POINT_BYTES or point[0] != 4 or not is_p256_point(point):
        raise BadSubscription("keys.p256dh", "not_a_p256_point")
    if len(secret) != AUTH_BYTES:
        raise BadSubscription("keys.auth", "not_16_bytes")
    return Subscription(endpoint=endpoint, p256dh=b64url(point), auth=b64url(secret))


def is_p256_point(raw: bytes) -> bool:
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def short_hash(endpoint: str) -> str:
    """What the audit and the log say of an endpoint: 12 hex characters of its SHA-256, never the address (its path is
    the secret that lets anyone push to that browser)."""
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()[:12]


def origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


# --- the server's VAPID key pair ----------------------------------------------------------------------------------


def make_pair() -> tuple[str, str]:
    """A new VAPID key pair: (private, public), each base64url (the 32 bytes of the private key; the public key's
    uncompressed point, which the browser takes as applicationServerKey)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big")), public_of_key(key)


def public_of_key(key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def public_of(private: str) -> str:
    """The public key (base64url point) of a base64url private key; ValueError if it is none."""
    raw = b64url_decode(private)
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes, base64url")
    return public_of_key(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))
