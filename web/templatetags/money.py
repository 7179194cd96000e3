"""Money as people read it: amounts are stored in minor units (haléře, cents) and shown in major units,
grouped the way the page's language groups numbers: "1 100 Kč" in Czech, "CZK 1,100" in English.

    {% load money %}{{ prize|money:t.currency }}
"""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.html import json_script
from django.utils.translation import get_language

from core.money import DECIMALS, MINUS, format_money

register = template.Library()


@register.filter
def money(amount, currency: str = "") -> str:
    """Minor units -> the amount in major units, with cents only when there are any (core/money.py)."""
    return format_money(amount, currency, get_language())


@register.simple_tag
def currency_decimals():
    """The ISO 4217 decimals of the currencies that have other than 2, as a JSON data block the page's
    scripts read (Live.money): the browser writes money by the server's rule."""
    return json_script(DECIMALS, "currency-decimals")


@register.filter
def grouped(number) -> str:
    """A count (chips, players) grouped the way the page's language groups numbers: 200 000, 200,000; a
    negative one with the minus sign, as money (core/money.py): no line breaks after it."""
    if number is None or number == "":
        return ""
    number = int(number)
    grouped = number_format(abs(number), decimal_pos=0, use_l10n=True, force_grouping=True)
    return MINUS + grouped if number < 0 else grouped


@register.filter
def get_item(mapping, key):
    """{{ payments|get_item:entry }}: a dict's value in a template (None when missing)."""
    return mapping.get(key) if hasattr(mapping, "get") else None
