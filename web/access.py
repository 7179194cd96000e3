"""The table of who reaches what (core/access.py) applied to pages and the API, and the two kinds of
dealer tablet bound to one table:

- a dealer link (tables/services/dealer_links.py): the secret in the page's URL, and in the API's
  `Authorization: DealerLink <secret>` header; it reaches only its table;
- a Dealer login (without the floor's role): the first table whose tablet it opens in its session
  binds it (the session keeps the table); it then reaches only that table's tablet, state, socket and
  presses. Another table needs a new login (logging out ends the session) or that table's link.

Pages: `@page("entries")` on a view reads PAGES["entries"]. API views: `allowed = api("api-entries")`.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission

from core import access, roles
from tables.models import DealerLink, Table
from tables.services import dealer_links
from web.api import RoleAPIView, tournament_of

DEALER_TABLE = access.DEALER_TABLE  # the session key of a Dealer login's table (a Table's pk)
dealer_may_use = access.dealer_may_use


def page(name: str, posts: bool = False):
    """A page view's gate, from the table: log in first when a role is needed; a wrong role gets 403,
    never the page. Pages of a link (display, dealer) check their secret themselves. A page is read only
    (GET and HEAD; a post gets 405): a screen changes state through the JSON API (static/js/api-forms.js).
    `posts`: the few forms that still post to their page (tests/web/test_roles_walk.py lists them)."""
    who = access.page(name)

    def decorator(view):
        view = view if posts else require_safe(view)
        if access.ANYONE in who or access.DISPLAY_LINK in who or access.DEALER_LINK in who:
            gated = view
        elif who == (access.LOGIN,):
            gated = login_required(view)
        else:
            gated = role_required(who)(view)

        gated.access_name = name
        return gated

    return decorator


def role_required(allowed: tuple[str, ...]):
    """Log in first; then the role decides (access.allows: a wrong role gets 403, never the page). Prefer
    `page(name)`, which reads the table: a page gated only by this must still be listed in core/access.py
    PAGES (tests/web/test_roles_walk.py checks every URL against the table)."""

    def decorator(view):
        @wraps(view)
        @login_required
        def gated(request, *args, **kwargs):
            if not access.allows(allowed, request.user, tournament_of(kwargs)):
                request.roles_needed = access.staff_roles(allowed)  # the 403 page names them (web/api.py forbidden)
                raise PermissionDenied(_("Your role does not allow this page."))
            return view(request, *args, **kwargs)

        return gated

    return decorator


def api(name: str) -> dict[str, tuple[str, ...]]:
    """An API view's `allowed`, from the table."""
    return dict(access.api(name))


# --- a Dealer login's table ---------------------------------------------------------------------


def _bound_elsewhere(table_pk: int) -> PermissionDenied:
    bound = Table.objects.filter(pk=table_pk).values_list("number", flat=True).first()
    return PermissionDenied(
        _("This login is bound to table %(number)s: a dealer tablet acts at one table. Log out to use another table.") % {"number": bound}
    )


def bind_dealer(request, table: Table) -> None:
    """Opening a table's tablet page binds a Dealer login to that table for its session; a login
    bound to another table is refused (403). Others (the floor, the director) are not bound."""
    user = request.user
    if not roles.table_bound(user):
        return
    bound = request.session.get(DEALER_TABLE)
    if bound is None:
        request.session[DEALER_TABLE] = bound = table.pk
    if bound != table.pk:
        raise _bound_elsewhere(bound)
    user.bound_table_id = table.pk


def require_dealer_table(request, table: Table) -> None:
    if not dealer_may_use(request.user, request.session, table.pk):
        bound = request.session.get(DEALER_TABLE)
        raise _bound_elsewhere(bound) if bound is not None else PermissionDenied(NOT_OPENED)


NOT_OPENED = gettext_lazy("Open this table's dealer tablet on this device first: a Dealer login acts at the one table its tablet opened.")


# --- the API at a table: dealer links and bound Dealer logins ---------------------------------------------


class DealerLinkAuthentication(BaseAuthentication):
    """`Authorization: DealerLink <secret>`: the tablet of a table's dealer link, as a DeviceActor."""

    keyword = "DealerLink"

    def authenticate(self, request):
        header = request.headers.get("Authorization", "")
        if not header.startswith(self.keyword + " "):
            return None
        link = dealer_links.link_for_token(header[len(self.keyword) + 1 :].strip())
        if link is None:
            raise exceptions.AuthenticationFailed(_("This dealer link is unknown or revoked."))
        return dealer_links.actor_for(link), link

    def authenticate_header(self, request) -> str:
        return self.keyword


class DealerLinkScheme(OpenApiAuthenticationExtension):
    """The API's documentation shows the dealer link's header (drf-spectacular finds this class by its target)."""

    target_class = "web.access.DealerLinkAuthentication"
    name = "dealerLink"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`DealerLink <secret>`: a table's dealer link (POST .../tables/<n>/dealer-links/), "
            "for that table's dealer actions only.",
        }


class AtItsTable(BasePermission):
    """After the role check: a dealer link only at its table (and only where the table allows dealer
    links), a Dealer login only at the table its tablet is bound to."""

    message = NOT_OPENED

    def has_permission(self, request, view) -> bool:
        user, kwargs = request.user, view.kwargs
        table_pk = Table.objects.filter(tournament_id=kwargs.get("pk"), number=kwargs.get("number")).values_list("pk", flat=True).first()
        if isinstance(user, roles.DeviceActor):
            self.message = _("This dealer link acts only at its own table.")
            return access.DEALER_LINK in view.roles_for(request.method) and table_pk == user.bound_table_id
        if table_pk is None:
            return True  # the view answers 404
        self.message = NOT_OPENED
        return dealer_may_use(user, request.session, table_pk)


class AtTheTable:
    """Mixin of a RoleAPIView that acts at one table (<pk>/tables/<number>/...): a dealer link's tablet
    may use it at its own table (when the table lists DEALER_LINK), a Dealer login at its bound table."""

    authentication_classes = [DealerLinkAuthentication, *RoleAPIView.authentication_classes]
    permission_classes = [*RoleAPIView.permission_classes, AtItsTable]

    def idempotency_owner(self, request) -> str | None:
        if isinstance(request.user, roles.DeviceActor):
            return f"dealer-link:{request.user.link_id}"  # each tablet's presses apart (web/idempotency.py)
        return super().idempotency_owner(request)


def link_or_403(token: str) -> DealerLink:
    """The live dealer link with this secret, or a 403 saying it is unknown or revoked."""
    link = dealer_links.link_for_token(token)
    if link is None:
        raise PermissionDenied(_("This dealer link is unknown or revoked. Ask the floor for a new one."))
    return link
