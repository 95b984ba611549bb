"""The reads around a game (issue 16) on a long game: a page of the log, the result summary, the
dice verification, and the replay viewer's states, from a snapshot and stepping forward from a
state replayed lately. Ratios are of timings measured in this one run.

Run: .venv/bin/python bench/game_flow.py   (a throw-away SQLite database under /tmp)
    options: --events N (650)
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import matches, replays, results, selectors, services  # noqa: E402
from games.models import Game, GameEvent, GameSnapshot  # noqa: E402
from tests.browser.flow_fixtures import play_on, store_army  # noqa: E402
from tests.match_world import players  # noqa: E402


def timed(function, repeat: int = 5) -> float:
    """Milliseconds per call, the best of `repeat`."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return 1000 * best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=650)
    events = parser.parse_args().events
    call_command("migrate", verbosity=0)
    call_command("load_rules", verbosity=0)
    alice, bob, _ = players()
    game = services.create_game(alice)
    services.join_by_invite(game.invite_token, bob)
    matches.pick_army(game.pk, alice, store_army(alice.username, 1)["id"])
    matches.pick_army(game.pk, bob, store_army(bob.username, 2)["id"])
    play_on(game.pk, events=events, attack=True)
    services.concede(Game.objects.get(pk=game.pk), bob)
    game = Game.objects.get(pk=game.pk)
    snapshots = list(GameSnapshot.objects.filter(game=game).values_list("version", flat=True))
    print(f"game: {game.version} events, {len(snapshots)} snapshots")
    print(f"log page of 200: {timed(lambda: selectors.log_page(game, 0, 200, 1)):.1f} ms")
    print(f"result summary: {timed(lambda: results.summary(game)):.1f} ms")
    checked = results.verify_dice(game)
    print(f"verify {checked['dice']} dice: {timed(lambda: results.verify_dice(game)):.1f} ms")

    base = snapshots[-2]
    starts = list(
        GameEvent.objects.filter(game=game, kind="action_applied", sequence__gt=base)
        .order_by("sequence")
        .values_list("sequence", flat=True)
    )
    far = max(s for s in starts if s < snapshots[-1])

    def from_snapshot() -> None:
        replays._RECENT.clear()
        replays.state_after(game, far)

    cold = timed(from_snapshot, repeat=3)
    steps = [s for s in starts if s <= far]
    replays._RECENT.clear()
    replays.state_after(game, steps[0])
    started = time.perf_counter()
    for version in steps[1:]:
        replays.state_after(game, version)
    step = 1000 * (time.perf_counter() - started) / max(1, len(steps) - 1)
    print(f"replay state {far - base} events past a snapshot, from the snapshot: {cold:.1f} ms")
    print(f"replay state, one action forward from the state replayed last: {step:.1f} ms")
    print(f"ratio (from the snapshot / one step forward): {cold / step:.1f}")


if __name__ == "__main__":
    main()
