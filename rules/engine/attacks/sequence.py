"""The attack sequence: gather attack dice, hit rolls, wound rolls (then `allocation`: saves,
damage, mortal wounds), written once for both editions and vectorised over a "trials" axis.

Every step takes a dice source (`rules.engine.attack_dice`) and arrays whose first axis is the
trial: the damage preview runs 100,000 trials at once with numpy dice, the game runs one trial with
`GameDice`. Edition differences are `Edition` parameters (cover, modifier caps, lethal hits,
devastating wounds, allocation, heavy, hazards), never a test of the edition's name.

Sources: 11e 05 Attack Sequence (05.01 Hit Rolls, 05.02 Wound Rolls, 05.02.01 Multiple Toughness),
01.05.01 Automatically Successful, 04 Gather Attack Dice, 24.xx weapon abilities (seeds 000/003
and `shared/rules/reference`); 10e Hit Roll, Wound Roll, Re-rolls and the weapon abilities quoted
in seed 004; `shared/rules/CATALOGUE.md` 2.8-3 and DIFF-24..37; rulings in docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from rules.engine.attacks import modifiers as mods
from rules.engine.attacks.dice import DiceSource, mask_of_counts, roll_expression
from rules.engine.attacks.profiles import AttackContext, Attacker, TargetUnit, WeaponProfile
from rules.engine.attacks.rolls import RollBatch, StepRecord, best_grant, reroll_mask
from rules.engine.core.citations import section
from rules.engine.core.notation import DiceExpression
from rules.engine.core.refusals import Refusal


def effective_weapon(attacker: Attacker, target: TargetUnit, ctx: AttackContext) -> WeaponProfile:
    """The weapon with the abilities rules grant it for this attack (modifier `ability/grant`)."""
    weapon = attacker.weapon
    return weapon.with_abilities(mods.granted_abilities(ctx.modifiers, weapon, target, ctx))


# --- Select weapons / select targets: eligibility -------------------------------------------


def check_weapon_may_attack(attacker: Attacker, target: TargetUnit, ctx: AttackContext) -> None:
    """Refuse a weapon the rules do not let this unit use against this target.

    - [ASSAULT] (10e Assault): after an advance, a unit whose edition forbids shooting after
      advancing (`advance_forbids_shooting`) may shoot only with [ASSAULT] weapons.
    - [PISTOL] / [CLOSE-QUARTERS] (11e 24.07, 24.27, 10.06; 10e Pistols, Big Guns Never Tire):
      models of an engaged unit that are not MONSTER/VEHICLE shoot only [PISTOL]/[CLOSE-QUARTERS]
      weapons, only at units it is engaged with.
    - [BLAST] (11e 10.06; 10e Blast): never against a unit engaged with the attacker's unit, nor,
      where `blast_forbidden_against_engaged`, against a unit engaged with any unit of its army.
    - Engaged targets (11e 04.02 "each target must be unengaged", 17.03; 10e Big Guns Never
      Tire): a unit engaged with the attacker's army can be shot only by a unit engaged with it
      (close-quarters shooting) or when it is a MONSTER/VEHICLE (-1 to hit, `plan_hits`).
    """
    weapon = attacker.weapon
    edition = ctx.edition
    if weapon.kind != "ranged":
        return
    # [ASSAULT] as the weapon has it for these attacks, granted abilities included (Death from
    # the Warp; issue 14 defect 11).
    assault = effective_weapon(attacker, target, ctx).has("ASSAULT")
    if ctx.advanced and edition.advance_forbids_shooting and not assault:
        raise Refusal(
            "advanced_without_assault",
            section(edition, "assault"),
            f"{weapon.name} cannot shoot: the unit advanced this turn and it is not an "
            "[ASSAULT] weapon.",
        )
    close_quarters = weapon.has("PISTOL") or weapon.has("CLOSE-QUARTERS")
    if ctx.engaged:
        # MONSTER/VEHICLE models may also shoot other units, at -1 to hit (11e 10.06; 10e Big
        # Guns Never Tire); other models only at the units they are engaged with.
        if not ctx.target_engaged_with_attacker and not attacker.monster_or_vehicle:
            raise Refusal(
                "engaged_target_only",
                section(edition, "close_quarters"),
                "An engaged unit can only shoot at enemy units it is engaged with.",
            )
        if not close_quarters and not attacker.monster_or_vehicle:
            raise Refusal(
                "close_quarters_weapon_required",
                section(edition, "pistol"),
                f"{weapon.name} is not a [PISTOL] or [CLOSE-QUARTERS] weapon, so it cannot shoot "
                "while the unit is engaged.",
            )
    if weapon.has("BLAST") and (
        ctx.target_engaged_with_attacker
        or (edition.blast_forbidden_against_engaged and ctx.target_engaged_with_attacker_army)
    ):
        raise Refusal(
            "blast_against_engaged",
            section(edition, "blast"),
            f"{weapon.name} is a [BLAST] weapon and cannot target a unit engaged with "
            + ("your army." if edition.blast_forbidden_against_engaged else "your unit."),
        )
    if (
        ctx.target_engaged_with_attacker_army
        and not (ctx.engaged and ctx.target_engaged_with_attacker)
        and not big_target(target)
    ):
        raise Refusal(
            "target_engaged",
            section(edition, "select_targets"),
            "That unit is engaged with your army: only a unit engaged with it (close-quarters "
            "shooting) can shoot it, unless it is a MONSTER or VEHICLE.",
        )


def weapon_check_reads_modifiers(ctx: AttackContext) -> bool:
    """Whether `check_weapon_may_attack` reads the attacks' modifiers (an ability a rule grants:
    [ASSAULT] after an advance); a caller may leave them out of the context where it does not."""
    return ctx.advanced and ctx.edition.advance_forbids_shooting


def big_target(target: TargetUnit) -> bool:
    return target.has_keyword("MONSTER") or target.has_keyword("VEHICLE")


def check_ranged_selection(chosen: list[WeaponProfile], monster_or_vehicle: bool) -> None:
    """11e 24.07 / 24.27 (10e Pistols): outside close-quarters shooting, a model that is not a
    MONSTER/VEHICLE shoots either its [CLOSE-QUARTERS]/[PISTOL] weapons or its other ranged
    weapons, not both."""
    close = [w for w in chosen if w.has("CLOSE-QUARTERS") or w.has("PISTOL")]
    if close and len(close) < len(chosen) and not monster_or_vehicle:
        raise Refusal(
            "close_quarters_or_other_weapons",
            "24.07",
            "A model shoots either its [PISTOL]/[CLOSE-QUARTERS] weapons or its other ranged "
            "weapons, not both.",
        )


def check_melee_selection(weapons: list[WeaponProfile], chosen: list[WeaponProfile]) -> None:
    """[EXTRA ATTACKS] (11e 24.11, AMB-40): a model fights with one melee weapon of its choice
    plus all of its [EXTRA ATTACKS] weapons."""
    extra = [weapon for weapon in weapons if weapon.has("EXTRA ATTACKS")]
    missing = [weapon.name for weapon in extra if weapon not in chosen]
    others = [weapon for weapon in chosen if not weapon.has("EXTRA ATTACKS")]
    if missing or len(others) > 1:
        raise Refusal(
            "extra_attacks_selection",
            "24.11",
            "A model fights with one melee weapon plus every [EXTRA ATTACKS] weapon it has"
            + (f"; missing: {', '.join(missing)}." if missing else "."),
        )


# --- Gather attack dice ---------------------------------------------------------------------


def gather_attack_dice(
    dice: DiceSource, trials: int, attacker: Attacker, target: TargetUnit, ctx: AttackContext
) -> tuple[np.ndarray, StepRecord]:
    """Number of attacks per trial: A per model (rolled per model when random), plus
    [RAPID FIRE X] at half range (11e 24.30; 10e Rapid Fire), plus [BLAST] / [BLAST X] per five
    models in the target when it was selected (11e 24.05; 10e Blast), plus `attacks/add`."""
    weapon = effective_weapon(attacker, target, ctx)
    models = np.ones((trials, attacker.models), dtype=bool)
    per_model = roll_expression(dice, weapon.attacks, models)
    rolled = RollBatch.none(trials)
    rapid_fire = weapon.ability("RAPID FIRE")
    if rapid_fire is not None and ctx.half_range:
        per_model += roll_expression(dice, cast(DiceExpression, rapid_fire.value), models)
    blast = weapon.ability("BLAST")
    if blast is not None:
        per_five = blast.value.modifier if blast.value is not None else 1
        per_model += per_five * (len(target.models) // 5)
    bonus = mods.total(mods.applicable(ctx.modifiers, "attacks", weapon, target, ctx, "add"))
    per_model = np.maximum(per_model + bonus, 0)
    counts = per_model.sum(axis=1)
    record = StepRecord(
        step="attack",
        rule=section(ctx.edition, "attacks"),
        weapon=weapon.name,
        batch=rolled,
        target=None,
        modifier=0,
        successes=counts,
        criticals=np.zeros(trials, dtype=np.int64),
        automatic=np.zeros(trials, dtype=np.int64),
        label="A",
    )
    return counts, record


# --- Hit rolls ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HitPlan:
    automatic: bool
    skill: int
    modifier: int
    critical: int
    reroll: str | None
    applied: tuple[str, ...]
    fail_max: int = 1  # an unmodified result up to this fails (1; 11e indirect fire 5 or 3)


def plan_hits(attacker: Attacker, target: TargetUnit, ctx: AttackContext) -> HitPlan:
    """The hit roll's target number, modifier and critical threshold for one weapon.

    - BS/WS is a target number; `skill` modifiers and 11e cover change the characteristic
      (13.08: worsen BS by 1 unless [IGNORES COVER], 24.18), clamped to 2+..6+ (AMB-06).
    - Roll modifiers are summed and capped at +-`hit_modifier_cap` (10e Hit Roll; AMB-06):
      [HEAVY] (11e 24.16 when braced; 10e Heavy when stationary), close-quarters shooting by a
      MONSTER/VEHICLE (11e 10.06: -1 unless a [CLOSE-QUARTERS] weapon at an engaged unit), a
      ranged attack at an engaged MONSTER/VEHICLE (11e 17.03; 10e Big Guns Never Tire: -1
      unless a [CLOSE-QUARTERS]/[PISTOL] weapon of a unit engaged with it), and `hit/add`
      modifiers.
    - [TORRENT] (11e 24.37, 01.05.01): automatic hits (also when snap shooting: no roll is
      made, rulings R-OW-04).
    - `hit/unmodified_only` (snap shooting): only that unmodified result hits; `hit/no_reroll`.
    """
    weapon = effective_weapon(attacker, target, ctx)
    edition = ctx.edition
    applied: list[str] = []
    if weapon.has("TORRENT"):
        return HitPlan(True, 0, 0, 7, None, ("[TORRENT]",))
    skill = int(weapon.skill or 0)
    for modifier in mods.applicable(ctx.modifiers, "skill", weapon, target, ctx):
        skill += -int(modifier.value) if modifier.kind == "improve" else int(modifier.value)
        applied.append(f"{modifier.source or 'skill'} {modifier.kind} {modifier.value}")
    if has_cover(weapon, target, ctx) and edition.cover == "worsen_ballistic_skill":
        skill += 1
        applied.append("benefit of cover: BS worsened by 1")
    skill = max(2, min(6, skill))
    roll_modifier = 0
    if weapon.has("HEAVY") and weapon.kind == "ranged" and heavy_applies(ctx):
        roll_modifier += 1
        applied.append("[HEAVY] +1")
    if (
        ctx.engaged
        and weapon.kind == "ranged"
        and attacker.monster_or_vehicle
        and not (
            (weapon.has("CLOSE-QUARTERS") or weapon.has("PISTOL"))
            and ctx.target_engaged_with_attacker
        )
    ):
        roll_modifier -= 1
        applied.append("close-quarters shooting -1")
    if (
        weapon.kind == "ranged"
        and ctx.target_engaged_with_attacker_army
        and big_target(target)
        and not (
            (weapon.has("CLOSE-QUARTERS") or weapon.has("PISTOL"))
            and ctx.target_engaged_with_attacker
        )
    ):
        roll_modifier -= 1
        applied.append("engaged MONSTER/VEHICLE target -1")
    adds = mods.applicable(ctx.modifiers, "hit", weapon, target, ctx, "add")
    roll_modifier += mods.total(adds)
    applied.extend(f"{m.source or 'hit'} {int(m.value):+d}" for m in adds)
    critical = min(
        [6]
        + [
            int(m.value)
            for m in mods.applicable(ctx.modifiers, "hit", weapon, target, ctx, "critical")
        ]
    )
    grants = [m.value for m in mods.applicable(ctx.modifiers, "hit", weapon, target, ctx, "reroll")]
    fail_max = 1
    if ctx.indirect and weapon.has("INDIRECT FIRE"):
        if edition.indirect_fire == "minus_one_to_hit":
            roll_modifier -= 1
            applied.append("[INDIRECT FIRE] -1")
        else:
            fail_max = 3 if ctx.remained_stationary and ctx.indirect_spotted else 5
            grants = []
            applied.append(f"[INDIRECT FIRE]: unmodified 1-{fail_max} fails, no re-rolls")
    if mods.applicable(ctx.modifiers, "hit", weapon, target, ctx, "no_reroll"):
        grants = []
        applied.append("hit rolls cannot be re-rolled")
    only = mods.applicable(ctx.modifiers, "hit", weapon, target, ctx, "unmodified_only")
    if only:
        # Snap shooting: only that unmodified result hits, whatever the skill and the modifiers;
        # a critical hit still needs a hit (a "critical on 5+" 5 misses).
        skill = max(int(m.value) for m in only)
        roll_modifier = 0
        critical = max(critical, skill)
        applied.append(f"{only[0].source or 'snap shooting'}: hits only on an unmodified {skill}")
    return HitPlan(
        False,
        skill,
        mods.capped(roll_modifier, edition.hit_modifier_cap),
        critical,
        best_grant(grants),
        tuple(applied),
        fail_max,
    )


def heavy_applies(ctx: AttackContext) -> bool:
    """[HEAVY]: 11e 24.16 (in your Shooting phase, unengaged, not set up this turn, no model
    moved more than 3"); 10e Heavy (the unit Remained Stationary this turn)."""
    if ctx.edition.heavy_condition == "remained_stationary":
        return ctx.remained_stationary
    return (
        ctx.shooting_phase
        and not ctx.engaged
        and not ctx.set_up_this_turn
        and (ctx.remained_stationary or not ctx.moved_more_than_3)
    )


def has_cover(weapon: WeaponProfile, target: TargetUnit, ctx: AttackContext) -> bool:
    """Benefit of cover against this attack: ranged only, never with [IGNORES COVER] (24.18)."""
    if weapon.kind != "ranged" or weapon.has("IGNORES COVER"):
        return False
    if mods.applicable(ctx.modifiers, "cover", weapon, target, ctx, "deny"):
        return False
    return ctx.cover or bool(mods.applicable(ctx.modifiers, "cover", weapon, target, ctx, "grant"))


def hit_success(values: np.ndarray, plan: HitPlan) -> tuple[np.ndarray, np.ndarray]:
    """11e 05.01 / 10e Hit Roll: unmodified 1 fails (11e 10.07 indirect fire: 1-5 or 1-3);
    unmodified critical value hits critically; otherwise roll + modifier >= BS/WS hits."""
    critical = (values >= plan.critical) & (values > plan.fail_max)
    hit = (values > plan.fail_max) & (critical | (values + plan.modifier >= plan.skill))
    return hit, critical


@dataclass
class HitOutcome:
    to_wound: np.ndarray  # hits that need a wound roll
    automatic_wounds: np.ndarray  # [LETHAL HITS] critical hits that wound automatically
    hits: np.ndarray  # all hits, sustained extras included
    critical_hits: np.ndarray
    record: StepRecord | None


def roll_hits(dice: DiceSource, counts: np.ndarray, plan: HitPlan) -> RollBatch:
    if plan.automatic:
        return RollBatch.none(len(counts))
    return RollBatch.roll(dice, mask_of_counts(counts))


def automatic_hit_rerolls(batch: RollBatch, plan: HitPlan) -> np.ndarray:
    hit, _ = hit_success(batch.values, plan)
    return reroll_mask(plan.reroll, batch, hit)


def resolve_hits(
    dice: DiceSource,
    counts: np.ndarray,
    batch: RollBatch,
    plan: HitPlan,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
) -> HitOutcome:
    """Count hits and criticals, then [SUSTAINED HITS X] (11e 24.36: X more hits per critical
    hit, X rolled per critical when random) and [LETHAL HITS] (11e 24.23: a critical hit may wound
    automatically, optional where `lethal_hits_optional`; 10e: always)."""
    weapon = effective_weapon(attacker, target, ctx)
    trials = len(counts)
    if plan.automatic:
        hits = counts.copy()
        criticals = np.zeros(trials, dtype=np.int64)
        automatic = counts.copy()
    else:
        hit, critical = hit_success(batch.values, plan)
        hits = (hit & batch.rolled).sum(axis=1)
        criticals = (critical & batch.rolled).sum(axis=1)
        automatic = np.zeros(trials, dtype=np.int64)
    sustained = weapon.ability("SUSTAINED HITS")
    extra_hits = np.zeros(trials, dtype=np.int64)
    if sustained is not None and criticals.any():
        sustained_dice = cast(DiceExpression, sustained.value)
        extra_hits = roll_expression(dice, sustained_dice, mask_of_counts(criticals)).sum(axis=1)
    lethal = weapon.has("LETHAL HITS") and (
        ctx.lethal_hits_auto_wound or not ctx.edition.lethal_hits_optional
    )
    automatic_wounds = criticals.copy() if lethal else np.zeros(trials, dtype=np.int64)
    total_hits = hits + extra_hits
    record = StepRecord(
        step="hit_roll",
        rule=section(ctx.edition, "automatic" if plan.automatic else "hit_roll"),
        weapon=weapon.name,
        batch=batch,
        target=None if plan.automatic else plan.skill,
        modifier=plan.modifier,
        successes=total_hits,
        criticals=criticals,
        automatic=automatic,
        label="WS" if weapon.kind == "melee" else "BS",
        modifiers=[{"applied": text} for text in plan.applied],
        extra={"sustained_hits": extra_hits, "lethal_hits": automatic_wounds},
    )
    return HitOutcome(
        total_hits - automatic_wounds, automatic_wounds, total_hits, criticals, record
    )


def hit_step(
    dice: DiceSource,
    counts: np.ndarray,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
    rerolls: np.ndarray | None = None,
) -> HitOutcome:
    """Roll, re-roll (the player's `rerolls` mask, else the grants' automatic choice), resolve."""
    plan = plan_hits(attacker, target, ctx)
    batch = roll_hits(dice, counts, plan)
    mask = automatic_hit_rerolls(batch, plan) if rerolls is None else rerolls
    if mask.any():
        batch = batch.reroll(dice, mask, section(ctx.edition, "hit_roll"))
    return resolve_hits(dice, counts, batch, plan, attacker, target, ctx)


# --- Wound rolls ----------------------------------------------------------------------------


def target_toughness(target: TargetUnit, alive: np.ndarray, ctx: AttackContext) -> np.ndarray:
    """11e 05.02.01 Multiple Toughness: an attached unit uses the highest T among its bodyguard
    models on the battlefield; any other unit the highest T among its models (both editions,
    see docs/rulings.md). Plus `toughness/add` modifiers. One value per trial."""
    toughness = np.array([model.toughness for model in target.models], dtype=np.int64)
    bodyguard = np.array([model.bodyguard for model in target.models], dtype=bool)
    use = alive & bodyguard[None, :] if target.attached else alive
    use = np.where(use.any(axis=1, keepdims=True), use, alive)
    best = np.where(use, toughness[None, :], 0).max(axis=1)
    bonus = sum(int(m.value) for m in ctx.modifiers if m.step == "toughness" and m.kind == "add")
    return best + bonus


def required_wound_roll(strength: int | np.ndarray, toughness: np.ndarray) -> np.ndarray:
    """The S-versus-T table (AMB-05; 11e 05.02; 10e Wound Roll)."""
    strength = np.asarray(strength)
    return np.select(
        [
            strength >= 2 * toughness,
            strength > toughness,
            strength == toughness,
            2 * strength <= toughness,
        ],
        [2, 3, 4, 6],
        default=5,
    )


@dataclass(frozen=True)
class WoundPlan:
    required: np.ndarray  # per trial
    modifier: int
    critical: int
    reroll: str | None
    applied: tuple[str, ...]
    # `wound/critical_on_success`: every successful wound roll is a critical wound
    every_wound_critical: bool = False


def plan_wounds(
    attacker: Attacker, target: TargetUnit, alive: np.ndarray, ctx: AttackContext
) -> WoundPlan:
    """Wound roll target from S vs T; [LANCE] (11e 24.21: +1 if the unit charged this turn) and
    `wound/add` modifiers capped at +-`wound_modifier_cap`; [ANTI-X Y+] (11e 24.03: an unmodified
    Y+ against a unit with keyword X is a critical wound); [TWIN-LINKED] (10e: re-roll the wound
    roll)."""
    weapon = effective_weapon(attacker, target, ctx)
    applied: list[str] = []
    strength = weapon.strength + mods.total(
        mods.applicable(ctx.modifiers, "strength", weapon, target, ctx, "add")
    )
    required = required_wound_roll(strength, target_toughness(target, alive, ctx))
    modifier = 0
    if weapon.has("LANCE") and ctx.charged:
        modifier += 1
        applied.append("[LANCE] +1")
    adds = mods.applicable(ctx.modifiers, "wound", weapon, target, ctx, "add")
    modifier += mods.total(adds)
    applied.extend(f"{m.source or 'wound'} {int(m.value):+d}" for m in adds)
    critical = 6
    for anti in weapon.anti():
        if target.has_keyword(anti.keyword or ""):
            critical = min(critical, int(anti.threshold or 6))
            applied.append(f"[{anti}]")
    for m in mods.applicable(ctx.modifiers, "wound", weapon, target, ctx, "critical"):
        critical = min(critical, int(m.value))
    grants = [
        m.value for m in mods.applicable(ctx.modifiers, "wound", weapon, target, ctx, "reroll")
    ]
    if weapon.has("TWIN-LINKED"):
        grants.append("any")
    every = mods.applicable(ctx.modifiers, "wound", weapon, target, ctx, "critical_on_success")
    applied.extend(f"{m.source}: every wound critical" for m in every)
    return WoundPlan(
        required,
        mods.capped(modifier, ctx.edition.wound_modifier_cap),
        critical,
        best_grant(grants),
        tuple(applied),
        bool(every),
    )


def wound_success(values: np.ndarray, plan: WoundPlan) -> tuple[np.ndarray, np.ndarray]:
    """11e 05.02 / 10e Wound Roll: unmodified 1 fails; unmodified critical value (6, or Y+ with
    [ANTI]) wounds critically; otherwise roll + modifier >= the required result wounds."""
    critical = (values >= plan.critical) & (values != 1)
    wound = (values != 1) & (critical | (values + plan.modifier >= plan.required[:, None]))
    if plan.every_wound_critical:
        critical = wound
    return wound, critical


@dataclass
class WoundOutcome:
    to_save: np.ndarray  # wounds that go to allocation and saving throws
    devastating: np.ndarray  # critical wounds of a [DEVASTATING WOUNDS] weapon
    wounds: np.ndarray
    critical_wounds: np.ndarray
    record: StepRecord | None


def roll_wounds(dice: DiceSource, hits: HitOutcome) -> RollBatch:
    return RollBatch.roll(dice, mask_of_counts(hits.to_wound))


def resolve_wounds(
    hits: HitOutcome,
    batch: RollBatch,
    plan: WoundPlan,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
) -> WoundOutcome:
    """Count wounds; [DEVASTATING WOUNDS] critical wounds leave the normal sequence (11e 24.10:
    the sequence ends, mortal wounds follow; 10e: no saving throw, resolved after the others)."""
    weapon = effective_weapon(attacker, target, ctx)
    wound, critical = wound_success(batch.values, plan)
    rolled_wounds = (wound & batch.rolled).sum(axis=1)
    criticals = (critical & batch.rolled).sum(axis=1)
    devastating = criticals if weapon.has("DEVASTATING WOUNDS") else np.zeros_like(criticals)
    wounds = rolled_wounds + hits.automatic_wounds
    record = StepRecord(
        step="wound_roll",
        rule=section(ctx.edition, "wound_roll"),
        weapon=weapon.name,
        batch=batch,
        target=plan.required,
        modifier=plan.modifier,
        successes=wounds,
        criticals=criticals,
        automatic=hits.automatic_wounds,
        label="needing",
        modifiers=[{"applied": text} for text in plan.applied],
        extra={"devastating_wounds": devastating},
    )
    return WoundOutcome(wounds - devastating, devastating, wounds, criticals, record)


def wound_step(
    dice: DiceSource,
    hits: HitOutcome,
    attacker: Attacker,
    target: TargetUnit,
    alive: np.ndarray,
    ctx: AttackContext,
    rerolls: np.ndarray | None = None,
) -> WoundOutcome:
    plan = plan_wounds(attacker, target, alive, ctx)
    batch = roll_wounds(dice, hits)
    if rerolls is None:
        wound, _ = wound_success(batch.values, plan)
        rerolls = reroll_mask(plan.reroll, batch, wound)
    if rerolls.any():
        batch = batch.reroll(dice, rerolls, section(ctx.edition, "wound_roll"))
    return resolve_wounds(hits, batch, plan, attacker, target, ctx)
