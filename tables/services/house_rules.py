"""The house rules of a tournament (docs/rules.md): how it balances and breaks tables, redraws, plays hand-for-hand
and races chips at a color-up. The director sets them; the tables follow at once."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tables.models import HouseRules
from tables.selectors.state import HOUSE_FIELDS, house_rules, house_rules_json
from tables.services.moves import flag_halts, rebalance
from tournament.models import Tournament
from tournament.services.audit import lock_tournament, record_event


@transaction.atomic
def set_house_rules(tournament: Tournament, *, actor: Actor, data: dict) -> HouseRules:
    """The director sets the house rules (unknown names are refused; the rest keep their value;
    invalid values raise django's ValidationError, by field). A changed halt setting flags the
    tables at once; a changed threshold, donor or redraw setting balances the room at once."""
    require(actor, roles.SETUP)
    unknown = sorted(set(data) - set(HOUSE_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown house rule: %(names)s.") % {"names": ", ".join(unknown)}, code="unknown_rule")
    t = lock_tournament(tournament.pk)
    rules = HouseRules.objects.select_for_update().filter(tournament=t).first() or house_rules(t)
    before = house_rules_json(rules)
    for name, value in data.items():
        setattr(rules, name, value)
    # The model's checks (HouseRules.clean: each field's range, and settings that contradict each other
    # or the tables), as the screen's form runs them: a refusal names its fields (the API answers 400
    # with them) and changes nothing.
    rules.full_clean(exclude=["tournament"])
    rules.save()
    after = house_rules_json(rules)
    changed = {k: {"from": before[k], "to": after[k]} for k in HOUSE_FIELDS if before[k] != after[k]}
    if changed:
        record_event(t, actor=actor, type_="house_rules.changed", payload={"changed": changed}, stats=False)
        if {"balance_threshold", "donor", "redraw_at_three", "redraw_at_two"} & set(changed):
            rebalance(t, actor=actor)  # the moves the new rules call for, now
        else:
            flag_halts(t, actor=actor)
    return rules


def copy_house_rules(tournament: Tournament, *, to: Tournament) -> None:
    """The next of a sit & go series plays by the house rules of the one before (when the director set any)."""
    rules = HouseRules.objects.filter(tournament=tournament).first()
    if rules is not None:
        HouseRules.objects.create(tournament=to, **house_rules_json(rules))
