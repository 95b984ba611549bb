"""Scenario set-ups from a position (`rules.engine.sequence.position.new_position`), with the
project's stratagem records and the default armies of `tests/engine_world.py`.

Player 1: a Strike Squad led by an Inquisitor (`LED_SQUAD`) and a Strike Squad (`SQUAD`).
Player 2: two units of Cadian Shock Troops (`CADIANS`, `CADIANS_2`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.sequence.position import new_position
from tests.engine_world import BUNDLE, SEED, default_armies, setup
from tests.stratagem_world import STRATAGEMS

LED_SQUAD, SQUAD, CADIANS, CADIANS_2 = "p1-u1", "p1-u2", "p2-u1", "p2-u2"

# Far apart, in mid-table, unengaged: the default place of every unit a scenario does not name.
DEFAULT_PLACES = {
    LED_SQUAD: [6.0, 6.0],
    SQUAD: [40.0, 6.0],
    CADIANS: [6.0, 34.0],
    CADIANS_2: [40.0, 34.0],
}


def position_game(
    edition: str,
    units: dict[str, Any] | None = None,
    *,
    armies: dict[str, Any] | None = None,
    detachments: dict[int, str | None] | None = None,
    boarding_actions: bool = False,
    default_places: dict[str, list[float]] | None = None,
    datasheets: list[dict[str, Any]] | None = None,
    **position: Any,
) -> dict[str, Any]:
    """A game at a position: `units` as `new_position` takes them (a unit left out stands at its
    default place), `position` the rest (`battle_round`, `phase`, `active_player`, `players`,
    `effects`). CP default to 5 each, so stratagems can be paid for."""
    armies = armies or default_armies()
    for player, slug in (detachments or {}).items():
        armies[str(player)]["detachment"] = slug
    mission = {**BUNDLE["missions"][0], "boarding_actions": boarding_actions}
    places = DEFAULT_PLACES if default_places is None else default_places
    specs = {unit: {"at": at} for unit, at in places.items()}
    specs.update(units or {})
    position.setdefault("players", {"1": {"cp": 5}, "2": {"cp": 5}})
    sheets = {"datasheets": datasheets} if datasheets is not None else {}
    state, _ = new_position(
        setup(edition, armies, stratagems=STRATAGEMS, mission=mission, **sheets),
        SEED,
        {"units": specs, **position},
    )
    return state
