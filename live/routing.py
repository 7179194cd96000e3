import os

from django.urls import path

from core import converters  # noqa: F401  (<id:...>: registered before the patterns below are read)

from . import consumers

# Lobby screens go through the per-process fan-out (live/fanout.py). LOBBY_FANOUT=0 routes them
# to one Channels consumer per socket instead: the old path, kept so bench/lobby_fanout.py can
# measure the difference. Same URL and wire protocol either way.
LOBBY_FANOUT = os.environ.get("LOBBY_FANOUT", "1").strip().lower() not in {"0", "false", "no", "off"}
lobby = consumers.LobbyConsumer if LOBBY_FANOUT else consumers.GroupLobbyConsumer

websocket_urlpatterns = [  # each named: core/access.py SOCKETS says who reaches it
    path("ws/t/<id:tournament_id>/floor/", consumers.FloorConsumer.as_asgi(), name="floor-socket"),
    path("ws/display/<str:token>/", lobby.as_asgi(), name="display-socket"),
    path("ws/display/room/<str:token>/", consumers.RoomDisplayConsumer.as_asgi(), name="room-display-socket"),  # a room TV
    path("ws/s/<id:tournament_id>/", consumers.SeatConsumer.as_asgi(), name="seat-socket"),  # seat pages (public)
    path("ws/t/<id:tournament_id>/tables/<id:number>/", consumers.TableConsumer.as_asgi(), name="table-socket"),
    path("ws/dealer/<str:token>/", consumers.DealerLinkConsumer.as_asgi(), name="dealer-link-socket"),  # dealer links
    path("ws/venues/<id:venue_id>/room/", consumers.RoomConsumer.as_asgi(), name="room-socket"),  # a venue's room map
]
