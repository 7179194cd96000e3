"""The room TVs' links (venues.models.VenueDisplay): made and revoked by the director, as a tournament's lobby TV links
are (tournament/services/registration.py). A revoked link's screen goes blank at once: its sockets are closed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import broadcast, groups, roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.services.registration import screen_label
from venues.models import Venue, VenueDisplay
from venues.services.setup import venue_event


@transaction.atomic
def create_display(venue: Venue, *, actor: Actor, label: str) -> VenueDisplay:
    require(actor, roles.VENUE)
    label = screen_label(label, missing=_("Name the screen, for example 'Room TV 1'."))
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    display = VenueDisplay(venue=venue, label=label, created_by=actor)
    display.new_secret()  # shown once, in the answer; only its hash is stored
    display.save()
    venue_event(venue, actor=actor, type_="venue.display_created", payload={"display": display.pk, "label": label})
    return display


@transaction.atomic
def revoke_display(display: VenueDisplay, *, actor: Actor) -> VenueDisplay:
    require(actor, roles.VENUE)
    display = VenueDisplay.objects.select_for_update().get(pk=display.pk)
    if display.revoked_at is not None:
        raise ServiceError(_("This screen's link is already revoked."), code="already_revoked", status=409)
    display.revoked_at = timezone.now()
    display.save(update_fields=["revoked_at"])
    venue_event(display.venue, actor=actor, type_="venue.display_revoked", payload={"display": display.pk, "label": display.label})
    pk = display.pk
    transaction.on_commit(lambda: broadcast.close_sockets(groups.room_display(pk), "revoked"))
    return display
