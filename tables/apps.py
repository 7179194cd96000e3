from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        # The tables' reactions to registration (core.reactions): a new entry gets a seat, a voided one frees it;
        # and the receipt asks where an entry sits.
        from core import reactions
        from tournament.receipts import ENTRY_SEAT
        from tournament.services import ENTRY_REGISTERED, ENTRY_VOIDED

        from .reactions import entry_seat, free_voided_entry, seat_registered_entry

        reactions.on(ENTRY_REGISTERED, seat_registered_entry)
        reactions.on(ENTRY_VOIDED, free_voided_entry)
        reactions.on(ENTRY_SEAT, entry_seat)
