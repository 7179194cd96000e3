"""Request middleware of the screens and the API: the page's language (the players' languages on their screens, a staff
member's own on his), and the refusal of NUL
characters, which no field of the product takes (PostgreSQL cannot store them in text), and of form
data that cannot be parsed (a broken multipart body: a 400 with a message, never a 500)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.middleware.locale import LocaleMiddleware
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from archive.services.transfer import too_large
from core import access

from .api import bad_request, error_body
from .archive import api as archive_api


def player_languages() -> list[str]:
    return [code for code, _name in settings.PLAYER_LANGUAGES]


def staff_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def best_of(asked: str, codes: list[str]) -> str | None:
    """The code of `codes` for one language asked ("de-AT" -> "de", "en" -> "en-gb"), or None."""
    asked = asked.strip().lower()[:16]
    generic = asked.split("-")[0]
    for candidate in (asked, generic):
        if candidate in codes:
            return candidate
    return next((code for code in codes if code.split("-")[0] == generic), None) if generic else None


def chosen_language(request, codes: list[str], switcher: bool = False) -> str:
    """The language of a request among `codes`: the switcher's ?lang= (on the players' screens only), the language
    cookie (the switcher's, set_language's or a staff member's preference), then the browser's Accept-Language in its
    order of preference, then the default."""
    for asked in (request.GET.get("lang", "") if switcher else "", request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")):
        found = best_of(asked, codes) if asked else None
        if found:
            return found
    for asked, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if asked == "*":
            break
        found = best_of(asked, codes)
        if found:
            return found
    return settings.LANGUAGE_CODE


def on_players_screen(request) -> bool:
    """Is this page or API operation one of the players' screens (core.access.PLAYERS)?"""
    if not hasattr(request, "players_screen"):
        try:
            request.players_screen = resolve(request.path_info).url_name in access.PLAYERS
        except Resolver404:
            request.players_screen = False
    return request.players_screen


class PlayerLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, which picks the staff's languages (settings.LANGUAGES) from the language cookie and
    Accept-Language, and on the players' screens (core.access.PLAYERS) the players' (settings.PLAYER_LANGUAGES: German,
    Polish, Hungarian too). So a German phone reads its seat page in German and the login page, a floor screen or a
    staff API answer in English (or the staff member's own language, UserLanguageMiddleware), whatever its cookie says.
    The switcher at the foot of a player's page (web/context.py) links to ?lang=<code>: that page in that language, kept
    in the language cookie for the player's next pages. The name is resolved only for a language the staff's screens do
    not speak."""

    def process_request(self, request):
        super().process_request(request)
        switched = best_of(request.GET["lang"], player_languages()) if request.GET.get("lang") else None
        wanted = chosen_language(request, player_languages(), switcher=True)
        if (switched or (wanted != request.LANGUAGE_CODE and wanted not in staff_languages())) and on_players_screen(request):
            translation.activate(wanted)
            request.LANGUAGE_CODE = wanted
            request.language_switched = switched

    def process_response(self, request, response):
        response = super().process_response(request, response)
        if getattr(request, "players_screen", False):
            patch_vary_headers(response, ("Cookie",))  # the language cookie chooses the words too
        switched = getattr(request, "language_switched", None)
        if switched:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                switched,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
            )
        return response


class UserLanguageMiddleware:
    """A staff member's own language (StaffProfile.language) on every page, but a player's page he switched (?lang=)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not getattr(request, "language_switched", None):
            profile = getattr(user, "staff_profile", None) if hasattr(user, "staff_profile") else None
            if profile is not None and profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
        return self.get_response(request)


class RefuseOversizedBodyMiddleware:
    """A tournament file's import (web/archive/api.py) with a body larger than TOURNAMENT_FILE_MAX_MB is refused 413
    by its Content-Length, before anything parses it (the NUL check below reads a multipart form whole, its files to
    disk)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if request.method == "POST" and length > archive_api.max_body_bytes():
            try:
                name = resolve(request.path_info).url_name
            except Resolver404:
                name = None
            if name == "api-tournament-import":
                error = too_large()
                return JsonResponse(error_body(error.code, error.message), status=error.status)
        return self.get_response(request)


class RefuseNulMiddleware:
    """A NUL character in the query string or a form field is refused with a 400 and a message, before
    any view runs (a search for "Jana%00" would otherwise reach the database and fail there). JSON
    bodies are checked field by field by the API's serializers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        sources = [request.GET]
        if request.method == "POST" and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            try:
                sources.append(request.POST)
            except (MultiPartParserError, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent) as exc:
                if request.path.startswith("/api/"):
                    return bad_request(request, exc)  # the answer of config.urls' handler400, saying which limit
                return HttpResponseBadRequest(_("The request's form data cannot be read."), content_type="text/plain; charset=utf-8")
        if any("\x00" in key or any("\x00" in value for value in values) for data in sources for key, values in data.lists()):
            message = _("The request contains a NUL character, which no field takes.")
            if request.path.startswith("/api/"):
                return JsonResponse(error_body("nul_character", message), status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class SessionLeftMiddleware:
    """X-Session-Left: on a logged-in session's read, the seconds its session has left. The tablets' service
    worker (static/js/tablet-sw.js) keeps it with its offline copy of a staff page and shows that copy only while the
    session lives: after that, not the names and counts of a session that is over. A session's row is read again (its
    expiry moves only when it is saved), unless this answer saved it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if request.method != "GET" or response.status_code != 200 or session is None or not session.session_key:
            return response
        if getattr(request, "user", None) is not None and request.user.is_authenticated:
            response["X-Session-Left"] = str(session_left(session))
        return response


def session_left(session) -> int:
    model = getattr(session, "model", None)
    if session.modified or model is None:  # saved by this answer, or not kept in the database
        return max(0, int(session.get_expiry_age()))
    expires = model.objects.filter(session_key=session.session_key).values_list("expire_date", flat=True).first()
    return max(0, int((expires - timezone.now()).total_seconds())) if expires else 0
