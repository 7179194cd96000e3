"""Request middleware of the screens and the API: a staff member's language, and the refusal of NUL
characters, which no field of the product takes (PostgreSQL cannot store them in text), and of form
data that cannot be parsed (a broken multipart body: a 400 with a message, never a 500)."""

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from archive.services.transfer import too_large

from .api import bad_request, error_body
from .archive import api as archive_api


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
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
