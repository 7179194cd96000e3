"""The API's JSON parser (settings: REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]). A module of its own:
DRF loads it while it sets itself up, so it imports nothing of DRF's views."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONObjectParser(JSONParser):
    """A JSON body of this API is an object. One nested too deep for the parser, or one that is not an
    object (null, a number, a list), is refused with a 400 in the one error shape, never a 500.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON body is nested too deeply.")) from None
        if not isinstance(data, dict):
            raise ParseError(_('The JSON body must be an object: {"name": value, ...}.'))
        return data
