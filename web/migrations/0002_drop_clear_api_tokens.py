"""Django REST framework's token table held API tokens in clear. The app is gone (web/auth.py keeps tokens
hashed), and its old tokens no longer work: drop the table, so no dump or backup carries them, and forget
its migrations (were the app ever installed again, it would make its table anew)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("web", "0001_tokens_and_idempotency"),
    ]

    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", reverse_sql=migrations.RunSQL.noop),
        migrations.RunSQL("DELETE FROM django_migrations WHERE app = 'authtoken'", reverse_sql=migrations.RunSQL.noop),
    ]
