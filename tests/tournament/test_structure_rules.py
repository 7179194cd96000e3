"""The pure structure rules: one case per problem code, numbering, the JSON export format."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import BASIC_SPEC
from tournament.rules import structure as rules
from tournament.rules.structure import FormatError, LevelSpec, Problem, StructureSpec
from tournament.selectors.messages import format_error_message, format_problems, problem_message

CHIPS = ((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow"))


def lv(sb: int, bb: int, ante: int = 0, ante_type: str = "none", minutes: int = 20) -> LevelSpec:
    return LevelSpec(rules.LEVEL, minutes, sb, bb, ante, ante_type)


def brk(*color_up: int, minutes: int = 10) -> LevelSpec:
    return LevelSpec(rules.BREAK, minutes, color_up=tuple(color_up))


def spec(*levels: LevelSpec, chips=CHIPS, name: str = "Test") -> StructureSpec:
    return StructureSpec(name=name, denominations=tuple(chips), levels=tuple(levels))


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def test_the_basic_structure_is_valid():
    # The baseline every case below breaks in exactly one way.
    assert rules.validate(BASIC_SPEC, 20000) == []
    assert rules.validate(spec(lv(100, 200), lv(200, 400)), 20000) == []


# (problem code, structure, starting stack, expected row of the problem, expected params subset)
CASES = [
    ("name_missing", spec(lv(100, 200), name="  "), None, None, {}),
    ("name_too_long", spec(lv(100, 200), name="x" * (rules.MAX_NAME + 1)), None, None, {"max": rules.MAX_NAME}),
    (
        "colour_too_long",
        spec(lv(100, 200), chips=((25, "g" * (rules.MAX_COLOUR + 1)), (100, "black"))),
        None,
        None,
        {"max": rules.MAX_COLOUR},
    ),
    ("no_denominations", spec(lv(100, 200), chips=()), None, None, {}),
    ("denomination_not_positive", spec(lv(100, 200), chips=((0, "white"), (100, "black"))), None, None, {"value": 0}),
    ("denomination_duplicate", spec(lv(100, 200), chips=((25, "green"), (25, "red"), (100, "black"))), None, None, {"value": 25}),
    ("colour_missing", spec(lv(100, 200), chips=((25, " "), (100, "black"))), None, None, {}),
    ("colour_duplicate", spec(lv(100, 200), chips=((25, "green"), (100, " Green"))), None, None, {"colour": "green"}),
    ("no_levels", spec(), None, None, {}),
    ("starts_with_break", spec(brk(), lv(100, 200)), None, 1, {}),
    ("kind_unknown", spec(lv(100, 200), LevelSpec("pause", 10)), None, 2, {"kind": "pause"}),
    ("minutes_not_positive", spec(lv(100, 200, minutes=0)), None, 1, {}),
    ("minutes_too_long", spec(lv(100, 200, minutes=rules.MAX_MINUTES + 1)), None, 1, {"max": rules.MAX_MINUTES}),
    ("break_has_blinds", spec(lv(100, 200), LevelSpec(rules.BREAK, 10, 100, 200)), None, 2, {}),
    ("color_up_not_in_play", spec(lv(100, 200), brk(5), lv(200, 400)), None, 2, {"value": 5}),
    ("color_up_largest", spec(lv(100, 200), brk(1000), lv(200, 400)), None, 2, {"value": 1000}),
    ("color_up_all", spec(lv(100, 200), brk(25, 100, 500, 1000)), None, 2, {}),
    ("blind_not_positive", spec(lv(0, 200)), None, 1, {"level": 1}),
    ("small_blind_above_big", spec(lv(300, 200)), None, 1, {"level": 1}),
    ("ante_type_unknown", spec(lv(100, 200, 200, "straddle")), None, 1, {"ante_type": "straddle"}),
    ("ante_without_type", spec(lv(100, 200, 200, "none")), None, 1, {"level": 1}),
    ("ante_missing", spec(lv(100, 200, 0, "bba")), None, 1, {"level": 1}),
    ("not_payable", spec(lv(110, 225)), None, 1, {"what": "small_blind", "amount": 110, "smallest": 25}),
    ("blinds_fall", spec(lv(100, 200), lv(50, 100)), None, 2, {"level": 2, "previous": 1}),
    ("level_not_rising", spec(lv(100, 200), lv(100, 200)), None, 2, {"level": 2, "previous": 1}),
    ("number_too_large", spec(lv(100, 200), lv(100, rules.MAX_AMOUNT + 100)), None, 2, {"value": rules.MAX_AMOUNT + 100}),
    ("starting_stack_not_positive", spec(lv(100, 200)), 0, None, {}),
    ("starting_stack_not_payable", spec(lv(100, 200)), 20010, None, {"stack": 20010, "smallest": 25}),
]


@pytest.mark.parametrize(("code", "structure", "stack", "row", "params"), CASES, ids=[c[0] for c in CASES])
def test_each_problem_is_reported(code, structure, stack, row, params):
    problems = rules.validate(structure, stack)
    found = [p for p in problems if p.code == code]
    assert found, codes(problems)
    assert found[0].position == row
    assert params.items() <= found[0].params.items()


def test_every_problem_code_in_the_rules_has_a_test_case():
    source = Path(rules.__file__).read_text()
    in_rules = set(re.findall(r'Problem\("(\w+)"', source))
    assert in_rules == {c[0] for c in CASES}


@pytest.mark.parametrize(("code", "structure", "stack", "row", "params"), CASES, ids=[c[0] for c in CASES])
def test_every_problem_has_a_human_message(code, structure, stack, row, params):
    problems = [p for p in rules.validate(structure, stack) if p.code == code]
    messages = format_problems(problems)
    assert messages
    for message in messages:
        assert code not in message
        assert "%(" not in message and "None" not in message
        for value in params.values():
            if isinstance(value, int):
                assert str(value) in message


def test_blinds_not_payable_after_a_color_up_removes_the_smallest_chip():
    # 350/700 is payable in green 25s; once the 25s are colored up, the smallest chip is 100.
    before = spec(lv(100, 200), lv(350, 700), brk(25), lv(400, 800))
    assert rules.validate(before) == []
    after = spec(lv(100, 200), lv(200, 400), brk(25), lv(350, 700))
    problems = rules.validate(after)
    assert codes(problems) == ["not_payable"]
    assert problems[0].position == 4
    assert problems[0].params == {"level": 3, "what": "small_blind", "amount": 350, "smallest": 100}
    assert "100" in problem_message(problems[0]) and "small blind" in problem_message(problems[0])


def test_ante_not_payable_is_named_as_the_ante():
    problems = rules.validate(spec(lv(100, 200, 210, "ante")))
    assert [(p.code, p.params["what"]) for p in problems] == [("not_payable", "ante")]


def test_color_up_of_a_chip_already_coloured_up_is_not_in_play():
    problems = rules.validate(spec(lv(100, 200), brk(25), lv(200, 400), brk(25), lv(300, 600)))
    assert [(p.code, p.position) for p in problems] == [("color_up_not_in_play", 4)]


def test_chips_in_play_drop_after_the_break_that_colours_them_up():
    assert rules.chips_in_play_by_row(BASIC_SPEC) == [
        (25, 100, 500, 1000),
        (25, 100, 500, 1000),
        (25, 100, 500, 1000),
        (100, 500, 1000),
        (100, 500, 1000),
    ]


def test_zero_minute_break():
    problems = rules.validate(spec(lv(100, 200), brk(minutes=0), lv(200, 400)))
    assert [(p.code, p.position) for p in problems] == [("minutes_not_positive", 2)]


def test_blinds_compare_with_the_level_before_the_break():
    # The break between them does not hide a fall.
    problems = rules.validate(spec(lv(200, 400), brk(), lv(100, 200)))
    assert [(p.code, p.position, p.params["previous"]) for p in problems] == [("blinds_fall", 3, 1)]


def test_ante_type_mismatch_both_ways():
    without_type = rules.validate(spec(lv(100, 200, 200, "none")))
    without_ante = rules.validate(spec(lv(100, 200, 0, "ante")))
    assert codes(without_type) == ["ante_without_type"]
    assert codes(without_ante) == ["ante_missing"]


def test_level_numbers_skip_breaks():
    assert rules.level_numbers(BASIC_SPEC.levels) == [1, 2, None, 3, 4]
    assert rules.level_numbers([]) == []
    assert rules.level_numbers([lv(1, 2), brk(), brk(), lv(2, 4)]) == [1, None, None, 2]


def test_problems_name_the_level_number_not_the_row():
    problems = rules.validate(spec(lv(100, 200), brk(), lv(200, 400), lv(150, 300)))
    assert problems[0].position == 4 and problems[0].params["level"] == 3
    assert problem_message(problems[0]).startswith("Level 3:")


# --- JSON export format --------------------------------------------------------------------

colours = st.text(min_size=1, max_size=12)
amounts = st.integers(min_value=0, max_value=10**9)
level_rows = st.builds(
    LevelSpec,
    kind=st.just(rules.LEVEL),
    minutes=st.integers(min_value=0, max_value=600),
    small_blind=amounts,
    big_blind=amounts,
    ante=amounts,
    ante_type=st.sampled_from(rules.ANTE_TYPES),
)
break_rows = st.builds(
    LevelSpec,
    kind=st.just(rules.BREAK),
    minutes=st.integers(min_value=0, max_value=600),
    color_up=st.lists(amounts, max_size=3).map(lambda values: tuple(sorted(values))),
)
specs = st.builds(
    StructureSpec,
    name=st.text(max_size=30),
    denominations=st.dictionaries(st.integers(min_value=1, max_value=10**6), colours, max_size=6).map(
        lambda chips: tuple(sorted(chips.items()))
    ),
    levels=st.lists(st.one_of(level_rows, break_rows), max_size=12).map(tuple),
)


@given(specs)
def test_json_round_trip(structure):
    exported = rules.to_json(structure)
    through_text = json.loads(json.dumps(exported))
    assert rules.from_json(through_text) == structure
    assert rules.to_json(rules.from_json(through_text)) == exported


@given(specs, st.randoms())
def test_export_does_not_depend_on_chip_order(structure, random):
    shuffled = list(structure.denominations)
    random.shuffle(shuffled)
    assert rules.to_json(replace(structure, denominations=tuple(shuffled))) == rules.to_json(structure)


def test_export_format_is_stable():
    exported = rules.to_json(BASIC_SPEC)
    assert exported["format"] == "poker-tournament-structure" and exported["version"] == 1
    assert exported["chips"][0] == {"value": 25, "colour": "green"}
    assert exported["levels"][1] == {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 400, "ante_type": "bba"}
    assert exported["levels"][2] == {"kind": "break", "minutes": 10, "color_up": [25]}


def good_export() -> dict:
    return rules.to_json(BASIC_SPEC)


def with_change(path: tuple, value) -> dict:
    data = good_export()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


MALFORMED = [
    ("not a dict", "not json at all", "not_structure"),
    ("a list", [1, 2, 3], "not_structure"),
    ("None", None, "not_structure"),
    ("wrong format", with_change(("format",), "something-else"), "not_structure"),
    ("wrong version", with_change(("version",), 2), "version"),
    ("no version", with_change(("version",), KeyError), "version"),
    ("chips not a list", with_change(("chips",), {"25": "green"}), "missing_lists"),
    ("no levels", with_change(("levels",), KeyError), "missing_lists"),
    ("chip not a dict", with_change(("chips", 0), 25), "bad_chip"),
    ("chip without colour", with_change(("chips", 0, "colour"), KeyError), "bad_chip"),
    ("chip value a string", with_change(("chips", 0, "value"), "25"), "not_integer"),
    ("chip value a float", with_change(("chips", 0, "value"), 25.0), "not_integer"),
    ("chip value a boolean", with_change(("chips", 0, "value"), True), "not_integer"),
    ("level not a dict", with_change(("levels", 0), "level"), "bad_level"),
    ("minutes missing", with_change(("levels", 0, "minutes"), KeyError), "not_integer"),
    ("big blind null", with_change(("levels", 1, "big_blind"), None), "not_integer"),
    ("color-up not a list", with_change(("levels", 2, "color_up"), 25), "bad_level"),
    ("color-up of a string", with_change(("levels", 2, "color_up"), ["green"]), "not_integer"),
    ("no name", with_change(("name",), KeyError), "missing_name"),
    ("name a number", with_change(("name",), 7), "missing_name"),
]


@pytest.mark.parametrize(("data", "code"), [(m[1], m[2]) for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_from_json_rejects_malformed_input(data, code):
    with pytest.raises(FormatError) as err:
        rules.from_json(data)
    assert err.value.code == code
    message = format_error_message(err.value)
    assert "%(" not in message and message.endswith(".")
    if "_" in code:  # the code itself is never shown
        assert code not in message


def test_from_json_says_where_the_bad_number_is():
    with pytest.raises(FormatError) as err:
        rules.from_json(with_change(("levels", 1, "big_blind"), "400"))
    assert err.value.detail == "levels[2].big_blind"
    assert "levels[2].big_blind" in format_error_message(err.value)


def test_from_json_keeps_an_unknown_kind_for_validation_to_report():
    data = good_export()
    data["levels"][0]["kind"] = "pause"
    structure = rules.from_json(data)
    assert structure.levels[0].kind == "pause"
    assert "kind_unknown" in codes(rules.validate(structure))
    # And an unknown kind survives export, instead of silently becoming a level.
    assert rules.to_json(structure)["levels"][0]["kind"] == "pause"


@pytest.mark.parametrize("value", [0, -25])
def test_a_chip_of_zero_or_less_is_reported_not_divided_by(value):
    # Regression: a chip of value 0 crashed validation with ZeroDivisionError (a server error on import).
    problems = rules.validate(spec(lv(100, 200), chips=((value, "white"), (100, "black"))), 20000)
    assert codes(problems) == ["denomination_not_positive"]


any_ints = st.integers(min_value=-10, max_value=3 * 10**9)
any_rows = st.builds(
    LevelSpec,
    kind=st.sampled_from([rules.LEVEL, rules.BREAK, "pause"]),
    minutes=any_ints,
    small_blind=any_ints,
    big_blind=any_ints,
    ante=any_ints,
    ante_type=st.sampled_from([*rules.ANTE_TYPES, "other"]),
    color_up=st.lists(any_ints, max_size=3).map(tuple),
)
any_specs = st.builds(
    StructureSpec,
    name=st.text(max_size=5),
    denominations=st.lists(st.tuples(any_ints, st.sampled_from(["", "red", "Red", "blue"])), max_size=5).map(tuple),
    levels=st.lists(any_rows, max_size=8).map(tuple),
)


@given(any_specs, st.one_of(st.none(), any_ints))
def test_validation_never_crashes_and_every_problem_reads_as_words(structure, stack):
    problems = rules.validate(structure, stack)
    for problem, message in zip(problems, format_problems(problems), strict=True):
        assert problem.code not in message and "%(" not in message
