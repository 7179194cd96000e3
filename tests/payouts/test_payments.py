"""Paying a prize (club 32): a second ID check that must match the registration, the player's signature,
a payout receipt in sequence; once only, even with two cashiers at once; voided with a reason."""

from __future__ import annotations

import base64
import io

import pytest
from django.db import IntegrityError, connection, transaction
from PIL import Image, ImageDraw

from core.errors import ServiceError
from payouts.models import Payment
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.services import busts, draws
from tests.concurrency import at_once
from tests.conftest import make_user, tournament_data
from tests.helpers import id_doc, open_tables
from tournament.models import AuditEvent, Entry, IdCheck
from tournament.services import registration as tournament_services
from tournament.services import setup


def signature(ink: bool = True) -> str:
    image = Image.new("RGBA", (300, 100), (255, 255, 255, 0))
    if ink:
        ImageDraw.Draw(image).line([(10, 80), (80, 20), (150, 70), (280, 30)], fill=(0, 0, 0, 255), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def register_numbered(cashier, tournament, n: int) -> list[Entry]:
    from datetime import date

    out = []
    for i in range(n):
        player = tournament_services.create_player(actor=cashier, first_name=f"P{i}", last_name="Paid", date_of_birth=date(1990, 1, 1))
        out.append(tournament_services.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"EA{i:07d}")))
    return out


def finish(director, cashier, floor, tournament, players: int = 8) -> list[Entry]:
    """A field of eight, four paid; the first five out (places 8 to 4), registration closed."""
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register_numbered(cashier, tournament, players)
    draws.draw_start(tournament, actor=director)
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    for entry in entries[:5]:
        busts.bust_entry(entry, actor=floor)
    tournament_services.set_registration_closed(tournament, actor=director, closed=True)
    return entries


def test_a_prize_is_paid_against_the_same_document_and_a_signature_with_a_receipt_in_sequence(cashier, tournament, finished):
    fourth, fifth = finished[4], finished[3]
    prize = payouts_selectors.prizes_won(tournament)[fourth.number]
    payment = payouts_services.pay_prize(
        fourth, actor=cashier, document=id_doc("ea-000 0004"), signature=signature()
    )  # typed as the player shows it
    assert (payment.number, payment.amount, payment.place, payment.status) == (1, prize, 4, Payment.Status.PAID)
    assert bytes(payment.signature).startswith(b"\x89PNG") and payment.id_check.purpose == IdCheck.Purpose.PAYOUT
    event = AuditEvent.objects.get(tournament=tournament, type="payout.paid")
    assert event.payload["amount"] == prize and event.payload["receipt"] == 1 and "0004" in event.payload["id"]
    with pytest.raises(ServiceError) as again:
        payouts_services.pay_prize(fourth, actor=cashier, document=id_doc("EA0000004"), signature=signature())
    assert again.value.code == "already_paid" and again.value.status == 409
    with pytest.raises(ServiceError) as outside:
        payouts_services.pay_prize(fifth, actor=cashier, document=id_doc("EA0000003"), signature=signature())
    assert outside.value.code == "no_prize"


@pytest.mark.parametrize(
    "document, ink, code",
    [
        ("EA0000003", True, "id_mismatch"),  # another player's document
        ("EA9999999", True, "id_mismatch"),
        ("", True, "id_check_missing"),
        ("EA0000004", False, "signature_missing"),  # a blank canvas
    ],
)
def test_a_wrong_document_or_no_signature_is_refused_and_nothing_is_recorded(cashier, tournament, finished, document, ink, code):
    checks = IdCheck.objects.count()
    with pytest.raises(ServiceError) as refused:
        payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc(document), signature=signature(ink))
    assert refused.value.code == code
    assert not Payment.objects.exists() and IdCheck.objects.count() == checks
    assert not AuditEvent.objects.filter(type="payout.paid").exists()


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "",
        "data:image/jpeg;base64,AAAA",
        "data:image/png;base64,not base64!",
        "data:image/png;base64," + base64.b64encode(b"GIF89a...").decode(),
    ],
)
def test_a_signature_that_is_no_png_is_refused(cashier, tournament, finished, bad):
    with pytest.raises(ServiceError) as refused:
        payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=bad)
    assert refused.value.code in ("signature_missing", "signature_invalid")


def test_only_the_cashier_pays_and_not_before_the_places_are_final(director, floor, cashier, tournament):
    entries = finish(director, cashier, floor, tournament)
    with pytest.raises(ServiceError) as role:
        payouts_services.pay_prize(entries[4], actor=floor, document=id_doc("EA0000004"), signature=signature())
    assert role.value.status == 403
    with pytest.raises(ServiceError) as playing:
        payouts_services.pay_prize(entries[7], actor=cashier, document=id_doc("EA0000007"), signature=signature())
    assert playing.value.code == "still_playing"
    tournament_services.set_registration_closed(tournament, actor=director, closed=False)
    with pytest.raises(ServiceError) as early:
        payouts_services.pay_prize(entries[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    assert early.value.code == "prizes_not_final"


def pay_page(client, tournament, entry: Entry) -> str:
    page = client.get(f"/t/{tournament.pk}/payouts/pay/{entry.number}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    return page.content.decode()


@pytest.mark.parametrize(
    ("who", "says"),
    [
        (4, "Prizes are paid once late registration is over"),  # in the money, but registration is open again
        (7, "is still playing: it has no place yet"),
        (3, "finished outside the money"),
    ],
)
def test_the_pay_page_says_at_once_why_the_prize_cannot_be_paid_and_asks_for_no_id(client, director, cashier, floor, tournament, who, says):
    """The cashier learns it before typing the ID again and before the player signs: the reason
    instead of the form. The same check refuses the payment (payouts_selectors.prize_due)."""
    entries = finish(director, cashier, floor, tournament)
    if who == 4:
        tournament_services.set_registration_closed(tournament, actor=director, closed=False)
    client.force_login(cashier)
    html = pay_page(client, tournament, entries[who])
    assert 'id="pay-refused"' in html and says in html
    assert 'id="pay-form"' not in html and 'id="pay-doc-number"' not in html and 'id="signature"' not in html
    with pytest.raises(ServiceError) as refused:
        payouts_services.pay_prize(entries[who], actor=cashier, document=id_doc(f"EA{who:07d}"), signature=signature())
    assert says in refused.value.message


def test_the_pay_page_of_a_paid_prize_links_its_receipt_and_one_still_to_pay_asks_for_the_id(client, cashier, tournament, finished):
    client.force_login(cashier)
    html = pay_page(client, tournament, finished[4])
    assert 'id="pay-form"' in html and 'id="pay-doc-number"' in html and 'id="pay-refused"' not in html
    payment = payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    html = pay_page(client, tournament, finished[4])
    assert 'id="pay-refused"' in html and "already paid (payout receipt 1)" in html
    assert f'href="/t/{tournament.pk}/payouts/receipts/{payment.number}/"' in html and 'id="pay-form"' not in html


def test_a_payment_is_voided_with_a_reason_never_deleted_and_the_prize_can_be_paid_again(cashier, tournament, finished):
    payment = payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    with pytest.raises(ServiceError):
        payouts_services.void_payment(payment, actor=cashier, reason="  ")
    payouts_services.void_payment(payment, actor=cashier, reason="paid to the wrong player")
    with pytest.raises(PermissionError):
        Payment.objects.get(pk=payment.pk).delete()
    again = payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    assert again.number == 2 and Payment.objects.filter(entry=finished[4]).count() == 2


def test_the_database_refuses_a_second_paid_payment_of_one_entry(cashier, tournament, finished):
    payment = payouts_services.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            tournament=tournament,
            entry=payment.entry,
            number=99,
            amount=1,
            place=4,
            place_low=4,
            id_check=payment.id_check,
            signature=b"x",
            paid_at=payment.paid_at,
            paid_by=cashier,
        )


@pytest.mark.django_db(transaction=True)
def test_two_cashiers_paying_one_prize_at_once_pay_it_once(director, template):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: threads racing on row locks")
    cashiers = [make_user(f"cash{i}", "Cashier") for i in range(2)]
    floor = make_user("floor9", "Floor")
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    entries = finish(director, cashiers[0], floor, tournament)
    ink = signature()
    outcomes = at_once(
        [lambda c=c: payouts_services.pay_prize(entries[4], actor=c, document=id_doc("EA0000004"), signature=ink).number for c in cashiers]
    )
    results = sorted((o.code if isinstance(o, ServiceError) else o for o in outcomes), key=str)
    assert results == [1, "already_paid"]
    assert Payment.objects.filter(entry=entries[4], status=Payment.Status.PAID).count() == 1
