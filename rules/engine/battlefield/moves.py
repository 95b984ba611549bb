"""A move as data (11e chapter 03 Moving and each move type's maximum distance; 10e Movement,
Charge and Fight phases): what the player asks for (`Move`), what the battlefield answers
(`MoveResult`), and the helpers every move check shares.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.battlefield.board import Placement
from rules.engine.core.citations import section
from rules.engine.core.editions import Edition
from rules.engine.core.refusals import Refusal

MOVE_TYPES = frozenset(
    {
        "remain_stationary",
        "normal",
        "advance",
        "fall_back",
        "charge",
        "pile_in",
        "consolidate",
        "scout",
    }
)
FALL_BACK_MODES = frozenset({"ordered_retreat", "desperate_escape"})
CONSOLIDATION_MODES = frozenset({"ongoing", "engaging", "objective"})


@dataclass(frozen=True)
class Move:
    """What the player asks for.

    `movement` is each model's M characteristic (one number for the whole unit, or per model id);
    `bonus` is added to the maximum distance: an advance roll, a charge roll, an order's +3", an
    extra pile-in distance (Breach-Shock: 3 more). For a charge the maximum is the charge roll
    alone (give it as `bonus`), for pile-in and consolidation the edition's 3" plus `bonus`, for
    a scout move `bonus` is the X of Scouts X".
    """

    move_type: str
    unit_id: Any
    paths: Mapping[Any, Sequence[Sequence[float]]] = field(default_factory=dict)
    facings: Mapping[Any, float] = field(default_factory=dict)
    movement: float | Mapping[Any, float] = 0.0
    bonus: float = 0.0
    mode: str | None = None
    targets: frozenset = frozenset()
    objective_id: Any = None
    take_to_the_skies: bool = False
    battle_shocked: bool = False
    # Where each moved model ends above ground level (inches; 11e §13.06 Moving Vertically, 10e
    # Ruins upper floors). Models left out keep their height.
    heights: Mapping[Any, float] = field(default_factory=dict)
    # The unit moves as if its models had the FLY keyword (Displacer Field; ruling R-MV-10).
    as_if_fly: bool = False


@dataclass(frozen=True)
class MoveResult:
    placements: list[Placement]
    moved: dict[Any, float]
    desperate_escape_models: tuple = ()
    hazard_rolls: int = 0
    mode: str | None = None
    # 11e §09.07 Desperate Escape: a unit that is not battle-shocked makes a battle-shock roll.
    battle_shock_roll: bool = False


def max_distance(move: Move, model_id: Any, edition: Edition) -> float:
    """The maximum distance of this move type for one model (11e §03.01, each move type)."""
    movement = move.movement
    characteristic = float(movement.get(model_id, 0) if isinstance(movement, Mapping) else movement)
    base = {
        "normal": characteristic,
        "advance": characteristic,
        "fall_back": characteristic,
        "charge": 0.0,
        "pile_in": edition.pile_in_distance,
        "consolidate": edition.consolidate_distance,
        "scout": 0.0,
        "remain_stationary": 0.0,
    }[move.move_type]
    total = base + move.bonus
    if move.take_to_the_skies:
        total -= edition.fly_move_penalty
    return max(0.0, total)


def refuse(code: str, edition: Edition, rule: str, message: str, **details: Any) -> Refusal:
    return Refusal(code, section(edition, rule), message, details)


def inches(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def unit_namer(unit_names: Mapping[Any, str] | None):
    return lambda unit_id: (unit_names or {}).get(unit_id, f"unit {unit_id}")
