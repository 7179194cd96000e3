"""The tables' event types in words (tables/services: seats, moves, draws, hands, balancing, hand-for-hand, busts,
color-ups and chip races, penalties, clock calls): their labels and one line per event ("Table 12 seat 4: Jana
Nováková busted, 57th"). Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "entry.busted": _("Player busted"),
        "table.opened": _("Table opened"),
        "table.hand_started": _("Hand started"),
        "table.hand_start_undone": _("Hand start undone"),
        "draw.tie": _("Tie: odd units drawn"),
        "colorup.confirmed": _("Color-up confirmed"),
        "race.recorded": _("Chip race recorded"),
        "race.confirmed": _("Chip race confirmed"),
        "entry.bust_undone": _("Bust undone"),
        "move.created": _("Move slip"),
        "move.done": _("Player moved"),
        "move.cancelled": _("Move cancelled"),
        "seat.corrected": _("Seat corrected"),
        "seat_request.set": _("Seat requested"),
        "seat_request.cancelled": _("Seat request cancelled"),
        "draw.committed": _("Draw committed"),
        "seating.drawn": _("Seating drawn"),
        "seating.redrawn": _("Seating redrawn"),
        "table.breaking": _("Table breaking"),
        "table.button": _("Button drawn"),
        "table.buttons": _("Buttons drawn"),
        "table.button_needed": _("Button needed"),
        "table.positions": _("Positions set"),
        "table.hand_done": _("Hand done"),
        "table.token_renewed": _("Table link renewed"),
        "table.in_play": _("Table in play"),
        "table.out_of_play": _("Table out of play"),
        "table.dealer_link_created": _("Dealer link created"),
        "table.dealer_link_revoked": _("Dealer link revoked"),
        "tables.halted": _("Balancing halted at tables"),
        "tables.break_order": _("Break order set"),
        "balance.clear": _("Balancing unblocked"),
        "balance.no_move": _("Balancing stuck"),
        "balance.blocked": _("Balancing blocked"),
        "balance.failed": _("Balancing failed"),
        "house_rules.changed": _("House rules changed"),
        "h4h.started": _("Hand-for-hand started"),
        "h4h.ended": _("Hand-for-hand ended"),
        "h4h.hand_called": _("Hand-for-hand: hand called"),
        "h4h.hand_complete": _("Hand-for-hand: hand complete"),
        "chips.found": _("Removed chips found"),
        "chips.counted": _("Chips counted"),
        "clock_call.started": _("Clock called on a player"),
        "clock_call.ended": _("Clock call ended"),
        "penalty.given": _("Penalty given"),
        "penalty.cancelled": _("Penalty cancelled"),
        "entry.disqualified": _("Player disqualified"),
        "entry.reinstated": _("Disqualification cancelled: player reinstated"),
        "elimination.corrected": _("Eliminator corrected"),
        "bust.reported": _("Bust reported by the dealer"),
        "bust.report_rejected": _("Dealer's bust report rejected"),
    }


def _count(n) -> str:
    """A chip count as the language writes it, its thousands grouped (25,000; 25 000 in Czech)."""
    return number_format(n, decimal_pos=0, use_l10n=True, force_grouping=True) if isinstance(n, int) else str(n)


def _entry(type_: str, label: str, p: dict, names: Names) -> str:
    """A bust and its undo (tables/services/busts.py), a disqualification and its cancel (penalties.py)."""
    who = parts.who(p, names)
    at = parts.seat(p)
    if type_ == "entry.busted":
        line = (
            _("%(who)s busted, %(place)s") % {"who": who, "place": parts.place(p)} if p.get("place") else _("%(who)s busted") % {"who": who}
        )
        if p.get("eliminators"):
            line = _("%(line)s by %(by)s") % {"line": line, "by": ", ".join(f"#{n}" for n in p["eliminators"])}
        return f"{at[:1].upper()}{at[1:]}: {line}" if p.get("table") is not None else line
    if type_ in ("bust.reported", "bust.report_rejected"):
        line = _("%(label)s: table %(table)s seat %(seat)s, %(who)s, won by seats %(seats)s") % {
            "label": label,
            "table": p.get("table", "–"),
            "seat": p.get("seat", "–"),
            "who": who,
            "seats": ", ".join(str(n) for n in p.get("winner_seats") or ()) or "–",
        }
        return f"{line} ({p['reason']})" if p.get("reason") else line
    if type_ == "elimination.corrected":
        return _("%(who)s was knocked out by %(after)s, not %(before)s: %(reason)s") % {
            "who": who,
            "after": ", ".join(f"#{n}" for n in p.get("after") or ()) or "–",
            "before": ", ".join(f"#{n}" for n in p.get("before") or ()) or "–",
            "reason": p.get("reason") or "–",
        }
    if type_ == "entry.bust_undone":
        return _("Bust of %(who)s undone: back at %(seat)s") % {"who": who, "seat": at}
    if type_ == "entry.disqualified":
        return _("%(seat)s: %(who)s disqualified (penalty %(number)s), %(place)s; %(chips)s chips out of play, no refund: %(reason)s") % {
            "seat": at[:1].upper() + at[1:],
            "who": who,
            "number": p.get("penalty", "–"),
            "place": parts.place(p),
            "chips": _count(p.get("chips", 0)),
            "reason": p.get("reason") or "–",
        }
    if type_ == "entry.reinstated":
        return _("%(who)s reinstated (disqualification %(number)s cancelled: %(reason)s): %(chips)s chips back in play, at %(seat)s") % {
            "who": who,
            "number": p.get("penalty", "–"),
            "reason": p.get("reason") or "–",
            "chips": _count(p.get("chips", 0)),
            "seat": at,
        }
    return parts.generic(label, p, names)


def _move(type_: str, label: str, p: dict, names: Names) -> str:
    def slip(m: dict) -> str:
        return _("%(who)s from %(from)s to %(to)s") % {
            "who": parts.who(m, names, m.get("entry"), m.get("name")),
            "from": parts.seat(m.get("from")),
            "to": parts.seat(m.get("to")),
        }

    if type_ == "move.created":
        return _("Move: %(slips)s") % {"slips": "; ".join(slip(m) for m in p.get("moves", []) if isinstance(m, dict)) or "–"}
    move = p.get("move") if isinstance(p.get("move"), dict) else {}
    if type_ == "move.done":
        return _("%(slip)s: moved") % {"slip": slip(move)}
    if type_ == "move.cancelled":
        return _("Move of %(slip)s cancelled (%(reason)s)") % {"slip": slip(move), "reason": p.get("reason") or "–"}
    if type_ == "seat.corrected":
        return _("Seat of %(who)s corrected from %(from)s to %(to)s") % {
            "who": parts.who(p, names),
            "from": parts.seat(p.get("from")),
            "to": parts.seat(p.get("to")),
        }
    if type_ == "seat_request.set":
        return _("%(name)s asks for %(seat)s") % {"name": p.get("name", "–"), "seat": parts.seat(p)}
    if type_ == "seat_request.cancelled":
        return _("Seat request of %(name)s cancelled") % {"name": p.get("name", "–")}
    return parts.generic(label, p, names)


def _draw(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {
        "label": label,
        "draw": p.get("draw", "–"),
        "seated": p.get("seated", "–"),
        "tables": parts.numbers(p.get("tables")),
        "table": p.get("table", "–"),
        "count": len(p.get("entries") or []),
        "commitment": str(p.get("commitment", ""))[:12],
    }
    if type_ == "draw.committed":
        return _("Draw %(draw)s committed (SHA-256 %(commitment)s…)") % facts
    if type_ in ("seating.drawn", "seating.redrawn"):
        return _("%(label)s (draw %(draw)s): %(seated)s players, tables %(tables)s") % {**facts, "seated": p.get("seated", facts["count"])}
    if type_ == "draw.tie":
        who = ", ".join(parts.who(p, names, n) for n in p.get("entries") or [])
        return _("Tie for %(place)s between %(who)s: odd units drawn (draw %(draw)s)") % {
            **facts,
            "place": parts.place(p, tie=False),
            "who": who,
        }
    if type_ == "table.breaking":
        return _("Table %(table)s breaks: %(count)s players move (draw %(draw)s)") % facts
    if type_ == "table.buttons":
        count = len(p.get("tables") or [])
        return ngettext(
            "Button drawn at %(count)s table (%(tables)s) by the card draw (draw %(draw)s)",
            "Buttons drawn at %(count)s tables (%(tables)s) by the card draw (draw %(draw)s)",
            count,
        ) % {**facts, "count": count}
    if type_ == "table.button":
        return _("Table %(table)s: button to seat %(seat)s by the card draw") % {**facts, "seat": p.get("seat", "–")}
    return parts.generic(label, p, names)


def _table(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {
        "label": label,
        "table": p.get("table", "–"),
        "hand": p.get("hand", "–"),
        "level": p.get("level", "–"),
        "tables": parts.numbers(p.get("tables") if type_ != "tables.break_order" else p.get("order")),
        "seats": p.get("seats", "–"),
        "number": p.get("number", "–"),
    }
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
            **facts,
            "button": positions.get("button", "–"),
            "small": positions.get("small_blind", "–"),
            "big": positions.get("big_blind", "–"),
        }
    if type_.startswith("tables.") or type_.startswith("h4h."):
        if type_ == "h4h.hand_complete":
            return _("Hand-for-hand %(number)s: hand %(hand)s complete, %(busts)s busted") % {**facts, "busts": len(p.get("busts") or [])}
        if type_ == "h4h.ended":
            return _("Hand-for-hand %(number)s ended after %(hands)s hands") % {**facts, "hands": p.get("hands", "–")}
        if type_ == "h4h.started":
            return _("Hand-for-hand %(number)s started: %(players)s players, tables %(tables)s") % {
                **facts,
                "players": p.get("players", "–"),
            }
        if type_ == "h4h.hand_called":
            return _("Hand-for-hand %(number)s: hand %(hand)s called at tables %(tables)s") % facts
        return _("%(label)s: %(tables)s") % facts
    if p.get("table") is not None:
        return _("Table %(table)s: %(label)s") % {**facts, "label": label.lower() if label[:1].isupper() else label}
    return parts.generic(label, p, names)


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


def _chips(type_: str, label: str, p: dict, names: Names) -> str:
    # The break as the floor names it, "the break after level 4" (a newer event says which level it
    # follows, `after_level`); an older event only knew the break's row in the structure.
    after = p.get("after_level")
    facts = {
        "label": label,
        "table": p.get("table", "–"),
        "level": p.get("color_up", p.get("level", "–")),
        "difference": p.get("difference", "–"),
        "leaving": p.get("leaving", "–"),
        "chip": p.get("new_chip", "–"),
        "break": _("the break after level %(level)s") % {"level": after}
        if isinstance(after, int)
        else _("the break in row %(row)s") % {"row": p.get("color_up", p.get("level", "–"))},
    }
    if type_ == "colorup.confirmed":
        return _("Color-up at %(break)s confirmed: the %(leaving)s chips leave, the %(chip)s chip stays") % {
            **facts,
            "leaving": parts.numbers(p.get("leaving")) if isinstance(p.get("leaving"), list) else facts["leaving"],
        }
    if type_ in ("race.recorded", "race.confirmed"):
        return _("Table %(table)s: %(label)s (color-up at %(break)s), difference %(difference)s") % facts
    if type_ == "chips.found":
        return _("Table %(table)s: removed chips found, exchanged for %(exchanged)s") % {**facts, "exchanged": p.get("exchanged", "–")}
    if type_ == "chips.counted" and "entry" in p:
        return _("Table %(table)s: %(who)s counted, %(total)s chips") % {**facts, "who": parts.who(p, names), "total": p.get("total", "–")}
    if type_ == "chips.counted":
        return _("Table %(table)s: chips counted, %(total)s in all") % {**facts, "total": p.get("total", "–")}
    return parts.generic(label, p, names)


def _penalty(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {
        "who": parts.who(p, names),
        "table": p.get("table", "–"),
        "seat": p.get("seat", "–"),
        "number": p.get("penalty", "–"),
        "reason": p.get("reason") or "–",
    }
    if type_ == "penalty.cancelled":
        return _("Penalty %(number)s of %(who)s cancelled: %(reason)s") % facts
    kind, hands = p.get("kind"), p.get("hands")
    if kind == "warning":
        what = _("a warning")
    elif kind == "rounds":
        what = ngettext("%(rounds)s round, %(hands)s hands", "%(rounds)s rounds, %(hands)s hands", p.get("rounds") or 0) % {
            "rounds": p.get("rounds"),
            "hands": hands,
        }
    else:
        what = _("one hand")
    return _("Table %(table)s seat %(seat)s: %(who)s gets %(what)s (penalty %(number)s): %(reason)s") % {**facts, "what": what}


def _clock_call(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"who": parts.who(p, names), "table": p.get("table", "–"), "seat": p.get("seat", "–"), "seconds": p.get("seconds", "–")}
    if type_ == "clock_call.started":
        return _("Table %(table)s seat %(seat)s: the clock is called on %(who)s, %(seconds)s seconds") % facts
    outcome = {
        "acted": _("he acted in time"),
        "dead": _("time was up, the hand is dead"),
        "cancelled": _("called in error"),
        "new_hand": _("the next hand began"),
    }.get(p.get("outcome"), "–")
    return _("Table %(table)s seat %(seat)s: the clock on %(who)s ended: %(outcome)s") % {**facts, "outcome": outcome}


# Which line writes which types; of two prefixes a type starts with, the longer wins (web/event_words.py).
LINES: tuple[tuple[tuple[str, ...], Line], ...] = (
    (("entry.busted", "entry.bust_undone", "entry.disqualified", "entry.reinstated", "elimination.corrected", "bust."), _entry),
    (("move.", "seat.", "seat_request."), _move),
    (("balance.", "house_rules.", "table.button_needed"), _balance),
    (("draw.", "seating.", "table.breaking", "table.button"), _draw),
    (("table.", "tables.", "h4h."), _table),
    (("colorup.", "race.", "chips."), _chips),
    (("penalty.",), _penalty),
    (("clock_call.",), _clock_call),
)
