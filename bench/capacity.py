"""Two workers against one at saturation, as ratios measured in one run: `--pairs` times, a
capacity run of `bench/fanout.py` with one worker and then one with two workers behind nginx
(`--placement proxy`, deploy/nginx.conf), on PostgreSQL and Redis. Each pair's ratio is two
workers' actions per second over one worker's; prints one JSON line with every run's figures,
the ratios and their median.

The load must saturate both: `--games` games each send their next action as soon as the last
reached everyone, `--interval` at the soonest, so the bench can send at most games / interval
actions per second. Each run says whether its actions queued past the interval (`saturated`);
a ratio of runs that were not is the bench's pace, not the server's capacity.

    .venv/bin/python bench/capacity.py \\
        --database-url postgres://postgres@127.0.0.1:5432/strategium_bench \\
        --redis-url redis://127.0.0.1:6379/11
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEPT = ["workers", "actions_per_second", "worker_cpu_ms_per_action", "cpu_cores", "saturated"]


def fanout(args: argparse.Namespace, *extra: str) -> dict:
    command = [
        sys.executable,
        str(HERE / "fanout.py"),
        *("--games", str(args.games), "--interval", str(args.interval)),
        *("--seconds", str(args.seconds), "--no-echo", "--port", str(args.port)),
        *("--database-url", args.database_url, "--redis-url", args.redis_url),
        *extra,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=os.environ)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["p99_ms"] = result["action_to_all"].get("p99_ms")
    return {key: result[key] for key in [*KEPT, "load_average", "p99_ms"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8150)
    args = parser.parse_args()
    runs, ratios = [], []
    for _ in range(args.pairs):
        one = fanout(args)
        two = fanout(args, "--workers", "2", "--placement", "proxy")
        runs += [one, two]
        ratios.append(round(two["actions_per_second"] / one["actions_per_second"], 2))
    print(
        json.dumps(
            {
                "games": args.games,
                "interval": args.interval,
                "seconds": args.seconds,
                "runs": runs,
                "ratios": ratios,
                "median_ratio": statistics.median(ratios),
                "every_run_saturated": all(run["saturated"] for run in runs),
            }
        )
    )


if __name__ == "__main__":
    main()
