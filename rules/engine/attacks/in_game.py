"""The attack sequence inside a game: the state's units turned into attack inputs, the steps run
with the game's dice (`GameDice`, one trial), every step's dice recorded as events, and the
wounds lost applied to the models.

The steps are the ones the damage preview runs (`gather_attack_dice`, `hit_step`,
`wound_step`, `save_step`, `damage_step`, `devastating_wounds_step`), called one by one so the
game can stop between the wound rolls and the saves for the defender's choice of allocation order
(11e 05.03; 10e Allocate Attack), an `allocation_order` decision when more than one order is
legal. The hazard rolls' mortal wounds (the preview's `hazard_step`) ask the owner which model
suffers them, one at a time (`_hazard`).
Each step's dice get their own `dice_rolled` event (purpose `hit_roll`, `wound_roll`, ...)
followed by an `attack_step` event carrying the dice-tray record (docs/attacks.md). Each save
uses the better of the armour and the invulnerable save for the defender (10e Invulnerable
Saves: the defender's choice, made as the better one; the tray records the invulnerable value);
under 10e allocation the same decision orders the defender's preference among the models the
rules leave to them (wounded model first and bodyguard before CHARACTER still apply).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import numpy as np

from rules.engine.army.weapons import model_weapons
from rules.engine.attacks import modifiers as mods
from rules.engine.attacks.allocation import (
    UnitState,
    allocation_order,
    current_model,
    damage_expression,
    damage_step,
    devastating_wounds_step,
    hazardous_bearer_candidates,
    precision_allocates,
    save_passes,
    save_step,
)
from rules.engine.attacks.allocation import (
    lose_wounds as lose_model_wounds,
)
from rules.engine.attacks.casualties import allocate_mortal_wounds, identical, lose_wounds
from rules.engine.attacks.dice import GameDice
from rules.engine.attacks.inputs import attack_context, target_profile
from rules.engine.attacks.profiles import (
    AttackContext,
    Attacker,
    TargetUnit,
    WeaponProfile,
)
from rules.engine.attacks.rerolls import (
    ATTACKS,
    DAMAGE,
    HAZARD,
    HIT,
    SAVE,
    WOUND,
    ReplayDice,
    dice_record,
    roll_record,
    with_reroll,
)
from rules.engine.attacks.rolls import StepRecord, reroll_mask
from rules.engine.attacks.sequence import (
    HitOutcome,
    WoundOutcome,
    automatic_hit_rerolls,
    check_weapon_may_attack,
    effective_weapon,
    gather_attack_dice,
    hit_success,
    plan_hits,
    plan_wounds,
    resolve_hits,
    resolve_wounds,
    roll_hits,
    roll_wounds,
    wound_success,
)
from rules.engine.battlefield.board import placements_from_units
from rules.engine.battlefield.placement import battlefield_of, edition_of, position_settled
from rules.engine.battlefield.visibility import unit_visibility
from rules.engine.core import timing
from rules.engine.core.citations import section
from rules.engine.core.decisions import push_decision
from rules.engine.core.editions import Edition
from rules.engine.core.events import Context
from rules.engine.core.notation import NotationError, parse_weapon_ability
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import carry_on, continuation, resume
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import MODELS_DESTROYED_BY_ATTACKS
from rules.engine.core.state import State, alive_models, each_model_is, unit_keywords

MAX_GROUPS_TO_CHOOSE = 6  # beyond this many groups the default order is used (720 orders)


@dataclass(frozen=True)
class AttackGroup:
    """Models of the attacking unit making attacks with one weapon profile at one target."""

    weapon: dict[str, Any]
    models: tuple[str, ...]
    target: str
    half_range: bool = False
    cover: bool = False
    indirect: bool = False  # [INDIRECT FIRE] at a target none of these models sees
    spotted: bool = False  # ... which a friendly unit sees (11e 10.07)
    # Where cover is per model (`Edition.cover_scope` `per_model`, 10e Benefit of Cover) and not
    # every target model has it: the ids of the target models that do (R-WG-07).
    cover_models: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> AttackGroup:
        """The inverse of `group_data`."""
        return cls(
            data["weapon"],
            tuple(data["models"]),
            data["target"],
            data["half_range"],
            data["cover"],
            data["indirect"],
            data["spotted"],
            tuple(data.get("cover_models", ())),
        )


def _attacker(state: State, unit: Unit, group: AttackGroup) -> Attacker:
    keywords = frozenset(unit_keywords(state, unit))
    return Attacker(WeaponProfile.from_dict(group.weapon), len(group.models), keywords)


def group_context(
    state: State,
    attacking: Unit,
    group: AttackGroup,
    target_models: list[Model],
    *,
    shooting: bool,
) -> AttackContext:
    """The attack context of a group's attacks, built one way for the game (`_setting`) and the
    damage preview (`phases.attack_preview`), so the preview applies the game's modifiers: the
    phase the attacks are made in (`shooting`: the Shooting phase or as if it were, 11e [HEAVY],
    close-quarters shooting, 10e Stealth) and, where cover is per model (10e Benefit of Cover,
    R-WG-07), which of `target_models` (the target's living models, in `target_profile` order)
    have it."""
    context = attack_context(
        state,
        attacking,
        group.target,
        half_range=group.half_range,
        cover=group.cover,
        indirect=group.indirect,
        spotted=group.spotted,
        models=group.models,
        shooting=shooting,
    )
    if group.cover_models:
        covered = set(group.cover_models)
        context = replace(context, cover_models=tuple(m["id"] in covered for m in target_models))
    return context


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


def _emit_feel_no_pain_dice(
    ctx: Context, dice: list[dict[str, int]], edition: Edition, target: Unit
) -> str:
    """Feel No Pain dice drawn between damage rolls: the defender's, against its unit."""
    rule = section(edition, "feel_no_pain")
    return _emit_dice(ctx, dice, "feel_no_pain", rule, target["player"], target["id"])


def _apply_wounds(
    ctx: Context,
    sequence: dict[str, Any],
    unit: Unit,
    models: list[Model],
    after: np.ndarray,
    group: AttackGroup | None = None,
) -> None:
    total = 0
    destroyed = []
    for model, left in zip(models, after.tolist(), strict=True):
        lost = model["wounds_left"] - int(left)
        if lost > 0:
            total += lost
            lose_wounds(ctx, unit, model, lost, sequence["source"])
            if model["wounds_left"] == 0:
                destroyed.append(model)
    if unit["id"] != sequence["unit"]:
        sequence["lost"][unit["id"]] = sequence["lost"].get(unit["id"], 0) + total
    if group is not None and destroyed:
        attacking = ctx.state["units"][sequence["unit"]]
        for rule in MODELS_DESTROYED_BY_ATTACKS:
            rule(ctx, attacking, group.models, destroyed)


def group_data(group: AttackGroup) -> dict[str, Any]:
    """An attack group as plain data (it may wait in a pending decision's `resume`)."""
    return {
        "weapon": group.weapon,
        "models": list(group.models),
        "target": group.target,
        "half_range": group.half_range,
        "cover": group.cover,
        "indirect": group.indirect,
        "spotted": group.spotted,
        "cover_models": list(group.cover_models),
    }


def resolve_attacks(
    ctx: Context,
    unit_id: str,
    groups: Sequence[AttackGroup],
    source: str,
    then: dict[str, Any],
) -> None:
    """Resolve the unit's attack groups in order (each weapon's models at its target, 04-06),
    then its [HAZARDOUS] rolls (11e 24.15; 10e Hazardous: after the unit has resolved its
    attacks), then carry on with `then` (a continuation, given `lost`: wounds lost per target).

    Each group runs gather attack dice, hit and wound rolls; where the defender has a real choice
    of allocation order (11e 05.03: more than one order meets the three constraints) the sequence
    stops with an `allocation_order` decision; then saves and damage. [DEVASTATING WOUNDS]
    mortal wounds follow each group (11e 24.10) or all the unit's attacks (10e)."""
    sequence = {
        "unit": unit_id,
        "groups": [
            group_data(part)
            for group in groups
            for part in split_by_part(ctx.state, unit_id, group)
        ],
        "index": 0,
        "source": source,
        "then": then,
        "deferred": [],
        "lost": {},
    }
    _carry_on(ctx, sequence)


def split_by_part(state, unit_id: str, group: AttackGroup) -> list[AttackGroup]:
    """A group split by the part of the attached unit its models come from (in the order of the
    parts): models of different datasheets may share a weapon name but not their rules (an
    INQUISITOR model's Destroy the Daemonic, a Bodyguard's own ability; rulings R-IA-01)."""
    if not group.models:
        return []
    part_of = {m["id"]: m["part"] for m in state["units"][unit_id]["models"]}
    parts = sorted({part_of.get(model, 0) for model in group.models})
    if len(parts) == 1:
        return [group]
    return [
        replace(group, models=tuple(m for m in group.models if part_of.get(m, 0) == part))
        for part in parts
    ]


# What a group's steps read from the state: the target's profile, the attacker and the attack
# context (before the choices the sequence keeps: [PRECISION], the allocation order).
_Read = tuple[TargetUnit, Attacker, AttackContext]


def _setting(
    ctx: Context,
    sequence: dict[str, Any],
    index: int,
    order: list[int] | None = None,
    read: _Read | None = None,
):
    """What group `index`'s steps need, with the attacker's [PRECISION] choice for it and the
    defender's allocation `order`: the target's profile, the attacker and the attack context
    read from the state as it is now (wounds already applied, the effects of a stratagem used in
    a window in force), or `read`, what the step that called this one read, where nothing
    between the two changed the state but its dice and its events. Returns the units, the
    profile, the target's living models, the attacker, the context, and `read` for the next
    step."""
    state = ctx.state
    attacking = state["units"][sequence["unit"]]
    target = state["units"][sequence["groups"][index]["target"]]
    if read is None:
        with position_settled(state):  # it only reads the state
            read = _read_setting(state, sequence, index)
    profile, attacker, context = read
    models = alive_models(target)  # in `target_profile` order
    if order is not None:
        context = replace(context, allocation_order=tuple(order))
    chosen = sequence.get("precision", {}).get(str(index), "unasked")
    if chosen is None:
        context = replace(context, precision_on_character=False)
    elif chosen != "unasked":
        ids = [m["id"] for m in models]
        if chosen in ids:
            context = replace(context, precision_character=ids.index(chosen))
        else:  # the chosen CHARACTER is gone: [PRECISION] goes to another one
            context = replace(context, precision_character=None)
    return attacking, target, profile, models, attacker, context, read


def _read_setting(state: State, sequence: dict[str, Any], index: int) -> _Read:
    group = AttackGroup.from_data(sequence["groups"][index])
    attacking = state["units"][sequence["unit"]]
    profile, models = target_profile(state, state["units"][group.target])
    context = group_context(
        state, attacking, group, models, shooting=sequence["source"] == "shooting"
    )
    return profile, _attacker(state, attacking, group), context


def _carry_on(ctx: Context, sequence: dict[str, Any]) -> None:
    """The next group's attacks (each step may wait for a decision or a re-roll window and
    carries on from its continuation), or the end of the unit's attacks."""
    state = ctx.state
    while sequence["index"] < len(sequence["groups"]):
        group = AttackGroup.from_data(sequence["groups"][sequence["index"]])
        if not alive_models(state["units"][sequence["unit"]]):
            sequence["index"] += 1
            continue
        _, _, profile, _, attacker, context, read = _setting(ctx, sequence, sequence["index"])
        target_alive = bool(alive_models(state["units"][group.target]))
        if target_alive:
            check_weapon_may_attack(attacker, profile, context)
        if effective_weapon(attacker, profile, context).has("HAZARDOUS"):
            # [HAZARDOUS] as the weapon has it for these attacks (abilities granted included),
            # one test per model that selected it, even where its target was destroyed before
            # its attacks (10e Hazardous "for each Hazardous weapon that targets were selected
            # for"; 11e 24.15 "the [HAZARDOUS] weapons you selected in the Select Weapons step").
            sequence["hazardous"] = sequence.get("hazardous", 0) + len(group.models)
            sequence["hazardous_models"] = [*sequence.get("hazardous_models", []), *group.models]
        if not target_alive:
            sequence["index"] += 1
            continue
        _gather(ctx, sequence, read)
        return
    _finish(ctx, sequence)


def _emit_step(
    ctx: Context, attacking: Unit, target: dict, record: StepRecord | None, roll_id: str | None
) -> None:
    assert record is not None  # every step the game runs records its dice tray
    ctx.emit(
        "attack_step", unit=attacking["id"], target=target["id"], roll=roll_id, tray=record.tray(0)
    )


# What the step that made a roll read from the state, while the roll's window is open (per
# action being applied): `(roll, events so far, next decision id, read)`.
_BEFORE_WINDOW: WeakKeyDictionary[Context, tuple[dict[str, Any], int, int, _Read]] = (
    WeakKeyDictionary()
)


def _after_roll(
    ctx: Context, record: dict[str, Any], then: dict[str, Any], read: _Read | None = None
) -> None:
    """Just after an attack-sequence roll: the roll owner's re-roll window (Command Re-roll),
    then `then` with the roll as it stands (attacks/rerolls.py). `read`: what the step that made
    the roll read from the state, for the step after the window (`_read_before_window`)."""
    if read is not None:
        _BEFORE_WINDOW[ctx] = (record, len(ctx.events), ctx.state["next_decision_id"], read)
    timing.after_roll(ctx, record, then)


def _read_before_window(ctx: Context, roll: dict[str, Any]) -> _Read | None:
    """What the step before `roll`'s window read, where the window closed at once: in the same
    action, no decision asked (a stratagem is used, or a roll re-rolled, only by a player's
    answer) and no event emitted since the roll, so nothing in the state changed. None
    otherwise: the step reads the state again."""
    kept = _BEFORE_WINDOW.pop(ctx, None)
    if kept is None:
        return None
    record, events, decisions, read = kept
    if record is roll and len(ctx.events) == events and ctx.state["next_decision_id"] == decisions:
        return read
    return None


def _gather(ctx: Context, sequence: dict[str, Any], read: _Read | None = None) -> None:
    """Gather attack dice; a random A is "a roll to determine the number of attacks"."""
    attacking, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=read
    )
    dice = GameDice(ctx.dice)
    counts, record = gather_attack_dice(dice, 1, attacker, profile, context)
    ctx.sync_dice()
    drawn = dice.take_records()
    if not drawn:
        _emit_step(ctx, attacking, target, record, None)
        _hit_roll(ctx, sequence, int(counts[0]), read)
        return
    roll_id = _emit_dice(ctx, drawn, "attack", record.rule, attacking["player"], attacking["id"])
    roll = dice_record(roll_id, ATTACKS, record.rule, attacking["player"], attacking["id"], drawn)
    _after_roll(ctx, roll, {"step": "attack_dice_rolled", "sequence": sequence}, read)


@continuation("attack_dice_rolled")
def _attack_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    sequence = data["sequence"]
    attacking, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=_read_before_window(ctx, data["roll"])
    )
    replay = ReplayDice(data["roll"]["values"])
    counts, record = gather_attack_dice(replay, 1, attacker, profile, context)
    _emit_step(ctx, attacking, target, record, data["roll"]["roll"])
    _hit_roll(ctx, sequence, int(counts[0]), read)


def _roll_hit_dice(dice: Any, counts: int, plan: Any, context: Any) -> Any:
    """The hit rolls and the re-rolls the attack's own rules make (before Command Re-roll)."""
    batch = roll_hits(dice, np.array([counts], dtype=np.int64), plan)
    mask = automatic_hit_rerolls(batch, plan)
    if mask.any():
        batch = batch.reroll(dice, mask, section(context.edition, "hit_roll"))
    return batch


def _hit_roll(
    ctx: Context, sequence: dict[str, Any], counts: int, read: _Read | None = None
) -> None:
    attacking, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=read
    )
    plan = plan_hits(attacker, profile, context)
    dice = GameDice(ctx.dice)
    batch = _roll_hit_dice(dice, counts, plan, context)
    ctx.sync_dice()
    drawn = dice.take_records()
    if not drawn:
        _hits_resolved(ctx, sequence, counts, batch, None, read)
        return
    rule = section(context.edition, "hit_roll")
    roll_id = _emit_dice(ctx, drawn, "hit_roll", rule, attacking["player"], attacking["id"])
    weapon = effective_weapon(attacker, profile, context)
    if mods.applicable(context.modifiers, "hit", weapon, profile, context, "no_reroll"):
        _hits_resolved(ctx, sequence, counts, batch, roll_id, read)  # snap shooting: no re-rolls
        return
    roll = roll_record(roll_id, HIT, rule, attacking["player"], attacking["id"], batch, drawn)
    roll["failed"] = (~hit_success(np.array(roll["values"]), plan)[0]).tolist()
    then = {
        "step": "hit_dice_rolled",
        "sequence": sequence,
        "counts": counts,
        "drawn": [d["value"] for d in drawn],
    }
    _after_roll(ctx, roll, then, read)


@continuation("hit_dice_rolled")
def _hit_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    sequence = data["sequence"]
    _, _, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=_read_before_window(ctx, data["roll"])
    )
    plan = plan_hits(attacker, profile, context)
    batch = _roll_hit_dice(ReplayDice(data["drawn"]), data["counts"], plan, context)
    batch = with_reroll(batch, data["roll"])
    _hits_resolved(ctx, sequence, data["counts"], batch, data["roll"]["roll"], read)


def _hits_resolved(
    ctx: Context,
    sequence: dict[str, Any],
    counts: int,
    batch: Any,
    roll_id: str | None,
    read: _Read | None = None,
) -> None:
    attacking, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=read
    )
    plan = plan_hits(attacker, profile, context)
    dice = GameDice(ctx.dice)
    hits = resolve_hits(
        dice, np.array([counts], dtype=np.int64), batch, plan, attacker, profile, context
    )
    ctx.sync_dice()
    extra = dice.take_records()
    assert hits.record is not None  # the hit step records its roll
    if extra:  # [SUSTAINED HITS D3] and the like
        _emit_dice(
            ctx,
            extra,
            "sustained_hits",
            hits.record.rule,
            attacking["player"],
            attacking["id"],
        )
    _emit_step(ctx, attacking, target, hits.record, roll_id)
    if _lethal_hits_choice(context, effective_weapon(attacker, profile, context), hits):
        # 11e 24.23: "you can choose" for each critical hit; asked once the hits are seen.
        criticals = int(hits.critical_hits[0])
        push_decision(
            ctx,
            attacking["player"],
            LETHAL_HITS_KIND,
            list(range(criticals, -1, -1)),
            {
                "step": "lethal_hits_chosen",
                "sequence": sequence,
                "hits": int(hits.hits[0]),
                "critical_hits": criticals,
            },
            section(context.edition, "hit_roll"),
            f"[LETHAL HITS]: how many of the {criticals} critical hits wound "
            f"{target['name']} automatically (the others make wound rolls)?",
        )
        return
    _wound_roll(ctx, sequence, _hit_data(hits), read)


def _hit_data(hits: HitOutcome) -> dict[str, int]:
    return {
        "to_wound": int(hits.to_wound[0]),
        "automatic_wounds": int(hits.automatic_wounds[0]),
        "hits": int(hits.hits[0]),
        "critical_hits": int(hits.critical_hits[0]),
    }


def _hit_outcome(data: dict[str, int]) -> HitOutcome:
    def one(value: int) -> np.ndarray:
        return np.array([value], dtype=np.int64)

    return HitOutcome(
        one(data["to_wound"]),
        one(data["automatic_wounds"]),
        one(data["hits"]),
        one(data["critical_hits"]),
        None,
    )


LETHAL_HITS_KIND = "lethal_hits"


def _lethal_hits_choice(context: Any, weapon: Any, hits: Any) -> bool:
    """A choice only where the edition makes [LETHAL HITS] optional and there is a critical hit
    (10e: always automatic, rulings R-OW-14)."""
    return (
        context.edition.lethal_hits_optional
        and weapon.has("LETHAL HITS")
        and int(hits.critical_hits[0]) > 0
    )


@continuation("lethal_hits_chosen")
def _lethal_hits_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    sequence = data["sequence"]
    criticals = data["critical_hits"]
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice <= criticals:
        raise Refusal(
            "invalid_choice",
            section(edition_of(ctx.state), "hit_roll"),
            f"Answer with a number of critical hits from 0 to {criticals}.",
        )
    ctx.emit(
        "lethal_hits_chosen",
        unit=sequence["unit"],
        automatic_wounds=choice,
        critical_hits=criticals,
    )
    hits = {
        "to_wound": data["hits"] - choice,
        "automatic_wounds": choice,
        "hits": data["hits"],
        "critical_hits": criticals,
    }
    _wound_roll(ctx, sequence, hits)


def _roll_wound_dice(dice: Any, hits: HitOutcome, plan: Any, context: Any) -> Any:
    """The wound rolls and the re-rolls the attack's own rules make (before Command Re-roll)."""
    batch = roll_wounds(dice, hits)
    wound, _ = wound_success(batch.values, plan)
    mask = reroll_mask(plan.reroll, batch, wound)
    if mask.any():
        batch = batch.reroll(dice, mask, section(context.edition, "wound_roll"))
    return batch


def _wound_roll(
    ctx: Context, sequence: dict[str, Any], hits: dict[str, int], read: _Read | None = None
) -> None:
    attacking, _, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=read
    )
    plan = plan_wounds(attacker, profile, UnitState.of(profile, 1).alive, context)
    dice = GameDice(ctx.dice)
    batch = _roll_wound_dice(dice, _hit_outcome(hits), plan, context)
    ctx.sync_dice()
    drawn = dice.take_records()
    if not drawn:
        _wounds_resolved(ctx, sequence, hits, batch, None, read)
        return
    rule = section(context.edition, "wound_roll")
    roll_id = _emit_dice(ctx, drawn, "wound_roll", rule, attacking["player"], attacking["id"])
    roll = roll_record(roll_id, WOUND, rule, attacking["player"], attacking["id"], batch, drawn)
    roll["failed"] = (~wound_success(np.array([roll["values"]]), plan)[0][0]).tolist()
    then = {
        "step": "wound_dice_rolled",
        "sequence": sequence,
        "hits": hits,
        "drawn": [d["value"] for d in drawn],
    }
    _after_roll(ctx, roll, then, read)


@continuation("wound_dice_rolled")
def _wound_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    sequence = data["sequence"]
    _, _, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=_read_before_window(ctx, data["roll"])
    )
    plan = plan_wounds(attacker, profile, UnitState.of(profile, 1).alive, context)
    hits = _hit_outcome(data["hits"])
    batch = _roll_wound_dice(ReplayDice(data["drawn"]), hits, plan, context)
    batch = with_reroll(batch, data["roll"])
    _wounds_resolved(ctx, sequence, data["hits"], batch, data["roll"]["roll"], read)


def _wounds_resolved(
    ctx: Context,
    sequence: dict[str, Any],
    hits: dict[str, int],
    batch: Any,
    roll_id,
    read: _Read | None = None,
) -> None:
    """The wound rolls counted, then [PRECISION] and the allocation."""
    attacking, target, profile, models, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], read=read
    )
    plan = plan_wounds(attacker, profile, UnitState.of(profile, 1).alive, context)
    wounds = resolve_wounds(_hit_outcome(hits), batch, plan, attacker, profile, context)
    _emit_step(ctx, attacking, target, wounds.record, roll_id)
    outcome = {
        "to_save": int(wounds.to_save[0]),
        "devastating": int(wounds.devastating[0]),
        "wounds": int(wounds.wounds[0]),
        "critical_wounds": int(wounds.critical_wounds[0]),
    }
    characters = [m["id"] for m, p in zip(models, profile.models, strict=True) if p.character]
    weapon = effective_weapon(attacker, profile, context)
    if weapon.has("PRECISION") and characters:
        characters = _visible_to_group(ctx.state, sequence, target, characters)
        if not characters:  # none visible to an attacking model: allocated as usual
            sequence.setdefault("precision", {})[str(sequence["index"])] = None
    # The attacks go to saves only where [PRECISION] reaches the unit (10e: an Attached unit);
    # the mortal wounds of [DEVASTATING WOUNDS] may go to a CHARACTER of any unit (seed 004
    # Mortal Wounds).
    chosen_for = (outcome["to_save"] and precision_allocates(weapon, profile, context)) or (
        outcome["devastating"]
    )
    if weapon.has("PRECISION") and characters and chosen_for:
        # 11e 24.28 / 10e Precision: the attacker may send these attacks to a CHARACTER.
        push_decision(
            ctx,
            attacking["player"],
            PRECISION_KIND,
            [*characters, None],
            {"step": "precision_chosen", "sequence": sequence, "outcome": outcome},
            section(context.edition, "save_roll"),
            f"[PRECISION]: which CHARACTER model of {target['name']} do these attacks go "
            "to (null: allocate them as usual)?",
        )
        return
    _allocate(ctx, sequence, outcome, read)


PRECISION_KIND = "precision_target"


def _visible_to_group(
    state: State, sequence: dict[str, Any], target: Unit, characters: list[str]
) -> list[str]:
    """The CHARACTER models of the target that one or more of the group's attacking models see:
    only those may take [PRECISION] attacks (11e 24.28 "a CHARACTER model that is visible to the
    attacking model"; 10e Precision "if a CHARACTER model ... is visible to the attacking
    model"; rulings R-OW-15)."""
    group = AttackGroup.from_data(sequence["groups"][sequence["index"]])
    attacking = state["units"][sequence["unit"]]
    observers = [
        p for p in placements_from_units({attacking["id"]: attacking}) if p.model_id in group.models
    ]
    observed = [
        p for p in placements_from_units({target["id"]: target}) if p.model_id in characters
    ]
    seen = unit_visibility(battlefield_of(state), edition_of(state), observers, observed)
    return [model for model in characters if model in seen.visible_models]


def _allocate(
    ctx: Context, sequence: dict[str, Any], outcome: dict[str, Any], read: _Read | None = None
) -> None:
    """The defender's allocation order (a decision when more than one is legal), then saves and
    damage."""
    _, target, profile, _, _, context, read = _setting(ctx, sequence, sequence["index"], read=read)
    unit_state = UnitState.of(profile, 1)
    orders = legal_allocation_orders(unit_state, context) if outcome["to_save"] else []
    if len(orders) > 1:
        push_decision(
            ctx,
            target["player"],
            "allocation_order",
            orders,
            {"step": "allocation_order_chosen", "sequence": sequence, "outcome": outcome},
            section(context.edition, "save_roll"),
            _allocation_prompt(target, profile, unit_state),
        )
        return
    _save_rolls(ctx, sequence, outcome, None, read)


@continuation("precision_chosen")
def _precision_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    sequence = data["sequence"]
    sequence.setdefault("precision", {})[str(sequence["index"])] = choice
    ctx.emit(
        "precision_target_chosen",
        unit=sequence["unit"],
        target=sequence["groups"][sequence["index"]]["target"],
        model=choice,
    )
    _allocate(ctx, sequence, data["outcome"])


@continuation("allocation_order_chosen")
def _allocation_order_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    _save_rolls(ctx, data["sequence"], data["outcome"], choice)


def _wound_outcome(outcome: dict[str, Any]) -> WoundOutcome:
    def one(value: int) -> np.ndarray:
        return np.array([value], dtype=np.int64)

    return WoundOutcome(
        one(outcome["to_save"]),
        one(outcome["devastating"]),
        one(outcome["wounds"]),
        one(outcome["critical_wounds"]),
        None,
    )


def _save_rolls(
    ctx: Context,
    sequence: dict[str, Any],
    outcome: dict[str, Any],
    order: list[int] | None,
    read: _Read | None = None,
) -> None:
    """The defender's save rolls for the current group (with their allocation order); the
    defender may re-roll one (Command Re-roll: "saving throws"), then damage."""
    _, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], order, read
    )
    if order is not None:
        ctx.emit("allocation_order_chosen", unit=target["id"], order=list(order))
    dice = GameDice(ctx.dice)
    unit_state = UnitState.of(profile, 1)
    saves = save_step(dice, _wound_outcome(outcome), unit_state, attacker, profile, context)
    ctx.sync_dice()
    drawn = dice.take_records()
    if not drawn:
        _damage(ctx, sequence, outcome, order, _rolled([], None), read)
        return
    rule = saves.record.rule
    roll_id = _emit_dice(ctx, drawn, "save_roll", rule, target["player"], target["id"])
    roll = roll_record(roll_id, SAVE, rule, target["player"], target["id"], saves.batch, drawn)
    first = _first_model(unit_state, saves, attacker, profile, context)
    passed = save_passes(np.array(roll["values"]), first[0], unit_state, saves.plan)
    roll["failed"] = [not p for p in passed.tolist()]
    then = {
        "step": "save_dice_rolled",
        "sequence": sequence,
        "outcome": outcome,
        "order": order,
        "drawn": [d["value"] for d in drawn],
    }
    _after_roll(ctx, roll, then, read)


def _first_model(unit_state: UnitState, saves: Any, attacker: Attacker, profile, context) -> Any:
    """The model the first save roll goes to: what "a failed save" is judged against when the
    engine decides whether to ask about a re-roll (rulings R-ST-32)."""
    weapon = effective_weapon(attacker, profile, context)
    model, _ = current_model(
        unit_state,
        saves.order,
        saves.precision_group,
        precision_allocates(weapon, profile, context),
        context,
    )
    return model


@continuation("save_dice_rolled")
def _save_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    rolled = _rolled(data["drawn"], data["roll"])
    read = _read_before_window(ctx, data["roll"])
    _damage(ctx, data["sequence"], data["outcome"], data["order"], rolled, read)


def _rolled(saves: list[int], save_roll: dict[str, Any] | None) -> dict[str, Any]:
    """The dice a group's saves and damage have rolled so far: the save dice as drawn, the save
    roll as it stands after its window, each damage roll's dice after theirs, the Feel No Pain
    dice; the step is rebuilt from them each time it carries on (no die drawn twice)."""
    return {"saves": saves, "save_roll": save_roll, "damage": [], "fnp": [], "damage_roll": None}


class _DamageRollNeeded(Exception):
    """The next attack's damage roll has not been made yet: the game makes it and stops for its
    window (Command Re-roll: "a Damage roll")."""


class _KnownDamageRolls:
    """The damage dice rolled so far (re-rolls put in), served in order; past them the step
    stops with `_DamageRollNeeded`."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)

    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        if len(self.values) < count:
            raise _DamageRollNeeded
        taken, self.values = self.values[:count], self.values[count:]
        return np.asarray(taken, dtype=np.int64).reshape(shape)


T = TypeVar("T")


def _step_with_damage_rolls(
    ctx: Context,
    sequence: dict[str, Any],
    index: int,
    order: list[int] | None,
    rolled: dict[str, Any],
    waiting: dict[str, Any],
    step: Callable[[ReplayDice, _KnownDamageRolls], T],
    read: _Read,
) -> tuple[T, list[dict[str, Any]]] | None:
    """Run an attack step that rolls damage (`step(fnp_dice, damage_dice)`: the normal damage
    step or [DEVASTATING WOUNDS]) on the dice `rolled` so far. When it needs the next attack's
    damage roll, make that roll and stop for its window, `waiting` (the continuation that puts
    the roll in and runs the step again), and return None; else the step's result and the dice
    drawn since the last damage roll (Feel No Pain), for the caller to show where they belong.
    `read`: what the caller read from the state (the step changes nothing in it)."""
    dice = GameDice(ctx.dice)
    try:
        result = step(ReplayDice(rolled["fnp"], then=dice), _KnownDamageRolls(rolled["damage"]))
    except _DamageRollNeeded:
        _damage_roll(ctx, sequence, index, order, rolled, dice, waiting, read)
        return None
    ctx.sync_dice()
    return result, dice.take_records()


def _with_damage_roll(data: dict[str, Any]) -> dict[str, Any]:
    """The dice rolled so far with the damage roll just made (after its window) put in."""
    rolled = data["rolled"]
    return {**rolled, "damage": rolled["damage"] + data["roll"]["values"]}


def _damage(
    ctx: Context,
    sequence: dict[str, Any],
    outcome: dict[str, Any],
    order: list[int] | None,
    rolled: dict[str, Any],
    read: _Read | None = None,
) -> None:
    """Damage for the current group, each attack's damage roll followed by its window (the
    attacker may re-roll one die), then its [DEVASTATING WOUNDS] now (11e) or after all the
    unit's attacks (10e)."""
    attacking, target, profile, models, attacker, context, read = _setting(
        ctx, sequence, sequence["index"], order, read
    )
    unit_state = UnitState.of(profile, 1)
    saves = save_step(
        ReplayDice(rolled["saves"]), _wound_outcome(outcome), unit_state, attacker, profile, context
    )
    save_roll = rolled["save_roll"]
    if save_roll is not None:
        batch = with_reroll(saves.batch, save_roll, saves.plan.sort_lowest_first)
        saves.record.batch = batch
        saves = replace(saves, batch=batch)
    waiting = {"step": "damage_dice_rolled", "sequence": sequence, "outcome": outcome}
    stepped = _step_with_damage_rolls(
        ctx,
        sequence,
        sequence["index"],
        order,
        rolled,
        {**waiting, "order": order},
        lambda fnp_dice, damage_dice: damage_step(
            fnp_dice, saves, unit_state, attacker, profile, context, damage_dice=damage_dice
        ),
        read,
    )
    if stepped is None:
        return
    normal, drawn = stepped
    _emit_step(ctx, attacking, target, saves.record, save_roll["roll"] if save_roll else None)
    roll_id = rolled["damage_roll"]
    if drawn:  # Feel No Pain rolls after the last damage roll
        roll_id = _emit_feel_no_pain_dice(ctx, drawn, context.edition, target)
    _emit_step(ctx, attacking, target, normal.records[-1], roll_id)
    group = AttackGroup.from_data(sequence["groups"][sequence["index"]])
    _apply_wounds(ctx, sequence, target, models, unit_state.wounds_left[0], group)
    if outcome["devastating"]:
        if context.edition.devastating_wounds == "no_saving_throw":
            sequence["deferred"].append({"index": sequence["index"], **outcome})
        else:
            _devastating(ctx, sequence, sequence["index"], outcome, {"step": "group_resolved"})
            return
    _next_group(ctx, {"sequence": sequence}, None)


@continuation("group_resolved")
def _next_group(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    sequence = data["sequence"]
    sequence["index"] += 1
    _carry_on(ctx, sequence)


def _damage_roll(
    ctx: Context,
    sequence: dict[str, Any],
    index: int,
    order: list[int] | None,
    rolled: dict[str, Any],
    dice: GameDice,
    then: dict[str, Any],
    read: _Read,
) -> None:
    """The next attack's damage roll (every die of its D, [MELTA] included), then the
    attacker's window just after it; `then` carries on with `rolled` (the dice so far)."""
    attacking, target, profile, _, attacker, context, read = _setting(
        ctx, sequence, index, order, read
    )
    rule = section(context.edition, "damage")
    ctx.sync_dice()
    fnp = dice.take_records()  # Feel No Pain rolls made since the last damage roll
    if fnp:
        _emit_feel_no_pain_dice(ctx, fnp, context.edition, target)
    damage, extra = damage_expression(attacker, profile, context)
    count = sum(e.count for e in (damage, extra) if e is not None and not e.is_fixed)
    dice.roll((count,), 6)
    ctx.sync_dice()
    drawn = dice.take_records()
    roll_id = _emit_dice(ctx, drawn, "damage", rule, attacking["player"], attacking["id"])
    roll = dice_record(roll_id, DAMAGE, rule, attacking["player"], attacking["id"], drawn)
    roll["summed"] = count > 1  # one damage roll of several dice added together (2D6, D6+D3)
    rolled = {**rolled, "fnp": rolled["fnp"] + [d["value"] for d in fnp], "damage_roll": roll_id}
    _after_roll(ctx, roll, {**then, "rolled": rolled}, read)


@continuation("damage_dice_rolled")
def _damage_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    read = _read_before_window(ctx, data["roll"])
    _damage(ctx, data["sequence"], data["outcome"], data["order"], _with_damage_roll(data), read)


def _devastating(
    ctx: Context,
    sequence: dict[str, Any],
    index: int,
    outcome: dict,
    then: dict[str, Any],
    rolled: dict[str, Any] | None = None,
    read: _Read | None = None,
) -> None:
    """[DEVASTATING WOUNDS] of group `index`: each critical wound's damage roll followed by its
    window (Command Re-roll: "a Damage roll"), then `then` resumes with the sequence."""
    group = AttackGroup.from_data(sequence["groups"][index])
    if not alive_models(ctx.state["units"][group.target]):
        resume(ctx, {**then, "sequence": sequence})
        return
    attacking, target, profile, models, attacker, context, read = _setting(
        ctx, sequence, index, read=read
    )
    rolled = rolled or {"damage": [], "fnp": [], "damage_roll": None}
    unit_state = UnitState.of(profile, 1)
    waiting = {"step": "devastating_dice_rolled", "sequence": sequence, "index": index}
    stepped = _step_with_damage_rolls(
        ctx,
        sequence,
        index,
        None,
        rolled,
        {**waiting, "outcome": outcome, "then": then},
        lambda fnp_dice, damage_dice: devastating_wounds_step(
            fnp_dice,
            _wound_outcome(outcome),
            unit_state,
            attacker,
            profile,
            context,
            damage_dice=damage_dice,
        ),
        read,
    )
    if stepped is None:
        return
    result, drawn = stepped
    tray = result.records[0].tray(0)
    roll_id = rolled["damage_roll"]
    if drawn:  # Feel No Pain rolls after the last damage roll
        roll_id = _emit_feel_no_pain_dice(ctx, drawn, context.edition, target)
    ctx.emit("attack_step", unit=attacking["id"], target=target["id"], roll=roll_id, tray=tray)
    _apply_wounds(ctx, sequence, target, models, unit_state.wounds_left[0], group)
    resume(ctx, {**then, "sequence": sequence})


@continuation("devastating_dice_rolled")
def _devastating_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    rolled = _with_damage_roll(data)
    read = _read_before_window(ctx, data["roll"])
    _devastating(ctx, data["sequence"], data["index"], data["outcome"], data["then"], rolled, read)


def _finish(ctx: Context, sequence: dict[str, Any]) -> None:
    """10e: the deferred [DEVASTATING WOUNDS] one group after the other, then the hazard rolls."""
    if sequence["deferred"]:
        deferred = sequence["deferred"].pop(0)
        _devastating(ctx, sequence, deferred["index"], deferred, {"step": "deferred_resolved"})
        return
    _hazard_rolls(ctx, sequence)


@continuation("deferred_resolved")
def _deferred_resolved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _finish(ctx, data["sequence"])


def _attacks_done(ctx: Context, sequence: dict[str, Any]) -> None:
    resume(ctx, {**sequence["then"], "lost": sequence["lost"]})


def legal_allocation_orders(unit_state: UnitState, context: AttackContext) -> list[list[int]]:
    """Every allocation order of the target's groups that meets the 11e 05.03 constraints. Under
    10e allocation the order is the defender's preference among the models the rules leave to
    them (wounded models and bodyguard models first still apply): docs/rulings.md R-CB-07."""
    if unit_state.groups < 2:
        return []
    if unit_state.groups > MAX_GROUPS_TO_CHOOSE:
        return []
    orders = []
    for order in permutations(range(unit_state.groups)):
        try:
            allocation_order(unit_state, replace(context, allocation_order=order))
        except Refusal:
            continue
        orders.append(list(order))
    return orders


def _allocation_prompt(target: Unit, profile: TargetUnit, unit_state: UnitState) -> str:
    described = []
    for group in range(unit_state.groups):
        members = [m for m, g in zip(profile.models, unit_state.group, strict=True) if g == group]
        first = members[0]
        described.append(
            f"{group} = {first.name} x{len(members)} (W{first.wounds}, Sv {first.save}+)"
        )
    return f"Choose the allocation order of {target['name']}'s groups: " + "; ".join(described)


def _hazard_rolls(ctx: Context, sequence: dict[str, Any]) -> None:
    """One hazard roll per model that attacked with a [HAZARDOUS] weapon; the player may
    re-roll one (Command Re-roll: "Hazard roll"), then the failures are resolved."""
    attacking = ctx.state["units"][sequence["unit"]]
    hazardous = sequence.get("hazardous", 0)
    if not hazardous or not alive_models(attacking):
        _attacks_done(ctx, sequence)
        return
    dice = GameDice(ctx.dice)
    dice.roll((hazardous,), 6)
    ctx.sync_dice()
    drawn = dice.take_records()
    rule = section(edition_of(ctx.state), "hazard_roll")
    roll_id = _emit_dice(ctx, drawn, "hazard_roll", rule, attacking["player"], attacking["id"])
    roll = dice_record(roll_id, HAZARD, rule, attacking["player"], attacking["id"], drawn)
    _after_roll(ctx, roll, {"step": "hazard_dice_rolled", "sequence": sequence})


@continuation("hazard_dice_rolled")
def _hazard_dice_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    sequence = data["sequence"]
    attacking = ctx.state["units"][sequence["unit"]]
    if not alive_models(attacking):
        _attacks_done(ctx, sequence)
        return
    roll, used = data["roll"], sequence.get("hazardous_models")
    charging = ctx.state["facts"]["phase"].get(HAZARD_AFTER_CHARGE, {}).get(attacking["id"])
    failures = _failures(ctx.state, roll)
    if charging is not None and failures:
        # 10e Hazardous (004 L145): after Fire Overwatch in the opponent's Charge phase the
        # failed tests' mortal wounds wait for the end of the charging unit's Charge move.
        deferred = ctx.state["facts"]["phase"].setdefault(DEFERRED_HAZARDS, [])
        deferred.append({"unit": attacking["id"], "roll": roll, "used": used, "until": charging})
        ctx.emit(
            "hazard_deferred",
            unit=attacking["id"],
            roll=roll["roll"],
            rule=section(edition_of(ctx.state), "hazard_roll"),
            failures=failures,
            charging=charging,
        )
        _attacks_done(ctx, sequence)
        return
    _hazard(ctx, attacking, roll, used, {"step": "hazard_resolved", "sequence": sequence})


@continuation("hazard_resolved")
def _hazard_resolved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _attacks_done(ctx, data["sequence"])


# Phase facts of 10e Hazardous after Fire Overwatch in the Charge phase: the units whose
# failed tests wait for a charging unit ({unit: charging unit}), and the tests waiting.
HAZARD_AFTER_CHARGE = "hazard_after_charge_move"
DEFERRED_HAZARDS = "deferred_hazards"


def hazard_after_charge_move(ctx: Context, unit_id: str, charging: str) -> None:
    """10e Hazardous (seed 004 L145): "If a unit from a player's army is selected as the target
    of the Fire Overwatch Stratagem in their opponent's Charge phase, any mortal wounds inflicted
    by Hazardous tests are allocated after the charging unit has ended its Charge move": the
    unit's failed tests this phase wait for `charging` (`charge_ended`; rulings R-ENG-17)."""
    ctx.state["facts"]["phase"].setdefault(HAZARD_AFTER_CHARGE, {})[unit_id] = charging


@timing.at(timing.CHARGE_ENDED, 10, resumes=True)
def deferred_hazards(ctx: Context, data: dict[str, Any], then: dict[str, Any] | None) -> None:
    """The failed Hazardous tests that waited for this unit's charge: resolved now, one unit's
    after the other, whether or not it made a charge move (rulings R-ENG-17)."""
    waiting = ctx.state["facts"]["phase"].get(DEFERRED_HAZARDS, [])
    due = next((item for item in waiting if item["until"] == data["unit"]), None)
    if due is None:
        carry_on(ctx, then)
        return
    waiting.remove(due)
    attacking = ctx.state["units"][due["unit"]]
    again = {"step": "deferred_hazard_resolved", "data": data, "then": then}
    if not alive_models(attacking):
        resume(ctx, again)
        return
    _hazard(ctx, attacking, due["roll"], due["used"], again)


@continuation("deferred_hazard_resolved")
def _deferred_hazard_resolved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    deferred_hazards(ctx, data["data"], data["then"])


def _failures(state: State, roll: dict[str, Any]) -> int:
    return sum(1 for value in roll["values"] if value <= state["edition"]["hazard_fail_max"])


def hazardous_bearers(
    state: State, unit: Unit, models: list[Model], used: list[str] | None
) -> np.ndarray:
    """Which of `models` are "equipped with one or more Hazardous weapons" (10e Hazardous): the
    models that attacked with a weapon that had [HAZARDOUS] for those attacks (`used`, a rule's
    grant included) and those that carry a weapon whose profile has it. `used` None (an attack
    sequence saved before the models were kept): every model (rulings R-ENG-17)."""
    if used is None:
        return np.ones(len(models), dtype=bool)
    attacked = set(used)
    return np.array(
        [
            model["id"] in attacked
            or any(
                _prints_hazardous(profile)
                for kind in ("ranged", "melee")
                for profile in model_weapons(state, unit, model, kind)
            )
            for model in models
        ],
        dtype=bool,
    )


def _prints_hazardous(profile: dict[str, Any]) -> bool:
    """The weapon profile's abilities include [HAZARDOUS]. Read one ability at a time: a weapon
    the model did not attack with may carry an ability this referee cannot read (imported
    data), which must not stop the hazard rolls."""
    items = profile.get("abilities") or []
    if isinstance(items, str):
        items = items.strip("[]").split(",")
    for item in items:
        try:
            if parse_weapon_ability(item).name == "HAZARDOUS":
                return True
        except NotationError:
            continue
    return False


def _hazard(
    ctx: Context,
    attacking: Unit,
    roll: dict[str, Any],
    used: list[str] | None,
    then: dict[str, Any],
) -> None:
    """The failed hazard rolls' mortal wounds (and Feel No Pain rolls against them), then
    `then`. 11e 06.03: the unit suffers them, each allocated by 06.02 as any other mortal wound
    (`casualties.allocate_mortal_wounds`: its owner selects the model where the choice is real).
    10e Hazardous, one failed test at a time, to a model equipped with a Hazardous weapon
    (`used`: the models that attacked with one) that its owner selects where the choice is real
    (`_hazardous_tests`)."""
    state = ctx.state
    edition = edition_of(state)
    failures = _failures(state, roll)
    if edition.hazard_consequence != "mortal_wounds_to_unit":
        tests = {"unit": attacking["id"], "roll": roll["roll"], "used": used}
        _hazardous_tests(ctx, {**tests, "left": failures, "failures": failures, "then": then})
        return
    mortal_wounds = failures * _per_failure(state, attacking)
    ctx.emit(
        "hazard_rolled",
        unit=attacking["id"],
        roll=roll["roll"],
        rule=section(edition, "hazard_roll"),
        failures=failures,
        mortal_wounds=mortal_wounds,
    )
    allocate_mortal_wounds(ctx, attacking["id"], mortal_wounds, "hazardous", then)


MONSTER_OR_VEHICLE = {"MONSTER", "VEHICLE"}


def _per_failure(state: State, unit: Unit) -> int:
    """The mortal wounds of one failed test: the rule set's, or its greater number when each
    model of the unit is a MONSTER/VEHICLE model (11e 06.03; 10e: 3 either way)."""
    edition = state["edition"]
    if each_model_is(state, unit, MONSTER_OR_VEHICLE):
        return int(edition["hazard_mortal_wounds_monster_vehicle"])
    return int(edition["hazard_mortal_wounds"])


def _hazardous_tests(ctx: Context, data: dict[str, Any]) -> None:
    """10e Hazardous: "For each failed test you must resolve the following sequence (resolve
    each failed test one at a time)": select a model equipped with a Hazardous weapon
    (`hazardous_bearer_candidates`); where the candidates differ (wounds left, wargear, profile)
    the unit's controlling player selects with an `allocate_mortal_wound` decision, identical
    ones need no question (the first is taken). The model suffers the mortal wounds; with no
    such model left the test does nothing. `hazard_rolled` follows the last test."""
    state = ctx.state
    unit = state["units"][data["unit"]]
    edition = edition_of(state)
    while data["left"] > 0 and alive_models(unit):
        profile, models = target_profile(state, unit, mortal_wounds=True)
        equipped = hazardous_bearers(state, unit, models, data["used"])
        candidates = hazardous_bearer_candidates(UnitState.of(profile, 1), equipped)[0]
        ids = [m["id"] for m, c in zip(models, candidates.tolist(), strict=True) if c]
        if not ids:
            data["left"] -= 1
            continue
        if not identical(unit, ids):
            push_decision(
                ctx,
                unit["player"],
                "allocate_mortal_wound",
                ids,
                {**data, "step": "hazardous_model_selected"},
                section(edition, "hazard_roll"),
                f"A Hazardous test of {unit['name']} failed: select the model equipped with a "
                f"Hazardous weapon that suffers {_per_failure(state, unit)} mortal wounds.",
            )
            return
        _hazardous_failure(ctx, data, ids[0])
    ctx.emit(
        "hazard_rolled",
        unit=unit["id"],
        roll=data["roll"],
        rule=section(edition, "hazard_roll"),
        failures=data["failures"],
        mortal_wounds=data.get("inflicted", 0),
    )
    resume(ctx, data["then"])


@continuation("hazardous_model_selected")
def _hazardous_model_selected(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    _hazardous_failure(ctx, data, choice)
    _hazardous_tests(ctx, data)


def _hazardous_failure(ctx: Context, data: dict[str, Any], model_id: str) -> None:
    """One failed 10e Hazardous test: the model suffers the mortal wounds one at a time, each
    saved by its own Feel No Pain (R-ENG-14), the rest lost when it is destroyed."""
    state = ctx.state
    unit = state["units"][data["unit"]]
    edition = edition_of(state)
    profile, models = target_profile(state, unit, mortal_wounds=True)
    unit_state = UnitState.of(profile, 1)
    index = [m["id"] for m in models].index(model_id)
    game_dice = GameDice(ctx.dice)
    amount = _per_failure(state, unit)
    one = np.ones(1, dtype=bool)
    lose_model_wounds(
        game_dice, unit_state, np.array([index]), np.array([amount]), one, np.zeros(1, int)
    )
    ctx.sync_dice()
    rolls = game_dice.take_records()
    rule = section(edition, "hazard_roll")
    if rolls:  # Feel No Pain rolls against the hazard's mortal wounds
        _emit_dice(ctx, rolls, "feel_no_pain", rule, unit["player"], unit["id"])
    hazard = {"unit": unit["id"], "source": "hazardous", "lost": {}}
    _apply_wounds(ctx, hazard, unit, models, unit_state.wounds_left[0])
    data["left"] -= 1
    data["inflicted"] = data.get("inflicted", 0) + amount
