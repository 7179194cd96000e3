from django.apps import AppConfig


class PayoutsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payouts"

    def ready(self) -> None:
        # The one source of the places paid (core.reactions): the tables ask for it to suggest hand-for-hand
        # at the bubble; the payout structure in force answers.
        from core import reactions
        from payouts.reactions import (
            bounties_of_a_bust,
            bounties_replayed,
            copy_satellite,
            finished_with_play,
            no_entry_under_a_deal,
            no_reopening_after_a_payment,
            no_undo_before_a_deal,
            no_void_under_a_deal,
            paid_prizes_stand,
            place_fixed_by_a_deal,
        )
        from payouts.selectors.bounties import pool_added_answer
        from payouts.selectors.envelope_draws import envelope_draw_answer
        from payouts.selectors.structure import places_paid_answer
        from payouts.services.structure import DEAL_APPROVED
        from payouts.services.tickets import tickets_follow
        from tables.selectors.draw_check import ENVELOPE_DRAW
        from tables.selectors.screens import PLACES_PAID
        from tables.services.busts import BUST_UNDONE, ENTRY_BUSTED, FIXED_PLACE
        from tables.services.eliminations import ELIMINATION_CORRECTED
        from tournament.selectors.stats import POOL_ADDED
        from tournament.services.registration import ENTRY_REGISTERED, ENTRY_VOIDED, REGISTRATION_REOPENED
        from venues.services.sit_and_go import SIT_AND_GO_OPENED

        reactions.on(PLACES_PAID, places_paid_answer)
        reactions.on(SIT_AND_GO_OPENED, copy_satellite)  # the next of a satellite sit & go series is a satellite too
        # A deal stands on the players who made it; one that stopped play fixes their places.
        reactions.on(ENTRY_REGISTERED, no_entry_under_a_deal)
        reactions.on(ENTRY_VOIDED, no_void_under_a_deal)
        reactions.on(BUST_UNDONE, no_undo_before_a_deal)
        # A paid prize stands (its player out, its place and amount, play over under it) and registration stays
        # closed, until the cashier voids the payment.
        for change in (ENTRY_BUSTED, BUST_UNDONE, ENTRY_VOIDED):
            reactions.on(change, paid_prizes_stand)
        reactions.on(REGISTRATION_REOPENED, no_reopening_after_a_payment)
        reactions.on(FIXED_PLACE, place_fixed_by_a_deal)
        # A satellite stops at its seats, and its tickets follow its seat winners (payouts/services/tickets.py).
        for change in (ENTRY_BUSTED, BUST_UNDONE, ENTRY_REGISTERED, ENTRY_VOIDED):
            reactions.on(change, tickets_follow)
        # Play over finishes the tournament (its hand-for-hand, its clock); a correction lets it run again.
        for change in (ENTRY_BUSTED, BUST_UNDONE, ENTRY_REGISTERED, ENTRY_VOIDED, DEAL_APPROVED):
            reactions.on(change, finished_with_play)
        # Bounties (payouts/services/bounties.py), once play over is decided: a bust pays its eliminators; an undone bust,
        # corrected eliminators or a deal replay the night; a disqualified head may go to the prize pool.
        reactions.on(ENTRY_BUSTED, bounties_of_a_bust)
        for change in (BUST_UNDONE, ELIMINATION_CORRECTED, DEAL_APPROVED):
            reactions.on(change, bounties_replayed)
        reactions.on(POOL_ADDED, pool_added_answer)
        # A mystery envelope's draw is checked in public (tables/selectors/draw_check.py) by the bounties' own rule.
        reactions.on(ENVELOPE_DRAW, envelope_draw_answer)
