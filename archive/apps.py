from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """A tournament in one file: `manage.py export_tournament` writes everything of a tournament,
    `manage.py import_tournament` loads it into another database. No models of its own: it reads every app below."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "archive"
