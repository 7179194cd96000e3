"""Screens of the clock (and, included here, of the tables): mounted at the site root. The director's
clock page changes the clock with POST /api/tournaments/<id>/clock/ (web/clock/api.py)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("t/<id:pk>/clock/", views.director_clock, name="director-clock"),
    path("", include("web.tables.urls")),
]
