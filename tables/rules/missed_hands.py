"""Penalties (TDA 51, club 1; docs/rules.md "Penalties"): a warning, or a missed-hand penalty of one hand or
of one to four rounds, a round being one hand for every player at the table at the time of the penalty,
the offender included. The offender is dealt in and blinded off while away; the penalty is served by the
hands dealt while he sits out, counted from the first hand started after it was given, at whatever
table he plays. Plain Python: no Django, no I/O."""

from __future__ import annotations

from dataclasses import dataclass

WARNING = "warning"
HAND = "hand"
ROUNDS = "rounds"
KINDS = (WARNING, HAND, ROUNDS)
MAX_ROUNDS = 4
MAX_PLAYERS = 10  # the largest table (seats 1 to 10)


@dataclass(frozen=True)
class PenaltyError(ValueError):
    code: str
    value: object = None

    def __str__(self) -> str:
        return f"{self.code}: {self.value!r}"


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def hands_to_miss(kind: str, players_at_table: int, rounds: int | None = None) -> int:
    """The hands the offender misses: none for a warning, one for a one-hand penalty, and for N rounds N
    times the players at the table when the penalty is given (offender included)."""
    if kind not in KINDS:
        raise PenaltyError("bad_kind", kind)
    if not _whole(players_at_table) or not 1 <= players_at_table <= MAX_PLAYERS:
        raise PenaltyError("bad_players", players_at_table)
    if kind != ROUNDS:
        if rounds is not None:
            raise PenaltyError("rounds_not_taken", rounds)
        return 0 if kind == WARNING else 1
    if not _whole(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise PenaltyError("bad_rounds", rounds)
    return players_at_table * rounds


def served(hands: int, dealt_since: int) -> int:
    """The hands of the penalty served after `dealt_since` hands were dealt to the offender's table(s)."""
    if not _whole(hands) or hands < 0 or not _whole(dealt_since) or dealt_since < 0:
        raise PenaltyError("bad_count", (hands, dealt_since))
    return min(hands, dealt_since)


def hands_left(hands: int, dealt_since: int) -> int:
    return hands - served(hands, dealt_since)
