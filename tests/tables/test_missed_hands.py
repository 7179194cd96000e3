"""The penalty rules (TDA 51, club 1; docs/rules.md "Penalties"), pure: a warning misses nothing, one hand is
one hand, and N rounds are one hand for every player at the table (the offender included) times N."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import missed_hands as mh


@pytest.mark.parametrize(
    ("kind", "players", "rounds", "hands"),
    [
        ("warning", 9, None, 0),
        ("hand", 9, None, 1),
        ("hand", 2, None, 1),
        ("rounds", 9, 1, 9),
        ("rounds", 9, 4, 36),
        ("rounds", 6, 2, 12),
        ("rounds", 2, 3, 6),
        ("rounds", 10, 1, 10),
    ],
)
def test_the_hands_to_miss(kind, players, rounds, hands):
    assert mh.hands_to_miss(kind, players, rounds) == hands


@given(players=st.integers(1, mh.MAX_PLAYERS), rounds=st.integers(1, mh.MAX_ROUNDS))
def test_a_round_is_a_hand_for_every_player_at_the_table_offender_included(players, rounds):
    assert mh.hands_to_miss(mh.ROUNDS, players, rounds) == players * rounds
    assert mh.hands_to_miss(mh.ROUNDS, players, rounds) >= mh.hands_to_miss(mh.HAND, players)
    assert mh.hands_to_miss(mh.WARNING, players) == 0


@pytest.mark.parametrize(
    ("kind", "players", "rounds", "code"),
    [
        ("rounds", 9, 0, "bad_rounds"),
        ("rounds", 9, 5, "bad_rounds"),
        ("rounds", 9, None, "bad_rounds"),
        ("rounds", 9, True, "bad_rounds"),
        ("rounds", 9, 1.0, "bad_rounds"),
        ("hand", 9, 2, "rounds_not_taken"),
        ("warning", 9, 1, "rounds_not_taken"),
        ("warning", 9, 0, "rounds_not_taken"),
        ("ban", 9, None, "bad_kind"),
        ("rounds", 0, 1, "bad_players"),
        ("rounds", 11, 1, "bad_players"),
        ("hand", "9", None, "bad_players"),
    ],
)
def test_what_is_not_a_penalty_is_refused(kind, players, rounds, code):
    with pytest.raises(mh.PenaltyError) as refused:
        mh.hands_to_miss(kind, players, rounds)
    assert refused.value.code == code


@given(hands=st.integers(0, 40), dealt=st.integers(0, 100))
def test_hands_are_served_as_they_are_dealt_and_never_more_than_given(hands, dealt):
    served = mh.served(hands, dealt)
    assert served == min(hands, dealt) and mh.hands_left(hands, dealt) == hands - served >= 0
    assert mh.hands_left(hands, dealt + 1) == max(0, mh.hands_left(hands, dealt) - 1)


def test_negative_counts_are_refused():
    for hands, dealt in ((-1, 0), (0, -1), (1.5, 0)):
        with pytest.raises(mh.PenaltyError):
            mh.served(hands, dealt)
