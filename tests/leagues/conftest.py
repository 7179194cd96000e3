"""The players of the leagues' tests: A to F, who play every tournament of a season."""

from __future__ import annotations

from datetime import date

import pytest

from tournament.services import registration

PLAYERS = "ABCDEF"


@pytest.fixture
def people(cashier):
    return {
        name: registration.create_player(actor=cashier, first_name=name, last_name="Hráč", date_of_birth=date(1980, 1, 1))
        for name in PLAYERS
    }
