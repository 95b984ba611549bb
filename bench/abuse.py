"""Hostile input against a running game: 10,000 fuzzed websocket frames, over real sockets, to a
game in progress served by daphne. Reports the answers by code, server errors (`server_error`
answers, frames left unanswered, sockets the server closed, tracebacks in daphne's log) and
whether the game changed (version, state hash, log, chat). The target is 0 and 0.

    .venv/bin/python bench/abuse.py                      # embedded: SQLite + in-memory layer
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/strategium_x \\
    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/abuse.py   # PostgreSQL + Redis
    options: --frames N (10000), --seed S (1)

The frames are drawn from the kinds the hostile-input campaign of issue 18 used: deep nesting,
lone surrogates and NUL in every text field, integers past 2^53 and 2^64, NaN and infinities,
wrong types, unknown fields, oversized frames and actions, binary frames, random engine actions
on a stale version, `set_window_preferences` of every wrong shape. None is a legal move, so any
change of the game is a defect. Seat 1, seat 2 and a spectator share the frames.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/abuse.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")

import django  # noqa: E402

django.setup()

import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,  # noqa: E402
)
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games import matches  # noqa: E402
from games.models import ChatMessage, Game, GameEvent  # noqa: E402
from tests.match_world import cadians, grey_knights, mustering_game, saved  # noqa: E402

ACTION_TYPES = [
    "declare_reserves",
    "deploy",
    "end_phase",
    "move",
    "advance",
    "fall_back",
    "shoot",
    "declare_charge",
    "fight",
    "decide",
    "use_stratagem",
    "set_window_preferences",
    "window_timeout",
    "embark",
    "disembark",
    "teleport",
    "",
    "x" * 200,
]
NASTY_TEXT = [
    "\ud800",
    "\udfff",
    "a\u0000b",
    "\u0000",
    "",
    " ",
    "x" * 70_000,
    "é" * 600,
    "\ufeff",
    "\u202e",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
]
NASTY_NUMBERS = [2**53, -(2**53), 2**63, 2**64, 10**30, -1, 0.5, 1e308, -1e308]


def nested(depth: int, rng: random.Random) -> object:
    value: object = rng.choice([1, "x", None, True])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"a": value}
    return value


def junk(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(9)
    if kind == 0 or depth > 3:
        return rng.choice(NASTY_TEXT[:6] + ["ok"])
    if kind == 1:
        return rng.choice(NASTY_NUMBERS)
    if kind == 2:
        return nested(rng.choice([5, 20, 200]), rng)
    if kind == 3:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 4:
        return {rng.choice(NASTY_TEXT[:6] + ["k"]): junk(rng, depth + 1)}
    return rng.choice([None, True, False, 0, "", [], {}])


def raw_frame(rng: random.Random, version: int) -> str | bytes:
    """One frame no correct client sends; returned as the exact text (or bytes) to send."""
    kind = rng.randrange(16)
    stale = version + rng.choice([-1, 1, 5, 1000]) if version else rng.choice([1, 5, 1000])
    if kind == 0:
        return rng.choice(["not json", "{", "[1, 2]", "null", "1", '"s"', "{}", ""])
    if kind == 1:
        depth = rng.choice([50, 1000, 5000, 20000])
        return "[" * depth + "]" * depth
    if kind == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 3:
        return json.dumps({"type": "sync", "since": rng.choice(NASTY_NUMBERS + ["0", None])})
    if kind == 4:
        return '{"type": "sync", "since": ' + rng.choice(["NaN", "Infinity", "1e400"]) + "}"
    if kind == 5:
        return json.dumps({"type": "chat", "text": rng.choice(NASTY_TEXT[:4] + ["x" * 501])})
    if kind == 6:
        text = junk(rng)
        if isinstance(text, str) and text.strip() and "\x00" not in text and len(text) <= 500:
            text = [text]  # a valid chat would be broadcast: never send one
        return json.dumps({"type": "chat", "text": text})
    if kind == 7:
        return json.dumps({"type": rng.choice(NASTY_TEXT[:6] + ["teleport", 5, None])})
    if kind == 8:
        return json.dumps({"type": "sync", "since": 0, rng.choice(["x", "\ud800"]): junk(rng)})
    if kind == 9:
        return json.dumps(
            {
                "type": "action",
                "version": version,
                "client_id": rng.choice(NASTY_TEXT[:4]),
                "action": {"type": "end_phase"},
            }
        )
    if kind == 10:
        prefs = {"type": "set_window_preferences"}
        prefs[rng.choice(["never_offer", "never_reroll"])] = rng.choice(
            ["abc", 7, None, {"a": 1}, [1], [None], ["\ud800"], ["x"] * 300, [["a"]]]
        )
        return json.dumps(
            {"type": "action", "version": version, "client_id": f"p{rng.random()}", "action": prefs}
        )
    if kind == 11:
        body = {"type": "end_phase", "junk": "x" * rng.choice([17_000, 60_000])}
        return json.dumps(
            {"type": "action", "version": version, "client_id": "big", "action": body}
        )
    if kind == 12:
        return (
            f'{{"type": "action", "version": {version}, "client_id": "n", "action": {{"type": '
            f'"end_phase", "n": {rng.choice([2**64, 2**64 + 1, 10**40])}}}}}'
        )
    if kind == 13:
        return json.dumps(
            {"type": "action", "version": junk(rng), "client_id": junk(rng), "action": junk(rng)}
        )
    # A random engine action with random fields, on a stale version.
    body = {"type": rng.choice(ACTION_TYPES)}
    for _ in range(rng.randrange(4)):
        body[rng.choice(["unit", "positions", "targets", "choice", "decision", "player"])] = junk(
            rng
        )
    return json.dumps(
        {"type": "action", "version": stale, "client_id": f"r{rng.random()}", "action": body}
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def session_cookie(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def started_game():
    call_command("migrate", verbosity=0)
    call_command("load_rules", verbosity=0)
    users = get_user_model().objects
    tag = f"{os.getpid()}-{int(time.time())}"
    alice = users.create_user(f"abuse-alice-{tag}", password="x-long-password")
    bob = users.create_user(f"abuse-bob-{tag}", password="x-long-password")
    game = mustering_game(alice, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    return Game.objects.get(pk=game.pk), alice, bob


def fingerprint(game_id: int) -> dict:
    game = Game.objects.get(pk=game_id)
    return {
        "version": game.version,
        "state": hashlib.sha256(json.dumps(game.state, sort_keys=True).encode()).hexdigest(),
        "events": GameEvent.objects.filter(game_id=game_id).count(),
        "chat": ChatMessage.objects.filter(game_id=game_id).count(),
        "status": game.status,
    }


def serve(port: int, log_path: Path) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "tabletop.asgi:application",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=log_path.open("w"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(log_path.read_text()) from None
            time.sleep(0.3)


class Client:
    """One socket that reconnects when the server closes it (each close is counted)."""

    def __init__(self, url: str, cookie: str | None) -> None:
        self.url, self.cookie, self.socket, self.closed_by_server = url, cookie, None, 0

    async def open(self) -> dict:
        headers = {"Origin": "http://127.0.0.1"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.socket = await websockets.connect(self.url, additional_headers=headers, max_size=2**21)
        return json.loads(await self.socket.recv())

    async def ask(self, frame: str | bytes) -> dict | None:
        """Send one frame and wait for its answer; None when the server closed the socket."""
        try:
            await self.socket.send(frame)
            return json.loads(await asyncio.wait_for(self.socket.recv(), timeout=10))
        except (websockets.ConnectionClosed, TimeoutError):
            self.closed_by_server += 1
            await self.open()
            return None


async def attack(base: str, game_id: int, cookies: list, frames: int, seed: int) -> dict:
    rng = random.Random(seed)
    clients = []
    for cookie, query in cookies:
        client = Client(f"{base}/ws/games/{game_id}/{query}", cookie)
        hello = await client.open()
        clients.append(client)
    version = hello["version"]
    answers: Counter = Counter()
    unanswered = 0
    started = time.perf_counter()
    for number in range(frames):
        client = clients[number % len(clients)]
        reply = await client.ask(raw_frame(rng, version))
        if reply is None:
            unanswered += 1
            continue
        answers[f"{reply['type']}:{reply.get('code', '')}"] += 1
    elapsed = time.perf_counter() - started
    for client in clients:
        await client.socket.close()
    return {
        "answers": dict(answers.most_common()),
        "unanswered": unanswered,
        "closed_by_server": sum(c.closed_by_server for c in clients),
        "seconds": round(elapsed, 1),
        "frames_per_second": round(frames / elapsed),
    }


def _first_traceback(log_text: str) -> list[str]:
    start = log_text.find("Traceback")
    if start < 0:
        return []
    lines = log_text[start:].splitlines()
    end = next((i for i, line in enumerate(lines[1:], 1) if not line.startswith(" ")), 0)
    return lines[: end + 1][-6:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    game, alice, bob = started_game()
    before = fingerprint(game.pk)
    port = free_port()
    log_path = Path(tempfile.mkdtemp()) / "daphne.log"
    server = serve(port, log_path)
    try:
        cookies = [
            (session_cookie(alice), ""),
            (session_cookie(bob), ""),
            (None, f"?spectate={game.spectator_token}"),
        ]
        result = asyncio.run(
            attack(f"ws://127.0.0.1:{port}", game.pk, cookies, options.frames, options.seed)
        )
    finally:
        server.terminate()
        server.wait(timeout=20)
    after = fingerprint(game.pk)
    log_text = log_path.read_text()
    server_errors = (
        result["answers"].get("error:server_error", 0)
        + result["unanswered"]
        + log_text.count("Traceback")
    )
    deployment = (
        "PostgreSQL + Redis"
        if settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
        and os.environ.get("REDIS_URL")
        else "SQLite + in-memory layer"
    )
    report = {
        "deployment": deployment,
        "frames": options.frames,
        **result,
        "tracebacks_in_server_log": log_text.count("Traceback"),
        "server_errors": server_errors,
        "state_changes": int(before != after),
        "server_log": str(log_path),
        "first_traceback": _first_traceback(log_text),
        "before": before,
        "after": after,
    }
    print(json.dumps(report, indent=1))
    sys.exit(1 if server_errors or before != after else 0)


if __name__ == "__main__":
    main()
