"""Visibility between units in the game state, for stratagems that need "visible to".

The mission's battlefield and the edition come from `placement` (built once each); `visibility.py`
does the sight lines.
"""

from __future__ import annotations

from rules.engine.battlefield.board import placements_from_units
from rules.engine.battlefield.placement import battlefield_of, edition_of
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.battlefield.visibility import unit_visibility
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, on_battlefield, unit_keywords


def visible(state: State, unit: Unit, enemy: Unit, model_ids: set[str] | None = None) -> bool:
    """Is `enemy` visible to `unit` (to one of `model_ids` of it, when given)?"""
    observers = [
        p
        for p in placements_from_units({unit["id"]: unit})
        if model_ids is None or p.model_id in model_ids
    ]
    targets = placements_from_units({enemy["id"]: enemy})
    if not observers or not targets:
        return False
    return unit_visibility(
        battlefield_of(state), edition_of(state), observers, targets
    ).unit_visible


def enemies_in_sight(
    state: State, unit: Unit, within: float, keyword: str | None = None
) -> list[Unit]:
    """The enemy units on the battlefield within `within` inches of `unit` and visible to it (with
    `keyword`, when given), in id order: the targets of Tanglefoot Grenades, Rites of Exorcism."""
    return [
        enemy
        for _, enemy in sorted(state["units"].items())
        if enemy["player"] != unit["player"]
        and on_battlefield(enemy)
        and (keyword is None or keyword in unit_keywords(state, enemy))
        and unit_distance(unit, enemy) <= within
        and visible(state, unit, enemy)
    ]
