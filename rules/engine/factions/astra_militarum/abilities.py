"""Datasheet abilities and enhancements that change attacks or eligibility while they hold.

They are not effects with a duration: they hold for as long as their condition does ("while this
model is leading a unit", "while this model has 1-4 wounds remaining"), so they are read from the
units themselves each time they are asked. `attack_modifiers` gives the attack pipeline's
modifiers (docs/attacks.md) for one attacking unit and target; the attack sequence receives them
with the modifiers of persisting effects (`stratagem_effects.attacks.attack_modifiers`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import (
    any_part_has,
    any_part_took,
    is_led_with,
    leader_ability,
    unit_took_enhancement,
)
from rules.engine.attacks.modifiers import Modifier
from rules.engine.battlefield.objective_range import units_within_range
from rules.engine.battlefield.state_distances import model_distance
from rules.engine.core import standing_rules
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.hooks import implements
from rules.engine.core.rolls import roll
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import State, alive_models, on_battlefield
from rules.engine.phases.command_points import gain_command_points
from rules.engine.sequence.objectives import RITUAL

RANGED = (("weapon_type", "ranged"),)


SENIOR_OFFICER = leader_ability("Senior Officer")
GET_BACK_IN_THE_FIGHT = leader_ability("Get Back in the Fight")
DRILL_COMMANDER = "drill-commander"


@implements("datasheet-ability", "cadian-castellan/senior-officer")
def _senior_officer(state: State, unit: Unit, _target: Unit) -> list[Modifier]:
    """Cadian Castellan: while leading a unit, its ranged weapons have [SUSTAINED HITS 1]."""
    if not is_led_with(state, unit, SENIOR_OFFICER):
        return []
    return [Modifier("ability", "grant", "sustained hits 1", RANGED, "Senior Officer")]


@implements("enhancement", "drill-commander")
def _drill_commander(state: State, unit: Unit, _target: Unit) -> list[Modifier]:
    """Drill Commander (Combined Arms): while the bearer leads a unit, its ranged attacks score a
    critical hit on an unmodified 5+ if the unit Remained Stationary this turn."""
    if not is_led_with(state, unit, DRILL_COMMANDER):
        return []
    if not has_flag(state, unit["id"], "remained_stationary"):
        return []
    return [Modifier("hit", "critical", 5, RANGED, "Drill Commander")]


@implements("datasheet-ability", "leman-russ-battle-tank/armoured-spearhead")
def _armoured_spearhead(state: State, unit: Unit, target: Unit) -> list[Modifier]:
    """Leman Russ Battle Tank: re-roll hit rolls of 1; against a unit within range of an objective
    marker you do not control, re-roll the hit roll instead."""
    if not any_part_has(state, unit, "Armoured Spearhead"):
        return []
    contested = any(
        marker["controller"] != unit["player"]
        and target["id"] in units_within_range(state, marker, target["player"])
        for marker in state["objectives"]
    )
    return [Modifier("hit", "reroll", "any" if contested else "ones", (), "Armoured Spearhead")]


DAMAGED = "Damaged: 1-4 wounds remaining"


@implements("datasheet-ability", "leman-russ-battle-tank/damaged-1-4-wounds-remaining")
def _damaged(state: State, unit: Unit, _target: Unit) -> list[Modifier]:
    """Leman Russ Battle Tank: while it has 1-4 wounds remaining, -1 to its hit rolls."""
    if not any_part_has(state, unit, DAMAGED):
        return []
    if not any(1 <= m["wounds_left"] <= 4 for m in alive_models(unit)):
        return []
    return [Modifier("hit", "add", -1, (), DAMAGED)]


ATTACK_ABILITIES = (_senior_officer, _drill_commander, _armoured_spearhead, _damaged)


@implements(
    "datasheet-ability",
    "cadian-castellan/senior-officer",
    "leman-russ-battle-tank/armoured-spearhead",
    "leman-russ-battle-tank/damaged-1-4-wounds-remaining",
    at=standing_rules.ATTACK_RULES,
    order=140,
)
def attack_modifiers(
    state: State, attacking: Unit, target: Unit, _models: tuple[str, ...]
) -> list[Modifier]:
    """The modifiers the attacking unit's own abilities give its attacks against `target`
    (registered in `standing_rules.ATTACK_RULES`)."""
    return [m for ability in ATTACK_ABILITIES for m in ability(state, attacking, target)]


@implements("datasheet-ability", "cadian-castellan/get-back-in-the-fight")
def may_shoot_after_falling_back(state: State, unit: Unit) -> bool:
    """Cadian Castellan: while leading a unit, it is eligible to shoot in a turn it Fell Back."""
    return is_led_with(state, unit, GET_BACK_IN_THE_FIGHT)


@implements(
    "datasheet-ability",
    "cadian-castellan/get-back-in-the-fight",
    at=standing_rules.ELIGIBILITY_WAIVERS,
    order=20,
)
def _get_back_in_the_fight_waiver(state: State, unit: Unit, limit: str) -> bool:
    return limit == "shoot_after_fall_back" and may_shoot_after_falling_back(state, unit)


VOX_CASTER = "vox-caster"
VOX_OFFICER_RANGE = 6.0
VOX_CP_ON = 5


def _officer_models(state: State, player: int) -> list[Model]:
    found = []
    for unit in state["units"].values():
        if unit["player"] != player or not on_battlefield(unit):
            continue
        for model in alive_models(unit):
            sheet = state["datasheets"][unit["parts"][model["part"]]["datasheet"]]
            if "OFFICER" in sheet["keywords"]:
                found.append(model)
    return found


@implements("datasheet-ability", "cadian-shock-troops/vox-caster")
def vox_caster(ctx: Context, player: int, unit_id: str | None) -> None:
    """Cadian Shock Troops' vox-caster: each time you target the bearer's unit with a stratagem,
    roll one D6 (+1 with a friendly OFFICER model within 6"); on a 5+ you gain 1CP. The bearer is
    the model carrying it (`wargear.bearers`; rulings R-AM-11, R-WG-04)."""
    state = ctx.state
    unit = state["units"].get(unit_id or "")
    if unit is None or unit["player"] != player or not on_battlefield(unit):
        return
    if not any_part_took(unit, VOX_CASTER):
        return
    near = any(
        model_distance(officer, model) <= VOX_OFFICER_RANGE
        for officer in _officer_models(state, player)
        for model in alive_models(unit)
    )
    record = roll(ctx, 1, "vox_caster", "Vox-caster", player, unit["id"], modifier=int(near))
    if record["total"] >= VOX_CP_ON:
        gain_command_points(ctx, player, 1, "Vox-caster")


@implements(
    "datasheet-ability",
    "cadian-shock-troops/vox-caster",
    at=standing_rules.AFTER_STRATAGEM,
    order=40,
)
def _vox_caster_after_stratagem(ctx: Context, use: Any) -> None:
    vox_caster(ctx, use.player, use.target)


@implements("enhancement", "death-mask-of-ollanius", at=standing_rules.BATTLE_SHOCKED_OC, order=10)
def death_mask_of_ollanius(unit: Unit, oc: int) -> int | None:
    """A battle-shocked model's OC: 0, or, in the Death Mask of Ollanius bearer's unit (Combined
    Arms), its OC minus 1 instead (rulings R-AM-06)."""
    if unit_took_enhancement(unit, "death-mask-of-ollanius"):
        return max(0, oc - 1)
    return None


@implements("datasheet-ability", "cadian-shock-troops/shock-troops")
def shock_troops() -> str:
    """Shock Troops (Cadian Shock Troops, Wahapedia datasheet 000002612): at the end of your
    Command phase, a marker you control that the unit is within range of stays yours "until your
    opponent controls it at the start or end of any turn" (`HOLDING_ABILITIES`)."""
    return RITUAL


standing_rules.HOLDING_ABILITIES.add("Shock Troops", shock_troops())
