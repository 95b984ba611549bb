"""The attack-pipeline modifiers persisting effects give (stratagems, Orders, other rules' effects):
effects `{"attack": MODIFIER, "as": "attacker"|"defender", "against": unit|None, "only_if": {...}}`
on a unit (MODIFIER in the pipeline's `{step, kind, value, condition}` shape, docs/attacks.md).
`attack_modifiers(state, attacker, target)` is what the attack sequence asks when a unit attacks
another: the modifiers of the attacker's `attacker` effects and of the target's `defender` effects
(those with `against` only against that unit), when the `only_if` situation holds. No attack code
knows any stratagem.
"""

from __future__ import annotations

from typing import Any

from rules.engine.attacks.modifiers import Modifier
from rules.engine.battlefield.objective_range import units_within_range
from rules.engine.battlefield.sight import visible
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.effects import benefits, effects_on_unit
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import in_army_area
from rules.engine.core.state import State, on_battlefield, unit_keywords


def attack_modifiers(
    state: State, attacker: str, target: str, models: tuple[str, ...] | None = None
) -> tuple[Modifier, ...]:
    """The modifiers active effects (and the units' own abilities, `unit_abilities`) give to
    `attacker`'s attacks against `target`; `models`: the attacking models, for effects only
    some models benefit from (Orders: ASTRA MILITARUM models; the whole unit when not given)."""
    found = []
    for unit_id, role, other in ((attacker, "attacker", target), (target, "defender", attacker)):
        for effect in effects_on_unit(state, unit_id):
            modifier = effect["modifier"]
            if "attack" not in modifier or modifier["as"] != role:
                continue
            if modifier.get("against") not in (None, other):
                continue
            if role == "attacker" and not _attacking_models_benefit(
                state, attacker, modifier, models
            ):
                continue
            if not _situation_holds(state, modifier.get("only_if", {}), attacker, target):
                continue
            found.append(Modifier.from_dict({**modifier["attack"], "source": effect["source"]}))
    return tuple(found)


def _attacking_models_benefit(
    state: State, attacker: str, modifier: dict[str, Any], models: tuple[str, ...] | None
) -> bool:
    """Every attacking model (any model of the unit, when the models are not known) gains it."""
    unit = state["units"][attacker]
    chosen = [m for m in unit["models"] if models is None or m["id"] in models]
    if not chosen:
        return False
    test = all if models is not None else any
    return test(benefits(state, attacker, m, modifier) for m in chosen)


def _situation_holds(state: State, only_if: dict[str, Any], attacker: str, target: str) -> bool:
    """Conditions on where the units stand when the attack is made (the attack pipeline's own
    conditions are about the weapon and the target's profile): `target_on_objective` (the target
    unit is within range of an objective marker), `target_within` (inches), `target_visible`,
    `target_in_area` (the target unit is wholly within that area of its army,
    `standing_rules.in_army_area`), `attacker_keyword`, `target_is_closest_visible`."""
    units = state["units"]
    if only_if.get("target_on_objective") and not any(
        target in units_within_range(state, marker, units[target]["player"])
        for marker in state["objectives"]
    ):
        return False
    if "target_within" in only_if and (
        unit_distance(units[attacker], units[target]) > only_if["target_within"]
    ):
        return False
    if "attacker_keyword" in only_if and only_if["attacker_keyword"] not in unit_keywords(
        state, units[attacker]
    ):
        return False
    if only_if.get("target_is_closest_visible") and not _closest_visible(
        state, units[attacker], units[target]
    ):
        return False
    if "target_in_area" in only_if and not in_army_area(
        state, only_if["target_in_area"], units[target]
    ):
        return False
    return not (
        only_if.get("target_visible") and not visible(state, units[attacker], units[target])
    )


def _closest_visible(state: State, attacker: Unit, target: Unit) -> bool:
    """The target is the closest of its army's units on the battlefield that the attacking unit
    can see (the "closest eligible target", rulings R-ST-22)."""
    reach = unit_distance(attacker, target)
    return not any(
        other["id"] != target["id"]
        and other["player"] == target["player"]
        and on_battlefield(other)
        and unit_distance(attacker, other) < reach
        and visible(state, attacker, other)
        for other in state["units"].values()
    )
