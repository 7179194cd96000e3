"""What a tournament file holds, read from the models themselves (docs/tournament-file.md).

Every model of the tournament's apps that reaches the tournament through its foreign keys (an entry directly, a hand
through its table, a level through the tournament's own structure) is in the file, with the rows it points to that
are not the tournament's alone (the players, the ID checks of a payout); users by their username only. A model
added to these apps is in the file the day it is added, or is left out here with the reason.

In the file a row has no primary key: it is the n-th row of its model (rows in the order of their keys), and a
foreign key is the position of the row it points to. An import gives every row a new key and points each
foreign key at it, so the target database may hold other tournaments. A few values hold a key inside them (an
event's payload, the hand a bust belongs to): `convert_embedded` turns those into positions and back.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
import unicodedata
import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _

FORMAT = "poker-tournament/1"
APPS = ("tournament", "clock", "tables", "payouts", "days", "flights")
TOURNAMENT = "tournament.tournament"
PLAYER = "tournament.player"

# Models of those apps a tournament file does not hold, and why.
LEFT_OUT = {
    "tournament.staffprofile": "a user's own settings (language, the tournaments he works), not the tournament's",
    "flights.event": "an event with flights spans several tournaments: each flight and its Day 2 is a file of its own",
    "flights.flight": "the event's list of its flights (see flights.event)",
    "flights.carriedbag": "the carry of the event's bags from its flights into its Day 2 (see flights.event)",
    "payouts.satellite": "a satellite spans two tournaments (its seats are entries into its target event)",
    "payouts.ticket": "a satellite's ticket spans two tournaments (see payouts.satellite)",
}

# The secrets a file never holds (docs/architecture.md, "Data that must never be lost or leaked"): a checksum proves a file whole,
# not who made it, so a link's hash in a file would open a dealer tablet, a lobby screen or a shuffler's door wherever
# the file is imported, for whoever chose it. The export leaves these columns out; an import ignores them in an older
# file and gives each row a hash no secret has (unusable_hash), its links revoked (REVOKED): the director makes new ones.
SECRETS: dict[str, tuple[str, ...]] = {
    "tables.dealerlink": ("token_hash",),
    "tournament.displaytoken": ("token_hash",),
    "tables.table": ("shuffler_token_hash",),
    "tournament.reservation": ("code_hash",),  # a player's reservation link (its name, cancelling it)
}
# The draw not yet drawn (tables.draw without drawn_at): its seed is secret until its reveal (docs/architecture.md, "Randomness").
# The export writes it empty (whoever held the file would know the next draw); an import commits a seed of its own
# (archive/services/transfer.py), so no file chooses the next draw where it is imported.
PENDING_DRAW = "tables.draw"


def hide_pending_seed(rows: dict) -> None:
    """In the export's rows by model ({"fields", "rows"}), the seed of the draw not yet drawn left empty."""
    part = rows[PENDING_DRAW]
    seed, drawn = part["fields"].index("seed"), part["fields"].index("drawn_at")
    for row in part["rows"]:
        if row[drawn] is None:
            row[seed] = ""


# The links an import brings revoked (their revoked_at set, when the file has them live): the screens list them as such.
REVOKED = ("tables.dealerlink", "tournament.displaytoken")

# Audit events whose payload holds a primary key (not a foreign key, so not seen by the walk): by event type, the
# payload key and the model whose row it is; None where that model is not in the file (the key is dropped).
# tests/archive/test_schema.py finds every event whose payload takes a `.pk` and holds it to this table.
PAYLOAD_IDS: dict[str, dict[str, str | None]] = {
    "entry.registered": {"entry_id": "tournament.entry", "player": PLAYER},
    "waiting.joined": {"player": PLAYER},
    "display.created": {"display": "tournament.displaytoken"},
    "display.revoked": {"display": "tournament.displaytoken"},
    "seat_request.set": {"player": PLAYER},
    "seat_request.cancelled": {"player": PLAYER},
    "table.dealer_link_created": {"link": "tables.dealerlink"},
    "table.dealer_link_revoked": {"link": "tables.dealerlink"},
    "flight.added": {"event": None},
    "flights.day2_set": {"event": None},
    # a league spans tournaments (leagues/): its key means nothing where the file goes
    "league.joined": {"league": None},
    "league.left": {"league": None},
    "league.points": {"league": None},
    # a satellite's target is another tournament (payouts.satellite is left out)
    "ticket.issued": {"target_id": None},
    "ticket.transferred": {"from_player": PLAYER, "to_player": PLAYER},
}

# Payload keys holding a list of rows whose first item is a primary key: by event type, the key and the model.
PAYLOAD_ROW_IDS: dict[str, dict[str, str]] = {
    "league.points": {"given": PLAYER},  # [player, place, place_low, points] per player given points
}


# The models whose rows hold keys inside values (convert_embedded).
EMBEDDED = frozenset({"tournament.auditevent", "tournament.entry"})

# Rows that hold keys inside them come after the rows those keys are of (an import converts them as it goes).
AFTER: dict[str, tuple[str, ...]] = {
    "tournament.auditevent": tuple(sorted({m for keys in (*PAYLOAD_IDS.values(), *PAYLOAD_ROW_IDS.values()) for m in keys.values() if m})),
    "tournament.entry": ("tables.table",),
}


def label(model) -> str:
    return model._meta.label_lower


def columns(model) -> list[models.Field]:
    """The columns of a model's rows in the database: every concrete field but the primary key, in model order."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


# Columns that belong to the deployment a file comes from, not to the tournament: left out of the file, and empty
# where it is imported. A tournament's venue (venues/) is that deployment's room; an imported tournament takes its
# tables from the default venue of the database it comes into (its tables keep their numbers, the venue's numbers).
HOUSE_ONLY: dict[str, tuple[str, ...]] = {
    "tournament.tournament": ("room",),
}


def fields(model) -> list[models.Field]:
    """The columns of a model's rows in the file: its columns but the secrets (SECRETS) and the house's (HOUSE_ONLY)."""
    hidden = SECRETS.get(label(model), ()) + HOUSE_ONLY.get(label(model), ())
    return [f for f in columns(model) if f.name not in hidden]


def unusable_hash() -> str:
    """A secret's hash no secret has (not hex: a SHA-256 is), unique: an imported link's or table's (SECRETS)."""
    return f"imported-{secrets.token_hex(16)}"


def relations(model) -> list[models.Field]:
    return [f for f in fields(model) if f.is_relation and (f.many_to_one or f.one_to_one)]


def is_user(model) -> bool:
    return model is get_user_model()


@functools.cache
def file_models() -> tuple[type[models.Model], ...]:
    """The models a tournament file holds, each after the models it points to: the order of an import."""
    chosen = [m for app in APPS for m in apps.get_app_config(app).get_models() if label(m) not in LEFT_OUT]
    chosen.sort(key=label)
    inside = set(chosen)
    for model in chosen:
        for f in relations(model):
            if not is_user(f.related_model) and f.related_model not in inside:
                raise ImproperlyConfigured(
                    f"{label(model)}.{f.name} points to {label(f.related_model)}, which a "
                    "tournament file does not hold (archive/selectors/schema.py)"
                )
    ordered: list = []
    waiting = list(chosen)
    while waiting:
        ready = [
            m
            for m in waiting
            if all(f.related_model in ordered or f.related_model is m or is_user(f.related_model) for f in relations(m))
            and all(apps.get_model(after) in ordered for after in AFTER.get(label(m), ()))
        ]
        if not ready:
            raise ImproperlyConfigured(f"foreign keys in a cycle: {[label(m) for m in waiting]}")
        ordered.append(ready[0])
        waiting.remove(ready[0])
    return tuple(ordered)


@functools.cache
def paths() -> dict[type[models.Model], str]:
    """The models whose rows are the tournament's own, each with its lookup to the tournament ("" for the tournament):
    through its foreign keys, or back through a one-to-one that a row of the tournament holds (its own copy of the
    structure, an entry's ID check). The others (players, the ID check of a payout) are in the file only as far as
    the tournament's rows point to them."""
    found: dict = {apps.get_model(TOURNAMENT): ""}
    while True:
        new: dict = {}
        for model in file_models():
            if model in found:
                continue
            ways = [_join(f.name, found[f.related_model]) for f in relations(model) if f.related_model in found]
            ways += [
                _join(f.related_query_name(), found[other])
                for other in found
                for f in relations(other)
                if f.one_to_one and f.related_model is model
            ]
            if ways:
                new[model] = min(ways, key=lambda way: (way.count("__"), way))
        if not new:
            return found
        found.update(new)


def _join(step: str, rest: str) -> str:
    return f"{step}__{rest}" if rest else step


def of_tournament(model, tournament_pk: int) -> models.QuerySet:
    path = paths()[model]
    return model._base_manager.filter(**{f"{path}__pk" if path else "pk": tournament_pk})


# --- values -------------------------------------------------------------------------------------------------


def encoder(field: models.Field) -> Callable | None:
    """How a column's value is written in JSON (None: as it is)."""
    kind = field.get_internal_type()
    if kind == "DateTimeField":
        return lambda v: v.astimezone(UTC).isoformat()
    if kind in ("DateField", "TimeField"):
        return lambda v: v.isoformat()
    if kind in ("DecimalField", "UUIDField"):
        return str
    if kind == "BinaryField":
        return lambda v: bytes(v).hex()
    return None


def reader(field: models.Field) -> Callable[[object], object]:
    """How a value of the file is checked against its column and read back: its JSON type, then what the column holds
    (a text's length and characters, a number's range, one of the column's choices, a time with its zone, a row's
    position, a username). Raises ValueError saying what is wrong; the caller names the value's place."""
    kind = field.get_internal_type()
    if field.is_relation:
        read = (
            functools.partial(username, max_length=field.related_model._meta.get_field(field.related_model.USERNAME_FIELD).max_length)
            if is_user(field.related_model)
            else position
        )
    elif kind == "JSONField":
        read = json_value
    elif kind == "BooleanField":
        read = functools.partial(typed, bool)
    elif kind in BaseDatabaseOperations.integer_field_ranges:
        read = functools.partial(whole_number, BaseDatabaseOperations.integer_field_ranges[kind])
    elif kind in ("CharField", "TextField", "SlugField", "EmailField", "URLField"):
        read = functools.partial(text, field.max_length)
    else:
        parse = {
            "DateTimeField": aware_datetime,
            "DateField": date.fromisoformat,
            "TimeField": time.fromisoformat,
            "DecimalField": Decimal,
            "UUIDField": uuid.UUID,
            "BinaryField": bytes.fromhex,
        }[kind]

        def read(value):
            return parse(text(None, value))

    choices = {key for key, _label in field.flatchoices} if field.choices else None

    def checked(value):
        if value is None:
            if field.null:
                return None
            raise ValueError(_("empty (null), where the file's schema requires a value"))
        value = read(value)
        if choices is not None and value not in choices and not (field.blank and value == ""):
            raise ValueError(_("“%(value)s” is not one of this version's values") % {"value": value})
        return value

    return checked


def found(value) -> str:
    """The JSON type of a value, in words."""
    if isinstance(value, bool):
        return _("true or false")
    if isinstance(value, int):
        return _("a number")
    if isinstance(value, float):
        return _("a number with a fraction")
    if isinstance(value, str):
        return _("a text")
    if isinstance(value, list):
        return _("a list")
    return _("an object")


def typed(kind: type, value):
    """The value, when its JSON type is `kind` (a bool is no number); said in words only when it is not (gettext
    per value would cost an import seconds)."""
    if type(value) is not kind:
        said = {str: _("a text"), int: _("a whole number"), bool: _("true or false"), list: _("a list"), dict: _("an object")}[kind]
        raise ValueError(_("%(found)s, where the file's schema has %(kind)s") % {"found": found(value), "kind": said})
    return value


def whole_number(bounds: tuple[int, int], value) -> int:
    typed(int, value)
    low, high = bounds
    if not low <= value <= high:
        raise ValueError(_("%(value)s is out of range (%(low)s to %(high)s)") % {"value": value, "low": low, "high": high})
    return value


def position(value) -> int:
    """A foreign key: the position of a row in the file (checked against the rows by the import)."""
    return whole_number((1, 2**31), value)


def text(max_length: int | None, value) -> str:
    typed(str, value)
    if max_length is not None and len(value) > max_length:
        raise ValueError(_("longer than its column: at most %(max)s characters") % {"max": max_length})
    holdable(value)
    return value


SURROGATE = re.compile("[\ud800-\udfff]")


def holdable(value: str) -> None:
    """A text a database can hold: no NUL (PostgreSQL refuses it) and no half of a character (no UTF-8 for it)."""
    if "\x00" in value:
        raise ValueError(_("a NUL character, which no text can hold"))
    if not value.isascii() and SURROGATE.search(value):
        raise ValueError(_("a lone surrogate (half a character), which no text can hold"))


def username(value, max_length: int | None = None) -> str:
    """A user, by username: as long as the user model's column allows, and no control character."""
    User = get_user_model()
    text(max_length or User._meta.get_field(User.USERNAME_FIELD).max_length, value)
    if not value:
        raise ValueError(_("an empty username: a username has at least 1 character"))
    if not value.isprintable() and any(unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
        raise ValueError(_("a control character, which a username cannot hold"))
    return value


def json_value(value):
    """A value of a JSON column: any JSON (its depth bounded by the file's, archive/services/transfer.py), every text and key
    holdable."""
    if isinstance(value, str):
        holdable(value)
    elif isinstance(value, list):
        for item in value:
            json_value(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            holdable(key)
            json_value(item)
    return value


def aware_datetime(value: str) -> datetime:
    """A time with its zone, in UTC (as the database keeps it: a time the conversion takes out of range is refused)."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(_("a time without its zone"))
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError(_("a time out of range")) from None


def convert_embedded(model_label: str, row: dict, convert: Callable[[str, int], int | None]) -> None:
    """Rewrite, in `row` (a row of the model by field name), the keys held inside values: `convert(model label, id)`
    gives a row's position from its key (export) or its new key from its position (import)."""
    if model_label == "tournament.auditevent":
        keys, listed = PAYLOAD_IDS.get(row.get("type")), PAYLOAD_ROW_IDS.get(row.get("type"))
        payload = row.get("payload")
        if (keys or listed) and isinstance(payload, dict):
            payload = dict(payload)
            for key, target in (keys or {}).items():
                if key in payload:
                    value = payload[key]
                    payload[key] = convert(target, value) if target is not None and isinstance(value, int) else None
            for key, target in (listed or {}).items():
                if isinstance(payload.get(key), list):
                    payload[key] = [
                        [convert(target, item[0]), *item[1:]] if isinstance(item, list) and item and isinstance(item[0], int) else item
                        for item in payload[key]
                    ]
            row["payload"] = payload
    elif model_label == "tournament.entry":
        # A bust's hand at a table (tables/services/handforhand.py, bust_group): "table:<table's key>:<hand number>".
        hand = row.get("bust_hand") or ""
        if hand.startswith("table:") and hand.count(":") == 2:
            _table, key, number = hand.split(":")
            if key.isascii() and key.isdigit():  # "²" is a digit, and no number
                row["bust_hand"] = f"table:{convert('tables.table', int(key))}:{number}"


# --- the file -------------------------------------------------------------------------------------------------


def fingerprint(key: str) -> str:
    """Which ID hash key made the hashes in a file, never the key: the first 16 hex digits of a SHA-256."""
    return hashlib.sha256(f"fingerprint:{key}".encode()).hexdigest()[:16]


def canonical(data) -> bytes:
    # surrogatepass: a lone surrogate (half a character, which JSON may escape) has bytes too; the import refuses it
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


def checksum(document: dict) -> str:
    """The SHA-256 of the canonical JSON of everything in the file but the checksum itself."""
    return hashlib.sha256(canonical({k: v for k, v in document.items() if k != "checksum"})).hexdigest()


def head_reader(key: str) -> Callable[[object], object] | None:
    """How a value of the file's head (all but its rows) is checked, as a column's (reader); None: a key this version
    does not know."""
    return {
        "format": functools.partial(text, 64),
        "exported_at": lambda value: aware_datetime(text(None, value)),
        "id_hash_key": functools.partial(text, 64),
        "checksum": functools.partial(text, 64),
        "tournament": functools.partial(typed, dict),
        "rows": functools.partial(typed, dict),
        "users": lambda value: [username(name) for name in typed(list, value)],
    }.get(key)
