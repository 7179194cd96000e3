"""The shape of every refusal of the API (web/api.py answers it; the idempotency replay and the login's schema name
it): nothing was changed, and the person at the screen reads why."""

from __future__ import annotations

from rest_framework import serializers


class ServiceErrorSerializer(serializers.Serializer):
    """Every refusal of the API, in one shape: nothing was changed."""

    error = serializers.CharField(help_text="Machine-readable code, e.g. id_check_missing, structure_invalid.")
    detail = serializers.CharField(help_text="The message for the person at the screen, translated.")
    problems = serializers.ListField(child=serializers.CharField(), help_text="Every problem found, one message each.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Invalid input only: the messages of each field.",
    )
