"""The German, Polish and Hungarian catalogues translate every message the players read: their screens
(core.access.PLAYERS: the templates of their pages and what those include, the scripts those load and import, the
players' views and API views) and their phones' notifications (notify/selectors/words.py). The set is found from the
code as it stands (tests/config/player_words.py), so a message added to a player's screen tomorrow fails here until
it is translated. The staff's messages may stay untranslated in these three: no staff screen renders in them
(web/middleware.py). Their headers, compiled files and JavaScript-safe quotes: tests/config/test_i18n.py.

If this fails after you added or changed a message of a player's screen:

    python manage.py makemessages -l de -l pl -l hu --ignore=.venv --ignore=var --ignore=staticfiles --ignore=node_modules --no-obsolete
    (and the same with -d djangojs), translate the new entries in locale/de, locale/pl and locale/hu, remove every
    "#, fuzzy" flag, then python manage.py compilemessages -l de -l pl -l hu --ignore=.venv
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import polib
import pytest
from django.utils import translation

from notify.selectors.words import body
from tests.config import player_words
from tests.config.test_i18n import DOMAINS, NOT_SOURCE, PLAYER_LANGUAGES, REPO, po_file

pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in ("msgfmt", "xgettext", "msgmerge")), reason="GNU gettext is not installed"
)
MAKEMESSAGES = ["makemessages", *(f"-l{lang}" for lang in PLAYER_LANGUAGES), "--ignore=.venv", "--ignore=var"]
MAKEMESSAGES += ["--ignore=staticfiles", "--ignore=node_modules", "--no-obsolete"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """The three catalogues made again from a copy of the source tree (makemessages, both domains), the translations
    kept: what the code asks for today, whatever the committed files were made from."""
    copy = tmp_path_factory.mktemp("players") / "src"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE, "staticfiles"), symlinks=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    script = (
        "import django; django.setup(); from django.core.management import call_command; "
        f"call_command(*{MAKEMESSAGES!r}); call_command(*{[*MAKEMESSAGES[:1], '-d', 'djangojs', *MAKEMESSAGES[1:]]!r})"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=copy, env=env, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    return copy


@pytest.fixture(scope="module")
def players():
    return player_words.players_words(), player_words.python_places()


def test_the_players_screens_are_found_from_the_code(players):
    """The walk finds the players' pages, their scripts and their messages, and leaves out what only a login sees."""
    walk, places = players
    assert {
        "tables/seat_page.html",
        "tables/waiting_board.html",
        "tournament/lobby.html",
        "venues/today.html",
        "_languages.html",
    } <= walk.templates
    assert {"seat-page.js", "lobby.js", "clock.js", "alternates.js", "push-optin.js", "util.js"} <= walk.scripts
    assert "api-forms.js" not in walk.scripts and "form-words.js" not in walk.scripts  # base.html's, for a login only
    assert {
        ("", "Your seat"),
        ("", "Keep this page open: it changes by itself when the floor moves you."),
        ("", "Language"),
    } <= walk.messages
    assert ("", "Log out") not in walk.messages  # the staff's header, which the players' pages replace
    assert "notify/selectors/words.py" in places and "web/tables/views.py" in places


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", PLAYER_LANGUAGES)
def test_every_message_the_players_read_is_translated(fresh, players, lang, domain):
    walk, places = players
    catalogue = polib.pofile(str(po_file(lang, fresh, domain)))
    used = [entry for entry in catalogue if player_words.used_by_players(entry, domain, walk, places)]
    assert len(used) > (100 if domain == "django" else 80)
    missing = [entry.msgid for entry in used if not entry.translated() or "fuzzy" in entry.flags]
    assert not missing, f"locale/{lang}/LC_MESSAGES/{domain}.po does not translate yet:\n" + "\n".join(missing) + "\n" + __doc__
    if domain == "django":  # and every message of a player's template is in the catalogue at all
        found = {(entry.msgctxt or "", entry.msgid) for entry in catalogue}
        assert walk.messages <= found, walk.messages - found


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "Tischwechsel: gehen Sie mit Ihren Chips an Tisch 7 Platz 3."),
        ("pl", "Przeniesienie: przejdź z żetonami do stołu 7, miejsce 3."),
        ("hu", "Áthelyezés: menjen a zsetonjaival a 7. asztal 3. székére."),
    ],
)
def test_a_notification_is_sent_in_the_language_of_its_subscription(lang, said):
    with translation.override(lang):
        assert body("balance", {"table": 7, "seat": 3}, lang) == said
        prize = body("prize", {"place": 2, "amount": 110000, "currency": "CZK"}, lang)
    assert "1\u00a0100\u00a0Kč" in prize or "1.100\u00a0Kč" in prize
