"""Staff roles: Django groups. A director may do everything; a superuser too.

Who reaches which page, API operation and WebSocket is one table, core/access.py (`may` answers from
it); the sets here are the ones the services check again, held to that table by
tests/core/test_role_table.py. Two kinds of actor are bound to one table: a dealer tablet opened by its
table's dealer link (a DeviceActor, no login) and a Dealer login, bound to the table its tablet chose
(docs/roles.md, "One table per dealer tablet"). The services refuse them at any other table (core.errors.require)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
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
CASH = (CASHIER, FLOOR)  # the floor takes money at the tables too (docs/architecture.md: floor staff register and pay)
BUST = (FLOOR,)
DISPLAYS = (DIRECTOR,)
DEALER_LINKS = (FLOOR,)  # create and revoke a table's dealer-tablet link
DEALING = (DEALER, FLOOR)  # start a hand at a table, undo a mistaken start (a Dealer only at its own table)
REPORTING = (DEALER, FLOOR)  # report a table's hand done (a Dealer only at its own table)
SEATING = (FLOOR,)  # draws after the start, seat corrections, the button, special needs
MOVING = (FLOOR,)  # move slips: confirm, cancel, balance now
PENALTIES = (FLOOR,)  # give and cancel penalties (TDA 51): the floor's call, never a dealer's
PAY = (CASHIER,)  # pay a prize (a second ID check, a signature) and void a payment
COUNTING = (DEALER, FLOOR)  # a table's chip counts, entered at once (a Dealer only at its own table)
COUNT_ONE = (FLOOR,)  # one player's chip count, wherever he sits
BUST_REPORT = (DEALER, FLOOR)  # report a bust and who won the pot at a table (a Dealer only at its own table)
CLOCK_CALLS = (DEALER, FLOOR)  # call the clock on a seated player and end it (a Dealer only at its own table)
BAGGING = (DEALER, FLOOR)  # bag-and-tag a table's players at the end of a day (a Dealer only at its own table)
BAG_ONE = (FLOOR,)  # bag one seated player, or correct his bag, wherever he sits
FLIGHTS = (DIRECTOR,)  # events with flights: the event, its flights, Day 2, the stack policy, flight ends, the carry
CLOSE_DAY = (DIRECTOR,)  # close a day of a multi-day tournament (with a reason when bags are missing or off)
VENUE = (DIRECTOR,)  # the venue: its tables added, changed, removed, read from a room file; the order of its areas
PRINT = (CASHIER, FLOOR)  # a buy-in, payout or bounty receipt or a seat ticket on the room's roll printer (the desk)
PRINT_SLIPS = (FLOOR,)  # a bag slip on the room's roll printer (the floor, as the slips' page)
ROOM = (FLOOR,)  # the room's tables: close one, give one to cash games, reserve one, hand a free one to a tournament
DEAL_PROPOSE = (FLOOR,)  # propose a deal at the final table, withdraw or reject a proposal; the director approves


class DeviceActor(str):
    """A dealer tablet opened by its table's dealer link: no login, the Dealer role at that table only.

    A string, as every device actor is to the audit log (tournament.services.audit.actor_user: no user row;
    actor_label: the string), carrying the table it is bound to and the link it came by."""

    is_authenticated = True
    is_active = True
    is_superuser = False
    pk = None

    def __new__(cls, label: str, *, table_id: int, link_id: int) -> DeviceActor:
        actor = super().__new__(cls, label)
        actor.bound_table_id = table_id
        actor.link_id = link_id
        return actor

    def __getnewargs_ex__(self):
        """A copy (copy.deepcopy, pickle) is the same device: never a TypeError from __new__."""
        return (str(self),), {"table_id": self.bound_table_id, "link_id": self.link_id}


def role_labels(names) -> list[str]:
    """Translated names of roles, for display (the group names stay English in the database)."""
    labels = {DIRECTOR: _("Director"), FLOOR: _("Floor"), CASHIER: _("Cashier"), DEALER: _("Dealer")}
    return [str(labels.get(name, name)) for name in ALL_ROLES if name in names]


def user_roles(user) -> set[str]:
    if isinstance(user, DeviceActor):
        return {DEALER}
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if user.is_superuser:
        return set(ALL_ROLES)
    cached = getattr(user, "_role_cache", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
        user._role_cache = cached
    return cached


def works_in(user, tournament_id) -> bool:
    """Staff per tournament: a Floor, Cashier or Dealer whose staff profile lists tournaments works
    those only; a profile with none (or no profile) works every tournament. A director works every one.
    `tournament_id` may also be a list of ids (an event's flights and Day 2, a league's tournaments, a player's): working
    one of them is enough, and a scoped member works none of an empty list. It may also be a function giving the id or
    the ids (a route without a tournament in its path, web/api.tournament_of): asked only of a scoped member."""
    if tournament_id is None or not getattr(user, "is_authenticated", False) or isinstance(user, DeviceActor):
        return True
    scope = _scope(user)
    if not scope:
        return True
    if callable(tournament_id):
        tournament_id = tournament_id()
        if tournament_id is None:
            return True
    if isinstance(tournament_id, (list, tuple, set, frozenset)):
        return not scope.isdisjoint(int(pk) for pk in tournament_id)
    return int(tournament_id) in scope


def worked(user, tournaments):
    """The tournaments (a queryset) this user works: all of them, or a scoped member's own."""
    if isinstance(user, DeviceActor) or DIRECTOR in user_roles(user) or not _scope(user):
        return tournaments
    return tournaments.filter(pk__in=_scope(user))


def worked_ids(user) -> frozenset | None:
    """The ids of the tournaments this user works, or None for every one (a director, a member with no list)."""
    if isinstance(user, DeviceActor) or DIRECTOR in user_roles(user) or not _scope(user):
        return None
    return _scope(user)


def _scope(user) -> frozenset:
    scope = getattr(user, "_scope_cache", None)
    if scope is None:
        try:
            scope = frozenset(user.staff_profile.tournaments.values_list("pk", flat=True))
        except (ObjectDoesNotExist, AttributeError):  # no profile (or no user): every tournament
            scope = frozenset()
        user._scope_cache = scope
    return scope


def has_role(user, roles: tuple[str, ...] | list[str], tournament_id=None) -> bool:
    """One of these roles (the director has every one); with a tournament, one this user works (works_in)."""
    mine = user_roles(user)
    if DIRECTOR in mine:
        return True
    return bool(mine.intersection(roles)) and works_in(user, tournament_id)


def table_bound(user) -> bool:
    """Acts at one table only: a dealer link's tablet, or a Dealer login without the floor's role."""
    if isinstance(user, DeviceActor):
        return True
    mine = user_roles(user)
    return DEALER in mine and not has_role(user, (FLOOR,))


def acts_at(actor, table_id: int) -> bool:
    """May this actor act at this table? Anyone not bound to a table may (their role decides); a bound
    actor only at its own table. A Dealer login carries its table as `bound_table_id` once web/access.py
    has checked it against the login's session."""
    bound = getattr(actor, "bound_table_id", None)
    if bound is not None:
        return bound == table_id
    return not isinstance(actor, DeviceActor)
