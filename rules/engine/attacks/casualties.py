"""Losing wounds and destroying models: mortal wounds and models removed by a rule.

Mortal wounds are allocated one at a time (11e 06.02, hazard rolls of 06.03 included; 10e
allocation): a model that has already lost wounds must take it; otherwise the owner chooses, among
non-CHARACTER models first. When the owner has a real choice (the models differ in more than where
they stand, `identical`) the engine asks with a pending decision. When one part of an attached
unit is destroyed while the rest survives, `unit_part_destroyed` is emitted where the edition
makes that a "destroyed" trigger (`attached_part_destruction_triggers`: 10e Attached Units yes;
11e 19.02 no, only the last model).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from rules.engine.army.attached_units import leaders_become_separate_units, model_unit_abilities
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import MODEL_DESTROYED, mortal_wound_feel_no_pain
from rules.engine.core.state import State, alive_models, each_model_is


def lose_wounds(ctx: Context, unit: Unit, model: Model, amount: int, source: str) -> None:
    unit = _unit_holding(ctx.state, unit, model)
    lost = min(amount, model["wounds_left"])
    model["wounds_left"] -= lost
    ctx.emit("wounds_lost", unit=unit["id"], model=model["id"], amount=lost, source=source)
    if model["wounds_left"] == 0:
        _model_destroyed(ctx, unit, model, source)


def destroy_model(ctx: Context, unit: Unit, model: Model, source: str) -> None:
    model["wounds_left"] = 0
    _model_destroyed(ctx, _unit_holding(ctx.state, unit, model), model, source)


def _unit_holding(state: State, unit: Unit, model: Model) -> Unit:
    """The unit the model is in now: the Leaders of an attached unit may have become units of
    their own while one attack group's wounds were applied (Leader: other Leaders)."""
    if any(m["id"] == model["id"] for m in unit["models"]):
        return unit
    return next(
        other
        for other in state["units"].values()
        if any(m["id"] == model["id"] for m in other["models"])
    )


def count_as_destroyed(ctx: Context, unit: Unit, source: str, **details: Any) -> None:
    """A whole unit off the battlefield counts as destroyed (reserves not arrived, Teleport
    Assault units not returned, an empty Agents transport): no model is removed one by one, so
    no per-model rule triggers."""
    for model in unit["models"]:
        model["wounds_left"] = 0
    unit["location"] = "destroyed"
    ctx.emit("unit_destroyed", unit=unit["id"], player=unit["player"], source=source, **details)


def _model_destroyed(ctx: Context, unit: Unit, model: Model, source: str) -> None:
    ctx.emit("model_destroyed", unit=unit["id"], model=model["id"], source=source)
    if leaders_become_separate_units(ctx, unit, model):
        unit["location"] = "destroyed"
        ctx.emit("unit_destroyed", unit=unit["id"], player=unit["player"], source=source)
        return
    part_alive = any(m["part"] == model["part"] for m in alive_models(unit))
    counts = ctx.state["edition"]["attached_part_destruction_triggers"]
    if not part_alive and len(unit["parts"]) > 1 and alive_models(unit) and counts:
        ctx.emit(
            "unit_part_destroyed",
            unit=unit["id"],
            part=unit["parts"][model["part"]]["key"],
            datasheet=unit["parts"][model["part"]]["datasheet"],
        )
    if not alive_models(unit):
        unit["location"] = "destroyed"
        ctx.emit("unit_destroyed", unit=unit["id"], player=unit["player"], source=source)
    for rule in MODEL_DESTROYED:
        rule(ctx, unit, model)


def allocation_candidates(unit: Unit) -> list[str]:
    """The models a mortal wound outside the attack sequence may go to (11e 06.02 Select Model;
    10e the same order, rulings "Which model takes an attack in 10e"): a wounded non-CHARACTER
    model, else any non-CHARACTER model, else a wounded CHARACTER, else any CHARACTER. A wounded
    CHARACTER never takes it ahead of an unwounded Bodyguard model (R-ENG-15)."""
    alive = alive_models(unit)
    for group in (
        [m for m in alive if not m["character"]],
        [m for m in alive if m["character"]],
    ):
        wounded = [m["id"] for m in group if m["wounds_left"] < m["W"]]
        if wounded:
            return wounded[:1] if not group[0]["character"] else wounded
        if group:
            return [m["id"] for m in group]
    return []


def identical(unit: Unit, model_ids: Sequence[str]) -> bool:
    """The models differ in nothing but where they stand (profile, wounds left, weapons, wargear
    abilities and their part's enhancements alike): whichever the owner selects, the result is
    the same, so the engine asks nothing and takes the first in the unit's order (rulings
    R-ENG-15, R-ENG-17)."""
    looks = {_looks(unit, m) for m in unit["models"] if m["id"] in model_ids}
    return len(looks) <= 1


_WHERE_IT_STANDS = ("id", "label", "x", "y", "z", "facing")


def _looks(unit: Unit, model: Model) -> str:
    seen = {k: v for k, v in model.items() if k not in _WHERE_IT_STANDS}
    parts = unit.get("parts") or []
    seen["part_enhancements"] = parts[model["part"]]["enhancements"] if parts else []
    return json.dumps(seen, sort_keys=True)


def hazard_mortal_wounds(state: State, unit: Unit) -> int:
    """06.03 (10e Hazardous): the mortal wounds of one failed hazard roll outside the attack
    sequence (Desperate Escape, a combat disembark): the rule set's number, a greater one "if
    each model in that unit is a MONSTER/VEHICLE model" (read per model: R-ENG-17)."""
    big = each_model_is(state, unit, {"MONSTER", "VEHICLE"})
    edition = state["edition"]
    return (
        edition["hazard_mortal_wounds_monster_vehicle"] if big else edition["hazard_mortal_wounds"]
    )


def allocate_mortal_wounds(
    ctx: Context, unit_id: str, count: int, source: str, then: dict[str, Any]
) -> None:
    """Allocate `count` mortal wounds, asking the owner where there is a real choice (candidates
    that are not all `identical`); then resume."""
    unit = ctx.state["units"][unit_id]
    while count > 0 and alive_models(unit):
        candidates = allocation_candidates(unit)
        if not identical(unit, candidates):
            push_decision(
                ctx,
                unit["player"],
                "allocate_mortal_wound",
                candidates,
                {
                    "step": "mortal_wound_allocated",
                    "unit": unit_id,
                    "remaining": count,
                    "source": source,
                    "then": then,
                },
                cite(ctx.state, "mortal_wounds"),
                f"Allocate a mortal wound to a model of {unit['name']}.",
            )
            return
        model = next(m for m in unit["models"] if m["id"] == candidates[0])
        _suffer_mortal_wound(ctx, unit, model, source)
        count -= 1
    resume(ctx, then)


_FEEL_NO_PAIN = re.compile(r"feel no pain (\d)\+", re.IGNORECASE)


@implements("ability", "feel-no-pain")
def feel_no_pain(state: State, unit: Unit, model: Model) -> int | None:
    """Feel No Pain X+ of the model from the unit's abilities (11e 24.12 "Each time a model with
    this ability would lose a wound"): 11e 19.04, those of every living part of an attached unit;
    10e, those of the model's own datasheet, so a Leader's Feel No Pain is not its Bodyguard's
    (`model_unit_abilities`; rulings R-ENG-14)."""
    matches = (_FEEL_NO_PAIN.search(a) for a in model_unit_abilities(state, unit, model))
    found = [int(match.group(1)) for match in matches if match]
    return min(found) if found else None


def feel_no_pain_against_mortal_wounds(state: State, unit: Unit, model: Model) -> int | None:
    """The best Feel No Pain the model has against a mortal wound outside the attack sequence
    (Explosives, Grenade, hazard and Deadly Demise rolls): its own, and those rules give every
    model of its unit (Truesilver Aegis; an effect such as Courageous Diversion)."""
    found = [
        v for v in (feel_no_pain(state, unit, model), mortal_wound_feel_no_pain(state, unit)) if v
    ]
    for effect in effects_on_unit(state, unit["id"]):
        attack = effect["modifier"].get("attack") or {}
        if effect["modifier"].get("as") == "defender" and attack.get("step") == "feel_no_pain":
            found.append(int(attack["value"]))
    return min(found, default=None)


def _suffer_mortal_wound(ctx: Context, unit: Unit, model: Model, source: str) -> None:
    """One mortal wound to the model; the model's Feel No Pain rolls one D6 for it first (11e
    24.12; 10e Feel No Pain: its own ability, one an effect gives its unit such as Courageous
    Diversion, or one against mortal wounds only such as Truesilver Aegis)."""
    fnp = feel_no_pain_against_mortal_wounds(ctx.state, unit, model)
    if fnp is not None:
        record = roll(
            ctx, 1, "feel_no_pain", cite(ctx.state, "feel_no_pain"), unit["player"], unit["id"]
        )
        if record["total"] >= fnp:
            ctx.emit("mortal_wound_ignored", unit=unit["id"], model=model["id"], source=source)
            return
    lose_wounds(ctx, unit, model, 1, source)


@continuation("mortal_wound_allocated")
def _mortal_wound_allocated(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    model = next(m for m in unit["models"] if m["id"] == choice)
    _suffer_mortal_wound(ctx, unit, model, data["source"])
    allocate_mortal_wounds(ctx, data["unit"], data["remaining"] - 1, data["source"], data["then"])


def destroy_chosen_models(
    ctx: Context, unit_id: str, count: int, source: str, then: dict[str, Any]
) -> None:
    """Destroy `count` models of the unit, each selected by its owner (10e Desperate Escape)."""
    unit = ctx.state["units"][unit_id]
    if count <= 0 or not alive_models(unit):
        resume(ctx, then)
        return
    options = [m["id"] for m in alive_models(unit)]
    if len(options) == 1:
        destroy_model(ctx, unit, alive_models(unit)[0], source)
        destroy_chosen_models(ctx, unit_id, count - 1, source, then)
        return
    push_decision(
        ctx,
        unit["player"],
        "choose_model_destroyed",
        options,
        {
            "step": "model_chosen_destroyed",
            "unit": unit_id,
            "remaining": count,
            "source": source,
            "then": then,
        },
        cite(ctx.state, "desperate_escape"),
        f"Select a model of {unit['name']} to be destroyed.",
    )


@continuation("model_chosen_destroyed")
def _model_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    model = next(m for m in unit["models"] if m["id"] == choice)
    destroy_model(ctx, unit, model, data["source"])
    destroy_chosen_models(ctx, data["unit"], data["remaining"] - 1, data["source"], data["then"])
