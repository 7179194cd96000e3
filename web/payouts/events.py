"""The payouts' event types in words (payouts/services, payouts/reactions.py): the payout plan, prizes paid, deals,
satellites and their tickets, and the end of play once the prizes are decided; their labels and one line per event.
Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "tournament.finished": _("Play over: tournament finished"),
        "tournament.resumed": _("Play goes on again"),
        "payouts.plan_set": _("Payout settings changed"),
        "payouts.structure_edited": _("Prizes edited by hand"),
        "payouts.edit_cleared": _("Hand edit of the prizes dropped"),
        "payout.paid": _("Prize paid"),
        "payout.voided": _("Prize payment voided"),
        "deal.proposed": _("Deal proposed"),
        "deal.approved": _("Deal approved"),
        "deal.rejected": _("Deal rejected or withdrawn"),
        "satellite.set": _("Satellite settings set"),
        "satellite.removed": _("No longer a satellite"),
        "ticket.issued": _("Satellite tickets issued"),
        "ticket.voided": _("Satellite tickets voided"),
        "ticket.used": _("Entry paid with a satellite ticket"),
        "ticket.returned": _("Satellite ticket given back"),
        "ticket.transferred": _("Satellite ticket passed to another player"),
        "bounty_rules.changed": _("Bounty settings changed"),
        "bounty.won": _("Bounty won"),
        "bounty.settled": _("Bounties replayed after a correction"),
        "bounty.paid": _("Bounty paid"),
        "bounty.payment_voided": _("Bounty payment voided"),
        "bounty.envelopes_committed": _("Mystery envelopes committed"),
        "bounty.envelope_drawn": _("Mystery envelope drawn"),
        "bounty.envelope_waits": _("Mystery envelope waits for the envelopes to be committed"),
    }


def _tickets(p: dict) -> str:
    return ", ".join(
        f"{row.get('ticket', '–')} (#{row.get('entry', '–')} {row.get('name', '')})".rstrip() for row in p.get("tickets") or ()
    )


def _satellites(type_: str, label: str, p: dict) -> str:
    """A satellite's settings and tickets (payouts/services/tickets.py)."""
    if type_ == "satellite.set":
        after = p.get("after") or {}
        return _("Satellite of %(target)s") % {"target": after.get("target_name", "–")}
    if type_ in ("ticket.issued", "ticket.voided"):
        return _("%(label)s for %(target)s: %(tickets)s") % {"label": label, "target": p.get("target", "–"), "tickets": _tickets(p) or "–"}
    if type_ == "ticket.transferred":
        return _("Ticket %(ticket)s passed from %(from)s to %(to)s: %(reason)s") % {
            "ticket": p.get("ticket", "–"),
            "from": p.get("from", "–"),
            "to": p.get("to", "–"),
            "reason": p.get("reason", "–"),
        }
    if type_ in ("ticket.used", "ticket.returned"):
        return _("%(label)s: ticket %(ticket)s of %(satellite)s, entry #%(entry)s %(name)s") % {
            "label": label,
            "ticket": p.get("ticket", "–"),
            "satellite": p.get("satellite", "–"),
            "entry": p.get("entry", "–"),
            "name": p.get("name", ""),
        }
    return label


def _payouts(type_: str, label: str, p: dict, names: Names) -> str:
    if type_.startswith(("satellite.", "ticket.")):
        return _satellites(type_, label, p)
    if type_ in ("payout.paid", "payout.voided"):
        return _("%(who)s: %(label)s, receipt %(receipt)s") % {
            "who": parts.who(p, names),
            "label": label.lower(),
            "receipt": p.get("receipt", "–"),
        }
    if type_.startswith("deal."):
        return _("%(label)s: deal %(deal)s") % {"label": label, "deal": p.get("deal", "–")}
    return label


def _finished(type_: str, label: str, p: dict, names: Names) -> str:
    """Play over once the prizes are decided, and on again when a bust is undone (payouts/reactions.py)."""
    if type_ == "tournament.resumed":
        return _("Play goes on again: %(players)s players left") % {"players": p.get("players_left", "–")}
    if p.get("reason") == "seats":
        said = _("Play has stopped at the seats: %(seats)s seats won") % {"seats": p.get("seats", "–")}
    elif p.get("reason") == "deal":
        said = _("Play is over: a deal stopped it with %(players)s players") % {"players": p.get("players_left", "–")}
    else:
        said = _("Play is over: %(who)s won") % {"who": parts.who(p, names)}
    also = [
        word for key, word in (("hand_for_hand_ended", _("hand-for-hand ended")), ("clock_stopped", _("the clock stopped"))) if p.get(key)
    ]
    return f"{said} ({', '.join(also)})" if also else said


def _amount(value) -> str:
    """An amount in minor units, as the log shows money everywhere (two decimals)."""
    return f"{int(value or 0) / 100:,.2f}"


def _bounties(type_: str, label: str, p: dict, names: Names) -> str:
    """A bounty event's money (payouts/services/bounties.py)."""
    if type_ == "bounty.won":
        awards = "; ".join(
            _("#%(winner)s %(cash)s") % {"winner": a.get("winner", "–"), "cash": _amount(a.get("cash"))}
            + (_(" (+%(kept)s on his head)") % {"kept": _amount(a.get("head_added"))} if a.get("head_added") else "")
            for a in p.get("awards") or ()
            if isinstance(a, dict)
        )
        return _("Bounty of #%(entry)s: %(awards)s") % {"entry": p.get("entry", "–"), "awards": awards or "–"}
    if type_ in ("bounty.paid", "bounty.payment_voided"):
        return _("%(who)s: %(label)s %(amount)s, bounty receipt %(receipt)s") % {
            "who": parts.who(p, names),
            "label": label.lower(),
            "amount": _amount(p.get("amount")),
            "receipt": p.get("receipt", "–"),
        }
    if type_ == "bounty.envelope_drawn":
        return _("Mystery envelope drawn for #%(entry)s: %(value)s (draw %(draw)s)") % {
            "entry": p.get("entry", "–"),
            "value": _amount(p.get("value")),
            "draw": p.get("draw", "–"),
        }
    if type_ == "bounty.envelopes_committed":
        return _("%(label)s: %(count)s envelopes, %(total)s, list hash %(hash)s") % {
            "label": label,
            "count": p.get("count", "–"),
            "total": _amount(p.get("total")),
            "hash": str(p.get("list_hash", ""))[:12],
        }
    if type_ == "bounty.settled":
        return _("%(label)s: %(voided)s taken back, %(made)s made") % {
            "label": label,
            "voided": len(p.get("voided") or ()),
            "made": len(p.get("made") or ()),
        }
    return parts.generic(label, p, names)


# Which line writes which types; of two prefixes a type starts with, the longer wins (web/event_words.py), so the
# end of play is written here, not by the tournament's "tournament." line.
LINES: tuple[tuple[tuple[str, ...], Line], ...] = (
    (("payouts.", "payout.", "deal.", "satellite.", "ticket."), _payouts),
    (("tournament.finished", "tournament.resumed"), _finished),
    (("bounty.", "bounty_rules."), _bounties),
)
