"""Replay speed: events applied per second when a self-played game is replayed from its log.

Usage: .venv/bin/python bench/replay.py [--games N] [--edition 11e|10e]

Self-plays N games from the fixture datasheets (tests/data/engine_bundle.json) with the project's
rule sets and missions, then times replaying
each log (new game + every action through `apply`), and prints one JSON line with the totals.
"""

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.engine.sequence.replay import replay  # noqa: E402
from rules.engine.tools.selfplay import selfplay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--edition", default="11e")
    arguments = parser.parse_args()
    from tests.engine_world import BUNDLE as bundle

    logs = [selfplay(bundle, number, arguments.edition)[1] for number in range(arguments.games)]
    events = actions = 0
    started = time.perf_counter()
    for log in logs:
        _, produced = replay(log)
        events += len(produced)
        actions += len(log["actions"])
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": arguments.games,
                "edition": arguments.edition,
                "actions": actions,
                "events": events,
                "seconds": round(elapsed, 3),
                "events_per_second": round(events / elapsed),
                "actions_per_second": round(actions / elapsed),
            }
        )
    )


if __name__ == "__main__":
    main()
