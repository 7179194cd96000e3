from django.apps import AppConfig


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from core import broadcast, groups

        def close_on_logout(sender, request, user, **kwargs):
            # A WebSocket's user is fixed at connect: close it when the user logs out.
            if user is not None:
                broadcast.close_sockets(groups.user(user.pk), "logout")

        user_logged_out.connect(close_on_logout, dispatch_uid="live.close_on_logout", weak=False)
        connect_rechecks()


def connect_rechecks() -> None:
    """A user's roles or standing change: that user's open sockets check again at once whether they may
    stay (core/broadcast.py recheck_sockets), after the change commits. Group changes from either side,
    a save (made inactive, a new password; not the login's own last_login), a deletion."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models.signals import m2m_changed, post_delete, post_save

    from core import broadcast

    User = get_user_model()

    def recheck(user_ids, reason: str) -> None:
        for user_id in set(user_ids):
            transaction.on_commit(lambda user_id=user_id: broadcast.recheck_sockets(user_id, reason))

    def groups_changed(sender, instance, action, reverse, pk_set, **kwargs):
        if action not in ("post_add", "post_remove", "post_clear", "pre_clear"):
            return
        if not reverse:  # user.groups.add/remove/clear/set
            if action != "pre_clear":
                recheck([instance.pk], "roles")
        elif action == "pre_clear":  # group.user_set.clear(): who was in it is known only before
            recheck(instance.user_set.values_list("pk", flat=True), "roles")
        elif action != "post_clear":
            recheck(pk_set or [], "roles")

    def user_saved(sender, instance, created, update_fields=None, **kwargs):
        if not created and set(update_fields or ()) != {"last_login"}:
            recheck([instance.pk], "user")

    def user_deleted(sender, instance, **kwargs):
        recheck([instance.pk], "deleted")

    m2m_changed.connect(groups_changed, sender=User.groups.through, dispatch_uid="live.groups_changed", weak=False)
    post_save.connect(user_saved, sender=User, dispatch_uid="live.user_saved", weak=False)
    post_delete.connect(user_deleted, sender=User, dispatch_uid="live.user_deleted", weak=False)
