"""Numbers in URLs (tournaments, entries, tables, receipts...): at most 18 digits, so every number a path
takes fits the database's 64-bit integers; a longer one is no such page (404), never a 500 from an
overflow in the database driver. Registered as <id:...> when this module is imported, before any pattern
using it is made (config/urls.py, live/routing.py)."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
