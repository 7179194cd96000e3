from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournament.models import IdCheck, Player


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "nickname", "date_of_birth", "email", "phone"]
        widgets = {"date_of_birth": forms.DateInput(attrs={"type": "date"})}


class NewPlayerForm(PlayerForm):
    """A new player's fields for the registration's body, named "new_player.first_name"...: the page's
    forms send a dotted name as one nested object (static/js/api-forms.js), the shape of
    POST /api/tournaments/<id>/entries/ `new_player`, and its field messages come back under those names."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "new_player")
        super().__init__(*args, **kwargs)

    def add_prefix(self, field_name: str) -> str:
        return f"{self.prefix}.{field_name}" if self.prefix else field_name


class IdCheckForm(forms.Form):
    document_type = forms.ChoiceField(label=_("Document type"), choices=[("", "—")] + list(IdCheck.DocumentType.choices), required=False)
    document_number = forms.CharField(
        label=_("Document number"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
        help_text=_("Only the last four characters and a keyed fingerprint are stored."),
    )
    seen = forms.BooleanField(label=_("I have checked this document in person and it shows this player."), required=False)

    def clean(self):
        data = super().clean()
        missing = []
        if not data.get("document_type"):
            missing.append(_("the document type"))
        if not (data.get("document_number") or "").strip():
            missing.append(_("the document number"))
        if not data.get("seen"):
            missing.append(_("your confirmation that you saw the document"))
        if missing:
            raise forms.ValidationError(
                _("No entry without an ID check (club rule 32). Missing: %(list)s.") % {"list": ", ".join(str(m) for m in missing)},
                code="id_check_missing",
            )
        return data


class VoidForm(forms.Form):
    """Posted to the API by the page's script: the refund typed in major units, sent in minor (data-scale)."""

    reason = forms.CharField(label=_("Reason"), max_length=300)
    refund_amount = forms.CharField(
        label=_("Refund"),
        required=False,
        help_text=_("Empty: refund everything that was paid on this receipt."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "data-scale": "100", "class": "num", "autocomplete": "off"}),
    )

    def __init__(self, *args, currency: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if currency:
            self.fields["refund_amount"].label = _("Refund (%(currency)s)") % {"currency": currency}


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("As my browser"))] + list(settings.LANGUAGES),
        required=False,
        widget=forms.Select(attrs={"data-blank": ""}),
    )  # "As my browser" is sent as ""


class DisplayForm(forms.Form):
    label = forms.CharField(label=_("Screen name"), max_length=80)


class LevelForm(forms.Form):
    level = forms.IntegerField(label=_("Current level"), min_value=1)
