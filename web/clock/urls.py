"""Screens of the clock (and, included here, of the tables): mounted at the site root."""
from django.urls import include, path

from . import views

urlpatterns = [
    path("t/<int:pk>/clock/", views.director_clock, name="director-clock"),
    path("t/<int:pk>/clock/action/", views.clock_action, name="clock-action"),
    path("", include("web.tables.urls")),
]
