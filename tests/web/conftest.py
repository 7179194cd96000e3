"""The web tests' fixtures."""

from __future__ import annotations

import pytest

from tests.conftest import tournament_data
from tournament.services import setup


@pytest.fixture
def side(director, template):
    """A side event of the same director and template: staff may work it and not the tournament."""
    return setup.create_tournament(tournament_data(name="Side event"), actor=director, template=template)
