"""A bounty event's money screens: the payouts page's "Bounties" section (the money, the entries that won bounties and
the cashier's "Pay bounties", the director's house settings and a mystery event's envelopes), the bounty pay page,
the bounty receipt (page, 80 mm and A4 PDF, void), the reconciliation's bounty money and the results' knockouts and
bounties won; and the reads behind them (payouts/selectors/bounties.py, receipts.py, reports.py)."""

from __future__ import annotations

import pytest

from payouts.models import BountyPayment
from payouts.selectors import bounties as sel
from payouts.selectors import receipts, reports
from payouts.selectors.reconciliation import reconciliation
from payouts.services import bounties, bounty_cage
from tests.helpers import id_doc, refused
from tests.payouts.test_bounties import bounty_night, bust, entry
from tests.payouts.test_payments import signature
from tests.payouts.test_reports import rows_of
from tournament.services import registration
from web.templatetags.money import money

pytestmark = pytest.mark.django_db


@pytest.fixture
def pko(director, cashier, floor, template):
    """A PKO night of four at 100 EUR a head, cash paid in whole euros: #4 out to #1 (50 EUR cash, #1's head 150 EUR),
    then #1 out to #2 (75 EUR cash)."""
    t = bounty_night(director, cashier, template, "progressive", players=4)
    bust(floor, t, 4, 1)
    bust(floor, t, 1, 2)
    return t


def pay(cashier, t, number: int) -> BountyPayment:
    return bounty_cage.pay_bounties(entry(t, number), actor=cashier, document=id_doc(f"EA{number - 1:07d}"), signature=signature())


def page(client, user, path: str) -> str:
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


# --- the reads ------------------------------------------------------------------------------------------------------


def test_bounty_due_says_what_the_cage_may_pay_now_with_the_same_refusals_as_the_payment(director, cashier, floor, template, pko):
    due = sel.bounty_due(pko, entry(pko, 2))
    assert due.refusal is None and due.amount == 7_500 and [a.busted.number for a in due.owed] == [1]
    nothing = sel.bounty_due(pko, entry(pko, 3))
    assert nothing.amount == 0 and nothing.refusal.code == "nothing_owed"
    assert refused("nothing_owed", pay, cashier, pko, 3).message == nothing.refusal.message
    pay(cashier, pko, 2)
    assert sel.bounty_due(pko, entry(pko, 2)).refusal.code == "nothing_owed"

    later = bounty_night(director, cashier, template, "knockout", players=3, table=2, cage="collected")
    bust(floor, later, 3, 1)
    due = sel.bounty_due(later, entry(later, 1))
    assert due.amount == 10_000 and due.refusal.code == "collected_later"
    assert refused("collected_later", pay, cashier, later, 1).message == due.refusal.message
    bust(floor, later, 1, 2)  # out: the house pays him now
    assert sel.bounty_due(later, entry(later, 1)).refusal is None


def test_winners_lists_won_paid_owed_knockouts_and_whether_the_cage_may_pay(director, cashier, floor, template, pko):
    pay(cashier, pko, 1)
    rows = {w["entry"]: w for w in sel.winners(pko)}
    assert sorted(rows) == [1, 2]
    assert rows[1] == {
        "entry": 1,
        "name": entry(pko, 1).player.display_name,
        "playing": False,
        "won": 5_000,
        "paid": 5_000,
        "owed": 0,
        "knockouts": 1,
        "payable": False,
    }
    assert (rows[2]["owed"], rows[2]["playing"], rows[2]["payable"]) == (7_500, True, True)
    assert sel.rules_fixed(pko)
    fresh = bounty_night(director, cashier, template, "knockout", players=3, table=2, cage="collected")
    assert not sel.rules_fixed(fresh) and sel.winners(fresh) == []
    bust(floor, fresh, 3, 1)
    assert sel.winners(fresh)[0]["payable"] is False  # collected later: #1 still plays


def test_a_bounty_receipt_names_what_it_paid(cashier, floor, pko):
    bust(floor, pko, 3, 2)  # play over: #2 also takes 50 EUR for #3 and his own head
    payment = pay(cashier, pko, 2)
    lines = dict(receipts.bounty_lines(payment))
    assert lines["Bounty receipt"] == "1" and lines["Entry number"] == "#2"
    assert lines["Bounties"] == money(payment.amount, "EUR")
    assert lines["ID checked"].endswith("…0001") and lines["Cashier"] == cashier.username
    paid = [receipts.award_line(a, "EUR") for a in receipts.paid_awards(payment)]
    assert [label for label, _value in paid] == ["Knockout", "Knockout", "His own head"]
    assert paid[0][1] == f"#1 {entry(pko, 1).player.display_name}: {money(7_500, 'EUR')}"
    assert sum(a.cash for a in receipts.paid_awards(payment)) == payment.amount
    for paper in ("80mm", "a4"):
        assert receipts.bounty_pdf(payment, paper).startswith(b"%PDF")
    bounty_cage.void_bounty_payment(payment, actor=cashier, reason="paid to the wrong player")
    payment.refresh_from_db()
    lines = dict(receipts.bounty_lines(payment))
    assert lines["VOID"] == "paid to the wrong player"
    assert len(receipts.paid_awards(payment)) == 3  # what it paid, kept on the voided receipt


def test_the_results_report_carries_knockouts_and_bounties_won_in_a_bounty_event(cashier, floor, pko, tournament):
    report = reports.results_report(pko)
    assert report["bounties"] is True
    by_entry = {row["entry"]: row for row in report["rows"]}
    assert (by_entry[1]["knockouts"], by_entry[1]["bounties"]) == (1, 5_000)
    assert (by_entry[4]["knockouts"], by_entry[4]["bounties"]) == (0, 0)
    assert "bounties" not in reports.results_report(tournament)  # not a bounty event: the report as before
    text = reports.results_csv(report["rows"], "EUR", bounties=True)
    assert text.splitlines()[0].endswith("Knockouts,Bounties won")


# --- the payouts page -----------------------------------------------------------------------------------------------


def test_the_payouts_page_shows_the_bounty_money_and_the_cashier_pays_from_it(client, director, cashier, dealer, floor, pko):
    url = f"/t/{pko.pk}/payouts/"
    html = page(client, cashier, url)
    money_of = sel.money(pko)
    assert 'id="bounties"' in html and 'id="bounty-money"' in html
    for key, where in (("taken_in", "bounty-in"), ("owed", "bounty-owed"), ("in_play", "bounty-in-play")):
        assert f'id="{where}">{money(money_of[key], "EUR")}<' in html, key
    assert 'id="bounty-won"' in html and entry(pko, 2).player.display_name in html
    assert f'href="/t/{pko.pk}/payouts/bounties/pay/2/"' in html and 'id="bounty-pay-1"' in html
    assert "Adds up" in html and 'id="bounty-rules-form"' not in html  # the director's only
    html = page(client, dealer, url)  # the figures, no names, nothing to pay
    assert 'id="bounty-money"' in html and 'id="bounty-won"' not in html and "bounties/pay/" not in html
    html = page(client, floor, url)  # the names, nothing to pay
    assert 'id="bounty-won"' in html and "bounties/pay/" not in html and "paid once the player is out" not in html
    html = page(client, director, url)
    assert 'id="bounty-rules-form"' in html and 'id="bounty-rules-fixed"' in html  # a bounty won: fixed, said
    assert 'id="bounty-cash-share"' in html and 'id="bounty-mystery-level"' not in html


def test_the_director_sets_the_house_s_bounty_settings_until_a_bounty_is_won(client, director, cashier, template):
    t = bounty_night(director, cashier, template, "progressive", players=3)
    html = page(client, director, f"/t/{t.pk}/payouts/")
    assert 'id="bounty-rules-form"' in html and 'id="bounty-rules-fixed"' not in html
    assert f'data-api="tournaments/{t.pk}/bounties/rules/" data-method="patch"' in html
    assert 'name="increment" id="bounty-increment" inputmode="decimal" data-money="EUR" value="1"' in html
    assert 'value="50"' in html  # the cash share, half, as a percentage
    # the form's body as static/js/api-forms.js sends it: the percentage scaled to basis points, euros to cents
    answer = client.patch(
        f"/api/tournaments/{t.pk}/bounties/rules/",
        {"cash_share_bp": 2500, "increment": 500, "odd_unit": "first_named", "cage": "collected"},
        content_type="application/json",
    )
    assert answer.status_code == 200 and answer.json()["cash_share_bp"] == 2500
    html = page(client, director, f"/t/{t.pk}/payouts/")
    assert 'value="25"' in html and 'data-money="EUR" value="5"' in html and '<option value="collected" selected>' in html


def test_a_mystery_event_s_envelopes_are_committed_from_the_page_and_then_shown_with_their_hash(client, director, cashier, template):
    t = bounty_night(director, cashier, template, "mystery", players=4, bounty=1_000, mystery_level=2)
    html = page(client, director, f"/t/{t.pk}/payouts/")
    assert 'id="bounty-envelopes-form"' in html and html.count("data-envelope-row") == 6
    assert 'id="bounty-box-none"' in html and 'id="bounty-mystery-level"' in html and 'value="2"' in html
    registration.set_registration_closed(t, actor=director, closed=True)
    answer = client.post(
        f"/api/tournaments/{t.pk}/bounties/envelopes/", {"envelopes": [[2_000, 1], [1_000, 1], [500, 2]]}, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    html = page(client, director, f"/t/{t.pk}/payouts/")
    assert 'id="bounty-envelopes-form"' not in html
    assert f'id="bounty-box-hash">{answer.json()["list_hash"]}<' in html
    assert "4 envelopes left" in html and f"2 × {money(500, 'EUR')}" in html
    html = page(client, cashier, f"/t/{t.pk}/payouts/")
    assert 'id="bounty-box-hash"' in html and 'id="bounty-envelopes-form"' not in html


def test_a_tournament_without_bounties_shows_no_bounty_section(client, director, tournament):
    html = page(client, director, f"/t/{tournament.pk}/payouts/")
    assert 'id="bounties"' not in html and 'id="bounty-rules-form"' not in html


# --- the pay page and the receipt ------------------------------------------------------------------------------------


def test_the_bounty_pay_page_asks_for_the_id_and_the_signature_or_says_why_not(client, cashier, floor, pko, tournament):
    html = page(client, cashier, f"/t/{pko.pk}/payouts/bounties/pay/2/")
    assert 'id="pay-form"' in html and f'data-api="tournaments/{pko.pk}/entries/2/bounty-payout/"' in html
    assert f'data-next="/t/{pko.pk}/payouts/bounty-receipts/0/"' in html and 'data-says="bounty-pay"' in html
    assert f'id="pay-amount">{money(7_500, "EUR")}<' in html and 'id="signature"' in html
    assert f"#1 {entry(pko, 1).player.display_name}: {money(7_500, 'EUR')}" in html  # what it pays
    html = page(client, cashier, f"/t/{pko.pk}/payouts/bounties/pay/3/")
    assert 'id="pay-refused"' in html and "owed no bounty" in html and 'id="pay-form"' not in html
    client.force_login(floor)
    assert client.get(f"/t/{pko.pk}/payouts/bounties/pay/2/").status_code == 403
    client.force_login(cashier)
    assert client.get(f"/t/{tournament.pk}/payouts/bounties/pay/1/").status_code == 404  # no bounties there
    assert client.get(f"/t/{pko.pk}/payouts/bounties/pay/99/").status_code == 404


def test_the_cashier_pays_bounties_through_the_api_and_the_receipt_prints_and_voids(client, cashier, floor, dealer, pko):
    client.force_login(cashier)
    answer = client.post(
        f"/api/tournaments/{pko.pk}/entries/2/bounty-payout/",
        {"document_type": "id_card", "document_number": "EA0000001", "signature": signature()},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    number = answer.json()["number"]
    html = page(client, cashier, f"/t/{pko.pk}/payouts/bounty-receipts/{number}/")
    assert "Bounty receipt" in html and money(7_500, "EUR") in html and entry(pko, 2).player.display_name in html
    assert f"#1 {entry(pko, 1).player.display_name}" in html and "…0001" in html and cashier.username in html
    assert f'href="/t/{pko.pk}/payouts/bounty-receipts/{number}/pdf/?paper=a4"' in html
    assert f'data-api="tournaments/{pko.pk}/bounty-payments/{number}/void/"' in html and 'data-says="bounty-payment-void"' in html
    assert "confirms receipt of the bounties" in html
    for query in ("", "?paper=a4"):
        pdf = client.get(f"/t/{pko.pk}/payouts/bounty-receipts/{number}/pdf/{query}")
        assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
        assert pdf["Content-Disposition"] == f'inline; filename="bounty-{pko.pk}-{number}.pdf"'
    html = page(client, floor, f"/t/{pko.pk}/payouts/bounty-receipts/{number}/")  # the desk reads it; voids are the cashier's
    assert "void/" not in html
    client.force_login(dealer)
    assert client.get(f"/t/{pko.pk}/payouts/bounty-receipts/{number}/").status_code == 403
    client.force_login(cashier)
    void = client.post(f"/api/tournaments/{pko.pk}/bounty-payments/{number}/void/", {"reason": "wrong"}, content_type="application/json")
    assert void.status_code == 200
    html = page(client, cashier, f"/t/{pko.pk}/payouts/bounty-receipts/{number}/")
    assert "VOID" in html and "void/" not in html
    html = page(client, cashier, f"/t/{pko.pk}/payouts/bounties/pay/2/")  # owed again; the voided receipt listed
    assert 'id="pay-form"' in html and 'id="bounty-receipts"' in html and "(void)" in html
    assert client.get(f"/t/{pko.pk}/payouts/bounty-receipts/99/").status_code == 404


def test_the_prize_receipt_is_the_same_page_as_before(client, cashier, finished, tournament):
    from payouts.services import structure

    last = finished[4]  # place 4 of 8, in the money
    payment = structure.pay_prize(last, actor=cashier, document=id_doc(f"EA{last.number - 1:07d}"), signature=signature())
    html = page(client, cashier, f"/t/{tournament.pk}/payouts/receipts/{payment.number}/")
    assert "Payout receipt" in html and "confirms receipt of the prize" in html
    assert f'data-api="tournaments/{tournament.pk}/payments/{payment.number}/void/"' in html and 'data-says="payment-void"' in html
    assert f'href="/t/{tournament.pk}/payouts/receipts/{payment.number}/pdf/"' in html
    html = page(client, cashier, f"/t/{tournament.pk}/payouts/pay/{last.number}/")
    assert "already paid" in html


# --- the reconciliation and the results ------------------------------------------------------------------------------


def test_the_reconciliation_page_shows_the_bounty_money_apart(client, cashier, floor, director, pko, tournament):
    pay(cashier, pko, 1)
    r = reconciliation(pko)
    html = page(client, cashier, f"/t/{pko.pk}/payouts/reconciliation/")
    assert 'id="rec-bounties"' in html
    for key, where in (
        ("bounties_in", "rec-bounties-in"),
        ("bounties_paid", "rec-bounties-paid"),
        ("bounties_owed", "rec-bounties-owed"),
        ("bounties_in_play", "rec-bounties-in-play"),
        ("bounties_forfeited", "rec-bounties-forfeited"),
        ("bounties_to_pool", "rec-bounties-to-pool"),
    ):
        assert f'id="{where}">{money(r[key], "EUR")}<' in html, key
    assert (
        r["bounties_in"]
        == r["bounties_paid"] + r["bounties_owed"] + r["bounties_in_play"] + r["bounties_forfeited"] + r["bounties_to_pool"]
    )
    assert f'id="rec-bounty-taken">{money(40_000, "EUR")}<' in html  # the takings' bounty column
    assert "cash in less the prizes and the bounties paid" in html and f'id="rec-cage">{money(r["cage"], "EUR")}<' in html
    html = page(client, cashier, f"/t/{tournament.pk}/payouts/reconciliation/")
    assert 'id="rec-bounties"' not in html and 'id="rec-bounty-taken"' not in html


def test_the_results_csv_and_pdf_of_a_bounty_event_carry_knockouts_and_bounties_won(client, cashier, floor, pko, tournament):
    client.force_login(cashier)
    header, *rows = rows_of(client.get(f"/t/{pko.pk}/payouts/results/csv/").content)
    assert header[-2:] == ["Knockouts", "Bounties won"]
    by_entry = {int(row[1]): row for row in rows}
    assert by_entry[1][-2:] == ["1", "50.00"] and by_entry[1][4] == "EUR"  # #1 took #4's head before going out
    assert by_entry[4][-2:] == ["0", ""]
    pdf = client.get(f"/t/{pko.pk}/payouts/results/pdf/")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert reports.ResultsPdf(pko, reports.results_report(pko)).bounties
    header, *_rows = rows_of(client.get(f"/t/{tournament.pk}/payouts/results/csv/").content)
    assert "Knockouts" not in header


def test_bounty_rules_changed_after_a_win_are_refused_as_the_page_says(director, pko):
    before = sel.bounty_rules(pko).cash_share_bp
    error = refused("bounty_rules_fixed", bounties.set_bounty_rules, pko, actor=director, data={"cash_share_bp": 2_500})
    assert error.status == 409 and sel.bounty_rules(pko).cash_share_bp == before
