"""How long the server takes per action of a match, and how big the broadcast is.

Run: .venv/bin/python bench/match_actions.py   (a throw-away SQLite database under /tmp)
"""

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import matches, selectors  # noqa: E402
from games.models import Game  # noqa: E402
from tests.match_world import cadians, grey_knights, mustering_game, players, saved  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("load_rules", verbosity=0)
    alice, bob, _ = players()
    game = mustering_game(alice, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    started = time.perf_counter()
    matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    print(f"second pick + new_game: {1000 * (time.perf_counter() - started):.1f} ms")
    timings = []
    for seat in (1, 2):
        version = Game.objects.get(pk=game.pk).version
        started = time.perf_counter()
        answer = matches.apply_action(
            game.pk, seat, version, f"r{seat}", {"type": "declare_reserves", "units": []}
        )
        timings.append(time.perf_counter() - started)
        assert answer["type"] == "accepted", answer
    game = Game.objects.get(pk=game.pk)
    while game.state["stage"] == "deployment":
        seat = game.state["awaiting"]
        (template, *_) = selectors.legal_actions_for(game.state, seat)
        unit = game.state["units"][template["unit"]]
        y0, dy = (4.0, 2.0) if seat == 1 else (40.0, -2.0)
        positions = {
            m["id"]: [20.0 + (i % 5) * 2.0, y0 + (i // 5) * dy, 0.0]
            for i, m in enumerate(unit["models"])
        }
        started = time.perf_counter()
        answer = matches.apply_action(
            game.pk,
            seat,
            game.version,
            f"d{game.version}",
            {"type": "deploy", "unit": unit["id"], "positions": positions},
        )
        timings.append(time.perf_counter() - started)
        assert answer["type"] == "accepted", answer
        game = Game.objects.get(pk=game.pk)
    message = selectors.catch_up(game.pk, game.version - 1, 1)
    print(
        f"{len(timings)} actions: median {1000 * statistics.median(timings):.1f} ms, "
        f"max {1000 * max(timings):.1f} ms per action (lock, engine, log, state, broadcast)"
    )
    print(f"events message with state and legal actions: {len(json.dumps(message))} bytes")


if __name__ == "__main__":
    main()
