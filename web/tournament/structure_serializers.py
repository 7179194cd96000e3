"""The shapes of the structures in the JSON API: a structure's levels and chips, its export file (the same JSON the
import takes), the summary and the detail of a template, an upload and a copy."""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tournament.models import Level, Structure
from tournament.rules import structure as rules
from web.tournament.serializers import MAX_INT, MAX_MINUTES

MAX_IMPORT_BYTES = 1_000_000  # an uploaded structure export


class ChipRowSerializer(serializers.Serializer):
    value = serializers.IntegerField(max_value=MAX_INT)
    colour = serializers.CharField(max_length=40, allow_blank=True, trim_whitespace=False)


class LevelRowSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Level.Kind.choices, default=rules.LEVEL)
    minutes = serializers.IntegerField(max_value=MAX_MINUTES)
    small_blind = serializers.IntegerField(max_value=MAX_INT, required=False)
    big_blind = serializers.IntegerField(max_value=MAX_INT, required=False)
    ante = serializers.IntegerField(max_value=MAX_INT, default=0)
    ante_type = serializers.ChoiceField(choices=Level.AnteType.choices, default=Level.AnteType.NONE)
    color_up = serializers.ListField(
        child=serializers.IntegerField(max_value=MAX_INT), default=list, help_text="Breaks only: the chip values colored up at this break."
    )

    def validate(self, attrs: dict) -> dict:
        if attrs["kind"] == rules.LEVEL and ("small_blind" not in attrs or "big_blind" not in attrs):
            raise serializers.ValidationError(_("A level needs a small blind and a big blind."))
        if attrs["kind"] == rules.LEVEL and attrs.get("color_up"):
            raise serializers.ValidationError({"color_up": [_("Only a break colors up chips; make this row a break or clear the field.")]})
        return attrs


class StructureExportSerializer(serializers.Serializer):
    """The export format of tournament.structure.to_json: what export returns, import and edits accept."""

    format = serializers.ChoiceField(
        choices=[("poker-tournament-structure", "poker-tournament-structure")],
        error_messages={"invalid_choice": _("This is not a structure export of this program: format must be poker-tournament-structure.")},
    )
    version = serializers.IntegerField()
    name = serializers.CharField(max_length=120, allow_blank=True)
    chips = ChipRowSerializer(many=True)
    levels = LevelRowSerializer(many=True)

    def validate_version(self, value: int) -> int:
        if value != rules.FORMAT_VERSION:
            raise serializers.ValidationError(
                _("Version %(version)s of the structure format is not supported; this program reads version %(supported)s.")
                % {"version": value, "supported": rules.FORMAT_VERSION}
            )
        return value

    def export_data(self) -> dict:
        """The validated body in its canonical export form (integers only, breaks without blinds)."""
        data = self.validated_data
        levels = []
        for row in data["levels"]:
            if row["kind"] == rules.BREAK:
                levels.append({"kind": rules.BREAK, "minutes": row["minutes"], "color_up": list(row["color_up"])})
            else:
                levels.append(
                    {
                        "kind": rules.LEVEL,
                        "minutes": row["minutes"],
                        "small_blind": row["small_blind"],
                        "big_blind": row["big_blind"],
                        "ante": row["ante"],
                        "ante_type": row["ante_type"],
                    }
                )
        return {
            "format": data["format"],
            "version": data["version"],
            "name": data["name"],
            "chips": [{"value": chip["value"], "colour": chip["colour"]} for chip in data["chips"]],
            "levels": levels,
        }

    def spec(self) -> rules.StructureSpec:
        return rules.from_json(self.export_data())


class StructureSummarySerializer(serializers.ModelSerializer):
    levels = serializers.SerializerMethodField(help_text="Number of playing levels (breaks not counted).")
    breaks = serializers.SerializerMethodField()
    chips = serializers.SerializerMethodField(help_text="Chip values, smallest first.")

    class Meta:
        model = Structure
        fields = ("id", "name", "is_template", "levels", "breaks", "chips", "created_at", "updated_at")

    def get_levels(self, obj: Structure) -> int:
        return sum(1 for level in obj.levels.all() if level.kind == rules.LEVEL)

    def get_breaks(self, obj: Structure) -> int:
        return sum(1 for level in obj.levels.all() if level.kind == rules.BREAK)

    def get_chips(self, obj: Structure) -> list[int]:
        return sorted(d.value for d in obj.denominations.all())


class StructureDetailSerializer(serializers.ModelSerializer):
    """A structure with its chips and its levels in playing order (the same rows as the export format)."""

    chips = ChipRowSerializer(many=True, source="denominations")
    levels = LevelRowSerializer(many=True)

    class Meta:
        model = Structure
        fields = ("id", "name", "is_template", "chips", "levels", "created_at", "updated_at")


class StructureUploadSerializer(serializers.Serializer):
    """An export sent as a file upload (multipart/form-data, the import page's form): the file, or its JSON
    pasted, one of the two. Valid: `json` is the export read, for the import service to check."""

    file = serializers.FileField(required=False, help_text="The exported .json file (UTF-8, at most 1 MB).")
    text = serializers.CharField(required=False, allow_blank=True, help_text="Or the export's JSON, pasted.")

    def validate(self, attrs: dict) -> dict:
        upload, text = attrs.get("file"), attrs.get("text", "")
        if upload and text:
            raise serializers.ValidationError(_("Upload a file or paste the JSON, not both."), code="both")
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise serializers.ValidationError(_("The file is too large for a structure export."), code="too_large")
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise serializers.ValidationError(_("The file is not a text (UTF-8) file."), code="encoding")
        if not text:  # the pasted text comes trimmed
            raise serializers.ValidationError(_("Choose a file or paste the JSON of a structure export."), code="empty")
        try:
            return {**attrs, "json": json.loads(text)}
        except json.JSONDecodeError as exc:
            raise serializers.ValidationError(
                _("This is not valid JSON (line %(line)s, column %(column)s).") % {"line": exc.lineno, "column": exc.colno}, code="json"
            )


class CopySerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=120, error_messages={"blank": _("Give the copy a name."), "required": _("Give the copy a name.")}
    )
