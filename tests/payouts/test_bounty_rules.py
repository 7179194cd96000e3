"""The pure bounty rules (payouts/rules/bounties.py): the split of a buy-in, shares of a split pot, PKO transfers,
mystery envelopes, and the money adding up over random nights."""

from __future__ import annotations

import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.rules import bounties as b
from tables.rules.seating import SeedStream


def test_a_buy_in_splits_into_its_prize_bounty_and_fee():
    assert b.split_buy_in(5000, 5000, 1000) == {"prize_pool": 5000, "bounty": 5000, "fee": 1000, "total": 11000}
    with pytest.raises(ValueError):
        b.split_buy_in(5000, -1, 0)


def test_a_split_pot_shares_the_bounty_in_the_increment_the_odd_ones_to_the_first():
    assert b.share(10_000, 3, 2_500) == [5_000, 2_500, 2_500]
    assert b.share(10_050, 2, 2_500) == [5_050, 5_000]
    assert b.share(10_000, 3) == [3_334, 3_333, 3_333]
    with pytest.raises(b.BountyError):
        b.share(100, 0)


@given(st.integers(0, 10**9), st.integers(1, 9), st.integers(1, 5_000))
def test_shares_add_up_and_differ_by_at_most_one_increment(amount, parts, unit):
    shares = b.share(amount, parts, unit)
    assert sum(shares) == amount and len(shares) == parts
    assert all(s % unit == 0 for s in shares[1:])
    assert max(shares) - min(shares) <= 2 * unit - 1 if parts > 1 else True


def test_a_pko_head_pays_half_in_cash_in_the_increment_and_keeps_the_rest():
    rules = b.Rules(b.PROGRESSIVE, 10_000, cash_share_bp=5_000, increment=2_500)
    led = b.replay(rules, {1: 10_000, 2: 10_000, 3: 10_000}, [b.Elimination(1, 2, (1,))])
    assert led.awards == [b.Award(1, 2, 1, 5_000, 5_000)]
    assert led.heads == {1: 15_000, 2: 0, 3: 10_000}
    # 15,000 head: half is 7,500, paid 7,500 in the increment of 2,500; the 7,500 kept goes onto the winner's head
    led = b.replay(rules, {1: 10_000, 2: 10_000, 3: 10_000}, [b.Elimination(1, 2, (1,)), b.Elimination(2, 1, (3,))])
    assert led.awards[-1] == b.Award(2, 1, 3, 7_500, 7_500)
    assert led.heads[3] == 17_500
    # a quarter in cash, increment 1,000: 2,500 rounds down to 2,000 paid, 8,000 kept
    quarter = b.Rules(b.PROGRESSIVE, 10_000, cash_share_bp=2_500, increment=1_000)
    led = b.replay(quarter, {1: 10_000, 2: 10_000}, [b.Elimination(1, 2, (1,))])
    assert (led.awards[0].cash, led.heads[1]) == (2_000, 18_000)


def test_a_split_pko_pot_shares_the_cash_and_the_kept_part():
    rules = b.Rules(b.PROGRESSIVE, 10_000, increment=2_500)
    led = b.replay(rules, {1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000}, [b.Elimination(1, 4, (2, 1, 3))])
    # cash 5,000 in 2,500s to three winners: 2,500 to the first two in order, none to the third; kept 5,000 by units
    assert [(a.winner, a.cash, a.head_added) for a in led.awards] == [(2, 2_500, 1_667), (1, 2_500, 1_667), (3, 0, 1_666)]
    led.check(40_000)


def test_a_knockout_pays_the_fixed_bounty_and_a_winner_takes_his_own_head():
    rules = b.Rules(b.KNOCKOUT, 2_000)
    led = b.replay(rules, {1: 2_000, 2: 2_000, 3: 2_000}, [b.Elimination(1, 3, (2,)), b.Elimination(2, 2, (1,))])
    assert [(a.winner, a.cash) for a in led.awards] == [(2, 2_000), (1, 2_000)]
    b.own_heads(led, [1], rules, order=3)
    assert led.won(1) == 4_000 and led.in_play() == 0
    led.check(6_000)


def test_mystery_pays_nothing_before_the_envelopes_then_the_envelope_drawn():
    rules = b.Rules(b.MYSTERY, 1_000)
    starts = {n: 1_000 for n in range(1, 5)}
    elims = [b.Elimination(1, 4, (1,)), b.Elimination(2, 3, (2,), envelope=2_500)]
    led = b.replay(rules, starts, elims)
    assert [(a.winner, a.cash, a.envelope) for a in led.awards] == [(2, 2_500, 2_500)]
    led.check(4_000)
    b.own_heads(led, [1], rules, order=3, envelopes=[500])
    led.check(4_000)
    knock = b.Rules(b.MYSTERY, 1_000, mystery_before="knockout")
    led = b.replay(knock, starts, elims)
    assert [(a.winner, a.cash) for a in led.awards] == [(1, 1_000), (2, 2_500)]


def test_a_head_is_taken_once_and_a_winner_must_still_be_in():
    rules = b.Rules(b.KNOCKOUT, 100)
    with pytest.raises(b.BountyError) as e:
        b.replay(rules, {1: 100, 2: 100, 3: 100}, [b.Elimination(1, 2, (1,)), b.Elimination(2, 2, (3,))])
    assert e.value.code == "taken_twice"
    with pytest.raises(b.BountyError) as e:
        b.replay(rules, {1: 100, 2: 100, 3: 100}, [b.Elimination(1, 2, (1,)), b.Elimination(2, 3, (2,))])
    assert e.value.code == "winner_out"
    with pytest.raises(b.BountyError) as e:
        b.replay(rules, {1: 100, 2: 100}, [b.Elimination(1, 2, ())])
    assert e.value.code == "no_winner"


def test_dealt_heads_share_the_money_in_play_by_the_deal():
    rules = b.Rules(b.PROGRESSIVE, 10_000, increment=500)
    led = b.replay(rules, {1: 10_000, 2: 10_000, 3: 10_000}, [b.Elimination(1, 3, (1,))])
    made = b.dealt_heads(led, {1: 60_000, 2: 40_000}, rules, order=2)
    assert sum(a.cash for a in made) == 25_000 and led.in_play() == 0
    assert [(a.winner, a.cash) for a in made] == [(1, 15_000), (2, 10_000)]
    led.check(30_000)


def test_the_envelope_list_its_hash_and_a_draw_anyone_can_recompute():
    box = b.envelope_list([[500, 20], [100_000, 1], [50_000, 2]])
    assert box == [(100_000, 1), (50_000, 2), (500, 20)]
    assert b.envelopes_total(box) == 210_000 and b.envelopes_count(box) == 23
    assert b.list_hash(box) == b.list_hash([(500, 20), (50_000, 2), (100_000, 1)])
    assert b.list_hash(box) != b.list_hash([(500, 19), (50_000, 2), (100_000, 1)])
    seed = secrets.token_bytes(32)
    first = b.draw_envelope(SeedStream(seed), box)
    assert first == b.draw_envelope(SeedStream(seed), box)
    assert b.remaining(box, [first]) != box
    with pytest.raises(b.BountyError):
        b.remaining(box, [100_000, 100_000])
    for bad in ([], [[0, 1]], [[100, 1], [100, 2]], [[1.5, 1]], "x", [[100]]):
        with pytest.raises(b.BountyError):
            b.envelope_list(bad)


@st.composite
def nights(draw):
    fmt = draw(st.sampled_from([b.KNOCKOUT, b.PROGRESSIVE, b.MYSTERY]))
    rules = b.Rules(
        fmt,
        draw(st.integers(1, 50_000)),
        cash_share_bp=draw(st.sampled_from([5_000, 2_500, 10_000, 0])),
        increment=draw(st.sampled_from([1, 25, 100, 2_500])),
        mystery_before=draw(st.sampled_from(["nothing", b.KNOCKOUT])),
    )
    n = draw(st.integers(2, 14))
    starts = {e: rules.bounty for e in range(1, n + 1)}
    alive = list(starts)
    elims, order = [], 0
    phase = draw(st.integers(0, n))
    while len(alive) > 1 and draw(st.booleans() | st.just(True)):
        order += 1
        busted = draw(st.sampled_from(alive))
        others = [e for e in alive if e != busted]
        dq = draw(st.integers(0, 9)) == 0
        winners = () if dq else tuple(draw(st.lists(st.sampled_from(others), min_size=1, max_size=min(3, len(others)), unique=True)))
        envelope = draw(st.integers(1, rules.bounty)) if fmt == b.MYSTERY and order > phase else None
        elims.append(b.Elimination(order, busted, winners, envelope, b.DQ if dq else b.BUST))
        alive.remove(busted)
    return rules, starts, elims, alive


@settings(max_examples=300, deadline=None)
@given(nights())
def test_the_bounty_money_always_adds_up_and_a_pko_head_is_its_start_plus_what_it_kept(night):
    rules, starts, elims, alive = night
    taken_in = sum(starts.values())
    led = b.replay(rules, starts, elims)
    led.check(taken_in)
    if rules.format == b.PROGRESSIVE:
        for e in alive:
            assert led.heads[e] == starts[e] + sum(a.head_added for a in led.awards if a.winner == e)
    for a in led.awards:
        if a.kind == b.BUST and rules.format != b.MYSTERY:
            assert a.cash % rules.increment == 0 or a.cash == max(x.cash for x in led.awards if x.order == a.order)
    # undoing any one elimination replays the rest: still adding up
    if elims:
        undone = elims[len(elims) // 2]
        rest = [e for e in elims if e.order != undone.order and undone.busted not in e.winners]
        b.replay(rules, starts, rest).check(taken_in)
    # play over: the last player (or a deal among the players left) takes what is in play
    if len(alive) == 1 and rules.format != b.MYSTERY:
        b.own_heads(led, alive, rules, order=10**6)
        assert led.in_play() == 0
        led.check(taken_in)
    elif alive:
        b.dealt_heads(led, {e: 1 + i for i, e in enumerate(alive)}, rules, order=10**6)
        assert led.in_play() == 0
        led.check(taken_in)
