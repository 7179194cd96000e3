"""The API's docs pages, Swagger UI and Redoc (drf-spectacular's, from its sidecar's static files), under the
Content-Security-Policy (config/settings.py).

Swagger UI is served split: the page, and its start script as a file of its own (`?script`), so no inline
script is needed; the pages' <style> blocks are static/css/api-docs.css (templates/api_docs/). Redoc styles
its page with <style> elements it writes while it runs (styled-components) and searches in a worker it
starts from a blob: URL, so its URL alone allows inline styles and blob: workers (docs/operating.md, "Content-Security-Policy")."""

from __future__ import annotations

from csp.decorators import csp_update
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

# Redoc's sidebar also shows its maker's logo from cdn.redoc.ly: refused (nothing is fetched from another host;
# the logo hides itself), so opening Redoc logs that one violation.
REDOC_POLICY = {"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]}

swagger = SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs/swagger_ui.html")
redoc = csp_update(REDOC_POLICY)(SpectacularRedocView.as_view(url_name="api-schema", template_name="api_docs/redoc.html"))
