"""Director's setup screens: structures (templates, copy, import/export) and tournaments.

Thin: parse the forms, call one service, show its refusal (with every detail) or move on.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core import errors
from tournament import setup
from tournament import structure as rules
from tournament.models import Structure, Tournament
from web.access import page

from .setup_forms import CopyForm, ImportForm, StructureEditor, TemplateChoiceForm, TournamentCreateForm, TournamentForm

GET_POST = require_http_methods(["GET", "POST"])


def _service_call(request: HttpRequest, fn, *args, **kwargs):
    """Run a service; its refusal, with every detail, becomes error messages. Returns the result or None."""
    try:
        return fn(*args, **kwargs)
    except errors.ServiceError as exc:
        for text in exc.details or [exc.message]:
            messages.error(request, text)
        return None


# --- structures --------------------------------------------------------------------------


@page("structure-list")
@require_GET
def structure_list(request: HttpRequest) -> HttpResponse:
    templates = Structure.objects.filter(is_template=True).prefetch_related("levels", "denominations")
    rows = []
    for structure in templates:
        levels = list(structure.levels.all())
        rows.append({
            "structure": structure,
            "levels": sum(1 for lv in levels if lv.kind == rules.LEVEL),
            "breaks": sum(1 for lv in levels if lv.kind == rules.BREAK),
            "minutes": sum(lv.minutes for lv in levels),
            "chips": [d.value for d in structure.denominations.all()],
        })
    # A template belongs to no venue: its times in the default venue's zone (settings.VENUE_TIME_ZONE).
    with timezone.override(settings.VENUE_TIME_ZONE):
        return render(request, "setup/structure_list.html", {"rows": rows})


def _structure_editor(request: HttpRequest, *, spec: rules.StructureSpec | None, save: Callable[[rules.StructureSpec], object],
                      done: Callable[[object], HttpResponse], context: dict, starting_stack: int | None = None,
                      extra_rows: tuple[int, int] = (2, 3)) -> HttpResponse:
    """The editor of templates and of a tournament's own structure: nothing is saved unless the service accepts it."""
    if request.method == "POST":
        editor = StructureEditor(request.POST)
    else:
        editor = StructureEditor(None, spec, chip_rows=extra_rows[0], level_rows=extra_rows[1])
    error = None
    if request.method == "POST" and editor.is_valid():
        try:
            result = save(editor.spec())
        except errors.ServiceError as exc:
            error = exc
            if exc.code == "structure_invalid":
                editor.mark_problems(starting_stack)
        else:
            return done(result)
    return render(request, "setup/structure_form.html", {"editor": editor, "error": error, **context})


@page("structure-create", posts=True)
@GET_POST
def structure_create(request: HttpRequest) -> HttpResponse:
    def done(structure: Structure) -> HttpResponse:
        messages.success(request, _("Structure %(name)s saved.") % {"name": structure.name})
        return redirect("structure-list")

    return _structure_editor(
        request, spec=None, save=lambda spec: setup.save_structure_template(spec, actor=request.user), done=done,
        context={"title": _("New structure"), "cancel_url": "structure-list"}, extra_rows=(6, 12),
    )


@page("structure-edit", posts=True)
@GET_POST
def structure_edit(request: HttpRequest, pk: int) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=pk, is_template=True)

    def done(saved: Structure) -> HttpResponse:
        messages.success(request, _("Structure %(name)s saved.") % {"name": saved.name})
        return redirect("structure-list")

    return _structure_editor(
        request, spec=setup.spec_of(structure),
        save=lambda spec: setup.save_structure_template(spec, actor=request.user, structure=structure), done=done,
        context={"title": _("Edit structure"), "structure": structure, "cancel_url": "structure-list"},
    )


@page("structure-copy", posts=True)
@GET_POST
def structure_copy(request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(Structure, pk=pk)
    form = CopyForm(request.POST or None, initial={"name": _("%(name)s (copy)") % {"name": source.name}})
    if request.method == "POST" and form.is_valid():
        copy = _service_call(request, setup.copy_structure, source, actor=request.user, name=form.cleaned_data["name"])
        if copy is not None:
            messages.success(request, _("Copied as %(name)s. You can change the copy now.") % {"name": copy.name})
            return redirect("structure-edit", pk=copy.pk)
    tournament = Tournament.objects.filter(structure=source).first()
    return render(request, "setup/structure_copy.html", {"form": form, "source": source, "t": tournament})


@page("structure-export")
@require_GET
def structure_export(request: HttpRequest, pk: int) -> HttpResponse:
    structure = get_object_or_404(Structure, pk=pk)
    body = json.dumps(setup.export_structure(structure), ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    filename = f"{slugify(structure.name) or 'structure'}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@page("structure-import", posts=True)
@GET_POST
def structure_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            structure = setup.import_structure(form.cleaned_data["json"], actor=request.user)
        except errors.ServiceError as exc:
            error = exc
        else:
            messages.success(request, _("Structure %(name)s imported.") % {"name": structure.name})
            return redirect("structure-edit", pk=structure.pk)
    return render(request, "setup/structure_import.html", {"form": form, "error": error})


# --- tournaments -------------------------------------------------------------------------


def _tournament_form_view(request: HttpRequest, form: TournamentForm, save: Callable[[], Tournament], context: dict) -> HttpResponse:
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            tournament = save()
        except errors.ServiceError as exc:
            error = exc
        except ValidationError as exc:  # the model's own checks, run again by the service
            for text in exc.messages:
                form.add_error(None, text)
        else:
            messages.success(request, _("Tournament %(name)s saved.") % {"name": tournament.name})
            return redirect("tournament-detail", pk=tournament.pk)
    return render(request, "setup/tournament_form.html", {"form": form, "error": error, **context})


@page("tournament-create", posts=True)
@GET_POST
def tournament_create(request: HttpRequest) -> HttpResponse:
    initial = {}
    chosen = request.GET.get("template", "")
    if chosen.isdigit():
        initial["template"] = int(chosen)
    form = TournamentCreateForm(request.POST or None, initial=initial)

    def save() -> Tournament:
        return setup.create_tournament(form.tournament_data(), actor=request.user, template=form.cleaned_data["template"])

    has_templates = Structure.objects.filter(is_template=True).exists()
    return _tournament_form_view(request, form, save, {"title": _("New tournament"), "has_templates": has_templates})


@page("tournament-edit", posts=True)
@GET_POST
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk))

    def save() -> Tournament:
        return setup.update_tournament(tournament, actor=request.user, data=form.tournament_data())

    return _tournament_form_view(request, form, save, {"title": _("Tournament settings"), "t": tournament})


@page("tournament-structure", posts=True)
@GET_POST
def tournament_structure(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit the tournament's own structure; a template can be loaded into the editor first."""
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=pk)
    spec = setup.spec_of(tournament.structure)
    loaded = None
    chooser = TemplateChoiceForm(request.GET if "template" in request.GET else None)
    if request.method == "GET" and chooser.is_bound and chooser.is_valid():
        loaded = chooser.cleaned_data["template"]
        spec = setup.spec_of(loaded)

    def done(t: Tournament) -> HttpResponse:
        messages.success(request, _("The structure of %(name)s is saved.") % {"name": t.name})
        return redirect("tournament-detail", pk=t.pk)

    return _structure_editor(
        request, spec=spec, save=lambda s: setup.set_tournament_structure(tournament, actor=request.user, spec=s), done=done,
        starting_stack=tournament.starting_stack,
        context={"title": _("Structure of %(name)s") % {"name": tournament.name}, "t": tournament,
                 "structure": tournament.structure, "chooser": chooser, "loaded": loaded},
    )
