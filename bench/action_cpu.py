"""CPU per action on the action path, in one process: the first `--moves` moves of the
self-played Strike Force game of bench/fanout.py, played in `--games` games interleaved (each
move in every game before the next move, as a worker serving many tables sees them), through
`games.matches.apply_action` with the broadcast texts built after each commit (in-memory channel
layer, SQLite in a temporary folder). Reports the CPU time per action (and the engine's part of
it: its `apply` and the legal actions), the wall time per move kind (each `end_phase` with its
move number: 16 ends the Command phase, 25 the Movement phase), and optionally a cProfile of the
moves from `--profile-from` on.

    .venv/bin/python bench/action_cpu.py --games 10 --moves 32
    .venv/bin/python bench/action_cpu.py --source /tmp/before     # another checkout (before)
    .venv/bin/python bench/action_cpu.py --profile-from 17 --profile /tmp/actions.prof

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
    parser.add_argument("--moves", type=int, default=32)
    parser.add_argument("--source", default=str(HERE), help="the checkout to measure")
    parser.add_argument("--profile", default="", help="write a cProfile of the actions here")
    parser.add_argument("--profile-from", type=int, default=0, help="first move profiled")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    sys.path.insert(0, args.source)
    sys.path.insert(1, str(HERE / "bench"))
    os.chdir(args.source)
    os.environ.update(
        DATABASE_URL=f"sqlite:///{tempfile.mkdtemp(prefix='action-cpu-')}/bench.sqlite3",
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
    from games.models import Game

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
    by_kind: dict[str, list[float]] = {}
    moves = world["moves"][: args.moves]
    cpu = time.process_time()
    for number, move in enumerate(moves):
        body = {key: value for key, value in move.items() if key != "player"}
        for game in world["games"]:
            version = Game.objects.filter(pk=game["id"]).values_list("version", flat=True).get()
            begun = time.perf_counter()
            if profile and number >= args.profile_from:
                profile.enable()
            answer = matches.apply_action(game["id"], move["player"], version, f"c{number}", body)
            if profile:
                profile.disable()
            # Each phase's end is told apart by its move number (the next phase's legal actions
            # differ): in the bench game, move 16 ends the Command phase, 25 the Movement phase.
            kind = str(move.get("type"))
            kind = f"{kind} {number}" if kind == "end_phase" else kind
            by_kind.setdefault(kind, []).append(time.perf_counter() - begun)
            assert answer["type"] == "accepted", answer
    cpu = time.process_time() - cpu
    actions = len(moves) * len(world["games"])
    print(
        json.dumps(
            {
                "source": args.source,
                "games": args.games,
                "moves": len(moves),
                "actions": actions,
                "cpu_ms_per_action": round(1000 * cpu / actions, 1),
                "engine_cpu_ms_per_action": round(1000 * engine_cpu[0] / actions, 1),
                "wall_ms_median_by_kind": {
                    kind: round(1000 * statistics.median(times), 1)
                    for kind, times in by_kind.items()
                },
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )
    if profile:
        profile.dump_stats(args.profile)
        pstats.Stats(args.profile).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
