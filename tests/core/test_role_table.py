"""One role check: the sets the services check again (core/roles.py) say what the table of who
reaches what (core/access.py) says for the API operations that call those services, and no template asks
about a role by its name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core import access, roles
from tests.apps import SERVICE_PACKAGES

# Each set the services require, and the API operations whose services require it.
USED_BY = {
    "SETUP": [
        "api-tournaments:POST",
        "api-tournament:PATCH",
        "api-structures:POST",
        "api-structure:PUT",
        "api-registration:POST",
        "api-clock:POST",
        "api-tables:POST",
        "api-table-in-play:POST",
        "api-tables-break-order:PUT",
        "api-hand-for-hand:POST",
        "api-house-rules:PATCH",
        "api-color-ups:POST",
        "api-payout-plan:PATCH",
        "api-payout-structure:PUT",
        "api-deal-approve:POST",
        "api-draw-start:POST",
        "api-sit-and-go:POST",
    ],
    "VENUE": [
        "api-venues:POST",
        "api-venue:PATCH",
        "api-venue-tables:POST",
        "api-venue-table:PATCH",
        "api-venue-table:DELETE",
        "api-venue-import:POST",
        "api-venue-tournaments:POST",
        "api-venue-displays:POST",
        "api-venue-display-revoke:POST",
        "api-venue-printing:PATCH",
    ],
    "PRINT": ["api-receipt-print:POST", "api-payment-print:POST", "api-bounty-payment-print:POST", "api-seat-ticket-print:POST"],
    "PRINT_SLIPS": ["api-bag-slip-print:POST"],
    "ROOM": [
        "api-venue-table-state:POST",
        "api-venue-table-reservation:POST",
        "api-venue-table-reservation:DELETE",
        "api-venue-table-hand:POST",
    ],
    "REGISTER": ["api-entries:POST", "api-players:POST"],
    "CASH": ["api-receipt-pay:POST", "api-entry-rebuy:POST", "api-entry-addon:POST"],
    "VOID": ["api-receipt-void:POST"],
    "BUST": ["api-entry-bust:POST", "api-entry-undo-bust:POST", "api-bust-report-confirm:POST", "api-bust-report-reject:POST"],
    "BUST_REPORT": ["api-table-bust:POST"],
    "DISPLAYS": ["api-displays:POST", "api-display-revoke:POST"],
    "DEALER_LINKS": ["api-table-dealer-links:POST", "api-dealer-link-revoke:POST"],
    "DEALING": ["api-table-hand:POST", "api-table-hand:DELETE"],
    "REPORTING": ["api-table-hand-done:POST", "api-table-race:POST", "api-table-race-confirm:POST", "api-table-race-cards:POST"],
    "SEATING": [
        "api-entry-seat:POST",
        "api-table-button:POST",
        "api-table-positions:POST",
        "api-draw-commit:POST",
        "api-seat-waiting:POST",
        "api-seat-request:POST",
        "api-seat-request:DELETE",
    ],
    "MOVING": ["api-moves-balance:POST", "api-move-confirm:POST", "api-move-cancel:POST", "api-found-chips:POST"],
    "PENALTIES": ["api-penalties:POST", "api-penalty-cancel:POST"],
    "COUNTING": ["api-table-counts:POST"],
    "COUNT_ONE": ["api-entry-count:POST"],
    "CLOCK_CALLS": ["api-table-clock-call:POST", "api-table-clock-call-end:POST"],
    "BAGGING": ["api-table-bags:POST"],
    "BAG_ONE": ["api-entry-bag:POST"],
    "CLOSE_DAY": ["api-day-close:POST"],
    "FLIGHTS": [
        "api-flight-events:POST",
        "api-flight-event-settings:PATCH",
        "api-flight-event-flights:POST",
        "api-flight-event-day2:POST",
        "api-flight-end:POST",
        "api-flight-carry:POST",
    ],
    "PAY": ["api-entry-payout:POST", "api-payment-void:POST"],
    "DEAL_PROPOSE": ["api-deals:POST", "api-deal-reject:POST"],
}
ROOT = Path(__file__).resolve().parents[2]


def service_sets() -> dict[str, tuple[str, ...]]:
    return {
        name: value
        for name, value in vars(roles).items()
        if name.isupper() and isinstance(value, tuple) and value and set(value) <= set(roles.ALL_ROLES) and name != "ALL_ROLES"
    }


@pytest.mark.parametrize(("name", "operation"), [(n, op) for n, ops in USED_BY.items() for op in ops])
def test_a_services_role_set_is_the_tables(name, operation):
    assert set(access.staff_roles(access.who(operation))) == {roles.DIRECTOR, *getattr(roles, name)}, operation


def test_every_role_set_of_the_services_is_held_to_the_table():
    assert set(service_sets()) == set(USED_BY), "a set the services check is mapped to its API operations here"


def test_every_service_that_checks_a_role_uses_a_set_of_the_table():
    used = set()
    for path in [path for package in SERVICE_PACKAGES for path in ROOT.glob(f"{package}/*.py")]:
        used |= set(re.findall(r"require\(\w+, roles\.([A-Z_]+)", path.read_text()))
    assert used <= set(USED_BY), used - set(USED_BY)


def test_no_template_asks_about_a_role_by_its_name():
    """Templates ask access.may ({% if user|may:"register" %}); a role's name in a template would be a
    second table."""
    found = [
        f"{path.relative_to(ROOT)}: {hit}"
        for path in (ROOT / "templates").rglob("*.html")
        for hit in re.findall(r'\{% *(?:el)?if [^%]*("(?:Director|Floor|Cashier|Dealer)"|my_roles|is_director)[^%]*%\}', path.read_text())
    ]
    assert found == []


def test_may_answers_from_the_table(director, floor, cashier, dealer):
    assert access.may(floor, "floor-map") and not access.may(cashier, "floor-map")
    assert access.may(cashier, "api-receipt-void:POST") and not access.may(floor, "api-receipt-void:POST")
    assert access.may(director, "api-receipt-void:POST") and access.may(None, "seat-page")
    assert not access.may(None, "register") and not access.may(dealer, "register")
    with pytest.raises(KeyError):
        access.may(director, "no-such-page")
