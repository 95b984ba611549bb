"""Which models and units are within range of an objective marker (11e 14.02; 10e Objective
Markers): `objective_range_horizontal` of the edition, measured from the model's base to the
marker's edge. Control (levels, OC, holding) is the battle sequence's (`sequence/objectives.py`).
"""

from __future__ import annotations

from rules.engine.battlefield.placement import measured_here
from rules.engine.battlefield.state_distances import within_of_point
from rules.engine.core.shapes import Model, Objective
from rules.engine.core.state import State, alive_models, on_battlefield


def within_range(state: State, model: Model, marker: Objective) -> bool:
    """The model's base is within range of the marker: `objective_range_horizontal` of the
    marker's edge, measured to the closest point of the base (an oval or a hull as it is turned,
    `state_distances`)."""
    reach = state["edition"]["objective_range_horizontal"]
    marker_radius = state["edition"]["objective_marker_diameter_mm"] / 2 / 25.4
    return within_of_point(model, marker["x"], marker["y"], reach, marker_radius)


def units_within_range(state: State, marker: Objective, player: int) -> list[str]:
    """The player's units with a model within range of the marker, measured once per position
    (rules ask it for every marker at each attack against each target)."""
    edition = state["edition"]
    key = (
        "objective_range",
        marker["x"],
        marker["y"],
        player,
        edition["objective_range_horizontal"],
        edition["objective_marker_diameter_mm"],
    )
    measured = measured_here(state)
    found = measured.get(key)
    if found is None:
        found = measured[key] = [
            unit["id"]
            for unit in state["units"].values()
            if unit["player"] == player
            and on_battlefield(unit)
            and any(within_range(state, m, marker) for m in alive_models(unit))
        ]
    return list(found)
