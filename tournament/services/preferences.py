"""A staff member's own preferences: the language the screens speak to them (none: the browser's)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournament.models import StaffProfile


@transaction.atomic
def set_language(user, language: str | None) -> StaffProfile:
    """The login's language for every screen ("" or None: the browser's). Any login may set its own."""
    language = language or ""
    if not getattr(user, "is_authenticated", False) or getattr(user, "pk", None) is None:
        raise ServiceError(_("Log in first."), code="forbidden", status=403)
    if language and language not in dict(settings.LANGUAGES):
        raise ServiceError(
            _("Choose one of the languages offered: %(languages)s.") % {"languages": ", ".join(code for code, _name in settings.LANGUAGES)},
            code="invalid",
        )
    profile, _created = StaffProfile.objects.select_for_update().get_or_create(user=user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
    return profile
