"""Lobby screen links kept as hashes: each existing link's secret is hashed in place, so the links already
on the TVs keep working, and the clear column goes."""

import hashlib
import secrets

from django.db import migrations, models

PREFIX_LENGTH = 6


def hash_links(apps, schema_editor):
    DisplayToken = apps.get_model("tournament", "DisplayToken")
    for display in DisplayToken.objects.only("pk", "token").iterator():
        DisplayToken.objects.filter(pk=display.pk).update(
            token_hash=hashlib.sha256(display.token.encode()).hexdigest(), prefix=display.token[:PREFIX_LENGTH])


def new_clear_links(apps, schema_editor):
    """Backwards: the secrets are gone, so every screen gets a new link (the old ones stop working)."""
    DisplayToken = apps.get_model("tournament", "DisplayToken")
    for display in DisplayToken.objects.only("pk").iterator():
        DisplayToken.objects.filter(pk=display.pk).update(token=secrets.token_urlsafe())


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0005_color_up_spelling"),
    ]

    operations = [
        migrations.AddField(
            model_name="displaytoken",
            name="token_hash",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="displaytoken",
            name="prefix",
            field=models.CharField(default="", editable=False, max_length=PREFIX_LENGTH),
            preserve_default=False,
        ),
        # Backwards the clear column comes back empty and not unique, then gets fresh links.
        migrations.AlterField(
            model_name="displaytoken",
            name="token",
            field=models.CharField(default="", editable=False, max_length=64),
        ),
        migrations.RunPython(hash_links, new_clear_links),
        migrations.RemoveField(
            model_name="displaytoken",
            name="token",
        ),
        migrations.AlterField(
            model_name="displaytoken",
            name="token_hash",
            field=models.CharField(editable=False, max_length=64, unique=True),
        ),
        migrations.AddConstraint(
            model_name="displaytoken",
            constraint=models.CheckConstraint(condition=models.Q(("token_hash", ""), _negated=True), name="display_token_hashed"),
        ),
    ]
