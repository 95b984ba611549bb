"""Select Targets for ranged weapons (11e 04.02, 06.01, 13.09, 24.24; 10e Select Targets,
Determining Visibility): which ranged weapons a unit's models carry, and for each weapon which
enemy units its models can see and have in range, with the facts its attacks need (half range,
cover, [INDIRECT FIRE]). The weapon-level rules ([ASSAULT], [PISTOL]/[CLOSE-QUARTERS], [BLAST],
engaged targets) are `attack_sequence.check_weapon_may_attack`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rules.engine.army.weapons import model_weapons, weapon_of
from rules.engine.attacks.in_game import AttackGroup
from rules.engine.attacks.inputs import attack_context, has_stealth
from rules.engine.attacks.profiles import Attacker, AttackInputError, TargetUnit, WeaponProfile
from rules.engine.attacks.sequence import check_weapon_may_attack, weapon_check_reads_modifiers
from rules.engine.battlefield.board import (
    BOUND_MARGIN,
    EPSILON,
    Battlefield,
    ModelSet,
    Placement,
    pairwise_distances,
    placements_from_units,
)
from rules.engine.battlefield.placement import (
    Shape,
    battlefield_of,
    edition_of,
    measured_here,
    placements_by_unit,
    position_settled,
    shape_of,
    unit_shape,
)
from rules.engine.battlefield.state_distances import model_distance, unit_distance
from rules.engine.battlefield.visibility import (
    Cover,
    UnitVisibility,
    benefit_of_cover,
    models_in_areas,
    unit_visibility,
)
from rules.engine.core.citations import cite
from rules.engine.core.editions import Edition
from rules.engine.core.effects import effects_on_unit
from rules.engine.core.facts import has_flag
from rules.engine.core.hooks import implements
from rules.engine.core.kept import Kept
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import IGNORES_LONE_OPERATIVE
from rules.engine.core.state import State, alive_models, on_battlefield, unit_keywords

LONE_OPERATIVE_RANGE = 12.0  # 11e 24.24; 10e Lone Operative: "within 12""


def targetable_within(state: State, target: Unit) -> float | None:
    """The distance within which a model must be to select the unit as the target of a ranged
    attack (the shortest of the effects on it), or None when nothing restricts it."""
    reaches = [
        effect["modifier"]["ranged_targetable_within"]
        for effect in effects_on_unit(state, target["id"])
        if effect["modifier"].get("ranged_targetable_within") is not None
    ]
    return min(reaches, default=None)


def may_be_targeted(state: State, shooter: Unit, target: Unit) -> bool:
    """One or more of the shooting unit's models is within reach of the target unit."""
    reach = targetable_within(state, target)
    return reach is None or unit_distance(shooter, target) <= reach


def close_quarters(weapon: dict[str, Any]) -> bool:
    abilities = " ".join(weapon.get("abilities", [])).lower()
    return "pistol" in abilities or "close-quarters" in abilities


def carried_ranged(state: State, unit: Unit) -> dict[str, tuple[dict, list[str]]]:
    """Each ranged weapon profile the unit's living models carry: name -> (profile, model ids)."""
    found: dict[str, tuple[dict, list[str]]] = {}
    for model in alive_models(unit):
        for weapon in model_weapons(state, unit, model, "ranged"):
            found.setdefault(weapon["name"], (weapon, []))[1].append(model["id"])
    return found


def unit_placements(state: State, unit: Unit) -> list[Placement]:
    """The placements of the unit's living models on the battlefield (from the table when `unit`
    is the state's own record, built once per position)."""
    if state["units"].get(unit["id"]) is unit:
        return list(placements_by_unit(state).get(unit["id"], ()))
    return placements_from_units({unit["id"]: unit})


def _model_set(state: State, unit: Unit, placements: list[Placement]) -> ModelSet:
    """The unit's `placements` as a ModelSet, built once per position for the state's own unit
    (a unit's target checks ask it for every weapon and every target)."""
    if state["units"].get(unit["id"]) is not unit:
        return ModelSet(placements)
    measured = measured_here(state)
    found = measured.get(("model_set", unit["id"]))
    if found is None:
        found = measured[("model_set", unit["id"])] = ModelSet(placements)
    return found


def _in_areas(state: State, unit: Unit, placements: list[Placement]) -> np.ndarray:
    """Which of the unit's `placements` are within a terrain area (`models_in_areas`), kept with
    the position for the state's own unit (each of its target checks asks it)."""
    if state["units"].get(unit["id"]) is not unit:
        return models_in_areas(battlefield_of(state), placements)
    measured = measured_here(state)
    found = measured.get(("in_areas", unit["id"]))
    if found is None:
        found = measured[("in_areas", unit["id"])] = models_in_areas(
            battlefield_of(state), placements
        )
    return found


@dataclass
class TargetCheck:
    """Whether one weapon may shoot at one unit, and the facts its attacks need."""

    refusal: Refusal | None
    shooters: list[str]  # carrying models that see the target and have it in range
    half_range: list[str]  # of those, the models within half range
    cover: bool
    indirect: bool = False  # an [INDIRECT FIRE] weapon at a target none of them sees
    spotted: bool = False  # ... that a friendly unit sees (11e 10.07)
    cover_models: tuple[str, ...] = ()  # 10e per-model cover short of the whole unit (R-WG-07)


@dataclass
class Asked:
    """What a caller checking several weapons and targets of one unit while nothing moves reads
    once: the engagement of each unit, and per target the attacks' context and keywords (the
    unit's flags, engagement and the modifiers of the rules, the same for each weapon) and
    whether it has Stealth."""

    engagement: dict[str, list[str]] = field(default_factory=dict)
    targets: dict[str, tuple[Any, frozenset[str]]] = field(default_factory=dict)
    keywords: frozenset[str] | None = None  # the shooting unit's
    stealth: dict[str, bool] = field(default_factory=dict)  # each target's (`has_stealth`)


# --- what is measured between two units, kept while both stand where they stand --------------


def _shape(state: State, unit: Unit, placements: list[Placement]) -> Shape:
    """The unit's shape (`placement.Shape`), kept with the position for the state's own unit."""
    if state["units"].get(unit["id"]) is not unit:
        return shape_of(placements)
    return unit_shape(state, unit["id"])


@dataclass
class _Pair:
    """What was measured between a unit's models and an enemy unit's (`_pair`): pure functions
    of the two shapes, the battlefield and the edition, each keyed by the rest of what it
    reads (the weapon's range, the models that carry it, the target's reach and flags)."""

    battlefield: Battlefield  # kept alive with the answers: their ids in the key stay theirs
    edition: Edition
    bounds: dict[str, float] | None = None
    closest: float | None = None
    reaches: dict[tuple, tuple[list[int], np.ndarray, np.ndarray]] = field(default_factory=dict)
    sights: dict[tuple, UnitVisibility] = field(default_factory=dict)
    shots: dict[tuple, tuple[list[str], list[str], bool, Placement | None]] = field(
        default_factory=dict
    )
    covers: dict[tuple, Cover] = field(default_factory=dict)


# The pairs measured lately, by the shapes of both units: after one unit shoots (its target
# wounded or destroyed) or moves, the position is new, but every pair of units that did not move
# or lose a model measures the same, so the Shooting phase's targets of the other units are read
# here instead of measured again. The least recently used pair goes first; two of the server's
# worker threads that miss one pair at once are given the same entry (`Kept`).
_PAIRS: Kept[tuple, _Pair] = Kept(8192)


def _pair(
    state: State, unit: Unit, everyone: list[Placement], target: Unit, theirs: list[Placement]
) -> _Pair:
    """The pair of the two units where they stand, found once per position for the state's own
    units (each weapon of a list asks it)."""
    units = state["units"]
    own = units.get(unit["id"]) is unit and units.get(target["id"]) is target
    if own:
        measured = measured_here(state)
        found = measured.get(("pair", unit["id"], target["id"]))
        if found is not None:
            return found
    battlefield, edition = battlefield_of(state), edition_of(state)
    key = (
        id(battlefield),
        id(edition),
        _shape(state, unit, everyone),
        _shape(state, target, theirs),
    )
    found = _PAIRS.get_or_make(key, lambda: _Pair(battlefield, edition))
    if own:
        measured[("pair", unit["id"], target["id"])] = found
    return found


@implements("ability", "lone-operative")
def _lone_operative(target: Unit) -> bool:
    return len(target["parts"]) == 1 and any(
        a.lower() == "lone operative" for a in target.get("abilities", [])
    )


def check_target(
    state: State,
    unit: Unit,
    weapon: dict[str, Any],
    models: list[str],
    target_id: str,
    asked: Asked | None = None,
    profile: WeaponProfile | None = None,
) -> TargetCheck:
    """Can `models` of `unit` shoot `weapon` at `target_id`? (11e 04 Select Targets, 06.01; 10e
    Select Targets, Determining Visibility; the weapon abilities in `check_weapon_may_attack`).

    `asked` keeps what a caller checking several weapons of one unit while nothing moves reads
    once; `profile` is the weapon's profile where the caller read it. What is measured between
    the two units (distances, sight lines, cover) is kept with their shapes (`_pair`)."""
    # It only reads the state: the position is looked up once for all its questions.
    with position_settled(state):
        return _check_target(state, unit, weapon, models, target_id, asked, profile)


def _check_target(
    state: State,
    unit: Unit,
    weapon: dict[str, Any],
    models: list[str],
    target_id: str,
    asked: Asked | None = None,
    profile: WeaponProfile | None = None,
) -> TargetCheck:
    edition = edition_of(state)
    target = state["units"].get(target_id)
    rule = cite(state, "shooting_phase")
    if target is None or target["player"] == unit["player"] or not on_battlefield(target):
        refusal = Refusal(
            "invalid_target", rule, "The target must be an enemy unit on the battlefield."
        )
        return TargetCheck(refusal, [], [], False)
    if not may_be_targeted(state, unit, target):
        refusal = Refusal(
            "target_restricted",
            rule,
            f"{target['name']} can only be targeted by ranged attacks from units closer to it "
            "(Orbital Oversight).",
        )
        return TargetCheck(refusal, [], [], False)
    profile = WeaponProfile.from_dict(weapon) if profile is None else profile
    everyone = unit_placements(state, unit)
    theirs = unit_placements(state, target)
    reach = targetable_within(state, target)
    pair = _pair(state, unit, everyone, target, theirs)
    chosen = tuple(models)
    weapon_range = float(profile.range or 0)
    measured = pair.reaches.get((chosen, weapon_range, reach))
    if measured is None:
        measured = pair.reaches[(chosen, weapon_range, reach)] = _distances(
            state, unit, everyone, target, theirs, chosen, weapon_range, reach
        )
    if not measured[2].any():
        refusal = Refusal(
            "out_of_range",
            rule,
            f'{target["name"]} is not within {profile.range:g}" of any model shooting '
            f"{profile.name}.",
        )
        return TargetCheck(refusal, [], [], False)
    battlefield = battlefield_of(state)
    lone_operative = (
        LONE_OPERATIVE_RANGE
        if _lone_operative(target) and not any(rule(state, unit) for rule in IGNORES_LONE_OPERATIVE)
        else None
    )
    made = made_ranged_attacks(state, target)
    sight = pair.sights.get((made, lone_operative))
    if sight is None:
        sight = pair.sights[(made, lone_operative)] = unit_visibility(
            battlefield,
            edition,
            everyone,
            theirs,
            target_made_ranged_attacks=made,
            lone_operative_range=lone_operative,
        )
    indirect = profile.has("INDIRECT FIRE")
    shot_key = (chosen, weapon_range, reach, made, lone_operative, indirect)
    shot = pair.shots.get(shot_key)
    if shot is None:
        shot = pair.shots[shot_key] = _shooters(
            everyone, measured, sight, weapon_range, reach, lone_operative, indirect
        )
    shooters, half_range, seen_any, first = shot
    if first is None:
        refusal = Refusal(
            "not_visible",
            rule,
            f"{target['name']} is not visible to any model in range with {profile.name}.",
        )
        return TargetCheck(refusal, [], [], False)
    asked = Asked() if asked is None else asked
    try:
        if target_id not in asked.targets:
            asked.targets[target_id] = (
                _context_for_the_check(state, unit, target_id, asked.engagement),
                frozenset(unit_keywords(state, target)),
            )
        context, keywords = asked.targets[target_id]
        if asked.keywords is None:
            asked.keywords = frozenset(unit_keywords(state, unit))
        attacker = Attacker(profile, len(shooters), asked.keywords)
        check_weapon_may_attack(attacker, TargetUnit((), keywords), context)
    except Refusal as refusal:
        return TargetCheck(refusal, [], [], False)
    # 11e 24.33: Stealth is the benefit of cover; 10e Stealth is -1 to hit (`attacks.inputs`).
    stealth = edition.stealth == "benefit_of_cover"
    if stealth:
        if target_id not in asked.stealth:
            asked.stealth[target_id] = has_stealth(state, target)
        stealth = asked.stealth[target_id]
    unseen = indirect and not seen_any
    ignores_cover = profile.has("IGNORES COVER")
    cover = pair.covers.get((*shot_key, ignores_cover, stealth))
    if cover is None:
        cover = pair.covers[(*shot_key, ignores_cover, stealth)] = benefit_of_cover(
            battlefield,
            edition,
            first,
            theirs,
            ignores_cover=ignores_cover,
            stealth=stealth,
            cover_granted=unseen,
            visibility=sight,
            in_area=_in_areas(state, target, theirs),
        )
    # 11e: the unit has cover or not; 10e: each model of the target has its own (cover_scope),
    # judged from the group's first shooting model (R-CB-05, R-WG-07).
    covered = cover.applies and len(cover.models) == len(theirs)
    partly = () if covered else tuple(sorted(cover.models))
    spotted = unseen and _spotted_by_friends(state, unit, target, theirs)
    return TargetCheck(None, list(shooters), list(half_range), covered, unseen, spotted, partly)


def _distances(
    state: State,
    unit: Unit,
    everyone: list[Placement],
    target: Unit,
    theirs: list[Placement],
    models: tuple[str, ...],
    weapon_range: float,
    reach: float | None,
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The rows of `models` among the unit's placements, their distances to the target's models
    and which are within the weapon's range."""
    wanted = set(models)
    rows = [i for i, p in enumerate(everyone) if p.model_id in wanted]
    # Pairs farther than every distance asked below need no exact measure (board.py).
    asked = max(weapon_range, reach or 0.0) + EPSILON
    distances = pairwise_distances(
        _model_set(state, unit, everyone).subset(np.array(rows, dtype=int)),
        _model_set(state, target, theirs),
        within=asked,
    )
    return rows, distances, distances <= weapon_range + EPSILON


def _shooters(
    everyone: list[Placement],
    measured: tuple[list[int], np.ndarray, np.ndarray],
    sight: UnitVisibility,
    weapon_range: float,
    reach: float | None,
    lone_operative: float | None,
    indirect: bool,
) -> tuple[list[str], list[str], bool, Placement | None]:
    """The carrying models that see the target (or need not) and have it in range, those of
    them within half range, whether any carrying model sees it, and the first shooter."""
    rows, distances, in_range = measured
    mine = [everyone[i] for i in rows]
    visible = sight.visible[rows]
    seen = visible if not indirect else np.ones_like(visible)
    able = (seen & in_range).any(axis=1)
    if lone_operative is not None:
        # 11e 24.24: "cannot be targeted by [INDIRECT FIRE] weapons unless the attacking model is
        # within 12""; 10e Lone Operative: no ranged attack unless within 12" (R-CB-10).
        able &= (distances <= lone_operative + EPSILON).any(axis=1)
    if reach is not None:  # Orbital Oversight, Haloed in Soulfire: "the attacking model"
        able &= (distances <= reach + EPSILON).any(axis=1)
    shooters = [p.model_id for p, ok in zip(mine, able, strict=True) if ok]
    if not shooters:
        return [], [], bool(visible.any()), None
    half = distances <= weapon_range / 2 + EPSILON
    # [RAPID FIRE] / [MELTA] half range: the shooting model within half range of the target unit.
    near = np.asarray(half.any(axis=1))
    half_range = [p.model_id for p, ok, close in zip(mine, able, near, strict=True) if ok and close]
    first = next(p for p in mine if p.model_id == shooters[0])
    return shooters, half_range, bool(visible.any()), first


def _context_for_the_check(
    state: State, unit: Unit, target_id: str, engagement: dict[str, list[str]] | None
):
    """The attack context `check_weapon_may_attack` reads: without the rules' modifiers where
    it reads none (`weapon_check_reads_modifiers`), so they are not asked of every rule for every
    unit and target of the phase's legal actions."""
    context = attack_context(
        state, unit, target_id, engagement=engagement, shooting=True, with_modifiers=False
    )
    if weapon_check_reads_modifiers(context):
        context = attack_context(state, unit, target_id, engagement=engagement, shooting=True)
    return context


def _spotted_by_friends(state: State, unit: Unit, target: Unit, theirs: list) -> bool:
    """11e 10.07: the target is visible to one or more friendly units (asked only when it
    matters: the shooting unit remained stationary)."""
    if state["edition"]["indirect_fire"] != "unmodified_one_to_five_fails" or not has_flag(
        state, unit["id"], "remained_stationary"
    ):
        return False
    battlefield, edition = battlefield_of(state), edition_of(state)
    return any(
        unit_visibility(battlefield, edition, unit_placements(state, friend), theirs).unit_visible
        for friend in state["units"].values()
        if friend["player"] == unit["player"]
        and friend["id"] != unit["id"]
        and on_battlefield(friend)
    )


def weapon_options(
    state: State, unit: Unit, among: list[str] | None = None
) -> list[dict[str, Any]]:
    """For each ranged weapon profile the unit carries: the carrying models and its legal
    targets (what `legal_actions` offers and the browser shows). `among`: only these enemy units
    are checked (a rule that allows some targets only; sight lines are the costly part)."""
    with position_settled(state):  # it only reads the state: one position for every target
        return _weapon_options(state, unit, among)


def _weapon_options(state: State, unit: Unit, among: list[str] | None) -> list[dict[str, Any]]:
    enemies = _enemies(state, unit, among)
    options = []
    asked = Asked()
    bounds: dict[str, dict[str, float]] = {}
    for name, (weapon, models) in carried_ranged(state, unit).items():
        profile, reach = _profile_and_reach(weapon)
        targets = [
            t
            for t in enemies
            if not _certainly_out_of_range(state, unit, reach, models, t, bounds)
            and check_target(state, unit, weapon, models, t, asked, profile).refusal is None
        ]
        options.append(
            {
                "weapon": name,
                "weapon_of": weapon_of(name),  # profiles of one weapon: a model fires one
                "models": models,
                "targets": targets,
                "close_quarters": close_quarters(weapon),
            }
        )
    return options


def _enemies(state: State, unit: Unit, among: list[str] | None) -> list[str]:
    return sorted(
        other["id"]
        for other in state["units"].values()
        if other["player"] != unit["player"]
        and on_battlefield(other)
        and alive_models(other)
        and (among is None or other["id"] in among)
    )


def has_a_target(state: State, unit: Unit, among: list[str] | None = None) -> bool:
    """Whether one of the unit's ranged weapons has a legal target (`weapon_options` lists one),
    found without checking the others: a stratagem window asks it of every unit that could
    shoot out of turn."""
    with position_settled(state):  # it only reads the state: one position for every target
        return _has_a_target(state, unit, among)


def _has_a_target(state: State, unit: Unit, among: list[str] | None) -> bool:
    enemies = _enemies(state, unit, among)
    asked = Asked()
    bounds: dict[str, dict[str, float]] = {}
    # The nearest enemy units first: a unit that has a target mostly has a near one.
    enemies.sort(key=lambda t: min(_bounds_to(state, unit, t, bounds).values(), default=math.inf))
    weapons = [
        (weapon, models, *_profile_and_reach(weapon))
        for weapon, models in carried_ranged(state, unit).values()
    ]
    return any(
        not _certainly_out_of_range(state, unit, reach, models, t, bounds)
        and check_target(state, unit, weapon, models, t, asked, profile).refusal is None
        for t in enemies
        for weapon, models, profile, reach in weapons
    )


def _profile_and_reach(weapon: dict[str, Any]) -> tuple[WeaponProfile | None, float | None]:
    """The weapon's profile and its range plus the margin for rounding, read once for every
    target; None, None for a record that is not a profile (`check_target` says what is wrong)."""
    try:
        profile = WeaponProfile.from_dict(weapon)
    except AttackInputError:
        return None, None
    return profile, float(profile.range or 0) + EPSILON


def _certainly_out_of_range(
    state: State,
    unit: Unit,
    reach: float | None,
    models: list[str],
    target_id: str,
    bounds: dict[str, dict[str, float]],
) -> bool:
    """Every carrying model is farther from the target than the weapon's `reach`, by the
    bounding circles of the bases: `check_target` would refuse, so a list of targets need not
    ask it (most enemy units are out of range of most weapons; `bounds` keeps, per target, each
    of the unit's models' least bound)."""
    if reach is None:
        return False
    found = _bounds_to(state, unit, target_id, bounds)
    return min((found.get(m, math.inf) for m in models), default=math.inf) > reach


def _bounds_to(
    state: State, unit: Unit, target_id: str, bounds: dict[str, dict[str, float]]
) -> dict[str, float]:
    """For each model of the unit, a figure no greater than its distance to the target unit
    (centres less bounding radii and a margin for rounding), kept in `bounds` and with the pair
    of units (`_pair`)."""
    if target_id not in bounds:
        target = state["units"][target_id]
        everyone, theirs = unit_placements(state, unit), unit_placements(state, target)
        pair = _pair(state, unit, everyone, target, theirs)
        if pair.bounds is None:
            ours, their_set = _model_set(state, unit, everyone), _model_set(state, target, theirs)
            gaps = ours.centres[:, None, :] - their_set.centres[None, :, :]
            least = (
                np.hypot(gaps[..., 0], gaps[..., 1])
                - ours.bounding_radii[:, None]
                - their_set.bounding_radii[None, :]
                - BOUND_MARGIN
            ).min(axis=1, initial=math.inf)
            pair.bounds = dict(zip(ours.ids, least.tolist(), strict=True))
        bounds[target_id] = pair.bounds
    return bounds[target_id]


def closest_distance(state: State, unit: Unit, target_id: str) -> float:
    """The shortest distance between the unit's models and the target unit's, measured exactly
    (kept with the pair of units, `_pair`)."""
    target = state["units"][target_id]
    everyone, theirs = unit_placements(state, unit), unit_placements(state, target)
    pair = _pair(state, unit, everyone, target, theirs)
    if pair.closest is None:
        pair.closest = float(
            pairwise_distances(
                _model_set(state, unit, everyone), _model_set(state, target, theirs)
            ).min()
        )
    return pair.closest


def turn_number(state: State) -> int:
    """Turns of the battle counted from 1 (two per battle round)."""
    second = state["active_player"] != state["first_player"]
    return 2 * state["battle_round"] - (0 if second else 1)


def made_ranged_attacks(state: State, unit: Unit) -> bool:
    """11e 13.09 Hidden: did the unit make ranged attacks this turn or the previous turn?
    (`shot_in_turn` on the unit: the last turn it was selected to shoot.)"""
    return unit.get("shot_in_turn", -1) >= turn_number(state) - 1


def still_targetable(state: State, unit_id: str, groups: list[dict]) -> list[AttackGroup]:
    """Each group without the models that can no longer select its target (a restriction that
    began after the targets were selected); a group left without models makes no attacks."""
    kept = []
    models = {m["id"]: m for m in alive_models(state["units"][unit_id])}
    for data in groups:
        group = AttackGroup.from_data(data)
        target = state["units"][group.target]
        reach = targetable_within(state, target)
        if reach is not None:
            shooters = tuple(
                m
                for m in group.models
                if m in models
                and any(model_distance(models[m], other) <= reach for other in alive_models(target))
            )
            group = replace(group, models=shooters)
        if group.models:
            kept.append(group)
    return kept
