"""Reactions: the one way an upper app acts on a lower app's change.

A lower app's service names the change and calls `react(CHANGE, ...)` inside its transaction, with
the tournament row locked. Every app above it that cares registers a handler for that name in its
AppConfig.ready() with `on(CHANGE, handler)`; the handlers run at once, in the order the apps are
installed, in the same transaction (a refusal rolls the whole action back). A handler may return
facts (a dict) for the event that announces the change: `react` merges them, so registration can
say which seat the new entry got without the tournament app knowing that tables exist.

A lower app's read may ask the same way for a fact an upper app owns: the tables suggest hand-for-hand
at the bubble from the places paid, which only the payout structure knows (tables.selectors.screens.PLACES_PAID;
the payouts app answers).

The names of the changes are constants of the app that makes them (tournament.services.registration.ENTRY_REGISTERED,
tables.services.busts.ENTRY_BUSTED, ...): an upper app imports them from below, which the layers allow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Handler = Callable[..., dict | None]

_handlers: dict[str, list[Handler]] = {}


def on(change: str, handler: Handler) -> None:
    """Register `handler` for a change (once: registering it again changes nothing)."""
    handlers = _handlers.setdefault(change, [])
    if handler not in handlers:
        handlers.append(handler)


def react(change: str, **facts: Any) -> dict:
    """Run every handler of the change with the given keyword facts; return the facts they add."""
    added: dict = {}
    for handler in _handlers.get(change, ()):
        result = handler(**facts)
        if result:
            added.update(result)
    return added


def handlers(change: str) -> list[Handler]:
    """The handlers registered for a change, in the order they run."""
    return list(_handlers.get(change, ()))
