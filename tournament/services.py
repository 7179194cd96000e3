"""Use cases of the tournament app. The only place that changes state.

Each public function runs in one transaction, locks what it changes, writes an audit event
and publishes it after commit. Bad input raises ServiceError with a clear, translated
message, and changes nothing.
"""
from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Min
from django.utils import timezone
from django.utils.translation import gettext as _

from . import roles
from . import structure as rules
from .audit import lock_tournament, record_event
from .identity import age_on, document_hmac, last_four, normalise_document_number
from .messages import format_error_message, format_problems
from .models import (
    DisplayToken,
    Entry,
    IdCheck,
    Level,
    Player,
    Purchase,
    Structure,
    Tournament,
)
from .stats import registration_problem

MINIMUM_AGE = 18


class ServiceError(Exception):
    """A refused action: the message is for the person at the screen; nothing was changed."""

    def __init__(self, message: str, code: str = "invalid", status: int = 400, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details or []


def _full_clean(instance, exclude: list[str] | None = None) -> None:
    """Model validation as a ServiceError, so every caller shows the same clear refusal."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        def label(field: str) -> str:
            return str(instance._meta.get_field(field).verbose_name).capitalize()

        messages = [f"{label(field)}: {message}" if field != "__all__" else str(message)
                    for field, errors in exc.message_dict.items() for message in errors]
        raise ServiceError(" ".join(messages), code="invalid", details=messages) from exc


def require(user, allowed: tuple[str, ...]) -> None:
    if not roles.has_role(user, allowed):
        raise ServiceError(_("Your role does not allow this action."), code="forbidden", status=403)


def _check_length(text: str, model, field: str, message: str) -> None:
    """Refuse text longer than its column (PostgreSQL would refuse it with a server error)."""
    limit = model._meta.get_field(field).max_length
    if len(text) > limit:
        raise ServiceError(message % {"max": limit}, code="too_long")


# --- structures -------------------------------------------------------------------------


def spec_of(structure: Structure) -> rules.StructureSpec:
    return rules.StructureSpec(
        name=structure.name,
        denominations=tuple((d.value, d.colour) for d in structure.denominations.all()),
        levels=tuple(
            rules.LevelSpec(
                kind=level.kind,
                minutes=level.minutes,
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
                ante_type=level.ante_type,
                color_up=tuple(level.color_up or ()),
            )
            for level in structure.levels.order_by("position")
        ),
    )


def _check_spec(spec: rules.StructureSpec, starting_stack: int | None = None) -> None:
    problems = rules.validate(spec, starting_stack)
    if problems:
        messages = format_problems(problems)
        raise ServiceError(_("The structure has problems: %(list)s") % {"list": " ".join(messages)},
                           code="structure_invalid", details=messages)


def _write_spec(structure: Structure, spec: rules.StructureSpec) -> None:
    structure.name = spec.name
    structure.save()
    structure.denominations.all().delete()
    structure.levels.all().delete()
    structure.denominations.bulk_create(
        [structure.denominations.model(structure=structure, value=v, colour=c.strip()) for v, c in spec.denominations]
    )
    Level.objects.bulk_create(
        [
            Level(
                structure=structure,
                position=i,
                kind=level.kind,
                small_blind=level.small_blind,
                big_blind=level.big_blind,
                ante=level.ante,
                ante_type=level.ante_type,
                minutes=level.minutes,
                color_up=sorted(level.color_up),
            )
            for i, level in enumerate(spec.levels, start=1)
        ]
    )


def structure_summary(spec: rules.StructureSpec) -> dict:
    return {"name": spec.name, "levels": sum(1 for lv in spec.levels if lv.kind == rules.LEVEL),
            "breaks": sum(1 for lv in spec.levels if lv.kind == rules.BREAK),
            "chips": [v for v, _ in sorted(spec.denominations)]}


@transaction.atomic
def save_structure_template(actor, spec: rules.StructureSpec, structure: Structure | None = None) -> Structure:
    """Create or replace a structure template."""
    require(actor, roles.SETUP)
    _check_spec(spec)
    if structure is None:
        structure = Structure(is_template=True)
        created = True
    else:
        structure = Structure.objects.select_for_update().get(pk=structure.pk)
        if not structure.is_template:
            raise ServiceError(_("This structure belongs to a tournament; edit it from the tournament."), code="not_template")
        created = False
    _write_spec(structure, spec)
    record_event(None, "structure.created" if created else "structure.changed",
                 {"structure": structure.pk, **structure_summary(spec), "export": rules.to_json(spec)}, actor)
    return structure


@transaction.atomic
def copy_structure(actor, source: Structure, name: str) -> Structure:
    require(actor, roles.SETUP)
    if not name.strip():
        raise ServiceError(_("Give the copy a name."), code="name_missing")
    _check_length(name.strip(), Structure, "name", _("The name is too long: at most %(max)s characters."))
    spec = spec_of(source)
    spec = rules.StructureSpec(name=name.strip(), denominations=spec.denominations, levels=spec.levels)
    copy = Structure(is_template=True)
    _write_spec(copy, spec)
    record_event(None, "structure.copied", {"structure": copy.pk, "from": source.pk, "name": copy.name}, actor)
    return copy


@transaction.atomic
def import_structure(actor, data) -> Structure:
    require(actor, roles.SETUP)
    try:
        spec = rules.from_json(data)
    except rules.FormatError as exc:
        message = format_error_message(exc)
        raise ServiceError(message, code="import_format", details=[message]) from exc
    _check_spec(spec)
    structure = Structure(is_template=True)
    _write_spec(structure, spec)
    record_event(None, "structure.imported", {"structure": structure.pk, **structure_summary(spec)}, actor)
    return structure


def export_structure(structure: Structure) -> dict:
    return rules.to_json(spec_of(structure))


# --- tournaments ------------------------------------------------------------------------

TOURNAMENT_FIELDS = (
    "name", "venue", "time_zone", "start_at", "game", "table_format", "seats_per_table", "final_table_size",
    "currency", "buy_in", "fee", "starting_stack", "reentry_allowed", "max_reentries", "late_reg_until_level",
    "guaranteed_pool", "rebuy_allowed", "rebuy_price", "rebuy_fee", "rebuy_chips", "max_rebuys", "rebuy_until_level",
    "addon_allowed", "addon_price", "addon_fee", "addon_chips", "max_addons", "addon_until_level",
)


def _check_tournament_settings(data: dict) -> None:
    problems = []
    if data.get("table_format") == Tournament.TableFormat.SIX_MAX and data.get("seats_per_table", 0) > 6:
        problems.append(_("A 6-max tournament has at most 6 seats per table."))
    if data.get("rebuy_allowed") and (not data.get("rebuy_chips") or not data.get("rebuy_price")):
        problems.append(_("Re-buys need a price and a number of chips."))
    if data.get("addon_allowed") and (not data.get("addon_chips") or not data.get("addon_price")):
        problems.append(_("Add-ons need a price and a number of chips."))
    seats, final_table = data.get("seats_per_table"), data.get("final_table_size")
    if seats and final_table and final_table > seats + 1:
        problems.append(_("The final table has at most one player more than a table has seats (%(max)s).") % {"max": seats + 1})
    if data.get("reentry_allowed") is False and data.get("max_reentries"):
        problems.append(_("Re-entries per player is set but re-entry is not allowed."))
    if not data.get("buy_in"):
        problems.append(_("The buy-in must be more than zero."))
    if problems:
        raise ServiceError(" ".join(problems), code="tournament_invalid", details=problems)


def _tournament_payload(t: Tournament) -> dict:
    payload = {}
    for name in TOURNAMENT_FIELDS:
        value = getattr(t, name)
        payload[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return payload


@transaction.atomic
def create_tournament(actor, data: dict, template: Structure) -> Tournament:
    """Create a tournament with its own copy of a structure template."""
    require(actor, roles.SETUP)
    data = dict(data)
    if not data.get("seats_per_table"):
        # The model's default (9) would make a 6-max tournament a full-ring one.
        data["seats_per_table"] = 6 if data.get("table_format") == Tournament.TableFormat.SIX_MAX else 9
    if not data.get("final_table_size"):
        data["final_table_size"] = Tournament.default_final_table_size(data.get("table_format", "full_ring"), data["seats_per_table"])
    _check_tournament_settings(data)
    spec = spec_of(template)
    _check_spec(spec, data.get("starting_stack"))
    own = Structure(is_template=False)
    _write_spec(own, spec)
    tournament = Tournament(structure=own, **{k: v for k, v in data.items() if k in TOURNAMENT_FIELDS})
    _full_clean(tournament, exclude=["structure"])
    tournament.save()
    tournament = lock_tournament(tournament.pk)
    record_event(tournament, "tournament.created", {**_tournament_payload(tournament), "structure": structure_summary(spec)}, actor)
    return tournament


@transaction.atomic
def update_tournament(actor, tournament: Tournament, data: dict) -> Tournament:
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    before = _tournament_payload(t)
    for k in TOURNAMENT_FIELDS:
        if k in data:
            setattr(t, k, data[k])
    _check_tournament_settings({k: getattr(t, k) for k in TOURNAMENT_FIELDS})
    if t.entries.exists() and (t.buy_in, t.fee) != (before["buy_in"], before["fee"]):
        raise ServiceError(_("Entries are already taken at the current buy-in; the buy-in and fee can no longer change."),
                           code="buy_in_locked")
    problems = rules.validate(spec_of(t.structure), t.starting_stack)
    if problems:
        messages = format_problems(problems)
        raise ServiceError(" ".join(messages), code="structure_invalid", details=messages)
    _full_clean(t, exclude=["structure"])
    t.save()
    after = _tournament_payload(t)
    changed = {k: {"from": before[k], "to": after[k]} for k in TOURNAMENT_FIELDS if before[k] != after[k]}
    if changed:
        record_event(t, "tournament.changed", {"changed": changed}, actor)
    return t


@transaction.atomic
def set_tournament_structure(actor, tournament: Tournament, spec: rules.StructureSpec) -> Tournament:
    """Replace the tournament's own structure (edited, or taken from a template)."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    _check_spec(spec, t.starting_stack)
    _write_spec(t.structure, spec)
    record_event(t, "tournament.structure_changed", {**structure_summary(spec), "export": rules.to_json(spec)}, actor)
    return t


@transaction.atomic
def set_registration_closed(actor, tournament: Tournament, closed: bool) -> Tournament:
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    if t.registration_closed == closed:
        return t
    t.registration_closed = closed
    t.save(update_fields=["registration_closed"])
    record_event(t, "registration.closed" if closed else "registration.reopened", {}, actor)
    return t


# --- players and registration -----------------------------------------------------------


def _check_age(date_of_birth: date, time_zone: str | None = None) -> None:
    """Age on today's date: the venue's date when the tournament is known (a birthday starts at local midnight)."""
    today = timezone.localdate(timezone=zoneinfo.ZoneInfo(time_zone)) if time_zone else timezone.localdate()
    if date_of_birth > today:
        raise ServiceError(_("The date of birth is in the future."), code="date_of_birth")
    if age_on(date_of_birth, today) < MINIMUM_AGE:
        raise ServiceError(_("The player is under %(age)s and may not play.") % {"age": MINIMUM_AGE}, code="under_age")


@transaction.atomic
def create_player(actor, *, first_name: str, last_name: str, date_of_birth: date, nickname: str = "",
                  email: str = "", phone: str = "") -> Player:
    require(actor, roles.REGISTER)
    first_name, last_name = first_name.strip(), last_name.strip()
    if not first_name or not last_name:
        raise ServiceError(_("First and last name are required."), code="name_missing")
    _check_age(date_of_birth)
    player = Player(first_name=first_name, last_name=last_name, nickname=nickname.strip(), email=email.strip(),
                    phone=phone.strip(), date_of_birth=date_of_birth, created_by=actor)
    _full_clean(player)
    player.save()
    record_event(None, "player.created", {"player": player.pk, "name": player.display_name}, actor)
    return player


@dataclass(frozen=True)
class IdDocument:
    document_type: str
    number: str


def _id_check(actor, player: Player, document: IdDocument | None, purpose: str) -> IdCheck:
    if document is None or not document.document_type or not normalise_document_number(document.number or ""):
        raise ServiceError(_("Check the player's ID document and record its type and number: no entry without an ID check."),
                           code="id_check_missing")
    if document.document_type not in IdCheck.DocumentType.values:
        raise ServiceError(_("Unknown document type."), code="id_document_type")
    if len(normalise_document_number(document.number)) < 5:
        raise ServiceError(_("The document number is too short to be real; check it again."), code="id_number_short")
    return IdCheck.objects.create(
        player=player,
        purpose=purpose,
        document_type=document.document_type,
        number_last4=last_four(document.number),
        number_hmac=document_hmac(document.number, settings.ID_HASH_KEY),
        checked_by=actor,
        checked_at=timezone.now(),
    )


def _next_number(model, tournament: Tournament) -> int:
    return (model.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0) + 1


def _registration_closed_message(code: str, tournament: Tournament) -> str:
    if code == "finished":
        return _("The tournament has finished.")
    if code == "late_registration_over":
        return _("Late registration ended with level %(level)s.") % {"level": tournament.late_reg_until_level}
    return _("Registration is closed.")


@transaction.atomic
def register_entry(actor, tournament: Tournament, player: Player, document: IdDocument | None) -> Entry:
    """Register an entry (or a re-entry) with the ID check the house rules demand (club 32)."""
    require(actor, roles.REGISTER)
    t = lock_tournament(tournament.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    closed = registration_problem(t)
    if closed:
        raise ServiceError(_registration_closed_message(closed, t), code="registration_closed", status=409)
    _check_age(player.date_of_birth, t.time_zone)
    if document is None or not (document.number or "").strip() or not document.document_type:
        raise ServiceError(_("Check the player's ID document and record its type and number: no entry without an ID check."),
                           code="id_check_missing")
    hmac_value = document_hmac(document.number, settings.ID_HASH_KEY)
    # A document belongs to the player record that first showed it, whether it is that
    # player's main document (Player.id_hmac) or a second one seen at an earlier ID check.
    owner = Player.objects.filter(id_hmac=hmac_value).exclude(pk=player.pk).first()
    if owner is None:
        other_check = IdCheck.objects.filter(number_hmac=hmac_value).exclude(player=player).select_related("player").first()
        owner = other_check.player if other_check is not None else None
    if owner is not None:
        raise ServiceError(_("This ID document belongs to another player record (%(name)s). Register that player instead.")
                           % {"name": owner.display_name}, code="id_other_player", status=409)
    live = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
    mine = live.filter(player=player).first()
    if mine is not None:
        raise ServiceError(_("%(name)s already has a live entry (#%(number)s).") % {"name": player.display_name, "number": mine.number},
                           code="live_entry_exists", status=409)
    same_document = live.filter(id_hmac=hmac_value).select_related("player").first()
    if same_document is not None:
        raise ServiceError(_("This ID document is already used by live entry #%(number)s.") % {"number": same_document.number},
                           code="id_live_entry_exists", status=409)
    earlier = Entry.objects.filter(tournament=t, player=player).exclude(status=Entry.Status.VOIDED)
    kind = Entry.Kind.REENTRY if earlier.exists() else Entry.Kind.ENTRY
    if kind == Entry.Kind.REENTRY:
        if not t.reentry_allowed:
            raise ServiceError(_("Re-entry is not allowed in this tournament."), code="reentry_not_allowed", status=409)
        used = earlier.filter(kind=Entry.Kind.REENTRY).count()
        if t.max_reentries is not None and used >= t.max_reentries:
            raise ServiceError(_("%(name)s has used all %(max)s re-entries.") % {"name": player.display_name, "max": t.max_reentries},
                               code="reentry_limit", status=409)
    check = _id_check(actor, player, document, IdCheck.Purpose.REGISTRATION)
    if player.id_hmac is None:
        player.id_hmac = hmac_value
        try:
            with transaction.atomic():
                player.save(update_fields=["id_hmac"])
        except IntegrityError as exc:  # another desk gave this document to another player a moment ago
            raise ServiceError(_("This ID document belongs to another player record. Register that player instead."),
                               code="id_other_player", status=409) from exc
    now = timezone.now()
    try:
        with transaction.atomic():
            entry = Entry.objects.create(tournament=t, player=player, number=_next_number(Entry, t), kind=kind,
                                         id_check=check, id_hmac=hmac_value, created_at=now, created_by=actor)
    except IntegrityError as exc:
        raise ServiceError(_("This player or document already has a live entry."), code="live_entry_exists", status=409) from exc
    purchase = Purchase.objects.create(
        tournament=t, entry=entry, number=_next_number(Purchase, t),
        kind=Purchase.Kind.REENTRY if kind == Entry.Kind.REENTRY else Purchase.Kind.BUY_IN,
        status=Purchase.Status.PAID, amount=t.buy_in, fee=t.fee, chips=t.starting_stack,
        created_at=now, created_by=actor, paid_at=now, paid_by=actor,
    )
    # Everyone busted so far finishes behind this entry: their places move down by one.
    Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).update(finish_place=F("finish_place") + 1)
    from tables.services import seat_new_entry

    seat = seat_new_entry(actor, t, entry)
    record_event(t, "entry.registered", {
        "entry": entry.number, "entry_id": entry.pk, "player": player.pk, "name": player.display_name, "kind": kind,
        "entries": [entry.number], "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
        "receipt": purchase.number, "amount": purchase.amount, "fee": purchase.fee, "chips": purchase.chips,
        "id_check": {"document_type": check.document_type, "last4": check.number_last4, "checked_by": actor.get_username()},
    }, actor)
    return entry


def _level_allows(until_level: int | None, tournament: Tournament) -> bool:
    return until_level is None or tournament.current_level <= until_level


@transaction.atomic
def add_chips(actor, entry: Entry, kind: str, *, paid: bool = True) -> Purchase:
    """A re-buy or an add-on for a live entry.

    A re-buy announced before a hand (TDA 24) may be recorded unpaid: the player plays the
    chips behind and must complete it (pay_purchase).
    """
    require(actor, roles.REGISTER)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is not playing.") % {"number": entry.number}, code="entry_not_active", status=409)
    if kind == Purchase.Kind.REBUY:
        allowed, until, limit = t.rebuy_allowed, t.rebuy_until_level, t.max_rebuys
        price, fee, chips = t.rebuy_price, t.rebuy_fee, t.rebuy_chips
        labels = (_("Re-buys are not allowed in this tournament."), _("Re-buys ended with level %(level)s."),
                  _("Entry #%(number)s has used all %(max)s re-buys."))
    elif kind == Purchase.Kind.ADDON:
        allowed, until, limit = t.addon_allowed, t.addon_until_level, t.max_addons
        price, fee, chips = t.addon_price, t.addon_fee, t.addon_chips
        labels = (_("Add-ons are not allowed in this tournament."), _("Add-ons ended with level %(level)s."),
                  _("Entry #%(number)s has used all %(max)s add-ons."))
        paid = True
    else:
        raise ServiceError(_("Unknown purchase kind."), code="kind")
    if not allowed:
        raise ServiceError(labels[0], code=f"{kind}_not_allowed", status=409)
    if not _level_allows(until, t):
        raise ServiceError(labels[1] % {"level": until}, code=f"{kind}_over", status=409)
    used = entry.purchases.filter(kind=kind).exclude(status=Purchase.Status.VOIDED).count()
    if limit is not None and used >= limit:
        raise ServiceError(labels[2] % {"number": entry.number, "max": limit}, code=f"{kind}_limit", status=409)
    now = timezone.now()
    purchase = Purchase.objects.create(
        tournament=t, entry=entry, number=_next_number(Purchase, t), kind=kind,
        status=Purchase.Status.PAID if paid else Purchase.Status.ANNOUNCED,
        amount=price, fee=fee, chips=chips, created_at=now, created_by=actor,
        paid_at=now if paid else None, paid_by=actor if paid else None,
    )
    record_event(t, f"{kind}.{'paid' if paid else 'announced'}", {
        "entry": entry.number, "name": entry.player.display_name, "receipt": purchase.number,
        "amount": price, "fee": fee, "chips": chips,
    }, actor)
    return purchase


@transaction.atomic
def pay_purchase(actor, purchase: Purchase) -> Purchase:
    """Complete an announced re-buy: the cashier takes the money."""
    require(actor, roles.CASH)
    t = lock_tournament(purchase.tournament_id)
    p = Purchase.objects.select_for_update().select_related("entry__player").get(pk=purchase.pk)
    if p.status != Purchase.Status.ANNOUNCED:
        raise ServiceError(_("Receipt %(number)s is not waiting for payment.") % {"number": p.number}, code="not_announced", status=409)
    p.status, p.paid_at, p.paid_by = Purchase.Status.PAID, timezone.now(), actor
    p.save(update_fields=["status", "paid_at", "paid_by"])
    record_event(t, f"{p.kind}.paid", {"entry": p.entry.number, "name": p.entry.player.display_name, "receipt": p.number,
                                         "amount": p.amount, "fee": p.fee, "chips": p.chips, "completed": True}, actor)
    return p


@transaction.atomic
def void_purchase(actor, purchase: Purchase, reason: str, refund_amount: int | None = None) -> Purchase:
    """Void a receipt with a reason; the refund is recorded. Voiding a buy-in voids the entry."""
    require(actor, roles.VOID)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give a reason for voiding."), code="reason_missing")
    _check_length(reason, Purchase, "void_reason", _("The reason is too long: at most %(max)s characters."))
    t = lock_tournament(purchase.tournament_id)
    p = Purchase.objects.select_for_update().select_related("entry__player").get(pk=purchase.pk)
    if p.status == Purchase.Status.VOIDED:
        raise ServiceError(_("Receipt %(number)s is already void.") % {"number": p.number}, code="already_void", status=409)
    entry = Entry.objects.select_for_update().get(pk=p.entry_id)
    if entry.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is no longer playing; its receipts cannot be voided.") % {"number": entry.number},
                           code="entry_not_active", status=409)
    paid_total = p.total if p.status == Purchase.Status.PAID else 0
    if refund_amount is None:
        refund_amount = paid_total
    if refund_amount < 0 or refund_amount > paid_total:
        raise ServiceError(_("The refund must be between 0 and %(max)s.") % {"max": paid_total}, code="refund_range")
    now = timezone.now()
    voided = [p]
    if p.kind in (Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY):
        from tables.services import free_seat

        entry.status = Entry.Status.VOIDED
        entry.save(update_fields=["status"])
        free_seat(t, entry, "void")
        # The voided entry never played: everyone busted so far moves one place up.
        Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED).update(finish_place=F("finish_place") - 1)
        voided += list(entry.purchases.select_for_update().exclude(pk=p.pk).exclude(status=Purchase.Status.VOIDED))
    refunds = []
    for item in voided:
        item_paid = item.total if item.status == Purchase.Status.PAID else 0
        item.refund_amount = refund_amount if item.pk == p.pk else item_paid
        item.status, item.voided_at, item.voided_by, item.void_reason = Purchase.Status.VOIDED, now, actor, reason
        item.save(update_fields=["status", "voided_at", "voided_by", "void_reason", "refund_amount"])
        refunds.append({"receipt": item.number, "kind": item.kind, "refund": item.refund_amount})
    record_event(t, "purchase.voided", {"entry": entry.number, "name": p.entry.player.display_name, "reason": reason,
                                        "entry_voided": entry.status == Entry.Status.VOIDED, "receipts": refunds}, actor)
    if entry.status == Entry.Status.VOIDED:
        from tables.moves import after_seat_freed

        after_seat_freed(t, actor, entry)
    p.refresh_from_db()
    return p


MAX_STACK = 10**15


def _check_stack(stack) -> int | None:
    if stack is None or stack == "":
        return None
    try:
        value = int(stack)
    except (TypeError, ValueError):
        value = -1
    if value < 0 or value > MAX_STACK or (isinstance(stack, float) and stack != value):
        raise ServiceError(_("Give the chips the player had at the start of the hand as a whole number (0 or more)."),
                           code="bad_stack")
    return value


def _bust_table(entries: list[Entry]) -> dict[int, int]:
    """Entry id -> the table (id) it busted at."""
    from tables.models import Seat

    return dict(Seat.objects.filter(entry__in=entries, end_reason=Seat.End.BUST).values_list("entry_id", "table_id"))


def _rank_group(t: Tournament, key: str, best_place: int) -> list[dict]:
    """Give the busts of one hand (`key`) their places by the tie rules (tables/places.py): they
    take the places from best_place down. Returns the places for the event."""
    from tables import places
    from tables.moves import house_rules

    members = list(Entry.objects.select_for_update().filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED))
    if not members:
        return []
    table_of = _bust_table(members)
    across = house_rules(t).hand_for_hand_ties if key.startswith("h4h:") else places.TIE
    ranked = places.rank([places.Bust(e.pk, table_of.get(e.pk, 0), e.bust_stack or 0) for e in members], best_place, across)
    for e in members:
        high, low = ranked[e.pk]
        e.finish_place, e.finish_place_low = high, low if low != high else None
    Entry.objects.bulk_update(members, ["finish_place", "finish_place_low"])
    return [{"entry": e.number, "place": e.finish_place, "place_low": e.finish_place_low or e.finish_place}
            for e in sorted(members, key=lambda e: (e.finish_place, e.number))]


def _same_hand_before(t: Tournament, key: str, place: int) -> bool:
    """Whether the busts just before this one (places place+1 ..) are all of the same hand: only
    then do they share their places with it (a bust at another table came between otherwise)."""
    group = list(Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED)
                 .values_list("finish_place", "finish_place_low"))
    if not group:
        return False
    covered = {p for high, low in group for p in range(high, (low or high) + 1)}
    return covered == set(range(place + 1, place + 1 + len(group)))


@transaction.atomic
def bust_entry(actor, entry: Entry, stack=None) -> Entry:
    """A player is out: the seat is freed and the finishing place is the number of players left
    before the bust (players left after it + 1). A second tablet busting the same entry is refused.

    `stack`, the chips the player had at the start of the hand, orders players busted in the same
    hand: at one table the larger stack finishes higher and equal stacks tie; in a hand-for-hand
    hand, players at different tables tie (or go by stack: house setting). It is required in a
    hand-for-hand hand."""
    from tables.handforhand import bust_group
    from tables.moves import after_seat_freed
    from tables.services import free_seat

    require(actor, roles.BUST)
    stack = _check_stack(stack)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if e.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is not playing; it may have been busted already.") % {"number": e.number},
                           code="entry_not_active", status=409)
    place = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
    seat = free_seat(t, e, "bust")  # a refusal below rolls it back with the transaction
    key, h4h = bust_group(t, seat.table if seat else None)
    if h4h is not None and stack is None:
        raise ServiceError(_("Hand-for-hand: give the chips the player had at the start of the hand (players busted "
                             "in the same hand are placed by them)."), code="stack_required")
    grouped = stack is not None and key and _same_hand_before(t, key, place)
    e.status, e.busted_at, e.finish_place, e.finish_place_low = Entry.Status.BUSTED, timezone.now(), place, None
    e.bust_stack, e.bust_hand = stack, key if stack is not None else ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, key, place) if grouped else []
    e.refresh_from_db(fields=["finish_place", "finish_place_low"])
    record_event(t, "entry.busted", {
        "entry": e.number, "name": e.player.display_name, "place": e.finish_place,
        "place_low": e.finish_place_low or e.finish_place, "stack": stack, "same_hand": same_hand,
        "entries": sorted({e.number, *(b["entry"] for b in same_hand)}),
        "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
    }, actor)
    after_seat_freed(t, actor, e)
    return e


@transaction.atomic
def undo_bust(actor, entry: Entry) -> Entry:
    """Undo a mistaken bust: the entry plays again, back in its seat if still free (otherwise by the
    late-entry draw), and the players busted after it move one place down the list (those who
    busted in the same hand share their places again without it)."""
    from tables.services import reseat_after_undo

    require(actor, roles.BUST)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if e.status != Entry.Status.BUSTED:
        raise ServiceError(_("Entry #%(number)s is not busted.") % {"number": e.number}, code="not_busted", status=409)
    live = Entry.objects.filter(tournament=t, player=e.player, status=Entry.Status.ACTIVE).first()
    if live is not None:
        raise ServiceError(_("%(name)s plays again on entry #%(number)s (a re-entry): the bust of #%(old)s stands.")
                           % {"name": e.player.display_name, "number": live.number, "old": e.number},
                           code="reentered", status=409)
    place, key = e.finish_place, e.bust_hand
    group_best = None
    if key:
        group_best = Entry.objects.filter(tournament=t, bust_hand=key, status=Entry.Status.BUSTED).aggregate(
            best=Min("finish_place"))["best"]
    busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED, finish_place__lt=place)
    busted.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") + 1)
    busted.update(finish_place=F("finish_place") + 1)
    e.status, e.busted_at, e.finish_place, e.finish_place_low = Entry.Status.ACTIVE, None, None, None
    e.bust_stack, e.bust_hand = None, ""
    e.save(update_fields=["status", "busted_at", "finish_place", "finish_place_low", "bust_stack", "bust_hand"])
    same_hand = _rank_group(t, key, group_best + 1) if key and group_best is not None else []
    seat = reseat_after_undo(actor, t, e)
    record_event(t, "entry.bust_undone", {
        "entry": e.number, "name": e.player.display_name, "place": place, "same_hand": same_hand,
        "entries": sorted({e.number, *(b["entry"] for b in same_hand)}),
        "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
    }, actor)
    return e


# --- display tokens ---------------------------------------------------------------------


@transaction.atomic
def create_display_token(actor, tournament: Tournament, label: str) -> DisplayToken:
    require(actor, roles.DISPLAYS)
    label = (label or "").strip()
    if not label:
        raise ServiceError(_("Name the screen, for example 'Lobby TV 1'."), code="label_missing")
    _check_length(label, DisplayToken, "label", _("The name of the screen is too long: at most %(max)s characters."))
    t = lock_tournament(tournament.pk)
    token = DisplayToken.objects.create(tournament=t, label=label, created_by=actor)
    record_event(t, "display.created", {"display": token.pk, "label": label}, actor, stats=False)
    return token


@transaction.atomic
def revoke_display_token(actor, token: DisplayToken) -> DisplayToken:
    require(actor, roles.DISPLAYS)
    t = lock_tournament(token.tournament_id)
    token = DisplayToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise ServiceError(_("This screen's link is already revoked."), code="already_revoked", status=409)
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    record_event(t, "display.revoked", {"display": token.pk, "label": token.label}, actor, stats=False)
    from live import broadcast, groups

    transaction.on_commit(lambda: broadcast.close_sockets(groups.display(token.pk), "revoked"))
    return token
