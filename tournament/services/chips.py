"""The chips in play, written: every change that is not a purchase goes through adjust_chips (a race, chips found,
a disqualification and its reinstatement), which records the chips in play after it and refuses a change that would
leave fewer than none. The database holds the same line (ChipAdjustment's constraint); this says it to the floor."""

from __future__ import annotations

from django.db.models import Sum
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournament.models import ChipAdjustment, Purchase, Tournament


def chips_in_play(t: Tournament) -> int:
    """The purchases' chips plus the adjustments (tournament/selectors/stats.py counts them the same way)."""
    bought = Purchase.objects.filter(tournament=t).exclude(status=Purchase.Status.VOIDED).aggregate(n=Sum("chips"))["n"]
    adjusted = ChipAdjustment.objects.filter(tournament=t).aggregate(n=Sum("amount"))["n"]
    return (bought or 0) + (adjusted or 0)


def adjust_chips(t: Tournament, *, kind: str, amount: int, table: int | None, created_at, created_by) -> ChipAdjustment:
    """Change the chips in play by `amount` (the caller holds the tournament's lock). ServiceError (409) when fewer
    than no chips would be left in play."""
    after = chips_in_play(t) + amount
    if after < 0:
        raise ServiceError(
            _("This would take %(amount)s chips out of play, but only %(chips)s are in play: count the chips again.")
            % {"amount": -amount, "chips": after - amount},
            code="chips_in_play_negative",
            status=409,
        )
    return ChipAdjustment.objects.create(
        tournament=t, kind=kind, amount=amount, table=table, in_play_after=after, created_at=created_at, created_by=created_by
    )
