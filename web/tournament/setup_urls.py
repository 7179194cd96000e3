from django.urls import path

from . import setup_views as views

urlpatterns = [
    path("structures/", views.structure_list, name="structure-list"),
    path("structures/new/", views.structure_create, name="structure-create"),
    path("structures/import/", views.structure_import, name="structure-import"),
    path("structures/<int:pk>/", views.structure_edit, name="structure-edit"),
    path("structures/<int:pk>/copy/", views.structure_copy, name="structure-copy"),
    path("structures/<int:pk>/export/", views.structure_export, name="structure-export"),
    path("tournaments/new/", views.tournament_create, name="tournament-create"),
    path("tournaments/<int:pk>/", views.tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/structure/", views.tournament_structure, name="tournament-structure"),
]
