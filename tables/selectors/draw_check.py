"""The check of a revealed draw (docs/architecture.md, "Randomness"): recomputed from its seed and inputs and compared
with what was recorded and written, in the shape anyone may see (public pages and API)."""

from __future__ import annotations

from core import reactions
from tables.models import Draw
from tables.rules import chip_race, seating

# Asked of the apps above (core.reactions) for a mystery envelope's draw, which the bounties own (payouts/selectors/
# envelope_draws.py): {"envelope": {"inputs": {...}, "recomputed": ..., "written": ..., "ok": bool}}, the public inputs
# added to the draw's own (the list as published when it was committed), the result recomputed from the seed and the box,
# what the draw paid, and whether the box and the payment hold. No answer: not recomputed (it does not match).
ENVELOPE_DRAW = "envelope_draw"


def verify_draw(draw: Draw) -> dict:
    """Recompute a revealed draw from its seed and inputs and compare it with what was recorded
    (and with the seats written for it)."""
    if draw.drawn_at is None:
        return {"draw": draw.number, "revealed": False, "commitment": draw.commitment}
    seed = bytes.fromhex(draw.seed)
    data = draw.inputs or {}
    commitment_ok = seating.commitment(seed) == draw.commitment
    written_ok = None  # what the draw wrote holds; by default, it is the result itself (the seats written)
    if draw.kind == Draw.Kind.BUTTON and "tables" in data:  # several tables at once (tables/services/draws.button_draws)
        dealt_at = seating.deal_high_cards(seed, {int(n): seats for n, seats in data["tables"].items()})
        recomputed = {
            "tables": {
                str(n): {"cards": {str(k): v for k, v in dealt.items()}, "button": seating.high_card_winner(dealt)}
                for n, dealt in dealt_at.items()
            }
        }
        written = None
    elif draw.kind == Draw.Kind.BUTTON:
        dealt = seating.deal_high_card(seed, data["seats"])
        recomputed = {"cards": {str(k): v for k, v in dealt.items()}, "button": seating.high_card_winner(dealt)}
        written = None
    elif draw.kind == Draw.Kind.TIE:
        recomputed, written = {"order": seating.tie_order(seed, data["entries"])}, None
    elif draw.kind == Draw.Kind.RACE:  # the cards from the seed, then the race from its own record
        record = draw.result or {}
        try:
            replayed = chip_race.replay(record)
            dealt = chip_race.deal_race_cards(seed, {s.seat: len(s.cards) for s in replayed.seats if s.cards})
            recomputed = replayed.to_json() if all(dealt.get(s.seat, []) == list(s.cards) for s in replayed.seats) else None
        except chip_race.RaceError:
            recomputed = None
        written = None
    elif draw.kind == Draw.Kind.ENVELOPE:
        answer = reactions.react(ENVELOPE_DRAW, draw=draw).get("envelope") or {}
        data = {**data, **answer.get("inputs", {})}
        recomputed, written, written_ok = answer.get("recomputed"), answer.get("written"), bool(answer.get("ok"))
    else:
        fn = seating.draw_start if draw.kind in (Draw.Kind.START, Draw.Kind.REDRAW) else seating.draw_late
        needs = {int(n): seating.Need(**need) for n, need in data.get("needs", {}).items()}
        recomputed = seating.result_rows(
            fn(seed, data["entries"], _room_of(data), needs, separate_needs=data.get("needs_stream") == "separate")
        )
        if draw.kind == Draw.Kind.BREAK:  # the players of a broken table: the slips hold the draw's seats
            written = sorted([m.entry.number, m.to_table.number, m.to_seat] for m in draw.moves.select_related("entry", "to_table"))
        else:
            written = sorted([s.entry.number, s.table.number, s.seat] for s in draw.seats.select_related("entry", "table"))
        matches = commitment_ok and recomputed == draw.result and written == draw.result
        return _public_seat_draw(draw, fn, seed, needs, commitment_ok, matches, written)
    if written_ok is None:
        written_ok = written is None or written == draw.result
    return {
        "draw": draw.number,
        "kind": draw.kind,
        "revealed": True,
        "commitment": draw.commitment,
        "seed": draw.seed,
        "commitment_matches": commitment_ok,
        "inputs": data,
        "result": draw.result,
        "recomputed": recomputed,
        "matches": commitment_ok and recomputed == draw.result and written_ok,
        "written": written,
    }


def _room_of(data: dict) -> seating.Room:
    return seating.Room.of(
        {int(t): s for t, s in data["open_seats"].items()}, {int(t): n for t, n in data["players"].items()}, data.get("accessible", [])
    )


def _public_seat_draw(draw: Draw, fn, seed: bytes, needs: dict, commitment_ok: bool, matches: bool, written: list) -> dict:
    """A seat draw as anyone may see it: no special need tied to an entry. The entries with a need
    are left out of the inputs and the result; the seats they held are listed without them, and the needs
    are shown as their count and a salted commitment. Anyone recomputes everyone else from the seed over the
    room with the held seats taken (the needs have a stream of their own, tables/rules/seating.py); `matches` is
    the server's check of the whole draw, needs included. A draw made before needs had their own stream
    (and had needs) shows no public recomputation."""
    data = draw.inputs or {}
    rows = [row for row in draw.result if row[0] not in needs]
    held = sorted([table, seat] for entry, table, seat in draw.result if entry in needs)
    room = seating.held_room(_room_of(data), held)
    entries = [e for e in data["entries"] if e not in needs]
    separate = not needs or data.get("needs_stream") == "separate"
    inputs = {
        **{k: v for k, v in data.items() if k not in ("needs", "needs_salt", "needs_stream", "accessible")},
        "entries": entries,
        "open_seats": {str(t): s for t, s in room.open_seats.items()},
        "players": {str(t): n for t, n in room.players.items()},
        "held": held,
        "needs": {
            "count": len(needs),
            "commitment": seating.needs_commitment(bytes.fromhex(data["needs_salt"]), data["needs"]) if needs and separate else None,
        },
    }
    recomputed = seating.result_rows(fn(seed, entries, seating.held_room(_room_of(data), held))) if separate else None
    return {
        "draw": draw.number,
        "kind": draw.kind,
        "revealed": True,
        "commitment": draw.commitment,
        "seed": draw.seed,
        "commitment_matches": commitment_ok,
        "inputs": inputs,
        "result": rows,
        "recomputed": recomputed,
        "matches": matches and (recomputed is None or recomputed == rows),
        "written": [row for row in written if row[0] not in needs],
    }
