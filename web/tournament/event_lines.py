"""The event log in words: one line per audit event, built from its payload by type ("Table 12 seat 4: Jana
Nováková busted, 57th"), and the payload as a readable key/value list for the details. No query here: the
names of the entries a page shows are looked up once for the whole page (`entry_numbers`, then the caller's
one query) and passed in."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .event_labels import event_labels

Names = dict[int, str]


def entry_numbers(payloads: Iterable[dict]) -> set[int]:
    """The entry numbers the payloads name, for one bulk lookup of their players' names."""
    found: set[int] = set()
    for payload in payloads:
        if not isinstance(payload, dict):
            continue
        for key in ("entry", "entries"):
            value = payload.get(key)
            for n in value if isinstance(value, list) else [value]:
                if isinstance(n, int) and not isinstance(n, bool):
                    found.add(n)
    return found


def _count(n) -> str:
    """A chip count as the language writes it, its thousands grouped (25,000; 25 000 in Czech)."""
    return number_format(n, decimal_pos=0, use_l10n=True, force_grouping=True) if isinstance(n, int) else str(n)


def ordinal(n) -> str:
    """57th in English, "57." in Czech and Slovak."""
    if not isinstance(n, int):
        return str(n)
    if not (get_language() or "en").startswith("en"):
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _who(payload: dict, names: Names, number=None, name: str | None = None) -> str:
    number = payload.get("entry") if number is None else number
    name = name or names.get(number) or (payload.get("name") if number == payload.get("entry") else None)
    if name and number is not None:
        return _("%(name)s (#%(entry)s)") % {"name": name, "entry": number}
    if name:
        return name
    return _("entry #%(entry)s") % {"entry": number} if number is not None else _("a player")


def _seat(where) -> str:
    if not isinstance(where, dict) or where.get("table") is None:
        return _("no seat")
    if where.get("seat") is None:
        return _("table %(table)s") % where
    return _("table %(table)s seat %(seat)s") % where


def _numbers(values) -> str:
    return ", ".join(str(v) for v in values) if isinstance(values, list) and values else "–"


def _place(payload: dict, tie: bool = True) -> str:
    place, low = payload.get("place"), payload.get("place_low")
    if place is None:
        return ""
    if low and low != place:
        if not tie:
            return _("%(place)s to %(low)s") % {"place": ordinal(place), "low": ordinal(low)}
        return _("%(place)s to %(low)s (tie)") % {"place": ordinal(place), "low": ordinal(low)}
    return ordinal(place)


# --- one function per family: (label, payload, names) -> the line ---------------------------------


def _entry(type_: str, label: str, p: dict, names: Names) -> str:
    who = _who(p, names)
    at = _seat(p)
    if type_ == "entry.busted":
        line = _("%(who)s busted, %(place)s") % {"who": who, "place": _place(p)} if p.get("place") else \
            _("%(who)s busted") % {"who": who}
        return f"{at[:1].upper()}{at[1:]}: {line}" if p.get("table") is not None else line
    if type_ == "entry.bust_undone":
        return _("Bust of %(who)s undone: back at %(seat)s") % {"who": who, "seat": at}
    if type_ == "entry.disqualified":
        return _("%(seat)s: %(who)s disqualified (penalty %(number)s), %(place)s; %(chips)s chips out of play, no "
                 "refund: %(reason)s") % {"seat": at[:1].upper() + at[1:], "who": who, "number": p.get("penalty", "–"),
                                          "place": _place(p), "chips": _count(p.get("chips", 0)), "reason": p.get("reason") or "–"}
    if type_ == "entry.reinstated":
        return _("%(who)s reinstated (disqualification %(number)s cancelled: %(reason)s): %(chips)s chips back in play, "
                 "at %(seat)s") % {"who": who, "number": p.get("penalty", "–"), "reason": p.get("reason") or "–",
                                   "chips": _count(p.get("chips", 0)), "seat": at}
    if type_ == "entry.registered":
        kind = _("re-entry") if p.get("kind") == "reentry" else _("entry")
        if p.get("table") is not None:
            return _("%(who)s registered (%(kind)s), seated at %(seat)s") % {"who": who, "kind": kind, "seat": at}
        return _("%(who)s registered (%(kind)s)") % {"who": who, "kind": kind}
    return _generic(label, p, names)


def _purchase(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"who": _who(p, names), "label": label, "receipt": p.get("receipt", "–"), "reason": p.get("reason") or "–"}
    if type_ == "purchase.voided":
        return _("%(who)s: receipt %(receipt)s voided (%(reason)s)") % facts
    return _("%(who)s: %(label)s, receipt %(receipt)s") % facts


def _move(type_: str, label: str, p: dict, names: Names) -> str:
    def slip(m: dict) -> str:
        return _("%(who)s from %(from)s to %(to)s") % {
            "who": _who(m, names, m.get("entry"), m.get("name")), "from": _seat(m.get("from")), "to": _seat(m.get("to"))}

    if type_ == "move.created":
        return _("Move: %(slips)s") % {"slips": "; ".join(slip(m) for m in p.get("moves", []) if isinstance(m, dict)) or "–"}
    move = p.get("move") if isinstance(p.get("move"), dict) else {}
    if type_ == "move.done":
        return _("%(slip)s: moved") % {"slip": slip(move)}
    if type_ == "move.cancelled":
        return _("Move of %(slip)s cancelled (%(reason)s)") % {"slip": slip(move), "reason": p.get("reason") or "–"}
    if type_ == "seat.corrected":
        return _("Seat of %(who)s corrected from %(from)s to %(to)s") % {
            "who": _who(p, names), "from": _seat(p.get("from")), "to": _seat(p.get("to"))}
    if type_ == "seat_request.set":
        return _("%(name)s asks for %(seat)s") % {"name": p.get("name", "–"), "seat": _seat(p)}
    if type_ == "seat_request.cancelled":
        return _("Seat request of %(name)s cancelled") % {"name": p.get("name", "–")}
    return _generic(label, p, names)


def _draw(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"label": label, "draw": p.get("draw", "–"), "seated": p.get("seated", "–"), "tables": _numbers(p.get("tables")),
             "table": p.get("table", "–"), "count": len(p.get("entries") or []), "commitment": str(p.get("commitment", ""))[:12]}
    if type_ == "draw.committed":
        return _("Draw %(draw)s committed (SHA-256 %(commitment)s…)") % facts
    if type_ in ("seating.drawn", "seating.redrawn"):
        return _("%(label)s (draw %(draw)s): %(seated)s players, tables %(tables)s") % {
            **facts, "seated": p.get("seated", facts["count"])}
    if type_ == "draw.tie":
        who = ", ".join(_who(p, names, n) for n in p.get("entries") or [])
        return _("Tie for %(place)s between %(who)s: odd units drawn (draw %(draw)s)") % {
            **facts, "place": _place(p, tie=False), "who": who}
    if type_ == "table.breaking":
        return _("Table %(table)s breaks: %(count)s players move (draw %(draw)s)") % facts
    if type_ == "table.buttons":
        count = len(p.get("tables") or [])
        return ngettext("Button drawn at %(count)s table (%(tables)s) by the card draw (draw %(draw)s)",
                        "Buttons drawn at %(count)s tables (%(tables)s) by the card draw (draw %(draw)s)",
                        count) % {**facts, "count": count}
    if type_ == "table.button":
        return _("Table %(table)s: button to seat %(seat)s by the card draw") % {**facts, "seat": p.get("seat", "–")}
    return _generic(label, p, names)


def _table(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"label": label, "table": p.get("table", "–"), "hand": p.get("hand", "–"), "level": p.get("level", "–"),
             "tables": _numbers(p.get("tables") if type_ != "tables.break_order" else p.get("order")),
             "seats": p.get("seats", "–"), "number": p.get("number", "–")}
    if type_ == "table.opened":
        return _("Table %(table)s opened with %(seats)s seats") % facts
    if type_ == "table.hand_started":
        return _("Table %(table)s: hand %(hand)s started (level %(level)s)") % facts
    if type_ == "table.hand_done":
        return _("Table %(table)s: hand %(hand)s done") % facts
    if type_ == "table.hand_start_undone":
        return _("Table %(table)s: start of hand %(hand)s undone") % facts
    if type_ == "table.positions":
        positions = p.get("positions") or {}
        return _("Table %(table)s: button seat %(button)s, blinds seats %(small)s and %(big)s") % {
            **facts, "button": positions.get("button", "–"), "small": positions.get("small_blind", "–"),
            "big": positions.get("big_blind", "–")}
    if type_.startswith("tables.") or type_.startswith("h4h."):
        if type_ == "h4h.hand_complete":
            return _("Hand-for-hand %(number)s: hand %(hand)s complete, %(busts)s busted") % {
                **facts, "busts": len(p.get("busts") or [])}
        if type_ == "h4h.ended":
            return _("Hand-for-hand %(number)s ended after %(hands)s hands") % {**facts, "hands": p.get("hands", "–")}
        if type_ == "h4h.started":
            return _("Hand-for-hand %(number)s started: %(players)s players, tables %(tables)s") % {
                **facts, "players": p.get("players", "–")}
        if type_ == "h4h.hand_called":
            return _("Hand-for-hand %(number)s: hand %(hand)s called at tables %(tables)s") % facts
        return _("%(label)s: %(tables)s") % facts
    if p.get("table") is not None:
        return _("Table %(table)s: %(label)s") % {**facts, "label": label.lower() if label[:1].isupper() else label}
    return _generic(label, p, names)


def _balance(type_: str, label: str, p: dict, names: Names) -> str:
    if type_ == "house_rules.changed":
        changed = p.get("changed")
        keys = changed if isinstance(changed, list) else list(changed or {})
        return _("%(label)s: %(keys)s") % {"label": label, "keys": ", ".join(str(k) for k in keys) or "–"}
    if type_ == "table.button_needed":
        return _("Table %(table)s: set the button before balancing") % {"table": p.get("table", "–")}
    if p.get("message"):
        return _("%(label)s: %(message)s") % {"label": label, "message": p["message"]}
    return label


def _when(value) -> str:
    """An ISO time of a payload, in the zone the page shows (the venue's) and the reader's format."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return "–"
    return date_format(timezone.localtime(moment) if timezone.is_aware(moment) else moment, "SHORT_DATETIME_FORMAT")


def _clock(type_: str, label: str, p: dict, names: Names) -> str:
    level = p.get("level")
    if type_ == "clock.level_started" and level is not None:
        return _("Level %(level)s started") % {"level": level}
    if type_ == "clock.one_minute" and level is not None:
        return _("One minute left in level %(level)s") % {"level": level}
    if type_ == "clock.level_ended" and p.get("removed") is not None:
        minutes, seconds = divmod(int(p["removed"]), 60)
        row = _("Level %(level)s") % {"level": level} if level is not None else _("The break")
        return _("%(row)s ended now (%(minutes)s:%(seconds)02d left removed)") % {"row": row, "minutes": minutes, "seconds": seconds}
    if type_ == "clock.jumped" and level is not None:
        return _("Clock jumped to level %(level)s") % {"level": level}
    if type_ == "clock.announcement":
        return _("Announcement: %(text)s") % {"text": p.get("text") or "–"} if p.get("text") else _("Announcement cleared")
    if type_ == "clock.day_end_set":
        return _("The day ends after level %(level)s") % {"level": level} if level else _("The day's end is cleared")
    if type_ == "clock.day_ended":
        return _("The day ended after level %(level)s") % {"level": level}
    if type_ == "clock.restart_scheduled":
        return _("Play resumes %(start)s at level %(level)s") % {"start": _when(p.get("start_at")), "level": level}
    if type_ == "clock.resumed" and p.get("by_schedule"):
        return _("Clock resumed by schedule")
    return label


def _chips(type_: str, label: str, p: dict, names: Names) -> str:
    # The break as the floor names it, "the break after level 4" (a newer event says which level it
    # follows, `after_level`); an older event only knew the break's row in the structure.
    after = p.get("after_level")
    facts = {"label": label, "table": p.get("table", "–"), "level": p.get("color_up", p.get("level", "–")),
             "difference": p.get("difference", "–"), "leaving": p.get("leaving", "–"), "chip": p.get("new_chip", "–"),
             "break": _("the break after level %(level)s") % {"level": after} if isinstance(after, int)
             else _("the break in row %(row)s") % {"row": p.get("color_up", p.get("level", "–"))}}
    if type_ == "colorup.confirmed":
        return _("Color-up at %(break)s confirmed: the %(leaving)s chips leave, the %(chip)s chip stays") % {
            **facts, "leaving": _numbers(p.get("leaving")) if isinstance(p.get("leaving"), list) else facts["leaving"]}
    if type_ in ("race.recorded", "race.confirmed"):
        return _("Table %(table)s: %(label)s (color-up at %(break)s), difference %(difference)s") % facts
    if type_ == "chips.found":
        return _("Table %(table)s: removed chips found, exchanged for %(exchanged)s") % {
            **facts, "exchanged": p.get("exchanged", "–")}
    if type_ == "chips.counted" and "entry" in p:
        return _("Table %(table)s: %(who)s counted, %(total)s chips") % {**facts, "who": _who(p, names),
                                                                          "total": p.get("total", "–")}
    if type_ == "chips.counted":
        return _("Table %(table)s: chips counted, %(total)s in all") % {**facts, "total": p.get("total", "–")}
    return _generic(label, p, names)


def _days(type_: str, label: str, p: dict, names: Names) -> str:
    """Bag-and-tag and the close of a day (days/services/bags.py)."""
    if type_ == "day.closed":
        line = _("Day %(day)s closed: %(bags)s bags, %(total)s chips, difference %(difference)s") % {
            "day": p.get("day", "–"), "bags": p.get("bags", "–"), "total": p.get("total", "–"),
            "difference": p.get("difference", "–")}
        if p.get("missing"):
            line += " " + _("(no bag: %(entries)s)") % {"entries": ", ".join(f"#{n}" for n in p["missing"])}
        return line + (f": {p['reason']}" if p.get("reason") else "")
    if type_ == "bags.recorded" and "entry" in p:
        return _("Table %(table)s: %(who)s bagged, %(total)s chips in bag %(bag)s") % {
            "table": p.get("table", "–"), "who": _who(p, names), "total": p.get("total", "–"), "bag": p.get("bag", "–")}
    if type_ == "bags.recorded":
        return _("Table %(table)s: bags recorded, %(total)s chips in all") % {"table": p.get("table", "–"),
                                                                             "total": p.get("total", "–")}
    return _generic(label, p, names)


def _flights(type_: str, label: str, p: dict, names: Names) -> str:
    """Events with flights into one Day 2 (flights/services/events.py, flights/reactions.py)."""
    if type_ == "flight.ending":
        return _("Flight %(flight)s: %(players)s players left of %(entries)s (%(percent)s%%): it ends at the end of level "
                 "%(level)s") % {"flight": p.get("flight", "–"), "players": p.get("players_left", "–"),
                                 "entries": p.get("entries", "–"), "percent": p.get("percent", "–"),
                                 "level": p.get("level") or "–"}
    if type_ == "flights.carried":
        return _("Bags carried into Day 2: %(carried)s players with %(chips)s chips; %(forfeited)s bags forfeited "
                 "(%(forfeited_chips)s chips)") % {k: p.get(k, "–") for k in ("carried", "chips", "forfeited",
                                                                               "forfeited_chips")}
    if type_ == "flight.added":
        return _("Flight %(flight)s of %(event)s") % {"flight": p.get("flight", "–"), "event": p.get("event_name", "–")}
    if type_ == "flight.end_set":
        return _("Flight %(flight)s ends after level %(level)s or at %(percent)s%% of its field left") % {
            "flight": p.get("flight", "–"), "level": p.get("after_level") or "–", "percent": p.get("share_percent") or "–"}
    return _generic(label, p, names)


def _leagues(type_: str, label: str, p: dict, names: Names) -> str:
    """The tournament's league (leagues/services/leagues.py): joined, left, and the points given as the places stand."""
    if type_ == "league.points" and not p.get("players"):
        return _("League %(league)s: play goes on, the points given are taken away") % {"league": p.get("name", "–")}
    if type_ == "league.points":
        return _("League %(league)s: points given to %(players)s players") % {"league": p.get("name", "–"),
                                                                             "players": p.get("players", "–")}
    return _("%(label)s: %(league)s") % {"label": label, "league": p.get("name", "–")}


def _tickets(p: dict) -> str:
    return ", ".join(f"{row.get('ticket', '–')} (#{row.get('entry', '–')} {row.get('name', '')})".rstrip()
                     for row in p.get("tickets") or ())


def _satellites(type_: str, label: str, p: dict) -> str:
    """A satellite's settings and tickets (payouts/services/tickets.py)."""
    if type_ == "satellite.set":
        after = p.get("after") or {}
        return _("Satellite of %(target)s") % {"target": after.get("target_name", "–")}
    if type_ in ("ticket.issued", "ticket.voided"):
        return _("%(label)s for %(target)s: %(tickets)s") % {"label": label, "target": p.get("target", "–"),
                                                             "tickets": _tickets(p) or "–"}
    if type_ == "ticket.transferred":
        return _("Ticket %(ticket)s passed from %(from)s to %(to)s: %(reason)s") % {
            "ticket": p.get("ticket", "–"), "from": p.get("from", "–"), "to": p.get("to", "–"),
            "reason": p.get("reason", "–")}
    if type_ in ("ticket.used", "ticket.returned"):
        return _("%(label)s: ticket %(ticket)s of %(satellite)s, entry #%(entry)s %(name)s") % {
            "label": label, "ticket": p.get("ticket", "–"), "satellite": p.get("satellite", "–"),
            "entry": p.get("entry", "–"), "name": p.get("name", "")}
    return label


def _payouts(type_: str, label: str, p: dict, names: Names) -> str:
    if type_.startswith(("satellite.", "ticket.")):
        return _satellites(type_, label, p)
    if type_ in ("payout.paid", "payout.voided"):
        return _("%(who)s: %(label)s, receipt %(receipt)s") % {"who": _who(p, names), "label": label.lower(),
                                                               "receipt": p.get("receipt", "–")}
    if type_.startswith("deal."):
        return _("%(label)s: deal %(deal)s") % {"label": label, "deal": p.get("deal", "–")}
    return label


def _penalty(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"who": _who(p, names), "table": p.get("table", "–"), "seat": p.get("seat", "–"),
             "number": p.get("penalty", "–"), "reason": p.get("reason") or "–"}
    if type_ == "penalty.cancelled":
        return _("Penalty %(number)s of %(who)s cancelled: %(reason)s") % facts
    kind, hands = p.get("kind"), p.get("hands")
    if kind == "warning":
        what = _("a warning")
    elif kind == "rounds":
        what = ngettext("%(rounds)s round, %(hands)s hands", "%(rounds)s rounds, %(hands)s hands",
                        p.get("rounds") or 0) % {"rounds": p.get("rounds"), "hands": hands}
    else:
        what = _("one hand")
    return _("Table %(table)s seat %(seat)s: %(who)s gets %(what)s (penalty %(number)s): %(reason)s") % {
        **facts, "what": what}


def _clock_call(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"who": _who(p, names), "table": p.get("table", "–"), "seat": p.get("seat", "–"),
             "seconds": p.get("seconds", "–")}
    if type_ == "clock_call.started":
        return _("Table %(table)s seat %(seat)s: the clock is called on %(who)s, %(seconds)s seconds") % facts
    outcome = {"acted": _("he acted in time"), "dead": _("time was up, the hand is dead"),
               "cancelled": _("called in error"), "new_hand": _("the next hand began")}.get(p.get("outcome"), "–")
    return _("Table %(table)s seat %(seat)s: the clock on %(who)s ended: %(outcome)s") % {**facts, "outcome": outcome}


def _setup(type_: str, label: str, p: dict, names: Names) -> str:
    if type_ == "player.created":
        return _("New player: %(name)s") % {"name": p.get("name", "–")}
    if type_ in ("tournament.finished", "tournament.resumed"):
        return _finished(type_, p, names)
    name = p.get("name") or p.get("label")
    if name:
        return _("%(label)s: %(name)s") % {"label": label, "name": name}
    if isinstance(p.get("changed"), (list, dict)) and p.get("changed"):
        return _("%(label)s: %(keys)s") % {"label": label, "keys": ", ".join(str(k) for k in p["changed"])}
    return label


def _finished(type_: str, p: dict, names: Names) -> str:
    if type_ == "tournament.resumed":
        return _("Play goes on again: %(players)s players left") % {"players": p.get("players_left", "–")}
    if p.get("reason") == "seats":
        said = _("Play has stopped at the seats: %(seats)s seats won") % {"seats": p.get("seats", "–")}
    elif p.get("reason") == "deal":
        said = _("Play is over: a deal stopped it with %(players)s players") % {"players": p.get("players_left", "–")}
    else:
        said = _("Play is over: %(who)s won") % {"who": _who(p, names)}
    also = [word for key, word in (("hand_for_hand_ended", _("hand-for-hand ended")),
                                   ("clock_stopped", _("the clock stopped"))) if p.get(key)]
    return f"{said} ({', '.join(also)})" if also else said


FACT_KEYS = ("table", "seat", "entry", "name", "level", "hand", "draw", "receipt", "number", "deal")


def _generic(label: str, p: dict, names: Names) -> str:
    """Words still: the label and the payload's key facts, never the raw payload."""
    facts = []
    for key in FACT_KEYS:
        value = p.get(key) if isinstance(p, dict) else None
        if value is None or isinstance(value, (dict, list)):
            continue
        if key == "entry":
            facts.append(_who(p, names))
        elif key != "name" or "entry" not in p:
            facts.append(f"{KEY_WORDS().get(key, key)} {value}")
    return f"{label}: {', '.join(facts)}" if facts else label


def KEY_WORDS() -> dict[str, str]:  # noqa: N802  (a table, translated when asked)
    return {"table": _("table"), "seat": _("seat"), "name": _("name"), "level": _("level"), "hand": _("hand"),
            "draw": _("draw"), "receipt": _("receipt"), "number": _("number"), "deal": _("deal")}


FAMILIES: tuple[tuple[tuple[str, ...], Callable[[str, str, dict, Names], str]], ...] = (
    (("entry.",), _entry),
    (("rebuy.", "addon.", "purchase."), _purchase),
    (("move.", "seat.", "seat_request."), _move),
    (("balance.", "house_rules.", "table.button_needed"), _balance),
    (("draw.", "seating.", "table.breaking", "table.button"), _draw),
    (("table.", "tables.", "h4h."), _table),
    (("clock.",), _clock),
    (("colorup.", "race.", "chips."), _chips),
    (("bags.", "day."), _days),
    (("flight.", "flights."), _flights),
    (("league.",), _leagues),
    (("payouts.", "payout.", "deal.", "satellite.", "ticket."), _payouts),
    (("penalty.",), _penalty),
    (("clock_call.",), _clock_call),
    (("player.", "tournament.", "structure.", "display.", "registration."), _setup),
)


def event_line(type_: str, payload: dict, names: Names, labels: dict[str, str] | None = None) -> str:
    """One event in words."""
    labels = event_labels() if labels is None else labels
    label = labels.get(type_) or type_.replace("_", " ").replace(".", ": ").capitalize()
    payload = payload if isinstance(payload, dict) else {}
    for prefixes, line in FAMILIES:
        if type_.startswith(prefixes):
            try:
                return line(type_, label, payload, names)
            except (KeyError, TypeError, ValueError, AttributeError):  # an old payload of another shape
                break
    return _generic(label, payload, names)


def details(payload, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """The payload as key/value rows: nested values flattened to dotted keys ("move.from.table"), lists
    of plain values joined; at most 200 rows."""
    rows: list[tuple[str, str]] = []
    if isinstance(payload, dict) and depth < 4:
        for key, value in payload.items():
            rows.extend(details(value, f"{prefix}{key}.", depth + 1) if isinstance(value, (dict, list)) and value
                        else [(f"{prefix}{key}", _plain(value))])
    elif isinstance(payload, list) and depth < 4 and any(isinstance(v, (dict, list)) for v in payload):
        for i, value in enumerate(payload, 1):
            rows.extend(details(value, f"{prefix}{i}.", depth + 1) if isinstance(value, (dict, list))
                        else [(f"{prefix}{i}", _plain(value))])
    else:
        rows.append((prefix.rstrip("."), _plain(payload)))
    return rows[:200]


def _plain(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "–"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) or "–"
    return str(value)
