"""What a commit costs on PostgreSQL with and without waiting for the disk (the setting
`DATABASE_SYNCHRONOUS_COMMIT`, tabletop/settings.py): `--commits` one-row inserts, each committed
on its own, with `synchronous_commit` on, then off, in one run. Prints one JSON line with the
median and 95th percentile of each.

    .venv/bin/python bench/commit_latency.py --database-url postgres://postgres@127.0.0.1:5432/strategium_bench
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import psycopg


def measure(connection: psycopg.Connection, setting: str, commits: int) -> dict[str, float]:
    connection.execute(f"SET synchronous_commit = {setting}")
    connection.commit()
    times = []
    for _ in range(commits):
        started = time.perf_counter()
        connection.execute("INSERT INTO bench_commit_latency (payload) VALUES ('x')")
        connection.commit()
        times.append((time.perf_counter() - started) * 1000)
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {"median_ms": round(statistics.median(times), 2), "p95_ms": round(cuts[94], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--commits", type=int, default=300)
    args = parser.parse_args()
    with psycopg.connect(args.database_url) as connection:
        # A table of its own, logged as the game's are (a temporary table writes no log).
        connection.execute(
            "CREATE TABLE IF NOT EXISTS bench_commit_latency (id serial PRIMARY KEY, payload text)"
        )
        connection.commit()
        try:
            result = {s: measure(connection, s, args.commits) for s in ("on", "off")}
        finally:
            connection.execute("DROP TABLE bench_commit_latency")
            connection.commit()
    print(json.dumps({**result, "load_average": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
