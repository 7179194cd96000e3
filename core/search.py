"""Names as people type them: a search ignores case and accents ("novak" finds "Novák", "horvath"
finds "Horváth") and finds a name by any part of it. Plain Python."""
from __future__ import annotations

import unicodedata


def search_key(text: str) -> str:
    """The text folded for searching: case folded, accents and other combining marks removed."""
    decomposed = unicodedata.normalize("NFKD", (text or "").casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words_of(query: str) -> list[str]:
    """The query's words, folded: a name matches when it holds every one of them."""
    return search_key(query).split()


def matches(key: str, words: list[str]) -> bool:
    """Whether a folded name (`search_key`) holds every folded word."""
    return all(word in key for word in words)
