"""The desk's paper and its roll printer (docs/printing.md): the house setting of a venue (`set_printing`), and a
paper printed with one press on the venue's network ESC/POS printer (`print_paper`).

A print changes nothing but the audit log: the bytes go to the printer first, outside any transaction (a printer that
does not answer holds no lock for its seconds of timeout), and only once it has confirmed them is the print recorded.
A printer that refuses, does not answer or is offline is a 503 in words, and nothing is recorded: the receipt, the
payment, everything stays as it was, and it can be printed again."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core import roles, roll_printer
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.models import Tournament
from tournament.services.audit import lock_tournament, record_event
from venues.models import Venue
from venues.selectors.printing import PAPERS, ROLLS, printing, roll_for
from venues.services.setup import venue_event

# The papers the desk prints on the roll, and who may print each (the roles of its page, core/access.py).
WHO_PRINTS = {
    "receipt": roles.PRINT,
    "payout-receipt": roles.PRINT,
    "bounty-receipt": roles.PRINT,
    "seat-ticket": roles.PRINT,
    "bag-slip": roles.PRINT_SLIPS,
}


@transaction.atomic
def set_printing(venue: Venue, *, actor: Actor, paper: str | None = None, printer: str | None = None) -> Venue:
    """The house's paper (A4, 80 mm or 58 mm roll) and its roll printer ("host:port", port 9100 by default; "" for
    none). What is left out stays."""
    require(actor, roles.VENUE)
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    if paper is not None:
        if paper not in PAPERS:
            raise ServiceError(_("The paper is A4 (“a4”), an 80 mm roll (“80”) or a 58 mm roll (“58”)."), code="paper")
        venue.paper = paper
    if printer is not None:
        address = printer.strip()
        if address:
            try:
                host, port = roll_printer.parse_address(address)
            except ValueError:
                raise ServiceError(
                    _("The printer's address is its host and port, as 10.0.0.5:9100 (the port is 9100 when left out)."),
                    code="printer_address",
                ) from None
            address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        venue.printer = address
    venue.save(update_fields=["paper", "printer"])
    venue_event(venue, actor=actor, type_="venue.printing", payload={"paper": venue.paper, "printer": venue.printer})
    return venue


def print_paper(
    tournament: Tournament,
    *,
    actor: Actor,
    paper: str,
    number: int,
    blocks: Sequence[tuple],
    roll: str | None = None,
    day: int | None = None,
) -> dict:
    """One paper of this tournament (`paper`: a receipt, a payout or bounty receipt, a seat ticket, a bag slip; its
    receipt or entry number) on the venue's roll printer, 80 or 58 mm (the house's roll unless `roll` says), then the
    print recorded. 409 when the room has no printer; 503 when the printer did not take it (nothing recorded)."""
    require(actor, WHO_PRINTS.get(paper, roles.PRINT))
    if paper not in WHO_PRINTS:
        raise ServiceError(_("Not a paper the roll printer prints."), code="paper")
    house = printing(tournament)
    if not house["printer"]:
        raise ServiceError(
            _("This room has no roll printer: set its address on the venue's page, or print on paper."), code="no_printer", status=409
        )
    if roll is not None and roll not in ROLLS:
        raise ServiceError(_("The roll printer prints on an 80 mm (“80”) or a 58 mm (“58”) roll."), code="roll")
    roll = roll or roll_for(house["paper"])
    data = roll_printer.render(blocks, roll)
    try:
        roll_printer.send(house["printer"], data)
    except roll_printer.PrinterError as problem:
        facts = {"printer": house["printer"], "reason": problem.reason}
        if problem.sent:
            message = _(
                "The printer at %(printer)s did not confirm the print: %(reason)s; nothing was lost, look at the roll and "
                "print it again or on paper if it is not there."
            )
        else:
            message = _("The printer at %(printer)s did not answer: %(reason)s; nothing was lost, print it again or on paper.")
        raise ServiceError(message % facts, code="printer_offline" if problem.offline else "printer_unreachable", status=503) from None
    facts = {"paper": paper, "number": number, "printer": house["printer"], "roll": roll, **({"day": day} if day else {})}
    with transaction.atomic():
        t = lock_tournament(tournament.pk)
        record_event(t, actor=actor, type_="venue.printed", payload=facts, stats=False, seats=False)
    return {**facts, "bytes": len(data)}
