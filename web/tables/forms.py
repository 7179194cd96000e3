"""The house rules form (the director's screen): the model's own fields, saved by the service."""
from django import forms

from tables.models import HouseRules
from tables.selectors import HOUSE_FIELDS


class HouseRulesForm(forms.ModelForm):
    class Meta:
        model = HouseRules
        fields = list(HOUSE_FIELDS)

    def data_for_service(self) -> dict:
        return {name: self.cleaned_data[name] for name in HOUSE_FIELDS}
