"""Dealer links: a per-table link that opens that table's dealer tablet without a staff login.

The floor (or the director) makes one for a table and sets it up on the tablet that sits there; the
tablet then starts hands, undoes a mistaken start and reports hands done at that table only, reads
that table's state and listens on that table's socket (web/access.py). The secret is in the URL and
is shown once: only its hash is stored (core.tokens.hash_secret). Revoking a link refuses it at once
and closes its sockets. Both are audit events."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import broadcast, groups, roles
from core.actor import Actor
from core.errors import ServiceError, check_length, require
from core.tokens import hash_secret
from tables.models import DealerLink, Table
from tournament.services.audit import lock_tournament, record_event


def link_for_token(token: str) -> DealerLink | None:
    """The live link with this secret (None when unknown or revoked), with its table and tournament."""
    if not token:
        return None
    return DealerLink.objects.select_related("table__tournament").filter(token_hash=hash_secret(token), revoked_at__isnull=True).first()


def actor_for(link: DealerLink) -> roles.DeviceActor:
    """The tablet as an actor: the Dealer role at the link's table only, named in the audit log."""
    label = f"dealer link {link.pk} (table {link.table.number})"
    return roles.DeviceActor(label, table_id=link.table_id, link_id=link.pk)


@transaction.atomic
def create_dealer_link(table: Table, *, actor: Actor, label: str = "") -> tuple[DealerLink, str]:
    """A new link for the table's tablet. Returns the link and its secret, which is never shown again."""
    require(actor, roles.DEALER_LINKS)
    label = (label or "").strip()
    check_length(label, DealerLink, "label", _("The label is too long (at most %(max)s characters)."))
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.in_play:
        raise ServiceError(_("Table %(number)s is not in play.") % {"number": table.number}, code="table_closed", status=409)
    link = DealerLink(table=table, label=label, created_by=actor)
    token = link.new_token()
    link.save()
    record_event(
        t, actor=actor, type_="table.dealer_link_created", payload={"table": table.number, "link": link.pk, "label": label}, stats=False
    )
    return link, token


@transaction.atomic
def revoke_dealer_link(link: DealerLink, *, actor: Actor) -> DealerLink:
    """The link stops working at once; a tablet that has it open goes blank."""
    require(actor, roles.DEALER_LINKS)
    t = lock_tournament(link.table.tournament_id)
    link = DealerLink.objects.select_for_update().select_related("table").get(pk=link.pk)
    if link.revoked_at is not None:
        raise ServiceError(_("This dealer link is already revoked."), code="already_revoked", status=409)
    link.revoked_at = timezone.now()
    link.revoked_by = actor
    link.save(update_fields=["revoked_at", "revoked_by"])
    record_event(
        t,
        actor=actor,
        type_="table.dealer_link_revoked",
        payload={"table": link.table.number, "link": link.pk, "label": link.label},
        stats=False,
    )
    transaction.on_commit(lambda: broadcast.close_sockets(groups.dealer_link(link.pk), "revoked"))
    return link
