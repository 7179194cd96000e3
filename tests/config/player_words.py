"""The messages the players read (their screens, core.access.PLAYERS, and their phones' notifications), found from the
code as it stands: tests/config/test_player_languages.py holds the German, Polish and Hungarian catalogues to them.

- templates: each player's page's templates, from its view's source ("tables/seat_page.html"), walked as Django renders
  them (what they extend and include, the blocks a page fills), leaving out what only a login sees ({% if
  user.is_authenticated %}, {% if user|may:"..." %}): their {% translate %} and {% blocktranslate %} messages, and the
  script modules they load ({% static 'js/....js' %});
- scripts: those modules and every module they import, by their place in djangojs.po;
- Python: the players' views and API views themselves, and notify/selectors/words.py, by their place in django.po.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from django.template import loader
from django.template.base import TextNode, VariableNode
from django.template.loader_tags import BlockNode, ExtendsNode, IncludeNode
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.templatetags.static import StaticNode
from django.urls import get_resolver

from core import access

REPO = Path(__file__).resolve().parents[2]
NOTIFICATIONS = "notify/selectors/words.py"  # the push messages, in the language recorded with the subscription
TEMPLATE_NAME = re.compile(r"""["']([\w/-]+\.html)["']""")
IMPORT = re.compile(r"""(?:from|import)\s*\(?\s*["']\./([\w/.-]+\.js)["']""")


def views() -> dict[str, object]:
    """Each player's route name -> its view (a function, or an API view's class)."""
    found = {}
    for pattern_name, callback in _patterns(get_resolver()):
        if pattern_name in access.PLAYERS:
            found[pattern_name] = getattr(callback, "view_class", None) or getattr(callback, "cls", None) or inspect.unwrap(callback)
    return found


def _patterns(resolver, depth: int = 0):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            yield from _patterns(pattern, depth + 1)
        else:
            yield pattern.name, pattern.callback


def _literal(expression) -> str | None:
    """A template tag's argument when it is a quoted string."""
    if expression is None:
        return None
    var = getattr(expression, "var", expression)
    literal = getattr(var, "literal", var)
    return literal if isinstance(literal, str) else None


def _staff_only(condition) -> bool:
    """{% if user.is_authenticated %}, {% if user|may:"..." %}: what a player never sees."""
    text = getattr(condition, "text", None)
    return isinstance(text, str) and text.startswith("user")


class Walk:
    def __init__(self) -> None:
        self.messages: set[tuple[str, str]] = set()  # (context, msgid); context "" when none
        self.templates: set[str] = set()
        self.scripts: set[str] = set()

    def template(self, name: str, blocks: dict | None = None) -> None:
        self.templates.add(name)
        self.nodes(loader.get_template(name).template.nodelist, blocks or {})

    def nodes(self, nodelist, blocks: dict) -> None:
        for node in nodelist:
            if isinstance(node, ExtendsNode):
                parent = _literal(node.parent_name)
                self.templates.add(parent)
                self.nodes(loader.get_template(parent).template.nodelist, {**node.blocks, **blocks})
                return  # a child renders only its blocks
            if isinstance(node, BlockNode):
                self.nodes(blocks.get(node.name, node).nodelist, blocks)
            elif isinstance(node, IncludeNode):
                name = _literal(node.template)
                if name:
                    self.template(name)
            elif type(node).__name__ == "IfNode":
                for condition, branch in node.conditions_nodelists:
                    if not _staff_only(condition):
                        self.nodes(branch, blocks)
            elif isinstance(node, TranslateNode):
                msgid = _literal(node.filter_expression)
                if msgid is not None:
                    self.messages.add((_literal(node.message_context) or "", msgid))
            elif isinstance(node, BlockTranslateNode):
                msgid = node.render_token_list(node.singular)[0]
                if node.trimmed:
                    msgid = " ".join(line.strip() for line in msgid.strip().splitlines())
                self.messages.add((_literal(node.message_context) or "", msgid))
            elif isinstance(node, StaticNode):
                path = _literal(node.path) or ""
                if path.startswith("js/") and path.endswith(".js"):
                    self.scripts.add(path[3:])
            elif not isinstance(node, (TextNode, VariableNode)):
                for attribute in getattr(node, "child_nodelists", ()):
                    self.nodes(getattr(node, attribute, None) or [], blocks)


def script_closure(modules: set[str]) -> set[str]:
    """The modules and every module they import (static/js/, relative to it)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        source = (REPO / "static" / "js" / module).read_text(encoding="utf-8")
        folder = Path(module).parent
        todo += [str(folder / found) for found in IMPORT.findall(source)]
    return seen


def python_places() -> dict[str, list[tuple[int, int]]]:
    """file -> the line ranges of the players' views (and the whole of the notifications' words)."""
    places: dict[str, list[tuple[int, int]]] = {NOTIFICATIONS: [(1, 10**9)]}
    for view in views().values():
        lines, first = inspect.getsourcelines(view)
        path = str(Path(inspect.getsourcefile(view)).resolve().relative_to(REPO))
        places.setdefault(path, []).append((first, first + len(lines) - 1))
    return places


def players_words() -> Walk:
    """What the players' screens show: the templates' messages and scripts, from each player's page's view."""
    walk = Walk()
    for view in views().values():
        for name in TEMPLATE_NAME.findall(inspect.getsource(view)):
            walk.template(name)
    walk.scripts = script_closure(walk.scripts)
    return walk


def used_by_players(entry, domain: str, walk: Walk, places: dict) -> bool:
    """Is this catalogue entry (polib) one the players read?"""
    if domain == "djangojs":
        return any(path.startswith("static/js/") and path[len("static/js/") :] in walk.scripts for path, _line in entry.occurrences)
    if (entry.msgctxt or "", entry.msgid) in walk.messages:
        return True
    for path, line in entry.occurrences:
        for first, last in places.get(path, ()):
            if line and first <= int(line) <= last:
                return True
    return False
