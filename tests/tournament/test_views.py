"""Screens: the role matrix, and the cashier's and floor's actions through the HTML forms."""
import pytest
from django.urls import reverse

from tests.conftest import PASSWORD, id_doc
from tournament import services, setup
from tournament.models import DisplayToken, Entry, Purchase

ROLES = ["director", "floor", "cashier", "dealer"]

# page -> roles allowed (GET)
PAGES = {
    "home": {"director", "floor", "cashier", "dealer"},
    "tournament-detail": {"director", "floor", "cashier", "dealer"},
    "entries": {"director", "floor", "cashier", "dealer"},
    "register": {"director", "floor", "cashier"},
    "player-create": {"director", "floor", "cashier"},
    "events": {"director", "floor"},
    "floor-snapshot": {"director", "floor", "cashier"},
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
    return services.register_entry(cashier, tournament, player, id_doc())


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


def test_anonymous_is_sent_to_login_everywhere(client, tournament, registered):
    for name in PAGES:
        response = client.get(url_for(name, tournament))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name


@pytest.mark.parametrize("role,allowed", [("dealer", False), ("floor", False), ("cashier", True)])
def test_void_only_by_cashier_or_director(role, allowed, request, client, tournament, registered):
    client.force_login(request.getfixturevalue(role))
    response = client.post(reverse("receipt-void", args=[tournament.pk, 1]), {"reason": "wrong player"})
    registered.refresh_from_db()
    if allowed:
        assert response.status_code == 302 and registered.status == Entry.Status.VOIDED
    else:
        assert response.status_code == 403 and registered.status == Entry.Status.ACTIVE


def test_register_through_the_form(client, cashier, tournament, player):
    client.force_login(cashier)
    url = reverse("register", args=[tournament.pk])
    refused = client.post(url, {"player": player.pk, "document_type": "id_card", "document_number": "EA7654321"})
    assert refused.status_code == 200 and "No entry without an ID check" in refused.content.decode()
    assert "EA7654321" not in refused.content.decode()
    assert not Entry.objects.exists()
    done = client.post(url, {"player": player.pk, "document_type": "passport", "document_number": "EA7654321", "seen": "on"})
    entry = Entry.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse("receipt", args=[tournament.pk, 1])
    assert entry.id_check.document_type == "passport" and entry.id_check.number_last4 == "4321"
    again = client.post(url, {"player": player.pk, "document_type": "passport", "document_number": "EA7654321", "seen": "on"},
                        follow=True)
    assert "already has a live entry" in again.content.decode()
    assert Entry.objects.count() == 1


def test_rebuy_announced_then_paid_and_addon(client, director, cashier, tournament, registered):
    setup.update_tournament(director, tournament, {"rebuy_allowed": True, "rebuy_price": 5000, "rebuy_chips": 10000,
                                                      "addon_allowed": True, "addon_price": 5000, "addon_chips": 15000})
    client.force_login(cashier)
    url = reverse("entry-chips", args=[tournament.pk, registered.number])
    client.post(url, {"kind": "rebuy", "paid": "0"})
    rebuy = Purchase.objects.get(kind="rebuy")
    assert rebuy.status == Purchase.Status.ANNOUNCED and rebuy.chips == 10000
    client.post(reverse("receipt-pay", args=[tournament.pk, rebuy.number]))
    rebuy.refresh_from_db()
    assert rebuy.status == Purchase.Status.PAID and rebuy.paid_by == cashier
    client.post(url, {"kind": "addon"})
    refused = client.post(url, {"kind": "addon"}, follow=True)
    assert "has used all 1 add-ons" in refused.content.decode()
    assert Purchase.objects.filter(kind="addon").count() == 1


def test_receipt_shows_amounts_and_pdf_is_a_pdf(client, cashier, tournament, registered):
    client.force_login(cashier)
    page = client.get(reverse("receipt", args=[tournament.pk, 1])).content.decode()
    assert "100.00 EUR" in page and "15.00 EUR" in page and "115.00 EUR" in page and f"#{registered.number}" in page
    for paper in ("80mm", "a4"):
        pdf = client.get(reverse("receipt-pdf", args=[tournament.pk, 1]) + f"?paper={paper}")
        assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_voided_receipt_prints_void(client, cashier, tournament, registered):
    services.void_purchase(cashier, registered.purchases.get(), "double registration")
    client.force_login(cashier)
    page = client.get(reverse("receipt", args=[tournament.pk, 1])).content.decode()
    assert "VOID" in page and "double registration" in page


def test_display_link_opens_lobby_without_login_until_revoked(client, director, tournament, registered):
    client.force_login(director)
    client.post(reverse("displays", args=[tournament.pk]), {"label": "TV bar"})
    token = DisplayToken.objects.get(label="TV bar")
    client.logout()
    lobby = client.get(reverse("lobby", args=[token.token]))
    assert lobby.status_code == 200 and tournament.name in lobby.content.decode()
    assert registered.player.last_name not in lobby.content.decode()
    client.force_login(director)
    client.post(reverse("display-revoke", args=[tournament.pk, token.pk]))
    client.logout()
    assert client.get(reverse("lobby", args=[token.token])).status_code == 404
    assert client.get(reverse("lobby-snapshot", args=[token.token])).status_code == 404


def test_language_per_user(client, cashier, tournament):
    client.force_login(cashier)
    client.post(reverse("preferences"), {"language": "cs"})
    assert cashier.staff_profile.language == "cs"
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
