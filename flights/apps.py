from django.apps import AppConfig


class FlightsConfig(AppConfig):
    """Events with Day 1 flights into one Day 2: each flight a tournament of its own, the bags that
    go on by the stack policy, one prize pool summed over the flights, places paid from Day 2 only."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "flights"

    def ready(self) -> None:
        # The flights' reactions to the floor and the desk, and their answers to the apps below (core.reactions).
        from core import reactions
        from days.selectors.bags import BAG_NUMBER_SCOPE, DAY_OFFSET, NEXT_DAY_ELSEWHERE
        from flights.reactions import (
            bag_number_scope,
            day2_days,
            end_by_share,
            next_day_of_a_flight,
            no_place_in_a_flight,
            no_void_of_a_carried_entry,
            pool_of_the_flights,
            registration_by_policy,
        )
        from tables.services.busts import ENTRY_BUSTED, FIXED_PLACE
        from tournament.selectors.stats import SHARED_POOL
        from tournament.services.registration import ENTRY_REGISTERED, ENTRY_VOIDED

        reactions.on(ENTRY_REGISTERED, registration_by_policy)
        reactions.on(ENTRY_VOIDED, no_void_of_a_carried_entry)
        reactions.on(FIXED_PLACE, no_place_in_a_flight)
        reactions.on(ENTRY_BUSTED, end_by_share)
        reactions.on(SHARED_POOL, pool_of_the_flights)
        reactions.on(BAG_NUMBER_SCOPE, bag_number_scope)
        reactions.on(NEXT_DAY_ELSEWHERE, next_day_of_a_flight)
        reactions.on(DAY_OFFSET, day2_days)
