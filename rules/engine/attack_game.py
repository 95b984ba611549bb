"""The attack sequence inside a game: the state's units turned into attack inputs, the steps run
with the game's dice (`GameDice`, one trial), every step's dice recorded as events, and the
wounds lost applied to the models.

The steps are the ones the damage preview runs (`attack_resolution.resolve_attack_groups`);
`observe` hands each step's record back as soon as its dice are rolled, so each step's dice get
their own `dice_rolled` event (purpose `hit_roll`, `wound_roll`, ...) followed by an
`attack_step` event carrying the dice-tray record (docs/attacks.md). Decisions the rules give the
defender inside the sequence are made automatically and recorded: the allocation order is the
unit's order under the 05.03 constraints (10e: wounded model first, bodyguard before CHARACTER),
and each save uses the better of the armour and invulnerable save (docs/rulings.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rules.engine.allocation import UnitState, hazard_step
from rules.engine.attack_dice import GameDice
from rules.engine.attack_profiles import (
    AttackContext,
    Attacker,
    TargetModel,
    TargetUnit,
    WeaponProfile,
)
from rules.engine.attack_resolution import resolve_attack_groups
from rules.engine.attack_rolls import StepRecord
from rules.engine.casualties import lose_wounds
from rules.engine.combat_geometry import edition_of
from rules.engine.effects import characteristic
from rules.engine.events import Context
from rules.engine.facts import has_flag
from rules.engine.placement import engaged_units
from rules.engine.state import State, alive_models

_FEEL_NO_PAIN = re.compile(r"feel no pain (\d)\+", re.IGNORECASE)


@dataclass(frozen=True)
class AttackGroup:
    """Models of the attacking unit making attacks with one weapon profile at one target."""

    weapon: dict[str, Any]
    models: tuple[str, ...]
    target: str
    half_range: bool = False
    cover: bool = False


def feel_no_pain(unit: dict[str, Any]) -> int | None:
    """Feel No Pain X+ from the unit's abilities (11e 24.12; 10e Feel No Pain)."""
    matches = (_FEEL_NO_PAIN.search(ability) for ability in unit.get("abilities", []))
    found = [int(match.group(1)) for match in matches if match]
    return min(found) if found else None


def target_profile(state: State, unit: dict[str, Any]) -> tuple[TargetUnit, list[dict[str, Any]]]:
    """The unit as the attack sequence sees it: its living models in the owner's order, each
    with T, Sv, W, invulnerable save (effects applied), CHARACTER and whether it is a
    Bodyguard model of an attached unit (11e 05.02.01)."""
    models = alive_models(unit)
    fnp = feel_no_pain(unit)
    attached = len(unit["parts"]) > 1
    profile = []
    for model in models:
        part = unit["parts"][model["part"]]
        profile.append(
            TargetModel(
                toughness=characteristic(state, unit["id"], model, "T"),
                save=characteristic(state, unit["id"], model, "Sv"),
                wounds=model["W"],
                invulnerable=model.get("invulnerable_save"),
                feel_no_pain=fnp,
                character=bool(model.get("character")),
                bodyguard=part.get("role") not in ("leader", "support"),
                wounds_left=model["wounds_left"],
                name=model["name"],
                keywords=frozenset(k.upper() for k in unit["keywords"]),
            )
        )
    keywords = frozenset(k.upper() for k in unit["keywords"])
    return TargetUnit(tuple(profile), keywords, attached), models


def attack_context(
    state: State,
    attacking: dict[str, Any],
    target_id: str,
    *,
    half_range: bool = False,
    cover: bool = False,
) -> AttackContext:
    """The facts the attack sequence asks about, read from the state (flags of this turn,
    engagement, the phase)."""
    unit_id = attacking["id"]
    engaged_with = set(engaged_units(state, attacking))
    target = state["units"][target_id]
    friends_engaged = {
        other
        for other in engaged_units(state, target)
        if state["units"][other]["player"] == attacking["player"]
    }
    moved = any(has_flag(state, unit_id, f) for f in ("moved", "advanced", "fell_back"))
    return AttackContext(
        edition=edition_of(state),
        half_range=half_range,
        cover=cover,
        charged=has_flag(state, unit_id, "charged"),
        remained_stationary=has_flag(state, unit_id, "remained_stationary"),
        moved_more_than_3=moved,
        set_up_this_turn=has_flag(state, unit_id, "arrived_from_reserves"),
        shooting_phase=state["phase"] == "shooting",
        advanced=has_flag(state, unit_id, "advanced"),
        engaged=bool(engaged_with) and state["phase"] == "shooting",
        target_engaged_with_attacker=target_id in engaged_with,
        target_engaged_with_attacker_army=bool(friends_engaged),
    )


def _attacker(unit: dict[str, Any], group: AttackGroup) -> Attacker:
    keywords = frozenset(k.upper() for k in unit["keywords"])
    return Attacker(WeaponProfile.from_dict(group.weapon), len(group.models), keywords)


class _StepLog:
    """Collects each step's record with the dice it rolled, then emits them in roll order."""

    def __init__(self, dice: GameDice) -> None:
        self.dice = dice
        self.steps: list[tuple[StepRecord, list[dict[str, int]]]] = []

    def __call__(self, record: StepRecord) -> None:
        self.steps.append((record, self.dice.take_records()))

    def emit(self, ctx: Context, attacking: dict[str, Any], target: dict[str, Any]) -> None:
        for record, dice in self.steps:
            tray = record.tray(0)
            roll_id = None
            if dice:
                roll_id = _emit_dice(
                    ctx,
                    dice,
                    tray["step"],
                    tray["rule"],
                    target["player"] if tray["step"] == "save_roll" else attacking["player"],
                    target["id"] if tray["step"] == "save_roll" else attacking["id"],
                )
            ctx.emit(
                "attack_step", unit=attacking["id"], target=target["id"], roll=roll_id, tray=tray
            )
        self.steps.clear()


def _emit_dice(
    ctx: Context, dice: list[dict[str, int]], purpose: str, rule: str, player: int, unit: str
) -> str:
    """A `dice_rolled` event for dice the attack steps drew (docs/engine.md, verify_dice.py)."""
    roll_id = f"r{ctx.state['next_roll_id']}"
    ctx.state["next_roll_id"] += 1
    values = [d["value"] for d in dice]
    ctx.emit(
        "dice_rolled",
        roll=roll_id,
        purpose=purpose,
        rule=rule,
        player=player,
        unit=unit,
        sides=dice[0]["sides"],
        indices=[d["index"] for d in dice],
        values=values,
        rerolled=[False] * len(dice),
        modifier=0,
        modifier_applied=0,
        total=sum(values),
    )
    return roll_id


def _apply_wounds(
    ctx: Context,
    unit: dict[str, Any],
    models: list[dict[str, Any]],
    after: np.ndarray,
    source: str,
) -> None:
    for model, left in zip(models, after.tolist(), strict=True):
        lost = model["wounds_left"] - int(left)
        if lost > 0:
            lose_wounds(ctx, unit, model, lost, source)


def resolve_attacks(
    ctx: Context, unit_id: str, groups: Sequence[AttackGroup], source: str
) -> dict[str, int]:
    """Resolve the unit's attack groups target by target (in the order first assigned), then
    its [HAZARDOUS] rolls (11e 24.15; 10e Hazardous: after the unit has resolved its attacks).
    Returns the wounds lost per target unit."""
    state = ctx.state
    attacking = state["units"][unit_id]
    dice = GameDice(ctx.dice)
    log = _StepLog(dice)
    lost: dict[str, int] = {}
    targets = list(dict.fromkeys(group.target for group in groups))
    for target_id in targets:
        target = state["units"][target_id]
        if not alive_models(target):
            continue
        profile, models = target_profile(state, target)
        pairs = [
            (
                _attacker(attacking, group),
                attack_context(
                    state, attacking, target_id, half_range=group.half_range, cover=group.cover
                ),
            )
            for group in groups
            if group.target == target_id and group.models
        ]
        if not pairs:
            continue
        unit_state = UnitState.of(profile, 1)
        resolve_attack_groups(dice, 1, pairs, profile, unit_state, log)
        ctx.sync_dice()
        log.emit(ctx, attacking, target)
        before = sum(m["wounds_left"] for m in models)
        _apply_wounds(ctx, target, models, unit_state.wounds_left[0], source)
        lost[target_id] = before - int(unit_state.wounds_left[0].sum())
    _hazard(ctx, attacking, groups, dice)
    return lost


def _hazard(
    ctx: Context, attacking: dict[str, Any], groups: Sequence[AttackGroup], dice: GameDice
) -> None:
    hazardous = sum(
        len(group.models)
        for group in groups
        if WeaponProfile.from_dict(group.weapon).has("HAZARDOUS")
    )
    if not hazardous or not alive_models(attacking):
        return
    state = ctx.state
    edition = edition_of(state)
    profile, models = target_profile(state, attacking)
    unit_state = UnitState.of(profile, 1)
    keywords = {k.upper() for k in attacking["keywords"]}
    outcome = hazard_step(
        dice, hazardous, unit_state, bool({"MONSTER", "VEHICLE"} & keywords), edition
    )
    ctx.sync_dice()
    rolls = dice.take_records()
    roll_id = _emit_dice(
        ctx, rolls[:hazardous], "hazard_roll", outcome.rule, attacking["player"], attacking["id"]
    )
    if len(rolls) > hazardous:  # Feel No Pain rolls against the hazard's mortal wounds
        _emit_dice(
            ctx,
            rolls[hazardous:],
            "feel_no_pain",
            outcome.rule,
            attacking["player"],
            attacking["id"],
        )
    ctx.emit(
        "hazard_rolled",
        unit=attacking["id"],
        roll=roll_id,
        rule=outcome.rule,
        failures=int(outcome.failures[0]),
        mortal_wounds=int(outcome.mortal_wounds[0]),
    )
    _apply_wounds(ctx, attacking, models, unit_state.wounds_left[0], "hazardous")
