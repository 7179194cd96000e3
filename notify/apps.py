import logging

from django.apps import AppConfig
from django.conf import settings


class NotifyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notify"

    def ready(self) -> None:
        # Every audit event reaches notify (core.reactions): the ones a player is told of schedule a push after commit.
        from core import reactions
        from notify.reactions import push_after_commit
        from tournament.services.audit import EVENT_RECORDED

        reactions.on(EVENT_RECORDED, push_after_commit)
        if not settings.WEBPUSH_VAPID_PRIVATE_KEY:
            # DEBUG off and no keys (with DEBUG on, config/settings.py makes a pair): said by every process at its start.
            logging.getLogger("notify").warning(
                "WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are not set: the seat pages offer no notifications. "
                "Make a pair with `python manage.py webpush_keys` (docs/notifications.md)."
            )
