"""The players' screens speak German, Polish and Hungarian besides the staff's English, Czech and Slovak; the staff's
screens and API answers never do (web/middleware.py, PlayerLocaleMiddleware; core.access.PLAYERS names the players'
routes). A phone follows its browser's language and the switcher at the foot of the page (?lang=, kept in the language
cookie); a TV its browser's, or the ?lang= of its link."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver

from core import access
from tournament.models import StaffProfile
from web.tournament.forms import PreferencesForm

COOKIE = settings.LANGUAGE_COOKIE_NAME
YOUR_SEAT = {"en-gb": "Your seat", "de": "Ihr Platz", "pl": "Twoje miejsce", "hu": "Az Ön helye", "cs": None}
STAFF_LOG_IN = "Staff log in"


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.content.decode()).group(1)


@pytest.mark.parametrize(("accept", "lang"), [("de-DE,de;q=0.9,en;q=0.5", "de"), ("pl", "pl"), ("hu-HU", "hu"), ("en-US", "en-gb")])
def test_the_seat_page_follows_the_phone_s_language(client, room, accept, lang):
    response = client.get(f"/s/{room.pk}/1/", HTTP_ACCEPT_LANGUAGE=accept)
    page = response.content.decode()
    assert response.status_code == 200 and html_lang(response) == lang
    assert f"<title>{YOUR_SEAT[lang]} ·" in page
    assert f'<script src="/jsi18n/{lang}/"></script>' in page
    assert response["Content-Language"] == lang and "Cookie" in response["Vary"]


@pytest.mark.parametrize(("accept", "lang"), [("de", "en-gb"), ("pl,cs;q=0.8", "cs"), ("hu, sk;q=0.5", "sk")])
def test_a_staff_page_asked_in_a_player_s_language_is_in_the_staff_s(client, db, accept, lang):
    response = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=accept)
    assert html_lang(response) == lang
    assert (STAFF_LOG_IN in response.content.decode()) == (lang == "en-gb")


def test_the_switcher_links_every_language_in_itself_and_keeps_the_choice(client, room):
    first = client.get(f"/s/{room.pk}/1/", HTTP_ACCEPT_LANGUAGE="cs")
    switcher = re.search(r'<nav class="langs" aria-label="Jazyk">(.*?)</nav>', first.content.decode()).group(1)
    assert '<span lang="cs" aria-current="true">Čeština</span>' in switcher
    for code, name in (("en-gb", "English"), ("sk", "Slovenčina"), ("de", "Deutsch"), ("pl", "Polski"), ("hu", "Magyar")):
        assert f'<a href="?lang={code}" lang="{code}" hreflang="{code}">{name}</a>' in switcher
    chosen = client.get(f"/s/{room.pk}/1/?lang=pl", HTTP_ACCEPT_LANGUAGE="cs")
    assert html_lang(chosen) == "pl" and chosen.cookies[COOKIE].value == "pl"
    again = client.get(f"/s/{room.pk}/2/", HTTP_ACCEPT_LANGUAGE="cs")  # the cookie: the next page in Polish too
    assert html_lang(again) == "pl" and YOUR_SEAT["pl"] in again.content.decode()
    staff = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="cs")  # ... but a staff page in the staff's language
    assert html_lang(staff) == "cs"
    assert html_lang(client.get("/accounts/login/?lang=de", HTTP_ACCEPT_LANGUAGE="cs")) == "cs"  # ?lang= on the players' pages only


def test_the_switcher_keeps_the_page_s_own_query(client, room):
    page = client.get(f"/t/{room.pk}/waiting/?n=7&v=12", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="?n=7&amp;lang=de"' in page


def test_a_tv_has_no_switcher_and_follows_its_link_or_its_browser(client, display):
    url = f"/display/{display.token}/"
    assert html_lang(client.get(url, HTTP_ACCEPT_LANGUAGE="hu")) == "hu"
    tv = client.get(url + "?lang=de", HTTP_ACCEPT_LANGUAGE="hu")
    assert html_lang(tv) == "de" and 'class="langs"' not in tv.content.decode()


def test_a_staff_member_s_own_language_wins_on_his_pages_over_a_player_s_cookie(client, director):
    StaffProfile.objects.update_or_create(user=director, defaults={"language": "sk"})
    client.force_login(director)
    client.cookies[COOKIE] = "de"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "sk"


def test_the_api_answers_players_in_their_language_and_the_staff_in_theirs(client, room):
    public = Client().get(f"/api/public/tournaments/{room.pk}/seats/999/", HTTP_ACCEPT_LANGUAGE="de")
    assert public.status_code == 404 and public["Content-Language"] == "de"
    assert "Entry Nr. 999" in public.content.decode()
    staff = Client().get(f"/api/tournaments/{room.pk}/entries/", HTTP_ACCEPT_LANGUAGE="de")
    assert staff.status_code in (401, 403) and staff["Content-Language"] == "en-gb"
    assert "Authentifizierung" not in staff.content.decode()  # Django REST framework's own German stays away


def test_the_scripts_words_come_in_the_players_languages(client, db):
    assert '"Break": "Pause"' in client.get("/jsi18n/de/").content.decode()
    assert '"Break": "Przerwa"' in client.get("/jsi18n/pl/").content.decode()
    assert '"Break": "Sz\\u00fcnet"' in client.get("/jsi18n/hu/").content.decode()


def test_the_staff_s_own_language_offers_only_the_staff_s_languages():
    offered = [code for code, _name in PreferencesForm().fields["language"].choices if code]
    assert offered == ["en-gb", "cs", "sk"]
    assert [code for code, _name in settings.PLAYER_LANGUAGES] == ["en-gb", "cs", "sk", "de", "pl", "hu"]


def test_the_players_routes_are_real_and_open_to_players_only():
    names = {pattern.name for pattern in _patterns(get_resolver())}
    for name in access.PLAYERS:
        assert name in names, name
        sets = [access.PAGES[name]] if name in access.PAGES else list(access.API[name].values())
        for visitors in sets:
            assert set(visitors) <= {access.ANYONE, access.DISPLAY_LINK}, name
    assert access.TVS <= access.PLAYERS


def _patterns(resolver):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            yield from _patterns(pattern)
        else:
            yield pattern
