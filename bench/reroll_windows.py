"""Command Re-roll windows asked in self-played games: the default (asked only after a roll with a
failed die, rulings R-ST-32) against asking after every roll (`reroll_every_roll`), in one run.

Usage: .venv/bin/python bench/reroll_windows.py [--games N]

Self-plays N games per edition with the stratagem bundle of tests/test_stratagem_selfplay.py, once
as the engine asks and once with every roll asked, and prints one JSON line: the after-roll
windows opened each way and their ratio.
"""

import argparse
import json
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.engine.stratagems.effects import rerolls  # noqa: E402
from rules.engine.tools.selfplay import selfplay  # noqa: E402
from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE  # noqa: E402


def after_roll_windows(games: int, every_roll: bool) -> int:
    asked = (lambda _state, _record: True) if every_roll else rerolls.worth_asking
    total = 0
    with mock.patch.object(rerolls, "worth_asking", asked):
        for edition in ("11e", "10e"):
            for number in range(1, games + 1):
                _, log = selfplay(STRATAGEM_BUNDLE, number, edition)
                total += sum(
                    1
                    for event in log["events"]
                    if event["type"] == "decision_pending"
                    and event["decision"]["kind"] == "stratagem_window"
                    and "after_roll" in event["decision"]["resume"].get("triggers", [])
                )
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    games = parser.parse_args().games
    default, every = after_roll_windows(games, False), after_roll_windows(games, True)
    print(
        json.dumps(
            {
                "games": 2 * games,
                "windows_default": default,
                "windows_every_roll": every,
                "ratio": round(default / every, 3) if every else None,
            }
        )
    )


if __name__ == "__main__":
    main()
