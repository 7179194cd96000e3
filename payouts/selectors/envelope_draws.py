"""Mystery envelopes' draws as anyone checks them (docs/draws.md, "Mystery envelopes"): which envelopes are out of the box
and by which draws, the list as the event log published it when the director committed it, and the public check of
one envelope's draw (the answer to tables.selectors.draw_check.ENVELOPE_DRAW).

An envelope is out of the box while what drew it stands: the standing elimination it paid (the last draw of an
elimination's place in the night counts), or a player's own head at play over whose award stands. An undone elimination
(or play over undone) gives its envelope back: each later draw names the draws given back (`given_back`), so its box is
the committed list less every earlier envelope drawn except those."""

from __future__ import annotations

from django.db.models import Q

from payouts.models import BountyAward
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from tables.models import Draw
from tables.rules.seating import SeedStream
from tournament.models import AuditEvent, Tournament

COMMITTED = "bounty.envelopes_committed"  # the event that publishes the list (payouts/services/bounties.commit_envelopes)
KEY = ("order", "entry", "own")  # what a draw was made for, in its inputs and its result


def envelope_draws(t: Tournament):
    return Draw.objects.filter(tournament=t, kind=Draw.Kind.ENVELOPE, drawn_at__isnull=False)


def own_draws(t: Tournament) -> dict[int, tuple[int, int]]:
    """Entry -> (the envelope's value, its draw's id) for the envelopes the players left drew for their own heads, whose
    awards stand. An award made before it named its draw is matched to the last draw of that entry and value."""
    found: dict[int, tuple[int, int]] = {}
    rows = sel.awards(t).filter(kind=BountyAward.Kind.OWN, envelope__isnull=False).values_list("winner__number", "envelope", "draw_id")
    unnamed = {}
    for entry, value, draw_id in rows:
        if draw_id is not None:
            found[entry] = (value, draw_id)
        else:
            unnamed[entry] = value
    if unnamed:
        for pk, result in envelope_draws(t).order_by("number").values_list("pk", "result"):
            entry = (result or {}).get("entry")
            if (result or {}).get("own") and entry in unnamed and result.get("value") == unnamed[entry]:
                found[entry] = (unnamed[entry], pk)
    return found


def out_of_box(t: Tournament) -> dict[int, int]:
    """Draw id -> value of the envelopes out of the box now: those of the standing eliminations and of the own heads."""
    out = {pk: value for value, pk in sel.envelopes_drawn(t).values()}
    out.update({pk: value for value, pk in own_draws(t).values()})
    return out


def box_now(t: Tournament, envelopes: list, also_out: dict[int, int] | None = None) -> tuple[list[tuple[int, int]], list[int]]:
    """The envelopes in the box (highest value first) and the numbers of the earlier draws whose envelopes went back into
    it, for the next draw. `also_out`: draw id -> value of envelopes drawn by the replay under way, whose awards are not
    written yet."""
    out = {**out_of_box(t), **(also_out or {})}
    given_back = sorted(number for pk, number in envelope_draws(t).values_list("pk", "number") if pk not in out)
    return b.remaining([tuple(x) for x in envelopes], out.values()), given_back


def committed(t: Tournament) -> dict | None:
    """The list as the event log published it when the director committed it: the envelopes, the list's SHA-256, the
    event's number in the log and its time."""
    event = AuditEvent.objects.filter(tournament=t, type=COMMITTED).order_by("seq").first()
    if event is None:
        return None
    return {
        "envelopes": event.payload.get("envelopes"),
        "list_hash": event.payload.get("list_hash"),
        "event": event.seq,
        "at": event.at.isoformat(),
    }


def _box_consistent(draw: Draw, data: dict, published: dict | None, earlier: list[tuple[int, dict, dict]]) -> bool:
    """The draw's box is the published list less every earlier envelope drawn but those given back; the list hashes to
    the published hash, which the draw names; a draw given back stays given back."""
    if published is None:
        return False
    try:
        envelopes = b.envelope_list(published["envelopes"])
        back = set(data.get("given_back", []))
        if not back <= {number for number, _inputs, _result in earlier}:
            return False
        if earlier and not set(earlier[-1][1].get("given_back", [])) <= back:
            return False
        box = b.remaining(envelopes, [result["value"] for number, _inputs, result in earlier if number not in back])
    except (b.BountyError, KeyError, TypeError):
        return False
    return b.list_hash(envelopes) == published["list_hash"] == data.get("list_hash") and [list(x) for x in box] == data.get("box")


def envelope_draw_answer(*, draw: Draw) -> dict:
    """Reaction to tables.selectors.draw_check.ENVELOPE_DRAW: an envelope's draw recomputed by payouts/rules/bounties.py
    from its seed and its box, the published list it was drawn from, what it paid (the standing awards it made; none once
    given back) and whether it all holds."""
    t = draw.tournament
    data = draw.inputs or {}
    published = committed(t)
    earlier = list(envelope_draws(t).filter(number__lt=draw.number).order_by("number").values_list("number", "inputs", "result"))
    try:
        value = b.draw_envelope(SeedStream(bytes.fromhex(draw.seed)), [tuple(x) for x in data["box"]])
        recomputed = {**{k: data[k] for k in KEY if k in data}, "value": value}
    except (b.BountyError, KeyError, TypeError, ValueError):
        recomputed = None
    result = draw.result or {}
    paid_by = Q(draw=draw)
    if result.get("own"):  # an own head's award names its draw; one made before it did is matched by entry and value
        paid_by |= Q(draw__isnull=True, kind=BountyAward.Kind.OWN, winner__number=result.get("entry"), envelope=result.get("value"))
    paid = [
        {"entry": winner, "cash": cash}
        for winner, cash in sel.awards(t).filter(paid_by).order_by("number").values_list("winner__number", "cash")
    ]
    given_back = draw.pk not in out_of_box(t)
    paid_ok = sum(p["cash"] for p in paid) == (0 if given_back else result.get("value"))
    return {
        "envelope": {
            "inputs": {"committed": published},
            "recomputed": recomputed,
            "written": {"paid": paid, "given_back": given_back},
            "ok": paid_ok and _box_consistent(draw, data, published, earlier),
        }
    }
