"""The forms of the tables' screens: the house rules (the director's screen: the model's own fields, saved by
the service) and the floor's penalties (the shape only; the rules and their messages are the service's)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.models import HouseRules, Penalty
from tables.rules import missed_hands
from tables.selectors.state import HOUSE_FIELDS


class HouseRulesForm(forms.ModelForm):
    class Meta:
        model = HouseRules
        fields = list(HOUSE_FIELDS)


# --- penalties (TDA 51): the floor's page (web/tables/penalty_views.py) ----------------------------------

ROUND_CHOICES = [(n, str(n)) for n in range(1, missed_hands.MAX_ROUNDS + 1)]


class GivePenaltyForm(forms.Form):
    """The widgets of the give form (rendered only): who (a name, an entry number "12" or "#12", or the table
    and the seat), the kind, the rounds for Rounds, the reason. static/js/penalties.js sends them to the JSON
    API (web/tables/penalty_api.py), whose serializer and service say what is wrong, field by field."""

    who = forms.CharField(
        label=_("Name or entry number"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Novák or #12")}),
    )
    table = forms.IntegerField(
        label=_("Table"), min_value=1, max_value=100_000, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
    seat = forms.IntegerField(
        label=_("Seat"), min_value=1, max_value=100, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
    kind = forms.ChoiceField(label=_("Penalty"), choices=Penalty.Kind.choices, widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(
        label=_("Rounds"), choices=ROUND_CHOICES, coerce=int, required=False, empty_value=None, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("Reason"), required=False, widget=forms.TextInput(attrs={"required": True, "maxlength": 200, "autocomplete": "off"})
    )
    chips = forms.IntegerField(
        label=_("His chips, counted now"), min_value=0, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
