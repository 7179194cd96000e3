"""House settings that make no sense are refused: a 400 in the one error shape naming the
field, and nothing changes. The checks live in HouseRules.clean(), so the API and the director's
screen refuse the same settings with the same message."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tables.models import HouseRules
from tables.services import house_rules
from tables.services import setup as table_setup
from tests.conftest import tournament_data
from tests.helpers import client_for, url
from tournament.models import AuditEvent
from tournament.services import setup


@pytest.fixture
def four_max(director, template):
    """A tournament at tables of four seats: tables are never more than three players apart."""
    return setup.create_tournament(tournament_data(seats_per_table=4, name="Four max"), actor=director, template=template)


def patch(user, tournament, body):
    return client_for(user).patch(url(tournament, "house-rules/"), body, format="json")


def assert_refused(answer, field: str, tournament, *words: str) -> dict:
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["error"] == "invalid" and body["detail"] and list(body["fields"]) == [field], body
    for word in words:
        assert word in body["fields"][field][0], body
    assert not HouseRules.objects.filter(tournament=tournament).exists(), "a refusal stores nothing"
    assert not AuditEvent.objects.filter(tournament=tournament, type="house_rules.changed").exists()
    return body


@pytest.mark.parametrize(
    "body, field",
    [
        ({"balance_threshold": 0}, "balance_threshold"),
        ({"balance_threshold": 6}, "balance_threshold"),
        ({"balance_threshold": -1}, "balance_threshold"),
        ({"balance_threshold": "two"}, "balance_threshold"),
        ({"balance_threshold": None}, "balance_threshold"),
        ({"balance_threshold": 2.5}, "balance_threshold"),
        ({"halt_short_by": 0}, "halt_short_by"),
        ({"halt_short_by": 10}, "halt_short_by"),
        ({"donor": "smallest"}, "donor"),
        ({"redraw_at_two": "sometimes"}, "redraw_at_two"),
        ({"hand_for_hand_seconds": 901}, "hand_for_hand_seconds"),
        ({"hand_for_hand_ties": "coin"}, "hand_for_hand_ties"),
        ({"hand_for_hand_seconds": 10**12}, "hand_for_hand_seconds"),  # would overflow the column: refused, not a 500
    ],
)
def test_out_of_range_values_are_refused_by_field(director, tournament, body, field):
    assert_refused(patch(director, tournament, body), field, tournament)


def test_a_threshold_the_tables_can_never_reach_is_refused(director, four_max):
    body = assert_refused(
        patch(director, four_max, {"balance_threshold": 4, "halt_short_by": 5}),
        "balance_threshold",
        four_max,
        "never more than 3 players apart",
        "1 to 3",
    )
    assert "balance_threshold: " in body["problems"][0]
    ok = patch(director, four_max, {"balance_threshold": 3, "halt_short_by": 3})
    assert ok.status_code == 200 and ok.json()["balance_threshold"] == 3


def test_a_larger_table_in_play_allows_a_larger_threshold(director, four_max):
    table_setup.open_table(four_max, actor=director, number=1, seats=10)
    ok = patch(director, four_max, {"balance_threshold": 5, "halt_short_by": 5})
    assert ok.status_code == 200 and ok.json()["balance_threshold"] == 5


def test_heads_up_tables_keep_the_default_threshold(director, template):
    """At two-seat tables no move ever balances anything; the default (2) stays valid, 3 is refused."""
    t = setup.create_tournament(tournament_data(seats_per_table=2, name="Heads-up"), actor=director, template=template)
    assert patch(director, t, {"redraw_at_two": True}).status_code == 200
    answer = patch(director, t, {"balance_threshold": 3, "halt_short_by": 3})
    assert answer.status_code == 400 and list(answer.json()["fields"]) == ["balance_threshold"]


def test_a_halt_below_the_threshold_is_refused_whichever_of_the_two_is_sent(director, tournament):
    # The default halt number at nine-handed tables is 3: a threshold of 4 alone contradicts it.
    assert_refused(patch(director, tournament, {"balance_threshold": 4}), "halt_short_by", tournament, "at least the balance threshold (4)")
    assert_refused(patch(director, tournament, {"balance_threshold": 2, "halt_short_by": 1}), "halt_short_by", tournament)
    ok = patch(director, tournament, {"balance_threshold": 4, "halt_short_by": 4})
    assert ok.status_code == 200 and (ok.json()["balance_threshold"], ok.json()["halt_short_by"]) == (4, 4)


def test_a_refusal_after_saved_rules_changes_nothing(director, tournament):
    assert patch(director, tournament, {"balance_threshold": 1, "halt_short_by": 2, "hand_for_hand_seconds": 9}).status_code == 200
    before = HouseRules.objects.get(tournament=tournament)
    events = AuditEvent.objects.filter(tournament=tournament).count()
    answer = patch(director, tournament, {"halt_short_by": 9, "balance_threshold": 0, "hand_for_hand_seconds": 3})
    assert answer.status_code == 400 and "balance_threshold" in answer.json()["fields"]
    after = HouseRules.objects.get(tournament=tournament)
    assert (
        (after.balance_threshold, after.halt_short_by, after.hand_for_hand_seconds)
        == (1, 2, 9)
        == (before.balance_threshold, before.halt_short_by, before.hand_for_hand_seconds)
    )
    assert AuditEvent.objects.filter(tournament=tournament).count() == events


def test_the_service_refuses_by_field_for_every_caller(director, four_max):
    with pytest.raises(ValidationError) as refused:
        house_rules.set_house_rules(four_max, actor=director, data={"balance_threshold": 4, "halt_short_by": 4})
    assert list(refused.value.message_dict) == ["balance_threshold"]
    with pytest.raises(ValidationError) as refused:
        house_rules.set_house_rules(four_max, actor=director, data={"balance_threshold": "x"})
    assert "balance_threshold" in refused.value.message_dict
    assert not HouseRules.objects.filter(tournament=four_max).exists()
