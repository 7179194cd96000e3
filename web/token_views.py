"""The director's page of API tokens: who holds one, since when, last used, until when. It only reads;
a revocation goes through the JSON API (POST /api/auth/tokens/<id>/revoke/, web/auth_api.py)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from .access import page
from .auth_api import token_list


@require_safe
@page("tokens")
def tokens(request):
    active_only = request.GET.get("active") == "1"
    with timezone.override(settings.VENUE_TIME_ZONE):  # tokens belong to no tournament: the default venue's clock
        return render(request, "auth/tokens.html", {"tokens": token_list(active_only), "active_only": active_only, "now": timezone.now()})
