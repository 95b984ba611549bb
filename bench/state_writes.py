"""What one action writes to the database, and what reading a game back costs.

Plays the first `--actions` moves of a self-played Strike Force game (the armies, seed and moves
of bench/fanout.py) through `games.matches.apply_action`, and reports per action the bytes of
the INSERT and UPDATE statements sent (SQL text and parameters, JSON counted as its text) and
the time of `apply_action`; on a PostgreSQL server on this machine, the CPU its backend process
spent on the actions (all of it is the actions': one connection); then the time a worker that
never saw the game takes to read its state now (the row, and the patches since the state stored
whole, when there are some).

    .venv/bin/python bench/state_writes.py                       # SQLite in a temporary folder
    .venv/bin/python bench/state_writes.py --database-url postgres://postgres@127.0.0.1:5432/x
    .venv/bin/python bench/state_writes.py --source /tmp/before   # another checkout (before)

The PostgreSQL database is dropped and created anew. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--source", default=str(HERE), help="the checkout to measure")
    parser.add_argument("--reads", type=int, default=9, help="cold reads of the state")
    parser.add_argument(
        "--by-statement",
        action="store_true",
        help="the PostgreSQL backend's CPU per kind of statement (its clock ticks every 10 ms:"
        " only totals over many actions mean anything)",
    )
    return parser.parse_args()


def fresh_database(args: argparse.Namespace) -> str:
    if not args.database_url:
        return f"sqlite:///{tempfile.mkdtemp(prefix='state-writes-')}/bench.sqlite3"
    import fanout

    fanout.recreate_postgres_database(args.database_url)
    return args.database_url


def size(value) -> int:
    """The bytes a parameter sends: JSON as its text (psycopg's Jsonb wraps it in `obj`)."""
    if hasattr(value, "obj"):
        return len(json.dumps(value.obj))
    return len(value) if isinstance(value, str | bytes) else len(str(value))


def process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU of a process on this machine, None when it is not here."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Writes:
    """Counts the bytes of the INSERT and UPDATE statements run through Django; given the
    database server's backend process, also its CPU per kind of statement (`by_statement`)."""

    def __init__(self, backend: int | None = None, by_statement: dict | None = None) -> None:
        self.bytes = 0
        self.backend, self.by_statement = backend, by_statement

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            rows = params if many else [params]
            self.bytes += len(sql) + sum(size(p) for row in rows for p in (row or ()))
        if self.backend is None or self.by_statement is None:
            return execute(sql, params, many, context)
        before = process_cpu_seconds(self.backend) or 0.0
        try:
            return execute(sql, params, many, context)
        finally:
            # The statement's verb and table, and whether it writes the state whole.
            kind = " ".join(sql.split()[:3]) + (" (state whole)" if "stored_state" in sql else "")
            spent = (process_cpu_seconds(self.backend) or 0.0) - before
            entry = self.by_statement.setdefault(kind, [0, 0.0])
            entry[0] += 1
            entry[1] += spent


def main() -> None:
    args = parse_args()
    sys.path.insert(0, args.source)
    sys.path.insert(1, str(HERE / "bench"))
    os.chdir(args.source)
    os.environ.update(
        DATABASE_URL=fresh_database(args),
        REDIS_URL="",
        DJANGO_SETTINGS_MODULE="tabletop.settings",
        DEBUG="0",
        SECRET_KEY="bench-" * 8,
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("load_rules", verbosity=0)
    import fanout

    from games import armies, live_states, matches, services
    from games.models import Game
    from tests.match_world import players

    try:  # the engine's public face (the "before" checkout has the engine in flat modules)
        from rules.engine import seed_commitment
    except ImportError:
        from rules.engine.dice import seed_commitment

    alice, bob, _ = players()
    game = services.create_game(alice, battle_size="strike-force")
    seed = "5eed" * 16  # bench/fanout.py's: the same dice, so the same game, in every checkout
    Game.objects.filter(pk=game.pk).update(dice_seed=seed, seed_commitment=seed_commitment(seed))
    services.join_by_invite(game.invite_token, bob)
    first, second = fanout.armies("strike-force")
    matches.pick_army(game.pk, alice, armies.create_army(alice, first).pk)
    matches.pick_army(game.pk, bob, armies.create_army(bob, second).pk)
    game = Game.objects.get(pk=game.pk)
    moves = fanout.moves(game.setup, game.dice_seed, args.actions)
    writes, timings, started = [], [], os.getloadavg()[0]
    backend = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
    backend_before = process_cpu_seconds(backend) if backend else None
    by_statement: dict[str, list] = {}
    version = game.version
    for number, move in enumerate(moves):
        body = {key: value for key, value in move.items() if key != "player"}
        counter = Writes(backend, by_statement if args.by_statement else None)
        with connection.execute_wrapper(counter):
            begun = time.perf_counter()
            answer = matches.apply_action(game.pk, move["player"], version, f"w{number}", body)
            timings.append(time.perf_counter() - begun)
        assert answer["type"] == "accepted", answer
        version = answer["version"]
        writes.append(counter.bytes)
    backend_after = process_cpu_seconds(backend) if backend else None
    reads = []
    for _ in range(args.reads):
        live_states.clear()
        connection.close()  # a worker that never saw the game: a new connection too
        begun = time.perf_counter()
        state = Game.objects.get(pk=game.pk).state
        reads.append(time.perf_counter() - begun)
    row = Game.objects.get(pk=game.pk)
    print(
        json.dumps(
            {
                "source": args.source,
                "database": connection.vendor,
                "actions": len(moves),
                "events": row.version,
                "load_average": [round(started, 2), round(os.getloadavg()[0], 2)],
                "state_bytes": len(json.dumps(state, separators=(",", ":"))),
                "written_bytes_per_action": {
                    "median": statistics.median(writes),
                    "mean": round(statistics.mean(writes)),
                    "max": max(writes),
                    "total": sum(writes),
                },
                "apply_action_ms": {
                    "median": round(1000 * statistics.median(timings), 1),
                    "p95": round(1000 * statistics.quantiles(timings, n=20)[18], 1),
                },
                "database_cpu_ms_per_action": round(
                    1000 * (backend_after - backend_before) / len(moves), 3
                )
                if backend_before is not None and backend_after is not None
                else None,
                **(
                    {
                        "database_cpu_ms_by_statement": {
                            kind: {"count": count, "ms": round(1000 * spent)}
                            for kind, (count, spent) in sorted(
                                by_statement.items(), key=lambda item: -item[1][1]
                            )
                        }
                    }
                    if args.by_statement
                    else {}
                ),
                "cold_read_ms_median": round(1000 * statistics.median(reads), 1),
            }
        )
    )


if __name__ == "__main__":
    main()
