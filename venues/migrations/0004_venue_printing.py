from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("venues", "0003_room_tv"),
    ]

    operations = [
        migrations.AddField(
            model_name="venue",
            name="paper",
            field=models.CharField(
                choices=[("a4", "A4"), ("80", "80 mm roll"), ("58", "58 mm roll")], default="80", max_length=3, verbose_name="paper"
            ),
        ),
        migrations.AddField(
            model_name="venue",
            name="printer",
            field=models.CharField(blank=True, max_length=255, verbose_name="roll printer"),
        ),
        migrations.AddConstraint(
            model_name="venue",
            constraint=models.CheckConstraint(condition=models.Q(("paper__in", ["a4", "80", "58"])), name="venue_paper_known"),
        ),
    ]
