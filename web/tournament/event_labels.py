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
        "clock.one_minute": _("One minute left"),
        "clock.level_set": _("Level set"),
        "table.opened": _("Table opened"),
        "table.hand_started": _("Hand started"),
        "table.hand_start_undone": _("Hand start undone"),
    }
