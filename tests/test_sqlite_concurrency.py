"""The embedded deployment (SQLite) under concurrent writes: players joining games at the same
moment each get an answer, never a 500 "database is locked" (a transaction that read first and
wrote later could not take the write lock while another writer held it; with
`transaction_mode: "IMMEDIATE"` every transaction takes it when it begins, and waits for it).

SQLite's locking is only itself on a database file, so this runs in a subprocess on a file of its
own, with one thread per player as daphne's thread pool would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

JOINS = r"""
import json, threading
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from games import services
from rules.models import RuleSet

RuleSet.objects.create(slug="11e", name="11th edition", is_default=True)
users = get_user_model().objects
creator = users.create_user("creator", password="x-long-password")
games = [services.create_game(creator) for _ in range(PLAYERS)]
clients = []
for number in range(PLAYERS):
    client = Client(raise_request_exception=False)  # a failure answers 500, as daphne would
    client.force_login(users.create_user(f"player{number}", password="x-long-password"))
    clients.append(client)
connection.close()
start = threading.Barrier(PLAYERS)
answers = [None] * PLAYERS

def join(number):
    start.wait()
    token = games[0 if SAME_GAME else number].invite_token
    response = clients[number].post(
        "/api/games/join/", {"invite_token": token}, content_type="application/json"
    )
    answers[number] = response.status_code
    connection.close()

threads = [threading.Thread(target=join, args=(n,)) for n in range(PLAYERS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(answers))
"""


def concurrent_joins(tmp_path: Path, players: int, same_game: bool) -> list[int]:
    script = JOINS.replace("PLAYERS", str(players)).replace("SAME_GAME", str(same_game))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'joins.sqlite3'}",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_players_joining_different_games_at_once_are_all_seated(tmp_path):
    assert concurrent_joins(tmp_path, players=12, same_game=False) == [200] * 12


def test_players_racing_for_one_seat_get_one_seat_and_refusals_not_errors(tmp_path):
    answers = concurrent_joins(tmp_path, players=8, same_game=True)
    assert sorted(answers) == [200] + [400] * 7


PRAGMAS = r"""
import json
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    found = {
        name: cursor.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("journal_mode", "synchronous", "busy_timeout")
    }
print(json.dumps(found))
"""


def test_the_embedded_database_runs_in_write_ahead_log_mode(tmp_path):
    """Every connection of the embedded deployment: WAL, NORMAL sync (1), a 20 s busy timeout."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'wal.sqlite3'}",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", PRAGMAS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"journal_mode": "wal", "synchronous": 1, "busy_timeout": 20000}
