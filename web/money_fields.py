"""Money in forms and API answers: a form field for money typed in major units ("1 100", "1100", "1100,50"),
cleaned to minor units for the services and shown back in major units; and the API's `*_display` strings.
core/money.py holds the rule."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.money import MoneyParseError, format_major, format_money, parse_major

MAX_MINOR = 2_000_000_000  # the database's PositiveIntegerField on every backend
# The first rooms are Czech and Slovak: crowns in Prague, euros in Bratislava. A new tournament's currency
# follows its time zone unless given (the setup form's script does the same while the field is untouched).
DEFAULT_CURRENCY, CURRENCY_BY_ZONE = "CZK", {"Europe/Prague": "CZK", "Europe/Bratislava": "EUR"}


class MoneyField(forms.Field):
    """An amount in major units of `currency` (set by the form once it knows it); cleaned to minor units."""

    default_error_messages = {
        "invalid": _("Enter an amount such as 1100 or 1 100,50."),
        "negative": _("The amount cannot be negative."),
        "too_big": _("The amount is too large."),
    }

    def __init__(self, *, currency: str = "", **kwargs) -> None:
        self.currency = currency
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "class": "num", "autocomplete": "off"}))
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return format_major(value, self.currency)
        return value

    def to_python(self, value) -> int | None:
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            minor = parse_major(str(value), self.currency)
        except MoneyParseError:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        if minor < 0:
            raise ValidationError(self.error_messages["negative"], code="negative")
        if minor > MAX_MINOR:
            raise ValidationError(self.error_messages["too_big"], code="too_big")
        return minor

    def has_changed(self, initial, data) -> bool:
        try:
            return self.to_python(data) != (initial if initial not in self.empty_values else None)
        except ValidationError:
            return True


def _get(obj, path: str):
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else getattr(obj, part)
    return obj


@extend_schema_field(OpenApiTypes.STR)
class MoneyDisplayField(serializers.Field):
    """Read-only `*_display` next to an amount in minor units: the amount as people read it, in the
    request's language ("1 100 Kč", "CZK 1,100"); core/money.py holds the rule."""

    def __init__(self, amount: str, currency: str = "tournament.currency", **kwargs) -> None:
        self.amount_path, self.currency_path = amount, currency
        kwargs.setdefault("help_text", f'`{amount}` as people read it in the request\'s language: "1 100 Kč", "CZK 1,100".')
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, obj) -> str:
        return format_money(_get(obj, self.amount_path), _get(obj, self.currency_path), get_language())


def money_display(amount: int | None, currency: str) -> str:
    """The same, for answers built as dicts."""
    return format_money(amount, currency, get_language())
