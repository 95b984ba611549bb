"""The damage preview of a shot or a fight in a game (issue 15): the action's own assignments read
and checked as the phase reads them (`shooting_phase._attack_groups`: targets, range, half range,
cover; `melee_weapons.melee_groups`: the weapons at the units each model is engaged with), the
target units and attack contexts from the state, and the attack sequence run vectorised over many
trials (`attack_resolution`, as `damage_preview` does). Nothing is stored and no die of the game
is used: the preview has its own seeded dice.

Also, for each enemy unit the shooting unit cannot target, the engine's reason why not.
"""

from __future__ import annotations

from typing import Any

from rules.engine.attacks.allocation import UnitState
from rules.engine.attacks.damage_preview import distribution
from rules.engine.attacks.dice import GeneratorDice
from rules.engine.attacks.in_game import _attacker, group_context
from rules.engine.attacks.inputs import target_profile
from rules.engine.attacks.melee_weapons import melee_groups
from rules.engine.attacks.resolution import resolve_weapon_attacks
from rules.engine.core.citations import cite
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models, on_battlefield
from rules.engine.phases.shooting import _attack_groups
from rules.engine.phases.shooting_targets import Asked, carried_ranged, check_target

PREVIEW_TRIALS = 2000
MAX_ASSIGNMENTS = 40


def shooting_preview(
    state: State, unit_id: str, assignments: Any, trials: int = PREVIEW_TRIALS, seed: int = 0
) -> dict[str, Any]:
    """Per target: the distributions of damage and models destroyed, with the expected values;
    per attack group (weapon, models, half range): its expected damage. Raises `Refusal` when
    the assignments would be refused."""
    unit = state["units"][unit_id]
    if not isinstance(assignments, list) or len(assignments) > MAX_ASSIGNMENTS:
        raise Refusal("invalid_preview", "Shooting", "Preview up to 40 weapon assignments.")
    groups, _ = _attack_groups(state, unit, {"assignments": assignments})
    return _resolve(state, unit, groups, trials, seed, shooting=True)


def fight_preview(
    state: State, unit_id: str, assignments: Any = None, trials: int = PREVIEW_TRIALS, seed: int = 0
) -> dict[str, Any]:
    """The same for the unit's melee attacks (its default weapons at the units it is engaged
    with, or `assignments` as the fight action's)."""
    unit = state["units"][unit_id]
    if assignments is not None and (
        not isinstance(assignments, list) or len(assignments) > MAX_ASSIGNMENTS
    ):
        raise Refusal("invalid_preview", "Fight", "Preview up to 40 weapon assignments.")
    groups = melee_groups(state, unit, assignments, cite(state, "fight_phase"))
    return _resolve(state, unit, groups, trials, seed, shooting=False)


def _resolve(
    state: State, unit: Unit, groups: list, trials: int, seed: int, *, shooting: bool
) -> dict:
    """The groups' attacks over many trials, each group's context built as the game builds it
    (`in_game.group_context`: the phase, per-model cover)."""
    dice = GeneratorDice(seed)
    targets: dict[str, dict[str, Any]] = {}
    rows = []
    for group in groups:
        entry = targets.setdefault(group.target, {"groups": []})
        profile, models = target_profile(state, state["units"][group.target])
        carried = entry.get("state") or UnitState.of(profile, trials)
        context = group_context(state, unit, group, models, shooting=shooting)
        result = resolve_weapon_attacks(
            dice, trials, _attacker(state, unit, group), profile, context, carried
        )
        entry["state"] = result.state
        entry["damage"] = entry.get("damage", 0) + result.damage
        entry["destroyed"] = entry.get("destroyed", 0) + result.models_destroyed
        rows.append(
            {
                "weapon": group.weapon["name"],
                "target": group.target,
                "models": len(group.models),
                "half_range": group.half_range,
                "cover": group.cover,
                "expected_damage": float(result.damage.mean()),
            }
        )
    return {
        "trials": trials,
        "targets": {
            target: {
                "models": len(alive_models(state["units"][target])),
                "damage": distribution(entry["damage"]),
                "models_destroyed": distribution(entry["destroyed"]),
            }
            for target, entry in targets.items()
        },
        "groups": rows,
    }


def unavailable_targets(state: State, unit_id: str) -> dict[str, str]:
    """Each enemy unit on the battlefield that none of the unit's ranged weapons may shoot, with
    the engine's reason (that of the longest-ranged weapon)."""
    unit = state["units"][unit_id]
    carried = sorted(carried_ranged(state, unit).values(), key=lambda c: -(c[0].get("range") or 0))
    reasons: dict[str, str] = {}
    asked = Asked()
    for enemy in state["units"].values():
        if enemy["player"] == unit["player"] or not on_battlefield(enemy):
            continue
        if not carried:
            reasons[enemy["id"]] = f"{unit['name']} has no ranged weapon."
            continue
        refusals = [
            check_target(state, unit, weapon, models, enemy["id"], asked).refusal
            for weapon, models in carried
        ]
        first = refusals[0]
        if first is not None and all(refusal is not None for refusal in refusals):
            reasons[enemy["id"]] = f"{first.message} ({first.rule})"
    return reasons
