"""The search key (core/search.py): case and accents never matter, in Czech and Slovak names."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.search import Index, matches, search_key, words_of


def test_czech_and_slovak_letters_fold_to_what_a_phone_types():
    assert search_key("Jiří Procházka") == "jiri prochazka"
    assert search_key("ĽUBOŠ ŤAŽKÝ") == "lubos tazky"
    assert search_key("Ňaňa Ôrová Äöü") == "nana orova aou"
    assert search_key("Straße") == "strasse"


def test_a_name_matches_when_it_holds_every_word_in_any_order():
    key = search_key("Jana Nováková (Jaja)")
    assert matches(key, words_of("novakova JANA"))
    assert matches(key, words_of("vák"))
    assert matches(key, words_of("jaja"))
    assert not matches(key, words_of("jana horváth"))


@given(st.text(max_size=30))
def test_folding_is_stable_and_ignores_case(text):
    assert search_key(search_key(text)) == search_key(text)
    assert search_key(text.upper()) == search_key(text.lower()) or "ß" in text.lower() or "ı" in text.lower() or "İ" in text


names = st.lists(st.text(alphabet="abnováÁ \n-", max_size=12), max_size=30)


@given(names, st.text(alphabet="abnová -", max_size=8))
def test_the_index_finds_exactly_the_names_that_match_in_order(people, query):
    keys = [search_key(name) for name in people]
    words = words_of(query)
    expected = [row for row, key in enumerate(keys) if words and matches(key.replace("\n", " "), words)]
    assert list(Index(keys).find(words)) == expected


def test_the_index_stops_when_enough_are_found():
    found = Index([search_key(f"Jana Nováková {n}") for n in range(10_000)]).find(words_of("novakova"))
    assert [next(found) for _ in range(3)] == [0, 1, 2]
