"""Inputs are validated at the edge (issue 18): none of these answers 500, the costly endpoints
are capped and throttled, logins are throttled, `next` cannot leave the site, the dice seed of a
game in progress is hidden in the admin, window preferences stay with their player, and the
echo socket answers bad frames like the game's socket."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from games import matches, selectors, services
from rules.preview_limits import PREVIEW_LIMITS, PreviewAnonThrottle
from tabletop.asgi import application
from tests.match_world import started_world

HUGE = "99999999999999999999"


@pytest.fixture
def started(db):
    return started_world()


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (f"/api/games/{{id}}/events/?limit={HUGE}", 200),
        ("/api/games/{id}/events/?limit=100000", 200),
        (f"/api/games/{{id}}/events/?offset={HUGE}", 400),
        (f"/api/games/{{id}}/events/?since={HUGE}", 400),
        ("/api/games/{id}/events/?since=-1", 400),
        (f"/api/games/{HUGE}/", 404),
        (f"/api/games/{HUGE}/events/", 404),
        (f"/api/armies/{HUGE}/", 404),
        ("/games/join/%00%00%00/", 404),
        ("/games/join/%00%00%00%00%00%00%00%00%00/", 404),
        (f"/games/{HUGE}/", 404),
        ("/games/{id}/watch/%00bad%00token%00/", 404),
    ],
)
def test_malformed_paths_and_queries_answer_4xx_never_500(client, started, path, status):
    game, alice, _, _ = started
    client.force_login(alice)
    response = client.get(path.replace("{id}", str(game.pk)))
    assert response.status_code == status
    if "limit" in path:
        assert len(response.json()["results"]) <= 500


@pytest.mark.parametrize(
    ("limit", "status"), [(1e30, 400), (601, 400), (4, 400), ("x", 400), (600, 201), (None, 201)]
)
def test_window_time_limit_has_the_forms_bounds_in_the_api(client, started, limit, status):
    _, alice, _, _ = started
    client.force_login(alice)
    response = client.post(
        "/api/games/", {"window_time_limit": limit}, content_type="application/json"
    )
    assert response.status_code == status


def test_a_bad_army_id_and_invite_token_are_refused_not_500(client, started):
    game, alice, _, mallory = started
    client.force_login(alice)
    assert client.post(f"/games/{game.pk}/army/", {"army": HUGE}).status_code == 302
    response = client.post(f"/api/games/{game.pk}/army/", {"army": int(HUGE)}, "application/json")
    assert response.status_code == 400
    client.force_login(mallory)
    response = client.post("/api/games/join/", {"invite_token": "\x00" * 10}, "application/json")
    assert response.status_code == 400


def preview_spec(trials: int, models: int = 10, attacks: str = "D6+6") -> dict:
    return {
        "attacker": {
            "models": models,
            "weapon": {"attacks": attacks, "skill": 3, "strength": 4, "ap": 0, "damage": "1"},
        },
        "target": {"models": 10, "toughness": 4, "save": 4, "wounds": 1},
        "trials": trials,
        "seed": 1,
    }


@pytest.mark.django_db
def test_the_attack_preview_caps_trials_and_attack_dice_with_a_clear_refusal(client, rules_loaded):
    # The request of the issue: a million trials of 100 models with D6+6 attacks.
    response = client.post("/api/attack-preview/", preview_spec(1_000_000, 100), "application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "trials"
    assert "at most 10,000 trials (sign in for more)" in response.json()["message"]
    # Within the trials cap but not the attack dice: 10,000 × 100 models × 12 attacks.
    response = client.post("/api/attack-preview/", preview_spec(10_000, 100), "application/json")
    assert response.status_code == 400
    assert "at most 833 trials" in response.json()["message"]
    assert (
        client.post("/api/attack-preview/", preview_spec(1_000, 10), "application/json").status_code
        == 200
    )


@pytest.mark.django_db
def test_signed_in_use_of_the_preview_gets_a_higher_cap(client, rules_loaded, player):
    client.force_login(player)
    limits = PREVIEW_LIMITS["user"]
    response = client.post(
        "/api/attack-preview/", preview_spec(limits.trials + 1, 1, "1"), "application/json"
    )
    assert response.status_code == 400 and "sign in" not in response.json()["message"]
    response = client.post("/api/attack-preview/", preview_spec(20_000, 2, "2"), "application/json")
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_attack_preview_is_throttled(client, rules_loaded, monkeypatch):
    monkeypatch.setattr(PreviewAnonThrottle, "rate", "3/min", raising=False)
    answers = [
        client.post("/api/attack-preview/", preview_spec(100), "application/json").status_code
        for _ in range(5)
    ]
    assert answers == [200, 200, 200, 429, 429]


@pytest.mark.django_db
def test_logins_are_throttled_with_a_clear_message(client, django_user_model, settings):
    django_user_model.objects.create_user("alice", password="the-right-password")
    answers = [
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"}).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    # The wrong passwords are answered by the login form, the last one by the lockout.
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    locked = client.post(
        "/accounts/login/", {"username": "alice", "password": "the-right-password"}
    )
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/", "https:///evil.example", "/\\evil"]
)
def test_sign_up_next_cannot_leave_the_site(client, target):
    response = client.post(
        f"/accounts/sign-up/?next={target}",
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302
    assert response.url == "/games/"


@pytest.mark.django_db
def test_sign_up_next_within_the_site_is_followed(client):
    response = client.post(
        "/accounts/sign-up/?next=/armies/",
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.url == "/armies/"


def test_the_dice_seed_of_a_game_in_progress_is_hidden_in_the_admin(client, started, staff_user):
    game, alice, _, _ = started
    client.force_login(staff_user)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.dice_seed not in page and "hidden until the game ends" in page
    services.concede(game, alice)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.dice_seed in page


def test_window_preferences_are_private_to_their_player(started):
    game, _, _, _ = started
    answer = matches.apply_action(
        game.pk,
        1,
        game.version,
        "prefs",
        {"type": "set_window_preferences", "never_offer": ["secret-preference-slug"]},
    )
    assert answer["type"] == "accepted"
    own = selectors.hello(game.pk, 1)["state"]["window_preferences"]
    assert own == {
        "1": {
            "never_offer": ["secret-preference-slug"],
            "never_reroll": [],
            "pass_phase": None,
            "quiet_without_cp": False,
            "reroll_every_roll": False,
        }
    }
    for seat in (2, selectors.SPECTATOR):
        hello = selectors.hello(game.pk, seat)
        assert hello["state"]["window_preferences"] == {}
        catch_up = json.dumps(selectors.catch_up(game.pk, game.version, seat))
        assert "secret-preference-slug" not in catch_up
    assert "secret-preference-slug" in json.dumps(selectors.catch_up(game.pk, game.version, 1))


def test_the_events_api_hides_the_opponents_window_preferences(client, started):
    game, alice, bob, _ = started
    matches.apply_action(
        game.pk, 1, game.version, "p", {"type": "set_window_preferences", "never_reroll": ["save"]}
    )
    client.force_login(bob)
    response = client.get(f"/api/games/{game.pk}/events/?since={game.version}")
    assert response.status_code == 200 and '"save"' not in response.content.decode()
    client.force_login(alice)
    response = client.get(f"/api/games/{game.pk}/events/?since={game.version}")
    assert '"save"' in response.content.decode()


@pytest.mark.django_db
def test_metrics_are_served_in_the_prometheus_format(client, settings):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    for name in (
        "strategium_actions_total",
        "strategium_action_apply_seconds",
        "strategium_broadcast_failures_total",
        "strategium_open_sockets",
        "strategium_window_timeouts_total",
    ):
        assert f"# TYPE {name}" in text
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "not_json"),
        ('{"a": "\\ud800"}', "invalid_text"),
        ('{"n": 18446744073709551616}', "out_of_range"),
        ("[" * 2000 + "]" * 2000, "too_deep"),
    ],
)
@pytest.mark.django_db(transaction=True)  # Channels closes old database connections per message
async def test_the_echo_socket_answers_bad_frames_and_stays_open(frame, code):
    echo = WebsocketCommunicator(
        application, "/ws/echo/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await echo.connect()
    assert connected
    await echo.send_to(text_data=frame)
    assert (await echo.receive_json_from(timeout=5))["code"] == code
    await echo.send_json_to({"ping": 1})
    assert (await echo.receive_json_from(timeout=5))["body"] == {"ping": 1}
    await echo.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_unknown_websocket_path_closes_with_4404():
    socket = WebsocketCommunicator(
        application, f"/ws/games/{HUGE}/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_output(timeout=5))["code"] == 4404


def test_unknown_fields_of_an_accepted_action_are_not_logged(started):
    game, _, _, _ = started
    (template, *_) = selectors.legal_actions_for(game.state, 1)
    assert template["type"] == "declare_reserves"
    action = {"type": "declare_reserves", "units": [], "junk": "x" * 10_000, "note": {"a": 1}}
    answer = matches.apply_action(game.pk, 1, game.version, "junk", action)
    assert answer["type"] == "accepted"
    logged = game.events.get(sequence=game.version + 1)
    assert logged.kind == "action_applied"
    assert logged.payload["action"] == {"type": "declare_reserves", "units": [], "player": 1}
    assert "x" * 100 not in json.dumps(selectors.catch_up(game.pk, game.version, 2))


def test_json_logs_carry_time_level_logger_and_the_games_context():
    import logging
    import logging.config

    from django.conf import settings

    configurator = logging.config.DictConfigurator({})
    formatter = configurator.configure_formatter(dict(settings.LOGGING["formatters"]["json"]))
    record = logging.makeLogRecord(
        {
            "name": "games.matches",
            "levelno": logging.INFO,
            "levelname": "INFO",
            "msg": "action %s",
            "args": ("accepted",),
            "game_id": 7,
            "version": 12,
            "seat": 1,
            "action_type": "move",
        }
    )
    line = json.loads(formatter.format(record))
    assert {"time", "level", "logger", "message"} <= set(line)
    assert (line["level"], line["logger"], line["message"]) == (
        "INFO",
        "games.matches",
        "action accepted",
    )
    assert (line["game_id"], line["version"], line["seat"], line["action_type"]) == (
        7,
        12,
        1,
        "move",
    )
