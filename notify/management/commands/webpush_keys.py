"""`python manage.py webpush_keys`: a new VAPID key pair for Web Push, printed as the environment lines to set
(docs/notifications.md). Nothing is stored: keep the private key with the other secrets."""

from django.core.management.base import BaseCommand

from notify.rules.keys import make_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY)."

    def handle(self, *args, **options) -> None:
        private, public = make_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("WEBPUSH_VAPID_SUBJECT=mailto:you@example.com")
