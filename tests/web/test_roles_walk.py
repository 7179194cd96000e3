"""Who reaches what, walked: every URL pattern, every operation of the OpenAPI schema and every WebSocket
route, with every kind of visitor, against the one table (core/access.py) and the manual's copy of it
(docs/roles.md, "Who reaches what").

Allowed means the gate let the visitor through: not 401 or 403, not a redirect to the login, not a
server error (a 400 for the empty body a walk sends, or a 404, is past the gate). Refused means 401,
403, a redirect to the login, or, for a route whose secret is in the URL, 404 for a wrong secret; on a
socket, the close code 4003. Each request runs in a savepoint that is rolled back, and the visitor's
cookies are put back after it, so nothing the walk sends (a revocation, a logout) changes the rest.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from drf_spectacular.generators import SchemaGenerator

from core import access
from core.roles import CASHIER, DEALER, DIRECTOR, FLOOR
from leagues.services import leagues as league_services
from live.routing import websocket_urlpatterns
from tables.models import Table
from tables.services import dealer_links, draws
from tables.services import setup as table_setup
from tests.conftest import PASSWORD
from tests.helpers import register
from tournament.services import registration
from venues.services import displays as venue_displays
from venues.services import setup as venue_setup

ROLES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "roles.md"
STAFF = (DIRECTOR, FLOOR, CASHIER, DEALER)
# Staff per tournament: a Floor and a Cashier who work another tournament only (core/roles.py), and a
# Floor who works this tournament and the other one (scoped, yet let in wherever this tournament is touched).
ELSEWHERE = {"Floor of another tournament": FLOOR, "Cashier of another tournament": CASHIER}
HERE = {"Floor of this tournament and another": FLOOR}
WALKERS = (access.ANYONE, access.DISPLAY_LINK, access.DEALER_LINK, access.SHUFFLER, access.API_TOKEN, *STAFF, *ELSEWHERE, *HERE)
TOKEN_ROUTES = {access.DISPLAY_LINK, access.DEALER_LINK}  # visitors whose secret is part of the URL
WRONG_SECRET = "not-a-secret-of-this-room"


def url_patterns(patterns=None, prefix: str = ""):
    """Every (route, name) of the site, admin left out (checked on its own below)."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            yield from url_patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name


def tournament_route(route: str) -> bool:
    """A route that touches this tournament: its id in the path, or an event's (its flights and Day 2), or, with no
    tournament in the path (web/api.tournament_of), the room's league (made of this tournament only) or its
    player (his results and tickets are in this tournament only)."""
    return (
        "<id:tournament_id>" in route
        or "<id:event_id>" in route
        or "<id:league_id>" in route
        or "<id:player_id>" in route
        or ("<id:pk>" in route and "structures/" not in route)
    )


def expected(visitor: str, who: tuple[str, ...], *, api: bool, route: str = "") -> bool:
    if visitor in ELSEWHERE:  # as their role, but never at the routes touching this tournament
        return access.ANYONE in who or (not tournament_route(route) and expected(ELSEWHERE[visitor], who, api=api))
    if visitor in HERE:  # as their role; but the walk's event id names no event, which touches no tournament worked
        if "<id:event_id>" in route:
            return access.ANYONE in who
        return expected(HERE[visitor], who, api=api, route=route)
    if access.ANYONE in who or visitor in who:
        return True
    if visitor in STAFF:
        return access.LOGIN in who
    if visitor == access.API_TOKEN and api:
        return FLOOR in who or access.LOGIN in who  # the walk's API token is a Floor member's
    return False


class Room:
    """One seeded tournament and a client per visitor."""

    def __init__(self, users: dict, tournament, template, player, display, link_secret: str, link, shuffler: str, league):
        self.users, self.t, self.template, self.player, self.league = users, tournament, template, player, league
        self.display, self.link_secret, self.link, self.shuffler = display, link_secret, link, shuffler
        self.room_display = venue_displays.create_display(venue_setup.default_venue(), actor=users[DIRECTOR], label="Room TV")
        self.clients: dict[str, Client] = {}
        self.headers: dict[str, dict] = {visitor: {} for visitor in WALKERS}
        for visitor in WALKERS:
            self.clients[visitor] = Client(raise_request_exception=False)
        for role in (*STAFF, *ELSEWHERE, *HERE):
            self.clients[role].force_login(users[role])
        # The Dealer login's tablet opens table 1: its session is bound there (web/access.py).
        assert self.clients[DEALER].get(f"/t/{tournament.pk}/tables/1/dealer/").status_code == 200
        self.headers[access.DEALER_LINK] = {"HTTP_AUTHORIZATION": f"DealerLink {link_secret}"}
        self.headers[access.SHUFFLER] = {"HTTP_AUTHORIZATION": f"Table {shuffler}"}
        answer = Client().post(
            "/api/auth/token/", {"username": users[FLOOR].username, "password": PASSWORD}, content_type="application/json"
        )
        assert answer.status_code == 200, answer.content
        self.headers[access.API_TOKEN] = {"HTTP_AUTHORIZATION": f"Token {answer.json()['token']}"}

    def kwargs(self, route: str, who: tuple[str, ...], visitor: str) -> dict:
        values = {
            "pk": self.template.pk if "structures/" in route else self.t.pk,
            "number": 1,
            "player_id": self.player.pk,
            "display_id": self.display.pk,
            "link_id": self.link.pk,
            "token_id": 1,
            "tournament_id": self.t.pk,
            "lang": "cs",
            "event_id": 1,
            "league_id": self.league.pk,
            "venue_id": venue_setup.default_venue().pk,
            "code": "ABCD2345",  # a reservation's link: no such reservation, the public page's 404
        }
        if access.DISPLAY_LINK in who:
            secret = self.room_display.token if "display/room/" in route else self.display.token  # a room TV's link, a lobby TV's
            values["token"] = secret if visitor == access.DISPLAY_LINK else WRONG_SECRET
        elif access.DEALER_LINK in who and "<str:token>" in route:
            values["token"] = self.link_secret if visitor == access.DEALER_LINK else WRONG_SECRET
        return values

    def request(self, visitor: str, method: str, path: str):
        """One request, in a savepoint rolled back afterwards, the visitor's cookies put back."""
        client = self.clients[visitor]
        cookies = client.cookies.copy()
        body = {} if method in ("POST", "PUT", "PATCH") else None
        with transaction.atomic():
            kwargs = {"content_type": "application/json"} if body is not None else {}
            response = (
                getattr(client, method.lower())(path, body, **kwargs, **self.headers[visitor])
                if body is not None
                else getattr(client, method.lower())(path, **self.headers[visitor])
            )
            transaction.set_rollback(True)
        client.cookies = cookies
        return response


def fill(route: str, values: dict) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def verdict(response, *, secret_route: bool) -> str:
    status = response.status_code
    if status in (401, 403) or (secret_route and status == 404):
        return "refused"
    if status in (301, 302) and "/accounts/login/" in response.get("Location", ""):
        return "refused"
    if status >= 500:
        return f"error {status}"
    return "allowed"


@pytest.fixture
def walk_room(director, floor, cashier, dealer, tournament, template, settings):
    cache.clear()  # the public throttle counts per address across tests
    settings.PUBLIC_API_RATE = settings.PUBLIC_API_ADDRESS_RATE = "100000/minute"
    shuffler = None
    for n in (1, 2, 3, 4):
        _table, token = table_setup.open_table(tournament, actor=director, number=n, seats=9)
        shuffler = shuffler or token
    entries = register(cashier, tournament, 20)
    draws.draw_start(tournament, actor=director)
    display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
    link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=1), actor=floor, label="tablet 1")
    users = {DIRECTOR: director, FLOOR: floor, CASHIER: cashier, DEALER: dealer, **elsewhere(director, template, tournament)}
    league = league_services.create_league(actor=director, data={"name": "Spring season", "formula": "linear"})
    league_services.add_tournament(league, actor=director, tournament=tournament)
    return Room(users, tournament, template, entries[0].player, display, secret, link, shuffler, league)


def elsewhere(director, template, tournament) -> dict:
    """A Floor and a Cashier who work only a side event: at this tournament they are strangers; and a Floor who works
    the side event and this tournament."""
    from tests.conftest import make_user, tournament_data
    from tournament.models import StaffProfile
    from tournament.services import setup

    side = setup.create_tournament(tournament_data(name="Side event"), actor=director, template=template)
    users = {}
    for visitor, role in ELSEWHERE.items():
        user = make_user(role.lower() + "-side", role)
        StaffProfile.objects.create(user=user).tournaments.add(side)
        users[visitor] = user
    for visitor, role in HERE.items():
        user = make_user(role.lower() + "-both", role)
        StaffProfile.objects.create(user=user).tournaments.add(side, tournament)
        users[visitor] = user
    return users


def test_every_route_is_in_the_table_and_every_visitor_meets_its_gate(walk_room):
    problems = []
    patterns = list(url_patterns())
    names = {name for _route, name in patterns}
    for route, name in patterns:
        if name not in access.PAGES and name not in access.API:
            problems.append(f"{route} ({name}): not in core/access.py")
    problems += [f"{name}: in the table, but no such URL" for name in [*access.PAGES, *access.API] if name not in names]

    # Pages: GET, every visitor.
    for route, name in patterns:
        if name not in access.PAGES:
            continue
        who = access.PAGES[name]
        secret_route = "<str:token>" in route
        for visitor in WALKERS:
            path = fill(route, walk_room.kwargs(route, who, visitor))
            got = verdict(walk_room.request(visitor, "GET", path), secret_route=secret_route)
            want = "allowed" if expected(visitor, who, api=False, route=route) else "refused"
            if got != want:
                problems.append(f"page {name} ({path}) as {visitor}: {got}, the table says {want}")

    # API: every operation of the schema, every visitor.
    schema = SchemaGenerator().get_schema(request=None, public=True)
    seen = set()
    for schema_path, operations in schema["paths"].items():
        for method in operations:
            if method.upper() not in ("GET", "POST", "PUT", "PATCH", "DELETE"):
                continue
            method = method.upper()
            sample = re.sub(r"\{(\w+)\}", lambda m: "1", schema_path)
            name = resolve(sample).url_name
            route = next(r for r, n in patterns if n == name)
            seen.add((name, method))
            who = access.API.get(name, {}).get(method)
            if who is None:
                problems.append(f"{method} {schema_path} ({name}): not in core/access.py")
                continue
            for visitor in WALKERS:
                path = fill(route, walk_room.kwargs(route, who, visitor))
                got = verdict(walk_room.request(visitor, method, path), secret_route=False)
                want = "allowed" if expected(visitor, who, api=True, route=route) else "refused"
                if got != want:
                    problems.append(f"{method} {path} ({name}) as {visitor}: {got}, the table says {want}")
    problems += [
        f"{method} {name}: in the table, not in the API's schema"
        for name, methods in access.API.items()
        for method in methods
        if (name, method) not in seen
    ]
    assert not problems, "\n".join(problems)


def test_admin_is_for_superusers_only(walk_room, django_user_model):
    for visitor in (access.ANYONE, *STAFF):
        response = walk_room.request(visitor, "GET", "/admin/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"], visitor
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", password=PASSWORD))
    assert admin.get("/admin/").status_code == 200


def test_the_manual_shows_the_same_table():
    """docs/roles.md, "Who reaches what": one row per page, API operation and socket, as core/access.py says."""
    rows = {}
    for line in ROLES_PAGE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `([\w-]+)` \| (page|socket|GET|POST|PUT|PATCH|DELETE) \| ([^|]*) \|$", line)
        if m:
            rows[(m.group(1), m.group(2))] = m.group(3).strip()
    code = {(name, "page"): access.describe(who) for name, who in access.PAGES.items()}
    code |= {(name, method): access.describe(who) for name, methods in access.API.items() for method, who in methods.items()}
    code |= {(name, "socket"): access.describe(who) for name, who in access.SOCKETS.items()}
    stale = sorted(
        f"{name} {kind}: docs/roles.md says {rows.get((name, kind))!r}, the code {who!r}"
        for (name, kind), who in code.items()
        if rows.get((name, kind)) != who
    )
    extra = sorted(f"{name} {kind}: in docs/roles.md only" for name, kind in rows if (name, kind) not in code)
    assert not stale and not extra, "\n".join(stale + extra)


# --- sockets -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_socket_route_with_every_visitor(director, floor, cashier, dealer, tournament):
    def seed():
        table, _token = table_setup.open_table(tournament, actor=director, number=1, seats=9)
        display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
        link, secret = dealer_links.create_dealer_link(table, actor=floor, label="tablet 1")
        session = SessionStore()
        session[access.DEALER_TABLE] = table.pk
        session.create()
        strangers = elsewhere(director, tournament.structure, tournament)
        room_tv = venue_displays.create_display(venue_setup.default_venue(), actor=director, label="Room TV")
        return display.token, secret, session.session_key, strangers, venue_setup.default_venue().pk, room_tv.token

    display_secret, link_secret, session_key, strangers, venue_id, room_secret = await database_sync_to_async(seed)()
    app = URLRouter(websocket_urlpatterns)
    users = {DIRECTOR: director, FLOOR: floor, CASHIER: cashier, DEALER: dealer, **strangers}
    names = {p.name for p in websocket_urlpatterns}
    problems = [f"socket {name}: not in core/access.py" for name in names if name not in access.SOCKETS]
    problems += [f"socket {name}: in the table, no such route" for name in access.SOCKETS if name not in names]
    for pattern in websocket_urlpatterns:
        who = access.SOCKETS.get(pattern.name, ())
        for visitor in (access.ANYONE, access.DISPLAY_LINK, access.DEALER_LINK, *STAFF, *ELSEWHERE, *HERE):
            values = {"tournament_id": tournament.pk, "number": 1, "venue_id": venue_id}
            if access.DISPLAY_LINK in who:
                secret = room_secret if "display/room/" in str(pattern.pattern) else display_secret
                values["token"] = secret if visitor == access.DISPLAY_LINK else WRONG_SECRET
            elif access.DEALER_LINK in who:
                values["token"] = link_secret if visitor == access.DEALER_LINK else WRONG_SECRET
            path = fill(str(pattern.pattern), values)
            communicator = WebsocketCommunicator(app, path)
            communicator.scope["user"] = users.get(visitor, AnonymousUser())
            communicator.scope["session"] = await database_sync_to_async(SessionStore)(session_key)
            connected, code = await communicator.connect(timeout=3)
            want = expected(visitor, who, api=False, route=str(pattern.pattern))
            if connected:
                await communicator.disconnect()
            if connected != want or (not connected and code != 4003):
                problems.append(
                    f"socket {pattern.name} ({path}) as {visitor}: connected={connected} code={code}, "
                    f"the table says {'allowed' if want else 'refused'}"
                )
    assert not problems, "\n".join(problems)


# Page views that still take a post: Django's own login, logout and language switch; every other form of
# the screens saves through the JSON API.
POSTS_TO_THE_PAGE = {"login", "logout", "set_language"}
POSTS_TO_THE_PAGE |= {"reserve", "reservation"}  # a player's phone reserves and cancels with no JavaScript and no account
# A browser posts what the Content-Security-Policy blocked (web/csp_report.py): logged, nothing changes.
POSTS_TO_THE_PAGE |= {"csp-report"}


def test_no_page_view_takes_a_post(walk_room):
    """One write path: a screen changes state through the JSON API only; its page answers a
    post with 405, whoever sends it, and nothing changes."""
    taking = []
    for route, name in url_patterns():
        if name not in access.PAGES or name in POSTS_TO_THE_PAGE:
            continue
        who = access.PAGES[name]
        visitor = next((v for v in (access.DISPLAY_LINK, access.DEALER_LINK) if v in who), DIRECTOR)
        path = fill(route, walk_room.kwargs(route, who, visitor))
        client = walk_room.clients[visitor]
        cookies = client.cookies.copy()
        with transaction.atomic():
            status = client.post(path, {"language": "cs", "name": "x"}, **walk_room.headers[visitor]).status_code
            transaction.set_rollback(True)
        client.cookies = cookies
        if status != 405:
            taking.append(f"{name} ({path}): {status}")
    assert taking == [], "\n".join(taking)
