"""Allocation, saving throws, damage, Feel No Pain and mortal wounds, vectorised over trials.

The two editions allocate differently (`Edition.allocation`):

- `allocation_groups` (11e 05.03-05.04): the target is divided into groups (one per CHARACTER
  model; the rest by identical W, Sv and InSv), ordered under three constraints; all save rolls are
  made at once and resolved from the lowest result to the highest, each against the current group,
  whose model that has lost wounds is selected first (05.04.01). [PRECISION] (24.28) lets the
  attacker make a visible CHARACTER group the current group until it is destroyed.
- `wounded_model_first` (10e Allocate Attack): each attack goes to a model that has lost wounds if
  there is one, else to a model the defender picks (bodyguard before CHARACTER models); [PRECISION]
  attacks may be allocated to a CHARACTER model.

The saving throw is one rule for both (10e Saving Throw, Invulnerable Saves; 11e 05.04 Check Save
Roll; AMB-07): an unmodified 1 fails; the invulnerable save (never modified by AP) or the armour
save (modified by AP) saves, whichever is better; the roll is never improved by more than
`save_improvement_cap`. Cover per `Edition.cover` (10e: +1 to armour saves against ranged attacks,
not for Sv 3+ or better against AP 0). Damage beyond a model's remaining wounds is lost (11e 05.04;
10e Inflict Damage). Feel No Pain (11e 24.12) is rolled for each wound a model would lose.
Mortal wounds (11e 06.02; 10e Mortal Wounds) are inflicted after all normal damage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from rules.engine.attacks import modifiers as mods
from rules.engine.attacks.dice import DiceSource, mask_of_counts, roll_expression, roll_where
from rules.engine.attacks.profiles import (
    NO_SAVE,
    AttackContext,
    Attacker,
    TargetUnit,
    WeaponProfile,
)
from rules.engine.attacks.rolls import RollBatch, StepRecord, best_grant, reroll_mask
from rules.engine.attacks.sequence import WoundOutcome, effective_weapon, has_cover
from rules.engine.core.citations import section
from rules.engine.core.editions import Edition
from rules.engine.core.notation import DiceExpression
from rules.engine.core.refusals import Refusal


@dataclass
class UnitState:
    """The target unit's models as arrays; `wounds_left` is (trials, models) and changes."""

    wounds: np.ndarray
    save: np.ndarray
    invulnerable: np.ndarray
    feel_no_pain: np.ndarray
    character: np.ndarray
    group: np.ndarray  # 11e 05.03 Create Groups: group id of each model
    wounds_left: np.ndarray

    @classmethod
    def of(cls, unit: TargetUnit, trials: int) -> UnitState:
        models = unit.models
        keys: dict[tuple[int, ...], int] = {}
        groups = []
        for index, model in enumerate(models):
            key = (
                (-1 - index, 0, 0)
                if model.character
                else (model.wounds, model.save, model.invulnerable or NO_SAVE)
            )
            groups.append(keys.setdefault(key, len(keys)))
        left = np.array([model.remaining for model in models], dtype=np.int64)
        return cls(
            wounds=np.array([model.wounds for model in models], dtype=np.int64),
            save=np.array([model.save for model in models], dtype=np.int64),
            invulnerable=np.array(
                [model.invulnerable or NO_SAVE for model in models], dtype=np.int64
            ),
            feel_no_pain=np.array(
                [model.feel_no_pain or NO_SAVE for model in models], dtype=np.int64
            ),
            character=np.array([model.character for model in models], dtype=bool),
            group=np.array(groups, dtype=np.int64),
            wounds_left=np.tile(left, (trials, 1)),
        )

    @property
    def alive(self) -> np.ndarray:
        return self.wounds_left > 0

    @property
    def wounded(self) -> np.ndarray:
        return self.alive & (self.wounds_left < self.wounds[None, :])

    @property
    def groups(self) -> int:
        return int(self.group.max(initial=-1)) + 1

    def group_character(self) -> np.ndarray:
        flags = np.zeros(self.groups, dtype=bool)
        flags[self.group] = self.character
        return flags


# --- Allocation -----------------------------------------------------------------------------


def allocation_order(state: UnitState, ctx: AttackContext) -> np.ndarray:
    """11e 05.03 Allocation Order, (trials, groups). The defender's declared order
    (`ctx.allocation_order`) is checked against the three constraints; without one, groups keep
    the unit's order with the constraints applied: a wounded non-CHARACTER group first, CHARACTER
    groups last, wounded CHARACTER groups before unwounded ones."""
    count = state.groups
    is_character = state.group_character()
    hurt = state.wounded
    wounded = np.stack([hurt[:, state.group == group].any(axis=1) for group in range(count)], 1)
    if ctx.allocation_order is not None:
        order = np.asarray(ctx.allocation_order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(count)):
            raise Refusal(
                "allocation_order_groups",
                "05.03",
                f"The allocation order must list each of the {count} groups once.",
            )
        for trial_wounded in wounded:
            _check_order(order, is_character, trial_wounded)
        return np.tile(order, (len(wounded), 1))
    appearance = np.arange(count)[None, :]
    key = is_character[None, :] * 4 * count + (~wounded) * 2 * count + appearance
    return np.argsort(key, axis=1, kind="stable")


def _check_order(order: np.ndarray, is_character: np.ndarray, wounded: np.ndarray) -> None:
    characters = is_character[order]
    if np.any(characters[:-1] & ~characters[1:]):
        raise Refusal(
            "allocation_order_character",
            "05.03",
            "No CHARACTER group can come before a group without CHARACTER models.",
        )
    wounded_plain = np.flatnonzero(wounded & ~is_character)
    if wounded_plain.size and order[0] != wounded_plain[0]:
        raise Refusal(
            "allocation_order_wounded",
            "05.03",
            "The group with a model that has lost wounds must be first in the allocation order.",
        )
    char_wounded = wounded[order] & characters
    positions = np.flatnonzero(characters)
    if positions.size and np.any(char_wounded[positions][1:] & ~char_wounded[positions][:-1]):
        raise Refusal(
            "allocation_order_wounded_character",
            "05.03",
            "CHARACTER groups with a wounded model come before unwounded CHARACTER groups.",
        )


def _first_best(score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return score.argmax(axis=1), score.max(axis=1) > 0


def group_alive(state: UnitState) -> np.ndarray:
    """(trials, groups): whether each group still has a model on the battlefield."""
    alive = state.alive
    return np.stack(
        [alive[:, state.group == group].any(axis=1) for group in range(state.groups)], axis=1
    )


def select_model_in_groups(
    state: UnitState, order: np.ndarray, precision_group: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """11e 05.04 Select Model in the current allocation group (05.04.01): a model that has lost
    wounds if possible. Returns (model index, has a model) per trial."""
    alive = state.alive
    living = group_alive(state)
    trials = np.arange(len(order))
    current = order[:, -1].copy()
    for position in range(order.shape[1] - 1, -1, -1):
        candidate = order[:, position]
        current = np.where(living[trials, candidate], candidate, current)
    if precision_group is not None:
        chosen_alive = living[trials, np.maximum(precision_group, 0)]
        current = np.where((precision_group >= 0) & chosen_alive, precision_group, current)
    in_group = alive if state.groups == 1 else alive & (state.group[None, :] == current[:, None])
    score = in_group * (1 + (in_group & (state.wounds_left < state.wounds[None, :])))
    return _first_best(score)


def select_model_wounded_first(
    state: UnitState,
    precision: bool,
    order: np.ndarray | None = None,
    favoured: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """10e: bodyguard models before CHARACTER models, even a CHARACTER that has lost wounds (10e
    Attached Units: "that attack cannot be allocated to a CHARACTER model in that unit, even if
    that CHARACTER model has lost one or more wounds"); among those, a model that has lost
    wounds must take the attack; a [PRECISION] attack may go to a CHARACTER model first. Among
    the models the rules leave to the defender, `order` (group numbers, the defender's
    preference; the models' groups are those of 11e 05.03) picks, else the unit's order."""
    alive = state.alive
    score = alive * (1 + 2 * state.wounded + 4 * ~state.character[None, :])
    if precision:
        score = score + alive * state.character[None, :] * 8
        if favoured is not None:  # the CHARACTER the attacker chose, while it lives
            score[:, favoured] = score[:, favoured] + alive[:, favoured] * 16
    if order is not None:
        rank = np.empty(state.groups, dtype=np.int64)
        rank[np.asarray(order)[0] if np.ndim(order) == 2 else np.asarray(order)] = np.arange(
            state.groups
        )
        preference = state.groups - rank[state.group]
        score = score * (state.groups + 1) + alive * preference[None, :]
    return _first_best(score)


def select_model_for_mortal_wound(
    state: UnitState, edition: Edition, precision: bool = False, favoured: int | None = None
):
    """11e 06.02: wounded non-CHARACTER, any non-CHARACTER, wounded CHARACTER, any CHARACTER.
    10e Mortal Wounds: allocated like an attack (a [PRECISION] attack's may go to a CHARACTER)."""
    if edition.allocation == "allocation_groups":
        alive = state.alive
        plain = ~state.character[None, :]
        score = alive * (1 + state.wounded + 2 * plain)
        return _first_best(score)
    return select_model_wounded_first(state, precision, None, favoured if precision else None)


# --- Saving throws --------------------------------------------------------------------------


@dataclass(frozen=True)
class SavePlan:
    ap: int
    roll_modifier: int  # save roll modifiers other than AP and cover, before the cap
    cover: np.ndarray  # per target model: +1 armour save for cover (10e, per model)
    save_improvement: int  # characteristic improvement (Take Cover!)
    invulnerable: int  # granted invulnerable save (NO_SAVE when none)
    reroll: str | None
    cap: int
    sort_lowest_first: bool


def plan_saves(attacker: Attacker, target: TargetUnit, ctx: AttackContext) -> SavePlan:
    weapon = effective_weapon(attacker, target, ctx)
    ap = weapon.ap
    for m in mods.applicable(ctx.modifiers, "ap", weapon, target, ctx):
        ap += -int(m.value) if m.kind == "improve" else int(m.value)
    invulnerable = min(
        [NO_SAVE]
        + [
            int(m.value)
            for m in mods.applicable(ctx.modifiers, "invulnerable", weapon, target, ctx)
        ]
    )
    grants = [
        m.value for m in mods.applicable(ctx.modifiers, "save", weapon, target, ctx, "reroll")
    ]
    return SavePlan(
        ap=min(ap, 0),
        roll_modifier=mods.total(
            mods.applicable(ctx.modifiers, "save", weapon, target, ctx, "add")
        ),
        cover=_save_cover(weapon, target, ctx),
        save_improvement=mods.total(
            mods.applicable(ctx.modifiers, "save", weapon, target, ctx, "improve")
        ),
        invulnerable=invulnerable,
        reroll=best_grant(grants),
        cap=ctx.edition.save_improvement_cap,
        sort_lowest_first=ctx.edition.allocation == "allocation_groups",
    )


def _save_cover(weapon, target: TargetUnit, ctx: AttackContext) -> np.ndarray:
    """Which target models add 1 to their armour saves for cover (10e Benefit of Cover): all of
    them when the unit has cover, else those with cover of their own (`ctx.cover_models`, where
    the edition's cover is per model), unless the attack cannot benefit from cover at all."""
    models = len(target.models)
    if ctx.edition.cover != "improve_armour_save":
        return np.zeros(models, dtype=bool)
    if has_cover(weapon, target, ctx):
        return np.ones(models, dtype=bool)
    own = ctx.cover_models
    if own is None or len(own) != models or not has_cover(weapon, target, replace(ctx, cover=True)):
        return np.zeros(models, dtype=bool)
    return np.asarray(own, dtype=bool)


def save_passes(
    values: np.ndarray, model: np.ndarray, state: UnitState, plan: SavePlan
) -> np.ndarray:
    """Check Save Roll (11e 05.04; 10e Saving Throw, Invulnerable Saves, Benefit of Cover)."""
    save = np.maximum(state.save[model] - plan.save_improvement, 2)
    invulnerable = np.minimum(state.invulnerable[model], plan.invulnerable)
    cover = plan.cover[model] & ~((save <= 3) & (plan.ap == 0))
    armour_modifier = np.minimum(plan.ap + plan.roll_modifier + cover, plan.cap)
    invulnerable_modifier = min(plan.roll_modifier, plan.cap)
    armour = values + armour_modifier >= save
    invulnerable_pass = values + invulnerable_modifier >= invulnerable
    return (values != 1) & (armour | invulnerable_pass)


@dataclass
class SaveRolls:
    batch: RollBatch
    order: np.ndarray  # allocation order per trial (11e) - unused by 10e allocation
    precision_group: np.ndarray | None
    plan: SavePlan
    record: StepRecord


def save_step(
    dice: DiceSource,
    wounds: WoundOutcome,
    state: UnitState,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
    rerolls: np.ndarray | None = None,
) -> SaveRolls:
    """Allocation Order and Make Save Rolls (11e 05.03): one save roll per wound that goes to a
    save, all at once; 11e then resolves them lowest first (05.04)."""
    weapon = effective_weapon(attacker, target, ctx)
    plan = plan_saves(attacker, target, ctx)
    order = allocation_order(state, ctx)
    precision_group = None
    precise = precision_allocates(weapon, target, ctx)
    if precise and state.character.any():
        character = precision_model(state, ctx)
        precision_group = np.full(len(order), int(state.group[character]), dtype=np.int64)
    batch = RollBatch.roll(dice, mask_of_counts(wounds.to_save))
    if rerolls is None and plan.reroll is None:
        rerolls = np.zeros_like(batch.rolled)
    if rerolls is None:
        model, _ = current_model(state, order, precision_group, precise, ctx)
        passes = save_passes(batch.values, model[:, None], state, plan)
        rerolls = reroll_mask(plan.reroll, batch, passes)
    if rerolls.any():
        batch = batch.reroll(dice, rerolls, section(ctx.edition, "save_roll"))
    if plan.sort_lowest_first and batch.values.size and not batch.rerolled.any():
        ordered = np.sort(np.where(batch.rolled, batch.values, 99), axis=1)
        ordered[ordered == 99] = 0
        batch = RollBatch(ordered, batch.rolled, ordered.copy(), batch.rerolled, batch.sides)
    elif plan.sort_lowest_first and batch.values.size:
        sort_key = np.where(batch.rolled, batch.values, 99)
        index = np.argsort(sort_key, axis=1, kind="stable")
        batch = RollBatch(
            np.take_along_axis(batch.values, index, axis=1),
            np.take_along_axis(batch.rolled, index, axis=1),
            np.take_along_axis(batch.original, index, axis=1),
            np.take_along_axis(batch.rerolled, index, axis=1),
        )
    trials = len(wounds.to_save)
    first_model, _ = current_model(state, order, precision_group, precise, ctx)
    record = StepRecord(
        step="save_roll",
        rule=section(ctx.edition, "save_roll"),
        weapon=weapon.name,
        batch=batch,
        target=np.maximum(state.save[first_model] - plan.save_improvement, 2),
        modifier=plan.ap,
        successes=np.zeros(trials, dtype=np.int64),
        criticals=np.zeros(trials, dtype=np.int64),
        automatic=np.zeros(trials, dtype=np.int64),
        label="Sv",
        extra={"invulnerable": np.minimum(state.invulnerable[first_model], plan.invulnerable)},
        modifiers=[{"applied": f"AP {plan.ap}"}]
        + ([{"applied": _cover_text(plan.cover)}] if plan.cover.any() else []),
    )
    return SaveRolls(batch, order, precision_group, plan, record)


def _cover_text(cover: np.ndarray) -> str:
    if cover.all():
        return "benefit of cover +1"
    return f"benefit of cover +1 for {int(cover.sum())} of {len(cover)} models"


def precision_allocates(weapon: WeaponProfile, target: TargetUnit, ctx: AttackContext) -> bool:
    """The weapon's attacks (not their mortal wounds) may go to a CHARACTER model of the target
    by [PRECISION], if the attacker so chooses: 11e 24.28 "if the target unit contains one or
    more CHARACTER models visible to one or more of the attacking models" (any unit); 10e
    Precision "each time an attack made with this weapon successfully wounds an Attached unit"
    (`Edition.precision_needs_attached_unit`; rulings R-OW-15)."""
    return (
        weapon.has("PRECISION")
        and ctx.precision_on_character
        and (target.attached or not ctx.edition.precision_needs_attached_unit)
    )


def precision_model(state: UnitState, ctx: AttackContext) -> int:
    """The CHARACTER model [PRECISION] goes to: the attacker's choice, else the first one."""
    chosen = ctx.precision_character
    if chosen is not None and 0 <= chosen < len(state.character) and state.character[chosen]:
        return chosen
    return int(np.flatnonzero(state.character)[0])


def current_model(state, order, precision_group, precision, ctx):
    if ctx.edition.allocation == "allocation_groups":
        return select_model_in_groups(state, order, precision_group)
    chosen = order if ctx.allocation_order is not None else None
    precise = precision and ctx.precision_on_character
    favoured = precision_model(state, ctx) if precise and state.character.any() else None
    return select_model_wounded_first(state, precise, chosen, favoured)


# --- Damage ---------------------------------------------------------------------------------


@dataclass
class DamageOutcome:
    unsaved: np.ndarray
    damage: np.ndarray
    models_destroyed: np.ndarray
    mortal_wounds: np.ndarray
    records: list[StepRecord] = field(default_factory=list)


def damage_expression(attacker: Attacker, target: TargetUnit, ctx: AttackContext):
    """The D characteristic for these attacks: `damage/set`, then [MELTA X] at half range (11e
    24.25: add X to D) and `damage/add`. Returns (expression, extra dice expression or None)."""
    weapon = effective_weapon(attacker, target, ctx)
    damage = weapon.damage
    for m in mods.applicable(ctx.modifiers, "damage", weapon, target, ctx, "set"):
        damage = DiceExpression(modifier=int(m.value))
    bonus = mods.total(mods.applicable(ctx.modifiers, "damage", weapon, target, ctx, "add"))
    melta = weapon.ability("MELTA")
    extra = melta.value if (melta is not None and ctx.half_range) else None
    if extra is not None and extra.is_fixed:
        bonus += extra.modifier
        extra = None
    damage = DiceExpression(damage.count, damage.sides, damage.modifier + bonus)
    return damage, extra


def granted_feel_no_pain(
    attacker: Attacker, target: TargetUnit, ctx: AttackContext, mortal: bool = False
) -> int:
    """Feel No Pain given by rules for these attacks (`feel_no_pain/set`, e.g. Hyperstimms; and
    for mortal wounds `feel_no_pain/set_against_mortal_wounds`, e.g. Truesilver Aegis)."""
    weapon = effective_weapon(attacker, target, ctx)
    granted = mods.applicable(ctx.modifiers, "feel_no_pain", weapon, target, ctx, "set")
    if mortal:
        granted += mods.applicable(
            ctx.modifiers, "feel_no_pain", weapon, target, ctx, "set_against_mortal_wounds"
        )
    return min([NO_SAVE] + [int(m.value) for m in granted])


def lose_wounds(
    dice: DiceSource,
    state: UnitState,
    model: np.ndarray,
    amount: np.ndarray,
    active: np.ndarray,
    fnp_counter: np.ndarray,
    granted_fnp: int = NO_SAVE,
) -> np.ndarray:
    """The selected model loses `amount` wounds, one at a time, each saved by Feel No Pain on its
    X+ (11e 24.12); stops when the model is destroyed: the rest is lost. Returns wounds lost."""
    trials = np.arange(len(model))
    fnp = np.minimum(state.feel_no_pain[model], granted_fnp)
    lost_total = np.zeros(len(model), dtype=np.int64)
    if not np.any(active & (fnp < NO_SAVE)):
        left = state.wounds_left[trials, model]
        lost_total = np.where(active, np.minimum(np.maximum(amount, 0), left), 0)
        state.wounds_left[trials, model] = left - lost_total
        return lost_total
    for point in range(int(np.where(active, amount, 0).max(initial=0))):
        need = active & (amount > point) & (state.wounds_left[trials, model] > 0)
        roll_fnp = need & (fnp < NO_SAVE)
        die = roll_where(dice, roll_fnp, 6)
        fnp_counter += roll_fnp
        lost = need & ~(roll_fnp & (die >= fnp))
        state.wounds_left[trials, model] -= lost
        lost_total += lost
    return lost_total


def _inflict_damage(
    dice: DiceSource,
    state: UnitState,
    columns: int,
    select: Callable[[int], tuple[np.ndarray, np.ndarray] | None],
    damage: DiceExpression,
    extra: DiceExpression | None,
    granted_fnp: int,
    damage_dice: DiceSource | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each attack (column) in turn: `select` names the model it goes to and whether it inflicts
    damage (a failed save, a critical wound); D is rolled for it (from `damage_dice` when given:
    the game's damage rolls, which a player may re-roll) and the model loses that many wounds,
    each saved by Feel No Pain. Returns per trial: attacks that inflicted damage, the damage
    rolled, wounds lost and Feel No Pain rolls."""
    trials = state.wounds_left.shape[0]
    inflicting, rolled, dealt, fnp_rolls = (np.zeros(trials, dtype=np.int64) for _ in range(4))
    rolls = dice if damage_dice is None else damage_dice
    for column in range(columns):
        selected = select(column)
        if selected is None:
            continue
        model, active = selected
        amount = roll_expression(rolls, damage, active)
        if extra is not None:
            amount += roll_expression(rolls, extra, active)
        inflicting += active
        rolled += amount
        dealt += lose_wounds(dice, state, model, amount, active, fnp_rolls, granted_fnp)
    return inflicting, rolled, dealt, fnp_rolls


def damage_step(
    dice: DiceSource,
    saves: SaveRolls,
    state: UnitState,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
    damage_dice: DiceSource | None = None,
) -> DamageOutcome:
    """Inflict Damage (11e 05.04; 10e Allocate Attack / Inflict Damage): each save roll in turn
    goes to the selected model; a failed save inflicts D (rolled per attack) on it; once every
    model is destroyed the remaining attacks are lost."""
    weapon = effective_weapon(attacker, target, ctx)
    trials = state.wounds_left.shape[0]
    alive_before = state.alive.sum(axis=1)
    damage, extra = damage_expression(attacker, target, ctx)
    granted_fnp = granted_feel_no_pain(attacker, target, ctx)
    batch = saves.batch
    precise = precision_allocates(weapon, target, ctx)

    def failed_save(column: int) -> tuple[np.ndarray, np.ndarray] | None:
        rolled = batch.rolled[:, column]
        if not rolled.any():
            return None
        model, has_model = current_model(state, saves.order, saves.precision_group, precise, ctx)
        active = rolled & has_model
        return model, active & ~save_passes(batch.values[:, column], model, state, saves.plan)

    unsaved, _, dealt, fnp_rolls = _inflict_damage(
        dice, state, batch.values.shape[1], failed_save, damage, extra, granted_fnp, damage_dice
    )
    record = StepRecord(
        step="damage",
        rule=section(ctx.edition, "damage"),
        weapon=weapon.name,
        batch=RollBatch.none(trials),
        target=None,
        modifier=0,
        successes=dealt,
        criticals=np.zeros(trials, dtype=np.int64),
        automatic=np.zeros(trials, dtype=np.int64),
        label="D",
        extra={
            "unsaved": unsaved,
            "feel_no_pain_rolls": fnp_rolls,
            # [PSYCHIC] (11e 22.03; 10e Psychic Weapons): wounds it causes are psychic attacks.
            "psychic_wounds": dealt if weapon.has("PSYCHIC") else np.zeros_like(dealt),
        },
    )
    saves.record.successes = batch.rolled.sum(axis=1) - unsaved
    return DamageOutcome(
        unsaved,
        dealt,
        alive_before - state.alive.sum(axis=1),
        np.zeros(trials, dtype=np.int64),
        [saves.record, record],
    )


def devastating_wounds_step(
    dice: DiceSource,
    wounds: WoundOutcome,
    state: UnitState,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
    damage_dice: DiceSource | None = None,
) -> DamageOutcome:
    """[DEVASTATING WOUNDS] after all normal damage (11e 24.10: mortal wounds equal to D, at most
    one model per critical wound; 10e: no saving throw, mortal wounds equal to D instead of normal
    damage, the rest lost when the model is destroyed). D is rolled per critical wound."""
    weapon = effective_weapon(attacker, target, ctx)
    trials = state.wounds_left.shape[0]
    alive_before = state.alive.sum(axis=1)
    damage, extra = damage_expression(attacker, target, ctx)
    granted_fnp = granted_feel_no_pain(attacker, target, ctx, mortal=True)
    mask = mask_of_counts(wounds.devastating)
    # Seed 004 Mortal Wounds (10e): "if those mortal wounds are inflicted by an attack that has
    # the [PRECISION] ability, the attacking model's controlling player can allocate those mortal
    # wounds to a CHARACTER model in that unit": printed without 10e Precision's Attached unit.
    precision = weapon.has("PRECISION") and ctx.precision_on_character

    def critical_wound(column: int) -> tuple[np.ndarray, np.ndarray]:
        favoured = precision_model(state, ctx) if precision and state.character.any() else None
        model, has_model = select_model_for_mortal_wound(state, ctx.edition, precision, favoured)
        return model, mask[:, column] & has_model

    _, mortal, dealt, fnp_rolls = _inflict_damage(
        dice, state, mask.shape[1], critical_wound, damage, extra, granted_fnp, damage_dice
    )
    record = StepRecord(
        step="devastating_wound",
        rule=section(ctx.edition, "devastating_wounds"),
        weapon=weapon.name,
        batch=RollBatch.none(trials),
        target=None,
        modifier=0,
        successes=dealt,
        criticals=wounds.devastating,
        automatic=np.zeros(trials, dtype=np.int64),
        label="D",
        extra={"mortal_wounds": mortal, "feel_no_pain_rolls": fnp_rolls},
    )
    return DamageOutcome(
        wounds.devastating, dealt, alive_before - state.alive.sum(axis=1), mortal, [record]
    )


def inflict_mortal_wounds(
    dice: DiceSource, state: UnitState, amount: np.ndarray, edition: Edition
) -> np.ndarray:
    """Mortal wounds one at a time, each to the model 06.02 (11e) or allocation (10e) selects;
    the excess carries to the next model (10e Mortal Wounds). Returns wounds lost per trial."""
    trials = len(amount)
    lost = np.zeros(trials, dtype=np.int64)
    fnp_rolls = np.zeros(trials, dtype=np.int64)
    for index in range(int(amount.max(initial=0))):
        model, has_model = select_model_for_mortal_wound(state, edition)
        active = (amount > index) & has_model
        lost += lose_wounds(dice, state, model, np.ones(trials, dtype=np.int64), active, fnp_rolls)
    return lost


# --- Hazards --------------------------------------------------------------------------------


@dataclass
class HazardOutcome:
    failures: np.ndarray
    mortal_wounds: np.ndarray
    batch: RollBatch
    rule: str


def hazard_step(
    dice: DiceSource,
    hazardous_weapons: int,
    attacking_unit: UnitState,
    all_monster_or_vehicle: bool,
    edition: Edition,
    bearers: np.ndarray | None = None,
) -> HazardOutcome:
    """[HAZARDOUS] after the unit has resolved all its attacks, one roll per [HAZARDOUS] weapon,
    as the damage preview sees it (in a game the owner selects the models: `in_game._hazard`).
    11e 24.15 + 06.03: each roll of 1-`hazard_fail_max` makes the unit suffer
    `hazard_mortal_wounds` (3 if every model is MONSTER/VEHICLE), selected per 06.02.
    10e Hazardous (`mortal_wounds_to_one_model`), each failed test one at a time: a model
    equipped with a Hazardous weapon (`bearers`, per model; default every model) that has lost
    wounds, else a non-CHARACTER one, else a CHARACTER one, suffers the 3 mortal wounds, the rest
    lost when it is destroyed; with no such model left, nothing (rulings R-ENG-17)."""
    trials = attacking_unit.wounds_left.shape[0]
    batch = RollBatch.roll(dice, np.ones((trials, hazardous_weapons), dtype=bool))
    failed = batch.rolled & (batch.values <= edition.hazard_fail_max)
    per_failure = (
        edition.hazard_mortal_wounds_monster_vehicle
        if all_monster_or_vehicle
        else edition.hazard_mortal_wounds
    )
    failures = failed.sum(axis=1)
    if edition.hazard_consequence == "mortal_wounds_to_unit":
        inflict_mortal_wounds(dice, attacking_unit, failures * per_failure, edition)
        return HazardOutcome(
            failures, failures * per_failure, batch, section(edition, "hazard_roll")
        )
    fnp_rolls = np.zeros(trials, dtype=np.int64)
    equipped = np.ones(len(attacking_unit.wounds), dtype=bool) if bearers is None else bearers
    inflicted = np.zeros(trials, dtype=np.int64)
    for column in range(hazardous_weapons):
        model, has_model = select_hazardous_bearer(attacking_unit, equipped)
        active = failed[:, column] & has_model
        amount = np.full(trials, per_failure, dtype=np.int64)
        lose_wounds(dice, attacking_unit, model, amount, active, fnp_rolls)
        inflicted += active * per_failure
    return HazardOutcome(failures, inflicted, batch, section(edition, "hazard_roll"))


def hazardous_bearer_candidates(state: UnitState, equipped: np.ndarray) -> np.ndarray:
    """10e Hazardous, for a failed test, the models the player may select (trials, models): "If
    possible, select one model in that unit that has lost one or more wounds and is equipped
    with one or more Hazardous weapons. Otherwise, if possible, select one model in that unit
    (excluding CHARACTER models) equipped with" one, "Otherwise, select one CHARACTER model ...
    equipped with" one. A wounded CHARACTER is among the first (the first line excludes none)."""
    candidates = state.alive & equipped[None, :]
    tier = candidates * np.where(state.wounded, 3, np.where(state.character[None, :], 1, 2))
    best = tier.max(axis=1, keepdims=True)
    return candidates & (tier == best) & (best > 0)


def select_hazardous_bearer(
    state: UnitState, equipped: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The model a failed 10e Hazardous test goes to when nobody is asked (the preview): among
    `hazardous_bearer_candidates`, a non-CHARACTER one first, then the first in the unit's order.
    Returns (model index, a model was selected) per trial."""
    candidates = hazardous_bearer_candidates(state, equipped)
    score = candidates * (1 + 2 * ~state.character[None, :])
    return _first_best(score)
