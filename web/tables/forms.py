"""The forms of the tables' screens: the house rules (the director's screen: the model's own fields, saved by
the service) and the floor's penalties (the shape only; the rules and their messages are the service's)."""
import re

from django import forms
from django.utils.translation import gettext_lazy as _

from tables import missed_hands
from tables.models import HouseRules, Penalty
from tables.selectors import HOUSE_FIELDS


class HouseRulesForm(forms.ModelForm):
    class Meta:
        model = HouseRules
        fields = list(HOUSE_FIELDS)


# --- penalties (TDA 51): the floor's page (web/tables/penalty_views.py) ----------------------------------

ROUND_CHOICES = [(n, str(n)) for n in range(1, missed_hands.MAX_ROUNDS + 1)]


class GivePenaltyForm(forms.Form):
    """The shape of a penalty: who (a name, an entry number "12" or "#12", or the table and the seat; or an
    entry picked from the players a name matched), the kind, the rounds for Rounds. The rules (a seated
    entry, a reason of at most 200 characters) are the service's, with its messages; a name is looked up
    by the page (web/tables/penalty_views.py), which lists the players it matches rather than guess."""

    who = forms.CharField(label=_("Name or entry number"), max_length=100, required=False,
                          widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Novák or #12")}))
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=100_000, required=False,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=100, required=False,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    entry = forms.IntegerField(min_value=1, required=False)  # picked from the players a name matched (radios)
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices, widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(label=_("Rounds"), choices=ROUND_CHOICES, coerce=int, required=False,
                                    empty_value=None, widget=forms.RadioSelect)
    # Neither required nor limited here: an empty or too long reason gets the service's own message.
    reason = forms.CharField(label=_("Reason"), required=False,
                             widget=forms.TextInput(attrs={"required": True, "maxlength": 200, "autocomplete": "off"}))

    def clean(self):
        data = super().clean()
        who = " ".join((data.get("who") or "").split())
        number = re.fullmatch(r"#? ?([0-9]{1,6})", who)
        data["name"] = None
        if data.get("table") is not None or data.get("seat") is not None:
            if who:
                self.add_error("who", _("Say who one way: a name or an entry number, or a table and a seat."))
            for field in ("table", "seat"):
                if data.get(field) is None and field not in self.errors:
                    self.add_error(field, _("Give both the table and the seat."))
            data["entry"] = None
        elif number:
            data["entry"] = int(number.group(1))
        elif who:
            data["name"] = who  # data["entry"]: the player picked among those the name matched, if any
        elif data.get("entry") is None:
            self.add_error("who", _("Say who: a name, an entry number, or a table and a seat."))
        if data.get("kind") == missed_hands.ROUNDS and not data.get("rounds"):
            self.add_error("rounds", _("Choose how many rounds: 1 to %(max)s.") % {"max": missed_hands.MAX_ROUNDS})
        return data

    def data_for_service(self, entry_number: int | None = None) -> dict:
        """The service's arguments; `entry_number`: the entry a name stands for, found by the page."""
        kind, data = self.cleaned_data["kind"], self.cleaned_data
        return {"entry_number": entry_number if data["name"] else data["entry"], "table": data["table"],
                "seat": data["seat"], "kind": kind, "rounds": data["rounds"] if kind == missed_hands.ROUNDS else None,
                "reason": data["reason"]}


class CancelPenaltyForm(forms.Form):
    """Cancel a penalty given in error: its number, and why (the service checks the reason)."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why cancel"), required=False,
                             widget=forms.TextInput(attrs={"required": True, "maxlength": 200, "autocomplete": "off"}))
