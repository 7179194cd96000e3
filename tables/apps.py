from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        # The tables' reactions to registration (core.reactions): a new entry gets a seat, a voided one frees it.
        from core import reactions
        from tournament.services import ENTRY_REGISTERED, ENTRY_VOIDED

        from .reactions import free_voided_entry, seat_registered_entry

        reactions.on(ENTRY_REGISTERED, seat_registered_entry)
        reactions.on(ENTRY_VOIDED, free_voided_entry)
