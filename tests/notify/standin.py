"""A push service stand-in for the tests: a requests transport adapter mounted on the sender's session
(notify.services.push.SESSION) that receives each POST pywebpush makes, checks its VAPID Authorization header (an ES256
JWT signed by the server's key, aud = the endpoint's origin, sub = the server's contact, not expired; k = the server's
public key) and decrypts its body (aes128gcm, RFC 8291) with the private key of a subscription made as a browser makes
it: an EC P-256 key pair and 16 random auth bytes."""

from __future__ import annotations

import base64
import json
import os
import secrets
import time
from dataclasses import dataclass, field

import http_ece
import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from requests.adapters import BaseAdapter

HOST = "push.example.test"
ORIGIN = f"https://{HOST}"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's subscription: its key pair and auth secret, as PushManager.subscribe makes them."""

    endpoint: str = field(default_factory=lambda: f"{ORIGIN}/wpush/v2/{secrets.token_urlsafe(24)}")
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}


class PushServiceStandIn(BaseAdapter):
    """Answers `status` (201 by default; a dict endpoint -> status for some) and keeps what it decrypted per endpoint."""

    def __init__(self, server_public_key: str, subject: str, browsers: list[Browser], status: int = 201) -> None:
        super().__init__()
        self.server_public_key, self.subject, self.status = server_public_key, subject, status
        self.browsers = {b.endpoint: b for b in browsers}
        self.statuses: dict[str, int] = {}
        self.received: dict[str, list[dict]] = {}
        self.posts = 0

    def add(self, browser: Browser) -> None:
        self.browsers[browser.endpoint] = browser

    def check_vapid(self, header: str) -> None:
        scheme, _, params = header.partition(" ")
        assert scheme == "vapid", header
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts["k"] == self.server_public_key
        head, claims, signature = parts["t"].split(".")
        assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64url(signature)
        point = unb64url(self.server_public_key)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not the server's
        body = json.loads(unb64url(claims))
        assert body["aud"] == ORIGIN and body["sub"] == self.subject and body["exp"] > time.time()

    def send(self, request, **kwargs):
        self.posts += 1
        self.check_vapid(request.headers["Authorization"])
        assert request.headers["Content-Encoding"] == "aes128gcm" and int(request.headers["TTL"]) > 0
        browser = self.browsers[request.url]
        plain = http_ece.decrypt(request.body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
        status = self.statuses.get(request.url, self.status)
        if status < 300:
            self.received.setdefault(request.url, []).append(json.loads(plain))
        answer = requests.Response()
        answer.status_code, answer.request, answer.url, answer.reason = status, request, request.url, "stand-in"
        answer._content = b""
        return answer

    def close(self) -> None:
        pass
