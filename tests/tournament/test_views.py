"""Screens: the role matrix of the pages; the cashier's, floor's and director's actions through the one
door the pages use, the JSON API, with the page's session login; the old form endpoints are gone."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from tests.conftest import PASSWORD, tournament_data
from tests.helpers import id_doc
from tournament.models import AuditEvent, DisplayToken, Entry, Purchase, Tournament
from tournament.selectors.receipts import receipt_lines
from tournament.services import registration, setup

ROLES = ["director", "floor", "cashier", "dealer"]

# page -> roles allowed (GET)
PAGES = {
    "home": {"director", "floor", "cashier", "dealer"},
    "tournament-detail": {"director", "floor", "cashier", "dealer"},
    "entries": {"director", "floor", "cashier"},  # names and ID checks: not a dealer
    "register": {"director", "floor", "cashier"},
    "player-create": {"director", "floor", "cashier"},
    "events": {"director", "floor"},
    "displays": {"director"},
    "receipt": {"director", "floor", "cashier"},
    "receipt-pdf": {"director", "floor", "cashier"},
    "structure-list": {"director"},
    "tournament-create": {"director"},
    "tournament-edit": {"director"},
}


def url_for(name, tournament):
    if name in ("home", "structure-list", "tournament-create"):
        return reverse(name)
    if name in ("receipt", "receipt-pdf"):
        return reverse(name, args=[tournament.pk, 1])
    return reverse(name, args=[tournament.pk])


@pytest.fixture
def registered(cashier, tournament, player):
    return registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())


@pytest.mark.parametrize("role", ROLES)
def test_role_matrix_for_pages(role, request, client, tournament, registered):
    user = request.getfixturevalue(role)
    client.force_login(user)
    for name, allowed in PAGES.items():
        response = client.get(url_for(name, tournament))
        if role in allowed:
            assert response.status_code == 200, (role, name, response.status_code)
        else:
            assert response.status_code == 403, (role, name, response.status_code)


@pytest.mark.parametrize("role", ROLES)
def test_the_floor_snapshot_is_the_floors(role, request, client, tournament, registered):
    """The floor socket's snapshot, read afresh (every event, names included): the floor's, through the API."""
    path = reverse("api-floor-snapshot", args=[tournament.pk])
    assert client.get(path).status_code == 401
    client.force_login(request.getfixturevalue(role))
    response = client.get(path)
    assert response.status_code == (200 if role in ("director", "floor") else 403), role
    if response.status_code == 200:
        assert response.json()["tournament"]["id"] == tournament.pk


def test_anonymous_is_sent_to_login_everywhere(client, tournament, registered):
    for name in PAGES:
        response = client.get(url_for(name, tournament))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name


def api(client, path, body=None, method="POST"):
    """What static/js/api.js sends: JSON, with the page's session."""
    return client.generic(
        method, f"/api/{path}", "" if body is None else json.dumps(body), content_type="application/json", HTTP_ACCEPT="application/json"
    )


@pytest.mark.parametrize("role,allowed", [("dealer", False), ("floor", False), ("cashier", True)])
def test_void_only_by_cashier_or_director(role, allowed, request, client, tournament, registered):
    client.force_login(request.getfixturevalue(role))
    response = api(client, f"tournaments/{tournament.pk}/receipts/1/void/", {"reason": "wrong player"})
    registered.refresh_from_db()
    if allowed:
        assert response.status_code == 200 and registered.status == Entry.Status.VOIDED
        assert AuditEvent.objects.filter(type="purchase.voided").count() == 1
    else:
        assert response.status_code == 403 and registered.status == Entry.Status.ACTIVE
        assert response.json()["error"] == "permission_denied"
        assert not AuditEvent.objects.filter(type="purchase.voided").exists()


def test_void_needs_a_reason(client, cashier, tournament, registered):
    client.force_login(cashier)
    response = api(client, f"tournaments/{tournament.pk}/receipts/1/void/", {"reason": ""})
    assert response.status_code == 400 and response.json()["fields"]["reason"] == ["Give a reason for voiding."]
    registered.refresh_from_db()
    assert registered.status == Entry.Status.ACTIVE


def test_register_page_is_wired_to_the_api(client, cashier, tournament, player):
    client.force_login(cashier)
    url = reverse("register", args=[tournament.pk])
    found = client.get(url, {"q": "nováková"}).content.decode()
    assert f"?player={player.pk}" in found
    page = client.get(url, {"player": player.pk}).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/entries/"' in page and 'name="seen"' in page
    assert f'data-next="/t/{tournament.pk}/receipts/{{receipt}}/"' in page
    assert 'data-says="register"' in page  # "Entry #{number} registered for {player.display_name}."
    # A new player is registered with his entry in one press: the page posts the entry, not the player.
    new_player = client.get(reverse("player-create", args=[tournament.pk])).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/entries/"' in new_player and 'data-api="players/"' not in new_player
    assert 'name="new_player.first_name"' in new_player and 'name="document_number"' in new_player
    assert 'name="seen"' in new_player and f'data-next="/t/{tournament.pk}/receipts/{{receipt}}/"' in new_player


def test_register_through_the_api_as_the_page_does(client, cashier, tournament, player):
    client.force_login(cashier)
    path = f"tournaments/{tournament.pk}/entries/"
    refused = api(client, path, {"player": player.pk, "document_type": "id_card", "document_number": "EA7654321"})
    assert refused.status_code == 400 and "checked the ID document in person" in refused.json()["fields"]["seen"][0]
    assert "EA7654321" not in refused.content.decode()
    missing = api(client, path, {"player": player.pk, "seen": True})
    assert missing.status_code == 400 and "no entry without an ID check" in missing.json()["fields"]["document_number"][0]
    assert not Entry.objects.exists()
    done = api(client, path, {"player": player.pk, "document_type": "passport", "document_number": "EA7654321", "seen": True})
    entry = Entry.objects.get()
    assert done.status_code == 201 and done.json()["receipt"] == 1
    assert entry.id_check.document_type == "passport" and entry.id_check.number_last4 == "4321"
    assert client.get(reverse("receipt", args=[tournament.pk, done.json()["receipt"]])).status_code == 200
    again = api(client, path, {"player": player.pk, "document_type": "passport", "document_number": "EA7654321", "seen": True})
    assert again.status_code == 409 and "already has a live entry" in again.json()["detail"]
    assert Entry.objects.count() == 1
    page = client.get(reverse("register", args=[tournament.pk]), {"player": player.pk}).content.decode()
    assert f"already has a live entry (#{entry.number})" in page


def test_create_player_through_the_api_as_the_page_does(client, cashier, tournament):
    client.force_login(cashier)
    created = api(client, "players/", {"first_name": "Eva", "last_name": "Malá", "date_of_birth": "1988-03-04"})
    assert created.status_code == 201
    page = client.get(reverse("register", args=[tournament.pk]), {"player": created.json()["id"]}).content.decode()
    assert 'id="chosen-player">Eva Malá<' in page
    young = api(client, "players/", {"first_name": "Kid", "last_name": "Young", "date_of_birth": "2020-01-01"})
    assert young.status_code == 400 and young.json()["error"] == "under_age" and young.json()["detail"]


def test_rebuy_announced_then_paid_and_addon(client, director, cashier, tournament, registered):
    setup.update_tournament(
        tournament,
        actor=director,
        data={
            "rebuy_allowed": True,
            "rebuy_price": 5000,
            "rebuy_chips": 10000,
            "addon_allowed": True,
            "addon_price": 5000,
            "addon_chips": 15000,
        },
    )
    client.force_login(cashier)
    entry = f"tournaments/{tournament.pk}/entries/{registered.number}"
    page = client.get(reverse("entry-detail", args=[tournament.pk, registered.number])).content.decode()
    assert f'data-api="{entry}/rebuy/"' in page and f'data-api="{entry}/addon/"' in page
    assert api(client, f"{entry}/rebuy/", {"paid": False}).status_code == 201
    rebuy = Purchase.objects.get(kind="rebuy")
    assert rebuy.status == Purchase.Status.ANNOUNCED and rebuy.chips == 10000
    page = client.get(reverse("entry-detail", args=[tournament.pk, registered.number])).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/receipts/{rebuy.number}/pay/"' in page
    assert api(client, f"tournaments/{tournament.pk}/receipts/{rebuy.number}/pay/").status_code == 200
    rebuy.refresh_from_db()
    assert rebuy.status == Purchase.Status.PAID and rebuy.paid_by == cashier
    assert api(client, f"{entry}/addon/").status_code == 201
    events = AuditEvent.objects.count()
    refused = api(client, f"{entry}/addon/")
    assert refused.status_code in (400, 409) and "has used all 1 add-ons" in refused.json()["detail"]
    assert Purchase.objects.filter(kind="addon").count() == 1 and AuditEvent.objects.count() == events


def test_director_sets_the_level_and_closes_registration_through_the_api(client, director, floor, tournament):
    client.force_login(director)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/clock/"' in page
    assert f'data-api="tournaments/{tournament.pk}/registration/"' in page and 'data-says="registration-close"' in page
    assert api(client, f"tournaments/{tournament.pk}/clock/", {"action": "jump", "level": 3}).status_code == 200
    closed = api(client, f"tournaments/{tournament.pk}/registration/", {"closed": True})
    assert closed.status_code == 200 and closed.json()["registration_closed"] is True
    tournament.refresh_from_db()
    assert tournament.current_level == 3 and tournament.registration_closed
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert "Reopen registration" in page and 'value="false" data-json' in page
    client.force_login(floor)
    events = AuditEvent.objects.count()
    assert api(client, f"tournaments/{tournament.pk}/registration/", {"closed": False}).status_code == 403
    assert api(client, f"tournaments/{tournament.pk}/clock/", {"action": "jump", "level": 1}).status_code == 403
    assert AuditEvent.objects.count() == events
    assert 'data-api="tournaments/' not in client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()


# The POST endpoints the screens used before the API: gone, with every method.
REMOVED = [
    "t/{t}/entries/1/chips/",
    "t/{t}/entries/1/bust/",
    "t/{t}/entries/1/undo-bust/",
    "t/{t}/entries/1/seat-request/",
    "t/{t}/receipts/1/void/",
    "t/{t}/receipts/1/pay/",
    "t/{t}/registration/",
    "t/{t}/level/",
    "t/{t}/displays/1/revoke/",
    "t/{t}/clock/action/",
]


def test_the_old_form_endpoints_are_gone(client, director, tournament, registered):
    client.force_login(director)
    display = registration.create_display_token(tournament, actor=director, label="TV")
    events = AuditEvent.objects.count()
    for path in REMOVED:
        url = "/" + path.format(t=tournament.pk)
        assert client.post(url, {"kind": "rebuy", "closed": "1", "level": "2", "reason": "x", "action": "start"}).status_code == 404, url
    for name in ("register", "player-create", "displays"):
        url = reverse(name, args=[tournament.pk])
        response = client.post(
            url,
            {
                "player": registered.player.pk,
                "document_type": "passport",
                "document_number": "EA7654321",
                "seen": "on",
                "first_name": "A",
                "last_name": "B",
                "date_of_birth": "1970-01-01",
                "label": "TV 2",
            },
        )
        assert response.status_code == 405, url
    assert AuditEvent.objects.count() == events
    assert Entry.objects.count() == 1 and DisplayToken.objects.get().pk == display.pk
    assert Tournament.objects.get(pk=tournament.pk).registration_closed is False


def test_receipt_shows_amounts_and_pdf_is_a_pdf(client, cashier, tournament, registered):
    client.force_login(cashier)
    page = client.get(reverse("receipt", args=[tournament.pk, 1])).content.decode()
    assert "EUR\xa0100<" in page and "EUR\xa015<" in page and "EUR\xa0115<" in page and f"#{registered.number}" in page
    for paper in ("80mm", "a4"):
        pdf = client.get(reverse("receipt-pdf", args=[tournament.pk, 1]) + f"?paper={paper}")
        assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


@pytest.mark.parametrize(
    ("language", "total", "prices"),
    [
        ("cs", "1\xa0100\xa0Kč", ("1\xa0000\xa0Kč", " 100\xa0Kč")),
        ("sk", "1\xa0100\xa0Kč", ("1\xa0000\xa0Kč", " 100\xa0Kč")),
        ("en", "CZK\xa01,100", ("Buy-in CZK\xa01,000 + fee CZK\xa0100.",)),
    ],
)
def test_money_reads_in_major_units_in_the_pages_language(client, cashier, director, template, player, language, total, prices):
    """The user test's findings: the receipt said "110000 CZK" and the registration panel "Buy-in 100000 + fee
    10000 (CZK, minor units)" for a buy-in of 1,000 crowns and a fee of 100."""
    t = setup.create_tournament(tournament_data(currency="CZK", buy_in=100000, fee=10000), actor=director, template=template)
    entry = registration.register_entry(t, actor=cashier, player=player, document=id_doc())
    client.force_login(cashier)
    lang = {"HTTP_ACCEPT_LANGUAGE": language}
    receipt = client.get(reverse("receipt", args=[t.pk, 1]), **lang).content.decode()
    assert f"<dd>{total}</dd>" in receipt and "110000" not in receipt
    detail = client.get(reverse("entry-detail", args=[t.pk, entry.number]), **lang).content.decode()
    assert f">{total}</td>" in detail and "110000" not in detail
    register = client.get(reverse("register", args=[t.pk]) + f"?player={player.pk}", **lang).content.decode()
    assert "minor units" not in register and "100000" not in register
    assert all(price in register for price in prices), prices
    with translation.override(language):
        assert (str(translation.gettext("Total")), total) in [(str(k), v) for k, v in receipt_lines(entry.purchases.get())]


def test_voided_receipt_prints_void(client, cashier, tournament, registered):
    registration.void_purchase(registered.purchases.get(), actor=cashier, reason="double registration")
    client.force_login(cashier)
    page = client.get(reverse("receipt", args=[tournament.pk, 1])).content.decode()
    assert "VOID" in page and "double registration" in page


def test_display_link_opens_lobby_without_login_until_revoked(client, director, tournament, registered):
    client.force_login(director)
    page = client.get(reverse("displays", args=[tournament.pk])).content.decode()
    assert f'data-api="tournaments/{tournament.pk}/displays/"' in page
    created = api(client, f"tournaments/{tournament.pk}/displays/", {"label": "TV bar"})
    assert created.status_code == 201
    token = DisplayToken.objects.get(label="TV bar")
    token.token = created.json()["token"]  # the link is in the creation answer only
    assert AuditEvent.objects.filter(type="display.created").count() == 1
    # The list shows the screen by its prefix, never its link again (the server keeps only a hash).
    page = client.get(reverse("displays", args=[tournament.pk])).content.decode()
    assert f'data-display="{token.pk}"' in page and token.prefix in page and token.token not in page
    assert f'data-api="tournaments/{tournament.pk}/displays/{token.pk}/revoke/"' in page
    client.logout()
    lobby = client.get(reverse("lobby", args=[token.token]))
    assert lobby.status_code == 200 and tournament.name in lobby.content.decode()
    assert registered.player.last_name not in lobby.content.decode()
    client.force_login(director)
    assert api(client, f"tournaments/{tournament.pk}/displays/{token.pk}/revoke/").status_code == 200
    client.logout()
    assert client.get(reverse("lobby", args=[token.token])).status_code == 404
    assert client.get(reverse("api-lobby-snapshot", args=[token.token])).status_code == 403


def test_language_per_user(client, cashier, tournament):
    client.force_login(cashier)
    assert client.post(reverse("preferences"), {"language": "cs"}).status_code == 405  # saved through the API only
    saved = client.patch("/api/auth/preferences/", {"language": "cs"}, content_type="application/json")
    assert saved.status_code == 200 and saved.json() == {"language": "cs"} and saved.cookies["django_language"].value == "cs"
    cashier.refresh_from_db()
    assert cashier.staff_profile.language == "cs" and client.get("/api/auth/preferences/").json() == {"language": "cs"}
    refused = client.patch("/api/auth/preferences/", {"language": "de"}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert page.wsgi_request.LANGUAGE_CODE == "cs"
    assert '<html lang="cs">' in page.content.decode()


def test_browser_language_when_user_has_none(client, cashier):
    client.force_login(cashier)
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="sk")
    assert '<html lang="sk">' in page.content.decode()


def test_login_is_rate_limited_per_username_and_ip(client, cashier, settings):
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(url, {"username": "cash", "password": "wrong"}, REMOTE_ADDR="10.0.0.5")
    locked = client.post(url, {"username": "cash", "password": PASSWORD}, REMOTE_ADDR="10.0.0.5")
    assert locked.status_code == 429
    # Another tablet behind the same IP, another user: not locked.
    other = client.post(url, {"username": "other-user", "password": "wrong"}, REMOTE_ADDR="10.0.0.5")
    assert other.status_code == 200
    # The same user from another device: not locked either.
    ok = client.post(url, {"username": "cash", "password": PASSWORD}, REMOTE_ADDR="10.0.0.6")
    assert ok.status_code == 302
