"""Sit & gos: a tournament that starts when its seats are filled. The director sets it up (how many players, whether
the next of the series opens when it fills); the registration that fills it starts it (tables/reactions.py: a free table
of the venue by the verifiable draw, then the clock) and, when the series goes on, opens the next one: a copy of it
(its settings, venue and structure; a satellite's settings by payouts' reaction to SIT_AND_GO_OPENED)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.models import Entry, Tournament
from tournament.services.audit import lock_tournament, record_event
from tournament.services.setup import copy_tournament
from venues.models import SitAndGo

SIT_AND_GO_OPENED = "sit_and_go_opened"  # the next of a series is open: upper apps copy their settings (previous, tournament)


@transaction.atomic
def set_sit_and_go(tournament: Tournament, *, actor: Actor, players, opens_next: bool = False) -> SitAndGo:
    """Make a tournament being set up a sit & go of `players` (2 to its seats per table), or change that before its
    first entry."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    try:
        players = int(players)
    except (TypeError, ValueError):
        players = 0
    if not 2 <= players <= t.seats_per_table:
        raise ServiceError(
            _("A sit & go is played at one table: 2 to %(seats)s players.") % {"seats": t.seats_per_table}, code="sit_and_go_players"
        )
    if t.status != Tournament.Status.SETUP or Entry.objects.filter(tournament=t).exists():
        raise ServiceError(_("A sit & go is set up before its first entry."), code="sit_and_go_late", status=409)
    sng, _made = SitAndGo.objects.update_or_create(
        tournament=t, defaults={"players": players, "opens_next": bool(opens_next), "series": t.name[:160]}
    )
    record_event(
        t, actor=actor, type_="sit_and_go.set", payload={"players": players, "opens_next": sng.opens_next}, stats=False, seats=False
    )
    return sng


def sit_and_go_of(t: Tournament) -> SitAndGo | None:
    return SitAndGo.objects.filter(tournament=t).first()


def started(sng: SitAndGo, *, actor: Actor) -> SitAndGo | None:
    """The sit & go has started (its draw and clock done by the caller, who holds its lock): marked, its registration
    closed (it is played at its one table: the next player goes to the next of its series; the director may open it
    again), and the next of its series opened when it goes on. Returns the next one (None when the series stops here)."""
    sng.started_at = timezone.now()
    sng.save(update_fields=["started_at"])
    t = sng.tournament
    if not t.registration_closed:
        Tournament.objects.filter(pk=t.pk).update(registration_closed=True)
        t.registration_closed = True
        record_event(t, actor=actor, type_="registration.closed", payload={"sit_and_go": True}, stats=False, seats=False)
    if not sng.opens_next:
        return None
    previous = sng.tournament
    name = f"{sng.series} #{sng.number + 1}"
    t = copy_tournament(previous, actor=actor, name=name[:160])
    following = SitAndGo.objects.create(tournament=t, players=sng.players, opens_next=True, series=sng.series, number=sng.number + 1)
    SitAndGo.objects.filter(pk=sng.pk).update(next=following)
    record_event(
        t, actor=actor, type_="sit_and_go.opened", payload={"after": previous.pk, "number": following.number}, stats=False, seats=False
    )
    reactions.react(SIT_AND_GO_OPENED, actor=actor, tournament=t, previous=previous)
    return following
