"""Human names of audit event types, for the floor's event log."""
from django.utils.translation import gettext as _


def event_labels() -> dict[str, str]:
    return {
        "tournament.created": _("Tournament created"),
        "tournament.changed": _("Tournament settings changed"),
        "tournament.structure_changed": _("Structure changed"),
        "registration.closed": _("Registration closed"),
        "registration.reopened": _("Registration reopened"),
        "entry.registered": _("Entry registered"),
        "entry.busted": _("Player busted"),
        "rebuy.announced": _("Re-buy announced"),
        "rebuy.paid": _("Re-buy paid"),
        "addon.paid": _("Add-on paid"),
        "purchase.voided": _("Receipt voided"),
        "display.created": _("Lobby screen link created"),
        "display.revoked": _("Lobby screen link revoked"),
        "clock.started": _("Clock started"),
        "clock.paused": _("Clock paused"),
        "clock.resumed": _("Clock resumed"),
        "clock.adjusted": _("Time added or removed"),
        "clock.next": _("Next level"),
        "clock.previous": _("Previous level"),
        "clock.jumped": _("Jumped to a level"),
        "clock.announcement": _("Announcement changed"),
        "clock.level_started": _("New level"),
        "clock.break_started": _("Break"),
        "clock.break_ended": _("Break over"),
        "clock.day_end_set": _("Day's end set"),
        "clock.day_ended": _("Day ended"),
        "clock.restart_scheduled": _("Next day's start scheduled"),
        "clock.one_minute": _("One minute left"),
        "clock.level_set": _("Level set"),
        "table.opened": _("Table opened"),
        "table.hand_started": _("Hand started"),
        "table.hand_start_undone": _("Hand start undone"),
        "payouts.plan_set": _("Payout settings changed"),
        "payouts.structure_edited": _("Prizes edited by hand"),
        "payouts.edit_cleared": _("Hand edit of the prizes dropped"),
        "payout.paid": _("Prize paid"),
        "payout.voided": _("Prize payment voided"),
        "draw.tie": _("Tie: odd units drawn"),
        "colorup.confirmed": _("Color-up confirmed"),
        "race.recorded": _("Chip race recorded"),
        "race.confirmed": _("Chip race confirmed"),
        "deal.proposed": _("Deal proposed"),
        "deal.approved": _("Deal approved"),
        "deal.rejected": _("Deal rejected or withdrawn"),
        "entry.bust_undone": _("Bust undone"),
        "addon.announced": _("Add-on announced"),
        "player.created": _("Player created"),
        "structure.created": _("Structure created"),
        "structure.changed": _("Structure template changed"),
        "structure.copied": _("Structure copied"),
        "structure.imported": _("Structure imported"),
        "move.created": _("Move slip"),
        "move.done": _("Player moved"),
        "move.cancelled": _("Move cancelled"),
        "seat.corrected": _("Seat corrected"),
        "seat_request.set": _("Seat requested"),
        "seat_request.cancelled": _("Seat request cancelled"),
        "draw.committed": _("Draw committed"),
        "seating.drawn": _("Seating drawn"),
        "seating.redrawn": _("Seating redrawn"),
        "table.breaking": _("Table breaking"),
        "table.button": _("Button drawn"),
        "table.buttons": _("Buttons drawn"),
        "table.button_needed": _("Button needed"),
        "table.positions": _("Positions set"),
        "table.hand_done": _("Hand done"),
        "table.token_renewed": _("Table link renewed"),
        "table.in_play": _("Table in play"),
        "table.out_of_play": _("Table out of play"),
        "table.dealer_link_created": _("Dealer link created"),
        "table.dealer_link_revoked": _("Dealer link revoked"),
        "tables.halted": _("Balancing halted at tables"),
        "tables.break_order": _("Break order set"),
        "balance.clear": _("Balancing unblocked"),
        "balance.no_move": _("Balancing stuck"),
        "balance.blocked": _("Balancing blocked"),
        "balance.failed": _("Balancing failed"),
        "house_rules.changed": _("House rules changed"),
        "h4h.started": _("Hand-for-hand started"),
        "h4h.ended": _("Hand-for-hand ended"),
        "h4h.hand_called": _("Hand-for-hand: hand called"),
        "h4h.hand_complete": _("Hand-for-hand: hand complete"),
        "chips.found": _("Removed chips found"),
        "chips.counted": _("Chips counted"),
        "bags.recorded": _("Bags recorded"),
        "day.closed": _("Day closed"),
        "flights.event_created": _("Event with flights created"),
        "flight.added": _("Flight added to an event"),
        "flights.day2_set": _("Day 2 of the event set"),
        "flights.policy_set": _("Stack policy set"),
        "flights.late_registration_set": _("Day 2 late registration set"),
        "flight.end_set": _("Flight end set"),
        "flight.ending": _("Flight ends at the end of this level"),
        "flights.carried": _("Bags carried into Day 2"),
        "clock_call.started": _("Clock called on a player"),
        "clock_call.ended": _("Clock call ended"),
        "penalty.given": _("Penalty given"),
        "penalty.cancelled": _("Penalty cancelled"),
        "entry.disqualified": _("Player disqualified"),
        "entry.reinstated": _("Disqualification cancelled: player reinstated"),
    }


# The log's filter by kind: each type belongs to the first group whose prefix it starts with.
GROUP_PREFIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("busts", ("entry.busted", "entry.bust_undone")),
    ("penalties", ("penalty.", "clock_call.", "entry.disqualified", "entry.reinstated")),  # before "entry."
    ("entries", ("entry.", "player.", "rebuy.", "addon.", "purchase.", "registration.")),
    ("seating", ("move.", "seat.", "seat_request.", "seating.", "draw.", "balance.", "tables.halted", "table.breaking",
                 "table.button", "house_rules.")),
    ("tables", ("table.", "tables.", "h4h.")),
    ("clock", ("clock.",)),
    ("chips", ("colorup.", "race.", "chips.", "bags.", "day.")),
    ("payouts", ("payouts.", "payout.", "deal.")),
    ("flights", ("flight.", "flights.")),
    ("setup", ("tournament.", "structure.", "display.")),
)


def event_groups() -> dict[str, str]:
    return {
        "busts": _("Busts"),
        "entries": _("Entries and purchases"),
        "seating": _("Seating, moves and balancing"),
        "tables": _("Tables and hands"),
        "clock": _("Clock"),
        "chips": _("Chips and color-ups"),
        "payouts": _("Prizes and deals"),
        "penalties": _("Penalties"),
        "flights": _("Flights and Day 2"),
        "setup": _("Setup"),
    }


def group_of(type_: str) -> str:
    for group, prefixes in GROUP_PREFIXES:
        if type_.startswith(prefixes):
            return group
    return "setup"


def types_of(group: str) -> list[str]:
    return sorted(type_ for type_ in event_labels() if group_of(type_) == group)
