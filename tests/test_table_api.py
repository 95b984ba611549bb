"""What the table asks the server beside the game socket (issue 15): the referee's answer to an
action before it is sent, the damage preview of a shot, the names sent with the state, and
standing choices set whoever acts."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from games import matches, selectors
from games.models import Game
from tests.match_world import started_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game, alice, bob, mallory = started_world()
    return {"game": game, "alice": alice, "bob": bob, "mallory": mallory}


def client(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_the_referee_answers_an_action_without_playing_it(game):
    url = f"/api/games/{game['game'].pk}/check/"
    reserves = {"action": {"type": "declare_reserves", "units": []}}
    answer = client(game["alice"]).post(url, reserves, format="json")
    assert answer.status_code == 200 and answer.json() == {"accepted": True}
    game["game"].refresh_from_db()
    assert game["game"].version == 1  # nothing was played
    too_many = {"action": {"type": "declare_reserves", "units": ["p1-u1", "p1-u1", "p1-u9"]}}
    refused = client(game["alice"]).post(url, too_many, format="json").json()
    assert refused["accepted"] is False and refused["code"] and refused["rule"]
    assert client(game["mallory"]).post(url, reserves, format="json").status_code == 404


def test_a_refused_draft_is_an_answer_not_an_error_and_only_a_malformed_request_is_a_400(game):
    """A draft the referee refuses is a normal answer of the check (200, `accepted: false`): the
    engine's refusals and a draft checked while the opponent acts (the turn passed while a unit
    was dragged) alike, so the table's console stays quiet. A request without an action object
    is still a 400."""
    url = f"/api/games/{game['game'].pk}/check/"
    reserves = {"action": {"type": "declare_reserves", "units": []}}
    too_many = {"action": {"type": "declare_reserves", "units": ["p1-u1", "p1-u1", "p1-u9"]}}
    refused = client(game["alice"]).post(url, too_many, format="json")
    assert refused.status_code == 200 and refused.json()["accepted"] is False
    not_yet = client(game["bob"]).post(url, reserves, format="json")
    assert not_yet.status_code == 200
    assert not_yet.json() == {
        "accepted": False,
        "code": "not_your_turn",
        "message": "Your opponent acts now.",
    }
    malformed = client(game["alice"]).post(url, {"action": "deploy"}, format="json")
    assert malformed.status_code == 400 and "action" in malformed.json()
    game["game"].status = Game.Status.ABANDONED
    game["game"].save(update_fields=["status"])
    over = client(game["alice"]).post(url, reserves, format="json")
    assert over.status_code == 200 and over.json()["code"] == "not_in_progress"


def test_a_preview_is_only_for_your_own_unit_on_the_battlefield(game):
    url = f"/api/games/{game['game'].pk}/preview/"
    answer = client(game["alice"]).post(url, {"unit": "p1-u1", "assignments": []}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "not_your_unit"
    answer = client(game["bob"]).post(url, {"unit": "p1-u1"}, format="json")
    assert answer.json()["code"] == "not_your_unit"


def test_the_state_comes_with_the_names_the_table_shows(game):
    state = selectors.game_state(game["game"], 1)["state"]
    display = state["display"]
    assert display["orders"]["take-aim"] == "Take Aim!"
    assert display["weapon_abilities"]["rapid fire"]["rule"] == "24.30"
    assert display["enhancements"]["drill-commander"]["name"] == "Drill Commander"
    assert {piece["kind"] for piece in display["terrain"].values()} <= {"Ruins", "Barricade"}
    names = [unit["name"] for unit in state["units"].values()]
    assert len(names) == len(set(names))
    assert not any(re.search(r"\bp[12]-u\d", name) for name in names)


def test_a_standing_choice_is_set_while_the_other_player_acts(game):
    version = game["game"].version
    choice = {"type": "set_window_preferences", "never_offer": ["go-to-ground-11e"]}
    answer = matches.apply_action(game["game"].pk, 2, version, "prefs-1", choice)
    assert answer["type"] == "accepted"
    game["game"].refresh_from_db()
    assert game["game"].state["window_preferences"]["2"]["never_offer"] == ["go-to-ground-11e"]
    move = {"type": "declare_reserves", "units": []}
    refused = matches.apply_action(game["game"].pk, 2, answer["version"], "move-1", move)
    assert refused["code"] == "not_your_turn"
