"""Who reaches what: every page (by URL name), every API operation (URL name and method) and every
WebSocket route (by its name in live/routing.py), in one table.

The views, the API and the consumers take their role sets from here (web/access.py applies them to
pages and the API; live/consumers.py to sockets); the manual's docs/roles.md, "Who reaches what", shows the same table
and tests/web/test_roles_walk.py walks every route with every kind of visitor against it, so a route
missing here, a view that lets more in than this says, or a manual that says otherwise fails a test.

Who, besides the staff roles of core.roles (the director is in every staff set: has_role adds them):
  ANYONE       no login: public pages and the player's phone (names, tables and seats only)
  LOGIN        any logged-in user, whatever their role
  DISPLAY_LINK a lobby screen's display link (the secret in its URL)
  DEALER_LINK  a table's dealer link (the secret in its URL, or `Authorization: DealerLink <secret>`):
               that table's tablet only
  SHUFFLER     a table's shuffler token (`Authorization: Table <token>`)
  API_TOKEN    a staff member's API token (`Authorization: Token <token>`, web/auth.py), whatever the role
A Dealer login acts at one table: the table whose tablet it opened first in its session (web/access.py).
"""

from __future__ import annotations

from . import roles
from .roles import CASHIER, DEALER, DIRECTOR, FLOOR

ANYONE = "anyone"
LOGIN = "login"
DISPLAY_LINK = "display link"
DEALER_LINK = "dealer link"
SHUFFLER = "shuffler"
API_TOKEN = "API token"

# Every kind of visitor, in the order docs/roles.md lists them.
VISITORS = (ANYONE, DISPLAY_LINK, DEALER_LINK, SHUFFLER, API_TOKEN, LOGIN, DIRECTOR, FLOOR, CASHIER, DEALER)


def staff(*roles: str) -> tuple[str, ...]:
    """A staff role set: the director and these roles."""
    return (DIRECTOR, *roles)


DIRECTOR_ONLY = staff()
EVERY_ROLE = staff(FLOOR, CASHIER, DEALER)  # figures, the clock, the tables' levels: no names
DESK = staff(CASHIER, FLOOR)  # registration, entries (names, ID checks), receipts, seat cards
FLOOR_ONLY = staff(FLOOR)  # the floor's live picture (every event, names) and the floor's actions
TABLET = staff(FLOOR, DEALER)  # one table's dealer tablet (a Dealer login only at its own table)
AT_THE_TABLE = (*TABLET, DEALER_LINK)  # a table's dealer actions: also its dealer link
PUBLIC = (ANYONE,)

PAGES: dict[str, tuple[str, ...]] = {
    # accounts, language, API docs, health
    "login": PUBLIC,
    "logout": PUBLIC,
    "set_language": PUBLIC,
    "preferences": (LOGIN,),
    "healthz": PUBLIC,
    "robots": PUBLIC,
    "favicon": PUBLIC,
    "csp-report": PUBLIC,
    "javascript-catalog": PUBLIC,
    "tokens": DIRECTOR_ONLY,
    "tablet-worker": PUBLIC,  # the tablets' service worker (static/js/tablet-sw.js): the same file for everyone
    "push-worker": PUBLIC,  # the players' service worker for notifications (static/js/push-sw.js)
    "api-schema": PUBLIC,
    "api-docs": PUBLIC,
    "api-redoc": PUBLIC,
    # the tournaments
    "home": EVERY_ROLE,
    "tournament-detail": EVERY_ROLE,
    "register": DESK,
    "player-create": DESK,
    "waiting-list": DESK,  # a sold-out tournament's waiting list (names); its floor-only buttons ask api-waiting-offer/pass
    "reservations": DESK,  # the places reserved from phones (names, contacts); claimed on the registration page
    "entries": DESK,
    "entry-detail": DESK,
    "receipt": DESK,
    "receipt-pdf": DESK,
    "events": FLOOR_ONLY,
    "color-up": FLOOR_ONLY,
    "color-up-sheets": FLOOR_ONLY,
    "chip-counts": FLOOR_ONLY,  # every stack with names, each table's check, the room's difference
    "public-counts": PUBLIC,  # the players' chip-count page, while the house rule shows counts in public
    "penalties": FLOOR_ONLY,  # give, list and cancel penalties (TDA 51)
    # the end of a day: where it stands (names of the bags missing), its report sorted by stack (page,
    # CSV, PDF) and the bag slips; the page's close form shows only to the director (api-day-close)
    "day": FLOOR_ONLY,
    "day-report": FLOOR_ONLY,
    "day-report-csv": FLOOR_ONLY,
    "day-report-pdf": FLOOR_ONLY,
    "bag-slips": FLOOR_ONLY,
    "bag-slip-sheets": FLOOR_ONLY,  # the bag slips laid out for the browser's print (80 mm, 58 mm roll or A4)
    # events with Day 1 flights into one Day 2: the events, an event's flights, Day 2, the pool and the bags
    # carried and forfeited (names); its forms show only to the director (api-flight-*)
    "room": EVERY_ROLE,  # the room map: the venue's tables (names of the staff's own tournaments only)
    "venue-room": EVERY_ROLE,
    "flight-events": FLOOR_ONLY,
    "flight-event": FLOOR_ONLY,
    # leagues: the seasons, a league's formula, tournaments and standings (names and points, as the results
    # show them), as CSV and PDF; their forms show only to the director (api-league*); the players' standings page.
    # Staff of some tournaments only: a league holding one of them; a player's results in them only (web/api.tournament_of)
    "leagues": EVERY_ROLE,
    "league": EVERY_ROLE,
    "league-csv": EVERY_ROLE,
    "league-pdf": EVERY_ROLE,
    "league-public": PUBLIC,
    "player-results": DESK,  # a player's tournaments, places, prizes and points (his name and results only)
    "displays": DIRECTOR_ONLY,
    "lobby": (DISPLAY_LINK,),
    "room-display": (DISPLAY_LINK,),  # a room TV: every tournament running in the venue, today's schedule
    "director-clock": DIRECTOR_ONLY,
    "payouts": EVERY_ROLE,  # the prizes by place; the results (names) only for the desk and the floor
    "payout-pay": staff(CASHIER),
    "payout-receipt": DESK,
    "payout-receipt-pdf": DESK,
    "bounty-pay": staff(CASHIER),  # a bounty event's bounties paid at the cage, as prizes are
    "bounty-receipt": DESK,
    "bounty-receipt-pdf": DESK,
    "payout-results-csv": DESK,
    "payout-results-pdf": DESK,  # as the results on the payouts page
    "payout-reconciliation": staff(CASHIER),  # the cage's money: the cashier and the director
    # tables
    "tables": FLOOR_ONLY,
    "floor-map": FLOOR_ONLY,
    "house-rules": DIRECTOR_ONLY,
    "dealer-choose": TABLET,
    "dealer": TABLET,
    "dealer-link": (DEALER_LINK,),
    "seat-cards": DESK,
    "seat-card": DESK,
    "seat-search": PUBLIC,
    "today": PUBLIC,  # the players' page of the day: today's events and one seat search over those running
    "seat-page": PUBLIC,
    "draw-list": PUBLIC,
    "draw-detail": PUBLIC,
    "waiting-board": PUBLIC,  # a sold-out tournament's waiting list on the players' phones: alternate numbers, no names
    "reserve": PUBLIC,  # a player reserves a place from his phone (a form posting to itself; no account)
    "reservation": PUBLIC,  # his reservation by the secret code of its link: its number for the desk, cancel
    # setup
    "structure-list": DIRECTOR_ONLY,
    "structure-create": DIRECTOR_ONLY,
    "structure-import": DIRECTOR_ONLY,
    "structure-edit": DIRECTOR_ONLY,
    "structure-copy": DIRECTOR_ONLY,
    "structure-export": DIRECTOR_ONLY,
    "tournament-create": DIRECTOR_ONLY,
    "tournament-edit": DIRECTOR_ONLY,
    "tournament-structure": DIRECTOR_ONLY,
    # a tournament in one file (archive/): its download holds everything of it, personal data included
    "tournament-export": DIRECTOR_ONLY,
    "tournament-import": DIRECTOR_ONLY,
}

API: dict[str, dict[str, tuple[str, ...]]] = {
    "api-token": {"POST": PUBLIC},
    "api-logout": {"POST": (API_TOKEN,)},
    "api-tokens": {"GET": DIRECTOR_ONLY},
    "api-preferences": {"GET": (LOGIN,), "PATCH": (LOGIN,)},  # a login's own language
    "api-token-revoke": {"POST": DIRECTOR_ONLY},
    "api-structures": {"GET": DIRECTOR_ONLY, "POST": DIRECTOR_ONLY},
    "api-structure-import": {"POST": DIRECTOR_ONLY},
    "api-structure": {"GET": DIRECTOR_ONLY, "PUT": DIRECTOR_ONLY},
    "api-structure-copy": {"POST": DIRECTOR_ONLY},
    "api-structure-export": {"GET": DIRECTOR_ONLY},
    "api-tournaments": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},
    "api-tournament-import": {"POST": DIRECTOR_ONLY},  # a tournament file as a new tournament (archive/services/transfer.py)
    "api-tournament": {"GET": EVERY_ROLE, "PATCH": DIRECTOR_ONLY},
    "api-tournament-structure": {"GET": EVERY_ROLE, "PUT": DIRECTOR_ONLY},
    "api-registration": {"POST": DIRECTOR_ONLY},
    "api-stats": {"GET": EVERY_ROLE},
    "api-players": {"GET": DESK, "POST": DESK},
    "api-entries": {"GET": DESK, "POST": DESK},
    "api-entry": {"GET": DESK},
    # a sold-out tournament's waiting list: the desk puts players on it, seats and takes them off; the floor offers seats
    "api-waiting-list": {"GET": DESK, "POST": DESK},
    "api-waiting-offer": {"POST": FLOOR_ONLY},
    "api-waiting-seat": {"POST": DESK},
    "api-waiting-pass": {"POST": FLOOR_ONLY},
    "api-waiting-cancel": {"POST": DESK},
    # places reserved from phones: the desk lists, claims (a registration) and cancels them
    "api-reservations": {"GET": DESK},
    "api-reservation-claim": {"POST": DESK},
    "api-reservation-cancel": {"POST": DESK},
    "api-entry-rebuy": {"POST": DESK},
    "api-entry-addon": {"POST": DESK},
    "api-entry-bust": {"POST": FLOOR_ONLY},
    "api-entry-eliminators": {"POST": FLOOR_ONLY},  # the floor corrects who knocked a player out, with a reason
    "api-table-bust": {"POST": AT_THE_TABLE},  # the dealer reports a bust and who won the pot (house rule: at once, or the floor confirms)
    "api-bust-reports": {"GET": FLOOR_ONLY},
    "api-bust-report-confirm": {"POST": FLOOR_ONLY},
    "api-bust-report-reject": {"POST": FLOOR_ONLY},
    "api-entry-undo-bust": {"POST": FLOOR_ONLY},
    "api-entry-seat": {"POST": FLOOR_ONLY},
    "api-receipts": {"GET": DESK},
    "api-receipt": {"GET": DESK},
    "api-receipt-pay": {"POST": DESK},
    "api-receipt-void": {"POST": staff(CASHIER)},
    # a paper on the room's roll printer (docs/printing.md), for the roles of its page
    "api-receipt-print": {"POST": DESK},
    "api-payment-print": {"POST": DESK},
    "api-bounty-payment-print": {"POST": DESK},
    "api-seat-ticket-print": {"POST": DESK},
    "api-bag-slip-print": {"POST": FLOOR_ONLY},
    "api-events": {"GET": FLOOR_ONLY},
    "api-floor-snapshot": {"GET": FLOOR_ONLY},  # the floor socket's snapshot: every figure, names
    "api-lobby-snapshot": {"GET": (DISPLAY_LINK,)},  # a lobby screen's snapshot with the places' names (its link's secret)
    "api-displays": {"GET": DIRECTOR_ONLY, "POST": DIRECTOR_ONLY},
    "api-display-revoke": {"POST": DIRECTOR_ONLY},
    "api-clock": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},
    "api-clock-day-end": {"POST": DIRECTOR_ONLY},  # end the day after a level
    "api-clock-restart": {"POST": DIRECTOR_ONLY},  # the next day's start: time, level, time left
    "api-tables": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},
    # the venue: the room map for the staff (names of their own tournaments only), its set-up for the director, the
    # floor's states, reservations and tables handed to a tournament (in a tournament it works)
    "api-venues": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},
    "api-venue": {"GET": EVERY_ROLE, "PATCH": DIRECTOR_ONLY},
    "api-venue-tables": {"POST": DIRECTOR_ONLY},
    "api-venue-table": {"PATCH": DIRECTOR_ONLY, "DELETE": DIRECTOR_ONLY},
    "api-venue-import": {"POST": DIRECTOR_ONLY},
    "api-venue-printing": {"PATCH": DIRECTOR_ONLY},  # the desk's paper and the roll printer's address (docs/printing.md)
    "api-venue-tournaments": {"POST": DIRECTOR_ONLY},  # a tournament takes its tables from this venue
    "api-sit-and-go": {"POST": DIRECTOR_ONLY},  # a tournament being set up made a sit & go
    "api-venue-displays": {"GET": DIRECTOR_ONLY, "POST": DIRECTOR_ONLY},  # the room TVs' links
    "api-venue-display-revoke": {"POST": DIRECTOR_ONLY},
    "api-room-display-snapshot": {"GET": (DISPLAY_LINK,)},  # a room TV's snapshot (its link's secret): no player's name
    "api-venue-table-state": {"POST": FLOOR_ONLY},
    "api-venue-table-reservation": {"POST": FLOOR_ONLY, "DELETE": FLOOR_ONLY},
    "api-venue-table-hand": {"POST": FLOOR_ONLY},
    "api-table-state": {"GET": TABLET},  # a table's dealer tablet state (a Dealer login only at its own table)
    "api-dealer-link-state": {"GET": (DEALER_LINK,)},  # the same, for the table of the link (its secret in the path)
    "api-table-hand": {"POST": AT_THE_TABLE, "DELETE": AT_THE_TABLE},
    "api-table-hand-done": {"POST": AT_THE_TABLE},
    "api-table-button": {"POST": FLOOR_ONLY},
    "api-table-in-play": {"POST": DIRECTOR_ONLY},
    "api-table-positions": {"POST": FLOOR_ONLY},
    "api-table-dealer-links": {"GET": FLOOR_ONLY, "POST": FLOOR_ONLY},
    "api-dealer-link-revoke": {"POST": FLOOR_ONLY},
    "api-tables-break-order": {"GET": EVERY_ROLE, "PUT": DIRECTOR_ONLY},
    "api-moves": {"GET": FLOOR_ONLY},
    "api-moves-balance": {"POST": FLOOR_ONLY},
    "api-move-confirm": {"POST": FLOOR_ONLY},
    "api-move-cancel": {"POST": FLOOR_ONLY},
    "api-hand-for-hand": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},
    "api-house-rules": {"GET": EVERY_ROLE, "PATCH": DIRECTOR_ONLY},
    "api-color-ups": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},  # figures and table numbers, no names
    "api-found-chips": {"POST": FLOOR_ONLY},
    "api-table-race": {"GET": AT_THE_TABLE, "POST": AT_THE_TABLE},  # the sheet names the table's players
    "api-table-race-confirm": {"POST": AT_THE_TABLE},
    "api-table-race-cards": {"POST": AT_THE_TABLE},
    "api-table-clock-call": {"GET": AT_THE_TABLE, "POST": AT_THE_TABLE},  # call the clock on a seat (TDA 25)
    "api-table-clock-call-end": {"POST": AT_THE_TABLE},
    "api-table-counts": {"GET": AT_THE_TABLE, "POST": AT_THE_TABLE},  # the table's players and their counts
    "api-entry-count": {"POST": FLOOR_ONLY},
    "api-counts": {"GET": FLOOR_ONLY},  # every stack with names, each table's check
    "api-public-counts": {"GET": PUBLIC},  # while the house setting shows counts in public
    "api-day": {"GET": FLOOR_ONLY},  # the day's state: players still in, the bags missing (names), the totals
    "api-table-bags": {"GET": AT_THE_TABLE, "POST": AT_THE_TABLE},  # bag-and-tag a table's players at once
    "api-entry-bag": {"POST": FLOOR_ONLY},  # one seated player's bag (or its correction)
    "api-day-close": {"POST": DIRECTOR_ONLY},
    "api-day-redraw": {"POST": DIRECTOR_ONLY},  # redraw the next day's seating before play resumes
    "api-day-report": {"GET": FLOOR_ONLY},  # every bag with names, sorted by stack
    "api-flight-events": {"GET": FLOOR_ONLY, "POST": DIRECTOR_ONLY},  # events with Day 1 flights into one Day 2
    "api-flight-event": {"GET": FLOOR_ONLY},  # its flights, Day 2, the pool, the bags carried and forfeited (names)
    "api-flight-event-settings": {"PATCH": DIRECTOR_ONLY},  # the stack policy, Day 2 late registration
    "api-flight-event-flights": {"POST": DIRECTOR_ONLY},  # add a flight
    "api-flight-event-day2": {"POST": DIRECTOR_ONLY},  # set the Day 2 tournament
    "api-flight-end": {"POST": DIRECTOR_ONLY},  # a flight ends after N levels or at a share of its field
    "api-flight-carry": {"POST": DIRECTOR_ONLY},  # the bags go on to Day 2
    "api-flight-forfeited": {"GET": FLOOR_ONLY},  # the bags forfeited by best stack forward (names)
    "api-flight-ending": {"GET": FLOOR_ONLY},  # a flight's "this flight ends" line, above its table map
    "api-leagues": {"GET": EVERY_ROLE, "POST": DIRECTOR_ONLY},  # the seasons; the director makes one
    "api-league": {"GET": EVERY_ROLE, "PATCH": DIRECTOR_ONLY},  # formula, tournaments, standings; its settings
    "api-league-tournaments": {"POST": DIRECTOR_ONLY},  # a tournament joins the league
    "api-league-tournament": {"DELETE": DIRECTOR_ONLY},  # a tournament leaves it, with its points
    "api-public-league": {"GET": PUBLIC},
    "api-player-results": {"GET": DESK},  # as the player-results page  # the standings as the players' phones read them: names and points
    "api-penalties": {"GET": FLOOR_ONLY, "POST": FLOOR_ONLY},
    "api-penalty-cancel": {"POST": FLOOR_ONLY},
    "api-payouts": {"GET": EVERY_ROLE},
    "api-payout-plan": {"GET": EVERY_ROLE, "PATCH": DIRECTOR_ONLY},
    "api-payout-structure": {"PUT": DIRECTOR_ONLY, "DELETE": DIRECTOR_ONLY},
    "api-results": {"GET": DESK},
    "api-entry-payout": {"POST": staff(CASHIER)},
    "api-payments": {"GET": DESK},
    "api-payment-void": {"POST": staff(CASHIER)},
    "api-reconciliation": {"GET": staff(CASHIER)},
    # a bounty event's money: its heads and what each won name the players (the desk and the floor read them)
    "api-bounties": {"GET": DESK},
    "api-bounty-rules": {"PATCH": DIRECTOR_ONLY},
    "api-bounty-envelopes": {"POST": DIRECTOR_ONLY},
    "api-entry-bounty-payout": {"POST": staff(CASHIER)},
    "api-bounty-payments": {"GET": DESK},
    "api-bounty-payment-void": {"POST": staff(CASHIER)},
    # a satellite's seats and where play stops: figures; its tickets name players (the desk registers them)
    "api-satellite": {"GET": EVERY_ROLE, "PUT": DIRECTOR_ONLY, "DELETE": DIRECTOR_ONLY},
    "api-tickets": {"GET": DESK},
    "api-target-tickets": {"GET": DESK},
    "api-ticket-register": {"POST": DESK},
    "api-ticket-transfer": {"POST": DIRECTOR_ONLY},  # where the house allows it
    "api-deals": {"GET": DESK, "POST": FLOOR_ONLY},  # the deal names the players: the desk and the floor read it
    "api-deal-calculator": {"POST": FLOOR_ONLY},
    "api-deal-approve": {"POST": DIRECTOR_ONLY},
    "api-deal-reject": {"POST": FLOOR_ONLY},
    "api-draw-start": {"POST": DIRECTOR_ONLY},
    "api-draws": {"GET": PUBLIC},
    "api-draw-commit": {"POST": FLOOR_ONLY},
    "api-draw": {"GET": PUBLIC},
    "api-public-draws": {"GET": PUBLIC},  # the next commitment and the last revealed draw (the lobby TV's line)
    "api-seat-waiting": {"POST": FLOOR_ONLY},
    "api-seat-request": {"POST": FLOOR_ONLY, "DELETE": FLOOR_ONLY},
    "api-floor-map": {"GET": FLOOR_ONLY},  # the table map's read: seats, names, slips, hand-for-hand, clock calls
    "api-public-seats": {"GET": PUBLIC},
    "api-public-seat": {"GET": PUBLIC},
    "api-public-waiting": {"GET": PUBLIC},  # the waiting list's calls and numbers waiting (no names)
    "api-public-seat-push": {"POST": PUBLIC},  # a phone opts in for an entry's notifications (docs/notifications.md)
    "api-public-seat-push-stop": {"POST": PUBLIC},  # ... and out: the endpoint is the phone's own secret
    "api-public-waiting-push": {"POST": PUBLIC},  # an alternate's phone opts in for his place
    "api-public-waiting-push-stop": {"POST": PUBLIC},
    "api-public-reserve": {"POST": PUBLIC},  # reserve a place from a phone (throttled; a phone's number limited)
    "api-public-reservation": {"GET": PUBLIC, "DELETE": PUBLIC},  # one's own reservation by its link's code
    "api-shuffler-hand": {"POST": (SHUFFLER,)},
}

SOCKETS: dict[str, tuple[str, ...]] = {
    "floor-socket": FLOOR_ONLY,  # every event with names: the floor's screens, the director's
    "display-socket": (DISPLAY_LINK,),  # the lobby stream: figures, no names
    "seat-socket": PUBLIC,  # the same lobby stream, for players' phones and the cashier's overview
    "table-socket": TABLET,  # one table's notes (a Dealer login only at its own table)
    "dealer-link-socket": (DEALER_LINK,),  # the same notes, for the table of the link
    "room-socket": EVERY_ROLE,  # a venue's room map: a note per change in the room, no names (the map is read again)
    "room-display-socket": (DISPLAY_LINK,),  # a room TV: the same notes; its snapshot the running tournaments' figures
}


# The players' screens, pages and API operations by name: their phones (public) and the TVs (a display link). They
# speak the players' languages too (settings.PLAYER_LANGUAGES: German, Polish, Hungarian besides the staff's); every
# other page and API answer speaks the staff's (settings.LANGUAGES), whatever the browser or the switcher's cookie asks
# (web/middleware.py, PlayerLocaleMiddleware). The pages among them, TVs aside, carry the language switcher at their foot.
TVS = frozenset({"lobby", "room-display"})
PLAYERS = TVS | {
    "seat-search",
    "seat-page",
    "public-counts",
    "draw-list",
    "draw-detail",
    "waiting-board",
    "reserve",
    "reservation",
    "today",
    "league-public",
    "api-lobby-snapshot",
    "api-room-display-snapshot",
    "api-public-counts",
    "api-public-league",
    "api-draws",
    "api-draw",
    "api-public-draws",
    "api-public-seats",
    "api-public-seat",
    "api-public-waiting",
    "api-public-seat-push",
    "api-public-seat-push-stop",
    "api-public-waiting-push",
    "api-public-waiting-push-stop",
    "api-public-reserve",
    "api-public-reservation",
}


DEALER_TABLE = "dealer_table"  # the session key of a Dealer login's table (a Table's pk): web/access.py binds it


def dealer_may_use(user, session, table_pk: int) -> bool:
    """At a table's tablet (its state, presses, socket): a Dealer login only at the table its session is
    bound to (the table is then carried on the user as `bound_table_id`, for the services' check,
    core.roles.acts_at); anyone else as their role allows."""
    if not roles.table_bound(user) or isinstance(user, roles.DeviceActor):
        return roles.acts_at(user, table_pk)
    if session is None or session.get(DEALER_TABLE) != table_pk:
        return False
    user.bound_table_id = table_pk
    return True


def page(name: str) -> tuple[str, ...]:
    return PAGES[name]


def who(name: str) -> tuple[str, ...]:
    """The visitors a route lets in: a page or a socket by its name, an API operation as "name:METHOD"
    ("api-entry-bust:POST"). A name not in the table is an error, never a silent no."""
    if ":" in name:
        route, method = name.split(":", 1)
        return API[route][method]
    return PAGES[name] if name in PAGES else SOCKETS[name]


def allows(visitors: tuple[str, ...], user, tournament_id=None) -> bool:
    """The one role check: is this visitor in the set? Anyone where the set is public; a login by its roles
    (the director is in every staff set) in a tournament it works (core.roles.works_in), or any login where
    the set says LOGIN; a dealer link's tablet where the set lists DEALER_LINK (its table is checked by the
    views, web/access.py). The secrets of links and tokens are checked where they are read."""
    if ANYONE in visitors:
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if isinstance(user, roles.DeviceActor):
        return DEALER_LINK in visitors
    if LOGIN in visitors:
        return True
    return roles.has_role(user, staff_roles(visitors), tournament_id)


def may(user, name: str, tournament_id=None) -> bool:
    """May this user use this route (see `who`)? The views, the API, the sockets and the templates
    ({% if user|may:"register" %}) all ask this."""
    return allows(who(name), user, tournament_id)


def api(name: str) -> dict[str, tuple[str, ...]]:
    return API[name]


def socket(name: str) -> tuple[str, ...]:
    return SOCKETS[name]


def staff_roles(who: tuple[str, ...]) -> tuple[str, ...]:
    """The staff roles of a set (for roles.has_role), without the visitors who carry no login."""
    return tuple(name for name in who if name in (DIRECTOR, FLOOR, CASHIER, DEALER))


def describe(who: tuple[str, ...]) -> str:
    """A set as docs/roles.md writes it: the visitors in VISITORS order, comma-separated."""
    return ", ".join(name for name in VISITORS if name in who)
