from django.urls import path

from games.consumers import GameConsumer
from tabletop import converters  # noqa: F401 - registers <id:>

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
]
