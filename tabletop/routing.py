"""Websocket URL routes of every app."""

from django.urls import path

from games.routing import websocket_urlpatterns as game_routes
from tabletop.health import ChannelLayerEchoConsumer

websocket_urlpatterns = [
    path("ws/echo/", ChannelLayerEchoConsumer.as_asgi()),
    *game_routes,
]
