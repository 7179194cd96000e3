"""The leagues' reactions to the floor, the desk and the money (core.reactions; registered in LeaguesConfig.ready()):
whatever may change a finishing place gives the tournament's league points again, in the same transaction."""

from __future__ import annotations

from core.actor import Actor
from leagues.services.leagues import give_points
from tournament.models import Tournament


def points_follow_the_places(*, actor: Actor, tournament: Tournament, **_facts) -> None:
    """Reaction to a bust, an undone bust, a void, a new entry, a deal approved (a deal that stops play places its
    players) and corrected eliminators (knockout points): the points as the places and the knockouts stand now."""
    give_points(tournament, actor=actor)
