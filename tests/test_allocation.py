"""Allocation, saving throws, damage, Feel No Pain, mortal wounds, [DEVASTATING WOUNDS],
[MELTA], [PRECISION], [HAZARDOUS], [PSYCHIC].

11e 05.03, 05.04, 05.04.01, 06.02, 06.03, 24.10, 24.12, 24.15, 24.25, 24.28; 10e Saving Throw,
Invulnerable Saves, Benefit of Cover, Mortal Wounds, Devastating Wounds, Hazardous (seed 004).
"""

import numpy as np
import pytest

from rules.engine.attacks.allocation import (
    UnitState,
    allocation_order,
    damage_step,
    devastating_wounds_step,
    hazard_step,
    save_step,
)
from rules.engine.attacks.modifiers import Modifier
from rules.engine.attacks.profiles import TargetModel, TargetUnit
from rules.engine.attacks.resolution import resolve_weapon_attacks
from rules.engine.attacks.sequence import WoundOutcome
from rules.engine.core.refusals import Refusal
from tests.attack_helpers import (
    ELEVENTH,
    TENTH,
    ScriptedDice,
    attacker,
    both_editions,
    context,
    unit,
    weapon,
)


def wounds(count: int, devastating: int = 0) -> WoundOutcome:
    counts = np.array([count])
    return WoundOutcome(counts, np.array([devastating]), counts, np.array([devastating]), None)


def saves_and_damage(values, profile, target, ctx, count=None, state=None):
    dice = ScriptedDice(*values)
    state = state or UnitState.of(target, 1)
    n = count if count is not None else len(values)
    rolls = save_step(dice, wounds(n), state, attacker(profile), target, ctx)
    outcome = damage_step(dice, rolls, state, attacker(profile), target, ctx)
    dice.assert_used_up()
    return outcome, state


# --- Saving throws -------------------------------------------------------------------------


@both_editions
def test_armour_save_modified_by_ap(edition):
    """10e Saving Throw / 11e 05.04: 4 with AP -1 is 3, passes Sv 3+; 3 with AP -1 fails."""
    outcome, _ = saves_and_damage([4, 3], weapon(ap=-1), unit(5, save=3), context(edition))
    assert outcome.unsaved.tolist() == [1]


@both_editions
def test_invulnerable_save_ignores_ap_and_the_better_is_used(edition):
    """10e Invulnerable Saves; 11e 05.04 Check Save Roll (AMB-07)."""
    target = unit(5, save=3, invulnerable=4)
    outcome, _ = saves_and_damage([4, 5, 3], weapon(ap=-3), target, context(edition))
    assert outcome.unsaved.tolist() == [1]


@both_editions
def test_unmodified_save_of_one_always_fails(edition):
    ctx = context(edition, modifiers=(Modifier("save", "add", 1),))
    outcome, _ = saves_and_damage([1], weapon(), unit(5, save=2, invulnerable=2), ctx)
    assert outcome.unsaved.tolist() == [1]


def test_10e_cover_adds_one_to_armour_save_but_not_for_3_plus_against_ap_0():
    """10e Benefit of Cover (DIFF-24)."""
    ap1 = saves_and_damage([4], weapon(ap=-1), unit(5, save=4), context(TENTH, cover=True))[0]
    assert ap1.unsaved.tolist() == [0]
    good_save = saves_and_damage([2], weapon(ap=0), unit(5, save=3), context(TENTH, cover=True))[0]
    assert good_save.unsaved.tolist() == [1]
    eleventh = saves_and_damage([4], weapon(ap=-1), unit(5, save=4), context(ELEVENTH, cover=True))[
        0
    ]
    assert eleventh.unsaved.tolist() == [1]


@both_editions
def test_save_never_improved_by_more_than_one(edition):
    """10e Saving Throw: never improved by more than +1 (AMB-06: 11e too)."""
    ctx = context(edition, cover=True, modifiers=(Modifier("save", "add", 1),))
    outcome, _ = saves_and_damage([3], weapon(ap=-1), unit(5, save=5), ctx)
    assert outcome.unsaved.tolist() == [1]


# --- Damage and Feel No Pain ---------------------------------------------------------------


@both_editions
def test_excess_damage_is_lost(edition):
    """11e 05.04 / 10e: damage beyond the model's remaining wounds is lost."""
    outcome, state = saves_and_damage(
        [1, 1], weapon(damage="3"), unit(3, save=3, wounds=2), context(edition)
    )
    assert outcome.damage.tolist() == [4]
    assert outcome.models_destroyed.tolist() == [2]


def test_random_damage_is_rolled_per_failed_save_only():
    """A saved attack rolls no damage dice (the ScriptedDice would fail on an extra roll)."""
    outcome, _ = saves_and_damage(
        [1, 6, 5], weapon(damage="D6"), unit(1, save=3, wounds=10), context(), count=2
    )
    assert outcome.damage.tolist() == [5]


def test_melta_2_seed_example_d6_becomes_d6_plus_2_at_half_range():
    """24.25: [MELTA 2] with D D6 at half range has D D6+2."""
    target = unit(1, save=6, wounds=20)
    near, _ = saves_and_damage(
        [1, 3], weapon(["melta 2"], damage="D6"), target, context(half_range=True), count=1
    )
    far, _ = saves_and_damage([1, 3], weapon(["melta 2"], damage="D6"), target, context(), count=1)
    assert (near.damage.tolist(), far.damage.tolist()) == ([5], [3])


def test_feel_no_pain_rolls_once_per_wound():
    """24.12: D3 damage 3 (D6 roll 5) against FNP 5+: rolls 5, 2, 6 -> one wound lost."""
    outcome, _ = saves_and_damage(
        [1, 5, 5, 2, 6], weapon(damage="D3"), unit(1, save=3, wounds=4, fnp=5), context(), count=1
    )
    assert outcome.damage.tolist() == [1]


def test_feel_no_pain_stops_once_the_model_is_destroyed():
    """Save 1 fails, the first Feel No Pain roll (1) fails: the model is destroyed and the other
    two wounds are lost without a roll (ScriptedDice fails on any roll it was not given)."""
    outcome, _ = saves_and_damage(
        [1, 1], weapon(damage="3"), unit(2, save=3, wounds=1, fnp=5), context(), count=1
    )
    assert outcome.damage.tolist() == [1]


# --- 11e allocation groups and 10e wounded model first -------------------------------------


def celestine_unit():
    """The 11e attached-unit example: Seraphim (Sv3 InSv... ), Geminae, Saint Celestine."""
    seraphim = TargetModel(toughness=3, save=3, wounds=1, invulnerable=6, name="Seraphim")
    geminae = TargetModel(toughness=3, save=2, wounds=1, invulnerable=4, name="Geminae")
    celestine = TargetModel(3, 2, 6, 4, character=True, bodyguard=False, name="Celestine")
    return TargetUnit((seraphim,) * 4 + (geminae,) * 2 + (celestine,), attached=True)


def test_11e_example_saves_resolved_lowest_first_against_the_current_group():
    """05.03-05.04.01 example: order Geminae, Seraphim, Celestine; AP -1; results 1, 1, 3, 5, 6:
    the two 1s destroy both Geminae, the 3 (2 after AP) destroys a Seraphim, the rest fail."""
    target = celestine_unit()
    ctx = context(allocation_order=(1, 0, 2))
    outcome, state = saves_and_damage([5, 1, 3, 6, 1], weapon(ap=-1, strength=5), target, ctx)
    assert outcome.unsaved.tolist() == [3]
    assert state.wounds_left[0].tolist() == [0, 1, 1, 1, 0, 0, 6]


def test_11e_allocation_order_constraints_are_enforced():
    """05.03: no CHARACTER group before a non-CHARACTER group."""
    state = UnitState.of(celestine_unit(), 1)
    with pytest.raises(Refusal) as refused:
        allocation_order(state, context(allocation_order=(2, 0, 1)))
    assert refused.value.code == "allocation_order_character"


def test_11e_wounded_non_character_group_comes_first_by_default():
    guard = TargetModel(4, 3, 2)
    heavy = TargetModel(4, 2, 3)
    hurt = TargetModel(4, 2, 3, wounds_left=1)
    state = UnitState.of(TargetUnit((guard, heavy, hurt)), 1)
    assert allocation_order(state, context()).tolist() == [[1, 0]]


def test_precision_makes_the_character_group_current_until_destroyed():
    """24.28: with [PRECISION] the visible CHARACTER group becomes the current group."""
    target = celestine_unit()
    outcome, state = saves_and_damage([1], weapon(["precision"], damage="2"), target, context())
    assert state.wounds_left[0].tolist()[-1] == 4


def test_10e_wounded_model_takes_the_next_attack():
    """10e: a model that has lost wounds must be allocated the attack."""
    target = TargetUnit((TargetModel(4, 3, 2), TargetModel(4, 3, 2, wounds_left=1)))
    outcome, state = saves_and_damage([1], weapon(), target, context(TENTH))
    assert state.wounds_left[0].tolist() == [2, 0]


def test_10e_character_in_attached_unit_is_allocated_last_unless_precision():
    leader = TargetModel(4, 3, 4, character=True, bodyguard=False)
    guard = TargetModel(4, 3, 2)
    target = TargetUnit((leader, guard), attached=True)
    _, plain = saves_and_damage([1], weapon(), target, context(TENTH))
    _, precise = saves_and_damage([1], weapon(["precision"]), target, context(TENTH))
    assert (plain.wounds_left[0].tolist(), precise.wounds_left[0].tolist()) == ([4, 1], [3, 2])


def test_10e_a_wounded_character_in_an_attached_unit_takes_no_attack_while_a_bodyguard_lives():
    """10e Attached Units: "Each time an attack successfully wounds an Attached unit, that attack
    cannot be allocated to a CHARACTER model in that unit, even if that CHARACTER model has lost
    one or more wounds". The Leader has lost a wound: the failed save still goes to the
    Bodyguard model (rulings "Which model takes an attack in 10e")."""
    leader = TargetModel(4, 3, 4, character=True, bodyguard=False, wounds_left=3)
    guard = TargetModel(4, 3, 2)
    target = TargetUnit((leader, guard), attached=True)
    _, plain = saves_and_damage([1], weapon(), target, context(TENTH))
    assert plain.wounds_left[0].tolist() == [3, 1]


@both_editions
def test_precision_goes_to_the_character_model_the_attacker_chose(edition):
    """11e 24.28 / 10e Precision: with two CHARACTER models the attacker picks which one
    (`precision_character`); without a choice, the first one."""
    first = TargetModel(4, 3, 4, character=True, bodyguard=False, name="First")
    second = TargetModel(4, 3, 4, character=True, bodyguard=False, name="Second")
    guard = TargetModel(4, 3, 2)
    target = TargetUnit((guard, first, second), attached=True)
    sniper = weapon(["precision"], damage="2")
    _, default = saves_and_damage([1], sniper, target, context(edition))
    _, chosen = saves_and_damage([1], sniper, target, context(edition, precision_character=2))
    _, declined = saves_and_damage(
        [1], sniper, target, context(edition, precision_on_character=False)
    )
    assert default.wounds_left[0].tolist() == [2, 2, 4]
    assert chosen.wounds_left[0].tolist() == [2, 4, 2]
    assert declined.wounds_left[0].tolist() == [0, 4, 4]


# --- Devastating wounds, mortal wounds ------------------------------------------------------


def test_devastating_wounds_11e_seed_example_intercessor():
    """24.10: D 3 critical wound against Intercessors (W 2): 3 mortal wounds, one model
    destroyed, the remaining mortal wound is lost."""
    intercessors = unit(5, toughness=4, save=3, wounds=2)
    state = UnitState.of(intercessors, 1)
    outcome = devastating_wounds_step(
        ScriptedDice(),
        wounds(0, devastating=1),
        state,
        attacker(weapon(["devastating wounds"], damage="3")),
        intercessors,
        context(),
    )
    assert outcome.mortal_wounds.tolist() == [3]
    assert outcome.damage.tolist() == [2]
    assert state.wounds_left[0].tolist() == [0, 2, 2, 2, 2]


def test_devastating_wounds_10e_no_saving_throw_of_any_kind():
    """10e Devastating Wounds: critical wound -> no save (not even invulnerable), MW = D."""
    target = unit(2, toughness=4, save=2, wounds=3, invulnerable=4)
    profile = weapon(["devastating wounds"], damage="2")
    dice = ScriptedDice(4, 6)  # hit 4, wound 6 (critical); no save roll may be asked for
    result = resolve_weapon_attacks(dice, 1, attacker(profile), target, context(TENTH))
    assert (result.unsaved.tolist(), result.damage.tolist()) == ([1], [2])
    dice.assert_used_up()


def test_devastating_wounds_come_after_normal_damage_11e():
    """06.02: normal damage first, then mortal wounds; the wounded model takes them."""
    target = unit(2, toughness=4, save=6, wounds=3)
    profile = weapon(["devastating wounds"], attacks="2", damage="2")
    dice = ScriptedDice(4, 4, 6, 4, 2)  # hits; wounds 6 (devastating), 4; save 2 fails
    result = resolve_weapon_attacks(dice, 1, attacker(profile), target, context())
    assert result.state.wounds_left[0].tolist() == [0, 3]
    assert result.damage.tolist() == [3]
    dice.assert_used_up()


# --- Hazard rolls ---------------------------------------------------------------------------


def test_hazard_11e_fails_on_1_or_2_and_the_unit_suffers_one_mortal_wound_each():
    """24.15 + 06.03."""
    state = UnitState.of(unit(3, wounds=1), 1)
    outcome = hazard_step(ScriptedDice(2, 3, 1), 3, state, False, ELEVENTH)
    assert outcome.failures.tolist() == [2]
    assert state.wounds_left[0].tolist() == [0, 0, 1]


def test_hazard_10e_fails_on_1_and_puts_3_mortal_wounds_on_one_model():
    """10e Hazardous: each 1 -> 3 mortal wounds on one model, the rest lost."""
    state = UnitState.of(unit(3, wounds=2), 1)
    outcome = hazard_step(ScriptedDice(2, 1, 3), 3, state, False, TENTH)
    assert outcome.mortal_wounds.tolist() == [3]
    assert state.wounds_left[0].tolist() == [0, 2, 2]


def test_hazard_10e_selects_a_model_equipped_with_a_hazardous_weapon():
    """10e Hazardous [004 L142-144]: a wounded model "equipped with one or more Hazardous
    weapons", else a non-CHARACTER one so equipped, else a CHARACTER one. Model 0 is wounded but
    carries none: the first failed test goes to model 1 (a bearer), which survives wounded (W4)
    and so takes the second as well; model 2 carries none and is never selected."""
    state = UnitState.of(unit(3, wounds=4), 1)
    state.wounds_left[0, 0] = 3
    bearers = np.array([False, True, False])
    outcome = hazard_step(ScriptedDice(1, 1), 2, state, False, TENTH, bearers)
    assert state.wounds_left[0].tolist() == [3, 0, 4]
    assert outcome.mortal_wounds.tolist() == [6]


def test_hazard_10e_with_no_bearer_left_selects_no_model():
    """10e Hazardous: "If a model was selected" the unit suffers the mortal wounds: the only
    bearer (W2) is destroyed by the first failed test, the second finds no model to select."""
    state = UnitState.of(unit(2, wounds=2), 1)
    outcome = hazard_step(ScriptedDice(1, 1), 2, state, False, TENTH, np.array([True, False]))
    assert state.wounds_left[0].tolist() == [0, 2]
    assert outcome.failures.tolist() == [2]
    assert outcome.mortal_wounds.tolist() == [3]


def test_hazard_11e_monster_vehicle_units_suffer_three():
    state = UnitState.of(unit(1, wounds=10), 1)
    hazard_step(ScriptedDice(1), 1, state, True, ELEVENTH)
    assert state.wounds_left[0].tolist() == [7]


def test_psychic_weapon_wounds_are_psychic_attacks():
    """11e 22.03 / 10e Psychic Weapons: wounds caused by a [PSYCHIC] weapon are psychic."""
    outcome, _ = saves_and_damage([1], weapon(["psychic"]), unit(2, save=3), context())
    assert outcome.records[1].tray()["extra"]["psychic_wounds"] == 1


def test_modifier_pipeline_grants_feel_no_pain_invulnerable_and_abilities():
    """Stratagems act through modifiers: Hyperstimms-like FNP 4+, Go to Ground-like 6++,
    Root out Heresy-like [SUSTAINED HITS 1] (conditions as data)."""
    fnp = context(modifiers=(Modifier("feel_no_pain", "set", 4),))
    outcome, _ = saves_and_damage([1, 4], weapon(), unit(2, save=3), fnp, count=1)
    assert outcome.damage.tolist() == [0]
    invulnerable = context(modifiers=(Modifier("invulnerable", "set", 6),))
    outcome, _ = saves_and_damage([6], weapon(ap=-3), unit(2, save=3), invulnerable)
    assert outcome.unsaved.tolist() == [0]
    chaos_only = Modifier.from_dict(
        {
            "step": "ability",
            "kind": "grant",
            "value": "sustained hits 1",
            "condition": {"target_keyword": "CHAOS"},
        }
    )
    from rules.engine.attacks.sequence import hit_step

    for keywords, hits in (({"CHAOS"}, 2), ((), 1)):
        dice = ScriptedDice(6)
        outcome = hit_step(
            dice,
            np.array([1]),
            attacker(weapon()),
            unit(keywords=keywords),
            context(modifiers=(chaos_only,)),
        )
        assert outcome.hits.tolist() == [hits]


def test_11e_default_order_puts_the_character_group_last():
    """05.03: without a declared order, bodyguard groups first, the CHARACTER last."""
    target = celestine_unit()
    _, state = saves_and_damage([1] * 7, weapon(ap=-1), target, context())
    assert state.wounds_left[0].tolist() == [0, 0, 0, 0, 0, 0, 5]


@both_editions
def test_devastating_wounds_timing_per_edition(edition):
    """11e 24.10: mortal wounds after the normal damage of those attacks (that weapon);
    10e: devastating-wound attacks are allocated after all the unit's other attacks.
    Weapon 1 ([DEVASTATING WOUNDS], D2) scores a critical wound on a 2-wound model; weapon 2
    then wounds it normally for 1. In 11e the first model dies to the mortal wounds, weapon 2
    wounds the second; in 10e weapon 2 wounds the first model, then the mortal wounds kill it."""
    from rules.engine.attacks.resolution import resolve_unit_attacks

    target = unit(2, toughness=4, save=6, wounds=2)
    devastating = attacker(weapon(["devastating wounds"], damage="2"))
    plain = attacker(weapon(damage="1"))
    dice = ScriptedDice(4, 6, 4, 4, 1)  # hit, critical wound; hit, wound, save 1
    results = resolve_unit_attacks(dice, 1, [devastating, plain], target, context(edition))
    dice.assert_used_up()
    left = results[-1].state.wounds_left[0].tolist()
    assert left == ([0, 1] if edition is ELEVENTH else [0, 2])
    assert [r.models_destroyed.tolist() for r in results] == [[1], [0]]


@both_editions
def test_worsening_ap_0_never_improves_the_save(edition):
    """Truesilver Armour and every "worsen the AP" effect (issue 14 defect 27, reported from a
    game): AP moves towards 0 and stops there, so against an AP 0 weapon a Sv 3+ model still
    needs a 3 (a 2 fails); in 10e the benefit of cover does not help a Sv 3+ model against AP 0
    either (Benefit of Cover). The report is refuted: no 2+ save comes of it."""
    truesilver = Modifier("ap", "worsen", 1, source="truesilver-armour")
    ctx = context(edition, cover=True, modifiers=(truesilver,))
    outcome, _ = saves_and_damage([2], weapon(ap=0), unit(5, save=3), ctx)
    assert outcome.unsaved.tolist() == [1]
    outcome, _ = saves_and_damage([3], weapon(ap=0), unit(5, save=3), ctx)
    assert outcome.unsaved.tolist() == [0]
