"""The one role check in templates (core/access.py `may`), built into every template (settings TEMPLATES
"builtins"): {% if user|may:"register" %}, {% if user|may:"api-entry-bust:POST" %}."""

from __future__ import annotations

from django import template

from core import access

register = template.Library()


@register.filter
def may(user, name: str) -> bool:
    """May this user use the page, socket or API operation ("name:METHOD") of core/access.py's table?"""
    return access.may(user, name)
