"""Missions as data (docs/missions.md): battlefield, deployment zones, objective markers, terrain,
reserves limits and primary scoring. The engine is given the mission record when a game starts.

Zones, edges, terrain, paths and visibility are measured by the battlefield modules
(`Battlefield.from_mission`, reached through `placement.battlefield_of`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MISSIONS_FILE = Path(__file__).resolve().parents[2] / "data" / "missions.json"


def load_missions(path: Path = MISSIONS_FILE) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["missions"]


def default_mission() -> dict[str, Any]:
    return load_missions()[0]
