"""A room behind one address gets every seat: the public API slows a device by its own cookie,
and an address only past a ceiling set for a room of 1,000 phones. Before, 120 reads a minute per address
refused a venue whose phones share one (Wi-Fi behind NAT, the server in the cloud): 180 of 900 reads 429."""

from __future__ import annotations

from django.core.cache import cache
from rest_framework.test import APIClient

from web.api import DEVICE_COOKIE


def seat(tournament, client: APIClient, address: str = "203.0.113.7"):
    return client.get(f"/api/public/tournaments/{tournament.pk}/seats/1/", REMOTE_ADDR=address)


def test_three_hundred_phones_behind_one_address_are_all_answered(tournament):
    cache.clear()
    phones = [APIClient() for _ in range(300)]
    codes = [seat(tournament, phone).status_code for _ in range(3) for phone in phones]  # 900 reads, one address
    assert codes.count(429) == 0 and set(codes) == {404}  # no such entry: answered, not refused
    cache.clear()


def test_a_phone_that_reads_too_fast_is_slowed_alone(settings, tournament):
    cache.clear()
    settings.PUBLIC_API_RATE = "3/minute"
    greedy, other = APIClient(), APIClient()
    first = seat(tournament, greedy)
    assert first.status_code == 404 and first.cookies[DEVICE_COOKIE].value  # its device cookie
    codes = [seat(tournament, greedy).status_code for _ in range(4)]
    assert codes == [404, 404, 404, 429]
    assert seat(tournament, other).status_code == 404  # same address, another phone: answered
    cache.clear()


def test_a_device_that_drops_its_cookie_meets_the_address_ceiling(settings, tournament):
    cache.clear()
    settings.PUBLIC_API_ADDRESS_RATE = "5/minute"
    codes = [seat(tournament, APIClient()).status_code for _ in range(7)]  # a new "device" each time
    assert codes[:5] == [404] * 5 and codes[5:] == [429, 429]
    assert seat(tournament, APIClient(), address="198.51.100.1").status_code == 404  # another address
    cache.clear()
