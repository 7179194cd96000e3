"""Every kind of draw, made by the product and read from its public API as an outsider reads it, verifies with
tests/verifier/verify.py: a verifier written from the manual's docs/draws.md alone, importing
nothing of the product. The server's own check (tables/selectors/draw_check.py) runs the product's code, so it cannot tell
when the code and the published text disagree; this one can (an outside check found late draws with one table
seated elsewhere than the text said)."""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import secrets
import sys
from datetime import date
from pathlib import Path

import pytest
from django.core.cache import caches
from django.test import Client

from days.services import redraw as day_redraw
from flights.services import events as flight_services
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.services import bounties, structure
from tables.models import Draw, Move, Table
from tables.rules import seating
from tables.services import busts, color_ups, draws, house_rules, moves
from tables.services import seats as seat_requests
from tables.services import setup as table_setup
from tests.days.test_day2_seating import bag_and_close
from tests.flights.test_flights import event_with, play_and_bag
from tests.helpers import id_doc, open_tables, register
from tests.payouts.test_bounties import bounty_night, bust, mystery
from tests.payouts.test_bounties import entry as bounty_entry
from tests.payouts.test_ties import four_left  # noqa: F401  (the fixture)
from tests.tables.test_color_ups import counted, drawn_table  # noqa: F401  (the fixture)
from tests.tables.test_moves import seated, start
from tests.verifier import verify
from tournament.models import AuditEvent, Entry, Level
from tournament.services import registration
from web import caching
from web.templatetags.money import money

VERIFIER = Path(verify.__file__)


def published(t) -> list[dict]:
    """Every draw of a tournament as anyone reads it: the public list, then each revealed draw's own answer."""
    client = Client()
    listed = client.get(f"/api/tournaments/{t.pk}/draws/")
    assert listed.status_code == 200
    out = []
    for row in listed.json():
        if row["revealed"]:
            answer = client.get(f"/api/tournaments/{t.pk}/draws/{row['draw']}/")
            assert answer.status_code == 200
            out.append(answer.json())
    return out


def verified(t) -> list[str]:
    """Each revealed draw of `t` recomputed by the outside verifier and found equal to what was published (a mystery
    envelope's box found to be the committed list less the envelopes drawn before it); the kinds of draws checked, in
    draw order."""
    draws = published(t)
    kinds = []
    for draw, check in zip(draws, verify.verify_all(draws), strict=True):
        assert check["commitment_ok"], draw
        assert check["result_ok"], (draw["draw"], draw["kind"], check["recomputed"], draw["result"])
        assert check.get("box_ok", True), (draw["draw"], draw["inputs"])
        assert check["ok"]
        kinds.append(draw["kind"])
    return kinds


@pytest.fixture
def fixed_seeds(monkeypatch):
    """The seeds of this test's draws from a counter instead of `secrets`: the same draws on every run."""
    counter = itertools.count()
    monkeypatch.setattr(secrets, "token_bytes", lambda n: hashlib.sha256(b"seed %d" % next(counter)).digest()[:n])


def test_the_verifier_imports_nothing_but_the_standard_library():
    tree = ast.parse(VERIFIER.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import"
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("__import__", "exec", "eval"):
            raise AssertionError(f"{node.func.id} in the verifier")
    assert imported and imported <= set(sys.stdlib_module_names) - {"importlib"}, imported - set(sys.stdlib_module_names)


def test_the_start_draw_late_entries_and_button_draws_verify(director, cashier, tournament):
    open_tables(director, tournament, [1, 2, 3, 4])
    register(cashier, tournament, 20)
    draws.draw_start(tournament, actor=director)
    for number in (1, 2, 3):
        draws.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)
    register(cashier, tournament, 5, start=20)  # each seated at registration by a late draw
    assert verified(tournament) == ["start", "button", "button", "button"] + ["late"] * 5


def test_a_late_draw_at_one_table_verifies_and_a_verifier_reading_for_below_1_does_not(
    director, cashier, tournament, fixed_seeds, monkeypatch
):
    """The disagreement an outside check found: with one table to choose from, the draw picks it with below(1), which reads
    nothing (docs/draws.md step 1). A verifier whose below(1) reads 8 bytes, as the manual said before, seats the late
    entries elsewhere than the product did."""
    open_tables(director, tournament, [1])
    register(cashier, tournament, 3)
    draws.draw_start(tournament, actor=director)
    register(cashier, tournament, 5, start=3)
    late = [draw for draw in published(tournament) if draw["kind"] == "late"]
    assert len(late) == 5 and all(list(draw["inputs"]["open_seats"]) == ["1"] for draw in late)
    assert all(verify.verify(draw)["ok"] for draw in late)

    def reads_for_every_n(self, n):
        limit = verify.TWO_64 - verify.TWO_64 % n
        while True:
            x = int.from_bytes(self.read(8), "big")
            if x < limit:
                return x % n

    monkeypatch.setattr(verify.Stream, "below", reads_for_every_n)
    assert not all(verify.verify(draw)["ok"] for draw in late)


def test_a_table_break_and_the_final_table_redraw_verify(director, cashier, floor, tournament):
    start(director, cashier, tournament, 19, table_numbers=(1, 2, 3))  # 7, 6 and 6 players, each with a button draw
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 9:
        for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING):
            moves.confirm_move(tournament, actor=floor, number=m.number)
        counts = {t: len(s) for t, s in seated(tournament).items()}
        table = max(counts, key=lambda t: (counts[t], t))
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=min(seated(tournament)[table].values())), actor=floor)
    kinds = verified(tournament)
    assert kinds[:4] == ["start", "button", "button", "button"]
    assert "break" in kinds and kinds[-2:] == ["redraw", "button"]  # the final table and its button


def test_the_next_days_redraw_and_its_buttons_verify(room, floor, director):
    bag_and_close(room, floor, director)
    day_redraw.redraw_day(room, actor=director)
    assert verified(room) == ["start", "redraw", "button"]


def test_the_day2_start_draw_of_an_event_with_flights_verifies(director, cashier, floor, template, players):
    event, (a, b) = event_with(director, template)
    play_and_bag(director, cashier, floor, a, players[:3], {p.pk: 20_000 for p in players[:3]})
    play_and_bag(director, cashier, floor, b, players[3:], {p.pk: 20_000 for p in players[3:]})
    flight_services.carry_to_day2(event, actor=director)
    day2 = event.day2
    open_tables(director, day2, [1, 2], seats=4)
    draws.draw_start(day2, actor=director)
    assert verified(a) == ["start"] and verified(b) == ["start"] and verified(day2) == ["start"]


def test_the_tie_draw_of_players_busted_in_one_hand_verifies(floor, tournament, four_left):  # noqa: F811
    busts.bust_entry(four_left[0], actor=floor, stack=5_000)
    busts.bust_entry(four_left[1], actor=floor, stack=5_000)  # the same hand and stack: tied, the odd unit drawn
    assert verified(tournament) == ["start", "tie"]


@pytest.mark.parametrize(
    "rules",
    [
        {"race_rounding": "half_up", "race_protection": "added", "race_protected_first": False},
        {"race_rounding": "up", "race_protection": "from_raced", "race_protected_first": False},
        {"race_rounding": "half_up", "race_protection": "from_raced", "race_protected_first": True},
        {"race_rounding": "up", "race_protection": "added", "race_protected_first": True},
    ],
)
def test_chip_races_verify_under_every_house_rule(director, floor, tournament, drawn_table, rules):  # noqa: F811
    house_rules.set_house_rules(tournament, actor=director, data=rules)  # kept with the color-up when confirmed
    level = Level.objects.get(structure=tournament.structure, kind=Level.Kind.BREAK).position
    colour = color_ups.confirm_color_up(tournament, actor=director, level=level)
    seats = counted(drawn_table)
    first, second, third = sorted(seats)[:3]
    seats[first] = {"chips": {"25": 1}, "other": 0}  # his odd chip is all he has: he cannot be raced out
    seats[second] = {"chips": {"25": 7}, "other": None}  # 175: one chip exchanged, three odd; the rest not counted
    seats[third] = {"chips": {"25": 2}, "other": 0}
    color_ups.record_race(drawn_table, actor=floor, color_up=colour, seats=seats)
    color_ups.record_race(drawn_table, actor=floor, color_up=colour, seats=counted(drawn_table, quarters=2))  # redone
    assert verified(tournament) == ["start", "race", "race"]


def test_draws_with_special_needs_verify_without_them_and_old_ones_are_left_to_the_server(director, floor, cashier, tournament):
    """The public answer holds the seats the needs took, never the needs (docs/draws.md step 5): the others recompute from
    it. A draw recorded before the needs had their own stream says so (a count, no commitment) and is not failed."""
    open_tables(director, tournament, [1, 2, 3])
    table_setup.open_table(tournament, actor=director, number=4, seats=9, accessible=True)
    entries = register(cashier, tournament, 14)
    seat_requests.set_seat_request(tournament, actor=floor, player=entries[0].player, accessible=True)
    seat_requests.set_seat_request(tournament, actor=floor, player=entries[5].player, table_number=2, seat=3)
    draw = draws.draw_start(tournament, actor=director)
    register(cashier, tournament, 2, start=14)
    late = registration.create_player(actor=cashier, first_name="Late", last_name="Fixed", date_of_birth=date(1990, 1, 1))
    seat_requests.set_seat_request(tournament, actor=floor, player=late, table_number=1, seat=9)
    registration.register_entry(tournament, actor=cashier, player=late, document=id_doc("EA7654321"))  # seated at 1/9
    assert verified(tournament) == ["start", "late", "late", "late"]
    start_draw, *_, fixed = published(tournament)
    assert start_draw["inputs"]["needs"]["count"] == 2 and len(start_draw["inputs"]["held"]) == 2
    assert fixed["inputs"]["held"] == [[1, 9]] and fixed["inputs"]["entries"] == [] and fixed["result"] == []

    legacy = Draw.objects.get(pk=draw.pk)  # as recorded when the needs still shared the seed's own stream
    data = {k: v for k, v in legacy.inputs.items() if k not in ("needs_stream", "needs_salt")}
    needs = {int(n): seating.Need(**need) for n, need in data["needs"].items()}
    tables = seating.Room.of(
        {int(t): s for t, s in data["open_seats"].items()}, {int(t): n for t, n in data["players"].items()}, data["accessible"]
    )
    legacy.inputs = data
    legacy.result = seating.result_rows(
        seating.draw_start(bytes.fromhex(legacy.seed), data["entries"], tables, needs, separate_needs=False)
    )
    legacy.save(update_fields=["inputs", "result"])
    caches[caching.CACHE].clear()  # the public answers read above are remembered for this state of the room
    answer = Client().get(f"/api/tournaments/{tournament.pk}/draws/{draw.number}/").json()
    assert answer["inputs"]["needs"] == {"count": 2, "commitment": None}
    check = verify.verify(answer)
    assert check["server_only"] and check["result_ok"] is None and check["ok"]


def test_a_published_draw_changed_in_any_part_does_not_verify(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    draws.draw_button(Table.objects.get(tournament=tournament, number=1), actor=director)
    start_draw, button = published(tournament)
    assert verify.verify(start_draw)["ok"] and verify.verify(button)["ok"]
    swapped = json.loads(json.dumps(start_draw))
    rows = start_draw["result"]
    other = next(
        i for i, row in enumerate(rows) if row[2] != rows[0][2]
    )  # two entries of different seats (the same seat at two tables swaps nothing)
    swapped["result"][0][2], swapped["result"][other][2] = rows[other][2], rows[0][2]
    other_seed = {**button, "seed": secrets.token_hex(32)}
    loser = next(seat for seat in button["inputs"]["seats"] if seat != button["result"]["button"])
    other_button = {**button, "result": {**button["result"], "button": loser}}
    assert not verify.verify(swapped)["ok"]
    assert not verify.verify(other_seed)["commitment_ok"] and not verify.verify(other_seed)["ok"]
    assert not verify.verify(other_button)["ok"]


def test_the_verifier_run_from_the_command_line_checks_every_draw(director, cashier, tournament, monkeypatch, capsys):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 10)
    draws.draw_start(tournament, actor=director)
    table_setup.open_table(tournament, actor=director, number=3, seats=9)
    register(cashier, tournament, 1, start=10)
    client = Client()
    monkeypatch.setattr(verify, "_get", lambda url: client.get(url.removeprefix("http://room")).json())
    assert verify.main(["verify.py", f"http://room/api/tournaments/{tournament.pk}/draws/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["draw 1 start: ok", "draw 2 late: ok", "draw 3: pending"]

    def moved_one_seat(url):  # an answer whose result is not what its seed gives
        answer = client.get(url.removeprefix("http://room")).json()
        if url.endswith("/draws/2/"):
            answer["result"] = [[entry, table, seat + 1] for entry, table, seat in answer["result"]]
        return answer

    monkeypatch.setattr(verify, "_get", moved_one_seat)
    assert verify.main(["verify.py", f"http://room/api/tournaments/{tournament.pk}/draws/"]) == 1
    assert "draw 2 late: DOES NOT VERIFY" in capsys.readouterr().out

    # The public page's draws address (the next and the last draw, not the list) is said, not a traceback.
    monkeypatch.setattr(verify, "_get", lambda url: client.get(url.removeprefix("http://room")).json())
    assert verify.main(["verify.py", f"http://room/api/public/tournaments/{tournament.pk}/draws/"]) == 2
    assert "is not a list of draws" in capsys.readouterr().out

    def unreachable(url):
        raise OSError("connection refused")

    monkeypatch.setattr(verify, "_get", unreachable)
    assert verify.main(["verify.py", "http://room/api/tournaments/1/draws/"]) == 2
    assert "connection refused" in capsys.readouterr().out


def mystery_night(director, cashier, floor, template, *, undo: bool = True):
    """tests/payouts/test_bounties.py's mystery night: five players, a bounty of 1,000 each, the envelopes from level 2.
    #5 is out at level 1 (nothing drawn), the list committed, then #4 (undone and out again: its first envelope goes back
    into the box), #3, and #2: play over, #1 draws the last envelope for his own head."""
    t = mystery(director, cashier, floor, template)
    bust(floor, t, 5, 1)
    registration.set_registration_closed(t, actor=director, closed=True)
    bounties.commit_envelopes(t, actor=director, envelopes=[[2_000, 1], [1_000, 3]])
    t.current_level = 2
    t.save(update_fields=["current_level"])
    bust(floor, t, 4, 2)
    if undo:
        busts.undo_bust(bounty_entry(t, 4), actor=floor)
        bust(floor, t, 4, 2)
    bust(floor, t, 3, 1)
    bust(floor, t, 2, 1)
    return t


def test_a_mystery_nights_envelope_draws_verify_and_an_undone_elimination_gives_its_envelope_back(
    director, cashier, floor, template, monkeypatch, capsys
):
    t = mystery_night(director, cashier, floor, template)
    assert verified(t) == ["start", "button"] + ["envelope"] * 5
    first, again, third, fourth, own = [d for d in published(t) if d["kind"] == "envelope"]
    listed = [[2_000, 1], [1_000, 3]]
    event = AuditEvent.objects.get(tournament=t, type="bounty.envelopes_committed")
    committed = {"envelopes": listed, "list_hash": b.list_hash([(2_000, 1), (1_000, 3)]), "event": event.seq, "at": event.at.isoformat()}
    assert all(d["inputs"]["committed"] == committed and d["inputs"]["list_hash"] == committed["list_hash"] for d in published(t)[2:])
    assert (first["inputs"]["box"], first["inputs"]["given_back"], first["result"]["entry"]) == (listed, [], 4)
    assert (again["inputs"]["box"], again["inputs"]["given_back"], again["result"]["entry"]) == (listed, [first["draw"]], 4)
    assert [third["result"]["entry"], fourth["result"]["entry"]] == [3, 2] and third["inputs"]["given_back"] == [first["draw"]]
    assert own["result"] == {"own": True, "entry": 1, "value": own["result"]["value"]}
    assert sorted(d["result"]["value"] for d in (again, third, fourth, own)) == [1_000, 1_000, 1_000, 2_000]  # the whole box
    # what each paid: the winner of the pot, the last player his own head; the envelope given back paid nothing
    assert first["written"] == {"paid": [], "given_back": True}
    assert again["written"] == {"paid": [{"entry": 2, "cash": again["result"]["value"]}], "given_back": False}
    assert own["written"] == {"paid": [{"entry": 1, "cash": own["result"]["value"]}], "given_back": False}
    assert all(d["matches"] for d in (first, again, third, fourth, own))

    client = Client()
    listing = client.get(f"/s/{t.pk}/draws/")
    assert listing.status_code == 200 and listing.content.decode().count("Mystery envelope") == 5
    pages = {d["draw"]: client.get(f"/s/{t.pk}/draws/{d['draw']}/").content.decode() for d in (first, again, own)}
    assert all("Mystery envelope" in page and "✔ matches" in page and committed["list_hash"] in page for page in pages.values())
    assert "drawn for the elimination of entry #4" in pages[again["draw"]]
    assert money(again["result"]["value"], t.currency) in pages[again["draw"]]
    assert "Given back to the box" in pages[first["draw"]] and "Given back to the box" not in pages[again["draw"]]
    assert "drawn by entry #1 for his own bounty" in pages[own["draw"]]

    monkeypatch.setattr(verify, "_get", lambda url: client.get(url.removeprefix("http://room")).json())
    assert verify.main(["verify.py", f"http://room/api/tournaments/{t.pk}/draws/"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if "envelope" in line] == [f"draw {d['draw']} envelope: ok" for d in (first, again, third, fourth, own)]


def test_a_tampered_envelope_reveal_does_not_verify(director, cashier, floor, template):
    t = mystery_night(director, cashier, floor, template)
    draws = published(t)
    assert all(check["ok"] for check in verify.verify_all(draws))
    n = next(i for i, d in enumerate(draws) if d["kind"] == "envelope" and d["inputs"]["given_back"])  # #4 out again
    draw = draws[n]
    box = draw["inputs"]["box"]
    value = draw["result"]["value"]

    def checked(**changes) -> dict:
        """The draw changed as given (a copy; `inputs`/`result` merged into its own), verified with the room's other
        draws as published."""
        tampered = json.loads(json.dumps(draw))
        for part in ("inputs", "result"):
            tampered[part].update(changes.pop(part, {}))
        tampered.update(changes)
        return verify.verify_all([*draws[:n], tampered, *draws[n + 1 :]])[n]

    seed = checked(seed=secrets.token_hex(32))
    assert not seed["commitment_ok"] and not seed["ok"]
    other = next(v for v, _count in box if v != value)
    drawn = checked(result={"value": other})  # another envelope of the box said to be drawn
    assert drawn["commitment_ok"] and not drawn["result_ok"] and not drawn["ok"]
    assert not checked(result={"entry": 3})["ok"] and not checked(inputs={"entry": 3})["ok"]  # drawn for someone else
    more = [[v, c + 1 if v == value else c] for v, c in box]  # one more envelope of the value drawn in the box
    assert not checked(inputs={"box": more})["box_ok"] and not checked(inputs={"box": more})["ok"]
    fewer = checked(inputs={"box": [[v, c - 1 if v != value else c] for v, c in box if v == value or c > 1]})
    assert not fewer["box_ok"] and not fewer["ok"]  # an envelope of another value taken out before the draw
    kept = checked(inputs={"given_back": []})  # the first envelope of #4 said to be still out of the box
    assert kept["commitment_ok"] and kept["result_ok"] and not kept["box_ok"] and not kept["ok"]
    list_ = checked(inputs={"committed": {**draw["inputs"]["committed"], "envelopes": [[2_000, 2], [1_000, 1]]}})
    assert not list_["box_ok"] and not list_["ok"]  # a list that is not the one whose hash was published
    later = next(i for i, d in enumerate(draws) if i > n and d["kind"] == "envelope")
    back = json.loads(json.dumps(draws[later]))
    back["inputs"]["given_back"] = []  # a draw given back is out of the box again
    assert not verify.verify_all([*draws[:later], back, *draws[later + 1 :]])[later]["box_ok"]

    # the server's own check of the published draw finds a result changed in its record
    row = Draw.objects.get(tournament=t, number=draw["draw"])
    row.result = {**row.result, "value": other}
    row.save(update_fields=["result"])
    caches[caching.CACHE].clear()
    answer = Client().get(f"/api/tournaments/{t.pk}/draws/{draw['draw']}/").json()
    assert answer["recomputed"]["value"] == value and answer["matches"] is False
    assert not verify.verify_all([*draws[:n], answer, *draws[n + 1 :]])[n]["ok"]


def test_envelopes_drawn_at_play_over_come_from_the_box_left_and_go_back_when_play_goes_on(director, cashier, floor, template):
    """Found by checking the boxes: an own head's envelope was drawn again from a box that still held the envelope the
    player before had just drawn (two players keeping their heads under a deal), and after play over was undone its
    envelope was counted both for the next elimination and again for the winner's own head. Either paid one envelope
    twice; every envelope now comes from the box left and the money adds up."""
    heads_up = bounty_night(director, cashier, template, "mystery", players=2, bounty=1_000, mystery_level=2)
    registration.set_registration_closed(heads_up, actor=director, closed=True)
    bounties.commit_envelopes(heads_up, actor=director, envelopes=[[1_500, 1], [500, 1]])
    heads_up.current_level = 2
    heads_up.save(update_fields=["current_level"])
    bust(floor, heads_up, 2, 1)  # play over: #2's envelope for #1, and #1's own
    busts.undo_bust(bounty_entry(heads_up, 2), actor=floor)  # play goes on: both envelopes back into the box
    bust(floor, heads_up, 2, 1)
    assert verified(heads_up) == ["start", "button"] + ["envelope"] * 4
    *_, first, own, again, own_again = published(heads_up)
    assert again["inputs"]["given_back"] == own_again["inputs"]["given_back"] == [first["draw"], own["draw"]]
    assert sorted([again["result"]["value"], own_again["result"]["value"]]) == [500, 1_500]
    money = sel.money(heads_up)
    assert (money["in_play"], money["owed"]) == (0, 2_000)

    kept = bounty_night(director, cashier, template, "mystery", players=4, bounty=1_000, mystery_level=1, table=2)
    registration.set_registration_closed(kept, actor=director, closed=True)
    bounties.commit_envelopes(kept, actor=director, envelopes=[[1_300, 1], [1_000, 1], [900, 1], [800, 1]])
    bust(floor, kept, 4, 1)
    bust(floor, kept, 3, 2)
    deal = structure.propose_deal(kept, actor=floor, data={"kind": "chip_chop", "mode": "stop", "stacks": {"1": 60_000, "2": 20_000}})
    structure.approve_deal(deal, actor=director)  # each keeps his own head: #1 and #2 draw one each
    assert verified(kept) == ["start", "button"] + ["envelope"] * 4
    envelopes = [d for d in published(kept) if d["kind"] == "envelope"]
    assert [d["result"].get("own", False) for d in envelopes] == [False, False, True, True]
    assert sorted(d["result"]["value"] for d in envelopes) == [800, 900, 1_000, 1_300]
    money = sel.money(kept)
    assert (money["in_play"], money["owed"]) == (0, 4_000)
