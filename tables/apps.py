from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        # The tables' reactions to registration (core.reactions): a new entry gets a seat, a voided one frees it;
        # and the receipt asks where an entry sits; a redraw waits for the hands in play.
        from core import reactions
        from tables.reactions import (
            copy_house_rules,
            entry_seat,
            free_voided_entry,
            redraw_once_the_hands_are_done,
            seat_registered_entry,
            seats_to_fill,
            start_full_sit_and_go,
        )
        from tables.services.handforhand import BETWEEN_HANDS
        from tournament.selectors.receipts import ENTRY_SEAT
        from tournament.selectors.waiting_list import SEATS
        from tournament.services.registration import ENTRY_REGISTERED, ENTRY_VOIDED
        from venues.services.sit_and_go import SIT_AND_GO_OPENED

        reactions.on(ENTRY_REGISTERED, seat_registered_entry)
        reactions.on(ENTRY_REGISTERED, start_full_sit_and_go)  # the registration that fills a sit & go starts it
        reactions.on(BETWEEN_HANDS, redraw_once_the_hands_are_done)  # a redraw waits for the hands in play
        reactions.on(ENTRY_VOIDED, free_voided_entry)
        reactions.on(ENTRY_SEAT, entry_seat)
        reactions.on(SEATS, seats_to_fill)  # the seats a sold-out tournament's waiting list waits for
        reactions.on(SIT_AND_GO_OPENED, copy_house_rules)  # the next of a sit & go series plays by the same house rules
