"""Self-play time per game with and without stratagems (docs/performance.md).

Run: PYTHONPATH=. .venv/bin/python bench/stratagems.py
"""

import statistics
import time

from rules.engine.tools.selfplay import selfplay
from tests.engine_world import BUNDLE
from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE

for name, bundle in (("without stratagems", BUNDLE), ("with stratagems", STRATAGEM_BUNDLE)):
    for edition in ("11e", "10e"):
        times, uses, windows, actions = [], 0, 0, 0
        for number in range(1, 9):
            start = time.perf_counter()
            _, log = selfplay(bundle, number, edition)
            times.append(time.perf_counter() - start)
            uses += sum(1 for e in log["events"] if e["type"] == "stratagem_used")
            windows += sum(
                1
                for e in log["events"]
                if e["type"] == "decision_pending" and e["decision"]["kind"] == "stratagem_window"
            )
            actions += len(log["actions"])
        print(
            f"{name:20} {edition}: median {statistics.median(times) * 1000:.0f} ms/game, "
            f"max {max(times) * 1000:.0f} ms; {actions} actions, {windows} windows, {uses} used"
        )
