"""The skeleton: settings from the environment, health check, landing page, websockets."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from tabletop.asgi import application

ROOT = Path(__file__).resolve().parent.parent


def _import_settings(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import tabletop.settings"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tabletop.settings", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_the_development_secret_key():
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "-c", "import tabletop.settings"],
        cwd=ROOT,
        env={**environment, "DEBUG": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_starts_with_its_own_secret_key():
    result = _import_settings(DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr


def test_a_malformed_boolean_fails_loudly():
    result = _import_settings(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


@pytest.mark.django_db
def test_healthz_reports_database_and_channel_layer(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["database"]["ok"] is True
    expected_vendor = (
        "postgresql" if "postgresql" in settings.DATABASES["default"]["ENGINE"] else "sqlite"
    )
    assert body["database"]["vendor"] == expected_vendor
    assert body["channel_layer"]["ok"] is True
    expected_backend = (
        "WaitingRedisChannelLayer" if os.environ.get("REDIS_URL") else "InMemoryChannelLayer"
    )
    assert body["channel_layer"]["backend"] == expected_backend


@pytest.mark.django_db
def test_landing_page_links_to_admin_and_api_docs(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "server is the referee" in page
    assert 'href="/admin/"' in page
    assert 'href="/api/docs/"' in page


@pytest.mark.django_db
def test_api_docs_page_uses_offline_assets(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn." not in page


@pytest.mark.django_db(transaction=True)
async def test_websocket_round_trip_through_the_channel_layer():
    communicator = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"hello": "table"})
    reply = await communicator.receive_json_from(timeout=5)
    assert reply == {"type": "echo", "body": {"hello": "table"}, "via": "channel_layer"}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_echo_sockets_of_one_group_all_hear_a_message_and_others_do_not():
    def echo(query: str) -> WebsocketCommunicator:
        return WebsocketCommunicator(
            application, f"/ws/echo/{query}", headers=[(b"origin", b"http://127.0.0.1:8000")]
        )

    members = [echo("?group=bench7") for _ in range(3)]
    stranger = echo("?group=game.7.1")  # not a valid echo name: a group of its own
    for communicator in [*members, stranger]:
        assert (await communicator.connect())[0]
    await members[0].send_json_to({"ping": 1})
    for communicator in members:
        reply = await communicator.receive_json_from(timeout=5)
        assert reply["body"] == {"ping": 1}
    assert await stranger.receive_nothing(timeout=0.3)
    for communicator in [*members, stranger]:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
