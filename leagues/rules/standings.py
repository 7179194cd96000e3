"""A season's standings. Pure: no Django.

Each player's results in the season's finished tournaments; the best N of them count (all when the league
counts every result). The order, as the standings page states it:
1. more counted points;
2. countback over every result of the season: more first places, then more second places, and so on;
3. more tournaments played.
Players still equal share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    player: int
    tournament: int
    place: int  # the best place of the player's entries (a tie's highest place)
    points: int  # hundredths


@dataclass
class Standing:
    player: int
    rank: int = 0
    counted: int = 0  # hundredths
    total: int = 0  # every result's points, counted or not
    played: int = 0
    counted_tournaments: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)  # every place, best first

    def key(self) -> tuple:
        # Countback: the places themselves, best first, compare as "more firsts, then more seconds ...":
        # a player with places (1, 3) is ahead of one with (2, 2); (1, 3) ahead of (1, 4); (1, 3, 9) of (1, 3).
        countback = tuple(-p for p in self.places) + (float("-inf"),)
        return (self.counted, countback, self.played)


def standings(results: Iterable[Result], best: int | None = None) -> list[Standing]:
    """Every player's standing, in order. `best`: how many of a player's results count (None: all)."""
    if best is not None and best < 1:
        raise ValueError("the best results counted are at least one")
    by_player: dict[int, list[Result]] = {}
    for result in results:
        by_player.setdefault(result.player, []).append(result)
    rows = []
    for player, own in by_player.items():
        # The best points count; between equal points, the better place and then the earlier tournament (the
        # choice changes nothing in the totals, only which tournaments are marked as counted).
        ranked = sorted(own, key=lambda r: (-r.points, r.place, r.tournament))
        counted = ranked if best is None else ranked[:best]
        rows.append(
            Standing(
                player=player,
                counted=sum(r.points for r in counted),
                total=sum(r.points for r in own),
                played=len(own),
                counted_tournaments=sorted(r.tournament for r in counted),
                places=sorted(r.place for r in own),
            )
        )
    rows.sort(key=lambda s: s.player)
    rows.sort(key=Standing.key, reverse=True)  # stable: players still equal stay by number
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].key() == row.key() else i + 1
    return rows
