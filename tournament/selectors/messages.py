"""Translated messages for the problems the pure structure rules report."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.rules.structure import FormatError, Problem

WHAT = {
    "small_blind": lambda: _("small blind"),
    "big_blind": lambda: _("big blind"),
    "ante": lambda: _("ante"),
}


def problem_message(problem: Problem) -> str:
    p = dict(problem.params)
    if "what" in p:
        p["what"] = WHAT[p["what"]]()
    row = problem.position
    texts = {
        "name_missing": _("The structure needs a name."),
        "name_too_long": _("The structure's name is too long (at most %(max)s characters)."),
        "no_denominations": _("Add at least one chip denomination."),
        "denomination_not_positive": _("Chip value %(value)s must be a whole number above zero."),
        "denomination_duplicate": _("Chip value %(value)s is listed twice."),
        "colour_missing": _("Every chip needs a colour."),
        "colour_too_long": _("A chip colour is too long (at most %(max)s characters)."),
        "colour_duplicate": _("Two chips share the colour %(colour)s."),
        "no_levels": _("Add at least one level."),
        "starts_with_break": _("The structure cannot start with a break."),
        "kind_unknown": _("Row %(row)s: unknown kind %(kind)s."),
        "minutes_not_positive": _("Row %(row)s: a level or break must last at least one minute."),
        "minutes_too_long": _("Row %(row)s: a level or break lasts at most %(max)s minutes."),
        "break_has_blinds": _("Row %(row)s: a break has no blinds or ante."),
        "color_up_not_in_play": _("Row %(row)s: the %(value)s chip is not in play at this break, so it cannot color up."),
        "color_up_largest": _("Row %(row)s: the %(value)s chip is the largest in play; there is nothing to color it up to."),
        "color_up_all": _("Row %(row)s: this break would color up every chip in play."),
        "blind_not_positive": _("Level %(level)s: both blinds must be above zero."),
        "small_blind_above_big": _("Level %(level)s: the small blind is larger than the big blind."),
        "ante_type_unknown": _("Level %(level)s: unknown ante type %(ante_type)s."),
        "ante_without_type": _("Level %(level)s: an ante is set but the ante type is 'no ante'."),
        "ante_missing": _("Level %(level)s: the ante type is set but the ante is zero."),
        "not_payable": _("Level %(level)s: the %(what)s of %(amount)s cannot be paid with the chips in play (smallest chip %(smallest)s)."),
        "blinds_fall": _("Level %(level)s: the blinds are lower than in level %(previous)s; blinds must rise."),
        "level_not_rising": _("Level %(level)s: blinds and ante are the same as in level %(previous)s; blinds must rise."),
        "starting_stack_not_positive": _("The starting stack must be above zero."),
        "starting_stack_not_payable": _("The starting stack of %(stack)s cannot be made with the chips (smallest chip %(smallest)s)."),
        "number_too_large": _("Row %(row)s: %(value)s is too large (at most %(max)s).")
        if row is not None
        else _("%(value)s is too large (at most %(max)s)."),
    }
    return texts.get(problem.code, problem.code) % {**p, "row": row}


def format_problems(problems: list[Problem]) -> list[str]:
    return [problem_message(p) for p in problems]


def format_error_message(error: FormatError) -> str:
    """Why an imported file is not a structure export, in words (the pure rule gives a code and a place)."""
    where = error.detail
    texts = {
        "not_structure": _("The file is not a structure export of this program."),
        "version": _("The file is a structure export of an unknown version (%(where)s)."),
        "missing_lists": _("The file has no list of chips or no list of levels."),
        "bad_chip": _("Chip %(where)s needs a value and a colour."),
        "bad_level": _("Row %(where)s of the levels is not a level or a break."),
        "not_integer": _("%(where)s must be a whole number."),
        "missing_name": _("The structure in the file has no name."),
    }
    return texts.get(error.code, _("The file is not a structure export of this program.")) % {"where": where}
