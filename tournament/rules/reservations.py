"""Reservations from the players' phones, as rules (no Django): a player reserves a place before a tournament with his
name and a contact, and the desk claims it with his ID checked and his buy-in taken.

- **Open.** Only where the house allows them (a cap above 0), before the tournament starts (its start time, or its
  start draw or clock earlier) (`refusal`).
- **The cap.** The places held and claimed never pass the house's cap; one held reservation per contact; a phone makes
  at most `per_device`, an address (a room's Wi-Fi behind one NAT) at most `per_address`.
- **Expiry.** A reservation not claimed by the house's time (the start time unless it sets another) expires, and its
  place goes to the next player (`expires_at`).
- **The place.** A reservation made while places are free holds one like an entry: the tournament is full sooner, and
  the desk's claim takes the place it held. Made while the tournament is sold out, it holds none: the desk's claim puts
  the player on the waiting list (his ID checked there, as for anyone joining it).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from random import Random

HELD, CLAIMED, EXPIRED, CANCELLED = "held", "claimed", "expired", "cancelled"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud at a desk
CODE_LENGTH = 8
NAME_MAX = 120
CONTACT_MAX = 120
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]{2,}$")


class ReservationError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Rules:
    """The house's settings: how many places may be reserved (0: none), when the unclaimed ones expire (None: at the
    start), the tournament's start, and how many one phone and one address may make."""

    cap: int
    until: datetime | None
    start_at: datetime
    per_device: int = 2
    per_address: int = 30


def expires_at(rules: Rules) -> datetime:
    """When an unclaimed reservation expires."""
    return rules.until or rules.start_at


def clean_name(name: str) -> str:
    """The name as the desk will read it: trimmed, single spaces, with a letter in it."""
    name = " ".join((name or "").split())
    if not name or not any(ch.isalpha() for ch in name):
        raise ReservationError("name_missing", "Give your first and last name.")
    if len(name) > NAME_MAX:
        raise ReservationError("name_long", f"The name is too long: at most {NAME_MAX} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ReservationError("name_bad", "The name has characters that are not letters.")
    return name


def clean_contact(contact: str) -> tuple[str, str]:
    """(as given, trimmed; its folded key) for a phone number or an e-mail address; anything else is refused. Two ways of
    writing one number (+420 777 123 456, +420777123456) fold to one key."""
    shown = " ".join((contact or "").split())
    if not shown:
        raise ReservationError("contact_missing", "Give a phone number or an e-mail address.")
    if len(shown) > CONTACT_MAX:
        raise ReservationError("contact_long", f"The contact is too long: at most {CONTACT_MAX} characters.")
    if "@" in shown:
        if not EMAIL.match(shown):
            raise ReservationError("contact_bad", "This is not an e-mail address.")
        return shown, shown.lower()
    digits = re.sub(r"[\s().-]", "", shown)
    if not re.fullmatch(r"\+?\d{6,15}", digits):
        raise ReservationError("contact_bad", "This is neither a phone number nor an e-mail address.")
    return shown, digits.lstrip("+").lstrip("0") or digits


def new_code(rng: Random) -> str:
    """A code for the player's link: 8 characters of an alphabet read aloud without doubt (31**8, about 8.5e11)."""
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def refusal(
    rules: Rules,
    *,
    now: datetime,
    started: bool,
    closed: bool,
    taken: int,
    by_device: int,
    by_address: int,
) -> str | None:
    """Why a new reservation is refused, or None. `taken`: the reservations held and claimed; `by_device`,
    `by_address`: those the phone and its address made (any state but cancelled)."""
    if rules.cap <= 0:
        return "reservations_off"
    if started or closed or now >= rules.start_at or now >= expires_at(rules):
        return "reservations_closed"
    if taken >= rules.cap:
        return "reservation_cap"
    if by_device >= rules.per_device:
        return "device_limit"
    if by_address >= rules.per_address:
        return "address_limit"
    return None


def due(rules: Rules, now: datetime) -> bool:
    """Whether the held reservations expire now."""
    return now >= expires_at(rules)
