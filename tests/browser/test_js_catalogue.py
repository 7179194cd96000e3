"""The screens' scripts take their words from Django's JavaScript catalogue (/jsi18n/<language>/, locale/*/djangojs.po):
a screen opened in Czech or Slovak writes its live words in that language, in English otherwise."""

import pytest

from tournament.services import registration

pytestmark = pytest.mark.browser

# What live.js writes in the lobby's connection badge once its socket is open (the page itself says "…").
LIVE = {"cs": "živě", "sk": "naživo", "en": "live"}


@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
def test_a_screen_s_script_speaks_the_page_s_language(live_asgi, browser, director, tournament, lang):
    display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
    context = browser.new_context(locale=lang)
    try:
        page = context.new_page()
        page.goto(f"{live_asgi}/display/{display.token}/")
        page.wait_for_selector("#live.live")
        assert page.get_attribute("html", "lang").startswith(lang)
        assert page.text_content("#live").strip() == LIVE[lang]
        # The same words as the catalogue's own gettext gives the page.
        assert page.evaluate("gettext('live')") == LIVE[lang]
    finally:
        context.close()
