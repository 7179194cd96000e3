from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from . import auth

        # Logging out of the screens also revokes that user's API tokens (web/auth.py).
        user_logged_out.connect(auth.revoke_tokens_at_logout, dispatch_uid="web.auth.revoke_tokens_at_logout")
