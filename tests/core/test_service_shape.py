"""One shape for every service (docs/layers.md, "A service's shape").

A function that takes an `actor` has the shape `def name(first, *, actor: Actor, ...)`: at most one positional
parameter, the object acted on; everything after it keyword-only; `actor` the first keyword, typed
`core.actor.Actor`. And a read module never takes a row lock: the service that writes takes it.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from core import actor as actor_module
from tests.apps import PACKAGES, SERVICE_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
APPS = PACKAGES
# Where the services live: the apps under the screens, and the API tokens' own (web/auth.py).
SERVICE_APPS = SERVICE_PACKAGES
SERVICE_MODULES_ELSEWHERE = ("web.auth",)

# Questions about an actor itself (the actor is the object they look at), not changes an actor makes.
ABOUT_THE_ACTOR = {
    "tournament.services.audit.actor_user",  # the user row behind an actor
    "tournament.services.audit.actor_label",  # the name the audit log shows
    "core.roles.acts_at",  # may this actor act at this table
}

# The modules that only read: every app's selectors/ (the read models, the reports, the seat cards), the screens'
# snapshots.
READ_MODULES = re.compile(r"(^|/)selectors/[^/]+\.py$|(^|/)snapshots\.py$")


def service_modules() -> list[str]:
    names = list(SERVICE_MODULES_ELSEWHERE)
    for app in SERVICE_APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def actor_functions() -> list[tuple[str, object]]:
    """Every function defined at the top of a service app's module that takes an `actor`."""
    found = []
    for name in service_modules():
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if not inspect.isfunction(fn) or fn.__module__ != name:
                continue
            if "actor" in inspect.signature(fn).parameters and f"{name}.{attr}" not in ABOUT_THE_ACTOR:
                found.append((f"{name}.{attr}", fn))
    return found


def shape_problems(fn) -> list[str]:
    params = list(inspect.signature(fn).parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    keyword = [p for p in params if p.kind == p.KEYWORD_ONLY]
    problems = []
    if len(positional) > 1 or any(p.kind == p.VAR_POSITIONAL for p in positional):
        problems.append(f"positional parameters {[p.name for p in positional]}: only the object acted on may be one")
    if not keyword or keyword[0].name != "actor":
        problems.append("`actor` is not the first keyword-only parameter")
    actor = next(p for p in params if p.name == "actor")
    if actor.annotation not in ("Actor", actor_module.Actor):
        problems.append(f"`actor` is typed {actor.annotation!r}, not Actor")
    return problems


def test_every_service_takes_its_object_first_then_actor_as_the_first_keyword():
    functions = actor_functions()
    names = {name for name, _fn in functions}
    # Services the walk must find, so it cannot quietly find nothing.
    assert {
        "tournament.services.registration.register_entry",
        "tables.services.busts.bust_entry",
        "clock.services.clock.start_clock",
        "payouts.services.structure.pay_prize",
        "tables.services.house_rules.set_house_rules",
        "tournament.services.audit.record_event",
    } <= names
    assert len(functions) > 80
    wrong = {name: problems for name, fn in functions if (problems := shape_problems(fn))}
    assert not wrong, wrong


@pytest.mark.parametrize(
    "source, problem",
    [
        ("def f(actor, t):\n    pass", "positional parameters ['actor', 't']: only the object acted on may be one"),
        ("def f(t, actor):\n    pass", "positional parameters ['t', 'actor']: only the object acted on may be one"),
        ("def f(t, *, reason, actor: Actor):\n    pass", "`actor` is not the first keyword-only parameter"),
        ("def f(t, *, actor):\n    pass", "`actor` is typed <class 'inspect._empty'>, not Actor"),
    ],
)
def test_the_shape_check_sees_each_way_to_get_it_wrong(source, problem):
    space: dict = {}
    exec(compile("from __future__ import annotations\n" + source, "<service>", "exec"), space)
    assert problem in shape_problems(space["f"])


def test_the_shape_check_passes_the_shape():
    space: dict = {}
    exec(compile("from __future__ import annotations\ndef f(t, *, actor: Actor, reason: str = ''):\n    pass", "<service>", "exec"), space)
    assert shape_problems(space["f"]) == []


def test_read_modules_never_take_a_row_lock():
    """Reads never lock: a lock belongs to the service that writes, in its own transaction."""
    reads = [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts and READ_MODULES.search(path.relative_to(ROOT).as_posix())
    ]
    names = {path.relative_to(ROOT).as_posix() for path in reads}
    assert {
        "tables/selectors/state.py",
        "tables/selectors/screens.py",
        "clock/selectors/clock.py",
        "payouts/selectors/structure.py",
        "live/snapshots.py",
    } <= names
    locking = [
        path.relative_to(ROOT).as_posix() for path in reads if re.search(r"select_for_update|FOR\s+UPDATE", path.read_text(), re.IGNORECASE)
    ]
    assert not locking, f"read modules that take row locks: {locking}"
