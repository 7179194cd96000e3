"""A notice in the player's words (notify/selectors/notices.py): the message a phone shows, in the language his page had
when he opted in (translation.override), with the address of his seat page and of the "Stop" button. What the service
worker (static/js/push-sw.js) reads: title, body, tag (one notification per fact: the same fact sent twice replaces
itself), url, stop ({url, label, endpoint is the worker's own}), lang."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.money import format_money
from notify.models import PushSubscription


def _time(iso: str | None, zone: str | None) -> str:
    if not iso:
        return ""
    try:
        at = datetime.fromisoformat(iso)
        return at.astimezone(ZoneInfo(zone or "UTC")).strftime("%H:%M")
    except (ValueError, KeyError):
        return ""


def body(kind: str, facts: dict, language: str) -> str:
    """The sentence of one notice: his own facts only."""
    f = dict(facts)
    if kind in ("draw", "late"):
        return _("Your seat: table %(table)s, seat %(seat)s.") % f
    if kind == "alternate":
        f["time"] = _time(f.get("sit_by"), f.get("zone"))
        if f["time"]:
            return _("Alternate %(alternate)s: table %(table)s seat %(seat)s, sit down by %(time)s.") % f
        return _("Alternate %(alternate)s: table %(table)s seat %(seat)s.") % f
    if kind == "balance":
        return _("Move slip: go to table %(table)s seat %(seat)s with your chips.") % f
    if kind == "break":
        return _("Your table %(from_table)s is breaking: your new seat is table %(table)s seat %(seat)s. Take your chips.") % f
    if kind == "redraw":
        return _("Redraw: your new seat is table %(table)s seat %(seat)s.") % f
    if kind == "day":
        return _("Day %(day)s: your seat is table %(table)s seat %(seat)s.") % f
    if kind == "money":
        return _("The bubble has burst: you are in the money.")
    if kind == "prize":
        f["amount"] = format_money(f.get("amount"), f.get("currency") or "", language)
        return _("Place %(place)s: your prize of %(amount)s is ready at the cashier. Bring the ID you registered with.") % f
    return _("Your seat page has news.")


def message(notice: dict, subscription: PushSubscription, *, event_id: int, tournament_name: str) -> dict:
    """The JSON one phone is sent for one notice (`notice`: Notice.as_dict()), in the subscription's language."""
    t, number, kind = subscription.tournament_id, notice["entry"], notice["kind"]
    if subscription.place_id is not None:
        stop = reverse("api-public-waiting-push-stop", args=[t, subscription.place.number])
    else:
        stop = reverse("api-public-seat-push-stop", args=[t, number])
    once = kind in ("money", "prize")
    with translation.override(subscription.language):
        return {
            "title": tournament_name,
            "body": body(kind, notice["facts"], subscription.language),
            "tag": f"t{t}-e{number}-{kind}" + ("" if once else f"-{event_id}"),
            "url": reverse("seat-page", args=[t, number]),
            "stop": {"url": stop, "label": _("Stop")},
            "lang": subscription.language,
            "kind": kind,
        }
