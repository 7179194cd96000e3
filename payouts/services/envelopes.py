"""A mystery envelope drawn (docs/bounties.md, "Mystery envelopes, verifiable"; docs/draws.md, "Mystery envelopes"): one
envelope from the box by the tournament's committed seed, with what anyone needs to check it. The callers
(payouts/services/bounties.py) hold the tournament lock and write what the envelope pays."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.actor import Actor
from core.errors import ServiceError
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.selectors import envelope_draws
from tables.models import Draw
from tables.rules.seating import SeedStream
from tables.services.draws import pending_draw, run_draw
from tournament.models import Tournament
from tournament.services.audit import record_event


def draw_envelope(t: Tournament, *, actor: Actor, key: dict, also_out: dict[int, int] | None = None) -> tuple[int, Draw]:
    """One envelope drawn from the box by the committed seed (tables/services/draws.run_draw): the inputs are the
    envelopes in the box, the list's hash and the earlier draws whose envelopes went back into it (`given_back`: the box
    is the committed list less every other earlier envelope, docs/draws.md); the result says which elimination (or which
    player's own head) drew it. `also_out`: draw id -> value of the envelopes drawn earlier in the same replay, whose
    awards are not written yet."""
    box = sel.mystery_box(t)
    left, given_back = envelope_draws.box_now(t, box.envelopes, also_out)
    if not left:
        raise ServiceError(_("The box of envelopes is empty."), code="box_empty", status=409)
    inputs = {"box": [list(x) for x in left], "list_hash": box.list_hash, "given_back": given_back, **key}

    def compute(seed: bytes):
        value = b.draw_envelope(SeedStream(seed), left)
        return value, {**key, "value": value}

    draw, value = run_draw(t, actor=actor, kind=Draw.Kind.ENVELOPE, inputs=inputs, compute=compute)
    record_event(
        t,
        actor=actor,
        type_="bounty.envelope_drawn",
        payload={"draw": draw.number, "value": value, "commitment": draw.commitment, "seed": draw.seed, **key},
        stats=False,
        seats=False,
    )
    pending_draw(t)
    return value, draw


def own_envelopes(t: Tournament, *, actor: Actor, entries: list[int]) -> dict[int, tuple[int, int]]:
    """Play over: the envelopes the players left (`entries`, in their order) draw for their own heads, entry -> (value,
    draw id), one each while the box holds one (none before the list is committed). An envelope drawn for an own head
    is kept while its award stands (a replay of the night does not draw it again); once play over is undone its award is
    void, it is back in the box and play over draws anew. Its draw names no place in the night: the place it would name
    is the next elimination's once play goes on."""
    box = sel.mystery_box(t)
    if box is None:
        return {}
    kept = envelope_draws.own_draws(t)
    drawn: dict[int, tuple[int, int]] = {}
    now: dict[int, int] = {}  # the envelopes drawn here: out of the box before their awards are written
    for n in entries:
        if n not in kept:
            if not envelope_draws.box_now(t, box.envelopes, now)[0]:
                break
            value, draw = draw_envelope(t, actor=actor, key={"own": True, "entry": n}, also_out=now)
            kept[n] = (value, draw.pk)
            now[draw.pk] = value
        drawn[n] = kept[n]
    return drawn
