"""Websocket URL routes of every app."""

from django.urls import path

from tabletop.health import ChannelLayerEchoConsumer

websocket_urlpatterns = [
    path("ws/echo/", ChannelLayerEchoConsumer.as_asgi()),
]
