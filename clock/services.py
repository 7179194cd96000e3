"""Clock use cases. The full clock (timeline, pause, announcements) builds on this."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament import roles
from tournament.audit import lock_tournament, record_event
from tournament.models import Tournament
from tournament.services import ServiceError, require


@transaction.atomic
def jump_to_level(actor, tournament: Tournament, level: int) -> Tournament:
    """The director sets the level in play (late registration, re-buys and add-ons follow it)."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    count = t.structure.levels.filter(kind="level").count()
    if level < 1 or level > count:
        raise ServiceError(_("Level %(level)s does not exist; the structure has levels 1 to %(count)s.") % {"level": level, "count": count},
                           code="level_range")
    if level == t.current_level:
        return t
    previous = t.current_level
    t.current_level = level
    t.save(update_fields=["current_level"])
    record_event(t, "clock.level_set", {"level": level, "previous": previous}, actor)
    return t
