"""The deployment settings come from the environment (README, "Settings"): with the production
variables set, `check --deploy` is clean at WARNING level; without them it names what is missing."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.models import Game, GameSnapshot
from tests.match_world import started_world

PROJECT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "strategium.example",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "SESSION_COOKIE_SECURE": "1",
    "CSRF_COOKIE_SECURE": "1",
    "SECURE_PROXY_SSL_HEADER": "1",
}


def check_deploy(**variables: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, **variables}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_deploy_is_clean_with_the_production_variables():
    done = check_deploy(**PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_names_the_missing_settings_without_them():
    done = check_deploy(DEBUG="0", SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert done.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in done.stdout + done.stderr


def database_setting(name: str, **variables: str) -> subprocess.CompletedProcess:
    """`SHOW name` on a connection the project's settings open, with these variables."""
    code = (
        "import django; django.setup(); from django.db import connection; "
        f"cursor = connection.cursor(); cursor.execute('SHOW {name}'); print(cursor.fetchone()[0])"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tabletop.settings", **variables},
        capture_output=True,
        text=True,
        check=False,
    )


def test_postgresql_commits_do_not_wait_for_the_disk_unless_asked():
    """README, `DATABASE_SYNCHRONOUS_COMMIT`: off by default, on when set."""
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("PostgreSQL only: DATABASE_URL names no PostgreSQL database")
    default = database_setting("synchronous_commit")
    assert default.stdout.strip() == "off", default.stderr
    asked = database_setting("synchronous_commit", DATABASE_SYNCHRONOUS_COMMIT="1")
    assert asked.stdout.strip() == "on", asked.stderr


@pytest.mark.django_db
def test_postgresql_compresses_the_stored_states_with_lz4():
    """games/migrations/0008: the columns that hold whole states and set-ups use LZ4, not pglz,
    and a state written whole is stored compressed that way."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: DATABASE_URL names no PostgreSQL database")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attrelid::regclass::text, attname, attcompression FROM pg_attribute"
            " WHERE attrelid IN (%s::regclass, %s::regclass) AND attname IN"
            " ('stored_state', 'setup', 'army_snapshots', 'state')",
            [Game._meta.db_table, GameSnapshot._meta.db_table],
        )
        methods = {(table, column): method for table, column, method in cursor.fetchall()}
    assert methods == {
        ("games_game", "stored_state"): "l",
        ("games_game", "setup"): "l",
        ("games_game", "army_snapshots"): "l",
        ("games_gamesnapshot", "state"): "l",
    }
    game = started_world()[0]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(stored_state), pg_column_compression(setup)"
            " FROM games_game WHERE id = %s",
            [game.pk],
        )
        assert cursor.fetchone() == ("lz4", "lz4")
