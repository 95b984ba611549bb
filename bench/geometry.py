"""Time the battlefield's two hot paths on a busy table.

    .venv/bin/python bench/geometry.py

1. Validating one 20-model unit's normal move against 200 enemy models and 30 terrain pieces.
2. One visibility query between two 10-model units through 30 terrain pieces.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.engine.battlefield.board import Battlefield, Placement  # noqa: E402
from rules.engine.battlefield.movement import Move, validate_move  # noqa: E402
from rules.engine.battlefield.visibility import unit_visibility  # noqa: E402
from tests.battlefield.helpers import ELEVENTH  # noqa: E402

BASE = {"shape": "round", "diameter_mm": 32}


def table() -> Battlefield:
    terrain = []
    for column in range(6):
        for row in range(5):
            x, y = 2 + column * 7, 14 + row * 7
            if 8 <= x <= 14:
                continue
            terrain.append(
                {
                    "kind": "ruins",
                    "polygon": [[x, y], [x + 3, y], [x + 3, y + 2], [x, y + 2]],
                    "height": 4,
                }
            )
    while len(terrain) < 30:
        n = len(terrain)
        terrain.append(
            {
                "kind": "crater",
                "polygon": [[30, 1 + n], [31, 1 + n], [31, 1.5 + n], [30, 1.5 + n]],
                "height": 0,
            }
        )
    return Battlefield.from_dict({"width": 44, "depth": 60, "terrain": terrain})


def main() -> None:
    battlefield = table()
    mover = [
        Placement(f"m{i}", "mover", 1, 9 + (i % 4) * 1.5, 2 + (i // 4) * 1.5, 0, BASE)
        for i in range(20)
    ]
    enemies = [
        Placement(f"e{i}", f"enemy{i // 10}", 2, 1 + (i % 20) * 2.1, 45 + (i // 20) * 1.4, 0, BASE)
        for i in range(200)
    ]
    placements = mover + enemies
    move = Move(
        "normal", "mover", {p.model_id: [(p.x, p.y + 3), (p.x, p.y + 6)] for p in mover}, movement=6
    )
    validate_move(battlefield, ELEVENTH, placements, move)
    runs = 200
    start = time.perf_counter()
    for _ in range(runs):
        validate_move(battlefield, ELEVENTH, placements, move)
    move_ms = (time.perf_counter() - start) / runs * 1000

    shooters = [Placement(f"s{i}", "s", 1, 3 + i * 1.5, 5, 0, BASE) for i in range(10)]
    targets = [Placement(f"t{i}", "t", 2, 20 + i * 1.5, 52, 0, BASE) for i in range(10)]
    unit_visibility(battlefield, ELEVENTH, shooters, targets)
    start = time.perf_counter()
    for _ in range(runs):
        unit_visibility(battlefield, ELEVENTH, shooters, targets)
    sight_ms = (time.perf_counter() - start) / runs * 1000
    print(f"normal move, 20 models vs 200 enemies, 30 terrain pieces: {move_ms:.2f} ms")
    print(f"visibility, 10 vs 10 models through 30 terrain pieces: {sight_ms:.2f} ms")


if __name__ == "__main__":
    main()
