"""A bounty event's money screens: the payouts page's "Bounties" section (the money, the entries that won bounties and
the cashier's "Pay bounties", the director's house settings and a mystery event's envelopes), the bounty pay page,
the bounty receipt (page, 80 mm and A4 PDF, void), the reconciliation's bounty money and the results' knockouts and
bounties won; and the reads behind them (payouts/selectors/bounties.py, receipts.py, reports.py)."""

from __future__ import annotations

import pytest

from payouts.models import BountyPayment
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.selectors import receipts, reports
from payouts.selectors.reconciliation import reconciliation
from payouts.services import bounties, bounty_cage, structure
from tests.helpers import id_doc, refused
from tests.payouts.test_bounties import bounty_night, bust, entry
from tests.payouts.test_payments import finish, signature
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


# --- the heads beside a deal -----------------------------------------------------------------------------------------


@pytest.fixture
def pko_three_left(director, cashier, floor, template):
    """A PKO night of six at 100 EUR a head: #6 out to #1, #5 to #2, #4 to #1. Three left: #1's head 200 EUR (two halves
    kept), #2's 150 EUR, #3's 100 EUR; 450 EUR in play."""
    t = bounty_night(director, cashier, template, "progressive", players=6)
    registration.set_registration_closed(t, actor=director, closed=True)
    bust(floor, t, 6, 1)
    bust(floor, t, 5, 2)
    bust(floor, t, 4, 1)
    return t


def head_rows(html: str) -> dict[int, str]:
    """The deal's heads table: entry -> its row's cells, as text."""
    section = html.split('id="deal-heads"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for part in section.split('<tr id="deal-head-')[1:]:
        number, rest = part.split('"', 1)
        rows[int(number)] = rest.split("</tr>", 1)[0]
    return rows


def test_the_deal_shows_each_player_s_head_and_the_total_beside_it_typed_computed_and_pending(client, director, floor, pko_three_left):
    t = pko_three_left
    assert sel.heads(t) == {1: 20_000, 2: 15_000, 3: 10_000}
    url = f"/t/{t.pk}/payouts/"
    html = page(client, floor, url)  # the chips not typed yet
    assert 'id="deal-calc"' in html and 'id="deal-heads"' in html
    rows = head_rows(html)
    assert sorted(rows) == [1, 2, 3]
    for number, head in ((1, 20_000), (2, 15_000), (3, 10_000)):
        assert money(head, "EUR") in rows[number] and entry(t, number).player.display_name in rows[number]
    assert f'id="deal-heads-total">{money(45_000, "EUR")}<' in html
    assert "The deal shares the prize pool only" in html and "paid apart at the cage" in html
    assert "each player left is paid his own head" in html and "If play goes on, the heads stay in play." in html

    html = page(client, floor, f"{url}?deal=1&chips_1=60000&chips_2=30000&chips_3=10000")  # the figures
    assert 'id="deal-figures"' in html and 'id="deal-heads"' in html
    assert html.index('id="deal-figures"') < html.index('id="deal-heads"') < html.index('id="deal-propose"')
    assert money(20_000, "EUR") in head_rows(html)[1] and f'id="deal-heads-total">{money(45_000, "EUR")}<' in html
    assert "Heads dealt" not in html  # the house rule: each keeps his own head

    structure.propose_deal(t, actor=floor, data={"kind": "chip_chop", "mode": "stop", "stacks": {"1": 60_000, "2": 30_000, "3": 10_000}})
    html = page(client, director, url)  # approving, the director sees what the heads will do
    pending = html.split('id="deal-pending"', 1)[1]
    assert 'id="deal-approve"' in pending and 'id="deal-heads"' in pending
    assert money(15_000, "EUR") in head_rows(pending)[2] and f'id="deal-heads-total">{money(45_000, "EUR")}<' in pending
    assert "This deal stops play:" in pending and "each player left is paid his own head" in pending
    html = page(client, director, f"{url}?deal=1&chips_1=60000&chips_2=30000&chips_3=10000")  # a calculation left in the address
    assert html.count('id="deal-heads"') == 1 and "This deal stops play:" in html.split('id="deal-pending"', 1)[1]


def test_where_the_house_deals_the_heads_the_page_says_what_each_is_paid_of_them(client, director, floor, template, cashier):
    t = bounty_night(director, cashier, template, "knockout", players=4, deal_heads="dealt")
    registration.set_registration_closed(t, actor=director, closed=True)
    bust(floor, t, 4, 1)
    bust(floor, t, 3, 1)
    url = f"/t/{t.pk}/payouts/"
    html = page(client, floor, f"{url}?deal=1&chips_1=75000&chips_2=25000")
    assert "Heads dealt (chip chop)" in html and "the house deals the heads too" in html
    stacks = {"1": 75_000, "2": 25_000}
    deal = structure.propose_deal(t, actor=floor, data={"kind": "chip_chop", "mode": "stop", "stacks": stacks})
    html = page(client, director, url)
    rows = head_rows(html)
    assert money(10_000, "EUR") in rows[1] and money(10_000, "EUR") in rows[2]  # a knockout's head: the fixed bounty
    assert f'id="deal-heads-total">{money(20_000, "EUR")}<' in html and "This deal stops play:" in html
    ledger = b.Ledger(heads={1: 10_000, 2: 10_000})
    dealt = {a.winner: a.cash for a in b.dealt_heads(ledger, dict(zip(deal.entries, deal.amounts, strict=True)), sel.rules_of(t), order=0)}
    assert dealt[1] != dealt[2] and sum(dealt.values()) == 20_000
    for number in (1, 2):
        assert rows[number].count(money(dealt[number], "EUR")) >= 1
    structure.approve_deal(deal, actor=director)  # what the page said is what the heads were paid
    assert {a.winner.number: a.cash for a in sel.awards(t).filter(kind="dealt")} == dealt


def test_a_deal_that_plays_on_leaves_the_heads_in_play_and_a_mystery_head_is_an_envelope(client, director, floor, template, cashier):
    t = bounty_night(director, cashier, template, "mystery", players=4, mystery_level=1)
    registration.set_registration_closed(t, actor=director, closed=True)
    bounties.commit_envelopes(t, actor=director, envelopes=[[25_000, 1], [5_000, 3]])
    bust(floor, t, 4, 1)
    bust(floor, t, 3, 2)
    structure.propose_deal(t, actor=floor, data={"kind": "chip_chop", "mode": "play_on", "stacks": {"1": 60_000, "2": 20_000}})
    html = page(client, director, f"/t/{t.pk}/payouts/")
    assert 'id="deal-pending"' in html and "an envelope drawn" in head_rows(html)[1]
    assert f'id="deal-heads-total">{money(sel.money(t)["in_play"], "EUR")}<' in html
    assert "This deal plays on: the heads stay in play" in html and "Heads dealt" not in html


def test_a_tournament_without_bounties_shows_no_heads_beside_the_deal(client, director, cashier, floor, tournament):
    left = finish(director, cashier, floor, tournament)[5:]
    chips = "&".join(f"chips_{e.number}={c}" for e, c in zip(left, (50_000, 30_000, 20_000), strict=True))
    html = page(client, floor, f"/t/{tournament.pk}/payouts/?deal=1&{chips}")
    assert 'id="deal-figures"' in html and 'id="deal-heads"' not in html and "The heads in play" not in html
    structure.propose_deal(tournament, actor=floor, data={"kind": "icm", "mode": "stop", "stacks": {str(e.number): 10_000 for e in left}})
    html = page(client, director, f"/t/{tournament.pk}/payouts/")
    assert 'id="deal-pending"' in html and 'id="deal-heads"' not in html


# --- the player's record: the entry page and his every-result page ---------------------------------------------------


def bounty_panel(html: str) -> str:
    assert 'id="entry-bounties"' in html
    return html[html.index('id="entry-bounties"') : html.index("</section>", html.index('id="entry-bounties"'))]


def head_taken(html: str) -> str:
    start = html.index('id="entry-head-taken"')
    return html[start : html.index("</p>", start)]


def test_the_entry_page_lists_his_knockouts_with_what_he_won_and_the_receipt_or_owed_and_who_took_his_head(client, cashier, floor, pko):
    payment = pay(cashier, pko, 1)
    names = {n: entry(pko, n).player.display_name for n in (1, 2, 4)}
    panel = bounty_panel(page(client, cashier, f"/t/{pko.pk}/entries/1/"))
    assert f'<a href="/t/{pko.pk}/entries/4/">#4</a> {names[4]}' in panel  # the entry he took out, and his name
    assert f'<td class="num">{money(5_000, "EUR")}</td>' in panel and "Onto his head" in panel  # cash, and onto his head
    assert f'href="/t/{pko.pk}/payouts/bounty-receipts/{payment.number}/">paid: bounty receipt {payment.number}<' in panel
    assert "table 1" in panel and ">owed</td>" not in panel
    assert f"paid {money(5_000, 'EUR')}, owed {money(0, 'EUR')}" in panel  # the totals
    assert 'id="entry-head"' not in panel and 'id="entry-bounty-pay"' not in panel  # out, and paid
    # out: who took his head, his cash of it and what went onto his own
    assert f"#2 {names[2]}</a> ({money(7_500, 'EUR')}, {money(7_500, 'EUR')} onto his head)" in head_taken(panel)
    # still playing: his head now (his bounty and what he kept of #1's), his knockout owed and the cashier's button
    panel = bounty_panel(page(client, cashier, f"/t/{pko.pk}/entries/2/"))
    assert f'id="entry-head-amount">{money(17_500, "EUR")}<' in panel and 'id="entry-head-taken"' not in panel
    assert f'<a href="/t/{pko.pk}/entries/1/">#1</a> {names[1]}' in panel and ">owed</td>" in panel
    assert f'id="entry-bounty-won">{money(7_500, "EUR")}<' in panel and "1 knockout<" in panel
    assert f'id="entry-bounty-pay" href="/t/{pko.pk}/payouts/bounties/pay/2/"' in panel
    panel = bounty_panel(page(client, floor, f"/t/{pko.pk}/entries/2/"))  # the floor reads it; the cage pays
    assert ">owed</td>" in panel and 'id="entry-bounty-pay"' not in panel
    panel = bounty_panel(page(client, cashier, f"/t/{pko.pk}/entries/4/"))
    assert 'id="entry-no-knockouts"' in panel and 'id="entry-knockouts"' not in panel
    assert f"#1 {names[1]}</a> ({money(5_000, 'EUR')}, {money(5_000, 'EUR')} onto his head)" in head_taken(panel)
    panel = bounty_panel(page(client, cashier, f"/t/{pko.pk}/entries/3/"))
    assert f'id="entry-head-amount">{money(10_000, "EUR")}<' in panel and 'id="entry-no-knockouts"' in panel


def test_the_entry_page_says_a_split_pot_and_a_corrected_eliminator_s_voided_awards_are_left_out(
    client, director, cashier, floor, template
):
    from tables.services import eliminations

    t = bounty_night(director, cashier, template, "knockout", players=4, cage="collected")
    bust(floor, t, 4, 1, 2)  # a split pot: 50 EUR each
    panel = bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/1/"))
    assert "split pot, 2 winners, with #2" in panel and f'{money(5_000, "EUR")} <span class="muted">(his share)' in panel
    assert "owed: paid once he is out" in panel and 'id="entry-bounty-pay"' not in panel  # the house collects later
    assert f'id="entry-head-amount">{money(10_000, "EUR")}<' in panel and "Onto his head" not in panel  # a knockout's head
    taken = head_taken(bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/4/")))
    assert f"#1 {entry(t, 1).player.display_name}</a> ({money(5_000, 'EUR')})" in taken and "#2 " in taken
    eliminations.correct_eliminators(t, actor=floor, entry_number=4, eliminators=[3], reason="the dealer pushed the pot wrong")
    panel = bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/1/"))
    assert 'id="entry-no-knockouts"' in panel and f"/t/{t.pk}/entries/4/" not in panel  # his award is void: not listed
    panel = bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/3/"))
    assert f'<a href="/t/{t.pk}/entries/4/">#4</a>' in panel and f'id="entry-bounty-won">{money(10_000, "EUR")}<' in panel
    assert "split pot" not in panel
    taken = head_taken(bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/4/")))
    assert f"#3 {entry(t, 3).player.display_name}</a> ({money(10_000, 'EUR')})" in taken and "#1 " not in taken


def test_a_mystery_entry_page_says_the_envelopes_pay_and_shows_the_envelope_drawn(client, director, cashier, floor, template):
    from payouts.models import BountyAward

    t = bounty_night(director, cashier, template, "mystery", players=4, bounty=1_000, mystery_level=1)
    registration.set_registration_closed(t, actor=director, closed=True)
    bounties.commit_envelopes(t, actor=director, envelopes=[[2_000, 1], [1_000, 1], [500, 2]])
    bust(floor, t, 4, 1)
    award = BountyAward.objects.get(tournament=t, busted__number=4)
    panel = bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/1/"))
    assert "no head on him; each knockout draws an envelope" in panel and 'id="entry-head-amount"' not in panel
    assert ">Envelope</th>" in panel and f'<td class="num">{money(award.envelope, "EUR")}</td>' in panel
    assert f'<a href="/t/{t.pk}/entries/4/">#4</a>' in panel
    taken = head_taken(bounty_panel(page(client, cashier, f"/t/{t.pk}/entries/4/")))
    assert f"#1 {entry(t, 1).player.display_name}</a>" in taken and f"envelope of {money(award.envelope, 'EUR')}" in taken


def test_the_player_results_page_shows_his_knockouts_and_bounties_won_where_a_tournament_was_a_bounty_event(
    client, cashier, pko, tournament
):
    from django.urls import reverse

    from tests.helpers import register

    player = entry(pko, 1).player
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("EA0000000"))
    html = page(client, cashier, reverse("player-results", args=[player.pk]))
    assert ">Bounties</th>" in html
    assert f'id="pl-bounty-{pko.pk}">1 knockout · {money(5_000, "EUR")}<' in html
    assert f'id="pl-bounty-{tournament.pk}">—<' in html  # not a bounty event there
    assert sel.won_by_player(player.pk, [pko.pk, tournament.pk]) == {pko.pk: {"knockouts": 1, "won": 5_000}}
    three = entry(pko, 3).player  # knocked nobody out: his bounty event, none won
    assert f'id="pl-bounty-{pko.pk}">0 knockouts · {money(0, "EUR")}<' in page(client, cashier, reverse("player-results", args=[three.pk]))
    plain = register(cashier, tournament, 1, start=50)[0].player  # no bounty event: no column
    html = page(client, cashier, reverse("player-results", args=[plain.pk]))
    assert ">Bounties</th>" not in html and "pl-bounty-" not in html


def test_a_plain_tournament_s_entry_page_shows_no_bounties(client, cashier, tournament):
    from tests.helpers import register

    e = register(cashier, tournament, 1)[0]
    html = page(client, cashier, f"/t/{tournament.pk}/entries/{e.number}/")
    assert 'id="entry-bounties"' not in html and "entry-head" not in html
    assert sel.record_of(tournament, e) is None and sel.won_by_player(e.player_id, [tournament.pk]) == {}
