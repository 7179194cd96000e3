"""Money as people read it, the one rule for every screen, receipt, PDF and API display field.

Amounts are stored in minor units (haléře, cents). They are shown in major units with the currency's
decimals only when the amount is not whole ("1 100 Kč", "1 100,50 €"), in the language's way of writing
them: Czech and Slovak (and Polish and Hungarian) put the symbol after the amount and group thousands with a no-break
space, German with a point ("1.100 Kč");
English puts the ISO code first and groups with commas ("CZK 1,100", "EUR 1,100.50"). A figure never
breaks over two lines: a no-break space joins the currency to the digits, and a negative amount takes
the minus sign U+2212 ("−CZK 31,000"), which no line may break after, unlike the hyphen "-".
A currency's decimals are its ISO 4217 minor units (the `iso4217` package's table; 2 for a code it does
not know). static/js/util.js (Util.money, Util.parseMoney) follows the same rule, with the decimals the page carries from
here (the `currency_decimals` tag); tests/browser/test_money.py holds both to the same text.

Plain Python, no Django: callers pass the language (django.utils.translation.get_language()).
"""

from __future__ import annotations

import re

from iso4217 import Currency

NBSP = "\u00a0"
MINUS = "\u2212"  # the minus sign: a line never breaks between it and the figure

# ISO 4217 minor units of the currencies that differ from the usual 2 (none for gold and the like: 0).
DECIMALS = {c.code: c.exponent or 0 for c in Currency if c.exponent != 2}
SYMBOLS = {"CZK": "Kč", "EUR": "€"}  # Czech and Slovak write these after the amount


# language -> (thousands separator, decimal separator, symbol after the amount)
STYLES = {
    "cs": (NBSP, ",", True),
    "sk": (NBSP, ",", True),
    "en": (",", ".", False),
    # the players' languages (their screens only): the amount first and the symbol after, as those countries write it
    "de": (".", ",", True),
    "pl": (NBSP, ",", True),
    "hu": (NBSP, ",", True),
}


def decimals(currency: str) -> int:
    return DECIMALS.get((currency or "").upper(), 2)


def _style(language: str | None) -> tuple[str, str, bool]:
    return STYLES.get((language or "en")[:2].lower(), STYLES["en"])


def _group(digits: str, separator: str) -> str:
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return separator.join(parts)


def format_number(amount: int, currency: str, language: str | None) -> str:
    """Minor units -> major units without the currency: "1 100", "1 100,50", "1,100.50"."""
    thousands, point, _after = _style(language)
    places = decimals(currency)
    whole, minor = divmod(abs(int(amount)), 10**places)
    text = _group(str(whole), thousands)
    if minor:
        text += point + str(minor).zfill(places)
    return (MINUS if amount < 0 else "") + text


def format_money(amount: int | None, currency: str, language: str | None) -> str:
    """Minor units -> "1 100 Kč" (cs, sk), "CZK 1,100" (en); "" for no amount."""
    if amount is None or amount == "":
        return ""
    amount = int(amount)
    currency = (currency or "").upper()
    number = format_number(abs(amount), currency, language)
    sign = MINUS if amount < 0 else ""
    if not currency:
        return sign + number
    if _style(language)[2]:
        return f"{sign}{number}{NBSP}{SYMBOLS.get(currency, currency)}"
    return f"{sign}{currency}{NBSP}{number}"


def format_major(amount: int | None, currency: str, fixed: bool = False) -> str:
    """Minor units -> the major-unit number a form shows back, plain and unambiguous: "1100", "1100.5";
    `fixed`: with all the currency's decimals, as a spreadsheet column has them ("1100.50", "1100.00", "1100" in yen)."""
    if amount is None or amount == "":
        return ""
    places = decimals(currency)
    amount = int(amount)
    whole, minor = divmod(abs(amount), 10**places)
    fraction = str(minor).zfill(places) if places else ""
    if not fixed:
        fraction = fraction.rstrip("0")
    return ("-" if amount < 0 else "") + str(whole) + ("." + fraction if fraction else "")


_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']")
_AMOUNT = re.compile(r"^(\d{1,3}(?:([.,])\d{3})*|\d+)(?:([.,])(\d+))?$")


class MoneyParseError(ValueError):
    pass


def parse_major(text: str, currency: str) -> int:
    """What a person typed in major units -> minor units: "1 100", "1100", "1100,50", "1,100.50", "1.100".

    Spaces (also no-break) group digits. A separator followed by exactly three digits groups them when
    it repeats or when the other separator marks the decimals; otherwise the last "," or "." marks the
    decimals. Raises MoneyParseError for anything else or more decimals than the currency has."""
    places = decimals(currency)
    raw = _SPACES.sub("", str(text or ""))
    for symbol in (currency or "", SYMBOLS.get((currency or "").upper(), "")):
        if symbol:
            raw = raw.replace(symbol, "").replace(symbol.lower(), "")
    negative = raw.startswith(("-", MINUS))
    raw = raw[1:] if negative else raw
    match = _AMOUNT.match(raw)
    if not match:
        raise MoneyParseError(raw)
    whole, grouping, point, fraction = match.groups()
    if grouping and point == grouping:
        raise MoneyParseError(raw)  # "1,100,5": a separator both groups and marks decimals
    if point is None and grouping and whole.count(grouping) == 1 and places == 3:
        raise MoneyParseError(raw)  # "1.100" in a three-decimal currency: ambiguous
    whole_digits = whole.replace(",", "").replace(".", "")
    fraction = fraction or ""
    if len(fraction) > places:
        raise MoneyParseError(raw)
    value = int(whole_digits) * 10**places + int(fraction.ljust(places, "0") or 0)
    return -value if negative else value
