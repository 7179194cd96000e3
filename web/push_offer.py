"""What a public page needs to offer notifications (docs/notifications.md): the server's VAPID public key, the service
worker's address and the page's opt-in and opt-out endpoints, in the page's JSON config; None when the server sends
none (no VAPID key), and the page then shows no button."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def push_offer(subscribe: str, stop: str, *, args: list[int]) -> dict | None:
    if not settings.WEBPUSH_VAPID_PUBLIC_KEY:
        return None
    return {
        "key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
        "worker": reverse("push-worker"),
        "subscribe": reverse(subscribe, args=args),
        "stop": reverse(stop, args=args),
    }
