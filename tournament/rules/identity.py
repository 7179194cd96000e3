"""ID document numbers: normalised, then kept only as the last four characters and a keyed HMAC.

Pure: the key is a parameter. A plain hash of an ID number is brute-forceable (docs/architecture.md).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import date

_NOT_ALNUM = re.compile(r"[^0-9A-Z]")


def normalise_document_number(number: str) -> str:
    """Upper case, with spaces, dashes and other separators removed."""
    return _NOT_ALNUM.sub("", number.upper())


def document_hmac(number: str, key: str) -> str:
    return hmac.new(key.encode(), normalise_document_number(number).encode(), hashlib.sha256).hexdigest()


def last_four(number: str) -> str:
    return normalise_document_number(number)[-4:]


def age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))
