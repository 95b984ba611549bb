"""CPU per action on the action path, in one process: moves `--from` to `--moves` (the first
`--moves` moves, less the first `--from`) of the self-played Strike Force game of
bench/fanout.py, played in `--games` games interleaved (each move in every game before the next
move, as a worker serving many tables sees them), through `games.matches.apply_action` with the
broadcast texts built after each commit (in-memory channel layer, SQLite in a temporary folder,
or the PostgreSQL database of `--database-url`, dropped and created anew).
The moves before `--from` are played first, the same way, and not measured: with `--from 30`
the measure covers the battle rounds' shooting, charges and fights, not the deployment.

Reports the CPU time per action (and the engine's part of it: its `apply` and the legal
actions); per move kind (each `end_phase` with its move number: 16 ends the Command phase, 25
the Movement phase) the number of moves and the median wall and CPU time per action; the
slowest moves by number and type (median CPU over the games); and optionally a cProfile of the
measured moves from `--profile-from` on.

    .venv/bin/python bench/action_cpu.py --games 10 --moves 32
    .venv/bin/python bench/action_cpu.py --games 2 --from 30 --moves 90   # the battle's moves
    .venv/bin/python bench/action_cpu.py --source /tmp/before     # another checkout (before)
    .venv/bin/python bench/action_cpu.py --profile-from 17 --profile /tmp/actions.prof
    .venv/bin/python bench/action_cpu.py --database-url postgres://postgres@127.0.0.1:5432/x
    .venv/bin/python bench/action_cpu.py --games 1 --queries 20   # the SQL of move 20

Prints one JSON line (and the profile's top functions when asked).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=32, help="moves played, the first is 0")
    parser.add_argument(
        "--from", dest="first", type=int, default=0, help="first move measured (earlier: played)"
    )
    parser.add_argument("--slowest", type=int, default=10, help="how many slowest moves listed")
    parser.add_argument("--source", default=str(HERE), help="the checkout to measure")
    parser.add_argument("--profile", default="", help="write a cProfile of the actions here")
    parser.add_argument("--profile-from", type=int, default=0, help="first move profiled")
    parser.add_argument("--database-url", default="", help="PostgreSQL (default: SQLite)")
    parser.add_argument(
        "--queries", type=int, default=-1, help="print the SQL of this move (first game)"
    )
    return parser.parse_args()


def fresh_database(args: argparse.Namespace) -> str:
    if not args.database_url:
        return f"sqlite:///{tempfile.mkdtemp(prefix='action-cpu-')}/bench.sqlite3"
    import fanout

    fanout.recreate_postgres_database(args.database_url)
    return args.database_url


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
    import fanout

    world = fanout.build_world(
        argparse.Namespace(
            games=args.games,
            battle_size="strike-force",
            seconds=args.moves,
            interval=1.0,
            spread=0,
        )
    )
    from games import matches, selectors, services

    # The engine's share: CPU inside its `apply` and the acting seat's legal actions (the rest
    # is the database, the patches and the texts).
    engine_cpu = [0.0]

    def engine_part(function):
        def timed(*args, **kwargs):
            begun = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                engine_cpu[0] += time.process_time() - begun

        return timed

    matches.apply = engine_part(matches.apply)
    selectors.legal_actions_for = engine_part(selectors.legal_actions_for)

    # The broadcast hands its sends to an event loop; here one loop of this thread serves them
    # (asgiref's async_to_sync would start a thread per call outside a server).
    loop = asyncio.new_event_loop()
    services.async_to_sync = lambda f: lambda *a, **k: loop.run_until_complete(f(*a, **k))
    profile = cProfile.Profile() if args.profile else None
    wall_by_kind: dict[str, list[float]] = {}
    cpu_by_kind: dict[str, list[float]] = {}
    cpu_by_move: dict[tuple[int, str], list[float]] = {}
    moves = world["moves"][: args.moves]
    first = min(args.first, len(moves))

    def play(number: int, move: dict, game: dict) -> None:
        # The version the client holds: the one the previous answer gave (no query of the
        # bench's own in the measure).
        body = {key: value for key, value in move.items() if key != "player"}
        answer = matches.apply_action(
            game["id"], move["player"], game["version"], f"c{number}", body
        )
        assert answer["type"] == "accepted", answer
        game["version"] = answer["version"]

    def queries_of(number: int, move: dict, game: dict) -> None:
        """Play the move and print every SQL statement it sent, the broadcast's included."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            play(number, move, game)
        print(f"move {number} ({move.get('type')}): {len(captured)} queries", file=sys.stderr)
        for query in captured.captured_queries:
            print(f"  {query['time']}s {query['sql'][:300]}", file=sys.stderr)

    for number, move in enumerate(moves[:first]):
        for game in world["games"]:
            play(number, move, game)
    if 0 <= args.queries < len(moves):
        for number, move in enumerate(moves[first : args.queries], start=first):
            for game in world["games"]:
                play(number, move, game)
        queries_of(args.queries, moves[args.queries], world["games"][0])
        return
    engine_cpu[0] = 0.0
    cpu = time.process_time()
    for number, move in enumerate(moves[first:], start=first):
        # Each phase's end is told apart by its move number (the next phase's legal actions
        # differ): in the bench game, move 16 ends the Command phase, 25 the Movement phase.
        kind = str(move.get("type"))
        kind = f"{kind} {number}" if kind == "end_phase" else kind
        for game in world["games"]:
            begun, begun_cpu = time.perf_counter(), time.process_time()
            if profile and number >= args.profile_from:
                profile.enable()
            play(number, move, game)
            if profile:
                profile.disable()
            wall_by_kind.setdefault(kind, []).append(time.perf_counter() - begun)
            cpu_by_kind.setdefault(kind, []).append(time.process_time() - begun_cpu)
            cpu_by_move.setdefault((number, kind), []).append(time.process_time() - begun_cpu)
    cpu = time.process_time() - cpu
    actions = max(1, (len(moves) - first) * len(world["games"]))
    slowest = sorted(cpu_by_move.items(), key=lambda item: -statistics.median(item[1]))
    print(
        json.dumps(
            {
                "source": args.source,
                "games": args.games,
                "from": first,
                "moves": len(moves),
                "actions": actions,
                "cpu_ms_per_action": round(1000 * cpu / actions, 1),
                "engine_cpu_ms_per_action": round(1000 * engine_cpu[0] / actions, 1),
                "wall_ms_median_by_kind": {
                    kind: round(1000 * statistics.median(times), 1)
                    for kind, times in wall_by_kind.items()
                },
                "by_kind": {
                    kind: {
                        "moves": len(times) // len(world["games"]),
                        "cpu_ms_median": round(1000 * statistics.median(times), 1),
                        "cpu_ms_total": round(1000 * sum(times), 1),
                    }
                    for kind, times in sorted(cpu_by_kind.items(), key=lambda item: -sum(item[1]))
                },
                "slowest_cpu_ms": [
                    [number, kind, round(1000 * statistics.median(times), 1)]
                    for (number, kind), times in slowest[: args.slowest]
                ],
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )
    if profile:
        profile.dump_stats(args.profile)
        pstats.Stats(args.profile).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
