"""The lobby's HTTP API, and the OpenAPI schema that documents it."""

from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameEvent


@pytest.fixture(autouse=True)
def rules_data(db):
    call_command("load_rules", verbosity=0)


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_create_list_and_join_a_game(api, django_user_model):
    created = api.post("/api/games/", {"edition": "10e", "window_time_limit": 30}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["edition"], body["status"], body["dice_seed"]) == ("10e", "waiting", None)
    assert len(api.get("/api/games/").json()["results"]) == 1

    bob = django_user_model.objects.create_user("bob", password="a-long-test-password")
    other = APIClient()
    other.force_authenticate(bob)
    joined = other.post("/api/games/join/", {"invite_token": body["invite_token"]}, format="json")
    assert joined.json()["opponent"] == "bob"
    again = APIClient()
    again.force_authenticate(django_user_model.objects.create_user("eve", password="x" * 12))
    refused = again.post("/api/games/join/", {"invite_token": body["invite_token"]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invite_used"


def test_unknown_edition_is_refused_with_its_code(api):
    response = api.post("/api/games/", {"edition": "9e"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_ruleset"


def test_the_event_log_is_paged_and_filtered_by_version(api, player):
    game = services.create_game(player)
    for sequence in range(1, 8):
        GameEvent.objects.create(game=game, sequence=sequence, kind="test", payload={})
    Game.objects.filter(pk=game.pk).update(version=7)
    page = api.get(f"/api/games/{game.pk}/events/?since=2&limit=3").json()
    assert page["count"] == 5
    assert [event["sequence"] for event in page["results"]] == [3, 4, 5]


def test_strangers_and_anonymous_clients_see_no_games(player, django_user_model):
    game = services.create_game(player)
    assert APIClient().get("/api/games/").status_code == 403
    stranger = APIClient()
    stranger.force_authenticate(django_user_model.objects.create_user("mallory", password="x" * 12))
    assert stranger.get(f"/api/games/{game.pk}/").status_code == 404


def test_the_openapi_schema_validates_without_warnings(tmp_path: Path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert "/api/games/{id}/events/" in target.read_text()
