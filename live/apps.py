from django.apps import AppConfig


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from core import broadcast, groups

        from . import rechecks

        def close_on_logout(sender, request, user, **kwargs):
            # A WebSocket's user is fixed at connect: close it when the user logs out.
            if user is not None:
                broadcast.close_sockets(groups.user(user.pk), "logout")

        user_logged_out.connect(close_on_logout, dispatch_uid="live.close_on_logout", weak=False)
        rechecks.connect()  # roles, standing and tournaments worked: open sockets re-checked
