"""Staff roles: Django groups. A director may do everything; a superuser too."""
from __future__ import annotations

from django.utils.translation import gettext as _

DIRECTOR = "Director"
FLOOR = "Floor"
CASHIER = "Cashier"
DEALER = "Dealer"
ALL_ROLES = (DIRECTOR, FLOOR, CASHIER, DEALER)

# Who may do what. The director is added to every set by has_role.
SETUP = (DIRECTOR,)
REGISTER = (CASHIER, FLOOR)
VOID = (CASHIER,)
CASH = (CASHIER, FLOOR)  # the floor takes money at the tables too (DESIGN.md: floor staff register and pay)
FLOOR_VIEW = (FLOOR, CASHIER)
BUST = (FLOOR,)
EVENTS = (FLOOR,)
DISPLAYS = (DIRECTOR,)
DEALING = (DEALER, FLOOR)  # start a hand at a table, undo a mistaken start
REPORTING = (DEALER, FLOOR)  # report a table's hand done
SEATING = (FLOOR,)  # draws after the start, seat corrections, the button, special needs
MOVING = (FLOOR,)  # move slips: confirm, cancel, balance now


def role_labels(names) -> list[str]:
    """Translated names of roles, for display (the group names stay English in the database)."""
    labels = {DIRECTOR: _("Director"), FLOOR: _("Floor"), CASHIER: _("Cashier"), DEALER: _("Dealer")}
    return [str(labels.get(name, name)) for name in ALL_ROLES if name in names]


def user_roles(user) -> set[str]:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if user.is_superuser:
        return set(ALL_ROLES)
    cached = getattr(user, "_role_cache", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
        user._role_cache = cached
    return cached


def has_role(user, roles: tuple[str, ...] | list[str]) -> bool:
    mine = user_roles(user)
    return DIRECTOR in mine or bool(mine.intersection(roles))
