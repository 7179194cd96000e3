"""Reads of the leagues: the leagues, a league's formula in words and as a table, its tournaments and its
standings, each in a constant number of queries whatever the season's size (bench/league.py)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import memory
from core.money import format_money
from flights.models import Flight
from leagues.models import League, LeagueResult, LeagueTournament
from leagues.rules import points as pts
from leagues.rules import standings as st
from tournament.models import Player, Tournament


def tie_rule() -> str:
    return _(
        "Ties: more counted points first; then countback over every result of the season (more first places, then "
        "more second places, and so on); then more tournaments played; players still equal share the rank."
    )


def formula_words(league: League, language: str | None = None) -> str:
    """The points formula as the house reads it."""
    if league.formula == pts.TABLE:
        table = ", ".join(str(p) for p in league.points_table)
        words = ngettext(
            "Points by place: %(table)s (the place past the table gets none).",
            "Points by place: %(table)s (places past the table get none).",
            len(league.points_table),
        ) % {"table": table}
    elif league.formula == pts.LINEAR:
        words = _("The field size minus the place plus one (the 5th of 30 gets 26).")
    else:
        words = _("10 × √field ÷ √place, to the hundredth (the winner of 30 gets 54.77, the 5th 24.49).")
    if league.base_buy_in is not None:
        words += " " + _("Times the tournament's buy-in ÷ %(base)s (a tournament costing twice that counts double).") % {
            "base": format_money(league.base_buy_in, league.currency, language)
        }
    if league.participation:
        words += " " + ngettext(
            "Plus %(n)s point for everyone who played.", "Plus %(n)s points for everyone who played.", league.participation
        ) % {"n": league.participation}
    if league.knockout_points:
        words += " " + ngettext(
            "Plus %(n)s point for every knockout in a bounty event (a split pot's share).",
            "Plus %(n)s points for every knockout in a bounty event (a split pot's share).",
            league.knockout_points,
        ) % {"n": league.knockout_points}
    words += " " + _("The field counts every entry (re-entries too); players sharing places share their points.")
    return words


def counted_words(league: League) -> str:
    if league.best_results is None:
        return _("Every result counts.")
    return ngettext("The best result of each player counts.", "The best %(n)s results of each player count.", league.best_results) % {
        "n": league.best_results
    }


def example_table(league: League, field: int, buy_in: int | None = None) -> list[dict]:
    """Places 1..field (at most 100 shown) with their points, for a field of `field` entries at `buy_in`."""
    buy_in = league.base_buy_in if buy_in is None else buy_in
    rows = pts.table_for(league.rules(), field=field, buy_in=buy_in or 0, places=100)
    return [{"place": place, "points": points, "shown": pts.shown(points)} for place, points in enumerate(rows, 1)]


def league_tournaments(league_id: int) -> list[int]:
    """The tournaments a league touches (ids): its own, and the flights of a Day 2 among them (their players' points
    count in it). A member of the staff who works one of them reads the league (core.roles.works_in)."""
    own = list(LeagueTournament.objects.filter(league_id=league_id).values_list("tournament_id", flat=True))
    return own + list(Flight.objects.filter(event__day2_id__in=own).values_list("tournament_id", flat=True))


def league_list(worked=None) -> list[dict]:
    """Every league, the newest first. `worked`: the ids of the tournaments a member of the staff works (None: every
    one): only the leagues that touch one of them (league_tournaments)."""
    rows = League.objects.annotate(tournaments=Count("members", distinct=True)).order_by("-created_at", "id")
    if worked is not None:
        rows = rows.filter(
            pk__in=League.objects.filter(
                Q(members__tournament__in=worked) | Q(members__tournament__day2_of__flights__tournament__in=worked)
            )
        )
    return [
        {"id": row.pk, "name": row.name, "formula": row.formula, "tournaments": row.tournaments, "best_results": row.best_results}
        for row in rows
    ]


def tournaments_of(league: League) -> list[dict]:
    """The league's tournaments, earliest first, each with whether its points are given and to how many players,
    and the event it is the Day 2 of (its flights' players count in it), if any."""
    given = dict(
        LeagueResult.objects.filter(league=league).values("tournament_id").annotate(n=Count("id")).values_list("tournament_id", "n")
    )
    rows = (
        LeagueTournament.objects.filter(league=league)
        .select_related("tournament", "tournament__day2_of")
        .order_by("tournament__start_at", "tournament_id")
    )
    return [
        {
            "tournament": m.tournament_id,
            "name": m.tournament.name,
            "start_at": m.tournament.start_at,
            "buy_in": m.tournament.buy_in,
            "currency": m.tournament.currency,
            "status": m.tournament.status,
            "points_given": given.get(m.tournament_id, 0),
            "event": _day2_event(m.tournament),
        }
        for m in rows
    ]


def _day2_event(t: Tournament) -> str | None:
    try:
        return t.day2_of.name
    except ObjectDoesNotExist:
        return None


def standings(league: League) -> list[dict]:
    """The standings, best first: rank, player, name, counted and total points (hundredths, and as shown), results
    played and counted, and the places. One query (the results with their players' names), whatever the season's
    size."""
    names: dict[int, str] = {}
    results = []
    for player, tournament, place, points, first, last, nick in LeagueResult.objects.filter(league=league).values_list(
        "player_id", "tournament_id", "place", "points", "player__first_name", "player__last_name", "player__nickname"
    ):
        results.append(st.Result(player, tournament, place, points))
        if player not in names:
            names[player] = Player.name_of(first, last, nick)
    rows = st.standings(results, best=league.best_results)
    return [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names[row.player],
            "points": row.counted,
            "shown": pts.shown(row.counted),
            "total": row.total,
            "played": row.played,
            "counted": len(row.counted_tournaments),
            "counted_tournaments": row.counted_tournaments,
            "best_place": row.places[0] if row.places else None,
            "wins": row.places.count(1),
        }
        for row in rows
    ]


def points_by_tournament(league: League) -> dict[tuple[int, int], int]:
    """(player, tournament) -> that result's points (hundredths): the spreadsheet's columns. One query."""
    return {
        (player, tournament): points
        for player, tournament, points in LeagueResult.objects.filter(league=league).values_list("player_id", "tournament_id", "points")
    }


def standings_kept(league: League) -> list[dict]:
    """The standings, computed once per version of the league in this worker (core/memory.py): the lobby TVs of its
    tournaments and the players' phones ask at every bust, the standings change when a tournament is over."""
    return memory.at_version("league-standings", league.pk, league.version, lambda: (league.version, standings(league)))[1]


PUBLIC_FIELDS = ("rank", "name", "shown", "played", "wins")


def public_standings(league: League, members: list[dict] | None = None) -> dict:
    """The standings as the players' phones see them: names, points, results played and wins. `members`: the
    league's tournaments (tournaments_of), when the caller has read them."""
    members = tournaments_of(league) if members is None else members
    return {
        "id": league.pk,
        "name": league.name,
        "counted_words": counted_words(league),
        "tie_rule": tie_rule(),
        "tournaments": len(members),
        "finished": sum(1 for m in members if m["points_given"]),
        "standings": [{key: row[key] for key in PUBLIC_FIELDS} for row in standings_kept(league)],
    }


LOBBY_ROWS = 10  # what a TV shows in large type without scrolling


def lobby_league(t: Tournament) -> dict | None:
    """The league standings a lobby TV of this tournament shows during its breaks (the league's display setting):
    its name and the first LOBBY_ROWS places (names and points); None when it shows none."""
    league = league_of(t)
    if league is None or not league.lobby_standings:
        return None
    rows = [{key: row[key] for key in ("rank", "name", "shown")} for row in standings_kept(league)[:LOBBY_ROWS]]
    return {"id": league.pk, "name": league.name, "rows": rows} if rows else None


def league_link(tournament_id: int) -> dict | None:
    """The league a tournament counts for, as its public pages link to its standings: {"id", "name"}, or None."""
    league = league_of(tournament_id)
    return {"id": league.pk, "name": league.name} if league else None


def league_of(tournament: Tournament | int) -> League | None:
    """The league a tournament (or a tournament's id) counts for, or None."""
    member = LeagueTournament.objects.select_related("league").filter(tournament=tournament).first()
    return member.league if member else None


def league_state(league: League, language: str | None = None, field: int = 30) -> dict:
    """A league's page: its settings, the formula in words and as a table, its tournaments and its standings."""
    return {
        "id": league.pk,
        "name": league.name,
        "formula": league.formula,
        "points_table": list(league.points_table),
        "participation": league.participation,
        "knockout_points": league.knockout_points,
        "base_buy_in": league.base_buy_in,
        "currency": league.currency,
        "best_results": league.best_results,
        "lobby_standings": league.lobby_standings,
        "formula_words": formula_words(league, language),
        "counted_words": counted_words(league),
        "tie_rule": tie_rule(),
        "example_field": field,
        "example": example_table(league, field),
        "tournaments": tournaments_of(league),
        "standings": standings_kept(league),
    }
