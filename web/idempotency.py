"""One press, one effect: the `Idempotency-Key` header of every state-changing API call.

A client sends one key per press of a button (static/js/api.js) and the same key when it retries that
press. The first request with a key claims it: one row of web.models.IdempotencyKey, unique per owner
(the user, or a shuffler's table) and key. The claim, the view's work and the answer it stores are one
database transaction, so:

- a retry after the answer was lost finds the row and gets the first answer again (status and body,
  with the header `Idempotent-Replayed: true`), and nothing runs twice;
- a duplicate sent while the first is still running blocks on the unique index (PostgreSQL) or on the
  write lock (SQLite) until the first commits, then gets its answer; if the first failed (rolled back),
  the duplicate runs instead, once;
- the same key with another method, path or body is refused (422, `idempotency_key_reused`): a client
  bug that would otherwise silently drop an action;
- a process that dies mid-request leaves no claim behind: its transaction rolls back.

Answers that carry a secret (a lobby screen link, a dealer link, a table's shuffler token) name those fields
in `idempotency_redact`: they are never stored, and a replay has them null, with a `secret_note` saying the
secret was shown once (tests/web/test_secrets_at_rest.py walks every operation of the schema whose answer
has a secret-like field). Keys live IDEMPOTENCY_KEY_HOURS (24 by default); an owner's expired keys are
cleared when it claims a new one.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.http.request import RawPostDataException
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.openapi import AutoSchema
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from core.errors import ServiceError

from .models import IdempotencyKey
from .refusal import ServiceErrorSerializer

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEY_PATTERN = "^[!-~]{1,255}$"  # visible ASCII, no spaces: a UUID, a random hex string...
KEY = re.compile(KEY_PATTERN)


def key_lifetime() -> timedelta:
    return timedelta(hours=getattr(settings, "IDEMPOTENCY_KEY_HOURS", 24))


SECRET_FIELDS = frozenset({"token", "url", "shuffler_token", "secret"})  # answer fields that may hold a secret
SECRET_NOTE = "secret_note"


def secret_note() -> str:
    return _("The secret was shown once, when it was made; the server does not keep it. Make a new one if it is lost.")


def redact(data, fields) -> dict:
    """The answer as it is stored: the secret fields null (cleaned rows of old answers too, web migration 0003)."""
    return {name: None if name in fields else value for name, value in data.items()}


class Replay(Exception):
    """Raised while claiming a key that already has its answer: the view answers with it."""

    def __init__(self, press: IdempotencyKey) -> None:
        super().__init__(press.key)
        self.press = press


def body_hash(request) -> str:
    try:
        raw = request.body
    except RawPostDataException:  # a multipart form already read by the CSRF check: its parsed fields instead
        raw = json.dumps(
            sorted(request.data.lists()) if hasattr(request.data, "lists") else request.data, sort_keys=True, default=_form_value
        ).encode()
    return hashlib.sha256(raw or b"").hexdigest()


def _form_value(value) -> str:
    """A parsed form's value in the body's hash: an uploaded file by its content (another file under the same
    name is another request), read in chunks and put back at its start for the view."""
    if isinstance(value, UploadedFile):
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return f"{value.name}:{digest.hexdigest()}"
    return str(value)


def claim(owner: str, key: str, method: str, path: str, digest: str) -> IdempotencyKey:
    """Claim the key inside the caller's transaction, or raise Replay with its first answer.

    A concurrent claim of the same key waits here, in the database, until the first request's
    transaction ends: then it either finds the answer (Replay) or, the first having rolled back, claims."""
    now = timezone.now()
    IdempotencyKey.objects.filter(owner=owner, created_at__lt=now - key_lifetime()).delete()
    try:
        with transaction.atomic():  # a savepoint: a refused insert leaves the request's transaction usable
            return IdempotencyKey.objects.create(owner=owner, key=key, method=method, path=path[:400], body_hash=digest, created_at=now)
    except IntegrityError:
        press = IdempotencyKey.objects.get(owner=owner, key=key)
    if (press.method, press.path, press.body_hash) != (method, path[:400], digest):
        raise ServiceError(
            _("This Idempotency-Key was already used for a different request: send a new key for each new action."),
            code="idempotency_key_reused",
            status=422,
        )
    raise Replay(press)


class IdempotentMixin:
    """For RoleAPIView and PublicAPIView (web/api.py) and the shuffler's endpoint: honours `Idempotency-Key`
    on POST, PUT, PATCH and DELETE. A request without the header runs as before."""

    idempotent = True
    idempotency_redact: tuple[str, ...] = ()  # answer fields holding a secret: never stored, null on a replay
    idempotency_press: IdempotencyKey | None = None

    def idempotency_owner(self, request) -> str | None:
        """Whose presses these are; None: the header is ignored (nobody to tell presses apart by)."""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.pk is not None:
            return f"user:{user.pk}"
        credential = getattr(request, "auth", None)  # a device credential with no user of its own (a model row)
        meta = getattr(credential, "_meta", None)
        if meta is not None and credential.pk is not None:
            return f"{meta.label_lower}:{credential.pk}"[:40]
        return None

    def dispatch(self, request, *args, **kwargs):
        if request.method not in UNSAFE or HEADER not in request.headers:
            return super().dispatch(request, *args, **kwargs)
        # The claim, the work and the stored answer commit together, or not at all (see the module's doc).
        with transaction.atomic():
            return super().dispatch(request, *args, **kwargs)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # authentication, role, throttles first: a refusal there claims nothing
        self.idempotency_press = None
        key = request.headers.get(HEADER) if request.method in UNSAFE else None
        if key is None or not hasattr(self, request.method.lower()):  # no such operation: DRF answers 405
            return
        if not KEY.match(key):
            raise ServiceError(
                _("The Idempotency-Key header must be 1 to 255 visible characters (no spaces)."), code="bad_idempotency_key", status=400
            )
        owner = self.idempotency_owner(request)
        if owner is not None:
            self.idempotency_press = claim(owner, key, request.method, request.path, body_hash(request))

    def handle_exception(self, exc):
        if isinstance(exc, Replay):
            body = json.loads(exc.press.body) if exc.press.body else None
            if isinstance(body, dict) and any(body.get(name) is None for name in self.idempotency_redact if name in body):
                body[SECRET_NOTE] = secret_note()
            return Response(body, status=exc.press.status, headers={REPLAYED: "true"})
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        press, self.idempotency_press = self.idempotency_press, None
        if press is not None:
            data = getattr(response, "data", None)
            if isinstance(data, dict) and self.idempotency_redact:
                data = redact(data, self.idempotency_redact)
            press.status = response.status_code
            press.body = "" if data is None else json.dumps(data, cls=JSONEncoder)
            press.save(update_fields=["status", "body"])
        return response


# --- the schema ----------------------------------------------------------------------------------

PARAMETER = {
    "in": "header",
    "name": HEADER,
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": KEY_PATTERN},
    "description": "One key per press of a button, the same key on each retry of that press: a retry gets the first "
    "answer again (with the header Idempotent-Replayed: true) and changes nothing. The same key with "
    "another request is refused (422). Keys are kept 24 hours, per user.",
}
ANSWERS = {
    "400": "Refused: invalid input, or an Idempotency-Key that is not 1 to 255 visible characters.",
    "422": "Refused: this Idempotency-Key was already used for a different request.",
}


class IdempotentAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus the Idempotency-Key header and its refusals on every state-changing
    operation of an idempotent view, and the 415 of a body in a media type the API does not read
    (settings: REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"])."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return operation
        error = {"application/json": {"schema": self.resolve_serializer(ServiceErrorSerializer, "response").ref}}
        if "requestBody" in operation:  # a body of another media type (or none named) is refused with 415
            operation.setdefault("responses", {}).setdefault(
                "415", {"content": error, "description": "Refused: the body's media type is not JSON or a form."}
            )
        if method.upper() not in UNSAFE or not getattr(self.view, "idempotent", False):
            return operation
        operation.setdefault("parameters", []).append(dict(PARAMETER))
        for code, description in ANSWERS.items():
            operation.setdefault("responses", {}).setdefault(code, {"content": error, "description": description})
        return operation
