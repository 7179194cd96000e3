"""The screens and the API of places reserved from phones (web/tournament/reservations.py): the player's form and his
reservation's page (no account, no JavaScript), the public API, the desk's list, and the registration page claiming a
reservation. The rules and the services: tests/tournament/test_reservations.py."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.helpers import api, client_for, logged_in, page_as, text
from tests.tournament.test_reservations import settle
from tests.web.test_public_fields import check, listed
from tournament.models import AuditEvent, Entry, Reservation
from web.api import DEVICE_COOKIE


def reserve_by_form(client: Client, t, name="Rita Reserved", contact="+420 777 123 456"):
    return client.post(reverse("reserve", args=[t.pk]), {"name": name, "contact": contact})


def test_a_player_reserves_from_his_phone_and_his_link_shows_and_cancels_it(open_event):
    t = open_event
    phone = Client(enforce_csrf_checks=True)
    form = phone.get(reverse("reserve", args=[t.pk]))
    assert form.status_code == 200 and DEVICE_COOKIE in form.cookies  # the phone is known from its first read
    words = text(form.content.decode())
    assert "Reserve a place" in words and "5 places may be reserved · 0 taken" in words
    token = form.cookies["csrftoken"].value
    answer = phone.post(
        reverse("reserve", args=[t.pk]), {"name": " Rita  Reserved ", "contact": "+420 777 123 456", "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    link = answer["Location"]
    reservation = Reservation.objects.get(tournament=t)
    assert reservation.name == "Rita Reserved" and link.startswith(f"/t/{t.pk}/reservation/")
    page = text(phone.get(link).content.decode())
    assert "R-1" in page and "Rita Reserved" in page and "Show this number and your ID at the desk." in page
    held_until = timezone.localtime(t.start_at, ZoneInfo(t.time_zone)).strftime("%H:%M")
    assert "Held until" in page and held_until in page.split("Held until", 1)[1][:40]  # the venue's clock
    assert "+420" not in page  # the contact is the desk's, never shown back
    assert page_as(None, f"/t/{t.pk}/reservation/NOTACODE/").status_code == 404
    cancelled = phone.post(link, {"csrfmiddlewaretoken": token})
    assert cancelled.status_code == 302
    assert Reservation.objects.get(pk=reservation.pk).state == "cancelled" and "Cancelled." in text(phone.get(link).content.decode())
    again = phone.post(link, {"csrfmiddlewaretoken": token})
    assert again.status_code == 409 and "not held any more" in text(again.content.decode())


def test_a_refused_reservation_says_why_keeps_what_was_typed_and_stores_nothing(open_event):
    client = Client()
    bad = reserve_by_form(client, open_event, contact="call me")
    assert bad.status_code == 400
    html = bad.content.decode()
    assert "This is neither a phone number nor an e-mail address." in text(html) and 'value="Rita Reserved"' in html
    closed = settle(open_event, reservation_cap=0)
    answer = page_as(None, reverse("reserve", args=[closed.pk]))
    assert "This tournament takes no reservations: register at the desk." in text(answer.content.decode())
    assert 'id="reserve-form"' not in answer.content.decode()
    assert reserve_by_form(client, closed).status_code == 409
    assert not Reservation.objects.exists()


def test_a_phone_makes_only_its_houses_number_of_reservations(open_event):
    phone = Client()
    phone.get(reverse("reserve", args=[open_event.pk]))
    assert reserve_by_form(phone, open_event, contact="+420777000001").status_code == 302
    assert reserve_by_form(phone, open_event, contact="+420777000002").status_code == 302
    third = reserve_by_form(phone, open_event, contact="+420777000003")
    assert third.status_code == 429 and "the most one phone may make" in text(third.content.decode())
    other = Client()
    assert reserve_by_form(other, open_event, contact="+420777000003").status_code == 302  # another phone may


def test_the_public_api_reserves_reads_and_cancels_with_only_the_listed_fields(open_event):
    t = open_event
    fields = listed()
    phone = client_for()
    made = api(phone, "post", f"public/tournaments/{t.pk}/reservations/", {"name": "Api Player", "contact": "api@example.cz"})
    assert made.status_code == 201, made.content
    body = made.json()
    check("api-public-reserve", body, fields)
    assert body["number"] == 1 and body["state"] == "held" and body["link"].endswith(f"/t/{t.pk}/reservation/{body['code']}/")
    read = phone.get(f"/api/public/tournaments/{t.pk}/reservations/{body['code']}/")
    check("api-public-reservation", read.json(), fields)
    assert read.json()["name"] == "Api Player" and "contact" not in read.json()
    assert phone.get(f"/api/public/tournaments/{t.pk}/reservations/WRONGCODE/").status_code == 404
    duplicate = api(phone, "post", f"public/tournaments/{t.pk}/reservations/", {"name": "Api Player", "contact": "API@example.cz"})
    assert duplicate.status_code == 409 and duplicate.json()["error"] == "already_reserved"
    bad = api(phone, "post", f"public/tournaments/{t.pk}/reservations/", {"name": "", "contact": "x"})
    assert bad.status_code == 400
    gone = phone.delete(f"/api/public/tournaments/{t.pk}/reservations/{body['code']}/")
    assert gone.status_code == 200 and gone.json()["state"] == "cancelled"
    assert phone.delete(f"/api/public/tournaments/{t.pk}/reservations/{body['code']}/").status_code == 409
    assert Reservation.objects.count() == 1


def test_the_desk_finds_a_reservation_and_claims_it_on_the_registration_page(cashier, floor, dealer, open_event):
    t = open_event
    phone = client_for()
    for i, name in enumerate(("Rita Reserved", "Karel Booked")):
        api(phone, "post", f"public/tournaments/{t.pk}/reservations/", {"name": name, "contact": f"+42077000000{i}"})
    assert page_as(None, reverse("reservations", args=[t.pk])).status_code == 302  # the desk's: log in first
    assert page_as(dealer, reverse("reservations", args=[t.pk])).status_code == 403
    listing = page_as(cashier, reverse("reservations", args=[t.pk])).content.decode()
    assert "R-1" in listing and "+420770000000" in listing and "2 of 5 places reserved; 2 not claimed yet." in text(listing)
    found = text(page_as(cashier, reverse("reservations", args=[t.pk]) + "?q=R-2").content.decode())
    assert "Karel Booked" in found and "Rita Reserved" not in found
    desk = client_for(cashier)
    assert [r["number"] for r in desk.get(f"/api/tournaments/{t.pk}/reservations/", {"q": "rita"}).json()] == [1]
    assert client_for().get(f"/api/tournaments/{t.pk}/reservations/").status_code in (401, 403)
    # The registration page claims it: the form goes to the claim, its button says so.
    register_page = page_as(cashier, reverse("register", args=[t.pk]) + "?reservation=1&q=Rita").content.decode()
    assert "Reservation R-1: Rita Reserved (+420770000000)." in text(register_page) and "reservation=1" in register_page
    new_player = page_as(cashier, reverse("player-create", args=[t.pk]) + "?reservation=1").content.decode()
    assert f'data-api="tournaments/{t.pk}/reservations/1/claim/"' in new_player
    claim = api(
        desk,
        "post",
        f"tournaments/{t.pk}/reservations/1/claim/",
        {
            "new_player": {"first_name": "Rita", "last_name": "Reserved", "date_of_birth": "1990-02-03"},
            "document_type": "id_card",
            "document_number": "RS7000007",
            "seen": True,
        },
    )
    assert claim.status_code == 201, claim.content
    entry = Entry.objects.get(tournament=t, number=claim.json()["number"])
    assert Reservation.objects.get(number=1).entry == entry
    chosen = text(page_as(cashier, reverse("register", args=[t.pk]) + "?reservation=1").content.decode())
    assert "Reservation R-1 is not held any more (Claimed at the desk): register the player as a walk-in." in chosen
    again = api(
        desk,
        "post",
        f"tournaments/{t.pk}/reservations/1/claim/",
        {"player": entry.player.pk, "document_type": "id_card", "document_number": "RS7000007", "seen": True},
    )
    assert again.status_code == 409
    cancel = api(desk, "post", f"tournaments/{t.pk}/reservations/2/cancel/", {"reason": "double booking"})
    assert cancel.status_code == 200 and cancel.json()["state"] == "cancelled" and cancel.json()["close_reason"] == "double booking"
    assert api(desk, "post", f"tournaments/{t.pk}/reservations/2/cancel/", {}).status_code == 400
    assert api(client_for(floor), "post", f"tournaments/{t.pk}/reservations/9/cancel/", {"reason": "x"}).status_code == 404
    log = text(page_as(floor, reverse("events", args=[t.pk])).content.decode())
    assert "Rita Reserved reserved a place from a phone: R-1" in log
    assert "registered on reservation R-1" in log and "Reservation R-2, Karel Booked, cancelled by the desk: double booking" in log
    assert AuditEvent.objects.filter(tournament=t, type="reservation.made").count() == 2


def test_the_reservation_settings_are_saved_on_the_venues_clock(director, open_event):
    client = client_for(director)
    answer = api(client, "patch", f"tournaments/{open_event.pk}/", {"reservation_cap": 40, "reservations_until": "2027-01-02T18:30"})
    assert answer.status_code == 200, answer.content
    t = settle(open_event)
    assert t.reservation_cap == 40 and t.reservations_until.isoformat() == "2027-01-02T17:30:00+00:00"  # 18:30 in Prague
    edit = logged_in(director).get(reverse("tournament-edit", args=[t.pk])).content.decode()
    assert 'name="reservations_until"' in edit and 'value="2027-01-02T18:30"' in edit
