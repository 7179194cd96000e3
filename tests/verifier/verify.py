"""An outsider's check of a tournament's draws, written from the manual's docs/draws.md alone.

It imports nothing of the product, only Python's standard library (tests/verifier/test_verifier.py holds it to
that), and reads only what the public API publishes: the list of draws and each revealed draw's seed, commitment,
inputs and result. It recomputes every kind of draw (seats: start, late, break, redraw; buttons; ties; chip races;
mystery envelopes) from the seed and the inputs by the manual's steps, and compares with the published result; a mystery
envelope's box is checked against the list committed and the envelopes drawn before it. Run it against a room:

    python tests/verifier/verify.py https://room.example/api/tournaments/7/draws/

It prints one line per draw and exits 1 if any revealed draw does not verify.
"""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.request
from collections.abc import Sequence

TWO_64 = 2**64
SEAT_DRAWS = ("start", "late", "break", "redraw")
RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs < diamonds < hearts < spades
DECK = [rank + suit for rank in RANKS for suit in SUITS]  # the 52 cards before any shuffle: 2c 2d 2h 2s 3c ... As


class Stream:
    """docs/draws.md step 1: block i = SHA-256(seed || i as 8 bytes big-endian); the stream is the blocks in order."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.block, self.data = seed, 0, b""

    def read(self, n: int) -> bytes:
        while len(self.data) < n:
            self.data += hashlib.sha256(self.seed + self.block.to_bytes(8, "big")).digest()
            self.block += 1
        out, self.data = self.data[:n], self.data[n:]
        return out

    def below(self, n: int) -> int:
        if n == 1:  # docs/draws.md step 1: below(1) is 0 and reads nothing
            return 0
        limit = TWO_64 - TWO_64 % n
        while True:
            x = int.from_bytes(self.read(8), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> list:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def _room(inputs: dict) -> tuple[dict[int, list[int]], dict[int, int]]:
    open_seats = {int(t): sorted(seats) for t, seats in inputs["open_seats"].items()}
    players = {int(t): int(inputs["players"].get(t, 0)) for t in inputs["open_seats"]}
    return dict(sorted(open_seats.items())), players


def place_one(rng: Stream, open_seats: dict[int, list[int]], players: dict[int, int]) -> tuple[int, int]:
    """docs/draws.md step 3: a table with the fewest players among those with an open seat (those with players first)."""
    with_room = [t for t in sorted(open_seats) if open_seats[t]]
    candidates = [t for t in with_room if players[t]] or with_room
    fewest = min(players[t] for t in candidates)
    shortest = [t for t in candidates if players[t] == fewest]
    table = shortest[rng.below(len(shortest))]
    seat = open_seats[table][rng.below(len(open_seats[table]))]
    open_seats[table].remove(seat)
    players[table] += 1
    return table, seat


def late_draw(seed: bytes, inputs: dict) -> list[list[int]]:
    """Late entries and a broken table's players: each entry in ascending number placed by step 3."""
    rng, (open_seats, players) = Stream(seed), _room(inputs)
    return [[entry, *place_one(rng, open_seats, players)] for entry in sorted(inputs["entries"])]


def start_draw(seed: bytes, inputs: dict) -> list[list[int]]:
    """docs/draws.md step 4: entries shuffled, tables shuffled, each table's open seats shuffled, dealt round by round."""
    rng, (open_seats, players) = Stream(seed), _room(inputs)
    entries = rng.shuffle(sorted(inputs["entries"]))
    order = rng.shuffle(list(open_seats))
    seats = {t: rng.shuffle(list(open_seats[t])) for t in open_seats}
    rows, i = [], 0
    while i < len(entries):
        live = [t for t in order if seats[t]]
        lowest = min(players[t] for t in live)
        for table in live:
            if i < len(entries) and players[table] == lowest:
                rows.append([entries[i], table, seats[table].pop(0)])
                players[table] += 1
                i += 1
    return sorted(rows)


def high_card(cards: dict) -> int:
    value = {seat: (RANKS.index(card[0]), SUITS.index(card[1])) for seat, card in cards.items()}
    return int(max(value, key=value.__getitem__))


def button_draw(seed: bytes, inputs: dict) -> dict:
    """docs/draws.md step 6: one shuffle of the 52 cards per table (tables ascending), one card per occupied seat."""
    rng = Stream(seed)
    tables = {int(n): seats for n, seats in inputs["tables"].items()} if "tables" in inputs else {0: inputs["seats"]}
    out = {}
    for number in sorted(tables):
        deck = rng.shuffle(list(DECK))
        cards = {str(seat): deck[k] for k, seat in enumerate(sorted(tables[number]))}
        out[str(number)] = {"cards": cards, "button": high_card(cards)}
    return out["0"] if "tables" not in inputs else {"tables": out}


def tie_draw(seed: bytes, inputs: dict) -> dict:
    """docs/draws.md step 7: the tied entries, ascending, shuffled."""
    return {"order": Stream(seed).shuffle(sorted(inputs["entries"]))}


def race_draw(seed: bytes, inputs: dict, house: dict) -> dict:
    """docs/draws.md step 8, the chip race: the sheet recomputed from the counts (inputs) and the color-up's chips and house rules
    (`in_play`, `leaving`, `rules`, published with the result)."""
    in_play, leaving, rules = sorted(house["in_play"]), sorted(house["leaving"]), house["rules"]
    new_chip = min(v for v in in_play if v not in leaving)
    seats, racers, only_odd = [], {}, set()
    for seat in sorted(inputs["seats"], key=int):
        counted = inputs["seats"][seat]
        counts = [[value, int(counted["chips"].get(str(value), 0))] for value in leaving]
        value = sum(v * n for v, n in counts)
        exchanged, odd_value = divmod(value, new_chip)
        odd_chips, rest = 0, odd_value
        for denomination in reversed(leaving):
            odd_chips, rest = odd_chips + rest // denomination, rest % denomination
        if counted["other"] == 0 and exchanged == 0:
            only_odd.add(int(seat))
        if odd_chips and not (rules["protected_first"] and int(seat) in only_odd):
            racers[int(seat)] = odd_chips
        seats.append(
            {
                "seat": int(seat),
                "leaving": counts,
                "other_value": counted["other"],
                "leaving_value": value,
                "odd_value": odd_value,
                "odd_chips": odd_chips,
                "exchanged": exchanged,
            }
        )
    deck, top, cards = Stream(seed).shuffle(list(DECK)), 0, {}
    for seat in sorted(racers):
        cards[seat], top = deck[top : top + racers[seat]], top + racers[seat]
    odd = sum(s["odd_value"] for s in seats)
    pool = (2 * odd + new_chip) // (2 * new_chip) if rules["rounding"] == "half_up" else -(-odd // new_chip)
    best = {seat: max((RANKS.index(c[0]), SUITS.index(c[1])) for c in hand) for seat, hand in cards.items()}
    order = sorted(best, key=best.__getitem__, reverse=True)
    if rules["protection"] == "added":
        winners = order[:pool]
    elif rules["protected_first"]:
        winners = order[: max(0, pool - len(only_odd))]
    else:
        winners, owed = [], set(only_odd)
        if len(owed) <= pool:
            for seat in order:
                if seat not in owed and len(winners) + len(owed) >= pool:
                    break
                winners.append(seat)
                owed.discard(seat)
    for s in seats:
        s["cards"] = cards.get(s["seat"], [])
        s["won"] = int(s["seat"] in winners)
        s["protection"] = int(s["seat"] in only_odd and not s["won"])
        s["new_chips"] = s["exchanged"] + s["won"] + s["protection"]
    return {"new_chip": new_chip, "seats": seats, "pool": pool, "winners": winners}


def race_sheet(published: dict) -> dict:
    """The part of a published race sheet that race_draw recomputes."""
    keys = (
        "seat",
        "leaving",
        "other_value",
        "leaving_value",
        "odd_value",
        "odd_chips",
        "exchanged",
        "cards",
        "won",
        "protection",
        "new_chips",
    )
    return {
        "new_chip": published["new_chip"],
        "seats": [{k: s[k] for k in keys} for s in published["seats"]],
        "pool": published["pool"],
        "winners": published["winners"],
    }


def envelope_draw(seed: bytes, inputs: dict) -> dict:
    """docs/draws.md, "Mystery envelopes", 2: the box's envelopes laid out one by one by value, lowest first; the one at
    below(count) is drawn."""
    laid = [value for value, count in sorted(inputs["box"]) for _ in range(count)]
    if not laid:
        raise ValueError("an empty box")
    drawn = laid[Stream(seed).below(len(laid))]
    return {**{k: inputs[k] for k in ("order", "entry", "own") if k in inputs}, "value": drawn}


def list_hash(envelopes: list) -> str:
    """docs/draws.md, "Mystery envelopes", 3: SHA-256 of the list as compact JSON, [[value, count], ...] highest value
    first."""
    ordered = sorted(([int(v), int(c)] for v, c in envelopes), reverse=True)
    return hashlib.sha256(json.dumps(ordered, separators=(",", ":")).encode()).hexdigest()


def box_left(envelopes: list, drawn: list[int]) -> list[list[int]] | None:
    """The list less the envelopes drawn (values), highest value first; None if one was drawn more often than it holds."""
    left = {int(v): int(c) for v, c in envelopes}
    for value in drawn:
        if left.get(value, 0) < 1:
            return None
        left[value] -= 1
    return [[v, c] for v, c in sorted(left.items(), reverse=True) if c > 0]


def box_ok(draw: dict, earlier: Sequence[dict]) -> bool:
    """docs/draws.md, "Mystery envelopes", 3 and 4: the list published when it was committed hashes to its published
    hash, which the draw names, and every earlier envelope's draw names the same list; the box is that list less the
    envelopes of every earlier envelope's draw but those given back; a draw given back stays given back."""
    try:
        return _box_ok(draw, earlier)
    except (KeyError, TypeError, ValueError, AttributeError):  # a part missing or of another shape
        return False


def _box_ok(draw: dict, earlier: Sequence[dict]) -> bool:
    inputs = draw["inputs"]
    committed = inputs.get("committed") or {}
    before = sorted(
        (d for d in earlier if d.get("revealed") and d.get("kind") == "envelope" and d["draw"] < draw["draw"]), key=lambda d: d["draw"]
    )
    back = set(inputs.get("given_back", []))
    if not committed.get("envelopes") or list_hash(committed["envelopes"]) != committed.get("list_hash"):
        return False
    if inputs.get("list_hash") != committed["list_hash"] or any(d["inputs"].get("committed") != committed for d in before):
        return False
    if not back <= {d["draw"] for d in before} or (before and not set(before[-1]["inputs"].get("given_back", [])) <= back):
        return False
    return box_left(committed["envelopes"], [d["result"]["value"] for d in before if d["draw"] not in back]) == inputs["box"]


def recompute(draw: dict):
    """The result of a revealed draw as the manual's steps give it from the seed and the inputs."""
    seed, inputs, kind = bytes.fromhex(draw["seed"]), draw["inputs"], draw["kind"]
    if kind in ("start", "redraw"):
        return start_draw(seed, inputs)
    if kind in ("late", "break"):
        return late_draw(seed, inputs)
    if kind == "button":
        return button_draw(seed, inputs)
    if kind == "tie":
        return tie_draw(seed, inputs)
    if kind == "race":
        return race_draw(seed, inputs, draw["result"])
    if kind == "envelope":
        return envelope_draw(seed, inputs)
    raise ValueError(f"unknown kind of draw: {kind}")


def verify(draw: dict, earlier: Sequence[dict] = ()) -> dict:
    """One published draw checked: the seed fits the commitment, and the recomputed result is the published one. A
    mystery envelope's box is checked against the draws before it (`earlier`: the room's published draws before it)."""
    if not draw.get("revealed"):
        return {"draw": draw["draw"], "revealed": False, "ok": True}
    commitment_ok = hashlib.sha256(bytes.fromhex(draw["seed"])).hexdigest() == draw["commitment"]
    needs = draw["inputs"].get("needs") or {}
    if draw["kind"] in SEAT_DRAWS and needs.get("count") and needs.get("commitment") is None:
        # docs/draws.md step 5: a draw whose needs were placed before they had their own stream is checked by the server only
        return {
            "draw": draw["draw"],
            "kind": draw["kind"],
            "revealed": True,
            "commitment_ok": commitment_ok,
            "result_ok": None,
            "ok": commitment_ok,
            "server_only": True,
        }
    try:
        recomputed = recompute(draw)
    except (KeyError, TypeError, ValueError):  # inputs that no step of the manual reads
        recomputed = None
    published = race_sheet(draw["result"]) if draw["kind"] == "race" else draw["result"]
    checked = {
        "draw": draw["draw"],
        "kind": draw["kind"],
        "revealed": True,
        "commitment_ok": commitment_ok,
        "result_ok": recomputed is not None and recomputed == published,
        "recomputed": recomputed,
    }
    if draw["kind"] == "envelope":
        checked["box_ok"] = box_ok(draw, earlier)
    checked["ok"] = commitment_ok and checked["result_ok"] and checked.get("box_ok", True)
    return checked


def verify_all(draws: list[dict]) -> list[dict]:
    """Every published draw of a room checked, in draw order, each with the draws before it."""
    ordered = sorted(draws, key=lambda d: d["draw"])
    return [verify(draw, ordered[:i]) for i, draw in enumerate(ordered)]


def _get(url: str):
    with urllib.request.urlopen(url) as answer:  # noqa: S310  (the room's own public address)
        return json.load(answer)


def main(argv: list[str]) -> int:
    """Verify every draw listed at a tournament's draws address (…/api/tournaments/<id>/draws/)."""
    if len(argv) != 2:
        print("usage: verify.py https://<room>/api/tournaments/<id>/draws/")
        return 2
    base, failed = argv[1].rstrip("/") + "/", 0
    try:
        listed = _get(base)
        if not isinstance(listed, list) or not all(isinstance(d, dict) and "draw" in d for d in listed):
            print(f"{base} is not a list of draws: give the tournament's draws address, …/api/tournaments/<id>/draws/")
            return 2
        draws = [_get(f"{base}{d['draw']}/") if d.get("revealed") else d for d in listed]
    except (OSError, ValueError) as error:  # not reached, not found, not JSON
        print(f"{base}: {error}")
        return 2
    for checked in verify_all(draws):
        failed += not checked["ok"]
        if not checked["revealed"]:
            print(f"draw {checked['draw']}: pending")
        elif checked.get("server_only"):
            print(f"draw {checked['draw']} {checked['kind']}: checked by the server only (needs drawn on the seed's stream)")
        else:
            print(f"draw {checked['draw']} {checked['kind']}: {'ok' if checked['ok'] else 'DOES NOT VERIFY'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
