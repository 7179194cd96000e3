"""A table that breaks (TDA 7): its hand in play is played out, its slips say "after this hand" meanwhile (on the
tablet, the map and the phones), no new hand is dealt there, and its tablet says it is breaking."""

import pytest

from core.errors import ServiceError
from tables.models import HandStart, Move, Table
from tables.selectors import screens, state
from tables.services import handforhand, hands
from tests.tables.test_dealer_slips import state_of
from tests.tables.test_moves import bust_at, seated, start


def breaking_soon(director, cashier, tournament) -> Table:
    """Nineteen players at three tables of nine: one bust more and the first table of the break order breaks."""
    start(director, cashier, tournament, 19, table_numbers=(1, 2, 3))
    first = [n for n in state.break_order(tournament) if n in seated(tournament)][0]
    return Table.objects.get(tournament=tournament, number=first)


def bust_elsewhere(floor, tournament, breaking: Table) -> list[Move]:
    other = next(n for n in sorted(seated(tournament)) if n != breaking.number)
    bust_at(floor, tournament, other)
    slips = list(
        Move.objects.filter(tournament=tournament, status=Move.Status.PENDING, kind=Move.Kind.BREAK).select_related(
            "entry__player", "from_table", "to_table"
        )
    )
    assert slips and {m.from_table_id for m in slips} == {breaking.pk}
    return slips


def test_slips_made_while_the_breaking_table_plays_a_hand_say_after_this_hand(director, cashier, floor, dealer, tournament):
    breaking = breaking_soon(director, cashier, tournament)
    hands.start_hand(breaking, actor=dealer)
    slips = bust_elsewhere(floor, tournament, breaking)
    assert all(state.after_hand(m) for m in slips)
    assert all(s["after_hand"] for s in state_of(dealer, tournament, breaking.number)["slips_out"])
    assert all(s["after_hand"] for s in state.pending_moves(tournament) if s["kind"] == Move.Kind.BREAK)
    phones = screens.public_seats(tournament.pk, [m.entry.number for m in slips])
    assert all(phones[m.entry.number]["move"]["after_hand"] for m in slips)
    # The hand is over: they go now.
    handforhand.hand_done(breaking, actor=dealer)
    breaking.refresh_from_db()
    assert not any(s["after_hand"] for s in state_of(dealer, tournament, breaking.number)["slips_out"])
    phones = screens.public_seats(tournament.pk, [m.entry.number for m in slips])
    assert not any(phones[m.entry.number]["move"]["after_hand"] for m in slips)


def test_a_breaking_table_between_hands_deals_no_new_hand_and_its_tablet_says_so(director, cashier, floor, dealer, tournament):
    breaking = breaking_soon(director, cashier, tournament)
    assert state_of(dealer, tournament, breaking.number)["breaking"] is None
    slips = bust_elsewhere(floor, tournament, breaking)
    assert not any(state.after_hand(m) for m in slips)  # no hand in play: they go now
    before = HandStart.objects.count()
    with pytest.raises(ServiceError) as refused:
        hands.start_hand(breaking, actor=dealer)
    assert refused.value.code == "table_breaking" and refused.value.status == 409
    assert f"Table {breaking.number} is breaking" in str(refused.value.message)
    assert HandStart.objects.count() == before
    breaking.refresh_from_db()
    assert (breaking.hand_number, breaking.hand_in_progress) == (0, False)
    said = state_of(dealer, tournament, breaking.number)["breaking"]
    assert said.startswith(f"Table {breaking.number} is breaking: no new hand here.")
    # The other tables deal on, and their tablets say nothing of it.
    other = Table.objects.get(tournament=tournament, number=next(n for n in seated(tournament) if n != breaking.number))
    assert hands.start_hand(other, actor=dealer).number == 1
    assert state_of(dealer, tournament, other.number)["breaking"] is None


def test_the_api_refuses_a_new_hand_at_a_breaking_table_and_says_why(director, cashier, floor, dealer, tournament, client):
    breaking = breaking_soon(director, cashier, tournament)
    hands.start_hand(breaking, actor=dealer)
    handforhand.hand_done(breaking, actor=dealer)
    bust_elsewhere(floor, tournament, breaking)
    client.force_login(dealer)
    client.get(f"/t/{tournament.pk}/tables/{breaking.number}/dealer/")
    answer = client.post(f"/api/tournaments/{tournament.pk}/tables/{breaking.number}/hand/", content_type="application/json")
    assert answer.status_code == 409 and answer.json()["error"] == "table_breaking"
    assert "is breaking" in answer.json()["detail"]
    assert Table.objects.get(pk=breaking.pk).hand_number == 1
