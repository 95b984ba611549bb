"""Gather attack dice, hit rolls and wound rolls, with every weapon ability that acts there.

11e sections 04, 05.01, 05.02, 05.02.01, 01.05.01, 24.xx (seeds 000/003); 10e Hit Roll, Wound Roll,
Re-rolls and abilities (seed 004); CATALOGUE 2.9, 3, DIFF-24..37.
"""

import numpy as np
import pytest

from rules.engine.attacks.modifiers import Modifier
from rules.engine.attacks.profiles import TargetModel, TargetUnit
from rules.engine.attacks.sequence import (
    check_weapon_may_attack,
    gather_attack_dice,
    hit_step,
    plan_hits,
    required_wound_roll,
    target_toughness,
    wound_step,
)
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

ONE = np.ones(1, dtype=np.int64)


def hits_of(dice_values, profile, target=None, ctx=None, count=None):
    dice = ScriptedDice(*dice_values)
    target = target or unit()
    counts = np.array([count if count is not None else len(dice_values)])
    outcome = hit_step(dice, counts, attacker(profile), target, ctx or context())
    dice.assert_used_up()
    return outcome


# --- 04 Gather attack dice -----------------------------------------------------------------


def test_blast_2_seed_example_adds_four_dice_against_twelve_models():
    """24.05: a [BLAST 2] weapon with A 3 against 12 models gathers 7 attack dice."""
    counts, _ = gather_attack_dice(
        ScriptedDice(), 1, attacker(weapon(["blast 2"], attacks="3")), unit(12), context()
    )
    assert counts.tolist() == [7]


def test_blast_10e_example_2d6_roll_of_9_against_eleven_models_makes_11_attacks():
    """10e Blast: 2D6 attacks rolled as 9 against 11 models -> 11 attacks."""
    dice = ScriptedDice(4, 5)
    counts, _ = gather_attack_dice(
        dice, 1, attacker(weapon(["blast"], attacks="2D6")), unit(11), context(TENTH)
    )
    assert counts.tolist() == [11]
    dice.assert_used_up()


@both_editions
def test_rapid_fire_1_seed_example_two_attacks_at_half_range(edition):
    """11e 24.30 / 10e Rapid Fire: A 1 with [RAPID FIRE 1] at half range makes 2 attacks."""
    profile = attacker(weapon(["rapid fire 1"], attacks="1"))
    near, _ = gather_attack_dice(
        ScriptedDice(), 1, profile, unit(), context(edition, half_range=True)
    )
    far, _ = gather_attack_dice(ScriptedDice(), 1, profile, unit(), context(edition))
    assert (near.tolist(), far.tolist()) == ([2], [1])


def test_random_attacks_are_rolled_per_model():
    dice = ScriptedDice(3, 5)
    counts, _ = gather_attack_dice(
        dice, 1, attacker(weapon(attacks="D6"), models=2), unit(), context()
    )
    assert counts.tolist() == [8]


# --- 05.01 Hit rolls -----------------------------------------------------------------------


@both_editions
def test_hit_roll_bs3_one_fails_six_is_critical(edition):
    outcome = hits_of([1, 2, 3, 6], weapon(skill=3), ctx=context(edition))
    assert outcome.hits.tolist() == [2]
    assert outcome.critical_hits.tolist() == [1]
    tray = outcome.record.tray()
    assert tray["dice"] == [1, 2, 3, 6] and tray["target"] == 3
    assert tray["summary"] == "4 hit rolls, BS 3+: 2 hits, 1 critical"


@pytest.mark.parametrize(
    ("dice", "summary"),
    [([4], "1 hit roll, BS 3+: 1 hit"), ([1], "1 hit roll, BS 3+: 0 hits")],
)
def test_a_tray_summary_says_one_die_and_one_hit_in_the_singular(dice, summary):
    assert hits_of(dice, weapon(skill=3)).record.tray()["summary"] == summary


@both_editions
def test_hit_modifiers_are_capped_at_plus_one(edition):
    """10e Hit Roll: never modified by more than +1 (AMB-06: also 11e)."""
    plus_two = (Modifier("hit", "add", 1, source="a"), Modifier("hit", "add", 1, source="b"))
    plan = plan_hits(attacker(weapon(skill=4)), unit(), context(edition, modifiers=plus_two))
    assert plan.modifier == 1
    outcome = hits_of([2, 3], weapon(skill=4), ctx=context(edition, modifiers=plus_two))
    assert outcome.hits.tolist() == [1]


@both_editions
def test_unmodified_one_fails_even_with_plus_one(edition):
    ctx = context(edition, modifiers=(Modifier("hit", "add", 1),))
    assert hits_of([1], weapon(skill=2), ctx=ctx).hits.tolist() == [0]


def test_cover_worsens_ballistic_skill_in_11e_only():
    """11e 13.08: cover worsens the attack's BS by 1; 10e cover acts on the save instead."""
    assert plan_hits(attacker(weapon(skill=3)), unit(), context(ELEVENTH, cover=True)).skill == 4
    assert plan_hits(attacker(weapon(skill=3)), unit(), context(TENTH, cover=True)).skill == 3
    ignores = weapon(["ignores cover"], skill=3)
    assert plan_hits(attacker(ignores), unit(), context(ELEVENTH, cover=True)).skill == 3


def test_cover_and_a_plus_one_both_apply_because_bs_is_a_characteristic():
    """AMB-06: cover changes the BS characteristic; it is not a capped roll modifier."""
    ctx = context(ELEVENTH, cover=True, modifiers=(Modifier("hit", "add", 1),))
    plan = plan_hits(attacker(weapon(skill=3)), unit(), ctx)
    assert (plan.skill, plan.modifier) == (4, 1)


def test_torrent_hits_automatically_rolls_nothing_and_is_never_critical():
    """24.37 + 01.05.01: no hit roll, no critical, so no [SUSTAINED HITS]."""
    outcome = hits_of([], weapon(["torrent", "sustained hits 2"], skill=None), count=4)
    assert outcome.hits.tolist() == [4]
    assert outcome.critical_hits.tolist() == [0]
    assert outcome.record.tray()["rule"] == "01.05.01"


@both_editions
def test_sustained_hits_2_seed_example_one_critical_is_three_hits(edition):
    """24.36 / 10e Sustained Hits: a critical hit with [SUSTAINED HITS 2] hits three times."""
    outcome = hits_of([6], weapon(["sustained hits 2"]), ctx=context(edition))
    assert outcome.hits.tolist() == [3]


def test_sustained_hits_d3_is_rolled_per_critical():
    dice = ScriptedDice(6, 6, 5, 2)  # two critical hits, then D3 rolls of 5 -> 3 and 2 -> 1
    outcome = hit_step(
        dice, np.array([2]), attacker(weapon(["sustained hits d3"])), unit(), context()
    )
    assert outcome.hits.tolist() == [2 + 3 + 1]
    dice.assert_used_up()


def test_lethal_hits_critical_wounds_automatically_and_is_optional_in_11e():
    """24.23: the attacker may choose the automatic wound (11e); 10e always applies it."""
    taken = hits_of([6, 4], weapon(["lethal hits"]))
    assert (taken.automatic_wounds.tolist(), taken.to_wound.tolist()) == ([1], [1])
    declined = hits_of([6, 4], weapon(["lethal hits"]), ctx=context(lethal_hits_auto_wound=False))
    assert (declined.automatic_wounds.tolist(), declined.to_wound.tolist()) == ([0], [2])
    forced = hits_of(
        [6, 4], weapon(["lethal hits"]), ctx=context(TENTH, lethal_hits_auto_wound=False)
    )
    assert forced.automatic_wounds.tolist() == [1]


def test_heavy_11e_needs_a_braced_unit_10e_a_stationary_one():
    """11e 24.16: unengaged, not set up, no model moved more than 3"; 10e Heavy: stationary."""
    heavy = attacker(weapon(["heavy"]))
    assert plan_hits(heavy, unit(), context(ELEVENTH, moved_more_than_3=False)).modifier == 1
    assert plan_hits(heavy, unit(), context(ELEVENTH, moved_more_than_3=True)).modifier == 0
    assert plan_hits(heavy, unit(), context(TENTH, moved_more_than_3=False)).modifier == 0
    assert plan_hits(heavy, unit(), context(TENTH, remained_stationary=True)).modifier == 1


def test_hit_reroll_grant_rerolls_ones_once():
    ctx = context(modifiers=(Modifier("hit", "reroll", "ones", source="Ruthless Discipline"),))
    outcome = hits_of([1, 4, 1], weapon(), ctx=ctx, count=2)
    assert outcome.hits.tolist() == [1]
    assert outcome.record.tray()["rerolled"] == [{"position": 0, "from": 1, "to": 1}]


def test_close_quarters_monster_shooting_a_non_pistol_is_minus_one():
    """11e 10.06: MONSTER/VEHICLE close-quarters shooting is -1 unless [CLOSE-QUARTERS]."""
    ctx = context(engaged=True, target_engaged_with_attacker=True)
    big = attacker(weapon(), keywords={"VEHICLE"})
    pistol = attacker(weapon(["pistol"]), keywords={"VEHICLE"})
    assert plan_hits(big, unit(), ctx).modifier == -1
    assert plan_hits(pistol, unit(), ctx).modifier == 0


# --- Eligibility: [ASSAULT], [PISTOL]/[CLOSE-QUARTERS], [BLAST], [EXTRA ATTACKS] -------------


@pytest.mark.parametrize("edition", [TENTH, ELEVENTH])
def test_assault_lets_an_advanced_unit_shoot(edition):
    """10e Assault; 11e 10.05 assault shooting: only [ASSAULT] weapons after an advance
    (rulings R-CB-03)."""
    with pytest.raises(Refusal) as refused:
        check_weapon_may_attack(attacker(weapon()), unit(), context(edition, advanced=True))
    assert refused.value.code == "advanced_without_assault"
    check_weapon_may_attack(attacker(weapon(["assault"])), unit(), context(edition, advanced=True))


def test_engaged_infantry_shoot_only_pistols_or_close_quarters_weapons():
    """11e 24.07, 24.27, 10.06."""
    ctx = context(engaged=True, target_engaged_with_attacker=True)
    with pytest.raises(Refusal) as refused:
        check_weapon_may_attack(attacker(weapon()), unit(), ctx)
    assert refused.value.code == "close_quarters_weapon_required"
    check_weapon_may_attack(attacker(weapon(["pistol"])), unit(), ctx)
    check_weapon_may_attack(attacker(weapon(["close-quarters"])), unit(), ctx)


@both_editions
def test_blast_never_at_units_engaged_with_the_army(edition):
    """10e Blast; 11e 04.02 (targets are unengaged) and 17.03, whose example lets an engaged
    VEHICLE be shot at, but not with [BLAST] weapons (docs/rulings.md R-CB-12)."""
    blast = attacker(weapon(["blast"]))
    army = dict(target_engaged_with_attacker_army=True)
    with pytest.raises(Refusal) as refused:
        check_weapon_may_attack(blast, unit(keywords=["VEHICLE"]), context(edition, **army))
    assert refused.value.code == "blast_against_engaged"


@both_editions
def test_only_monsters_and_vehicles_engaged_with_your_army_can_be_shot_at(edition):
    """11e 04.02 + 17.03; 10e Big Guns Never Tire: an engaged INFANTRY unit is no target; an
    engaged VEHICLE is, at -1 to hit; the unit engaged with it shoots it by close-quarters
    shooting without that -1 for a [PISTOL]/[CLOSE-QUARTERS] weapon."""
    gun, pistol = attacker(weapon()), attacker(weapon(["pistol"]))
    army = dict(target_engaged_with_attacker_army=True)
    with pytest.raises(Refusal) as refused:
        check_weapon_may_attack(gun, unit(keywords=["INFANTRY"]), context(edition, **army))
    assert refused.value.code == "target_engaged"
    vehicle = unit(keywords=["VEHICLE"])
    check_weapon_may_attack(gun, vehicle, context(edition, **army))
    assert plan_hits(gun, vehicle, context(edition, **army)).modifier == -1
    own_fight = context(edition, engaged=True, target_engaged_with_attacker=True, **army)
    check_weapon_may_attack(pistol, unit(keywords=["INFANTRY"]), own_fight)
    assert plan_hits(pistol, vehicle, own_fight).modifier == 0


def test_extra_attacks_weapons_are_used_in_addition():
    from rules.engine.attacks.sequence import check_melee_selection

    sword, claws = weapon(range_=None), weapon(["extra attacks"], range_=None)
    check_melee_selection([sword, claws], [sword, claws])
    with pytest.raises(Refusal):
        check_melee_selection([sword, claws], [sword])


# --- 05.02 Wound rolls ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [(8, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (4, 8, 6), (9, 4, 2)],
)
def test_strength_against_toughness_table(strength, toughness, needed):
    """AMB-05: the S-versus-T table."""
    assert required_wound_roll(strength, np.array([toughness])).tolist() == [needed]


def wounds_of(values, profile, target=None, ctx=None, to_wound=None):
    dice = ScriptedDice(*values)
    hits = hits_of([4] * (to_wound or len(values)), profile, target, ctx)
    target = target or unit()
    alive = np.ones((1, len(target.models)), dtype=bool)
    outcome = wound_step(dice, hits, attacker(profile), target, alive, ctx or context())
    dice.assert_used_up()
    return outcome


@both_editions
def test_wound_roll_critical_on_six_and_one_fails(edition):
    outcome = wounds_of([1, 3, 4, 6], weapon(strength=4), ctx=context(edition))
    assert (outcome.wounds.tolist(), outcome.critical_wounds.tolist()) == ([2], [1])


def test_anti_infantry_4_plus_makes_unmodified_4_critical_against_infantry_only():
    """24.03."""
    profile = weapon(["anti-infantry 4+", "devastating wounds"], strength=3)
    infantry = wounds_of([4, 3], profile, unit(keywords={"INFANTRY"}))
    assert (infantry.critical_wounds.tolist(), infantry.devastating.tolist()) == ([1], [1])
    vehicle = wounds_of([4, 3], profile, unit(keywords={"VEHICLE"}))
    assert vehicle.critical_wounds.tolist() == [0]


def test_lance_adds_one_to_the_wound_roll_after_a_charge():
    """24.21: S4 vs T4 needs 4+; a 3 wounds only with [LANCE] after a charge."""
    assert wounds_of([3], weapon(["lance"]), ctx=context(charged=True)).wounds.tolist() == [1]
    assert wounds_of([3], weapon(["lance"]), ctx=context()).wounds.tolist() == [0]


def test_twin_linked_rerolls_failed_wound_rolls():
    """10e Twin-linked (both editions, docs/rulings.md)."""
    dice = ScriptedDice(4, 4, 2, 5, 3)  # hits: 4 4; wounds: 2 5; re-roll of the 2: 3 fails
    hits = hit_step(dice, np.array([2]), attacker(weapon(["twin-linked"])), unit(), context())
    outcome = wound_step(
        dice, hits, attacker(weapon(["twin-linked"])), unit(), np.ones((1, 5), bool), context()
    )
    assert outcome.wounds.tolist() == [1]
    assert outcome.record.tray()["rerolled"] == [{"position": 0, "from": 2, "to": 3}]
    dice.assert_used_up()


def test_lethal_hits_automatic_wound_is_not_rolled_so_not_devastating():
    """24.23 designer's note."""
    profile = weapon(["lethal hits", "devastating wounds"])
    dice = ScriptedDice(6)
    hits = hit_step(dice, ONE, attacker(profile), unit(), context())
    outcome = wound_step(dice, hits, attacker(profile), unit(), np.ones((1, 5), bool), context())
    assert (outcome.wounds.tolist(), outcome.devastating.tolist()) == ([1], [0])
    dice.assert_used_up()


def test_multiple_toughness_attached_unit_uses_highest_bodyguard_toughness():
    """11e 05.02.01: attached unit -> highest T among bodyguard models; else highest T."""
    leader = TargetModel(toughness=6, save=2, wounds=5, character=True, bodyguard=False)
    guard = TargetModel(toughness=4, save=3, wounds=2)
    attached = TargetUnit((guard, guard, leader), attached=True)
    alive = np.ones((1, 3), dtype=bool)
    assert target_toughness(attached, alive, context()).tolist() == [4]
    mixed = TargetUnit((guard, guard, leader))
    assert target_toughness(mixed, alive, context()).tolist() == [6]
    only_leader = np.array([[False, False, True]])
    assert target_toughness(attached, only_leader, context()).tolist() == [6]


def test_game_stops_between_roll_and_resolve_for_a_command_reroll():
    """The game rolls, lets the player re-roll one chosen die (11e 15.02), then resolves."""
    from rules.engine.attacks.sequence import resolve_hits, roll_hits

    profile, target, ctx = attacker(weapon()), unit(), context()
    dice = ScriptedDice(2, 5, 1, 4)
    counts = np.array([3])
    plan = plan_hits(profile, target, ctx)
    batch = roll_hits(dice, counts, plan)
    chosen = np.array([[False, False, True]])
    batch = batch.reroll(dice, chosen)
    outcome = resolve_hits(dice, counts, batch, plan, profile, target, ctx)
    assert outcome.hits.tolist() == [2]
    with pytest.raises(Refusal) as refused:
        batch.reroll(dice, chosen)
    assert refused.value.code == "reroll_not_allowed"
    dice.assert_used_up()


def test_a_model_shoots_pistols_or_other_weapons_not_both_unless_monster_or_vehicle():
    """11e 24.07 / 24.27."""
    from rules.engine.attacks.sequence import check_ranged_selection

    pistol, rifle = weapon(["pistol"]), weapon()
    with pytest.raises(Refusal) as refused:
        check_ranged_selection([pistol, rifle], monster_or_vehicle=False)
    assert refused.value.code == "close_quarters_or_other_weapons"
    check_ranged_selection([pistol, rifle], monster_or_vehicle=True)
    check_ranged_selection([pistol], monster_or_vehicle=False)


def test_blast_x_is_read_with_or_without_its_value():
    """11e 24.05: [BLAST] and [BLAST X] (notation extended for the X form)."""
    from rules.engine.core.notation import parse_weapon_ability

    assert str(parse_weapon_ability("[BLAST 2]")) == "BLAST 2"
    assert parse_weapon_ability("blast").value is None
