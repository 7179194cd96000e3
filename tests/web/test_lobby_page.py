"""The lobby TV's page: the address where players find their seat, as text and as a QR code, right
behind a proxy and overridable by PUBLIC_BASE_URL (also for the seat cards' QR codes)."""

from __future__ import annotations

import json
import re

import segno


def qr_svg(url: str) -> str:
    from web.public_addresses import qr_svg as made

    return made(url)


def qr_in(page: str) -> str:
    found = re.search(r'<div class="l-qr"[^>]*>(<svg.*?</svg>)</div>', page, re.S)
    assert found, "no QR code on the lobby"
    return found.group(1)


def test_the_lobby_shows_the_seat_finder_address_and_its_qr_code(client, tournament, display):
    page = client.get(f"/display/{display.token}/").content.decode()
    url = f"http://testserver/s/{tournament.pk}/"
    assert f"testserver/s/{tournament.pk}/" in page  # written without the scheme a phone adds by itself
    svg = qr_in(page)
    assert svg == qr_svg(url)
    # The smallest symbol that holds the address: the biggest modules on the screen.
    assert segno.make(url, error="l").version == segno.make(url, error="l", boost_error=True).version
    assert 'viewBox="0 0 ' in svg and "width=" not in svg.split(">", 1)[0]  # sized by the page, not by itself


def test_behind_a_tls_proxy_the_address_is_the_one_players_reach(client, settings, tournament, display):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # BEHIND_TLS_PROXY
    settings.ALLOWED_HOSTS = ["poker.example.com"]
    page = client.get(f"/display/{display.token}/", headers={"host": "poker.example.com", "x-forwarded-proto": "https"})
    assert qr_in(page.content.decode()) == qr_svg(f"https://poker.example.com/s/{tournament.pk}/")


def test_public_base_url_overrides_the_address(client, settings, director, cashier, tournament, display):
    settings.PUBLIC_BASE_URL = "https://turnaj.example.cz"
    page = client.get(f"/display/{display.token}/").content.decode()
    assert f"turnaj.example.cz/s/{tournament.pk}/" in page and "testserver/s/" not in page
    assert qr_in(page) == qr_svg(f"https://turnaj.example.cz/s/{tournament.pk}/")
    # The draws' public check, under the draws line, is written at the same address.
    config = json.loads(re.search(r'<script id="lobby-config" type="application/json">(.*?)</script>', page).group(1))
    assert config["draw_list"] == f"turnaj.example.cz/s/{tournament.pk}/draws/"
    # The seat cards' QR codes too.
    from tests.tables.test_moves import start

    start(director, cashier, tournament, 4, table_numbers=(1,))
    client.force_login(cashier)
    cards = client.get(f"/t/{tournament.pk}/seat-cards/1/").content.decode()
    card_qr = segno.make(f"https://turnaj.example.cz/s/{tournament.pk}/1/", error="m")  # tables/selectors/seat_cards.py
    assert card_qr.svg_inline(scale=4, dark="#000", light="#fff") in cards
