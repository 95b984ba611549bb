"""The browser keeps the public state by applying the `events` patches (static/js/connection.js,
static/js/json_patch.js): two players and a spectator in Chromium follow a self-played opening,
each page ends with exactly the state the server holds, and the spectator's page was sent
patches, never the whole state again (docs/protocol.md, "The state: whole once, then patches")."""

import json
import random

import pytest

from rules.engine import Refusal, acting_player, apply, new_game
from rules.engine.tools import selfplay
from tests.browser.table_helpers import (
    fixture_call,
    join_game,
    page_view,
    person,
)

pytestmark = pytest.mark.browser
MOVES = 12
TIMEOUT = 20_000

# Sends one action over a second socket of the page (the player's own session), and answers
# with the server's `accepted` or `refused`; the page's own connection hears the broadcast.
SEND_ACTION = """([gameId, action]) => new Promise((resolve, reject) => {
  const socket = new WebSocket(`ws://${location.host}/ws/games/${gameId}/`);
  socket.onerror = reject;
  socket.onmessage = (frame) => {
    const message = JSON.parse(frame.data);
    if (message.type === "hello") {
      socket.send(JSON.stringify({type: "action", version: message.version,
                                  client_id: crypto.randomUUID(), action}));
    } else if (message.type === "accepted" || message.type === "refused") {
      socket.close();
      resolve(message);
    }
  };
})"""


def started_game(site_shell, game_id: int, names: list[str]) -> dict:
    armies = fixture_call(site_shell, f"store_saved_armies({names!r})")
    out = site_shell(
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from games import matches\n"
        "users = get_user_model().objects\n"
        f"for name, army in {json.dumps({n: armies[n]['id'] for n in names})}.items():\n"
        f"    game = matches.pick_army({game_id}, users.get(username=name), army)\n"
        "print(json.dumps({'setup': game.setup, 'seed': game.dice_seed}))\n"
    )
    return json.loads(out.strip().splitlines()[-1])


def self_played_moves(setup: dict, seed: str) -> list[dict]:
    rng = random.Random(11)
    state, _ = new_game(setup, seed)
    moves = []
    while len(moves) < MOVES:
        for candidate in selfplay.choose_action(rng, state, acting_player(state)):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            moves.append(candidate)
            break
    return moves


def server_state(site_shell, game_id: int) -> dict:
    out = site_shell(
        "import json\n"
        "from games import selectors\n"
        "from games.models import Game\n"
        f"print(json.dumps(selectors.visible_state(Game.objects.get(pk={game_id}))))\n"
    )
    return json.loads(out.strip().splitlines()[-1])


def test_every_page_applies_the_patches_to_exactly_the_servers_state(site, site_shell, new_context):
    alice, bob = new_context("alice").new_page(), new_context("bob").new_page()
    names = [person("alice"), person("bob")]
    game = join_game(alice, bob, site, (names[0], names[1]))
    game_id, watch = game["id"], game["watch"]
    started = started_game(site_shell, game_id, names)
    moves = self_played_moves(started["setup"], started["seed"])

    spectator = new_context("spectator").new_page()
    frames = []
    spectator.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    spectator.goto(watch)
    players = {1: alice, 2: bob}
    for page in players.values():
        page.goto(f"{site}/games/{game_id}/")
    everyone = [alice, bob, spectator]
    for page in everyone:
        page.wait_for_function("() => strategium.view.state !== null", timeout=TIMEOUT)

    for move in moves:
        action = {key: value for key, value in move.items() if key != "player"}
        answer = players[move["player"]].evaluate(SEND_ACTION, [game_id, action])
        assert answer["type"] == "accepted", answer

    expected = server_state(site_shell, game_id)
    for page in everyone:
        page.wait_for_function(
            f"() => strategium.view.state.version === {expected['version']}", timeout=TIMEOUT
        )
        assert page_view(page)["state"] == expected

    messages = [json.loads(frame) for frame in frames if isinstance(frame, str)]
    events = [m for m in messages if m["type"] == "events"]
    patched = [m for m in events if "patch" in m]
    assert len(patched) >= MOVES
    assert all("state" not in m for m in patched)
    # One whole state after `hello`: the catch-up the page asks for; no patch needed another.
    assert len([m for m in events if "state" in m]) <= 1
