from django.urls import path

from . import setup_views as views

urlpatterns = [
    path("structures/", views.structure_list, name="structure-list"),
    path("structures/new/", views.structure_create, name="structure-create"),
    path("structures/import/", views.structure_import, name="structure-import"),
    path("structures/<id:pk>/", views.structure_edit, name="structure-edit"),
    path("structures/<id:pk>/copy/", views.structure_copy, name="structure-copy"),
    path("structures/<id:pk>/export/", views.structure_export, name="structure-export"),
    path("tournaments/new/", views.tournament_create, name="tournament-create"),
    path("tournaments/<id:pk>/", views.tournament_edit, name="tournament-edit"),
    path("tournaments/<id:pk>/structure/", views.tournament_structure, name="tournament-structure"),
]
