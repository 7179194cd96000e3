"""Changes of the money: the house's payout plan and the director's edits of the structure.

Each function is one use case: it runs in one transaction with the tournament row locked, checks the
role, validates everything before writing, records an audit event and lets the screens know (the
events count for the seat pages' version too: a seat page shows the player's prize)."""

from __future__ import annotations

import base64
import binascii
import io

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image

from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, full_clean, next_number, require
from payouts.models import Deal, Payment, PayoutPlan
from payouts.rules import deals as dl
from payouts.rules.house_tables import house_table_from_data, house_table_to_data
from payouts.rules.payout_structure import PayoutRules
from payouts.selectors.satellites import structure_fixed
from payouts.selectors.structure import MAX_DEAL_PLAYERS, deal_basis, plan_of, prize_due, satellite_of
from tournament.models import Entry, Tournament
from tournament.selectors.stats import tournament_stats
from tournament.services import registration as tournament_services
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.registration import IdDocument

DEAL_APPROVED = "deal_approved"  # after the deal.approved event: a deal that stops play places its players
PLAN_FIELDS = ("method", "share_paid_bp", "min_cash_bp", "unit", "house_table")
MAX_PLACES = 100_000


def plan_json(plan: PayoutPlan) -> dict:
    return {
        "method": plan.method,
        "share_paid_bp": plan.share_paid_bp,
        "min_cash_bp": plan.min_cash_bp,
        "unit": plan.unit,
        "house_table": plan.house_table,
    }


def _house_table(data) -> dict:
    try:
        return house_table_to_data(house_table_from_data(data))
    except ValueError as exc:
        raise ServiceError(_("The house table is not valid: %(problem)s") % {"problem": exc}, code="invalid_house_table") from None


@transaction.atomic
def set_payout_plan(tournament: Tournament, *, actor: Actor, data: dict) -> PayoutPlan:
    """The director chooses how the pool is paid: the generator's settings, or a house percentage
    table (the export format of payouts/rules/house_tables.py). Fields not given keep their value. A change
    ends a hand edit of the structure (the event says so)."""
    require(actor, roles.SETUP)
    unknown = sorted(set(data) - set(PLAN_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown payout setting: %(names)s.") % {"names": ", ".join(unknown)}, code="unknown_setting")
    t = lock_tournament(tournament.pk)
    plan = PayoutPlan.objects.select_for_update().filter(tournament=t).first() or plan_of(t)
    before = plan_json(plan)
    for name in ("method", "share_paid_bp", "min_cash_bp", "unit"):
        if name in data:
            value = data[name]
            if name != "method" and (not isinstance(value, int) or isinstance(value, bool)):
                raise ServiceError(_("%(name)s must be a whole number.") % {"name": name}, code="invalid")
            setattr(plan, name, value)
    if "house_table" in data:
        plan.house_table = None if data["house_table"] is None else _house_table(data["house_table"])
    if plan.method == PayoutPlan.Method.HOUSE_TABLE and not plan.house_table:
        raise ServiceError(_("Give the house percentage table first."), code="house_table_missing")
    full_clean(plan, exclude=["tournament", "edited_by"])
    try:
        PayoutRules.from_basis_points(plan.share_paid_bp, plan.min_cash_bp, plan.unit)
    except ValueError as exc:
        raise ServiceError(str(exc), code="invalid") from None
    after = plan_json(plan)
    if after == before and plan.pk:
        return plan
    _structure_open(t)
    ended_edit = plan.edited is not None
    plan.edited, plan.edited_at, plan.edited_by = None, None, None
    plan.save()
    record_event(
        t, actor=actor, type_="payouts.plan_set", payload={"before": before, "after": after, "edit_ended": ended_edit}, stats=False
    )
    return plan


def _structure_open(t: Tournament) -> None:
    """Refused (409) when the prizes stop changing (selectors.structure_fixed says why)."""
    problem = structure_fixed(t)
    if problem is not None:
        raise problem


def _bands(rows) -> list[list[int]]:
    """The director's prizes as bands [first, last, prize], from places 1 down without a gap."""
    if not isinstance(rows, list) or not rows:
        raise ServiceError(_("Give the prizes as a list of bands: first place, last place, prize."), code="invalid_bands")
    bands, expected = [], 1
    for row in rows:
        if isinstance(row, dict):
            row = [row.get("first"), row.get("last"), row.get("prize")]
        if not isinstance(row, list | tuple) or len(row) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in row):
            raise ServiceError(_("Each band is a first place, a last place and a prize, in whole numbers."), code="invalid_bands")
        first, last, prize = row
        if first != expected or last < first or last > MAX_PLACES:
            raise ServiceError(
                _("The bands must run from place 1 down without a gap (expected place %(place)s).") % {"place": expected},
                code="invalid_bands",
            )
        if prize <= 0:
            raise ServiceError(
                _("Every prize must be more than zero (places %(first)s-%(last)s).") % {"first": first, "last": last}, code="invalid_bands"
            )
        if bands and prize > bands[-1][2]:
            raise ServiceError(
                _("A prize may not be higher than the one above it (place %(place)s).") % {"place": first}, code="prize_order"
            )
        bands.append([first, last, prize])
        expected = last + 1
    return bands


@transaction.atomic
def edit_structure(tournament: Tournament, *, actor: Actor, rows) -> PayoutPlan:
    """The director sets the prizes by hand: they must add up to the prize pool exactly, never rise down
    the list, and pay no more places than there are entries. They stand while the pool and the field
    are what they were (a void or an add-on makes the generated structure stand again, and says so)."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    _structure_open(t)
    bands = _bands(rows)
    stats = tournament_stats(t)
    total = sum((last - first + 1) * prize for first, last, prize in bands)
    if total != stats["prize_pool"]:
        raise ServiceError(
            _("The prizes add up to %(total)s, not to the prize pool of %(pool)s (minor units).")
            % {"total": total, "pool": stats["prize_pool"]},
            code="wrong_total",
        )
    if bands[-1][1] > stats["entries"]:
        raise ServiceError(
            _("%(places)s places paid, but there are only %(entries)s entries.") % {"places": bands[-1][1], "entries": stats["entries"]},
            code="too_many_places",
        )
    plan = PayoutPlan.objects.select_for_update().filter(tournament=t).first() or plan_of(t)
    before = plan.edited
    plan.edited = {"pool": stats["prize_pool"], "entries": stats["entries"], "prizes": bands}
    plan.edited_at, plan.edited_by = timezone.now(), actor_user(actor)
    plan.save()
    record_event(t, actor=actor, type_="payouts.structure_edited", payload={"before": before, "after": plan.edited}, stats=False)
    return plan


@transaction.atomic
def clear_edit(tournament: Tournament, *, actor: Actor) -> PayoutPlan:
    """Back to the structure the plan generates."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    plan = PayoutPlan.objects.select_for_update().filter(tournament=t).first()
    if plan is None or plan.edited is None:
        raise ServiceError(_("The structure has not been edited."), code="not_edited", status=409)
    _structure_open(t)
    before = plan.edited
    plan.edited, plan.edited_at, plan.edited_by = None, None, None
    plan.save()
    record_event(t, actor=actor, type_="payouts.edit_cleared", payload={"before": before}, stats=False)
    return plan


# --- paying prizes (club 32) ----------------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_SIGNATURE_BYTES = 300_000


def signature_png(data) -> bytes:
    """The signature drawn on the tablet: a PNG image (a data URL or its base64), not empty, not huge.
    A blank canvas is refused: a signature has ink."""
    if not isinstance(data, str) or not data.strip():
        raise ServiceError(_("The player must sign: no prize without a signature."), code="signature_missing")
    text = data.strip()
    if text.startswith("data:"):
        head, _comma, text = text.partition(",")
        if head != "data:image/png;base64":
            raise ServiceError(_("The signature must be a PNG image."), code="signature_invalid")
    if len(text) > MAX_SIGNATURE_BYTES * 4 // 3 + 4:
        raise ServiceError(_("The signature image is too large."), code="signature_invalid")
    try:
        png = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ServiceError(_("The signature must be a PNG image."), code="signature_invalid") from None
    if not png.startswith(PNG_MAGIC):
        raise ServiceError(_("The signature must be a PNG image."), code="signature_invalid")
    try:
        with Image.open(io.BytesIO(png)) as image:
            image.load()
            ink = image.convert("RGBA").getextrema()
    except Exception:
        raise ServiceError(_("The signature must be a PNG image."), code="signature_invalid") from None
    alpha, red = ink[3], ink[0]
    if alpha[1] == 0 or (alpha[0] == 255 and red[0] == red[1]):  # all transparent, or one colour
        raise ServiceError(_("The player must sign: the signature is empty."), code="signature_missing")
    return png


@transaction.atomic
def pay_prize(entry: Entry, *, actor: Actor, document: IdDocument | None, signature) -> Payment:
    """Pay an entry's prize at the cashier: once its place is final (late registration over), against the
    document number typed again (it must match the registration's: tournament.services.registration.check_id_again)
    and the player's signature. Refused with a clear message otherwise, and then nothing is recorded."""
    require(actor, roles.PAY)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player", "id_check").get(pk=entry.pk)
    due = prize_due(t, e)  # the same check the pay page shows before the ID is typed
    if due.refusal is not None:
        raise due.refusal
    finisher, amount = due.finisher, due.amount
    png = signature_png(signature)
    check = tournament_services.check_id_again(e, actor=actor, document=document)
    number = next_number(Payment.objects.filter(tournament=t))
    payment = Payment.objects.create(
        tournament=t,
        entry=e,
        number=number,
        amount=amount,
        place=finisher.place,
        place_low=finisher.place_low,
        id_check=check,
        signature=png,
        paid_at=timezone.now(),
        paid_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="payout.paid",
        payload={
            "receipt": number,
            "entry": e.number,
            "name": e.player.display_name,
            "place": finisher.place,
            "place_low": finisher.place_low,
            "amount": amount,
            "id": f"{check.get_document_type_display()} …{check.number_last4}",
            "entries": [e.number],  # his seat page reads itself again: the prize is paid
        },
        stats=False,
        seats=[e.number],
    )
    if not t.registration_closed:  # over by the level until now: a clock set back must not open it under the payment
        t.registration_closed = True
        t.save(update_fields=["registration_closed"])
        record_event(t, actor=actor, type_="registration.closed", payload={"receipt": number})
    return payment


@transaction.atomic
def void_payment(payment: Payment, *, actor: Actor, reason: str) -> Payment:
    """A payment made in error is voided with a reason (never deleted); the prize can then be paid again."""
    require(actor, roles.PAY)
    reason = clean_reason(reason, Payment, "void_reason", _("Give a reason for voiding."))
    t = lock_tournament(payment.tournament_id)
    p = Payment.objects.select_for_update().select_related("entry__player").get(pk=payment.pk)
    if p.status == Payment.Status.VOIDED:
        raise ServiceError(_("Payout receipt %(number)s is already void.") % {"number": p.number}, code="already_void", status=409)
    p.status, p.voided_at, p.voided_by, p.void_reason = Payment.Status.VOIDED, timezone.now(), actor_user(actor), reason
    p.save(update_fields=["status", "voided_at", "voided_by", "void_reason"])
    record_voided(t, actor=actor, type_="payout.voided", payment=p)
    return p


def record_voided(t: Tournament, *, actor: Actor, type_: str, payment) -> None:
    """The event of a payment voided (a prize's, a bounty payment's): its receipt, the player, the amount and the reason;
    it names his entry, whose seat page reads itself again."""
    number = payment.entry.number
    record_event(
        t,
        actor=actor,
        type_=type_,
        payload={
            "receipt": payment.number,
            "entry": number,
            "name": payment.entry.player.display_name,
            "amount": payment.amount,
            "reason": payment.void_reason,
            "entries": [number],
        },
        stats=False,
        seats=[number],
    )


def refusal_message(code: str, entries: list[int], player: int | None = None, other: int | None = None) -> str:
    """A deal rule broken, said for the floor with entry numbers (payouts/rules/deals.py speaks of indices)."""
    who = {"entry": entries[player] if player is not None else "", "other": entries[other] if other is not None else ""}
    messages = {
        dl.WRONG_SUM: _("The amounts do not add up exactly to the prizes left (less any amount left to play for)."),
        dl.BELOW_LOWEST: _("Entry #%(entry)s would get less than the lowest prize left."),
        dl.ABOVE_FIRST: _("Entry #%(entry)s would get more than first place pays."),
        dl.CLUB_28: _(
            "Club 28: entry #%(entry)s has fewer chips than entry #%(other)s, so finishes lower, but would get "
            "more. In a deal no player may receive more than a player who finishes higher."
        ),
        dl.NOT_WHOLE: _("Entry #%(entry)s: amounts are whole amounts of money."),
        dl.TOO_FEW_PLAYERS: _("A deal needs at least two players."),
        dl.OFF_UNIT: _(
            "Entry #%(entry)s: the amount cannot be paid in cash. Every amount but the largest is the lowest "
            "prize left plus whole rounding units of the payout plan."
        ),
    }
    return messages.get(code, _("This deal breaks a deal rule.")) % who


def _refusal(exc: dl.DealRefused, entries: list[int]) -> ServiceError:
    return ServiceError(refusal_message(exc.code, entries, exc.player, exc.other), code=f"deal_{exc.code}", details={"rule": str(exc)})


def _whole(value, name: str, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum or value > 10**15:
        raise ServiceError(_("%(name)s must be a whole number of at least %(min)s.") % {"name": name, "min": minimum}, code="invalid")
    return value


def deal_inputs(basis: dict, stacks, to_play_for) -> tuple[list[int], list[int], int]:
    """The entries and their chips, in entry order, checked against the players left (every one of them,
    nobody else), and the amount left to play for."""
    entries = [p["entry"] for p in basis["players"]]
    if len(entries) < 2:
        raise ServiceError(_("A deal needs at least two players left."), code="too_few_players", status=409)
    if len(entries) > MAX_DEAL_PLAYERS:
        raise ServiceError(
            _("A deal is made at the final table: at most %(max)s players left.") % {"max": MAX_DEAL_PLAYERS},
            code="too_many_players",
            status=409,
        )
    if not basis["prizes_left"]:
        raise ServiceError(_("No prizes are left to share."), code="no_prizes", status=409)
    if not isinstance(stacks, dict):
        raise ServiceError(_("Give the chips of every player left, by entry number."), code="invalid")
    given = {}
    for key, chips in stacks.items():
        try:
            given[int(key)] = chips
        except (TypeError, ValueError):
            raise ServiceError(_("Chips are given by entry number."), code="invalid") from None
    missing, extra = sorted(set(entries) - set(given)), sorted(set(given) - set(entries))
    if missing or extra:
        raise ServiceError(
            _("Give the chips of exactly the players left: missing %(missing)s; not playing %(extra)s.")
            % {"missing": ", ".join(f"#{n}" for n in missing) or "-", "extra": ", ".join(f"#{n}" for n in extra) or "-"},
            code="wrong_players",
        )
    chips = [_whole(given[n], _("The chips of entry #%(entry)s") % {"entry": n}, minimum=1) for n in entries]
    return entries, chips, _whole(to_play_for or 0, _("The amount left to play for"))


@transaction.atomic
def propose_deal(tournament: Tournament, *, actor: Actor, data: dict) -> Deal:
    """The floor proposes a deal with the chip counts of every player left: ICM, chip chop or amounts
    the players agreed, with an optional amount left to play for, and whether play goes on for the places
    (club 28: the deal becomes a prize table by place) or stops (places by the chip counts). A deal that
    breaks a rule (payouts/rules/deals.py: the lowest prize left, first place, the exact sum, club 28) is not
    saved. The old prizes stand until the director approves it."""
    require(actor, roles.DEAL_PROPOSE)
    t = lock_tournament(tournament.pk)
    if satellite_of(t) is not None:
        raise ServiceError(
            _("A satellite's seats are not dealt: play stops when the players left equal the seats."), code="satellite", status=409
        )
    basis = deal_basis(t)
    if basis["pending"] is not None:
        raise ServiceError(
            _("Deal %(number)s waits for approval: approve or reject it first.") % {"number": basis["pending"].number},
            code="deal_pending",
            status=409,
        )
    kind, mode = data.get("kind"), data.get("mode", Deal.Mode.PLAY_ON)
    if kind not in Deal.Kind.values:
        raise ServiceError(_("Choose the kind of deal: ICM, chip chop or amounts agreed."), code="invalid")
    if mode not in Deal.Mode.values:
        raise ServiceError(_("Choose whether play goes on for the places or stops."), code="invalid")
    entries, chips, to_play_for = deal_inputs(basis, data.get("stacks"), data.get("to_play_for"))
    if mode == Deal.Mode.STOP and to_play_for:
        raise ServiceError(_("Nothing is left to play for when play stops."), code="invalid")
    amounts = None
    if kind == Deal.Kind.CUSTOM:
        given = data.get("amounts")
        if not isinstance(given, dict):
            raise ServiceError(_("Give the amount agreed for every player left, by entry number."), code="invalid")
        try:
            given = {int(k): v for k, v in given.items()}
        except (TypeError, ValueError):
            raise ServiceError(_("Amounts are given by entry number."), code="invalid") from None
        if set(given) != set(entries):
            raise ServiceError(_("Give the amount agreed for exactly the players left."), code="wrong_players")
        amounts = [_whole(given[n], _("The amount of entry #%(entry)s") % {"entry": n}) for n in entries]
    prizes_left = list(basis["prizes_left"])
    try:
        deal = dl.make_deal(kind, chips, prizes_left, to_play_for, amounts, basis["unit"])
        finishes = dl.stop_here(deal.amounts, chips) if mode == Deal.Mode.STOP else None
    except dl.DealRefused as exc:
        raise _refusal(exc, entries) from None
    except ValueError as exc:
        raise ServiceError(_("This deal cannot be made: %(problem)s") % {"problem": exc}, code="deal_invalid") from None
    number = next_number(Deal.objects.filter(tournament=t))
    row = Deal.objects.create(
        tournament=t,
        number=number,
        kind=kind,
        mode=mode,
        entries=entries,
        stacks=chips,
        amounts=list(deal.amounts),
        to_play_for=to_play_for,
        prizes_left=prizes_left,
        table=list(deal.table),
        finishes=None if finishes is None else [[entries[f.player], f.places[0], f.places[1], f.amount] for f in finishes],
        proposed_at=timezone.now(),
        proposed_by=actor_user(actor),
    )
    record_event(t, actor=actor, type_="deal.proposed", payload=deal_json(row), stats=False)
    return row


def deal_json(deal: Deal) -> dict:
    return {
        "deal": deal.number,
        "kind": deal.kind,
        "mode": deal.mode,
        "to_play_for": deal.to_play_for,
        "players": [{"entry": n, "chips": c, "amount": a} for n, c, a in zip(deal.entries, deal.stacks, deal.amounts, strict=True)],
        "prizes_left": deal.prizes_left,
        "table": deal.table,
        "finishes": deal.finishes,
    }


def _pending(t: Tournament, deal: Deal) -> Deal:
    d = Deal.objects.select_for_update().get(pk=deal.pk)
    if d.status != Deal.Status.PROPOSED:
        raise ServiceError(
            _("Deal %(number)s is already %(status)s.") % {"number": d.number, "status": d.get_status_display()},
            code="deal_decided",
            status=409,
        )
    return d


@transaction.atomic
def approve_deal(deal: Deal, *, actor: Actor) -> Deal:
    """The director approves a proposed deal (club 32): from now on its prize table stands for its places,
    or, when play stops, its places and amounts. Refused when the players left or the prizes changed
    since it was proposed (a bust, an undone bust, a void): the floor proposes it again."""
    require(actor, roles.SETUP)
    t = lock_tournament(deal.tournament_id)
    d = _pending(t, deal)
    basis = deal_basis(t)
    if [p["entry"] for p in basis["players"]] != d.entries or list(basis["prizes_left"]) != d.prizes_left:
        raise ServiceError(
            _("The players left or the prizes changed since deal %(number)s was proposed: reject it and propose it again.")
            % {"number": d.number},
            code="deal_stale",
            status=409,
        )
    d.status, d.decided_at, d.decided_by = Deal.Status.APPROVED, timezone.now(), actor_user(actor)
    d.save(update_fields=["status", "decided_at", "decided_by"])
    # The deal closes every hand played before it: a bust after it never shares a hand (and so a place) with a
    # player who was out when the deal was made (the event log keeps which hand each bust was in).
    Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).exclude(bust_hand="").update(bust_hand="")
    record_event(t, actor=actor, type_="deal.approved", payload=deal_json(d))
    reactions.react(DEAL_APPROVED, actor=actor, tournament=t)
    return d


@transaction.atomic
def reject_deal(deal: Deal, *, actor: Actor, reason: str = "") -> Deal:
    """A proposed deal is rejected by the director or withdrawn by the floor; the old prizes stand."""
    require(actor, roles.DEAL_PROPOSE)
    reason = clean_reason(reason, Deal, "reason")
    t = lock_tournament(deal.tournament_id)
    d = _pending(t, deal)
    d.status, d.decided_at, d.decided_by, d.reason = Deal.Status.REJECTED, timezone.now(), actor_user(actor), reason
    d.save(update_fields=["status", "decided_at", "decided_by", "reason"])
    record_event(t, actor=actor, type_="deal.rejected", payload={"deal": d.number, "reason": reason}, stats=False)
    return d
