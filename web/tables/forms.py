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

    def data_for_service(self) -> dict:
        return {name: self.cleaned_data[name] for name in HOUSE_FIELDS}


# --- penalties (TDA 51): the floor's page (web/tables/penalty_views.py) ----------------------------------

ROUND_CHOICES = [(n, str(n)) for n in range(1, missed_hands.MAX_ROUNDS + 1)]


class GivePenaltyForm(forms.Form):
    """The shape of a penalty: an entry number ("12" or "#12"), the kind, the rounds for Rounds. The rules
    (a seated entry, a reason of at most 200 characters) are the service's, with its messages."""

    entry = forms.CharField(label=_("Entry number"), max_length=12,
                            widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                                          "placeholder": "#12"}))
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices, widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(label=_("Rounds"), choices=ROUND_CHOICES, coerce=int, required=False,
                                    empty_value=None, widget=forms.RadioSelect)
    # Neither required nor limited here: an empty or too long reason gets the service's own message.
    reason = forms.CharField(label=_("Reason"), required=False,
                             widget=forms.TextInput(attrs={"required": True, "maxlength": 200, "autocomplete": "off"}))

    def clean_entry(self) -> int:
        text = self.cleaned_data["entry"].strip().lstrip("#").strip()
        if not re.fullmatch(r"[0-9]{1,6}", text) or int(text) == 0:
            raise forms.ValidationError(_("Type the entry number, as 12 or #12."))
        return int(text)

    def clean(self):
        data = super().clean()
        if data.get("kind") == missed_hands.ROUNDS and not data.get("rounds"):
            self.add_error("rounds", _("Choose how many rounds: 1 to %(max)s.") % {"max": missed_hands.MAX_ROUNDS})
        return data

    def data_for_service(self) -> dict:
        kind = self.cleaned_data["kind"]
        return {"entry_number": self.cleaned_data["entry"], "kind": kind,
                "rounds": self.cleaned_data["rounds"] if kind == missed_hands.ROUNDS else None,
                "reason": self.cleaned_data["reason"]}


class CancelPenaltyForm(forms.Form):
    """Cancel a penalty given in error: its number, and why (the service checks the reason)."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why cancel"), required=False,
                             widget=forms.TextInput(attrs={"required": True, "maxlength": 200, "autocomplete": "off"}))
