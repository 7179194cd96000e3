"""A refused action, the same everywhere: a code for programs and a translated message for people."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import roles

REASON_TOO_LONG = gettext_lazy("The reason is too long: at most %(max)s characters.")  # clean_reason's, by default


class ServiceError(Exception):
    """A refused action: the message is for the person at the screen; nothing was changed."""

    def __init__(self, message: str, code: str = "invalid", status: int = 400, details: list[str] | dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details or []


def require(user, allowed: tuple[str, ...], *, table=None) -> None:
    """Refuse unless the user has one of the roles (the director always has) and, for an action at a
    table, may act at that table (a dealer tablet acts only at its own: core.roles.acts_at)."""
    if not roles.has_role(user, allowed):
        raise ServiceError(_("Your role does not allow this action."), code="forbidden", status=403)
    if table is not None and not roles.acts_at(user, table.pk):
        raise ServiceError(
            _("This tablet acts only at its own table, not at table %(number)s.") % {"number": table.number}, code="other_table", status=403
        )


def full_clean(instance, exclude: list[str] | None = None) -> None:
    """Model validation as a ServiceError, so every caller shows the same clear refusal."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:

        def label(field: str) -> str:
            return str(instance._meta.get_field(field).verbose_name).capitalize()

        messages = [
            f"{label(field)}: {message}" if field != "__all__" else str(message)
            for field, errors in exc.message_dict.items()
            for message in errors
        ]
        raise ServiceError(" ".join(messages), code="invalid", details=messages) from exc


def clean_reason(text, model, field: str, missing: str | None = None, too_long: str | None = None) -> str:
    """A reason or a note typed by staff, as it is stored: spaces tidied; refused when empty (`missing`: the
    message, where a reason is required) or longer than its column (`too_long`, with %(max)s)."""
    cleaned = " ".join(str(text or "").split())
    if missing is not None and not cleaned:
        raise ServiceError(str(missing), code="reason_missing")
    check_length(cleaned, model, field, too_long or REASON_TOO_LONG)
    return cleaned


def next_number(rows: QuerySet) -> int:
    """The next number in a sequence that counts from 1 (entries, receipts, slips, draws): one more than the
    highest of `rows`. The caller holds the lock that orders the writers (the tournament's)."""
    return (rows.aggregate(n=Max("number"))["n"] or 0) + 1


def check_length(text: str, model, field: str, message: str) -> None:
    """Refuse text longer than its column (PostgreSQL would refuse it with a server error)."""
    limit = model._meta.get_field(field).max_length
    if len(text) > limit:
        raise ServiceError(message % {"max": limit}, code="too_long")
