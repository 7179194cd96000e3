"""The Czech and Slovak catalogues are complete, compiled, and used by the screens.

If a test here fails after you added or changed a user-facing string, update the catalogues:

    python manage.py makemessages -l cs -l sk --ignore=.venv --ignore=var --no-obsolete
    python manage.py makemessages -d djangojs -l cs -l sk --ignore=.venv --ignore=var --ignore=staticfiles --no-obsolete
    (translate the new entries in locale/cs and locale/sk, django.po and djangojs.po, remove every "#, fuzzy" flag)
    python manage.py compilemessages --ignore=.venv

djangojs.po holds the words of the scripts in static/js/ (gettext, ngettext, pgettext), which the browser gets from
Django's JavaScript catalogue (/jsi18n/<language>/).
"""

from __future__ import annotations

import gettext as gnu_gettext
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from tournament.rules.structure import Problem
from tournament.selectors.messages import problem_message
from web.tournament.forms import IdCheckForm

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = ("cs", "sk")
# The players' languages: only their screens speak them, so their catalogues translate what those show
# (tests/config/test_player_languages.py); the checks of a catalogue's form below hold them all.
PLAYER_LANGUAGES = ("de", "pl", "hu")
PLURAL_FORMS = {
    "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
    "sk": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
    "de": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=4; plural=(n==1 ? 0 : (n%10>=2 && n%10<=4) && (n%100<12 || n%100>14) ? 1 : n!=1 && (n%10>=0 && "
    "n%10<=1) || (n%10>=5 && n%10<=9) || (n%100>=12 && n%100<=14) ? 2 : 3);",
    "hu": "nplurals=2; plural=(n != 1);",
}
MAKEMESSAGES = ("makemessages", "-l", "cs", "-l", "sk", "--ignore=.venv", "--ignore=var", "--no-obsolete")
MAKEMESSAGES_JS = (
    "makemessages",
    "-d",
    "djangojs",
    "-l",
    "cs",
    "-l",
    "sk",
    "--ignore=.venv",
    "--ignore=var",
    "--ignore=staticfiles",
    "--no-obsolete",
)
# The templates' and the Python code's messages (django), and the scripts' (djangojs: Django's JavaScript catalogue).
DOMAINS = ("django", "djangojs")
HOW_TO_FIX = (
    "update the catalogues: python manage.py makemessages -l cs -l sk --ignore=.venv --ignore=var --no-obsolete "
    "(and the same with -d djangojs --ignore=staticfiles for the scripts), "
    "translate the new or fuzzy entries, then python manage.py compilemessages --ignore=.venv"
)
# What the test copies of the source tree leave out (the same things makemessages is told to ignore, and caches).
NOT_SOURCE = (
    ".venv",
    "var",
    ".git",
    "__pycache__",
    ".hypothesis",
    ".ruff_cache",
    ".pytest_cache",
    "test-results",
    "node_modules",
    "*.mo",
    "*.sqlite3",
)

# Lookups go through a variable, never a string literal, so that makemessages does not list this file
# as a place where these messages are used.
lookup = translation.gettext

pytestmark = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) is not installed")


def po_file(lang: str, root: Path = REPO, domain: str = "django") -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def msgfmt_statistics(po: Path) -> dict[str, int]:
    """Run msgfmt's checks (format strings, header, plural forms) and return its counts."""
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", os.devnull, str(po)],
        capture_output=True,
        text=True,
        env={**os.environ, "LC_ALL": "C"},
        timeout=60,
    )
    assert result.returncode == 0, f"msgfmt --check refused {po}:\n{result.stderr}"
    counts = {"translated": 0, "fuzzy": 0, "untranslated": 0}
    for number, kind in re.findall(r"(\d+) (translated|fuzzy|untranslated) (?:message|translation)", result.stderr):
        counts[kind] = int(number)
    return counts


def entries_needing_work(po: Path) -> str:
    """The msgids that are untranslated or fuzzy, for the failure message."""
    found = []
    for option in ("--untranslated", "--only-fuzzy"):
        result = subprocess.run(["msgattrib", option, "--no-location", "--no-wrap", str(po)], capture_output=True, text=True, timeout=60)
        found += [line for line in result.stdout.splitlines() if line.startswith("msgid ") and line != 'msgid ""']
    return "\n".join(found)


def compiled_catalogue(po: Path, out: Path) -> dict:
    subprocess.run(["msgfmt", "-o", str(out), str(po)], check=True, capture_output=True, timeout=60)
    with out.open("rb") as handle:
        return dict(gnu_gettext.GNUTranslations(handle)._catalog)


# --- (a) the catalogues are complete --------------------------------------------------------------


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_has_no_untranslated_or_fuzzy_messages(lang, domain):
    po = po_file(lang, domain=domain)
    counts = msgfmt_statistics(po)
    assert counts["translated"] > 0
    assert counts["fuzzy"] == 0 and counts["untranslated"] == 0, (
        f"{po}: {counts['fuzzy']} fuzzy, {counts['untranslated']} untranslated:\n{entries_needing_work(po)}\n{HOW_TO_FIX}"
    )


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES + PLAYER_LANGUAGES)
def test_catalogue_header(lang, domain):
    header = po_file(lang, domain=domain).read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert f'"Language: {lang}\\n"' in header
    assert "charset=UTF-8" in header
    assert f"Plural-Forms: {PLURAL_FORMS[lang]}" in header.replace('"\n"', "")
    assert "#, fuzzy" not in header


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES + PLAYER_LANGUAGES)
def test_compiled_catalogue_is_current(lang, domain, tmp_path):
    """The .mo files are not in git: scripts/setup compiles them. A stale one means the screens show old text."""
    mo = po_file(lang, domain=domain).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run python manage.py compilemessages --ignore=.venv"
    with mo.open("rb") as handle:
        compiled = dict(gnu_gettext.GNUTranslations(handle)._catalog)
    assert compiled == compiled_catalogue(po_file(lang, domain=domain), tmp_path / "fresh.mo"), (
        f"{mo} is older than its .po: run python manage.py compilemessages --ignore=.venv"
    )


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES + PLAYER_LANGUAGES)
def test_translations_keep_javascript_strings_intact(lang, domain, tmp_path):
    """Several messages are put inside JavaScript strings (confirm('...'), "...") in the templates.

    An ASCII quote the English text does not have would end such a string: use „…“ instead.
    """
    catalogue = compiled_catalogue(po_file(lang, domain=domain), tmp_path / "check.mo")
    bad = [
        (msgid, msgstr)
        for msgid, msgstr in catalogue.items()
        if msgid and isinstance(msgid, str) and any(q in msgstr and q not in msgid for q in ("'", '"'))
    ]
    assert not bad, bad


# --- (b) every message in the source tree is in the catalogues ------------------------------------


def test_makemessages_finds_nothing_new(tmp_path):
    """Run the makemessages command on a copy of the tree: the result must still be fully translated.
    Both runs (the code's and the scripts' messages) in one process, one Django start-up."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.skip("GNU gettext's xgettext and msgmerge are not installed")
    copy = tmp_path / "src"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE), symlinks=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1")
    script = (
        "import django; django.setup(); from django.core.management import call_command; "
        f"call_command(*{MAKEMESSAGES!r}); call_command(*{MAKEMESSAGES_JS!r})"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=copy, env=env, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    for lang, domain in ((lang, domain) for lang in LANGUAGES for domain in DOMAINS):
        po = po_file(lang, copy, domain)
        counts = msgfmt_statistics(po)
        assert counts["fuzzy"] == 0 and counts["untranslated"] == 0, (
            f"the source has messages that locale/{lang}/LC_MESSAGES/{domain}.po does not translate yet "
            f"({counts['untranslated']} new, {counts['fuzzy']} fuzzy):\n{entries_needing_work(po)}\n{HOW_TO_FIX}"
        )


# --- (c) key messages are translated at run time --------------------------------------------------

EXPECTED = {
    "cs": {
        "registration_closed": "Registrace je uzavřena.",
        "id_check": "Žádný vstup bez kontroly dokladu (klubové pravidlo 32). Chybí: typ dokladu, číslo dokladu, "
        "vaše potvrzení, že jste doklad viděli.",
        "not_payable": "Level 3: malý blind 110 nelze zaplatit žetony ve hře (nejmenší žeton 25).",
        "blinds_fall": "Level 4: blindy jsou nižší než v levelu 3; blindy musí stoupat.",
        "staff_log_in": "Přihlášení personálu",
    },
    "sk": {
        "registration_closed": "Registrácia je uzavretá.",
        "id_check": "Žiadny vstup bez kontroly dokladu (klubové pravidlo 32). Chýba: typ dokladu, číslo dokladu, "
        "vaše potvrdenie, že ste doklad videli.",
        "not_payable": "Level 3: malý blind 110 nemožno zaplatiť žetónmi v hre (najmenší žetón 25).",
        "blinds_fall": "Level 4: blindy sú nižšie ako v leveli 3; blindy musia stúpať.",
        "staff_log_in": "Prihlásenie personálu",
    },
}
REGISTRATION_CLOSED = "Registration is closed."
STAFF_LOG_IN = "Staff log in"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_registration_closed_is_translated(lang):
    with translation.override(lang):
        text = lookup(REGISTRATION_CLOSED)
    assert text == EXPECTED[lang]["registration_closed"]
    assert text != REGISTRATION_CLOSED


@pytest.mark.parametrize("lang", LANGUAGES)
def test_id_check_refusal_is_translated(lang):
    with translation.override(lang):
        form = IdCheckForm(data={})
        assert not form.is_valid()
        errors = [str(e) for e in form.non_field_errors()]
    assert errors == [EXPECTED[lang]["id_check"]]
    with translation.override("en-gb"):
        english = IdCheckForm(data={})
        english.is_valid()
        assert [str(e) for e in english.non_field_errors()] != errors
        assert "No entry without an ID check" in english.non_field_errors()[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_structure_messages_are_translated_with_their_values(lang):
    not_payable = Problem("not_payable", 4, {"level": 3, "what": "small_blind", "amount": 110, "smallest": 25})
    blinds_fall = Problem("blinds_fall", 5, {"level": 4, "previous": 3})
    with translation.override(lang):
        texts = [problem_message(not_payable), problem_message(blinds_fall)]
    with translation.override("en-gb"):
        english = [problem_message(not_payable), problem_message(blinds_fall)]
    assert texts == [EXPECTED[lang]["not_payable"], EXPECTED[lang]["blinds_fall"]]
    assert english[0] == "Level 3: the small blind of 110 cannot be paid with the chips in play (smallest chip 25)."
    assert "%(" not in "".join(texts)


# --- (d) the screens speak the visitor's language -------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_login_page_in_the_browser_language(client, db, lang):
    response = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{lang}">' in page
    assert EXPECTED[lang]["staff_log_in"] in page
    assert STAFF_LOG_IN not in page


def test_login_page_in_english_by_default(client, db):
    response = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert STAFF_LOG_IN in page
    assert EXPECTED["cs"]["staff_log_in"] not in page


# What live.js writes in a screen's connection badge when its socket is open: gettext("live").
LIVE = {"cs": "živě", "sk": "naživo"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scripts_words_come_in_the_page_s_language(client, db, lang):
    """Every page loads Django's JavaScript catalogue of its own language before its scripts; the catalogue at that
    address is in that language whatever the browser asks (a cached copy is never another language's)."""
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'<script src="/jsi18n/{lang}/"></script>' in page
    catalogue = client.get(f"/jsi18n/{lang}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'"live": {json.dumps(LIVE[lang])}' in catalogue
    english = client.get("/jsi18n/en-gb/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert '"live"' not in english and client.get("/jsi18n/xx/").status_code == 404
