"""Visibility between units in the game state, for stratagems that need "visible to".

Builds the mission's battlefield geometry once per mission (`visibility.py` does the sight lines).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rules.engine.battlefield import Battlefield, placements_from_units
from rules.engine.editions import Edition
from rules.engine.state import State, canonical_json
from rules.engine.visibility import unit_visibility


@lru_cache(maxsize=8)
def _battlefield(mission_json: str) -> Battlefield:
    return Battlefield.from_mission(json.loads(mission_json))


@lru_cache(maxsize=8)
def _edition(edition_json: str) -> Edition:
    parameters = json.loads(edition_json)
    return Edition.from_parameters(parameters.pop("slug"), parameters)


def visible(
    state: State, unit: dict[str, Any], enemy: dict[str, Any], model_ids: set[str] | None = None
) -> bool:
    """Is `enemy` visible to `unit` (to one of `model_ids` of it, when given)?"""
    observers = [
        p
        for p in placements_from_units({unit["id"]: unit})
        if model_ids is None or p.model_id in model_ids
    ]
    targets = placements_from_units({enemy["id"]: enemy})
    if not observers or not targets:
        return False
    battlefield = _battlefield(canonical_json(state["mission"]))
    edition = _edition(canonical_json(state["edition"]))
    return unit_visibility(battlefield, edition, observers, targets).unit_visible
