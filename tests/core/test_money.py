"""The one rule for money as people read it (core/money.py): minor units in, major units out, the way
Czech, Slovak and English write amounts; and what people type in major units back to minor units."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.money import DECIMALS, MoneyParseError, format_major, format_money, format_number, parse_major

NB = "\u00a0"
MINUS = "\u2212"  # the minus sign: no line breaks after it, as after a hyphen


@pytest.mark.parametrize(
    ("amount", "currency", "language", "text"),
    [
        (110000, "CZK", "cs", f"1{NB}100{NB}Kč"),
        (110000, "CZK", "sk", f"1{NB}100{NB}Kč"),
        (110000, "CZK", "en-gb", f"CZK{NB}1,100"),
        (110050, "EUR", "sk", f"1{NB}100,50{NB}€"),
        (110050, "EUR", "cs", f"1{NB}100,50{NB}€"),
        (110050, "EUR", "en-gb", f"EUR{NB}1,100.50"),
        (110005, "EUR", "en", f"EUR{NB}1,100.05"),
        (110000, "EUR", "sk", f"1{NB}100{NB}€"),  # whole: no ",00"
        (0, "CZK", "cs", f"0{NB}Kč"),
        (0, "EUR", "en-gb", f"EUR{NB}0"),
        (-250, "EUR", "en-gb", f"{MINUS}EUR{NB}2.50"),
        (-110000, "CZK", "cs", f"{MINUS}1{NB}100{NB}Kč"),
        (1234567800, "CZK", "cs", f"12{NB}345{NB}678{NB}Kč"),
        (1234567800, "CZK", "en-gb", f"CZK{NB}12,345,678"),
        (99, "EUR", "cs", f"0,99{NB}€"),
        (100000, "USD", "cs", f"1{NB}000{NB}USD"),  # no symbol known: the code
        (100000, "HUF", "en-gb", f"HUF{NB}1,000"),
        (1000, "JPY", "en-gb", f"JPY{NB}1,000"),  # no minor unit
        (1000, "CLP", "cs", f"1{NB}000{NB}CLP"),  # no minor unit (ISO 4217), as every currency of the table
        (1000, "XOF", "en-gb", f"XOF{NB}1,000"),
        (1100, "KWD", "en-gb", f"KWD{NB}1.100"),  # three decimals
        (1105, "TND", "cs", f"1,105{NB}TND"),
        (110000, "CZK", None, f"CZK{NB}1,100"),  # no language: English
        (110000, "CZK", "fr", f"CZK{NB}1,100"),  # a language without its own style: English
        (110050, "CZK", "de", f"1.100,50{NB}Kč"),  # the players' languages: German groups with a point
        (110000, "EUR", "pl", f"1{NB}100{NB}€"),
    ],
)
def test_amounts_read_in_major_units_the_way_the_language_writes_them(amount, currency, language, text):
    assert format_money(amount, currency, language) == text


def test_each_currency_has_its_iso_4217_decimals():
    assert {code: DECIMALS[code] for code in ("JPY", "KRW", "ISK", "CLP", "VND", "BHD", "KWD", "CLF")} == {
        "JPY": 0,
        "KRW": 0,
        "ISK": 0,
        "CLP": 0,
        "VND": 0,
        "BHD": 3,
        "KWD": 3,
        "CLF": 4,
    }
    assert "CZK" not in DECIMALS and "EUR" not in DECIMALS and "HUF" not in DECIMALS  # two, as most
    assert parse_major("1100", "JPY") == 1100 and format_major(1100, "JPY") == "1100"
    with pytest.raises(MoneyParseError):
        parse_major("1100,5", "JPY")  # a yen has no fraction


def test_no_amount_is_no_text_and_no_currency_is_the_number_alone():
    assert format_money(None, "CZK", "cs") == "" and format_money("", "CZK", "cs") == ""
    assert format_money(123456, "", "cs") == f"1{NB}234,56"
    assert format_number(100, "CZK", "cs") == "1"


@pytest.mark.parametrize(
    ("typed", "minor"),
    [
        ("1100", 110000),
        ("1 100", 110000),
        (f"1{NB}100", 110000),
        ("1100,50", 110050),
        ("1100.5", 110050),
        ("1,100", 110000),
        ("1.100", 110000),
        ("1,100.50", 110050),
        ("1.100,50", 110050),
        ("12 345 678", 1234567800),
        ("0", 0),
        ("0,99", 99),
        (" 25 ", 2500),
        ("1 100 Kč", 110000),
        ("1100 CZK", 110000),
        ("-5", -500),
        (f"{MINUS}CZK{NB}31,000", -3100000),
    ],
)
def test_major_units_typed_become_minor_units(typed, minor):
    assert parse_major(typed, "CZK") == minor


@pytest.mark.parametrize("typed", ["", "abc", "1,100,50", "1.5.5", "1,1000", "1 1 0 0x", "--5", f"{MINUS}-5", "1e5"])
def test_what_is_not_an_amount_is_refused(typed):
    with pytest.raises(MoneyParseError):
        parse_major(typed, "CZK")


@given(st.integers(min_value=-(10**12), max_value=10**12), st.sampled_from(["cs", "sk", "en-gb"]), st.sampled_from(["CZK", "EUR"]))
def test_what_is_shown_reads_back_to_the_same_amount(amount, language, currency):
    assert parse_major(format_major(amount, currency), currency) == amount
    assert parse_major(format_number(amount, currency, language), currency) == amount
    assert parse_major(format_money(amount, currency, language), currency) == amount
