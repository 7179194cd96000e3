"""The screens of the leagues: the leagues page (every season; the director makes one there), a league's
page (its standings, the formula in words and as a table for a field size, its tournaments; the director's forms to
change its settings and add or take out tournaments), the standings as CSV and PDF, and the players' standings page
for their phones, and a player's results. The pages only read (leagues/selectors/leagues.py); every change goes through the JSON API
(web/leagues/api.py), sent by static/js/api-forms.js; static/js/league.js keeps the standings live."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core import access, roles
from core.money import format_major
from leagues.models import League, LeagueTournament
from leagues.rules import points as pts
from leagues.selectors import leagues as leagues_selectors
from leagues.selectors.player_results import player_results
from payouts.selectors.bounties import won_by_player
from payouts.selectors.reports import BOM, csv_text
from tournament.models import Player, Tournament
from web.access import page
from web.public_addresses import public_url, qr_svg, shown_url

from .pdf import standings_pdf

EXAMPLE_FIELD = 30


def _field(request) -> int:
    try:
        return min(max(int(request.GET.get("field", EXAMPLE_FIELD)), 1), 10_000)
    except (TypeError, ValueError):
        return EXAMPLE_FIELD


def live_tournaments(state: dict) -> list[int]:
    """The league's tournaments whose points may still come (not given yet: in play, or still to start), the 20
    latest: their public lobby streams carry the "league.points" event that makes the standings new."""
    return [row["tournament"] for row in state["tournaments"] if not row["points_given"]][-20:]


@page("leagues")
def leagues_page(request):
    return render(
        request,
        "leagues/leagues.html",
        {
            "leagues": leagues_selectors.league_list(roles.worked_ids(request.user)),
            "may_create": access.may(request.user, "api-leagues:POST"),
            "formulas": League.Formula.choices,
        },
    )


@page("league")
def league_page(request, league_id: int):
    league = get_object_or_404(League, pk=league_id)
    state = leagues_selectors.league_state(league, get_language(), _field(request))
    may = {
        name: access.may(request.user, name) for name in ("api-league:PATCH", "api-league-tournaments:POST", "api-league-tournament:DELETE")
    }
    taken = LeagueTournament.objects.values("tournament_id")
    players_url = public_url(request, reverse("league-public", args=[league.pk]))
    return render(
        request,
        "leagues/league.html",
        {
            "league": league,
            "state": state,
            "formulas": League.Formula.choices,
            "may_settings": may["api-league:PATCH"],
            "may_add": may["api-league-tournaments:POST"],
            "may_remove": may["api-league-tournament:DELETE"],
            "choices": Tournament.objects.exclude(pk__in=taken).filter(flight__isnull=True).order_by("-start_at", "pk")[:200]
            if may["api-league-tournaments:POST"]
            else [],
            "points_table_text": ", ".join(str(p) for p in league.points_table),
            "base_major": format_major(league.base_buy_in, league.currency) if league.base_buy_in else "",
            "players_url": shown_url(players_url),
            "players_qr": qr_svg(players_url),
            "live": {
                "api": f"leagues/{league.pk}/",
                "tournaments": live_tournaments(state),
                # a name links to the player's results (who may see them): this address with his id for the 0
                "player": reverse("player-results", args=[0]) if access.may(request.user, "player-results") else None,
            },
        },
    )


def csv_rows(rows: list[dict], tournaments: list[int], points: dict[tuple[int, int], int]) -> list[list]:
    """A row per player: the standing, then his points in each tournament (a result not counted in parentheses, none
    where he did not play), as a club's spreadsheet has them."""

    def cell(row: dict, tournament: int) -> str:
        got = points.get((row["player"], tournament))
        if got is None:
            return ""
        return pts.shown(got) if tournament in row["counted_tournaments"] else f"({pts.shown(got)})"

    return [
        [
            row["rank"],
            csv_text(row["name"]),
            row["shown"],
            row["counted"],
            row["played"],
            row["wins"],
            row["best_place"] or "",
            *(cell(row, t) for t in tournaments),
        ]
        for row in rows
    ]


@page("league-csv")
def league_csv(request, league_id: int):
    """The standings as a CSV download (UTF-8 with a byte order mark, so a spreadsheet opens the accents), with a column
    of points per tournament of the season."""
    league = get_object_or_404(League, pk=league_id)
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    members = leagues_selectors.tournaments_of(league)  # the season's tournaments, earliest first: a column each
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            _("Points"),
            _("Results counted"),
            _("Played"),
            _("Wins"),
            _("Best place"),
            *(csv_text(f"{m['name']} {formats.date_format(timezone.localtime(m['start_at']), 'SHORT_DATE_FORMAT')}") for m in members),
        ]
    )
    writer.writerows(
        csv_rows(
            leagues_selectors.standings_kept(league), [m["tournament"] for m in members], leagues_selectors.points_by_tournament(league)
        )
    )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="league-{league.pk}.csv"'
    return response


@page("league-pdf")
def league_pdf(request, league_id: int):
    """The standings on A4, to print and pin up."""
    league = get_object_or_404(League, pk=league_id)
    response = HttpResponse(
        standings_pdf(
            league, leagues_selectors.standings_kept(league), leagues_selectors.counted_words(league), leagues_selectors.tie_rule()
        ),
        content_type="application/pdf",
    )
    response["Content-Disposition"] = f'inline; filename="league-{league.pk}.pdf"'
    return response


@page("player-results")
def player_page(request, player_id: int):
    """A player's results, for the desk and the floor: his tournaments, places, prizes and league points (a member of
    the staff who works some tournaments only: those there; the gate has refused him a player with none, web/api.py)."""
    player = get_object_or_404(Player, pk=player_id)
    r = player_results(player, roles.worked_ids(request.user))
    # A bounty event's knockouts and bounties won (payouts/selectors/bounties.won_by_player): a column where any is one.
    bounties = won_by_player(player.pk, [row["tournament"] for row in r["tournaments"]])
    rows = [{**row, "bounty": bounties.get(row["tournament"])} for row in r["tournaments"]]
    return render(request, "leagues/player.html", {"r": {**r, "tournaments": rows}, "bounty_column": bool(bounties)})


@page("league-public")
def league_public(request, league_id: int):
    """The standings on a player's phone: names, points, results played and wins."""
    league = get_object_or_404(League, pk=league_id)
    members = leagues_selectors.tournaments_of(league)
    return render(
        request,
        "leagues/public.html",
        {
            "league": league,
            "state": leagues_selectors.public_standings(league, members),
            "live": {"api": f"public/leagues/{league.pk}/standings/", "tournaments": live_tournaments({"tournaments": members})},
        },
    )
