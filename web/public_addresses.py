"""Addresses of the public pages as players reach them, and their QR codes."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe


def public_url(request, path: str) -> str:
    """The absolute address of a public page: PUBLIC_BASE_URL when the room knows the server by another
    name than the one this request came to (a TV on the local network, players on the Internet), else the
    request's own (its Host header and scheme, as the proxy passes them)."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    return request.build_absolute_uri(path)


def shown_url(url: str) -> str:
    """The address as a screen writes it: without the scheme a phone's browser adds by itself."""
    return url.split("://", 1)[-1]


@lru_cache(maxsize=64)
def qr_svg(url: str) -> SafeString:
    """The QR code of `url` as inline SVG, dark on light with a quiet zone, sized by the page's CSS (no width
    or height of its own). The smallest symbol that holds the address (the error correction raised as far
    as that size allows): the fewer the modules, the bigger each one on the screen and the farther away a
    phone reads it."""
    return mark_safe(
        segno.make(url, error="l", boost_error=True).svg_inline(omitsize=True, border=2, dark="#000", light="#fff", svgclass="qr")
    )
