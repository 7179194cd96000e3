"""A user's roles or standing change: that user's open sockets check again at once whether they may stay
(core/broadcast.py recheck_sockets, live/consumers.py), after the change commits. Group changes from either
side, a save (made inactive, a new password; not the login's own last_login), a deletion, and the
tournaments a staff member works (core/roles.py works_in), from either side."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from core import broadcast
from tournament.models import StaffProfile


def recheck(user_ids, reason: str) -> None:
    for user_id in set(user_ids):
        transaction.on_commit(lambda user_id=user_id: broadcast.recheck_sockets(user_id, reason))


def connect() -> None:
    """Called once, from the app's ready()."""
    User = get_user_model()

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

    def scope_changed(sender, instance, action, reverse, pk_set, **kwargs):
        """The tournaments a staff member works (core/roles.py works_in), from either side."""
        if action not in ("post_add", "post_remove", "pre_clear"):
            return
        if not reverse:
            recheck([instance.user_id], "tournaments")
        else:
            profiles = instance.own_staff.all() if action == "pre_clear" else StaffProfile.objects.filter(pk__in=pk_set or [])
            recheck(profiles.values_list("user_id", flat=True), "tournaments")

    m2m_changed.connect(scope_changed, sender=StaffProfile.tournaments.through, dispatch_uid="live.scope_changed", weak=False)
    post_save.connect(user_saved, sender=User, dispatch_uid="live.user_saved", weak=False)
    post_delete.connect(user_deleted, sender=User, dispatch_uid="live.user_deleted", weak=False)
