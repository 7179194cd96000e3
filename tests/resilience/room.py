"""The start of the room both resilience tests make through the services, as a script for `manage.py shell -c` in
the environment under test (a production server's, a database of the test's own): a director, a floor and a cashier;
a tournament on the tests' basic structure; eight players registered at table 1 (their documents `<code>0000000`...,
last name `<last_name>`), the start draw, a payout plan paying half the field. Each test adds what it needs after."""

from __future__ import annotations


def room_start(code: str, last_name: str) -> str:
    return f"""
from datetime import date
from pathlib import Path
from clock.services import clock
from payouts.services import structure as payouts
from tables.services import busts, draws
from tables.services import setup as tables
from tests.conftest import BASIC_SPEC, make_user, tournament_data
from tests.helpers import id_doc
from tournament.services import registration, setup
director, floor, cashier = make_user("dir", "Director"), make_user("floor", "Floor"), make_user("cash", "Cashier")
t = setup.create_tournament(tournament_data(guaranteed_pool=0), actor=director,
                            template=setup.save_structure_template(BASIC_SPEC, actor=director))
tables.open_table(t, actor=director, number=1, seats=9)
entries = [registration.register_entry(t, actor=cashier, document=id_doc(f"{code}{{i:07d}}"), player=registration.create_player(
    actor=cashier, first_name=f"P{{i}}", last_name="{last_name}", date_of_birth=date(1990, 1, 1))) for i in range(8)]
draws.draw_start(t, actor=director)
payouts.set_payout_plan(t, actor=director, data={{"share_paid_bp": 5000, "min_cash_bp": 0}})
"""
