"""Where browsers report what the Content-Security-Policy blocked (its report-uri, config/settings.py).

Each violation becomes one warning line in the server's log (logger "csp"), so a room sees a screen that
something broke on: which directive, what was blocked, on which page and where in which file. Nothing is
stored: anyone may post here (a report comes from any page, a player's phone too), so the body is read up
to MAX_REPORT_BYTES and only a few known fields, each cut short, reach the log (whose handler masks link
secrets, config/logmask.py). Both shapes browsers send are read: report-uri's `{"csp-report": {...}}`
(application/csp-report) and the Reporting API's list of `{"type": "csp-violation", "body": {...}}`."""

from __future__ import annotations

import json
import logging

from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .access import page

log = logging.getLogger("csp")

MAX_REPORT_BYTES = 16 * 1024
FIELD_CHARS = 300
# The fields logged, as report-uri names them and as the Reporting API does.
FIELDS = (
    ("effective-directive", "effectiveDirective"),
    ("blocked-uri", "blockedURL"),
    ("document-uri", "documentURL"),
    ("source-file", "sourceFile"),
    ("line-number", "lineNumber"),
    ("column-number", "columnNumber"),
    ("script-sample", "sample"),
    ("disposition", "disposition"),
)


def violations(data) -> list[dict]:
    """The violations in a report body, each a dict of the logged fields; ValueError if it is no report."""
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):
        bodies, names = [data["csp-report"]], 0
    elif isinstance(data, list) and data and all(isinstance(r, dict) and isinstance(r.get("body"), dict) for r in data):
        bodies, names = [r["body"] for r in data if r.get("type", "csp-violation") == "csp-violation"], 1
    else:
        raise ValueError("not a CSP report")
    return [
        {
            pair[0]: " ".join(str(body[pair[names]]).split())[:FIELD_CHARS]  # one line each
            for pair in FIELDS
            if body.get(pair[names]) not in (None, "")
        }
        for body in bodies
    ]


@csrf_exempt
@page("csp-report", posts=True)  # a browser's report, not a screen's form: nothing changes
@require_POST
def csp_report(request):
    """Log each violation of the posted report: 204; a body too long 413, one that is no report 400."""
    body = request.read(MAX_REPORT_BYTES + 1)
    if len(body) > MAX_REPORT_BYTES:
        return HttpResponse(status=413)
    try:
        found = violations(json.loads(body))
    except (ValueError, RecursionError):  # not JSON or UTF-8 (both ValueError), nested too deep, or no report
        return HttpResponse(status=400)
    for violation in found:
        log.warning("CSP violation: %s", " ".join(f"{key}={value}" for key, value in violation.items()))
    return HttpResponse(status=204)
