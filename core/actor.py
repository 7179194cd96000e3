"""Who makes a change: the one type of every service's `actor` (docs/layers.md, "A service's shape").

Every service has the shape `def name(first, *, actor: Actor, ...)`: the object acted on first, then keyword
arguments only, `actor` the first of them (tests/core/test_service_shape.py holds it). An actor is one of:

- a staff user (`request.user` of a view, the API or a socket);
- a device, as a string: a dealer tablet opened by its table's dealer link (`core.roles.DeviceActor`, a
  `str` that carries its table) or an automatic shuffler (`"shuffler:table 3"`);
- None: the system itself (the clock's tick, a reaction with nobody behind it).

The audit log records the user row of a user and the label of the others (tournament.services.audit.actor_label).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

Actor: TypeAlias = "AbstractBaseUser | str | None"
