"""Unit coherency (11e §03.03; 10e Unit Coherency, AMB-24).

11e (`one_near_all_within_span`): every model within 2" horizontally and 5" vertically of at
least one other model of its unit, and within 9" horizontally and 5" vertically of every other.
10e (`linked_neighbours`): every model within 2" horizontally and 5" vertically of one other model
of its unit, or of two others in a unit of 7 or more models.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.engine.battlefield.board import EPSILON, ModelSet, Placement, pairwise_distances
from rules.engine.battlefield.board import vertical_distances as _vertical
from rules.engine.core.editions import Edition


@dataclass(frozen=True)
class CoherencyBreak:
    """The first model found out of coherency and why, for a refusal message."""

    model_id: Any
    reason: str


def coherency_break(models: Sequence[Placement] | ModelSet, edition: Edition):
    """None if the unit is in coherency, otherwise the first model that breaks it."""
    group = models if isinstance(models, ModelSet) else ModelSet(models)
    count = len(group)
    if count < 2:
        return None
    horizontal = pairwise_distances(group, group)
    vertical_ok = _vertical(group, group) <= edition.coherency_vertical + EPSILON
    near = (horizontal <= edition.coherency_neighbour_distance + EPSILON) & vertical_ok
    np.fill_diagonal(near, False)
    needed = 1
    if edition.coherency_large_unit_size and count >= edition.coherency_large_unit_size:
        needed = 2
    neighbours = near.sum(axis=1)
    lonely = np.flatnonzero(neighbours < needed)
    if len(lonely):
        index = int(lonely[0])
        others = "another model" if needed == 1 else f"{needed} other models"
        return CoherencyBreak(
            group.ids[index],
            f'model {group.ids[index]} is not within {edition.coherency_neighbour_distance:g}" '
            f"of {others} of its unit",
        )
    if edition.coherency == "one_near_all_within_span":
        spread = (horizontal > edition.coherency_span + EPSILON) | ~vertical_ok
        np.fill_diagonal(spread, False)
        rows, cols = np.nonzero(spread)
        if len(rows):
            a, b = int(rows[0]), int(cols[0])
            return CoherencyBreak(
                group.ids[a],
                f'model {group.ids[a]} is {max(horizontal[a, b], 0):.1f}" from model '
                f'{group.ids[b]}, more than the {edition.coherency_span:g}" coherency span',
            )
    return None


def in_coherency(models: Sequence[Placement] | ModelSet, edition: Edition) -> bool:
    return coherency_break(models, edition) is None
