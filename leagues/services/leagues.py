"""Changes of the leagues: the director makes a league (a season) with its points formula and its
standings settings, and adds its tournaments. Each function runs in one transaction, locks what it changes, records
an audit event and refuses bad input with a translated message, changing nothing.

The points of a tournament are written by `give_points` whenever its places may have changed (the reactions in
leagues/reactions.py: a bust, an undone bust, a void, a new entry, a deal that stops play), so they are given when
play is over and follow every correction; and again for the whole league when its formula changes."""

from __future__ import annotations

from fractions import Fraction

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import roles
from core.actor import Actor
from core.errors import ServiceError, check_length, require
from flights.selectors.events import event_of_day2, flight_of
from leagues.models import League, LeagueResult, LeagueTournament
from leagues.rules import points as pts
from payouts.selectors.structure import final_results, play_over
from tables.models import Elimination
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event

NAME_TOO_LONG = gettext_lazy("The name is too long: at most %(max)s characters.")
SETTINGS = (
    "name",
    "formula",
    "points_table",
    "participation",
    "base_buy_in",
    "knockout_points",
    "currency",
    "best_results",
    "lobby_standings",
)
POINT_SETTINGS = ("formula", "points_table", "participation", "base_buy_in", "knockout_points")  # a change gives the points again


def _formula_refusal(exc: pts.FormulaError) -> ServiceError:
    messages = {
        "kind": _("Choose the points formula: a points table, linear or square root."),
        "table_empty": _("A points table gives at least the first place its points."),
        "table_long": _("A points table names at most %(max)s places.") % {"max": pts.MAX_TABLE},
        "table_value": _("Place %(place)s: points are whole numbers from 0 to %(max)s.") % {"place": exc.place, "max": pts.MAX_POINTS},
        "table_rises": _("Place %(place)s would get more points than place %(better)s: a worse place never gets more.")
        % {"place": exc.place, "better": (exc.place or 2) - 1},
        "table_not_for_kind": _("Only the points-table formula takes points by place: clear the table or choose it."),
        "participation": _("Participation points are a whole number from 0 to %(max)s.") % {"max": pts.MAX_POINTS},
        "knockout": _("Points per knockout are a whole number from 0 to %(max)s.") % {"max": pts.MAX_POINTS},
        "base_buy_in": _("The base buy-in is an amount above zero, or empty for no buy-in factor."),
        "table_text": _("Type the points table as whole numbers separated by commas, such as 25, 18, 13."),
    }
    return ServiceError(messages.get(exc.code, str(exc)), code=f"formula_{exc.code}")


def _settings(data: dict, league: League) -> dict:
    """The settings given (a part of SETTINGS), checked together with the league's others; changes nothing."""
    unknown = sorted(set(data) - set(SETTINGS))
    if unknown:
        raise ServiceError(_("Unknown league setting: %(names)s.") % {"names": ", ".join(unknown)}, code="unknown_setting")
    merged = {name: data.get(name, getattr(league, name)) for name in SETTINGS}
    merged["name"] = " ".join(str(merged["name"] or "").split())
    if not merged["name"]:
        raise ServiceError(_("Give the league a name."), code="name_missing")
    check_length(merged["name"], League, "name", str(NAME_TOO_LONG))
    try:
        merged["points_table"] = list(pts.parse_table(merged["points_table"] or ()))
        if merged["formula"] != pts.TABLE and "formula" in data and "points_table" not in data:
            merged["points_table"] = []  # a formula chosen instead of the table: the table goes
        pts.Formula(
            merged["formula"],
            table=tuple(merged["points_table"]),
            participation=merged["participation"],
            base_buy_in=merged["base_buy_in"],
            knockout=merged["knockout_points"],
        )
    except pts.FormulaError as exc:
        raise _formula_refusal(exc) from exc
    best = merged["best_results"]
    if best is not None and (isinstance(best, bool) or not isinstance(best, int) or not 1 <= best <= 1000):
        raise ServiceError(_("The best results counted are a number from 1 to 1000, or empty for every result."), code="best_results")
    currency = str(merged["currency"] or "")
    if len(currency) != 3 or not currency.isascii() or not currency.isalpha() or not currency.isupper():
        raise ServiceError(_("Use a three-letter ISO code such as EUR or CZK."), code="currency")
    if not isinstance(merged["lobby_standings"], bool):
        raise ServiceError(_("Say yes or no: the standings on the lobby screen during breaks."), code="lobby_standings")
    return merged


def _new_version(league_id: int) -> None:
    League.objects.filter(pk=league_id).update(version=F("version") + 1)


def _snapshot(league: League) -> dict:
    return {name: getattr(league, name) for name in SETTINGS}


@transaction.atomic
def create_league(*, actor: Actor, data: dict) -> League:
    """A new league (a season) with its points formula and standings settings; no tournament yet."""
    require(actor, roles.SETUP)
    league = League(created_at=timezone.now(), created_by=actor_user(actor))
    for name, value in _settings(data, league).items():
        setattr(league, name, value)
    league.save()
    record_event(None, actor=actor, type_="league.created", payload={"league": league.pk, **_snapshot(league)})
    return league


@transaction.atomic
def update_league(league: League, *, actor: Actor, data: dict) -> League:
    """Change a league's settings; a new formula gives every finished tournament of it its points again."""
    require(actor, roles.SETUP)
    # Its tournaments first, then the league: the order a bust takes them (its tournament, then the league's version).
    for member in LeagueTournament.objects.filter(league_id=league.pk).order_by("tournament_id"):
        lock_tournament(member.tournament_id)
    row = League.objects.select_for_update().get(pk=league.pk)
    before = _snapshot(row)
    merged = _settings(data, row)
    if merged["base_buy_in"] is not None:
        _same_currency(row, merged["currency"])
    for name, value in merged.items():
        setattr(row, name, value)
    row.save()
    after = _snapshot(row)
    if after != before:
        _new_version(row.pk)
        record_event(None, actor=actor, type_="league.changed", payload={"league": row.pk, "before": before, "after": after})
        if any(after[name] != before[name] for name in POINT_SETTINGS):
            for member in LeagueTournament.objects.filter(league=row).order_by("tournament_id"):
                give_points(lock_tournament(member.tournament_id), actor=actor, league=row)
    return row


def _same_currency(league: League, currency: str, tournament: Tournament | None = None) -> None:
    """The buy-in factor compares buy-ins: every tournament of the league takes its buy-in in the league's currency."""
    members = Tournament.objects.filter(league_member__league=league)
    if tournament is not None:
        members = Tournament.objects.filter(pk=tournament.pk)
    other = members.exclude(currency=currency).first()
    if other is not None:
        raise ServiceError(
            _(
                "%(name)s takes its buy-in in %(currency)s: the buy-in factor compares buy-ins in the "
                "league's currency (%(league_currency)s)."
            )
            % {"name": other.name, "currency": other.currency, "league_currency": currency},
            code="currency_differs",
        )


@transaction.atomic
def add_tournament(league: League, *, actor: Actor, tournament: Tournament) -> LeagueTournament:
    """A tournament joins the league (one league at most); if its play is over, its points are given at once."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)  # the tournament, then the league: the order a bust takes them
    row = League.objects.select_for_update().get(pk=league.pk)
    member = LeagueTournament.objects.select_related("league").filter(tournament=t).first()
    if member is not None:
        raise ServiceError(
            _("%(name)s is already in the league %(league)s.") % {"name": t.name, "league": member.league.name},
            code="already_in_league",
            status=409,
        )
    flight = flight_of(t)
    if flight is not None:
        raise ServiceError(
            _(
                "%(name)s is flight %(flight)s of %(event)s: an event with flights counts once in a league, "
                "by its Day 2, whose field is every flight's entries. Add the event's Day 2."
            )
            % {"name": t.name, "flight": flight.label, "event": flight.event.name},
            code="flight_not_in_league",
            status=409,
        )
    if row.base_buy_in is not None:
        _same_currency(row, row.currency, t)
    member = LeagueTournament.objects.create(league=row, tournament=t, added_at=timezone.now(), added_by=actor_user(actor))
    _new_version(row.pk)
    record_event(t, actor=actor, type_="league.joined", payload={"league": row.pk, "name": row.name}, stats=False, seats=[])
    give_points(t, actor=actor, league=row)
    return member


@transaction.atomic
def remove_tournament(league: League, *, actor: Actor, tournament: Tournament) -> None:
    """A tournament leaves the league, and its points with it."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)  # the tournament, then the league: the order a bust takes them
    row = League.objects.select_for_update().get(pk=league.pk)
    member = LeagueTournament.objects.filter(league=row, tournament=t).first()
    if member is None:
        raise ServiceError(
            _("%(name)s is not in the league %(league)s.") % {"name": t.name, "league": row.name}, code="not_in_league", status=409
        )
    taken = LeagueResult.objects.filter(tournament=t).count()
    LeagueResult.objects.filter(tournament=t).delete()
    member.delete()
    _new_version(row.pk)
    record_event(
        t, actor=actor, type_="league.left", payload={"league": row.pk, "name": row.name, "results_taken": taken}, stats=False, seats=[]
    )


def results_now(t: Tournament, league: League, over: bool | None = None) -> dict[int, tuple[int, int, int, int]]:
    """player -> (place, place_low, field, points) as the places stand now: nothing while play goes on. A player
    with several entries (re-entries) has the best place of them. `over`: play_over(t), when the caller knows it.

    The Day 2 of an event with flights counts the whole event: its field is every flight's entries and Day 2's own
    late registrations, its places are Day 2's, and the players out in the flights (busted there, or whose bag was
    forfeited) share the places below Day 2's field, having no place of their own."""
    if not (play_over(t) if over is None else over):
        return {}
    rows = final_results(t)
    if not rows:
        return {}
    players = dict(Entry.objects.filter(tournament=t).exclude(status=Entry.Status.VOIDED).values_list("number", "player_id"))
    field, formula = len(players), league.rules()
    best: dict[int, tuple[int, int]] = {}
    for row in rows:
        player = players.get(row["entry"])
        if player is not None and (player not in best or (row["place"], row["place_low"]) < best[player]):
            best[player] = (row["place"], row["place_low"])
    out_in_flights: set[int] = set()
    event = event_of_day2(t)
    if event is not None:
        flights = list(
            Entry.objects.filter(tournament__flight__event=event).exclude(status=Entry.Status.VOIDED).values_list("player_id", flat=True)
        )
        carried = Entry.objects.filter(tournament=t, carried_into__isnull=False).exclude(status=Entry.Status.VOIDED).count()
        below = field  # Day 2's entries have places 1 to its field; the flights' others share the rest
        field += len(flights) - carried
        out_in_flights = set(flights) - set(best)
    knocked = knockouts_of(t, players) if formula.knockout else {}
    given = {
        player: (
            place,
            low,
            field,
            pts.points(formula, field=field, place=place, place_low=low, buy_in=t.buy_in, knockouts=knocked.get(player, 0)),
        )
        for player, (place, low) in best.items()
    }
    if out_in_flights:
        shared = (below + 1, field, field, pts.points(formula, field=field, place=below + 1, place_low=field, buy_in=t.buy_in))
        given.update(dict.fromkeys(out_in_flights, shared))
    return given


def knockouts_of(t: Tournament, players: dict[int, int]) -> dict[int, Fraction]:
    """Player id -> his knockouts in the tournament (all his entries): each standing elimination he won, a pot split
    between k winners counting 1/k each."""
    found: dict[int, Fraction] = {}
    for winners in Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING, kind=Elimination.Kind.BUST).values_list(
        "winners", flat=True
    ):
        for number in winners:
            player = players.get(number)
            if player is not None:
                found[player] = found.get(player, Fraction(0)) + Fraction(1, len(winners))
    return found


def give_points(t: Tournament, *, actor: Actor, league: League | None = None) -> None:
    """Write the tournament's league points as its places stand now (the caller holds the tournament lock): given
    when play is over, changed with a place, taken away when play goes on again. An event when anything changed."""
    if league is None:
        member = LeagueTournament.objects.select_related("league").filter(tournament=t).first()
        if member is None:
            return
        league = member.league
    kept = {r.player_id: r for r in LeagueResult.objects.filter(tournament=t)}
    over = play_over(t)
    if not kept and not over:
        return  # the usual bust: play goes on and nothing was given
    now_ = results_now(t, league, over)
    if {p: (r.place, r.place_low, r.field, r.points) for p, r in kept.items()} == now_ and all(
        r.league_id == league.pk for r in kept.values()
    ):
        return
    LeagueResult.objects.filter(tournament=t).delete()
    _new_version(league.pk)
    at = timezone.now()
    LeagueResult.objects.bulk_create(
        [
            LeagueResult(league=league, tournament=t, player_id=player, place=place, place_low=low, field=field, points=points, given_at=at)
            for player, (place, low, field, points) in now_.items()
        ]
    )
    record_event(
        t,
        actor=actor,
        type_="league.points",
        payload={
            "league": league.pk,
            "name": league.name,
            "players": len(now_),
            "taken": len(kept),
            # [player, place, place_low, points (hundredths)], best first: what the standings count from now on
            "given": sorted(
                ([player, place, low, points] for player, (place, low, _field, points) in now_.items()), key=lambda r: (r[1], r[0])
            ),
        },
        stats=False,
        seats=[],
    )
