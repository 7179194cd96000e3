"""Screens of the events with Day 1 flights into one Day 2: the events page and an event's page (the floor's "this
flight ends" line for the table map is the JSON API's, web/flights/api.py). These URLs only read; every change goes
through the JSON API (web/flights/api.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/", views.events_page, name="flight-events"),
    path("events/<id:event_id>/", views.event_page, name="flight-event"),
]
