"""A tournament in one file: a night played to the money and paid (bench/night.py's night, with a
lobby screen, a dealer link, a chip count, a seat request and a user made during the night) is exported; the night is
then rolled back, so the database holds what it held before it (another tournament, not the night), and the file is
imported there: exported again, the file is the same but for its time, its checksum and the import's own event; the
clock shows the same time left; every key held inside a value points at the new rows. The commands do the same into an
empty database of another server (a subprocess, a fresh SQLite file). A damaged, cut, changed or doubled file, and a
file of another ID hash key, are refused with nothing written."""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings as conf
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from archive.selectors import schema
from archive.selectors.export import export_tournament, file_text
from archive.services.transfer import import_tournament, read_file
from bench.night import Night
from clock.selectors.clock import clock_snapshot
from core.errors import ServiceError
from leagues.services import leagues
from tables.models import DealerLink, Table
from tables.services import counting, dealer_links, draws, penalties, seats
from tables.services import setup as table_setup
from tests.conftest import BASIC_SPEC, tournament_data
from tests.helpers import id_doc, row_counts
from tests.test_whole_night import check_night
from tournament.models import AuditEvent, DisplayToken, Entry, Player, Tournament
from tournament.services import registration, setup

ROOT = Path(__file__).resolve().parents[2]
ACTOR = "test import"


class ArchivedNight(Night):
    """bench/night.py's night, with what it does not do itself: a lobby screen, a dealer link, a chip count, a seat
    request, and a penalty given by a user made during the night (so the file names a user the target lacks)."""

    def setup(self) -> None:
        super().setup()
        d, f = self.staff["director"], self.staff["floor"]
        registration.create_display_token(self.t, actor=d, label="Lobby TV")
        table = Table.objects.filter(tournament=self.t).order_by("number").first()
        dealer_links.create_dealer_link(table, actor=f, label="Table 1 tablet")
        first, second = Entry.objects.filter(tournament=self.t).order_by("number")[:2]
        counting.record_player_count(self.t, actor=f, entry_number=first.number, chips=25_000)
        seats.set_seat_request(self.t, actor=f, player=second.player, accessible=True, note="Wheelchair")
        extra = User.objects.create_user("archive-extra-floor")
        extra.groups.add(Group.objects.get(name="Floor"))
        penalties.give_penalty(self.t, actor=extra, entry_number=first.number, kind="warning", rounds=None, reason="Language")
        league = leagues.create_league(actor=d, data={"name": "Season", "formula": "linear"})  # its points at the end
        leagues.add_tournament(league, actor=d, tournament=self.t)


def other_tournament(staff: dict) -> None:
    """A tournament the database holds before the night and keeps: the import goes into a database that is not empty."""
    d, c = staff["director"], staff["cashier"]
    t = setup.create_tournament(tournament_data(name="Other"), actor=d, template=setup.save_structure_template(BASIC_SPEC, actor=d))
    for number in (31, 32):  # the venue's other tables: the night opens 1 and up
        table_setup.open_table(t, actor=d, number=number, seats=9)
    for i in range(5):
        player = registration.create_player(actor=c, first_name=f"O{i}", last_name="Other", date_of_birth=date(1985, 1, 1))
        registration.register_entry(t, actor=c, player=player, document=id_doc(f"OT{i:07d}"))
    registration.create_display_token(t, actor=d, label="Other TV")


@dataclass
class Played:
    document: dict
    at: object  # an instant after the export
    clock: dict  # the original's clock snapshot at that instant
    documents: dict[int, str]  # entry number -> the document number it registered with
    staff: dict


@pytest.fixture(scope="module")
def played(module_db) -> Played:
    night = ArchivedNight(27, 5)  # its staff stay for every test; the night itself is rolled back
    other_tournament(night.staff)  # and another tournament, so the night's keys are not its rows' positions
    seeds = random.Random(5)  # the same night on every run: seeded draws, every hand start a new hand
    with (
        transaction.atomic(),
        override_settings(HAND_START_REPEAT_SECONDS=0),
        mock.patch.object(draws.secrets, "token_bytes", lambda n: seeds.randbytes(n)),
    ):
        night.play()
        t = Tournament.objects.get(pk=night.t.pk)
        document = export_tournament(t)
        at = timezone.now() + timedelta(minutes=7)
        clock = clock_snapshot(t, now=at)
        documents = {e.number: night.documents[e.player_id] for e in Entry.objects.filter(tournament=t)}
        transaction.set_rollback(True)
    assert not Tournament.objects.filter(uid=document["tournament"]["uid"]).exists()
    return Played(document, at, clock, documents, night.staff)


def rows(document: dict, name: str) -> list[dict]:
    part = document["rows"][name]
    return [dict(zip(part["fields"], row, strict=True)) for row in part["rows"]]


def as_exported(again: dict, first: dict, actor: str = ACTOR) -> dict:
    """A file exported after the import, as the first one was: without its time, its checksum and the import's own
    event (the last, with the next sequence), and the tournament's sequences as they were."""
    again, first = copy.deepcopy(again), copy.deepcopy(first)
    events = again["rows"]["tournament.auditevent"]
    last = dict(zip(events["fields"], events["rows"].pop(), strict=True))
    assert last["type"] == "tournament.imported" and last["actor_label"] == actor
    t_first, t_again = rows(first, schema.TOURNAMENT)[0], rows(again, schema.TOURNAMENT)[0]
    assert last["seq"] == t_again["event_seq"] == t_again["seats_seq"] == t_first["event_seq"] + 1
    part = again["rows"][schema.TOURNAMENT]
    for name in ("event_seq", "seats_seq"):
        part["rows"][0][part["fields"].index(name)] = t_first[name]
    again["tournament"]["events"] = first["tournament"]["events"]
    draws_mine, draws_theirs = again["rows"][schema.PENDING_DRAW], first["rows"][schema.PENDING_DRAW]
    for row, was in zip(draws_mine["rows"], draws_theirs["rows"], strict=True):
        drawn = dict(zip(draws_mine["fields"], row, strict=True))
        if drawn["drawn_at"] is None:  # the draw not yet drawn: its seed never in a file, a new one committed here
            assert drawn["seed"] == "" and drawn["commitment"] != dict(zip(draws_theirs["fields"], was, strict=True))["commitment"]
            for name in ("commitment", "committed_at"):
                row[draws_mine["fields"].index(name)] = was[draws_theirs["fields"].index(name)]
    for name in schema.REVOKED:  # the file's live links came in revoked: a file never brings a working link
        mine, theirs = again["rows"][name], first["rows"][name]
        column = mine["fields"].index("revoked_at")
        assert all(row[column] is not None for row in mine["rows"])
        for row, was in zip(mine["rows"], theirs["rows"], strict=True):
            row[column] = was[column]
    for document in (again, first):
        del document["exported_at"], document["checksum"]
    return again


# --- the round trip -----------------------------------------------------------------------------------------


def test_a_night_exported_imported_where_it_is_not_and_exported_again_is_the_same_file(db, played):
    first = played.document
    assert first["format"] == "poker-tournament/1" and first["id_hash_key"] == schema.fingerprint(conf.ID_HASH_KEY)
    assert first["checksum"] == schema.checksum(first)
    t_row = rows(first, schema.TOURNAMENT)[0]
    assert all(
        rows(first, name)
        for name in (
            "tournament.entry",
            "tables.seat",
            "tables.move",
            "tables.draw",
            "tables.colorup",
            "tables.chiprace",
            "tables.penalty",
            "payouts.payment",
            "payouts.deal",
            "tables.handforhand",
            "clock.clockstate",
        )
    )
    assert len(rows(first, "tournament.auditevent")) == t_row["event_seq"]  # the whole log, with its sequence

    other = Tournament.objects.get(name="Other")
    t = import_tournament(read_file(file_text(first).encode()), actor=ACTOR)
    assert t.pk != other.pk and Entry.objects.filter(tournament=other).count() == 5

    again = export_tournament(t)
    assert schema.canonical(as_exported(again, first)) == schema.canonical(
        {k: v for k, v in first.items() if k not in ("exported_at", "checksum")}
    )
    # The clock shows the same time left at the same instant (stopped where play ended: the anchor travelled as it was).
    mine = clock_snapshot(t, now=played.at)
    assert mine == played.clock and mine["status"] == "paused"
    check_night(t)  # every invariant of a night holds for the imported tournament
    report = t.import_report
    assert report["users_new"] == ["archive-extra-floor"] and report["players_found"] == 0
    assert report["players_new"] == t.entries.values("player").distinct().count()
    extra = User.objects.get(username="archive-extra-floor")
    assert not extra.is_active and not extra.has_usable_password() and not extra.groups.exists()
    assert User.objects.filter(username__startswith="night-").count() == 4  # the staff here are the staff of the file


def test_the_keys_inside_values_point_at_the_new_rows(db, played):
    t = import_tournament(copy.deepcopy(played.document), actor=ACTOR)
    entries = {e.number: e for e in Entry.objects.filter(tournament=t)}
    registered = AuditEvent.objects.filter(tournament=t, type="entry.registered")
    assert registered.count() == len(entries)
    for event in registered:
        entry = entries[event.payload["entry"]]
        assert event.payload["entry_id"] == entry.pk and event.payload["player"] == entry.player_id
    tables = set(Table.objects.filter(tournament=t).values_list("pk", flat=True))
    hands = [e.bust_hand for e in entries.values() if e.bust_hand.startswith("table:")]
    assert hands and all(int(hand.split(":")[1]) in tables for hand in hands)
    display = AuditEvent.objects.get(tournament=t, type="display.created")
    assert display.payload["display"] == DisplayToken.objects.get(tournament=t).pk
    link = AuditEvent.objects.get(tournament=t, type="table.dealer_link_created")
    assert link.payload["link"] == DealerLink.objects.get(table__tournament=t).pk
    request = AuditEvent.objects.get(tournament=t, type="seat_request.set")
    assert request.payload["player"] == t.seat_requests.get().player_id == entries[2].player_id
    # The league is not in the file: its key goes; the players given points are this database's.
    assert AuditEvent.objects.get(tournament=t, type="league.joined").payload["league"] is None
    given = AuditEvent.objects.filter(tournament=t, type="league.points").order_by("seq").last().payload["given"]
    assert {row[0] for row in given} == {e.player_id for e in entries.values()}


def test_the_paid_prizes_keep_their_signature_and_the_id_checks_stay_usable_with_the_same_key(db, played):
    t = import_tournament(copy.deepcopy(played.document), actor=ACTOR)
    paid = list(t.payments.filter(status="paid").select_related("entry", "id_check"))
    assert paid and all(bytes(p.signature).startswith(b"\x89PNG") for p in paid)
    assert all(p.id_check.number_hmac == p.entry.id_hmac for p in paid)
    winner = paid[0].entry
    check = registration.check_id_again(
        winner,
        actor=played.staff["cashier"],
        document=registration.IdDocument(document_type="id_card", number=played.documents[winner.number]),
    )
    assert check.number_hmac == winner.id_hmac


def test_a_player_here_already_is_found_by_his_id_hash(db, played):
    first = rows(played.document, schema.PLAYER)[0]
    here = Player.objects.create(first_name="Same", last_name="Person", date_of_birth="1980-01-01", id_hmac=first["id_hmac"])
    t = import_tournament(copy.deepcopy(played.document), actor=ACTOR)
    assert t.import_report["players_found"] == 1
    assert Entry.objects.filter(tournament=t, player=here).exists()
    assert Player.objects.filter(id_hmac=first["id_hmac"]).count() == 1


# --- refused, with nothing written ------------------------------------------------------------------------------


def import_refused(data, code: str, **kwargs) -> ServiceError:
    before = row_counts()
    with pytest.raises(ServiceError) as caught:
        import_tournament(read_file(data) if isinstance(data, bytes) else data, actor=ACTOR, **kwargs)
    assert caught.value.code == code, caught.value.message
    assert row_counts() == before
    return caught.value


def test_a_changed_file_is_refused(db, played):
    changed = copy.deepcopy(played.document)
    payments = changed["rows"]["payouts.payment"]
    payments["rows"][0][payments["fields"].index("amount")] += 100_000  # a bigger prize, the checksum left as it was
    assert "changed or damaged" in import_refused(changed, "checksum").message


def test_a_cut_file_is_refused(db, played, tmp_path):
    text = file_text(played.document).encode()
    for cut in (text[: len(text) // 2], text[: text.rindex(b"\n[")], text[:-3], b"", b"\xff\xfe"):
        assert "not valid JSON" in import_refused(cut, "not_json").message
    path = tmp_path / "cut.json"
    path.write_bytes(text[: len(text) // 3])
    before = row_counts()
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_tournament", str(path))
    assert row_counts() == before


def test_a_file_of_another_format_or_with_fields_this_version_does_not_know_is_refused(db, played):
    other = copy.deepcopy(played.document)
    other["format"] = "poker-tournament/2"
    other["checksum"] = schema.checksum(other)
    assert "poker-tournament/2" in import_refused(other, "format").message
    newer = copy.deepcopy(played.document)
    part = newer["rows"]["tournament.entry"]
    part["fields"].append("colour")
    for row in part["rows"]:
        row.append("red")
    newer["checksum"] = schema.checksum(newer)
    assert "tournament.entry.colour" in import_refused(newer, "rows").message
    forged = copy.deepcopy(played.document)  # the checksum made again over a row that points nowhere
    seats_part = forged["rows"]["tables.seat"]
    seats_part["rows"][0][seats_part["fields"].index("entry")] = 99_999
    forged["checksum"] = schema.checksum(forged)
    import_refused(forged, "rows")


def test_a_file_of_an_older_version_without_a_field_that_has_a_default_takes_the_default(db, played):
    t = import_tournament(without_field(played.document, "payouts.payoutplan", "unit"), actor=ACTOR)
    assert t.payout_plan.unit == 100
    lacking = without_field(played.document, "tournament.entry", "number")  # no default: it cannot be made up
    assert "tournament.entry.number" in import_refused(lacking, "rows").message


def without_field(document: dict, model: str, field: str) -> dict:
    """A copy of the file as an older version wrote it, without one column of a model (its checksum made again)."""
    older = copy.deepcopy(document)
    part = older["rows"][model]
    column = part["fields"].index(field)
    part["fields"].pop(column)
    for row in part["rows"]:
        row.pop(column)
    older["checksum"] = schema.checksum(older)
    return older


def test_a_tournament_imported_twice_is_refused_the_second_time(db, played, tmp_path):
    path = tmp_path / "night.json"
    path.write_text(file_text(played.document), encoding="utf-8")
    call_command("import_tournament", str(path))
    t = Tournament.objects.get(uid=played.document["tournament"]["uid"])
    before = row_counts()
    with pytest.raises(CommandError, match=f"here already: “{re.escape(t.name)}” \\(tournament {t.pk}\\)"):
        call_command("import_tournament", str(path))
    assert row_counts() == before
    import_refused(copy.deepcopy(played.document), "already_here")


def test_a_file_of_another_id_hash_key_is_refused_unless_taken_knowingly_and_its_id_checks_cannot_be_verified(
    db, played, settings, tmp_path
):
    settings.ID_HASH_KEY = "another room's key"
    message = import_refused(copy.deepcopy(played.document), "other_id_hash_key").message
    assert played.document["id_hash_key"] in message and schema.fingerprint("another room's key") in message
    path = tmp_path / "night.json"
    path.write_text(file_text(played.document), encoding="utf-8")
    before = row_counts()
    with pytest.raises(CommandError, match="another ID hash key.*--other-id-key"):
        call_command("import_tournament", str(path))
    assert row_counts() == before
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--other-id-key", stdout=out, stderr=err)
    assert "cannot be verified here" in err.getvalue() and played.document["id_hash_key"] in err.getvalue()
    t = Tournament.objects.get(uid=played.document["tournament"]["uid"])
    event = AuditEvent.objects.get(tournament=t, type="tournament.imported")
    assert event.seq == t.event_seq and event.payload["id_checks_verifiable"] is False
    assert event.payload["id_hash_key"] == played.document["id_hash_key"] and event.payload["players_found"] == 0
    first = rows(played.document, schema.PLAYER)[0]
    assert Player.objects.filter(id_hmac=first["id_hmac"]).count() == 1  # the hashes kept as they were
    entry = Entry.objects.filter(tournament=t).order_by("number").first()
    with pytest.raises(ServiceError) as caught:  # the very document it registered with no longer matches
        registration.check_id_again(
            entry,
            actor=played.staff["cashier"],
            document=registration.IdDocument(document_type="id_card", number=played.documents[entry.number]),
        )
    assert caught.value.code == "id_mismatch"


# --- the commands, as on another server ----------------------------------------------------------------------------


def manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.deep
def test_the_commands_move_the_file_into_an_empty_database_of_another_server(db, played, tmp_path, settings):
    """The real use: export_tournament's file, import_tournament on another server with a database of its own (a
    fresh SQLite file, migrated there), export_tournament there again: the same file."""
    source = tmp_path / "night.json"
    source.write_text(file_text(played.document), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"SQLITE_PATH": str(tmp_path / "other.sqlite3"), "DEBUG": "1", "ID_HASH_KEY": settings.ID_HASH_KEY})
    manage("migrate", "--no-input", "-v", "0", env=env)
    done = manage("import_tournament", str(source), env=env)
    number = re.search(r"as tournament (\d+):", done.stdout).group(1)
    assert "archive-extra-floor" in done.stdout
    manage("export_tournament", number, "-o", str(tmp_path / "again.json"), env=env)
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert again["checksum"] == schema.checksum(again)
    assert schema.canonical(as_exported(again, played.document, "import_tournament")) == schema.canonical(
        {k: v for k, v in played.document.items() if k not in ("exported_at", "checksum")}
    )
