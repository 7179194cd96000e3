"""Live.money (static/js/live.js), the lobby TV's and the live pages' formatter, gives the very text of the
server's rule (core/money.py) for the same language: one rule, in Python and in the browser."""
from pathlib import Path

import pytest

from core.money import format_money

LIVE_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "live.js"
AMOUNTS = [0, 1, 99, 100, 110000, 110050, 110005, -250, -110000, 1234567800, 99999999999, 100000000000]
CURRENCIES = ["CZK", "EUR", "USD", "JPY", ""]


@pytest.mark.parametrize("lang", ["cs", "sk", "en-gb"])
def test_the_browser_writes_money_as_the_server_does(browser, lang):
    page = browser.new_page()
    try:
        page.set_content(f'<!doctype html><html lang="{lang}"><head></head><body></body></html>')
        page.add_script_tag(content=LIVE_JS.read_text(encoding="utf-8"))
        cases = [[a, c] for a in AMOUNTS for c in CURRENCIES]
        shown = page.evaluate("cases => cases.map(c => Live.money(c[0], c[1]))", cases)
        assert shown == [format_money(a, c, lang) for a, c in cases]
        assert page.evaluate("Live.money(110000, 'CZK')") == ("CZK\u00a01,100" if lang == "en-gb" else "1\u00a0100\u00a0Kč")
        assert page.evaluate("Live.money(null, 'CZK')") == ""
    finally:
        page.close()
