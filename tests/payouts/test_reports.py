"""The reports of the money: the results as CSV and PDF (every finishing place, ties, who is paid, Czech and
Slovak names printed in an embedded font), and the cashier's reconciliation (takings, refunds, overlay,
prizes paid and owed, the cage) on a night with a re-entry, a void with a refund, an add-on and a re-buy
announced but not paid, before and after every prize is paid."""

from __future__ import annotations

import base64
import csv
import io
import re
import zlib
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from core.money import format_major
from core.pdf import FONT_PATHS
from payouts.models import Payment
from payouts.rules import cage
from payouts.selectors import reports
from payouts.selectors import structure as payouts_selectors
from payouts.selectors.reconciliation import reconciliation
from payouts.services import structure as payouts_services
from tables.models import Table
from tables.services import busts, draws, handforhand, hands
from tests.helpers import id_doc, open_tables
from tests.payouts.test_payments import signature
from tournament.models import Purchase, Tournament
from tournament.selectors import receipts as tournament_receipts
from tournament.services import purchases
from tournament.services import registration as tournament_services

NAMES = [
    ("Řehoř", "Šťastný"),
    ("Ľubomír", "Ďurčanský"),
    ("Jana", "Nováková"),
    ("Tomáš", "Dvořák"),
    ("Zuzana", "Horváthová"),
    ("Ondřej", "Kučera"),
    ("Šárka", "Žáková"),
    ("Štefan", "Maťašovský"),
    ("Dagmar", "Omylem"),
]


class Night:
    """Eight players of 100 + 15 EUR and a guarantee of 5,000 EUR; Štefan busts first and re-enters;
    Dagmar registers by mistake and gets her 100 EUR back (the fee kept); Řehoř takes an add-on (50 + 5),
    Ľubomír announces a re-buy and never pays it. Then places 9 to 5 go, Jana and Tomáš tie for 3-4 (their table reports
    the hand done) and registration closes: two players left."""

    def __init__(self, director, cashier, floor, t: Tournament):
        self.cashier, self.floor, self.t = cashier, floor, t
        Tournament.objects.filter(pk=t.pk).update(
            addon_allowed=True,
            addon_price=5000,
            addon_fee=500,
            addon_chips=10_000,
            rebuy_allowed=True,
            rebuy_price=10_000,
            rebuy_fee=1000,
            rebuy_chips=20_000,
        )
        t.refresh_from_db()
        open_tables(director, t, [1])
        self.players = [
            tournament_services.create_player(actor=cashier, first_name=first, last_name=last, date_of_birth=date(1985, 3, 1))
            for first, last in NAMES
        ]
        self.entries = [self.register(i) for i in range(8)]
        draws.draw_start(t, actor=director)
        payouts_services.set_payout_plan(t, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
        busts.bust_entry(self.entries[7], actor=floor)
        self.reentry = self.register(7)
        mistake = self.register(8)
        tournament_services.void_purchase(mistake.purchases.get(), actor=cashier, reason="Wrong tournament", refund_amount=10_000)
        purchases.add_chips(self.entries[0], actor=cashier, kind=Purchase.Kind.ADDON)
        purchases.add_chips(self.entries[1], actor=cashier, kind=Purchase.Kind.REBUY, paid=False)
        for entry in (self.entries[6], self.entries[5], self.entries[4], self.reentry):
            busts.bust_entry(entry, actor=floor)
        hands.start_hand(Table.objects.get(tournament=t, number=1), actor=floor)
        busts.bust_entry(self.entries[3], actor=floor, stack=5_000)
        busts.bust_entry(self.entries[2], actor=floor, stack=5_000)  # same hand, same stack: tied for 3-4
        handforhand.hand_done(Table.objects.get(tournament=t, number=1), actor=floor)  # the hand over: 3-4 final
        tournament_services.set_registration_closed(t, actor=director, closed=True)

    def register(self, i: int):
        return tournament_services.register_entry(self.t, actor=self.cashier, player=self.players[i], document=id_doc(f"CZ{i:07d}"))

    def pay(self, entry):
        i = next(i for i, p in enumerate(self.players) if p.pk == entry.player_id)
        return payouts_services.pay_prize(entry, actor=self.cashier, document=id_doc(f"CZ{i:07d}"), signature=signature())

    def end(self):
        """Ľubomír busts: Řehoř wins."""
        busts.bust_entry(self.entries[1], actor=self.floor)


@pytest.fixture
def night(director, cashier, floor, tournament):
    return Night(director, cashier, floor, tournament)


# --- the results as CSV and PDF --------------------------------------------------------------------


def rows_of(content: bytes) -> list[list[str]]:
    assert content.startswith(b"\xef\xbb\xbf")  # the byte order mark: a spreadsheet reads UTF-8
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def test_the_results_csv_lists_every_place_with_ties_prizes_and_who_is_paid(client, cashier, tournament, night):
    tie = sorted([night.entries[2].number, night.entries[3].number])
    paid = night.pay(night.entries[3])
    won = payouts_selectors.prizes_won(tournament)
    client.force_login(cashier)
    response = client.get(f"/t/{tournament.pk}/payouts/results/csv/")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="results-{tournament.pk}.csv"'
    header, *rows = rows_of(response.content)
    assert header == ["Place", "Entry number", "Player", "Prize", "Currency", "Paid", "Payout receipt"]
    assert [row[0] for row in rows] == ["3\u20134", "3\u20134", "5", "6", "7", "8", "9"]  # best first, ties by entry
    by_entry = {int(row[1]): row for row in rows}
    assert sorted(by_entry) == sorted(won)  # every finishing place, in the money or not
    third, fourth = by_entry[night.entries[3].number], by_entry[night.entries[2].number]
    assert third == [
        "3\u20134",
        str(night.entries[3].number),
        "Tomáš Dvořák",
        format_major(paid.amount, "EUR", fixed=True),
        "EUR",
        "yes",
        str(paid.number),
    ]
    assert fourth[2:] == ["Jana Nováková", format_major(won[night.entries[2].number], "EUR", fixed=True), "EUR", "no", ""]
    assert int(third[3].replace(".", "")) + int(fourth[3].replace(".", "")) > 0 and [int(r[1]) for r in rows[:2]] == tie
    assert by_entry[night.reentry.number][2:5] == [
        "Štefan Maťašovský",
        format_major(won[night.reentry.number], "EUR", fixed=True),
        "EUR",
    ]  # his re-entry made the money (five places paid)
    out = by_entry[night.entries[4].number]
    assert out[2:] == ["Zuzana Horváthová", "", "", "", ""]  # outside the money: no prize, nothing to pay
    assert by_entry[night.entries[7].number][0] == "9"  # his first entry: the first out of nine
    assert re.fullmatch(r"\d+\.\d\d", third[3])  # major units, a dot, whatever the language
    totals = reports.results_report(tournament)["totals"]
    assert (totals["prizes"], totals["paid"], totals["places_unpaid"]) == (sum(won.values()), paid.amount, 2)
    assert totals["in_play"] == 500_000 - sum(won.values())  # places 1 and 2 are still being played for


def test_the_results_csv_speaks_the_language_and_keeps_the_amounts_plain(client, floor, tournament, night):
    client.force_login(floor)
    header, *rows = rows_of(client.get(f"/t/{tournament.pk}/payouts/results/csv/", HTTP_ACCEPT_LANGUAGE="cs").content)
    assert header[:4] == ["Umístění", "Číslo vstupu", "Hráč", "Výhra"]
    assert re.fullmatch(r"\d+\.\d\d", rows[0][3])


def test_a_name_never_runs_as_a_spreadsheet_formula():
    text = reports.results_csv(
        [
            {"entry": 1, "name": '=HYPERLINK("http://x")', "place": 1, "place_low": 1, "prize": 110_000, "receipt": None},
            {"entry": 2, "name": "-Eva", "place": 2, "place_low": 3, "prize": 5, "receipt": 4},
        ],
        "CZK",
    )
    rows = list(csv.reader(io.StringIO(text.removeprefix(reports.BOM))))
    assert rows[1][2] == '\'=HYPERLINK("http://x")' and rows[2][2] == "'-Eva"
    assert rows[1][3:6] == ["1100.00", "CZK", "no"] and rows[2][:1] + rows[2][3:] == ["2\u20133", "0.05", "CZK", "yes", "4"]
    assert format_major(-250, "EUR", fixed=True) == "-2.50" and format_major(0, "EUR", fixed=True) == "0.00"


def test_the_results_csv_writes_each_currency_with_its_own_decimals():
    """A yen prize of 1,100 (no minor unit) is 1100, not 11.00; a Kuwaiti dinar has three decimals."""

    def prize_of(amount: int, currency: str) -> str:
        text = reports.results_csv([{"entry": 1, "name": "Eva", "place": 1, "place_low": 1, "prize": amount, "receipt": None}], currency)
        return list(csv.reader(io.StringIO(text.removeprefix(reports.BOM))))[1][3]

    assert prize_of(1100, "JPY") == "1100" and prize_of(1100, "CLP") == "1100"
    assert prize_of(1100, "KWD") == "1.100" and prize_of(110000, "CZK") == "1100.00"


def pdf_streams(pdf: bytes) -> bytes:
    """Every stream of a reportlab PDF, decoded (ASCII85 then Flate), joined: the page texts and the
    embedded font's ToUnicode map."""
    out = []
    for found in re.finditer(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", pdf, re.S):
        data, filters = found.group(2), found.group(1)
        if b"ASCII85Decode" in filters:
            data = (
                base64.a85decode(data.strip(), adobe=True)
                if data.strip().startswith(b"<~")
                else base64.a85decode(b"<~" + data.strip(), adobe=True)
            )
        if b"FlateDecode" in filters:
            data = zlib.decompress(data)
        out.append(data)
    return b"\n".join(out)


def test_the_results_pdf_embeds_dejavu_and_never_falls_back(client, cashier, tournament, night):
    assert FONT_PATHS[0].endswith("core/fonts/DejaVuSans.ttf")
    night.end()  # Řehoř wins, Ľubomír Ďurčanský second: every name is on the sheet
    night.pay(night.entries[3])
    client.force_login(cashier)
    response = client.get(f"/t/{tournament.pk}/payouts/results/pdf/")
    pdf = response.content
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF")
    assert re.search(rb"/BaseFont /[A-Z]{6}\+DejaVu", pdf) and b"/FontFile2" in pdf  # a subset, embedded
    assert b"Helvetica" not in pdf
    unicode_map = pdf_streams(pdf)
    for letter in "ŘřŠšťýĽĎŽ":  # every glyph of the names has its Unicode in the embedded subset
        assert f"<{ord(letter):04X}>".encode() in unicode_map.upper(), letter


def test_the_shipped_font_is_read_first_and_travels_with_the_code():
    from pathlib import Path

    shipped = Path(FONT_PATHS[0])
    assert shipped.is_file() and shipped.read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType file
    assert "Bitstream" in (shipped.parent / "LICENSE.txt").read_text()
    dockerfile = (Path(__file__).resolve().parents[2] / "Dockerfile").read_text()
    assert "COPY . ." in dockerfile  # the whole tree goes into the image, the font with it
    dockerignore = Path(__file__).resolve().parents[2] / ".dockerignore"
    assert not dockerignore.exists() or "font" not in dockerignore.read_text()


def synthetic(n: int) -> dict:
    rows = [
        {
            "entry": n - i,
            "name": "Řehoř Šťastný" if i % 2 else "Ľubomír Ďurčanský " * (i % 5),
            "place": i + 1,
            "place_low": i + 1,
            "prize": 10_000 if i < n // 3 else 0,
            "receipt": i if i % 4 == 0 else None,
        }
        for i in range(n)
    ]
    return {"rows": rows, "totals": reports.totals(rows)}


def test_a_large_field_runs_over_pages_with_the_totals_at_the_end():
    t = Tournament(
        name="Main Event", venue="Casino Praha", currency="CZK", time_zone="Europe/Prague", start_at=tournament_receipts.timezone.now()
    )
    report = synthetic(300)
    assert report["totals"] == {
        "prizes": 1_000_000,
        "paid": 250_000,
        "unpaid": 750_000,
        "places": 100,
        "places_paid": 25,
        "places_unpaid": 75,
        "in_play": 0,
    }
    pdf = reports.results_pdf(t, report)
    pages = len(re.findall(rb"/Type /Page\b", pdf))
    layout = reports.ResultsPdf(t, report).pages()
    assert pages == len(layout) >= 6
    assert layout[0][0] == 0 and layout[-1][1] == 300 and all(a[1] == b[0] for a, b in zip(layout, layout[1:], strict=False))
    text = pdf_streams(pdf)
    assert text.count(b"Page ") >= pages  # page numbers on every page (the page text is in glyph codes otherwise)
    one = reports.results_pdf(t, synthetic(1))
    assert len(re.findall(rb"/Type /Page\b", one)) == 1


# --- the reconciliation ----------------------------------------------------------------------------


def test_the_takings_by_kind_count_the_paid_the_announced_and_the_refunds(tournament, night):
    r = reconciliation(tournament)
    kinds = {row["kind"]: row for row in r["takings"]}
    assert kinds["buy_in"] == {
        "kind": "buy_in",
        "count": 8,
        "amount": 80_000,
        "bounty": 0,
        "fee": 12_000,
        "total": 92_000,
        "tickets": 0,
        "tickets_amount": 0,
        "tickets_fee": 0,
        "tickets_total": 0,
        "cash_taken": 92_000,
        "announced": 0,
        "announced_total": 0,
        "voided": 1,
        "voided_taken": 11_500,
        "refunded": 10_000,
        "kept": 1_500,
    }
    assert (kinds["reentry"]["count"], kinds["reentry"]["total"]) == (1, 11_500)
    assert (kinds["addon"]["count"], kinds["addon"]["amount"], kinds["addon"]["fee"]) == (1, 5_000, 500)
    assert (kinds["rebuy"]["count"], kinds["rebuy"]["announced"], kinds["rebuy"]["announced_total"]) == (0, 1, 11_000)
    assert r["takings_total"]["total"] == 109_000 and r["takings_total"]["announced"] == 1
    assert (r["collected"], r["fees"], r["kept_on_voids"], r["refunded"]) == (95_000, 14_000, 1_500, 10_000)
    assert r["cash_in"] == 95_000 + 14_000 + 11_500 - 10_000 == 110_500  # the announced re-buy is no cash
    assert (r["guarantee"], r["pool"], r["overlay"]) == (500_000, 500_000, 405_000)
    payout = payouts_selectors.payout_state(tournament)
    assert r["pool"] == payout["pool"] and r["collected"] + r["takings_total"]["fee"] == r["takings_total"]["total"]
    assert (r["house_keeps"], r["house_result"]) == (15_500, 15_500 - 405_000)


def test_the_books_balance_before_and_after_every_prize_is_paid(tournament, night):
    before = reconciliation(tournament)
    won = payouts_selectors.prizes_won(tournament)
    in_the_money = {entry: prize for entry, prize in won.items() if prize}
    assert sorted(in_the_money) == sorted([night.entries[2].number, night.entries[3].number, night.reentry.number])
    assert before["prizes_paid"] == 0 and before["cage"] == before["cash_in"] == 110_500
    assert before["prizes_unpaid"] == sum(in_the_money.values()) and before["places_unpaid"] == 3
    assert before["prizes_in_play"] == 500_000 - sum(in_the_money.values()) and before["prizes_owed"] == 500_000
    assert before["balance"] == 0 and before["mismatches"] == []

    first = night.pay(night.entries[3])
    with CaptureQueriesContext(connection) as some_paid:
        middle = reconciliation(tournament)
    assert (middle["prizes_paid"], middle["payments"], middle["places_unpaid"]) == (first.amount, 1, 2)
    assert middle["unpaid_entries"] == sorted([night.entries[2].number, night.reentry.number])
    assert middle["cage"] == 110_500 - first.amount and middle["balance"] == 0
    # What the cage should hold: the house's part (less the overlay it owes) and the players' money.
    assert middle["cage"] == middle["house_result"] + middle["prizes_owed"]

    night.end()
    for entry in (night.entries[2], night.reentry, night.entries[1], night.entries[0]):
        night.pay(entry)
    with CaptureQueriesContext(connection) as all_paid:
        after = reconciliation(tournament)
    assert after["prizes_paid"] == 500_000 and after["prizes_owed"] == 0 and after["places_unpaid"] == 0
    assert after["prizes_in_play"] == 0 and after["balance"] == 0
    assert after["cage"] == after["house_result"] == 110_500 - 500_000  # the house paid the overlay from its own cash
    assert after["cash_in"] + after["overlay"] - after["house_keeps"] - after["prizes_paid"] - after["prizes_owed"] == after["balance"] == 0
    # Aggregate reads: as many queries for 1 payout as for 5 (17: a satellite? and the event it is a part of, if any;
    # players waiting on its list, whether its room's set of tables is fixed, and the buy-ins held for its waiting list).
    assert len(all_paid) == len(some_paid) <= 17


def test_a_payout_that_no_longer_matches_its_prize_shows_in_the_balance(tournament, night):
    payment = night.pay(night.entries[3])
    Payment.objects.filter(pk=payment.pk).update(amount=payment.amount - 700)  # as if the prizes moved after it
    r = reconciliation(tournament)
    assert r["balance"] == 700 and r["mismatches"] == [
        {"entry": night.entries[3].number, "paid": payment.amount - 700, "prize": payment.amount}
    ]
    assert r["cage"] == r["house_result"] + r["prizes_owed"] + r["balance"]


@given(
    collected=st.integers(0, 10**9),
    fees=st.integers(0, 10**8),
    voided=st.integers(0, 10**7),
    refund_share=st.fractions(0, 1),
    overlay=st.integers(0, 10**9),
    prizes=st.lists(st.integers(0, 10**7), max_size=30),
    paid_mask=st.lists(st.booleans(), max_size=30),
    drift=st.integers(-1000, 1000),
)
def test_the_closing_identity_holds_for_any_night(collected, fees, voided, refund_share, overlay, prizes, paid_mask, drift):
    refunded = int(voided * refund_share)
    pool = max(collected + overlay, sum(prizes))
    won = {entry: prize for entry, prize in enumerate(prizes, 1)}
    paid = {entry: prize for (entry, prize), pay in zip(won.items(), paid_mask, strict=False) if pay and prize}
    c = cage.close(collected=collected, fees=fees, voided_taken=voided, refunded=refunded, pool=pool, won=won, paid=paid)
    assert c.balance == 0 and c.cage == c.house_result + c.prizes_owed
    assert c.cash_in + c.overlay == c.house_keeps + c.prizes_paid + c.prizes_owed
    if paid:
        entry = next(iter(paid))
        off = cage.close(
            collected=collected,
            fees=fees,
            voided_taken=voided,
            refunded=refunded,
            pool=pool,
            won=won,
            paid={**paid, entry: max(paid[entry] + drift, 0)},
        )
        assert off.balance == won[entry] - max(paid[entry] + drift, 0) == -sum(m.paid - m.prize for m in off.mismatches)


def test_the_closing_refuses_figures_that_cannot_be():
    with pytest.raises(ValueError):
        cage.close(collected=10, fees=0, voided_taken=5, refunded=6, pool=10, won={}, paid={})
    with pytest.raises(ValueError):
        cage.close(collected=10, fees=0, voided_taken=0, refunded=0, pool=9, won={}, paid={})
    with pytest.raises(ValueError):
        cage.close(collected=10.5, fees=0, voided_taken=0, refunded=0, pool=11, won={}, paid={})


# --- the screens and the API -----------------------------------------------------------------------


def test_the_reconciliation_page_is_the_cashier_s_and_the_director_s(client, director, cashier, floor, dealer, tournament, night):
    night.pay(night.entries[3])
    url = f"/t/{tournament.pk}/payouts/reconciliation/"
    r = reconciliation(tournament)
    from web.templatetags.money import money

    for who in (director, cashier):
        client.force_login(who)
        page = client.get(url)
        html = page.content.decode()
        assert page.status_code == 200 and 'id="rec-takings"' in html
        for figure in ("cage", "prizes_owed", "overlay", "cash_in", "prizes_paid"):
            assert money(r[figure], "EUR") in html, figure
        assert 'id="rec-announced"' in html and "Re-entry" in html and 'id="rec-mismatches"' not in html
        assert f'href="/t/{tournament.pk}/payouts/pay/{night.entries[2].number}/"' in html  # the place still to pay
    for who in (floor, dealer):
        client.force_login(who)
        assert client.get(url).status_code == 403
    client.force_login(cashier)
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    with translation.override("cs"):
        assert money(r["cage"], "EUR") in czech and "Výherní fond" in czech
    answer = client.get(f"/api/tournaments/{tournament.pk}/reconciliation/", HTTP_ACCEPT_LANGUAGE="cs").json()
    with translation.override("cs"):
        assert answer["cage_display"] == money(r["cage"], "EUR") and answer["balance_display"] == money(r["balance"], "EUR")


def test_the_downloads_are_the_desk_s_and_the_floor_s_and_linked_from_the_payouts_page(client, cashier, floor, dealer, tournament, night):
    base = f"/t/{tournament.pk}/payouts/"
    client.force_login(cashier)
    page = client.get(base).content.decode()
    assert f'href="{base}results/csv/"' in page and f'href="{base}results/pdf/"' in page
    assert f'href="{base}reconciliation/"' in page
    client.force_login(floor)
    page = client.get(base).content.decode()
    assert f'href="{base}results/csv/"' in page and f'href="{base}reconciliation/"' not in page
    assert client.get(f"{base}results/csv/").status_code == 200 and client.get(f"{base}results/pdf/").status_code == 200
    client.force_login(dealer)
    assert f"{base}results/csv/" not in client.get(base).content.decode()
    for path in ("results/csv/", "results/pdf/", "reconciliation/"):
        assert client.get(f"{base}{path}").status_code == 403
    client.logout()
    assert client.get(f"{base}results/csv/").status_code == 302  # log in first


def test_the_api_gives_the_reconciliation_to_the_cashier_and_the_director(client, director, cashier, floor, dealer, tournament, night):
    url = f"/api/tournaments/{tournament.pk}/reconciliation/"
    night.pay(night.entries[3])
    for who in (cashier, director):
        client.force_login(who)
        answer = client.get(url)
        figures = {k: v for k, v in answer.json().items() if not k.endswith("_display")}
        assert answer.status_code == 200 and figures == reconciliation(tournament)
    body = answer.json()
    assert body["balance"] == 0 and body["currency"] == "EUR" and body["payments"] == 1
    assert [row["kind"] for row in body["takings"]] == ["buy_in", "reentry", "rebuy", "addon"]
    for who in (floor, dealer):
        client.force_login(who)
        assert client.get(url).status_code == 403
    client.force_login(cashier)
    assert client.get(f"/api/tournaments/{tournament.pk + 999}/reconciliation/").status_code == 404


def test_the_reconciliation_of_a_tournament_with_nothing_yet(tournament):
    r = reconciliation(tournament)
    assert r["cash_in"] == r["prizes_paid"] == r["cage"] == r["balance"] == 0
    assert r["overlay"] == r["pool"] == r["prizes_owed"] == tournament.guaranteed_pool
    assert reports.results_report(tournament) == {"rows": [], "totals": reports.totals([], pool=500_000)}
    assert reports.totals([], pool=500_000)["in_play"] == 500_000  # the guarantee, all still to play for
    assert reports.results_pdf(tournament).startswith(b"%PDF")
