"""What is measured between two units for the Shooting phase's targets (`shooting_targets._pair`:
distances, sight lines, cover, the bounds that skip targets certainly out of range, the closest
distance), kept with the shapes of both units across positions, compared with the same answers
measured in full, over the recorded self-played games of both editions (`tests/compat_games.py`).

The answers in full are `check_target` as it was before it kept them: every distance, sight line
and cover measured at each question, and every enemy unit checked (no target skipped by the
bounding circles). The kept answers are asked in the order of the game, so each state finds the
pairs of the states before it (a unit that did not move or lose a model keeps its shape)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.engine.attacks.inputs import has_stealth
from rules.engine.attacks.profiles import Attacker, TargetUnit, WeaponProfile
from rules.engine.attacks.sequence import check_weapon_may_attack
from rules.engine.battlefield.board import EPSILON, ModelSet, pairwise_distances
from rules.engine.battlefield.placement import battlefield_of, edition_of
from rules.engine.battlefield.visibility import benefit_of_cover, models_in_areas, unit_visibility
from rules.engine.core.citations import cite
from rules.engine.core.refusals import Refusal
from rules.engine.core.standing_rules import IGNORES_LONE_OPERATIVE
from rules.engine.core.state import alive_models, on_battlefield, unit_keywords
from rules.engine.phases import shooting, shooting_targets
from rules.engine.phases.shooting_targets import (
    LONE_OPERATIVE_RANGE,
    TargetCheck,
    _context_for_the_check,
    _lone_operative,
    _spotted_by_friends,
    carried_ranged,
    check_target,
    closest_distance,
    has_a_target,
    made_ranged_attacks,
    may_be_targeted,
    targetable_within,
    unit_placements,
    weapon_options,
)
from tests.compat_games import load, replayed_states

RECORDED = load()


def check_target_in_full(state, unit, weapon, models, target_id) -> TargetCheck:
    """`check_target` measuring everything at the question (nothing kept between questions)."""
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
    profile = WeaponProfile.from_dict(weapon)
    everyone = unit_placements(state, unit)
    rows = [i for i, p in enumerate(everyone) if p.model_id in set(models)]
    mine = [everyone[i] for i in rows]
    theirs = unit_placements(state, target)
    reach = targetable_within(state, target)
    distances = pairwise_distances(ModelSet(mine), ModelSet(theirs))
    in_range = distances <= float(profile.range or 0) + EPSILON
    if not in_range.any():
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
    sight = unit_visibility(
        battlefield,
        edition,
        everyone,
        theirs,
        target_made_ranged_attacks=made_ranged_attacks(state, target),
        lone_operative_range=lone_operative,
    )
    visible = sight.visible[rows]
    indirect = profile.has("INDIRECT FIRE")
    seen = visible if not indirect else np.ones_like(visible)
    able = (seen & in_range).any(axis=1)
    if lone_operative is not None:
        able &= (distances <= lone_operative + EPSILON).any(axis=1)
    if reach is not None:
        able &= (distances <= reach + EPSILON).any(axis=1)
    shooters = [p.model_id for p, ok in zip(mine, able, strict=True) if ok]
    if not shooters:
        refusal = Refusal(
            "not_visible",
            rule,
            f"{target['name']} is not visible to any model in range with {profile.name}.",
        )
        return TargetCheck(refusal, [], [], False)
    near = np.asarray((distances <= float(profile.range or 0) / 2 + EPSILON).any(axis=1))
    half_range = [p.model_id for p, ok, close in zip(mine, able, near, strict=True) if ok and close]
    attacker = Attacker(profile, len(shooters), frozenset(unit_keywords(state, unit)))
    try:
        context = _context_for_the_check(state, unit, target_id, None)
        keywords = frozenset(unit_keywords(state, target))
        check_weapon_may_attack(attacker, TargetUnit((), keywords), context)
    except Refusal as refusal:
        return TargetCheck(refusal, [], [], False)
    first = next(p for p in mine if p.model_id == shooters[0])
    stealth = edition.stealth == "benefit_of_cover" and has_stealth(state, target)
    cover = benefit_of_cover(
        battlefield,
        edition,
        first,
        theirs,
        ignores_cover=profile.has("IGNORES COVER"),
        stealth=stealth,
        cover_granted=indirect and not visible.any(),
        visibility=sight,
        in_area=models_in_areas(battlefield, theirs),
    )
    covered = cover.applies and len(cover.models) == len(theirs)
    partly = () if covered else tuple(sorted(cover.models))
    unseen = indirect and not visible.any()
    spotted = unseen and _spotted_by_friends(state, unit, target, theirs)
    return TargetCheck(None, shooters, half_range, covered, unseen, spotted, partly)


def _facts(check: TargetCheck) -> tuple:
    refusal = check.refusal
    return (
        None if refusal is None else (refusal.code, refusal.rule, refusal.message),
        check.shooters,
        check.half_range,
        check.cover,
        check.indirect,
        check.spotted,
        check.cover_models,
    )


def _enemies(state, unit) -> list[str]:
    return sorted(
        other["id"]
        for other in state["units"].values()
        if other["player"] != unit["player"] and on_battlefield(other)
    )


@pytest.mark.parametrize("number", [0, 2, 5, 7, 9, 11, 12, 14], ids=lambda n: f"game-{n}")
def test_target_checks_from_the_kept_pairs_are_the_checks_measured_in_full(number, monkeypatch):
    """Every weapon of every unit on the table against every enemy unit, with all its carrying
    models and with half of them (an attack group's), and with a copy of the unit (not the
    state's own record); then the weapon options, whether the unit has a target, and the
    closest distance of each pair."""
    measured = [0]
    distances = shooting_targets._distances

    def counted(*arguments):
        measured[0] += 1
        return distances(*arguments)

    monkeypatch.setattr(shooting_targets, "_distances", counted)
    asked = allowed = 0
    for _, state in replayed_states(RECORDED, number, every=2):
        if state["stage"] != "battle":
            continue
        for unit in state["units"].values():
            if not on_battlefield(unit):
                continue
            copy = {**unit, "models": [dict(m) for m in unit["models"]]}
            weapons = list(carried_ranged(state, unit).values())
            enemies = _enemies(state, unit)
            for weapon, models in weapons:
                for target_id in enemies:
                    for chosen in (models, models[: max(1, len(models) // 2)]):
                        in_full = _facts(
                            check_target_in_full(state, unit, weapon, chosen, target_id)
                        )
                        assert (
                            _facts(check_target(state, unit, weapon, chosen, target_id)) == in_full
                        )
                        assert (
                            _facts(check_target(state, copy, weapon, chosen, target_id)) == in_full
                        )
                        asked += 1
                        allowed += in_full[0] is None
            in_full_options = [
                [
                    t
                    for t in enemies
                    if alive_models(state["units"][t])
                    and check_target_in_full(state, unit, weapon, models, t).refusal is None
                ]
                for weapon, models in weapons
            ]
            options = [option["targets"] for option in weapon_options(state, unit)]
            assert options == in_full_options
            assert has_a_target(state, unit) == any(in_full_options)
            mine = ModelSet(unit_placements(state, unit))
            for target_id in enemies:
                target = state["units"][target_id]
                exact = pairwise_distances(mine, ModelSet(unit_placements(state, target))).min()
                assert closest_distance(state, unit, target_id) == float(exact)
    assert asked > 300 and allowed > 20
    # The pairs were found again: most questions measured nothing.
    assert measured[0] < asked // 2


def closest_in_full(state, unit, target_id) -> float:
    mine = ModelSet(unit_placements(state, unit))
    theirs = ModelSet(unit_placements(state, state["units"][target_id]))
    return float(pairwise_distances(mine, theirs).min())


@pytest.mark.parametrize("number", [3, 6, 10, 13], ids=lambda n: f"game-{n}")
def test_the_shoot_templates_are_those_of_the_targets_in_full(number, monkeypatch):
    """The Shooting phase's legal actions (each weapon's targets and the default assignments)
    against templates built from the targets and distances measured in full."""
    compared = 0
    for _, state in replayed_states(RECORDED, number, every=1):
        if state["phase"] != "shooting" or state.get("pending"):
            continue
        for unit in state["units"].values():
            if unit["player"] != state["active_player"] or shooting.ineligibility(state, unit):
                continue
            template = shooting.shoot_template(state, unit)
            carried = carried_ranged(state, unit)
            in_full = []
            for option in weapon_options(state, unit):
                weapon, models = carried[option["weapon"]]
                targets = [
                    t
                    for t in _enemies(state, unit)
                    if check_target_in_full(state, unit, weapon, models, t).refusal is None
                ]
                if targets:
                    in_full.append({**option, "targets": targets})
            if not in_full:
                assert template is None
                continue
            assert template is not None and template["weapons"] == in_full
            with monkeypatch.context() as measured_in_full:
                measured_in_full.setattr(shooting, "closest_distance", closest_in_full)
                assignments = shooting.default_assignments(state, unit, in_full)
            assert template["default_assignments"] == assignments
            compared += 1
    assert compared >= 3
