"""A tournament in one file, from a screen (docs/tournament-file.md): the director downloads a
tournament's file, the same bytes as `manage.py export_tournament` writes (archive/selectors/export.py), and opens the import
page, whose form sends the file to the JSON API (web/archive/api.py) with the shared client (static/js/api-forms.js).

The download records no event: an export is a read and changes nothing, as the results' CSV and PDF downloads and
the day's reports, which hold names too, record none. The file holds personal data; only the director reaches it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from archive.selectors.export import export_tournament, file_text
from tournament.models import Tournament
from web.access import page
from web.tournament.setup_views import url_of_answer


def file_name(tournament: Tournament) -> str:
    return f"tournament-{tournament.pk}.json"  # the command's default file name


@page("tournament-export")
@never_cache
def export_file(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    text = file_text(export_tournament(tournament))
    response = HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(tournament)}"'
    return response


@page("tournament-import")
def import_page(request: HttpRequest) -> HttpResponse:
    return render(
        request, "archive/import.html", {"next": url_of_answer("tournament-detail"), "max_megabytes": settings.TOURNAMENT_FILE_MAX_MB}
    )
