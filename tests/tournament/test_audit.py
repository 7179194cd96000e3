"""The audit log: one event per state change, gap-free sequence numbers, published only after commit."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import pytest
from channels.layers import get_channel_layer
from django.db import transaction

from core import errors, groups
from tables.services import busts
from tests.conftest import BASIC_SPEC, make_user, tournament_data
from tests.helpers import id_doc
from tournament.models import AuditEvent, Entry, Purchase, Tournament
from tournament.services import purchases, registration, setup
from tournament.services.audit import lock_tournament, record_event


def tournament_events(tournament: Tournament) -> list[tuple[int, str]]:
    return list(AuditEvent.objects.filter(tournament=tournament).order_by("id").values_list("seq", "type"))


def test_every_service_call_writes_exactly_one_event_with_the_next_seq(director, cashier, floor, template, player):
    t = setup.create_tournament(
        tournament_data(rebuy_allowed=True, rebuy_price=5000, rebuy_chips=10000, addon_allowed=True, addon_price=4000, addon_chips=15000),
        actor=director,
        template=template,
    )
    other = registration.create_player(actor=cashier, first_name="Petr", last_name="Svoboda", date_of_birth=player.date_of_birth)
    state: dict = {}

    steps = [
        (
            "entry.registered",
            lambda: state.setdefault("e1", registration.register_entry(t, actor=cashier, player=player, document=id_doc())),
        ),
        (
            "entry.registered",
            lambda: state.setdefault("e2", registration.register_entry(t, actor=cashier, player=other, document=id_doc("EA7654321"))),
        ),
        (
            "rebuy.announced",
            lambda: state.setdefault("rebuy", purchases.add_chips(state["e1"], actor=floor, kind=Purchase.Kind.REBUY, paid=False)),
        ),
        ("rebuy.paid", lambda: purchases.pay_purchase(state["rebuy"], actor=cashier)),
        ("addon.paid", lambda: purchases.add_chips(state["e1"], actor=cashier, kind=Purchase.Kind.ADDON)),
        ("purchase.voided", lambda: registration.void_purchase(state["e2"].purchases.get(), actor=cashier, reason="Wrong player")),
        ("entry.busted", lambda: busts.bust_entry(state["e1"], actor=floor)),
        ("tournament.changed", lambda: setup.update_tournament(t, actor=director, data={"name": "Renamed"})),
        ("tournament.structure_changed", lambda: setup.set_tournament_structure(t, actor=director, spec=BASIC_SPEC)),
        ("registration.closed", lambda: registration.set_registration_closed(t, actor=director, closed=True)),
        ("registration.reopened", lambda: registration.set_registration_closed(t, actor=director, closed=False)),
        ("display.created", lambda: state.setdefault("token", registration.create_display_token(t, actor=director, label="Lobby TV"))),
        ("display.revoked", lambda: registration.revoke_display_token(state["token"], actor=director)),
    ]
    assert tournament_events(t) == [(1, "tournament.created")]
    for expected_type, step in steps:
        before = tournament_events(t)
        step()
        after = tournament_events(t)
        assert after[:-1] == before, expected_type
        assert after[-1] == (before[-1][0] + 1, expected_type)
        t.refresh_from_db()
        assert t.event_seq == after[-1][0]
    assert [seq for seq, _ in tournament_events(t)] == list(range(1, len(steps) + 2))


def test_refused_calls_write_no_event_and_use_no_seq(cashier, floor, tournament, player):
    entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
    before = tournament_events(tournament)
    for call in (
        lambda: registration.register_entry(tournament, actor=cashier, player=player, document=id_doc()),  # already live
        lambda: purchases.add_chips(entry, actor=cashier, kind=Purchase.Kind.REBUY),  # not allowed
        lambda: registration.void_purchase(entry.purchases.get(), actor=cashier, reason=""),  # no reason
        lambda: busts.bust_entry(entry, actor=cashier),  # not the floor's role
    ):
        with pytest.raises(errors.ServiceError):
            call()
    assert tournament_events(tournament) == before
    busts.bust_entry(entry, actor=floor)
    assert tournament_events(tournament)[-1] == (before[-1][0] + 1, "entry.busted")


def test_sequences_are_per_tournament_and_events_without_one_take_no_seq(director, cashier, template, tournament):
    second = setup.create_tournament(tournament_data(name="Second"), actor=director, template=template)
    registration.create_player(actor=cashier, first_name="A", last_name="B", date_of_birth=date(1980, 1, 1))
    setup.copy_structure(template, actor=director, name="Copy")
    assert tournament_events(tournament) == [(1, "tournament.created")]
    assert tournament_events(second) == [(1, "tournament.created")]
    assert set(AuditEvent.objects.filter(tournament=None).values_list("seq", flat=True)) == {None}
    assert set(AuditEvent.objects.filter(tournament=None).values_list("type", flat=True)) == {
        "structure.created",
        "player.created",
        "structure.copied",
    }


def test_calls_without_a_tournament_write_one_event_each(director, cashier, template):
    calls = [
        ("structure.created", lambda: setup.save_structure_template(BASIC_SPEC, actor=director)),
        ("structure.changed", lambda: setup.save_structure_template(BASIC_SPEC, actor=director, structure=template)),
        ("structure.copied", lambda: setup.copy_structure(template, actor=director, name="Copy")),
        ("structure.imported", lambda: setup.import_structure(setup.export_structure(template), actor=director)),
        (
            "player.created",
            lambda: registration.create_player(actor=cashier, first_name="A", last_name="B", date_of_birth=date(1980, 1, 1)),
        ),
    ]
    for expected_type, call in calls:
        before = AuditEvent.objects.count()
        result = call()
        new = list(AuditEvent.objects.order_by("id")[before:])
        assert [(e.type, e.seq, e.tournament_id) for e in new] == [(expected_type, None, None)]
        key = "player" if expected_type == "player.created" else "structure"
        assert new[0].payload[key] == result.pk


def test_events_record_who_did_it(cashier, tournament, player):
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
    event = AuditEvent.objects.get(type="entry.registered")
    assert event.actor == cashier and event.actor_label == "cash" and event.at is not None


@pytest.mark.django_db(transaction=True)
def test_record_event_outside_a_transaction_raises(director, template):
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    with pytest.raises(RuntimeError, match="atomic"):
        record_event(tournament, type_="test.outside", payload={})
    with pytest.raises(RuntimeError):
        record_event(None, type_="test.outside", payload={})
    assert not AuditEvent.objects.filter(type="test.outside").exists()
    with transaction.atomic():
        record_event(lock_tournament(tournament.pk), actor="system", type_="test.inside", payload={})
    assert AuditEvent.objects.get(type="test.inside").seq == 2


# --- publishing after commit ------------------------------------------------------------------


class Listener:
    """A channel in the in-memory layer that joins a group, as a consumer would."""

    def __init__(self, group: str) -> None:
        self.layer = get_channel_layer()
        self.loop = asyncio.new_event_loop()
        self.channel = self.loop.run_until_complete(self.layer.new_channel())
        self.loop.run_until_complete(self.layer.group_add(group, self.channel))

    def receive(self, timeout: float = 2.0) -> dict:
        return self.loop.run_until_complete(asyncio.wait_for(self.layer.receive(self.channel), timeout))

    def assert_nothing(self) -> None:
        with pytest.raises(asyncio.TimeoutError):
            self.receive(timeout=0.1)

    def close(self) -> None:
        self.loop.close()


@pytest.fixture
def in_memory_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return get_channel_layer()


@pytest.fixture
def listeners(in_memory_layer):
    made = []

    def listen(group: str) -> Listener:
        listener = Listener(group)
        made.append(listener)
        return listener

    yield listen
    for listener in made:
        listener.close()


@pytest.mark.django_db(transaction=True)
def test_events_are_published_after_commit_only(director, template, listeners):
    cashier = make_user("cash", "Cashier")
    floor = make_user("floor", "Floor")
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    player = registration.create_player(actor=cashier, first_name="Jana", last_name="Nováková", date_of_birth=date(1990, 5, 17))
    staff = listeners(groups.floor(tournament.pk))
    lobby = listeners(groups.lobby(tournament.pk))

    with transaction.atomic():
        entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
        staff.assert_nothing()  # the change is not committed yet
        lobby.assert_nothing()
    message = staff.receive()
    assert message["type"] == "push"
    data = message["data"]
    assert (data["kind"], data["seq"], data["event"]["type"]) == ("event", 2, "entry.registered")
    assert data["event"]["payload"]["entry"] == entry.number and data["stats"]["players_left"] == 1
    lobby_message = lobby.receive()["data"]
    assert (lobby_message["seq"], lobby_message["type"], lobby_message["stats"]["players_left"]) == (2, "entry.registered", 1)

    # A change rolled back is never published, and its sequence number is not used up.
    class Abandon(Exception):
        pass

    with pytest.raises(Abandon):
        with transaction.atomic():
            busts.bust_entry(entry, actor=floor)
            raise Abandon
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.ACTIVE
    staff.assert_nothing()
    lobby.assert_nothing()
    registration.set_registration_closed(tournament, actor=director, closed=True)
    data = staff.receive()["data"]
    assert (data["seq"], data["event"]["type"]) == (3, "registration.closed")
    assert lobby.receive()["data"]["seq"] == 3
    staff.assert_nothing()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_message_has_no_player_names_or_documents(director, template, listeners):
    cashier = make_user("cash", "Cashier")
    floor = make_user("floor", "Floor")
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    player = registration.create_player(
        actor=cashier, first_name="Zuzana", last_name="Kováčová", date_of_birth=date(1990, 5, 17), nickname="Zuzka"
    )
    staff = listeners(groups.floor(tournament.pk))
    lobby = listeners(groups.lobby(tournament.pk))
    entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("SK-ZK5551234"))
    busts.bust_entry(entry, actor=floor)
    staff_texts = [json.dumps(staff.receive(), ensure_ascii=False) for _ in range(2)]
    lobby_texts = [json.dumps(lobby.receive(), ensure_ascii=False) for _ in range(2)]
    assert "Zuzana" in staff_texts[0]  # the floor sees who it is; the lobby does not
    for text in lobby_texts:
        for private in ("Zuzana", "Kováčová", "Zuzka", "id_check", "last4", "payload", '"name"'):
            assert private not in text, private
    assert [json.loads(text)["data"]["type"] for text in lobby_texts] == ["entry.registered", "entry.busted"]
    for text in staff_texts:
        assert "ZK5551234" not in text
