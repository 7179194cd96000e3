"""Forms of the director's setup screens: the structure editor, import, copy and tournament settings.

The pages only render these forms; their scripts send them to the JSON API (web/tournament/api.py), whose
serializers and services say what is wrong.
"""

from __future__ import annotations

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Level, Structure, Tournament, time_zones
from tournament.rules import structure as rules
from tournament.services.setup import TOURNAMENT_FIELDS
from web.money_fields import CURRENCY_BY_ZONE, DEFAULT_CURRENCY, MoneyField

NUMBER = {"inputmode": "numeric", "class": "num"}
MAX_CHIPS = 2_000_000_000
MAX_MINUTES = 999

# --- structure editor --------------------------------------------------------------------


class RowFormSet(forms.BaseFormSet):
    """Rows of a table: the column header is the visible label, so each input gets it as aria-label."""

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        for field in form.fields.values():
            field.widget.attrs.setdefault("aria-label", field.label)


class StructureNameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))


class ChipForm(forms.Form):
    """One chip of the chip set. A row with neither value nor colour is ignored."""

    value = forms.IntegerField(label=_("Value"), min_value=1, max_value=MAX_CHIPS, required=False, widget=forms.NumberInput(attrs=NUMBER))
    colour = forms.CharField(
        label=_("Colour"), max_length=40, required=False, widget=forms.TextInput(attrs={"autocomplete": "off", "class": "colour"})
    )


# Short labels: the editor is a wide table.
ANTE_TYPES = [("none", _("None")), ("ante", _("Ante")), ("bba", _("BB ante"))]


class LevelRowForm(forms.Form):
    """One row of the structure: a level or a break, in the order of the rows.

    Empty numbers are zero; the structure rules then say what is wrong (a level of 0 minutes,
    blinds of zero), with the row and level number, so the form does not repeat those checks.
    """

    kind = forms.ChoiceField(label=_("Kind"), choices=Level.Kind.choices, initial=rules.LEVEL, widget=forms.Select(attrs={"class": "kind"}))
    small_blind = forms.IntegerField(
        label=_("Small blind"),
        min_value=0,
        max_value=MAX_CHIPS,
        required=False,
        widget=forms.NumberInput(attrs={**NUMBER, "class": "num blind"}),
    )
    big_blind = forms.IntegerField(
        label=_("Big blind"),
        min_value=0,
        max_value=MAX_CHIPS,
        required=False,
        widget=forms.NumberInput(attrs={**NUMBER, "class": "num blind"}),
    )
    ante = forms.IntegerField(
        label=_("Ante"), min_value=0, max_value=MAX_CHIPS, required=False, widget=forms.NumberInput(attrs={**NUMBER, "class": "num blind"})
    )
    ante_type = forms.ChoiceField(label=_("Ante type"), choices=ANTE_TYPES, initial="none", widget=forms.Select(attrs={"class": "blind"}))
    minutes = forms.IntegerField(
        label=_("Minutes"), min_value=0, max_value=MAX_MINUTES, required=False, widget=forms.NumberInput(attrs=NUMBER)
    )
    color_up = forms.CharField(
        label=_("Color-up"),
        max_length=200,
        required=False,
        help_text=_("At a break: the chip values taken out, for example 25 or 25, 100."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "class": "colorup", "placeholder": _("e.g. 25, 100")}),
    )

    TEXT_FIELDS = ("small_blind", "big_blind", "ante", "minutes", "color_up")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.row_number: int | None = None
        self.level_number: int | None = None

    def looks_blank(self) -> bool:
        """Blank as typed (also for rows with errors): no numbers and the kind left at 'level'."""
        if self["kind"].value() not in (None, "", rules.LEVEL):
            return False
        return all(str(self[f].value() or "").strip() == "" for f in self.TEXT_FIELDS)


def _deleted(form: forms.Form) -> bool:
    return bool(form["DELETE"].value())


class StructureEditor:
    """The name, the chip set and the rows of a structure: one form and two formsets."""

    def __init__(self, spec: rules.StructureSpec | None = None, chip_rows: int = 3, level_rows: int = 3) -> None:
        chips = levels = ()
        if spec is not None:
            chips = [{"value": v, "colour": c} for v, c in sorted(spec.denominations)]
            levels = [
                {"kind": lv.kind, "minutes": lv.minutes, "color_up": ", ".join(str(v) for v in lv.color_up)}
                if lv.kind == rules.BREAK
                else {
                    "kind": lv.kind,
                    "minutes": lv.minutes,
                    "small_blind": lv.small_blind,
                    "big_blind": lv.big_blind,
                    "ante": lv.ante or None,
                    "ante_type": lv.ante_type,
                }
                for lv in spec.levels
            ]
        chip_set = forms.formset_factory(ChipForm, RowFormSet, extra=chip_rows, can_delete=True, max_num=100, absolute_max=100)
        level_set = forms.formset_factory(LevelRowForm, RowFormSet, extra=level_rows, can_delete=True, max_num=500, absolute_max=500)
        self.head = StructureNameForm(initial={"name": spec.name} if spec else None)
        self.chips = chip_set(initial=list(chips), prefix="chips")
        self.levels = level_set(initial=list(levels), prefix="levels")
        self.number_rows()

    def number_rows(self) -> None:
        """Row and level numbers as the rules count them: deleted and empty rows do not count."""
        row = level = 0
        for form in self.levels.forms:
            if _deleted(form) or form.looks_blank():
                continue
            row += 1
            form.row_number = row
            if form["kind"].value() != rules.BREAK:
                level += 1
                form.level_number = level


# --- import and copy ---------------------------------------------------------------------


class ImportForm(forms.Form):
    """The import page's two fields; the API reads and checks what they send (structure_serializers.StructureUploadSerializer)."""

    file = forms.FileField(
        label=_("Structure file (.json)"), required=False, widget=forms.FileInput(attrs={"accept": ".json,application/json"})
    )
    text = forms.CharField(
        label=_("Or paste the JSON"), required=False, widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "code"})
    )


def offer_templates(form: forms.Form) -> None:
    """Fill the form's template choice with the structure templates; preselect the only one."""
    templates = Structure.objects.filter(is_template=True)
    form.fields["template"].queryset = templates
    if not form.is_bound and "template" not in form.initial:
        only = list(templates.values_list("pk", flat=True)[:2])
        if len(only) == 1:
            form.initial["template"] = only[0]


class CopyForm(forms.Form):
    name = forms.CharField(label=_("Name of the copy"), max_length=120, widget=forms.TextInput(attrs={"autocomplete": "off"}))


class TemplateChoiceForm(forms.Form):
    template = forms.ModelChoiceField(label=_("Template"), queryset=Structure.objects.none(), empty_label=None)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        offer_templates(self)


# --- tournaments -------------------------------------------------------------------------

COMMON_ZONES = (
    "Europe/Prague",
    "Europe/Bratislava",
    "Europe/Vienna",
    "Europe/Budapest",
    "Europe/Warsaw",
    "Europe/Berlin",
    "Europe/London",
    "UTC",
)


def time_zone_choices() -> list:
    every = sorted(time_zones())
    return [
        (_("Common"), [(z, z) for z in COMMON_ZONES if z in every]),
        (_("All time zones"), [(z, z) for z in every]),
    ]


MONEY_HELP = _("In crowns or euros, as on the poster: 1100 or 1 100,50.")
# Money typed in major units, labelled with the currency: "Buy-in (CZK)". The services get minor units.
MONEY_LABELS = {
    "buy_in": _("Buy-in (%(currency)s)"),
    "fee": _("Fee (%(currency)s)"),
    "bounty": _("Bounty per entry (%(currency)s)"),
    "guaranteed_pool": _("Guaranteed prize pool (%(currency)s)"),
    "rebuy_price": _("Re-buy price (%(currency)s)"),
    "rebuy_fee": _("Re-buy fee (%(currency)s)"),
    "addon_price": _("Add-on price (%(currency)s)"),
    "addon_fee": _("Add-on fee (%(currency)s)"),
}
ZERO_IF_EMPTY = ("fee", "bounty", "guaranteed_pool", "rebuy_price", "rebuy_fee", "rebuy_chips", "addon_price", "addon_fee", "addon_chips")
# Left empty, sent as null (static/js/api-forms.js, data-blank): no limit, or set by rule (final table: TDA 9).
NULL_IF_EMPTY = (
    "final_table_size",
    "max_reentries",
    "late_reg_until_level",
    "max_rebuys",
    "rebuy_until_level",
    "addon_until_level",
    "max_entries",
    "reservations_until",
)


class TournamentForm(forms.ModelForm):
    """All the settings of TOURNAMENT_FIELDS. The service decides whether they fit together."""

    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices, initial="Europe/Prague")
    start_at = forms.DateTimeField(  # the venue's wall clock, naive: the API makes it aware in `time_zone`
        label=_("Start time"),
        help_text=_("Local time in the time zone chosen above."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    reservations_until = forms.DateTimeField(
        label=_("Unclaimed reservations expire at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    buy_in = MoneyField(help_text=MONEY_HELP)
    fee = MoneyField(required=False, help_text=_("The house's part, not in the prize pool."))
    bounty = MoneyField(
        required=False,
        help_text=_("Each entry's bounty (its head), apart from the prize pool. 0 without bounties. Fixed once registration opens."),
    )
    guaranteed_pool = MoneyField(required=False, help_text=_("0 means no guarantee."))
    rebuy_price = MoneyField(required=False)
    rebuy_fee = MoneyField(required=False)
    addon_price = MoneyField(required=False)
    addon_fee = MoneyField(required=False)

    FIELDSETS = (
        (_("Event"), ("name", "venue", "time_zone", "start_at", "game", "table_format", "seats_per_table", "final_table_size")),
        (_("Money"), ("currency", "buy_in", "fee", "guaranteed_pool", "bounty_format", "bounty")),
        (_("Chips and entries"), ("starting_stack", "reentry_allowed", "max_reentries", "late_reg_until_level")),
        (_("Re-buys"), ("rebuy_allowed", "rebuy_price", "rebuy_fee", "rebuy_chips", "max_rebuys", "rebuy_until_level")),
        (_("Add-ons"), ("addon_allowed", "addon_price", "addon_fee", "addon_chips", "max_addons", "addon_until_level")),
        (_("Waiting list"), ("max_entries", "alternate_minutes", "waiting_payment", "no_show_money")),
        (_("Reservations from phones"), ("reservation_cap", "reservations_until")),
    )

    class Meta:
        model = Tournament
        fields = list(TOURNAMENT_FIELDS)
        labels = {
            "final_table_size": _("Final table size"),
        }
        help_texts = {
            "final_table_size": _(
                "Empty: set by TDA rule 9 to one more than the table size, at most 10 (10 for full ring with 9 seats, 7 for 6-max)."
            ),
            "seats_per_table": _("2 to 10."),
            "currency": _("Three-letter code: EUR, CZK, ..."),
            "rebuy_until_level": _("Empty: until the director stops them."),
            "addon_until_level": _("Empty: until the director stops them."),
            "max_entries": _(
                "Entries and re-entries together. Past it, or when every seat of a room with a fixed set of tables is taken, "
                "a new player joins the waiting list. Empty: the seats decide."
            ),
            "alternate_minutes": _(
                "An alternate offered a seat who has not sat down within these minutes loses his turn; the seat goes to the "
                "next on the list. 1 to 120."
            ),
            "waiting_payment": _("When the desk takes the buy-in of a player on the waiting list."),
            "no_show_money": _("The buy-in of an alternate passed over for not sitting down in time."),
            "reservation_cap": _(
                "How many places players may reserve from their phones before the start (no account needed; the desk checks "
                "the ID and takes the buy-in). 0: no reservations."
            ),
            "reservations_until": _(
                "Reservations not claimed at the desk by then expire and their places go to others. Empty: at the start time."
            ),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["final_table_size"].required = False
        self.fields["max_addons"].required = False  # not sent while add-ons are off (the form's script disables it)
        for name in ZERO_IF_EMPTY:
            self.fields[name].required = False
            self.fields[name].widget.attrs["data-blank"] = "0"
        for name in NULL_IF_EMPTY:
            if name in self.fields:  # the service's fields only (TOURNAMENT_FIELDS)
                self.fields[name].widget.attrs["data-blank"] = "null"
        for field in self.fields.values():
            if isinstance(field, forms.IntegerField):
                field.widget.attrs.update(NUMBER)
        if not self.instance.pk and "currency" not in (kwargs.get("initial") or {}):
            # The model's own default (EUR) is not a Czech room's.
            self.initial["currency"] = CURRENCY_BY_ZONE.get(self.initial.get("time_zone"), DEFAULT_CURRENCY)
        currency = str(self.initial.get("currency") or DEFAULT_CURRENCY).strip().upper()
        for name, label in MONEY_LABELS.items():
            field = self.fields[name]
            field.currency, field.label = currency, label % {"currency": currency}
            field.widget.attrs["data-money"] = currency  # the currency's decimals (static/js/api-forms.js)
        self.fields["currency"].widget.attrs.update({"maxlength": 3, "class": "currency"})
        if self.instance.pk and self.instance.start_at:
            zone = zoneinfo.ZoneInfo(self.instance.time_zone)
            for name in ("start_at", "reservations_until"):  # shown on the venue's wall clock
                when = getattr(self.instance, name)
                self.initial[name] = when.astimezone(zone).replace(tzinfo=None) if when else None

    def fieldsets(self) -> list[tuple[str, list]]:
        """The settings by group: only those the service saves (TOURNAMENT_FIELDS), so no field is typed for nothing."""
        groups = [(title, [self[name] for name in names if name in self.fields]) for title, names in self.FIELDSETS]
        return [(title, fields) for title, fields in groups if fields]


class TournamentCreateForm(TournamentForm):
    template = forms.ModelChoiceField(
        label=_("Structure template"),
        queryset=Structure.objects.none(),
        empty_label=_("Choose a structure"),
        help_text=_("The tournament gets its own copy of the levels and chips; later changes to the template do not touch it."),
    )

    FIELDSETS = ((_("Structure"), ("template",)),) + TournamentForm.FIELDSETS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        offer_templates(self)
