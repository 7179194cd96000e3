"""Director's setup screens: structures (templates, copy, import/export) and tournaments.

The pages only render: their forms save through the JSON API (web/tournament/api.py) with the shared
client (static/js/api-forms.js; the structure editor's rows are sent by static/js/structure-editor.js).
After a success the screen goes where the old form went, saying what was saved.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.models import Structure, Tournament
from tournament.rules import structure as rules
from tournament.services import setup
from venues.models import SitAndGo
from web.access import page

from .setup_forms import CopyForm, ImportForm, StructureEditor, TemplateChoiceForm, TournamentCreateForm, TournamentForm

ANY_ID = 2_147_483_647  # reversed, then replaced by "{id}": the page to go to once the API answers


def url_of_answer(name: str) -> str:
    """The URL of a page of the saved object, `{id}` for the API's answer to fill in (static/js/api-forms.js)."""
    return reverse(name, args=[ANY_ID]).replace(str(ANY_ID), "{id}")


# --- structures --------------------------------------------------------------------------


@page("structure-list")
def structure_list(request: HttpRequest) -> HttpResponse:
    templates = Structure.objects.filter(is_template=True).prefetch_related("levels", "denominations")
    rows = []
    for structure in templates:
        levels = list(structure.levels.all())
        rows.append(
            {
                "structure": structure,
                "levels": sum(1 for lv in levels if lv.kind == rules.LEVEL),
                "breaks": sum(1 for lv in levels if lv.kind == rules.BREAK),
                "minutes": sum(lv.minutes for lv in levels),
                "chips": [d.value for d in structure.denominations.all()],
            }
        )
    # A template belongs to no venue: its times in the default venue's zone (settings.VENUE_TIME_ZONE).
    with timezone.override(settings.VENUE_TIME_ZONE):
        return render(request, "setup/structure_list.html", {"rows": rows})


def _structure_editor(
    request: HttpRequest, *, spec: rules.StructureSpec | None, api: dict, context: dict, extra_rows: tuple[int, int] = (2, 3)
) -> HttpResponse:
    """The editor of templates and of a tournament's own structure. `api`: where its script sends the
    structure (path, method) and where it goes then (next); what it says is static/js/form-words.js's."""
    editor = StructureEditor(spec, chip_rows=extra_rows[0], level_rows=extra_rows[1])
    return render(request, "setup/structure_form.html", {"editor": editor, "api": api, "format_version": rules.FORMAT_VERSION, **context})


@page("structure-create")
def structure_create(request: HttpRequest) -> HttpResponse:
    api = {"path": "structures/", "method": "post", "next": reverse("structure-list")}
    return _structure_editor(
        request, spec=None, api=api, extra_rows=(6, 12), context={"title": _("New structure"), "cancel_url": "structure-list"}
    )


@page("structure-edit")
def structure_edit(request: HttpRequest, pk: int) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=pk, is_template=True)
    api = {"path": f"structures/{structure.pk}/", "method": "put", "next": reverse("structure-list")}
    return _structure_editor(
        request,
        spec=setup.spec_of(structure),
        api=api,
        context={"title": _("Edit structure"), "structure": structure, "cancel_url": "structure-list"},
    )


@page("structure-copy")
def structure_copy(request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(Structure, pk=pk)
    form = CopyForm(initial={"name": _("%(name)s (copy)") % {"name": source.name}})
    tournament = Tournament.objects.filter(structure=source).first()
    return render(
        request, "setup/structure_copy.html", {"form": form, "source": source, "t": tournament, "next": url_of_answer("structure-edit")}
    )


@page("structure-export")
def structure_export(request: HttpRequest, pk: int) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=pk)
    body = json.dumps(setup.export_structure(structure), ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    filename = f"{slugify(structure.name) or 'structure'}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@page("structure-import")
def structure_import(request: HttpRequest) -> HttpResponse:
    return render(request, "setup/structure_import.html", {"form": ImportForm(), "next": url_of_answer("structure-edit")})


# --- tournaments -------------------------------------------------------------------------


def _tournament_form(request: HttpRequest, form: TournamentForm, api: dict, context: dict) -> HttpResponse:
    api = {**api, "next": url_of_answer("tournament-detail")}
    return render(request, "setup/tournament_form.html", {"form": form, "api": api, **context})


@page("tournament-create")
def tournament_create(request: HttpRequest) -> HttpResponse:
    initial = {}
    chosen = request.GET.get("template", "")
    if chosen.isdigit():
        initial["template"] = int(chosen)
    has_templates = Structure.objects.filter(is_template=True).exists()
    return _tournament_form(
        request,
        TournamentCreateForm(initial=initial),
        {"path": "tournaments/", "method": "post"},
        {"title": _("New tournament"), "has_templates": has_templates},
    )


@page("tournament-edit")
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    return _tournament_form(
        request,
        TournamentForm(instance=tournament),
        {"path": f"tournaments/{pk}/", "method": "patch"},
        {"title": _("Tournament settings"), "t": tournament, "sng": SitAndGo.objects.filter(tournament=tournament).first()},
    )


@page("tournament-structure")
def tournament_structure(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit the tournament's own structure; a template can be loaded into the editor first."""
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=pk)
    spec = setup.spec_of(tournament.structure)
    loaded = None
    chooser = TemplateChoiceForm(request.GET if "template" in request.GET else None)
    if chooser.is_bound and chooser.is_valid():
        loaded = chooser.cleaned_data["template"]
        spec = setup.spec_of(loaded)
    api = {"path": f"tournaments/{tournament.pk}/structure/", "method": "put", "next": reverse("tournament-detail", args=[tournament.pk])}
    return _structure_editor(
        request,
        spec=spec,
        api=api,
        context={
            "title": _("Structure of %(name)s") % {"name": tournament.name},
            "t": tournament,
            "structure": tournament.structure,
            "chooser": chooser,
            "loaded": loaded,
        },
    )
