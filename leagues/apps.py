from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    """Leagues: seasons of tournaments, their points formula, the points of each finished tournament and
    the standings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        # Every change that may move a finishing place gives the points again (core.reactions).
        from core import reactions
        from leagues.reactions import points_follow_the_places
        from payouts.services.structure import DEAL_APPROVED
        from tables.services.busts import BUST_UNDONE, ENTRY_BUSTED
        from tables.services.eliminations import ELIMINATION_CORRECTED
        from tournament.services.registration import ENTRY_REGISTERED, ENTRY_VOIDED

        for change in (ENTRY_BUSTED, BUST_UNDONE, ENTRY_VOIDED, ENTRY_REGISTERED, DEAL_APPROVED, ELIMINATION_CORRECTED):
            reactions.on(change, points_follow_the_places)
