"""A controllable server clock for service tests: patches django.utils.timezone.now, which every
service (and the audit log) reads through the module attribute."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


class FakeNow:
    def __init__(self, start: datetime = T0) -> None:
        self.start = start
        self.value = start

    def __call__(self) -> datetime:
        return self.value

    def at(self, seconds: float) -> datetime:
        """Move the clock to `seconds` after the start (never back in time in a test of live behaviour)."""
        self.value = self.start + timedelta(seconds=seconds)
        return self.value

    def advance(self, seconds: float) -> datetime:
        self.value += timedelta(seconds=seconds)
        return self.value

    def offset(self, seconds: float) -> datetime:
        return self.start + timedelta(seconds=seconds)


@pytest.fixture
def fake_now(monkeypatch) -> FakeNow:
    fake = FakeNow()
    monkeypatch.setattr("django.utils.timezone.now", fake)
    return fake
