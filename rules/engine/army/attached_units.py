"""Attached units (11e 19 Attached units; 24.22 Leader; 10e Leader, Attached Units): which parts
of a unit lead it, which abilities a unit or model has from its datasheet(s) or from effects, and
which model bears an enhancement or a wargear item.

Every rule that asks one of these questions asks it here:

- Datasheet abilities: a part has an ability when its datasheet lists it (`part_has`); a unit has
  it when any part does (`any_part_has`) or, for the abilities that need the whole unit to have
  them (Deep Strike, Infiltrators, Teleport Assault), when every part does or a rule granted it
  to the unit (`every_part_has`, `granted_abilities`). The core abilities read as the unit's
  now (Fights First, Stealth, Feel No Pain) come from its parts with a living model
  (`unit_abilities`, `every_model_has`, `model_unit_abilities`: 11e 19.04 shares them; 10e needs
  every part, and a model has its own datasheet's; R-ENG-14).
- Leader abilities ("While this model is leading a unit, ..."): `is_led_with` is true when a
  living model of a Leader part of the unit has the ability (on its datasheet) or bears the
  enhancement, or when Battlefield Command lends it to the unit (an effect
  `{"led_for": ability, "leader": unit}`) from a Leader unit on the battlefield that has it.
  `LENDABLE` lists the Leader abilities whose effect reads `is_led_with` (rulings R-GK-08).
- Bearers: an enhancement is borne by the model whose `enhancements` name it (set at muster);
  wargear by the model whose `wargear` names it when the state marks one, else by the models of
  the part whose list entry chose it or whose datasheet loadout gives it (rulings R-IA-02); an
  item of a Bodyguard's wargear list by the n-th model of the part for the n-th item (R-GK-07).
- Two Leaders in one Bodyguard ("Leader: other Leaders", the Death Rider Commissar): at muster
  (`may_join`, asked by `list_checks` and `muster`) and when the Bodyguard is destroyed
  (`leaders_become_separate_units`, asked by `casualties`; rulings R-AM-14).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from rules.engine.army.wargear import (
    abilities_with_wargear,
    bears,
    unit_wargear_count,
    wargear_keywords,
)
from rules.engine.army.wargear import bearers as wargear_bearers
from rules.engine.core.effects import effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.shapes import Model, Part, Unit
from rules.engine.core.state import State, alive_models, on_battlefield

# The Leader abilities whose effect reads `is_led_with`, so that lending them works (each rule
# module adds its own with `leader_ability`).
LENDABLE: set[str] = set()


def leader_ability(name: str) -> str:
    """Register `name` as a Leader ability read through `is_led_with` (lendable)."""
    LENDABLE.add(name)
    return name


# --- parts and datasheets -------------------------------------------------------------------


def part_of(unit: Unit, model: Model) -> Part:
    return unit["parts"][model["part"]]


def datasheet_of(state: State, part: Part) -> dict[str, Any]:
    return state["datasheets"].get(part["datasheet"], {})


def sheet_of(state: State, unit: Unit, model: Model) -> dict[str, Any]:
    return datasheet_of(state, part_of(unit, model))


def ability_names(sheet: dict[str, Any]) -> set[str]:
    """The names of the abilities on a datasheet."""
    return {ability["name"] for ability in sheet.get("abilities", [])}


def part_abilities(state: State, part: Part) -> dict[str, Any]:
    """The abilities on the part's datasheet: name -> parameter (Scouts 6", Deep Strike None)."""
    return {a["name"]: a.get("parameter") for a in datasheet_of(state, part).get("abilities", [])}


# The ability names of each datasheet, by the identity of its list of abilities: datasheets are
# frozen rules data (state.FROZEN_KEYS) and `part_has` is asked thousands of times per action
# (every attack's standing rules ask it of every part). The entry keeps the list alive, so its id
# is not reused meanwhile.
_ability_names: dict[int, tuple[list[dict[str, Any]], frozenset[str]]] = {}
_ABILITY_NAMES_KEPT = 4096


def _datasheet_ability_names(abilities: list[dict[str, Any]]) -> frozenset[str]:
    found = _ability_names.get(id(abilities))
    if found is not None and found[0] is abilities:
        return found[1]
    names = frozenset(ability["name"] for ability in abilities)
    if len(_ability_names) >= _ABILITY_NAMES_KEPT:
        _ability_names.clear()
    _ability_names[id(abilities)] = (abilities, names)
    return names


def part_has(state: State, part: Part, ability: str) -> bool:
    abilities = datasheet_of(state, part).get("abilities")
    return abilities is not None and ability in _datasheet_ability_names(abilities)


def model_has(state: State, unit: Unit, model: Model, ability: str) -> bool:
    """The model's own datasheet lists the ability."""
    return part_has(state, part_of(unit, model), ability)


def any_part_has(state: State, unit: Unit, ability: str) -> bool:
    return any(part_has(state, part, ability) for part in unit["parts"])


def every_part_has(state: State, unit: Unit, ability: str) -> bool:
    """Every part of the unit (Bodyguard, Leader, Support) has the ability on its datasheet, or a
    rule gave the unit the ability (`granted_abilities`, e.g. Clandestine Operation)."""
    if ability in unit.get("granted_abilities", []):
        return True
    return all(part_has(state, part, ability) for part in unit["parts"])


def _part_unit_abilities(state: State, unit: Unit, index: int) -> set[str]:
    """The unit's abilities (lower case) part `index`'s own datasheet gives, with those a rule
    granted the whole unit."""
    granted = {a.lower() for a in unit.get("granted_abilities", [])}
    mine = {a.lower() for a in unit.get("abilities", [])} | granted
    if len(unit["parts"]) == 1:
        return mine
    own = {n.lower() for n in ability_names(datasheet_of(state, unit["parts"][index]))}
    return {a for a in mine if a in own} | granted


def _living_parts_abilities(state: State, unit: Unit) -> list[set[str]]:
    """For each part with a living model, the unit's abilities (lower case) its own datasheet
    gives, with those a rule granted the unit."""
    living = sorted({m["part"] for m in alive_models(unit)}) or range(len(unit["parts"]))
    return [_part_unit_abilities(state, unit, i) for i in living]


def unit_abilities(state: State, unit: Unit) -> set[str]:
    """The unit abilities (lower case) an attached unit has now: those of its parts that have a
    living model (11e 19.04: a part's abilities apply to every model "until the last model in
    that ... unit is destroyed"; rulings R-ENG-14)."""
    return set().union(*_living_parts_abilities(state, unit))


def model_unit_abilities(state: State, unit: Unit, model: Model) -> set[str]:
    """The unit abilities (lower case) `model` has now, for a rule that asks "each time a model
    with this ability" (Feel No Pain). 11e 19.04 (`attached_abilities_shared`): those of every
    part of the attached unit with a living model; 10e: those of the model's own datasheet
    (with those a rule granted the unit), even while it is part of an attached unit (rulings
    R-ENG-14)."""
    if state["edition"]["attached_abilities_shared"]:
        return unit_abilities(state, unit)
    return _part_unit_abilities(state, unit, model["part"])


def every_model_has(state: State, unit: Unit, ability: str) -> bool:
    """ "If every model in a unit has this ability" (11e 24.13 Fights First, 24.33 Stealth; 10e
    Fights First, Stealth). 11e 19.04 (`attached_abilities_shared`): a living part's unit
    abilities apply to every model of the attached unit; 10e: a model has its own datasheet's
    abilities, so every living part must have it (rulings R-ENG-14)."""
    parts = _living_parts_abilities(state, unit)
    if state["edition"]["attached_abilities_shared"]:
        return ability in set().union(*parts)
    return all(ability in part for part in parts)


def alive_part(unit: Unit, index: int) -> bool:
    return any(m["part"] == index for m in alive_models(unit))


# --- leading --------------------------------------------------------------------------------


def is_leading(unit: Unit, model: Model) -> bool:
    """The model is alive and its part leads the unit (an attached unit, 11e 19.01)."""
    return (
        model["wounds_left"] > 0
        and len(unit["parts"]) > 1
        and part_of(unit, model)["role"] == ("leader")
    )


def leading_models(unit: Unit) -> list[Model]:
    """The living models of the unit's Leader parts ("while this model is leading a unit")."""
    return [m for m in alive_models(unit) if is_leading(unit, m)]


def has_enhancement(model: Model, enhancement: str) -> bool:
    return enhancement in model.get("enhancements", [])


def unit_took_enhancement(unit: Unit, enhancement: str) -> bool:
    """A list entry of the unit took the enhancement (its bearer was mustered in the unit)."""
    return any(enhancement in part.get("enhancements", []) for part in unit["parts"])


def _has(state: State, unit: Unit, model: Model, ability: str) -> bool:
    return model_has(state, unit, model, ability) or has_enhancement(model, ability)


def lenders(state: State, unit: Unit, ability: str) -> list[Unit]:
    """The Leader units on the battlefield that Battlefield Command made lead `unit` for
    `ability`."""
    found = []
    for effect in effects_on_unit(state, unit["id"]):
        leader = state["units"].get(effect["modifier"].get("leader", ""))
        if (
            effect["modifier"].get("led_for") == ability
            and leader is not None
            and on_battlefield(leader)
        ):
            found.append(leader)
    return found


def led_by(
    state: State, unit: Unit, ability: str, also: Callable[[Unit, Model], bool] | None = None
) -> list[tuple[Unit, Model]]:
    """(unit, model) of each model leading `unit` that has `ability` (datasheet ability or
    enhancement) and passes `also`, and of each such model of a Leader unit lending it."""
    candidates = [(unit, m) for m in leading_models(unit)]
    candidates += [
        (leader, m) for leader in lenders(state, unit, ability) for m in alive_models(leader)
    ]
    return [
        (owner, model)
        for owner, model in candidates
        if _has(state, owner, model, ability) and (also is None or also(owner, model))
    ]


def is_led_with(
    state: State, unit: Unit, ability: str, also: Callable[[Unit, Model], bool] | None = None
) -> bool:
    """The unit is led by a model with `ability` (a datasheet ability or an enhancement), or
    Battlefield Command lends it `ability`: the one test of every "while this model is leading a
    unit" rule."""
    return bool(led_by(state, unit, ability, also))


# --- bearers --------------------------------------------------------------------------------


def bearers(state: State, enhancement: str) -> list[tuple[Unit, Model]]:
    """(unit, model) of every living bearer of the enhancement."""
    return [
        (unit, model)
        for _, unit in sorted(state["units"].items())
        for model in alive_models(unit)
        if has_enhancement(model, enhancement)
    ]


def carries(state: State, unit: Unit, model: Model, wargear: str) -> bool:
    """The model carries the wargear (its wargear abilities at muster, `wargear.bears`), or the
    unit itself is equipped with it (rulings R-WG-05)."""
    return bears(model, wargear) or unit_wargear_count(unit, wargear) > 0


def any_part_took(unit: Unit, wargear: str) -> bool:
    """A living model of the unit carries the wargear item, or the unit is equipped with it."""
    return bool(wargear_bearers(unit, wargear)) or unit_wargear_count(unit, wargear) > 0


def wargear_count(unit: Unit, wargear: str) -> int:
    """How many of a wargear item the unit has (Tome-skull: one per 5 Agents): those the unit is
    equipped with, and those its models carry."""
    return unit_wargear_count(unit, wargear) + sum(bears(m, wargear) for m in unit["models"])


def bodyguard_bearer(unit: Unit, item: str) -> Model | None:
    """The living model carrying a wargear item (`wargear.bearers`; rulings R-GK-07, R-WG-05)."""
    found = wargear_bearers(unit, item)
    return found[0] if found else None


# --- two Leaders in one Bodyguard unit ("Leader: other Leaders") ------------------------------

OTHER_LEADERS = "Leader: other Leaders"
_NAMED_LEADERS = re.compile(r"even if one (.+?) model has already been attached", re.IGNORECASE)


def other_leaders(sheet: dict[str, Any]) -> set[str]:
    """The keywords of the Leaders the datasheet's model may join a Bodyguard unit beside, read
    from its "Leader: other Leaders" text ("even if one DEATH RIDER SQUADRON COMMANDER, LORD
    MARSHAL DREIR or LORD SOLAR LEONTUS model has already been attached to it")."""
    for ability in sheet.get("abilities", []):
        found = _NAMED_LEADERS.search(str(ability.get("text") or ""))
        if ability["name"] == OTHER_LEADERS and found:
            names = re.split(r",|\bor\b", found.group(1))
            return {name.strip().upper() for name in names if name.strip()}
    return set()


def _keywords(sheet: dict[str, Any]) -> set[str]:
    return {k.upper() for k in sheet.get("keywords", [])}


def may_lead_together(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Either Leader's "Leader: other Leaders" names a keyword of the other."""
    return bool(
        other_leaders(first) & _keywords(second) or other_leaders(second) & _keywords(first)
    )


def may_join(sheet: dict[str, Any], attached: list[dict[str, Any]], role: str = "leader") -> bool:
    """A unit may join a Bodyguard unit with `attached` units of the same role already: none
    (11e 19.01; 10e Leader), or, for a Leader, one it may lead beside ("Leader: other Leaders":
    "one ... model has already been attached", so two Leaders at most)."""
    if not attached:
        return True
    return role == "leader" and len(attached) == 1 and may_lead_together(sheet, attached[0])


def _led_by_permission(state: State, unit: Unit) -> bool:
    sheets = [datasheet_of(state, p) for p in unit["parts"] if p["role"] == "leader"]
    return len(sheets) == 2 and may_lead_together(*sheets)


def _next_unit_id(state: State, player: int) -> str:
    numbers = [
        int(found.group(1))
        for unit_id in state["units"]
        if (found := re.fullmatch(rf"p{player}-u(\d+)", unit_id))
    ]
    return f"p{player}-u{max(numbers, default=0) + 1}"


def _separate_unit(state: State, unit: Unit, index: int, unit_id: str) -> Unit:
    """The Leader part `index` of `unit` as a unit of its own, its models moved to it, with its
    original Starting Strength."""
    part: Part = {**unit["parts"][index], "role": "bodyguard"}
    sheet = datasheet_of(state, part)
    models = [m for m in unit["models"] if m["part"] == index]
    for model in models:
        model["part"] = 0
    borne = {name for m in models for name in m.get("wargear_abilities", [])}
    borne |= set(part.get("unit_wargear", []))
    return {
        "id": unit_id,
        "player": unit["player"],
        "name": part["name"],
        "datasheet": part["datasheet"],
        "keywords": sorted(set(sheet.get("keywords", [])) | wargear_keywords(borne)),
        "abilities": sorted(abilities_with_wargear(sheet, borne)),
        "parts": [part],
        "models": models,
        "location": unit["location"],
        "warlord": bool(part.get("warlord")),
        "starting_strength": part.get("starting_strength"),
    }


def _carry_over(state: State, old: str, new: str) -> None:
    """The separate unit keeps what held for the attached unit: its persisting effects and this
    phase's, turn's and round's facts (it acted, it Advanced, ...)."""
    for effect in [e for e in state["effects"] if e["selector"].get("unit") == old]:
        state["effects"].append(
            {
                **copy.deepcopy(effect),
                "id": f"e{state['next_effect_id']}",
                "selector": {**effect["selector"], "unit": new},
            }
        )
        state["next_effect_id"] += 1
    for scope in state["facts"].values():
        for units in scope.values():
            if isinstance(units, list) and old in units:
                units.append(new)


@implements("datasheet-ability", "death-rider-commissar/leader-other-leaders")
def leaders_become_separate_units(ctx: Context, unit: Unit, model: Model) -> bool:
    """Leader: other Leaders: "If you do, and that Bodyguard unit is destroyed, the Leader units
    attached to it become separate units, with their original Starting Strengths." Asked when
    `model` of `unit` is destroyed: if it was the Bodyguard's last model and two Leaders lead the
    unit by this permission, each living Leader part becomes a unit of its own (a new unit id;
    its models keep theirs) and the Bodyguard unit, left with its own models, is destroyed.
    Returns whether it did (rulings R-AM-14)."""
    state = ctx.state
    part = part_of(unit, model)
    if part["role"] != "bodyguard" or any(m["part"] == model["part"] for m in alive_models(unit)):
        return False
    if not _led_by_permission(state, unit) or not alive_models(unit):
        return False
    bodyguard = [m for m in unit["models"] if m["part"] == model["part"]]
    separate = []
    for index in range(len(unit["parts"])):
        if unit["parts"][index]["role"] != "leader" or not alive_part(unit, index):
            continue
        unit_id = _next_unit_id(state, unit["player"])
        state["units"][unit_id] = _separate_unit(state, unit, index, unit_id)
        _carry_over(state, unit["id"], unit_id)
        separate.append(unit_id)
    unit["models"] = bodyguard
    unit["parts"] = [part]
    for m in bodyguard:
        m["part"] = 0
    ctx.emit("leaders_became_separate_units", unit=unit["id"], units=separate, rule=OTHER_LEADERS)
    return True
