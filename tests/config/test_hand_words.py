"""A poker hand is "handa" in the Czech and Slovak catalogues, on every screen: the dealer's
"Hand done" said "Hra skončila" ("game over") where the other screens said "handa". Every message that speaks of a hand
(and not of play as a whole) translates it with a form of "handa", never with a form of "hra" (game)."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from tests.config.test_i18n import DOMAINS, LANGUAGES, compiled_catalogue, po_file

pytestmark = pytest.mark.skipif(__import__("shutil").which("msgfmt") is None, reason="GNU gettext is not installed")

HAND = re.compile(r"\bhands?\b", re.I)
# The noun "hra" (a game) in every case, singular and plural; the verbs (hraje, hrá, hrají) and "mimo hru" (sits out of
# play: an idiom, not a hand) are not it.
GAME = {
    "cs": re.compile(r"\b(hra|hry|hře|hru|hrou|her|hrám|hrách|hrami)\b", re.I),
    "sk": re.compile(r"\b(hra|hry|hre|hru|hrou|hier|hrám|hrách|hrami)\b", re.I),
}
IDIOMS = ("mimo hru", "mimo hry")
# Messages that speak of play as a whole as well as of a hand: "play has stopped ... no new hand until play resumes".
OF_PLAY = re.compile(r"^Play has stopped")
lookup = translation.gettext  # through a variable: makemessages does not list this file


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hand_is_a_handa(lang, domain, tmp_path):
    catalogue = compiled_catalogue(po_file(lang, domain=domain), tmp_path / "out.mo")
    wrong = []
    for key, text in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid or not HAND.search(msgid) or OF_PLAY.match(msgid):
            continue
        said = text
        for idiom in IDIOMS:
            said = said.replace(idiom, "")
        if GAME[lang].search(said):
            wrong.append(f"{msgid!r} -> {text!r}")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize(("lang", "words"), [("cs", "Handa skončila"), ("sk", "Handa skončila")])
def test_the_dealers_hand_done_button_says_handa(lang, words, client, db):
    with translation.override(lang):
        assert lookup("Hand done") == words
    catalogue = client.get(f"/jsi18n/{lang}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'"Hand done": {json.dumps(words)}' in catalogue and f'"Hand done.": {json.dumps(words + ".")}' in catalogue
