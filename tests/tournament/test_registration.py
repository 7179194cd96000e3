from datetime import date

import pytest

from tests.conftest import id_doc
from tournament import services
from tournament.models import AuditEvent, Entry, Purchase


def test_registration_refused_without_id_check(cashier, tournament, player):
    with pytest.raises(services.ServiceError) as err:
        services.register_entry(cashier, tournament, player, None)
    assert err.value.code == "id_check_missing"
    assert "ID" in err.value.message
    with pytest.raises(services.ServiceError):
        services.register_entry(cashier, tournament, player, services.IdDocument("id_card", "  "))
    assert not Entry.objects.exists()
    assert not AuditEvent.objects.filter(type="entry.registered").exists()


def test_registration_with_id_check_records_everything(cashier, tournament, player):
    entry = services.register_entry(cashier, tournament, player, id_doc("EA 123-4567"))
    assert entry.number == 1
    assert entry.kind == Entry.Kind.ENTRY
    check = entry.id_check
    assert check.checked_by == cashier and check.document_type == "id_card" and check.number_last4 == "4567"
    purchase = entry.purchases.get()
    assert (purchase.amount, purchase.fee, purchase.chips, purchase.kind) == (10000, 1500, 20000, Purchase.Kind.BUY_IN)
    event = AuditEvent.objects.get(type="entry.registered")
    assert event.seq == tournament.event_seq + 1 and event.actor == cashier
