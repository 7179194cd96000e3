"""Changes of a bounty event's money (docs/bounties.md; the rules: payouts/rules/bounties.py).

A bust's elimination (tables/services/eliminations.py) makes its awards at once (`award_bust`, a reaction to
ENTRY_BUSTED): the eliminator's cash, and in a PKO what goes onto his head; a mystery elimination in the envelope phase
draws its envelope by the verifiable draw. Anything that changes the night before its last elimination (an undone
bust, corrected winners, a deal that stops play, play over) replays the whole night (`settle`): the awards it no longer
makes are voided and the new ones written. A bounty already paid at the cage is never taken back silently: the change
is refused until the cage voids that payment (`void_bounty_payment`), as for prizes."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from payouts.models import BountyAward, BountyRules, Deal, MysteryBox, Payment
from payouts.rules import bounties as b
from payouts.selectors import bounties as sel
from payouts.selectors.structure import payout_state
from payouts.services import envelopes
from tables.models import Elimination
from tables.services.draws import pending_draw
from tournament.models import Entry, Tournament
from tournament.selectors.stats import registration_problem
from tournament.services.audit import actor_user, lock_tournament, record_event

RULE_FIELDS = (
    "cash_share_bp",
    "increment",
    "odd_unit",
    "mystery_level",
    "mystery_at_money",
    "mystery_before",
    "disqualified_head",
    "cage",
    "deal_heads",
)


def rules_json(row: BountyRules) -> dict:
    return {name: getattr(row, name) for name in RULE_FIELDS}


@transaction.atomic
def set_bounty_rules(tournament: Tournament, *, actor: Actor, data: dict) -> BountyRules:
    """The director sets the house's bounty settings (unknown names refused, the rest keep their value). They are fixed
    once a bounty has been won: one night's heads are paid by one set of rules."""
    require(actor, roles.SETUP)
    unknown = sorted(set(data) - set(RULE_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown bounty setting: %(names)s.") % {"names": ", ".join(unknown)}, code="unknown_setting")
    t = lock_tournament(tournament.pk)
    row = BountyRules.objects.select_for_update().filter(tournament=t).first() or sel.bounty_rules(t)
    before = rules_json(row)
    for name, value in data.items():
        setattr(row, name, value)
    row.full_clean(exclude=["tournament"])
    after = rules_json(row)
    changed = {k: {"from": before[k], "to": after[k]} for k in RULE_FIELDS if before[k] != after[k]}
    if changed and BountyAward.objects.filter(tournament=t).exists():
        raise ServiceError(
            _("Bounties have been won under these settings: they stay as they are for the rest of the night."),
            code="bounty_rules_fixed",
            status=409,
        )
    if changed and MysteryBox.objects.filter(tournament=t).exists() and {"mystery_level", "mystery_at_money"} & set(changed):
        raise ServiceError(_("The envelopes are committed: the point they are drawn from is fixed."), code="bounty_rules_fixed", status=409)
    row.save()
    if changed:
        record_event(t, actor=actor, type_="bounty_rules.changed", payload={"changed": changed}, stats=False, seats=False)
    return row


# --- awards --------------------------------------------------------------------------------------------------------


def _key(kind, order, busted, winner, cash, head_added, envelope, to_pool) -> tuple:
    return (kind, order, busted, winner, cash, head_added, envelope, to_pool)


def _standing_keys(t: Tournament) -> list[tuple[tuple, BountyAward]]:
    rows = sel.awards(t).select_related("busted", "winner", "payment")
    return [
        (
            _key(
                a.kind,
                a.order,
                a.busted.number if a.busted else None,
                a.winner.number if a.winner else None,
                a.cash,
                a.head_added,
                a.envelope,
                a.to_pool,
            ),
            a,
        )
        for a in rows
    ]


def _paid_refusal(award: BountyAward) -> ServiceError:
    return ServiceError(
        _(
            "This changes the bounty paid to entry #%(entry)s (bounty receipt %(receipt)s): the cage voids that payment "
            "first, then the correction is made and the bounty paid again as it stands."
        )
        % {"entry": award.winner.number if award.winner else "", "receipt": award.payment.number},
        code="bounty_paid",
        status=409,
        details={"press": "void_bounty_payment", "payment": award.payment.number},
    )


def _in_phase(t: Tournament, row: BountyRules, order: int) -> bool:
    """A mystery elimination is in the envelope phase from the house's point on: the first elimination at that level or
    in the money marks where the phase starts (`mystery_from_order`), and every later one is in it."""
    if row.mystery_from_order is not None:
        return order >= row.mystery_from_order
    reached = row.mystery_level is not None and t.current_level >= row.mystery_level
    if not reached and row.mystery_at_money:
        left_before = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() + 1
        places = payout_state(t)["places_paid"]
        reached = 0 < left_before <= places
    if reached:
        if row.pk is None:
            row.save()
        row.mystery_from_order = order
        row.save(update_fields=["mystery_from_order"])
    return reached


def _mystery_eliminations(t: Tournament, *, actor: Actor, row: BountyRules) -> list[b.Elimination]:
    """The standing eliminations, those in the envelope phase with their envelopes: drawn now, in the night's order, for
    those still waiting while the box is committed (pending while it is not)."""
    elims = sel.eliminations_of(t, row)
    if sel.mystery_box(t) is None:
        return elims
    done = []
    for e in elims:
        if e.pending:
            value, _draw = envelopes.draw_envelope(t, actor=actor, key={"order": e.order, "entry": e.busted})
            e = b.Elimination(e.order, e.busted, e.winners, value, e.kind)
        done.append(e)
    return done


def _play_over_awards(t: Tournament, *, actor: Actor, row: BountyRules, ledger: b.Ledger, rules: b.Rules, last: int) -> dict[int, int]:
    """Play over: the winner takes his own head; a deal that stopped play gives the players left their own heads, or
    deals the heads in play in proportion to the deal (the house rule); a satellite's seat winners keep their own.
    Returns the draws of the envelopes drawn for the own heads (entry -> draw id)."""
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.Status.FINISHED:
        return {}
    left = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("number").values_list("number", flat=True))
    if not left:
        return {}
    deal = Deal.objects.filter(tournament=t, status=Deal.Status.APPROVED, mode=Deal.Mode.STOP).order_by("-number").first()
    order = last + 1
    if deal is not None and len(left) > 1 and row.deal_heads == BountyRules.DealHeads.DEALT:
        amounts = {n: a for n, a in zip(deal.entries, deal.amounts, strict=True) if n in left}
        b.dealt_heads(ledger, amounts, rules, order=order)
        return {}
    drawn = envelopes.own_envelopes(t, actor=actor, entries=left) if rules.format == b.MYSTERY else {}
    b.own_heads(ledger, left, rules, order=order, envelopes=[value for value, _draw in drawn.values()])
    return {n: draw for n, (_value, draw) in drawn.items()}


@transaction.atomic
def settle(t: Tournament, *, actor: Actor) -> dict:
    """The whole night replayed (the caller holds the tournament lock): the standing awards are made what the standing
    eliminations and play over make them. Returns {"voided": [...], "made": [...]} (award numbers). Refused, changing
    nothing, when an award it would void is paid."""
    if not sel.is_bounty(t):
        return {"voided": [], "made": []}
    row = sel.bounty_rules(t)
    rules = sel.rules_of(t, row)
    if rules.format == b.MYSTERY:
        elims = _mystery_eliminations(t, actor=actor, row=row)
    else:
        elims = sel.eliminations_of(t, row)
    try:
        ledger = b.replay(rules, sel.starts(t), elims)
    except b.BountyError as exc:
        raise ServiceError(
            _("The night's eliminations cannot be paid as they stand (%(problem)s): correct the eliminators first.")
            % {"problem": exc.code},
            code="bounty_replay",
            status=409,
        ) from None
    last = max((e.order for e in elims), default=0)
    own_draws = _play_over_awards(t, actor=actor, row=row, ledger=ledger, rules=rules, last=last)
    # Where each disqualified head went was decided when it was taken (_head_to_pool) and stays so.
    went = {(a.order, a.busted_id): a.to_pool for a in sel.awards(t).filter(kind=b.DQ)}
    numbers = dict(
        Entry.objects.filter(tournament=t, number__in=[a.busted for a in ledger.awards if a.kind == b.DQ]).values_list("number", "pk")
    )
    to_pool = {a.order: went.get((a.order, numbers.get(a.busted)), _head_to_pool(t, row)) for a in ledger.awards if a.kind == b.DQ}
    wanted = Counter(
        _key(a.kind, a.order, a.busted, a.winner, a.cash, a.head_added, a.envelope, to_pool[a.order] if a.kind == b.DQ else False)
        for a in ledger.awards
    )
    voided, keep = [], Counter()
    for key, award in _standing_keys(t):
        if keep[key] < wanted[key]:
            keep[key] += 1
            continue
        if award.payment_id is not None:
            raise _paid_refusal(award)
        voided.append(award)
    made = _write(t, wanted - keep, own_draws)
    now = timezone.now()
    for award in voided:
        award.status, award.voided_at = BountyAward.Status.VOID, now
    BountyAward.objects.bulk_update(voided, ["status", "voided_at"])
    if voided or made:
        record_event(
            t,
            actor=actor,
            type_="bounty.settled",
            payload={
                "voided": [_award_json(a) for a in voided],
                "made": [_award_json(a) for a in made],
                "entries": _entries_of(voided + made),
            },
        )
    return {"voided": [a.number for a in voided], "made": [a.number for a in made]}


def _write(t: Tournament, keys: Counter, own_draws: dict[int, int]) -> list[BountyAward]:
    """The awards `keys` written; each names the envelope's draw it pays (`own_draws`: entry -> the draw of his own head's
    envelope)."""
    if not keys:
        return []
    numbers = {k[2] for k in keys} | {k[3] for k in keys}
    entries = {
        e.number: e for e in Entry.objects.filter(tournament=t, number__in=[n for n in numbers if n is not None]).select_related("player")
    }
    elims = dict(
        Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING, order__in={k[1] for k in keys}).values_list(
            "order", "pk"
        )
    )
    draws = {order: pk for order, (_value, pk) in sel.envelopes_drawn(t).items()}
    first = next_number(BountyAward.objects.filter(tournament=t))
    now = timezone.now()
    rows = []
    for key in sorted(keys.elements(), key=lambda k: (k[1], str(k[0]), k[3] or 0)):
        kind, order, busted, winner, cash, head_added, envelope, to_pool = key
        rows.append(
            BountyAward(
                tournament=t,
                number=first + len(rows),
                kind=kind,
                order=order,
                elimination_id=elims.get(order) if kind in (b.BUST, b.DQ) else None,
                busted=entries.get(busted),
                winner=entries.get(winner),
                cash=cash,
                head_added=head_added,
                envelope=envelope,
                draw_id=draws.get(order) if kind in (b.BUST, b.DQ) else own_draws.get(winner) if kind == b.OWN else None,
                to_pool=to_pool,
                created_at=now,
            )
        )
    return BountyAward.objects.bulk_create(rows)


def _award_json(a: BountyAward) -> dict:
    return {
        "award": a.number,
        "kind": a.kind,
        "busted": a.busted.number if a.busted else None,
        "winner": a.winner.number if a.winner else None,
        "name": a.winner.player.display_name if a.winner else None,
        "cash": a.cash,
        "head_added": a.head_added,
        "envelope": a.envelope,
        "to_pool": a.to_pool,
    }


def _entries_of(awards: list[BountyAward]) -> list[int]:
    return sorted({n for a in awards for n in (a.busted.number if a.busted else None, a.winner.number if a.winner else None) if n})


def _head_to_pool(t: Tournament, row: BountyRules) -> bool:
    """A disqualified player's head goes to the prize pool where the house says so, while the pool may still change:
    not once a deal stands on it, a prize is paid of it or play is over (then the house keeps it, and the event says
    to nobody). Decided when the head is taken, and kept whatever comes after."""
    if row.disqualified_head != BountyRules.DisqualifiedHead.PRIZE_POOL:
        return False
    frozen = (
        Tournament.objects.filter(pk=t.pk, status=Tournament.Status.FINISHED).exists()
        or Deal.objects.filter(tournament=t, status=Deal.Status.APPROVED).exists()
        or Payment.objects.filter(tournament=t, status=Payment.Status.PAID).exists()
    )
    return not frozen


def award_bust(t: Tournament, *, actor: Actor, entry: Entry) -> None:
    """The awards of a bust just entered (a reaction to ENTRY_BUSTED, the tournament locked): the last elimination of
    the night pays at once from the busted player's head as it stands, in about a dozen small queries whatever the size
    of the field (bench/bounties.py); anything else (play over, an elimination before others) replays the night."""
    if not sel.is_bounty(t):
        return
    # the last elimination, with the tournament as it stands now (play over is decided before this reaction)
    elim = (
        Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING)
        .select_related("tournament")
        .order_by("-order", "-number")
        .first()
    )
    if elim is None or elim.busted_id != entry.pk:  # none made, or not the last of the night: replay
        if Elimination.objects.filter(tournament=t, busted=entry, status=Elimination.Status.STANDING).exists():
            settle(t, actor=actor)
        return
    row = sel.bounty_rules(t)
    rules = sel.rules_of(t, row)
    # before play over's replay: the first elimination of the envelope phase marks where it starts, the last one too
    in_phase = rules.format == b.MYSTERY and _in_phase(t, row, elim.order)
    if elim.tournament.status == Tournament.Status.FINISHED:  # play over: own heads, deals
        settle(t, actor=actor)
        return
    winners = sel.winners_in_order(elim, row.odd_unit)
    found = sel.heads_at_a_bust(t, entry.pk, winners, progressive=rules.format == b.PROGRESSIVE)
    pks = {n: pk for pk, (n, _name, _head) in found.items() if pk != entry.pk}
    names = {n: name for pk, (n, name, _head) in found.items() if pk != entry.pk}
    before = {pk: head for pk, (_n, _name, head) in found.items()}
    head = before[entry.pk]
    envelope, draw = None, None
    if in_phase:
        if sel.mystery_box(t) is None:
            record_event(
                t,
                actor=actor,
                type_="bounty.envelope_waits",
                payload={"entry": entry.number, "order": elim.order},
                stats=False,
                seats=False,
            )
            return
        envelope, draw = envelopes.draw_envelope(t, actor=actor, key={"order": elim.order, "entry": entry.number})
    to_pool = False
    if elim.kind == Elimination.Kind.DQ:
        to_pool = _head_to_pool(t, row)
        if rules.format == b.MYSTERY and envelope is None:
            return  # his bounty stays for the envelopes
        made = [b.Award(elim.order, entry.number, None, envelope if envelope is not None else head, 0, b.DQ, envelope)]
    elif rules.format == b.MYSTERY and envelope is None and rules.mystery_before == "nothing":
        return
    else:
        made = b.awards_of(
            envelope if envelope is not None else head, winners, rules, order=elim.order, busted=entry.number, envelope=envelope
        )
    first = next_number(BountyAward.objects.filter(tournament=t))
    now = timezone.now()
    rows = BountyAward.objects.bulk_create(
        [
            BountyAward(
                tournament=t,
                number=first + k,
                kind=a.kind,
                order=a.order,
                elimination=elim,
                busted=entry,
                winner_id=pks.get(a.winner),
                cash=a.cash,
                head_added=a.head_added,
                envelope=a.envelope,
                draw=draw,
                to_pool=to_pool,
                created_at=now,
            )
            for k, a in enumerate(made)
        ]
    )
    record_event(
        t,
        actor=actor,
        type_="bounty.won",
        payload={
            "entry": entry.number,
            "head": head,
            "envelope": envelope,
            "draw": draw.number if draw else None,
            "awards": [
                {
                    "award": r.number,
                    "kind": r.kind,
                    "winner": a.winner,
                    "name": names.get(a.winner),
                    "cash": r.cash,
                    "head_added": r.head_added,
                    "head": before.get(pks.get(a.winner), 0) + r.head_added if a.winner in pks and rules.format == b.PROGRESSIVE else None,
                    "to_pool": r.to_pool,
                }
                for r, a in zip(rows, made, strict=True)
            ],
            "entries": sorted({entry.number, *pks}),
        },
        stats=to_pool,  # the figures change only when a head goes to the prize pool
        seats=sorted({entry.number, *pks}),
    )


# --- the mystery box -----------------------------------------------------------------------------------------------


@transaction.atomic
def commit_envelopes(tournament: Tournament, *, actor: Actor, envelopes) -> MysteryBox:
    """The director commits the house's envelopes before the first is drawn: its hash is published, and from then on
    each elimination in the envelope phase draws one by the verifiable draw. The list must add up to the bounty money
    in play (the heads still in and the bounties waiting for the envelopes) and hold one envelope for each player in
    the phase (each elimination draws one, and the winner the last), so it pays out exactly what it promises.
    Refused once committed, before registration closes (the money in play is not final), outside a mystery event."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    if t.bounty_format != Tournament.BountyFormat.MYSTERY:
        raise ServiceError(_("Envelopes are for a mystery bounty event."), code="not_mystery", status=409)
    if MysteryBox.objects.filter(tournament=t).exists():
        raise ServiceError(_("The envelopes are committed already: the list cannot change."), code="box_committed", status=409)
    if registration_problem(t) is None:
        raise ServiceError(
            _("Registration is still open: the bounty money is not final. Close registration, then commit the envelopes."),
            code="registration_open",
            status=409,
        )
    try:
        box = b.envelope_list(envelopes)
    except b.BountyError:
        raise ServiceError(
            _("Give the envelopes as a list of [value, count] pairs: whole amounts and counts of at least 1, each value once."),
            code="bad_envelopes",
        ) from None
    row = sel.bounty_rules(t)
    if row.mystery_level is None and not row.mystery_at_money:
        raise ServiceError(_("Set the point the envelopes are drawn from (a level, or the money) first."), code="no_phase", status=409)
    ledger = sel.ledger(t, row)
    pending = (
        0
        if row.mystery_from_order is None
        else Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING, order__gte=row.mystery_from_order).count()
    )
    players = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() + pending
    total, count, in_play = b.envelopes_total(box), b.envelopes_count(box), ledger.in_play()
    if total != in_play or count != players:
        raise ServiceError(
            _(
                "The envelopes must pay out exactly the bounty money in play, %(in_play)s, in one envelope for each of the "
                "%(players)s players in the envelope phase: this list holds %(total)s in %(count)s envelopes."
            )
            % {"in_play": in_play, "players": players, "total": total, "count": count},
            code="envelopes_do_not_add_up",
            details={"in_play": in_play, "players": players, "total": total, "count": count},
        )
    committed = MysteryBox.objects.create(
        tournament=t,
        envelopes=[list(x) for x in box],
        list_hash=b.list_hash(box),
        total=total,
        count=count,
        committed_at=timezone.now(),
        committed_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="bounty.envelopes_committed",
        payload={"envelopes": committed.envelopes, "list_hash": committed.list_hash, "total": total, "count": count},
        stats=False,
        seats=False,
    )
    pending_draw(t)  # the commitment of the first envelope's draw, shown before any is drawn
    settle(t, actor=actor)  # the eliminations that waited for the box draw theirs now, in order
    return committed
