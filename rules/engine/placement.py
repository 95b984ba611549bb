"""Placing and moving models: the checks every set-up and move shares.

Positions are given per model as `[x, y, facing]` (inches, inches, degrees). These are the
straight-line checks of the battle sequence: distance moved, staying on the battlefield, bases not
overlapping, engagement range (3.04 / 10e Engagement Range, horizontal only here). Paths around
terrain, coherency and vertical distances are the geometry modules' job.
"""

from __future__ import annotations

import math
from typing import Any

from rules.engine.missions import on_battlefield_area
from rules.engine.refusals import Refusal
from rules.engine.state import (
    State,
    alive_models,
    base_radius_inches,
    model_distance,
    on_battlefield,
)

Positions = dict[str, list[float]]


def read_positions(unit: dict[str, Any], positions: Any, rule: str) -> Positions:
    """Every alive model of the unit needs a finite `[x, y, facing]`; nothing else is accepted."""
    if not isinstance(positions, dict):
        raise Refusal("positions_required", rule, "Give a position [x, y, facing] for each model.")
    wanted = {m["id"] for m in alive_models(unit)}
    if set(positions) != wanted:
        raise Refusal(
            "positions_for_every_model",
            rule,
            f"Give a position for each of the {len(wanted)} models of {unit['name']}, no others.",
        )
    read: Positions = {}
    for model_id, value in positions.items():
        if (
            not isinstance(value, list | tuple)
            or len(value) != 3
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            or not all(math.isfinite(v) for v in value)
        ):
            raise Refusal("invalid_position", rule, f"{model_id}: a position is [x, y, facing].")
        read[model_id] = [float(value[0]), float(value[1]), float(value[2]) % 360.0]
    return read


def moved(unit: dict[str, Any], positions: Positions) -> list[dict[str, Any]]:
    """The unit's alive models as they would stand at the new positions (copies)."""
    return [
        {
            **m,
            "x": positions[m["id"]][0],
            "y": positions[m["id"]][1],
            "facing": positions[m["id"]][2],
        }
        for m in alive_models(unit)
    ]


def check_distance(unit: dict[str, Any], positions: Positions, maximum: float, rule: str) -> None:
    for model in alive_models(unit):
        x, y, _ = positions[model["id"]]
        travelled = math.hypot(x - model["x"], y - model["y"])
        if travelled > maximum + 1e-9:
            raise Refusal(
                "move_too_far",
                rule,
                f'{model["name"]} would move {travelled:.1f}" but can move at most {maximum:g}".',
                {"distance": round(travelled, 3), "maximum": maximum},
            )


def check_on_battlefield(state: State, models: list[dict[str, Any]], rule: str) -> None:
    for model in models:
        if not on_battlefield_area(state["mission"], model):
            raise Refusal(
                "off_battlefield", rule, f"{model['name']} would not be wholly on the battlefield."
            )


def check_no_overlap(
    state: State, unit: dict[str, Any], models: list[dict[str, Any]], rule: str
) -> None:
    """Bases cannot overlap each other or any other model on the battlefield."""
    others = [
        m
        for u in state["units"].values()
        if u["id"] != unit["id"] and on_battlefield(u)
        for m in alive_models(u)
    ]
    for index, model in enumerate(models):
        for other in others + models[index + 1 :]:
            centre = math.hypot(model["x"] - other["x"], model["y"] - other["y"])
            if (
                centre
                < base_radius_inches(model["base"]) + base_radius_inches(other["base"]) - 1e-6
            ):
                raise Refusal(
                    "bases_overlap", rule, f"{model['name']} would overlap another model."
                )


def engaged_units(
    state: State, unit: dict[str, Any], models: list[dict[str, Any]] | None = None
) -> list[str]:
    """Enemy units within engagement range of the unit (or of the given model positions)."""
    reach = state["edition"]["engagement_range_horizontal"]
    mine = models if models is not None else alive_models(unit)
    found = []
    for other in state["units"].values():
        if other["player"] == unit["player"] or not on_battlefield(other):
            continue
        if any(model_distance(a, b) <= reach + 1e-9 for a in mine for b in alive_models(other)):
            found.append(other["id"])
    return sorted(found)


def is_engaged(state: State, unit: dict[str, Any]) -> bool:
    return on_battlefield(unit) and bool(engaged_units(state, unit))


def closest_enemy_distance(
    state: State, unit: dict[str, Any], models: list[dict[str, Any]]
) -> float:
    distances = [
        model_distance(a, b)
        for other in state["units"].values()
        if other["player"] != unit["player"] and on_battlefield(other)
        for a in models
        for b in alive_models(other)
    ]
    return min(distances, default=float("inf"))


def place(unit: dict[str, Any], positions: Positions) -> None:
    for model in alive_models(unit):
        model["x"], model["y"], model["facing"] = positions[model["id"]]
