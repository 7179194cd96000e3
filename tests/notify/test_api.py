"""Opting in and out through the public API: a subscription that is not one is refused (400, a message, nothing stored),
an entry holds at most WEBPUSH_MAX_PER_ENTRY phones, the opt-in and the opt-out are audited with a short hash of the
endpoint and never the endpoint, and the endpoints are throttled per device."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from notify.models import PushSubscription
from tests.helpers import register
from tests.notify.standin import Browser
from tournament.models import AuditEvent

pytestmark = pytest.mark.django_db


def path(t, number: int, rest: str = "") -> str:
    return f"/api/public/tournaments/{t.pk}/seats/{number}/push/{rest}"


def good() -> dict:
    return Browser().subscription()


def bad(change) -> dict:
    body = good()
    change(body)
    return body


CASES = {
    "http": (lambda b: b.update(endpoint=b["endpoint"].replace("https:", "http:")), "endpoint"),
    "another host": (lambda b: b.update(endpoint="https://intranet.example.org/x"), "endpoint"),
    "too long": (lambda b: b.update(endpoint=b["endpoint"] + "a" * 1100), "endpoint"),
    "no keys": (lambda b: b.pop("keys"), "keys"),
    "no auth": (lambda b: b["keys"].pop("auth"), "keys"),
    "auth not base64url": (lambda b: b["keys"].update(auth="!!not base64!!"), "keys"),
    "auth of 8 bytes": (lambda b: b["keys"].update(auth="AAAAAAAAAAA"), "keys"),
    "p256dh not a point": (lambda b: b["keys"].update(p256dh="BA" + "A" * 85), "keys"),
    "p256dh too long": (lambda b: b["keys"].update(p256dh="B" * 120), "keys"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_subscription_that_is_not_one_is_refused_and_nothing_stored(cashier, tournament, push_service, case):
    [entry] = register(cashier, tournament, 1)
    change, field = CASES[case]
    answer = APIClient().post(path(tournament, entry.number), bad(change), format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["error"] and body["detail"] and any(name.startswith(field) for name in body.get("fields", {}))
    assert not PushSubscription.objects.exists() and not AuditEvent.objects.filter(type__startswith="notify.").exists()


def test_no_such_entry_is_404_and_stores_nothing(cashier, tournament, push_service):
    answer = APIClient().post(path(tournament, 99), good(), format="json")
    assert answer.status_code == 404 and not PushSubscription.objects.exists()


def test_opt_in_and_out_are_audited_without_the_endpoint_and_an_entry_holds_five_phones(cashier, tournament, push_service):
    [entry] = register(cashier, tournament, 1)
    client = APIClient()
    phones = [good() for _ in range(6)]
    for i, phone in enumerate(phones[:5]):
        answer = client.post(path(tournament, entry.number), {**phone, "language": "sk"}, format="json")
        assert answer.status_code == 201 and answer.json() == {"subscribed": True, "phones": i + 1}
    again = client.post(path(tournament, entry.number), phones[0], format="json")  # the same phone: renewed, not a sixth
    assert again.status_code == 201 and again.json()["phones"] == 5
    sixth = client.post(path(tournament, entry.number), phones[5], format="json")
    assert sixth.status_code == 409 and sixth.json()["error"] == "too_many_phones"
    assert PushSubscription.objects.filter(entry=entry).count() == 5
    assert PushSubscription.objects.get(endpoint=phones[1]["endpoint"]).language == "sk"
    stop = client.post(path(tournament, entry.number, "stop/"), {"endpoint": phones[1]["endpoint"]}, format="json")
    assert stop.status_code == 200 and stop.json() == {"subscribed": False}
    assert not PushSubscription.objects.filter(endpoint=phones[1]["endpoint"]).exists()
    unknown = client.post(path(tournament, entry.number, "stop/"), {"endpoint": "https://push.example.test/x", "via": "notification"})
    assert unknown.status_code == 200  # the same answer whoever asks: nothing to learn
    events = list(AuditEvent.objects.filter(tournament=tournament, type__startswith="notify.").order_by("seq"))
    assert [e.type for e in events] == ["notify.subscribed"] * 6 + ["notify.unsubscribed"]
    for event in events:
        assert event.payload["entry"] == entry.number and len(event.payload["endpoint"]) == 12
        assert not any(phone["endpoint"] in str(event.payload) for phone in phones)


def test_the_opt_in_is_throttled_per_device(cashier, tournament, push_service, settings):
    settings.WEBPUSH_SUBSCRIBE_RATE = "2/minute"
    cache.clear()  # the counts of the tests before
    [entry] = register(cashier, tournament, 1)
    client = APIClient()
    codes = [client.post(path(tournament, entry.number), good(), format="json").status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]  # the first, without the device cookie, counts against the address's ceiling only


def test_a_server_without_vapid_keys_offers_nothing(cashier, tournament, settings):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    [entry] = register(cashier, tournament, 1)
    assert APIClient().post(path(tournament, entry.number), good(), format="json").status_code == 404
    page = APIClient().get(f"/s/{tournament.pk}/{entry.number}/")
    assert page.status_code == 200 and '"push": null' in page.content.decode()
