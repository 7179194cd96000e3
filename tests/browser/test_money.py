"""Util.money (static/js/util.js), the lobby TV's and the live pages' formatter, gives the very text of the
server's rule (core/money.py) for the same language: one rule, in Python and in the browser."""

from pathlib import Path

import pytest

from core.money import MoneyParseError, format_money, parse_major
from web.templatetags.money import currency_decimals

UTIL_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "util.js"
AMOUNTS = [0, 1, 99, 100, 110000, 110050, 110005, -250, -110000, 1234567800, 99999999999, 100000000000]
CURRENCIES = ["CZK", "EUR", "USD", "JPY", "CLP", "KWD", "CLF", ""]


def load_util(page) -> None:
    """util.js is an ES module: run it as one, and hand what it exports to the page for evaluate()."""
    page.add_script_tag(content=UTIL_JS.read_text(encoding="utf-8") + "\nwindow.Util = {money, parseMoney};\n", type="module")
    page.wait_for_function("window.Util !== undefined")


@pytest.mark.parametrize("lang", ["cs", "sk", "en-gb", "de", "pl", "hu"])
def test_the_browser_writes_money_as_the_server_does(browser, lang):
    page = browser.new_page()
    try:
        block = currency_decimals()  # what base.html gives every page
        page.set_content(f'<!doctype html><html lang="{lang}"><head>{block}</head><body></body></html>')
        load_util(page)
        cases = [[a, c] for a in AMOUNTS for c in CURRENCIES]
        shown = page.evaluate("cases => cases.map(c => Util.money(c[0], c[1]))", cases)
        assert shown == [format_money(a, c, lang) for a, c in cases]
        expected = {"en-gb": "CZK\u00a01,100", "de": "1.100\u00a0Kč"}.get(lang, "1\u00a0100\u00a0Kč")
        assert page.evaluate("Util.money(110000, 'CZK')") == expected
        assert page.evaluate("Util.money(null, 'CZK')") == ""
    finally:
        page.close()


TYPED = [
    "1100",
    "1 100",
    "1\u00a0100",
    "1100,50",
    "1100.5",
    "1,100",
    "1.100",
    "1,100.50",
    "1.100,50",
    "12 345 678",
    "0",
    "0,99",
    " 25 ",
    "1 100 Kč",
    "1100 CZK",
    "-5",
    "\u2212CZK\u00a031,000",
    "",
    "abc",
    "1,100,50",
    "1.5.5",
    "1,1000",
    "--5",
    "1e5",
    "1100,5",
    "1,105",
    "1.1055",
]


def test_the_browser_reads_typed_money_as_the_server_does(browser):
    """The setup form's preview (Util.parseMoney) reads what is typed as core/money.py's parse_major does,
    with each currency's decimals: the same number, or nothing where the server refuses."""

    def server(text: str, currency: str):
        try:
            return parse_major(text, currency)
        except MoneyParseError:
            return None

    page = browser.new_page()
    try:
        page.set_content(f'<!doctype html><html lang="cs"><head>{currency_decimals()}</head><body></body></html>')
        load_util(page)
        cases = [[text, currency] for text in TYPED for currency in ("CZK", "EUR", "JPY", "KWD")]
        read = page.evaluate("cases => cases.map(c => Util.parseMoney(c[0], c[1]))", cases)
        assert dict(zip(map(tuple, cases), read, strict=True)) == {(t, c): server(t, c) for t, c in cases}
    finally:
        page.close()
