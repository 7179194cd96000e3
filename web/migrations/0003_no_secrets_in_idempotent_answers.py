"""Answers stored before every secret-bearing operation declared its secrets (a table's shuffler token):
the secret fields of every stored answer are set to null, as the store now writes them (web/idempotency.py)."""
import json

from django.db import migrations

SECRET_FIELDS = ("token", "url", "shuffler_token", "secret")  # as web.idempotency.SECRET_FIELDS when written


def clean(apps, schema_editor):
    IdempotencyKey = apps.get_model("web", "IdempotencyKey")
    for press in IdempotencyKey.objects.exclude(body="").iterator():
        try:
            body = json.loads(press.body)
        except ValueError:
            continue
        if isinstance(body, dict) and any(body.get(name) is not None for name in SECRET_FIELDS):
            press.body = json.dumps({k: None if k in SECRET_FIELDS else v for k, v in body.items()})
            press.save(update_fields=["body"])


class Migration(migrations.Migration):
    dependencies = [("web", "0002_drop_clear_api_tokens")]
    operations = [migrations.RunPython(clean, migrations.RunPython.noop)]
