from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from core import converters  # noqa: F401  (<id:...> in every URL: registered before any pattern is read)
from web import api_docs, csp_report, server, tablet_worker, token_views
from web.notify import worker as push_worker

handler500 = server.server_error  # a database that cannot be used answers 503 with Retry-After (web/server.py)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("robots.txt", server.robots, name="robots"),
    path("favicon.ico", server.favicon, name="favicon"),
    path(settings.CSP_REPORT_PATH.lstrip("/"), csp_report.csp_report, name="csp-report"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The words of the screens' scripts (gettext, ngettext, pgettext): one catalogue, locale/*/djangojs.po.
    path("jsi18n/<str:lang>/", server.javascript_catalogue, name="javascript-catalog"),
    # The tablets' service worker at the root, so a tablet page's path can be its scope (web/tablet_worker.py).
    path("tablet-sw.js", tablet_worker.tablet_worker, name="tablet-worker"),
    # The players' service worker for notifications, at the root: its scope covers the seat pages (web/notify/worker.py).
    path("push-sw.js", push_worker.push_worker, name="push-worker"),
    path("tokens/", token_views.tokens, name="tokens"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs.swagger, name="api-docs"),  # their policy: web/api_docs.py
    path("api/redoc/", api_docs.redoc, name="api-redoc"),
    path("api/", include("web.api_urls")),
    path("setup/", include("web.tournament.setup_urls")),
    path("", include("web.clock.urls")),
    path("", include("web.tournament.urls")),
    path("", include("web.payouts.urls")),
    path("", include("web.days.urls")),
    path("", include("web.flights.urls")),
    path("", include("web.venues.urls")),
    path("", include("web.leagues.urls")),
    path("", include("web.archive.urls")),
]

# A URL no pattern matches: under /api/ a JSON error in the API's one shape, elsewhere the site's page.
handler404 = "web.api.not_found"
# A refusal: under /api/ the API's JSON shape, elsewhere a page that says why and which role may see it.
handler403 = "web.api.forbidden"
# A request Django cannot or will not read (too many fields, a body too large, a bad Host, a broken form, any
# SuspiciousOperation): under /api/ the API's JSON shape, elsewhere Django's page.
handler400 = "web.api.bad_request"
