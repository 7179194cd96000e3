from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/t/<int:tournament_id>/floor/", consumers.FloorConsumer.as_asgi()),
    path("ws/display/<str:token>/", consumers.LobbyConsumer.as_asgi()),
]
