from django.conf import settings
from django.utils import translation

from core import access, roles


def roles_context(request):
    """The header names the login's roles; what a role may see and do is asked of core/access.py ({% if user|may:"..." %})."""
    return {"my_role_labels": roles.role_labels(roles.user_roles(getattr(request, "user", None)))}


# Each language named in itself, as a player looks for his own.
OWN_NAMES = {"en-gb": "English", "cs": "Čeština", "sk": "Slovenčina", "de": "Deutsch", "pl": "Polski", "hu": "Magyar"}


def player_languages(request):
    """The language switcher at the foot of a player's page (templates/_languages.html; not on the TVs, which have no
    hands): each of settings.PLAYER_LANGUAGES named in itself, a link to this page with ?lang=<code> (its other query
    kept), which web/middleware.PlayerLocaleMiddleware applies and keeps in the language cookie. Works without scripts."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.url_name not in access.PLAYERS or match.url_name in access.TVS:
        return {}
    current = translation.get_language()
    choices = []
    for code, _name in settings.PLAYER_LANGUAGES:
        query = request.GET.copy()
        query["lang"] = code
        query.pop("v", None)  # a push's version: a fresh load instead
        choices.append({"code": code, "name": OWN_NAMES.get(code, code), "href": "?" + query.urlencode(), "current": code == current})
    return {"player_languages": choices}
