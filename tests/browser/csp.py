"""The Content-Security-Policy and the console, as a browser test watches a page: what the policy
blocked (the securitypolicyviolation events, listened to before any script of the page runs), console errors
and uncaught errors in the page's scripts."""

from __future__ import annotations

CSP_LISTENER = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile || "the page"}:${e.lineNumber})`));"""


def watch_errors(page) -> list[str]:
    """Listen on a new page: its console errors and uncaught errors, as they come (csp_problems adds the CSP's)."""
    errors: list[str] = []
    page.add_init_script(CSP_LISTENER)
    page.on("console", lambda message: errors.append(f"console error: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


def csp_problems(page, errors: list[str]) -> list[str]:
    return [f"CSP: {v}" for v in page.evaluate("window.cspViolations || []")] + errors
