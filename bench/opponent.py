"""The tactical computer opponent against the random self-play agent (issue 19): N games per
rule set from the same armies and dice seeds (the self-play armies of the stratagem fixture), the
tactical agent player 1 in odd games and player 2 in even ones. Reports its wins, the victory
point margins, the time of each of its decisions (p50, p99, max) and how often it shot, charged
and used a stratagem.

Run: PYTHONPATH=. .venv/bin/python bench/opponent.py [--games 50] [--editions 11e 10e]
"""

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.engine.tools import selfplay, tactical  # noqa: E402
from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(edition: str, games: int) -> None:
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, edition)
    wins = draws = 0
    margins: list[int] = []
    timings: list[float] = []
    used: Counter = Counter()
    started = time.perf_counter()
    for number in range(1, games + 1):
        side = 1 if number % 2 else 2
        agents = {side: "tactical", 3 - side: "random"}
        state, times, actions = tactical.play_game(
            setup, selfplay.dice_seed(number), agents, number
        )
        timings.extend(times)
        wins += state["winner"] == side
        draws += state["winner"] is None
        margins.append(state["players"][str(side)]["vp"] - state["players"][str(3 - side)]["vp"])
        for action in actions:
            choice = action.get("choice")
            if isinstance(choice, dict) and "stratagem" in choice:
                used["stratagem"] += 1
            elif action["type"] in ("shoot", "declare_charge", "fight", "move", "issue_order"):
                used[action["type"]] += 1
    print(
        f"{edition}: tactical won {wins}/{games} ({100 * wins / games:.0f}%), drew {draws}; "
        f"VP margin mean {statistics.mean(margins):+.1f}, min {min(margins):+d}, "
        f"max {max(margins):+d}"
    )
    print(
        f"  decisions {len(timings)}: p50 {1000 * percentile(timings, 0.5):.0f} ms, "
        f"p99 {1000 * percentile(timings, 0.99):.0f} ms, max {1000 * max(timings):.0f} ms; "
        f"{time.perf_counter() - started:.0f} s for the games"
    )
    print("  its actions: " + ", ".join(f"{n} {kind}" for kind, n in sorted(used.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--editions", nargs="+", default=["11e", "10e"])
    arguments = parser.parse_args()
    for edition in arguments.editions:
        run(edition, arguments.games)


if __name__ == "__main__":
    main()
