"""Money as people read it: amounts are stored in minor units (haléře, cents) and shown in major units,
grouped the way the page's language groups numbers: "1 100 Kč" in Czech, "CZK 1,100" in English.

    {% load money %}{{ prize|money:t.currency }}
"""
from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import get_language

register = template.Library()

SYMBOLS = {"CZK": "Kč", "EUR": "€"}  # written after the amount in Czech and Slovak
AFTER_THE_AMOUNT = ("cs", "sk")


@register.filter
def money(amount, currency: str = "") -> str:
    """Minor units -> the amount in major units, with cents only when there are any."""
    if amount is None or amount == "":
        return ""
    amount = int(amount)
    whole, cents = divmod(abs(amount), 100)
    value = number_format(abs(amount) / 100 if cents else whole, decimal_pos=2 if cents else 0, use_l10n=True,
                          force_grouping=True)
    sign = "-" if amount < 0 else ""
    if (get_language() or "en")[:2] in AFTER_THE_AMOUNT:
        return f"{sign}{value}\u00a0{SYMBOLS.get(currency, currency)}".strip()
    return f"{sign}{currency}\u00a0{value}".strip() if currency else f"{sign}{value}"


@register.filter
def grouped(number) -> str:
    """A count (chips, players) grouped the way the page's language groups numbers: 200 000, 200,000."""
    if number is None or number == "":
        return ""
    return number_format(int(number), decimal_pos=0, use_l10n=True, force_grouping=True)


@register.filter
def get_item(mapping, key):
    """{{ payments|get_item:entry }}: a dict's value in a template (None when missing)."""
    return mapping.get(key) if hasattr(mapping, "get") else None
