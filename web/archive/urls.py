"""The screens of a tournament in one file (docs/tournament-file.md): the director's download of a
tournament's file and the import page. The download only reads; the import goes through the JSON API
(web/archive/api.py, api-tournament-import)."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/<id:pk>/export.json", views.export_file, name="tournament-export"),
    path("tournaments/import/", views.import_page, name="tournament-import"),
]
