"""The room's screen (web/venues/views.py): the default venue's at /room/, any venue's at /venues/<id>/room/. These URLs
only read; every change goes through the JSON API (web/venues/api.py)."""

from django.urls import path

from . import public, room_tv, views

urlpatterns = [
    path("today/", public.today_page, name="today"),
    path("room/", views.room_page, name="room"),
    path("venues/<id:venue_id>/room/", views.venue_room_page, name="venue-room"),
    path("display/room/<str:token>/", room_tv.room_display, name="room-display"),
]
