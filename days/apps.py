from django.apps import AppConfig


class DaysConfig(AppConfig):
    """The days of a multi-day tournament: bag-and-tag at the end of a day, and closing it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "days"
