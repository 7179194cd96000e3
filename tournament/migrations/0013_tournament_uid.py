"""The tournament's uid (a tournament file's identity, archive/): added empty, given to every tournament there is,
then required and unique."""
import uuid

from django.db import migrations, models


def give_uids(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    for pk in Tournament.objects.filter(uid__isnull=True).values_list("pk", flat=True):
        Tournament.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0012_carried_into_day2'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='uid',
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(give_uids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='tournament',
            name='uid',
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
