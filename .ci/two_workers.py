"""The scaled deployment end to end: two daphne workers on one PostgreSQL and one Redis, and a
short game played across them. Seat 1 talks to one worker, seat 2 and a spectator to the other;
every action must be accepted, reach all three, and the patches each applied must give the
public state the database holds. Run by .ci/run with DATABASE_URL and REDIS_URL set (after the
test suite has migrated and loaded the rules data)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
ACTIONS = 14
TIMEOUT = 20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def world() -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games import matches, services
    from rules.engine import Refusal, acting_player, apply, new_game
    from rules.engine.tools import selfplay
    from tests.match_world import cadians, grey_knights, saved

    assert settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), "needs PostgreSQL"
    assert os.environ.get("REDIS_URL"), "needs Redis"
    suffix = uuid.uuid4().hex[:8]
    users = get_user_model().objects
    alice = users.create_user(f"ci-alice-{suffix}", password="x-long-password")
    bob = users.create_user(f"ci-bob-{suffix}", password="x-long-password")
    game = services.create_game(alice)
    services.join_by_invite(game.invite_token, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    game = matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)

    cookies = {}
    for seat, user in ((1, alice), (2, bob)):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        cookies[seat] = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

    # The moves: a self-played opening from the game's own setup and seed.
    rng = random.Random(7)
    state, _ = new_game(game.setup, game.dice_seed)
    moves = []
    while len(moves) < ACTIONS and state["stage"] != "ended":
        for candidate in selfplay.choose_action(rng, state, acting_player(state)):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            moves.append(candidate)
            break
    return {"game": game.pk, "spectate": game.spectator_token, "cookies": cookies, "moves": moves}


def final_state_for(game_id: int, seat: int | None) -> dict:
    """What the server shows `seat` (None: a spectator) of the game's state in the database."""
    from games import selectors
    from games.models import Game

    return selectors.state_for(Game.objects.get(pk=game_id).state, seat)


class Client:
    def __init__(self, name: str, connection) -> None:
        self.name = name
        self.connection = connection
        self.state = None
        self.version = -1
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.held: list[dict] = []  # messages read while waiting for another type

    async def listen(self) -> None:
        async for text in self.connection:
            await self.inbox.put(json.loads(text))

    async def next(self, *kinds: str) -> dict:
        for message in self.held:
            if message["type"] in kinds:
                self.held.remove(message)
                return message
        while True:
            message = await asyncio.wait_for(self.inbox.get(), TIMEOUT)
            if message["type"] in kinds:
                return message
            self.held.append(message)


async def play(data: dict, ports: list[int]) -> list[Client]:
    import jsonpatch
    import websockets

    async def connect(name: str, port: int, seat: int | None) -> Client:
        query = "" if seat else f"?spectate={data['spectate']}"
        headers = {"Origin": f"http://127.0.0.1:{port}"}
        if seat:
            headers["Cookie"] = data["cookies"][seat]
        url = f"ws://127.0.0.1:{port}/ws/games/{data['game']}/{query}"
        client = Client(name, await websockets.connect(url, additional_headers=headers))
        client.task = asyncio.create_task(client.listen())
        hello = await client.next("hello")
        client.state, client.version = hello["state"], hello["version"]
        return client

    seat1 = await connect("seat 1 (worker A)", ports[0], 1)
    seat2 = await connect("seat 2 (worker B)", ports[1], 2)
    spectator = await connect("spectator (worker B)", ports[1], None)
    everyone = [seat1, seat2, spectator]
    for number, move in enumerate(data["moves"], start=1):
        sender = seat1 if move["player"] == 1 else seat2
        action = {k: v for k, v in move.items() if k != "player"}
        client_id = f"ci-{number}"
        version = sender.version
        message = {"type": "action", "version": version, "client_id": client_id, "action": action}
        await sender.connection.send(json.dumps(message))
        answer = await sender.next("accepted", "refused")
        assert answer["type"] == "accepted", answer
        for client in everyone:
            events = await client.next("events")
            assert events["since"] == client.version, (client.name, events["since"], client.version)
            client.state = jsonpatch.apply_patch(client.state, events["patch"])
            client.version = events["version"]
        print(f"action {number} ({move['type']}) by seat {move['player']}: reached all three")
    for client in everyone:
        await client.connection.close()
        client.task.cancel()
    return everyone


def main() -> None:
    data = world()
    from django.db import connection

    connection.close()
    home = Path(tempfile.mkdtemp(prefix="two-workers-"))
    ports = [free_port(), free_port()]
    workers = []
    for port in ports:
        log = (home / f"daphne-{port}.log").open("w")
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        workers.append(
            subprocess.Popen(
                [*command, "tabletop.asgi:application"],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.3)
        clients = asyncio.run(play(data, ports))
        from rules.engine.core.state import canonical_json

        for client in clients:
            seat = next((s for s in (1, 2) if client.name.startswith(f"seat {s}")), None)
            expected = final_state_for(data["game"], seat)
            assert canonical_json(client.state) == canonical_json(expected), client.name
        print(f"two workers: {len(data['moves'])} actions, all three states equal the database's")
    except BaseException:
        for log in sorted(home.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text()[-4000:]}", file=sys.stderr)
        raise
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()


if __name__ == "__main__":
    main()
