"""Which models and units are within range of an objective marker (11e 14.02; 10e Objective
Markers): `objective_range_horizontal` of the edition, measured from the model's base to the
marker's edge. Control (levels, OC, holding) is the battle sequence's (`sequence/objectives.py`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.state import State, alive_models, base_radius_inches, on_battlefield


def within_range(state: State, model: dict[str, Any], marker: dict[str, Any]) -> bool:
    reach = state["edition"]["objective_range_horizontal"]
    marker_radius = state["edition"]["objective_marker_diameter_mm"] / 2 / 25.4
    centre = ((model["x"] - marker["x"]) ** 2 + (model["y"] - marker["y"]) ** 2) ** 0.5
    return centre - base_radius_inches(model["base"]) - marker_radius <= reach + 1e-9


def units_within_range(state: State, marker: dict[str, Any], player: int) -> list[str]:
    return [
        unit["id"]
        for unit in state["units"].values()
        if unit["player"] == player
        and on_battlefield(unit)
        and any(within_range(state, m, marker) for m in alive_models(unit))
    ]
