"""Detachment stratagems in play, one scenario each: the effect and at least one refusal.

Astra Militarum (seed 003), Grey Knights (seed 004), Imperial Agents (seed 000). Their effects are
attack-pipeline modifiers (docs/attacks.md) carried by persisting effects, or eligibility effects.
"""

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.phases.shooting import ineligibility
from rules.engine.phases.shooting_targets import weapon_options
from rules.engine.sequence.game import legal_actions
from tests.engine_world import decide, kill, play, script_dice, shoot_at
from tests.stratagem_world import (
    CADIANS,
    CADIANS_2,
    LED_SQUAD,
    SQUAD,
    choose,
    offered,
    pass_windows,
    place_unit,
    stratagem_game,
    to_phase,
    usable,
    use,
    window,
)


def granted(state, attacker, target):
    return {
        (m.step, m.kind, m.value, tuple(sorted(dict(m.condition).items())))
        for m in attack_modifiers(state, attacker, target)
    }


def flagged(state, unit, flag):
    ctx = Context(state)
    set_flag(ctx, unit, flag)
    return ctx.state


def usable_actions(state, player):
    return [a for a in legal_actions(state, player) if a["type"] == "use_stratagem"]


def refused(state, player, slug, target):
    with pytest.raises(Refusal) as refusal:
        use(state, player, slug, target)
    return refusal.value.code


def in_own_phase(player, phase, detachment, cp=5, edition="11e", other_detachment=None):
    detachments = {player: detachment, 3 - player: other_detachment}
    state = stratagem_game(edition, detachments, first=player)
    state["players"][str(player)]["cp"] = cp
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, LED_SQUAD, 30.0, 20.0)
    place_unit(state, CADIANS, 10.0, 30.0)
    place_unit(state, CADIANS_2, 30.0, 30.0)
    return to_phase(state, player, phase)


def shot_at(shooter, target, detachment_of_target, cp=5):
    """The other player's Shooting phase: `shooter` selects `target`."""
    target_player = 1 if target in (SQUAD, LED_SQUAD) else 2
    shooter_player = 3 - target_player
    state = in_own_phase(shooter_player, "shooting", None, other_detachment=detachment_of_target)
    state["players"][str(target_player)]["cp"] = cp
    state, _ = play(state, shoot_at(state, shooter_player, shooter, [target]))
    return state


RANGED = (("weapon_type", "ranged"),)
MELEE = (("weapon_type", "melee"),)


# --- Astra Militarum --------------------------------------------------------------------------


def test_veteran_sharpshooters_gives_ranged_weapons_ignores_cover():
    state = in_own_phase(2, "shooting", "grizzled-company")
    state, _ = use(state, 2, "veteran-sharpshooters", CADIANS)
    assert granted(state, CADIANS, SQUAD) == {("ability", "grant", "ignores cover", RANGED)}


def test_veteran_sharpshooters_refuses_a_unit_that_has_shot_and_a_second_use():
    state = in_own_phase(2, "shooting", "grizzled-company")
    state, _ = play(state, shoot_at(state, 2, CADIANS, [SQUAD]))
    assert refused(state, 2, "veteran-sharpshooters", CADIANS) == "invalid_stratagem_target"
    state, _ = use(state, 2, "veteran-sharpshooters", CADIANS_2)
    assert refused(state, 2, "veteran-sharpshooters", CADIANS_2) == "stratagem_used_this_phase"


def test_accuracy_under_pressure_lets_the_unit_re_roll_hit_rolls():
    state = in_own_phase(2, "shooting", "steel-hammer")
    state, _ = use(state, 2, "accuracy-under-pressure", CADIANS)
    assert granted(state, CADIANS, SQUAD) == {("hit", "reroll", "any", ())}
    assert state["players"]["2"]["cp"] == 3


def test_accuracy_under_pressure_costs_2cp():
    state = in_own_phase(2, "shooting", "steel-hammer", cp=1)
    assert refused(state, 2, "accuracy-under-pressure", CADIANS) == "not_enough_command_points"


def test_opening_salvo_adds_1_to_wound_rolls_of_a_unit_that_disembarked():
    state = in_own_phase(2, "shooting", "armoured-infantry")
    assert refused(state, 2, "opening-salvo", CADIANS) == "invalid_stratagem_target"
    state = flagged(state, CADIANS, "disembarked")
    assert {u for u in usable(state, 2) if u[0] == "opening-salvo"} == {("opening-salvo", CADIANS)}
    state, _ = use(state, 2, "opening-salvo", CADIANS)
    assert granted(state, CADIANS, SQUAD) == {("wound", "add", 1, ())}


def test_additional_armour_worsens_ap_of_the_attacking_unit_only():
    state = shot_at(SQUAD, CADIANS, "grizzled-company")
    assert offered(state) == {("additional-armour", CADIANS)}  # not the unit nobody shot at
    state, _ = choose(state, "additional-armour", CADIANS)
    assert granted(state, SQUAD, CADIANS) == {("ap", "worsen", 1, ())}
    assert granted(state, LED_SQUAD, CADIANS) == set()


# --- Grey Knights -----------------------------------------------------------------------------


def test_truesilver_armour_worsens_ap_against_the_attacker():
    state = shot_at(CADIANS, SQUAD, "teleport-strike-force")
    assert offered(state) == {("truesilver-armour", SQUAD)}
    state, _ = choose(state, "truesilver-armour", SQUAD)
    assert granted(state, CADIANS, SQUAD) == {("ap", "worsen", 1, ())}
    assert granted(state, CADIANS_2, SQUAD) == set()


def test_truesilver_armour_is_not_offered_without_cp():
    state = shot_at(CADIANS, SQUAD, "teleport-strike-force", cp=0)
    assert window(state) is None


def test_death_from_the_warp_gives_assault_and_plus_1_to_hit_until_the_end_of_the_turn():
    state = in_own_phase(1, "movement", "teleport-strike-force")
    assert refused(state, 1, "death-from-the-warp", SQUAD) == "invalid_stratagem_target"
    state = flagged(state, SQUAD, "advanced")
    state, _ = use(state, 1, "death-from-the-warp", SQUAD)
    assert granted(state, SQUAD, CADIANS) == {
        ("ability", "grant", "assault", RANGED),
        ("hit", "add", 1, ()),
    }
    state = to_phase(state, 1, "fight")
    assert len(granted(state, SQUAD, CADIANS)) == 2
    state = to_phase(state, 2, "command")
    assert granted(state, SQUAD, CADIANS) == set()


def test_radiant_strike_gives_psychic_melee_weapons_devastating_wounds():
    state = in_own_phase(1, "shooting", "teleport-strike-force")
    assert refused(state, 1, "radiant-strike", SQUAD) == "stratagem_not_usable_now"
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 1, "fight")
    state, _ = use(state, 1, "radiant-strike", SQUAD)
    assert granted(state, SQUAD, CADIANS) == {
        (
            "ability",
            "grant",
            "devastating wounds",
            (("weapon_ability", "PSYCHIC"), ("weapon_type", "melee")),
        )
    }


def test_sanctified_slaughter_gives_sustained_hits_to_a_unit_that_charged():
    state = in_own_phase(1, "fight", "void-purge-force")
    assert refused(state, 1, "sanctified-slaughter", SQUAD) == "invalid_stratagem_target"
    state = flagged(state, SQUAD, "charged")
    state, _ = use(state, 1, "sanctified-slaughter", SQUAD)
    assert granted(state, SQUAD, CADIANS) == {
        ("ability", "grant", "sustained hits 1", MELEE),
        (
            "hit",
            "critical",
            5,
            (("printed_weapon_ability", "SUSTAINED HITS"), ("weapon_type", "melee")),
        ),
    }


def test_hexbane_wards_gives_the_attacking_unit_hazardous_melee_weapons():
    state = stratagem_game("11e", {1: "void-purge-force"}, first=2)
    state["players"]["1"]["cp"] = 3
    kill(state, SQUAD, 4)  # one Grey Knight: the Cadians it fights stay in the combat
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 2, "fight")
    # 11e 12.04: the player whose turn it is (2) selects first.
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS})
    assert ("hexbane-wards", SQUAD) in offered(state)
    state, events = choose(state, "hexbane-wards", SQUAD)
    assert granted(state, CADIANS, SQUAD) == {("ability", "grant", "hazardous", MELEE)}
    while window(state):
        state, more = decide(state, "pass")
        events += more
    # The Cadians' attacks come after the window: their melee weapons are [HAZARDOUS] now.
    assert [e["unit"] for e in events if e["type"] == "hazard_rolled"] == [CADIANS]


# --- Imperial Agents --------------------------------------------------------------------------


def test_will_sapping_salvo_gives_an_agents_infantry_unit_sustained_hits():
    state = in_own_phase(1, "shooting", "veiled-blade-elimination-force")
    salvo = {u for u in usable(state, 1) if u[0] == "will-sapping-salvo"}
    assert salvo == {("will-sapping-salvo", LED_SQUAD)}  # the Inquisitor's unit only
    assert refused(state, 1, "will-sapping-salvo", SQUAD) == "invalid_stratagem_target"
    state, _ = use(state, 1, "will-sapping-salvo", LED_SQUAD)
    assert granted(state, LED_SQUAD, CADIANS) == {("ability", "grant", "sustained hits 1", RANGED)}


def test_hyperstimms_adds_1_to_toughness_of_a_targeted_agents_character_unit():
    state = shot_at(CADIANS, LED_SQUAD, "veiled-blade-elimination-force")
    assert ("hyperstimms", LED_SQUAD) in offered(state)
    state, _ = choose(state, "hyperstimms", LED_SQUAD)
    assert granted(state, CADIANS, LED_SQUAD) == {("toughness", "add", 1, ())}


def test_hyperstimms_is_not_for_a_unit_without_a_character():
    state = shot_at(CADIANS, SQUAD, "veiled-blade-elimination-force")
    assert window(state) is None


def test_emperors_will_lets_a_unit_that_advanced_shoot():
    state = in_own_phase(1, "movement", "imperialis-fleet", edition="10e")
    state = flagged(state, LED_SQUAD, "advanced")
    assert ineligibility(state, state["units"][LED_SQUAD]).code == "advanced"
    assert refused(state, 1, "emperors-will", SQUAD) == "invalid_stratagem_target"
    state, _ = use(state, 1, "emperors-will", LED_SQUAD)
    state = to_phase(state, 1, "shooting")
    assert ineligibility(state, state["units"][LED_SQUAD]) is None


def test_prime_target_re_rolls_wound_rolls_of_1_against_character_units():
    state = in_own_phase(1, "shooting", "veiled-blade-elimination-force")
    state, _ = use(state, 1, "prime-target", LED_SQUAD)
    (reroll,) = attack_modifiers(state, LED_SQUAD, CADIANS)
    assert (reroll.step, reroll.kind, reroll.value, dict(reroll.condition)) == (
        "wound",
        "reroll",
        "ones",
        {"target_keyword": "CHARACTER"},
    )


def test_prime_target_refuses_a_unit_without_agents_and_one_that_has_shot():
    state = in_own_phase(1, "shooting", "veiled-blade-elimination-force")
    assert refused(state, 1, "prime-target", SQUAD) == "invalid_stratagem_target"
    state, _ = play(state, shoot_at(state, 1, LED_SQUAD, [CADIANS_2]))
    state = pass_windows(state)
    assert refused(state, 1, "prime-target", LED_SQUAD) == "invalid_stratagem_target"


def test_prime_target_lets_an_officio_assassinorum_unit_re_roll_wounds_against_the_warlord():
    from tests.engine_world import BUNDLE

    sheets = [
        {**s, "faction_keywords": [*s["faction_keywords"], "OFFICIO ASSASSINORUM"]}
        if s["slug"] == "inquisitor"
        else s
        for s in BUNDLE["datasheets"]
    ]
    state = stratagem_game(
        "11e", {1: "veiled-blade-elimination-force"}, datasheets=sheets
    )  # player 2's warlord leads CADIANS
    state["players"]["1"]["cp"] = 3
    state = to_phase(state, 1, "shooting")
    state, _ = use(state, 1, "prime-target", LED_SQUAD)
    against_warlord = {(m.kind, m.value) for m in attack_modifiers(state, LED_SQUAD, CADIANS)}
    against_other = {(m.kind, m.value) for m in attack_modifiers(state, LED_SQUAD, CADIANS_2)}
    assert ("reroll", "any") in against_warlord
    assert ("reroll", "any") not in against_other


def tanglefoot_window():
    state = stratagem_game("11e", {2: "recon-element"})
    state["players"]["2"]["cp"] = 3
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, LED_SQUAD, 50.0, 20.0)
    place_unit(state, CADIANS, 20.0, 28.0)
    state = to_phase(state, 1, "shooting")
    state, _ = play(state, {"type": "end_phase", "player": 1})  # start of player 1's Charge
    return state


def test_tanglefoot_grenades_give_the_enemy_unit_minus_1_to_its_charge_roll():
    state = tanglefoot_window()
    options = [o for o in window(state)["options"] if o != "pass"]
    assert {(o["target"], o["enemy"]) for o in options} == {(CADIANS, SQUAD)}
    state, _ = decide(state, options[0])
    state, events = play(
        state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": [CADIANS]}
    )
    (charge,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    assert charge["modifier"] == -1 and charge["total"] == sum(charge["values"]) - 1


def test_tanglefoot_grenades_refuse_an_enemy_beyond_12_inches_and_last_one_phase():
    state = tanglefoot_window()
    far = {"stratagem": "tanglefoot-grenades", "target": CADIANS, "enemy": LED_SQUAD}
    assert not any(o != "pass" and o["enemy"] == LED_SQUAD for o in window(state)["options"]), far
    option = next(o for o in window(state)["options"] if o != "pass")
    state, _ = decide(state, option)
    state = to_phase(state, 1, "fight")
    assert not [e for e in state["effects"] if e["source"] == "tanglefoot-grenades"]


def test_violent_acquisition_arms_attacks_against_units_on_objectives():
    state = in_own_phase(1, "shooting", "imperialis-fleet")
    place_unit(state, CADIANS, 28.0, 37.0)  # on objective o5 (30, 38)
    place_unit(state, CADIANS_2, 10.0, 30.0)  # on none
    assert refused(state, 1, "violent-acquisition", SQUAD) == "invalid_stratagem_target"
    state, _ = use(state, 1, "violent-acquisition", LED_SQUAD)
    assert {m.value for m in attack_modifiers(state, LED_SQUAD, CADIANS)} == {
        "sustained hits 1",
        "lance",
        "ignores cover",
    }
    assert attack_modifiers(state, LED_SQUAD, CADIANS_2) == ()


def test_flare_burst_re_rolls_hits_against_visible_units_within_12_inches():
    from tests.engine_world import army, entry

    armies = {
        "1": army(entry("ss1", "strike-squad", 5, warlord=True), entry("ss2", "strike-squad", 5)),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True),
            entry("drc", "death-rider-commissar", 1),
        ),
    }
    state = stratagem_game("11e", {2: "siege-regiment"}, first=2, armies=armies)
    state["players"]["2"]["cp"] = 3
    rider = "p2-u2"
    place_unit(state, rider, 20.0, 30.0)
    place_unit(state, "p1-u1", 20.0, 24.0)
    place_unit(state, "p1-u2", 50.0, 5.0)
    state = to_phase(state, 2, "shooting")
    assert refused(state, 2, "flare-burst", "p2-u1") == "invalid_stratagem_target"
    state, _ = use(state, 2, "flare-burst", rider)
    assert {(m.step, m.value) for m in attack_modifiers(state, rider, "p1-u1")} == {("hit", "any")}
    assert attack_modifiers(state, rider, "p1-u2") == ()


def exorcism_game():
    from tests.engine_world import BUNDLE

    sheets = [
        {**s, "keywords": [*s["keywords"], "DAEMON"]} if s["slug"] == "cadian-shock-troops" else s
        for s in BUNDLE["datasheets"]
    ]
    state = stratagem_game("11e", {1: "ordo-malleus-daemon-hunters"}, datasheets=sheets)
    state["players"]["1"]["cp"] = 3
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, SQUAD, 30.0, 20.0)
    place_unit(state, CADIANS, 20.0, 28.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    return to_phase(state, 1, "shooting")


def test_rites_of_exorcism_gives_agents_devastating_wounds_against_a_daemon_that_fails():
    state = exorcism_game()
    options = [a for a in usable_actions(state, 1) if a["stratagem"] == "rites-of-exorcism"]
    assert {(a["target"], a["enemy"]) for a in options} == {(LED_SQUAD, CADIANS)}
    script_dice(state, [1, 1])
    state, events = play(state, options[0])
    assert [e["passed"] for e in events if e["type"] == "battle_shock_rolled"] == [False]
    assert {m.value for m in attack_modifiers(state, LED_SQUAD, CADIANS)} == {"devastating wounds"}
    assert attack_modifiers(state, SQUAD, CADIANS) == ()  # no AGENTS OF THE IMPERIUM unit


def test_rites_of_exorcism_does_nothing_more_when_the_test_is_passed_and_needs_a_warden():
    state = exorcism_game()
    assert refused(state, 1, "rites-of-exorcism", SQUAD) == "invalid_stratagem_target"
    option = next(a for a in usable_actions(state, 1) if a["stratagem"] == "rites-of-exorcism")
    script_dice(state, [6, 6])
    state, _ = play(state, option)
    assert attack_modifiers(state, LED_SQUAD, CADIANS) == ()


def ranged_targets(state, unit_id):
    """The enemy units any of the unit's ranged weapons may target (Select Targets)."""
    return {
        t for option in weapon_options(state, state["units"][unit_id]) for t in option["targets"]
    }


def test_orbital_oversight_keeps_shooters_beyond_18_inches_from_targeting_the_unit():
    state = stratagem_game("11e", {1: "veiled-blade-elimination-force"}, first=2)
    state["players"]["1"]["cp"] = 3
    place_unit(state, LED_SQUAD, 20.0, 10.0)
    place_unit(state, SQUAD, 35.0, 10.0)
    place_unit(state, CADIANS, 20.0, 22.0)  # about 10" away
    place_unit(state, CADIANS_2, 25.0, 32.0)  # about 20" away, in range of the lasguns
    state = to_phase(state, 2, "shooting")
    assert LED_SQUAD in ranged_targets(state, CADIANS_2)
    state, _ = play(
        state,
        shoot_at(state, 2, CADIANS, [LED_SQUAD, SQUAD]),
    )
    assert {o for o in offered(state) if o[0] == "orbital-oversight"} == {
        ("orbital-oversight", LED_SQUAD)  # SQUAD: no AGENTS unit
    }
    state, _ = choose(state, "orbital-oversight", LED_SQUAD)
    assert LED_SQUAD not in ranged_targets(state, CADIANS_2)
    assert SQUAD in ranged_targets(state, CADIANS_2)


def diversion_window():
    state = stratagem_game("11e", {2: "recon-element"})
    state["players"]["2"]["cp"] = 3
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, LED_SQUAD, 50.0, 5.0)
    place_unit(state, CADIANS, 20.0, 20.0)
    place_unit(state, CADIANS_2, 24.0, 32.0)
    state = to_phase(state, 1, "movement")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    while window(state)["resume"]["triggers"] == ["phase_end"]:  # 11e Fire Overwatch: pass
        state, _ = decide(state, "pass")
    return state  # the start of player 1's Shooting phase


def test_courageous_diversion_gives_feel_no_pain_and_minus_1_to_hit_as_the_closest_target():
    state = diversion_window()
    assert offered(state) == {
        ("courageous-diversion", CADIANS),
        ("courageous-diversion", CADIANS_2),
    }
    state, _ = choose(state, "courageous-diversion", CADIANS_2)
    # CADIANS is closer to SQUAD: CADIANS_2 only has Feel No Pain against it
    assert {(m.step, m.value) for m in attack_modifiers(state, SQUAD, CADIANS_2)} == {
        ("feel_no_pain", 6)
    }
    place_unit(state, CADIANS, 55.0, 40.0)
    assert {(m.step, m.value) for m in attack_modifiers(state, SQUAD, CADIANS_2)} == {
        ("feel_no_pain", 6),
        ("hit", -1),
    }


def test_courageous_diversion_is_only_at_the_start_of_the_opponents_shooting_phase():
    state = diversion_window()
    state, _ = decide(state, "pass")
    state = to_phase(state, 2, "movement")
    state, _ = play(state, {"type": "end_phase", "player": 2})
    while window(state) and window(state)["resume"]["triggers"] == ["phase_end"]:
        state, _ = decide(state, "pass")  # player 1's 11e Fire Overwatch
    assert window(state) is None  # player 2's own Shooting phase: no Courageous Diversion


def test_blind_grenades_subtract_1_from_the_charge_roll_of_the_charging_unit():
    state = stratagem_game("11e", {1: "veiled-blade-elimination-force"}, first=2)
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, SQUAD, 45.0, 20.0)
    place_unit(state, CADIANS, 20.0, 28.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 1
    state["players"]["2"]["cp"] = 0  # no Command Re-roll window for player 2
    state, _ = play(
        state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [LED_SQUAD]}
    )
    assert offered(state) == {("blind-grenades", LED_SQUAD)}  # SQUAD was not charged
    state, events = choose(state, "blind-grenades", LED_SQUAD)
    (charge,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    assert charge["modifier"] == -1


def test_blind_grenades_are_not_offered_without_cp():
    state = stratagem_game("11e", {1: "veiled-blade-elimination-force"}, first=2)
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 28.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 0
    state["players"]["2"]["cp"] = 0
    state, events = play(
        state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [LED_SQUAD]}
    )
    assert window(state) is None
    assert [e["modifier"] for e in events if e["type"] == "dice_rolled"] == [0]


def officer_game():
    from tests.engine_world import army, entry

    armies = {
        "1": army(entry("ss1", "strike-squad", 5, warlord=True)),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True),
            entry("drc", "death-rider-commissar", 1),
            entry("cad2", "cadian-shock-troops", 10),
        ),
    }
    state = stratagem_game("11e", {2: "armoured-infantry"}, first=2, armies=armies)
    state["players"]["2"]["cp"] = 2
    place_unit(state, "p2-u2", 20.0, 30.0)  # the Death Rider Commissar (OFFICER)
    place_unit(state, "p2-u1", 20.0, 34.0)  # within 6"
    place_unit(state, "p2-u3", 50.0, 34.0)  # far away
    state, _ = play(state, {"type": "end_phase", "player": 2})  # start of the Movement phase
    return state


def test_order_the_advance_lets_units_near_the_officer_re_roll_advance_rolls():
    state = officer_game()
    assert offered(state) == {("order-the-advance", "p2-u2")}
    state, _ = choose(state, "order-the-advance", "p2-u2")
    script_dice(state, [1])
    state, _ = play(state, {"type": "advance", "player": 2, "unit": "p2-u1"})
    reroll = state["pending"][-1]
    assert reroll["kind"] == "choose_dice_to_reroll" and reroll["options"] == ["pass", [0]]
    script_dice(state, [6])
    state, _ = decide(state, [0])
    advance = state["pending"][-1]  # the die was re-rolled: no Command Re-roll window
    assert advance["kind"] == "advance_move" and advance["options"]["max_distance"] == 6 + 6


def test_order_the_advance_does_not_reach_units_beyond_6_inches():
    state = officer_game()
    state, _ = choose(state, "order-the-advance", "p2-u2")
    state["players"]["2"]["cp"] = 0
    state, _ = play(state, {"type": "advance", "player": 2, "unit": "p2-u3"})
    assert state["pending"][-1]["kind"] == "advance_move"  # no re-roll offered


def test_command_re_roll_in_play_on_an_advance_roll():
    state = officer_game()
    state, _ = decide(state, "pass")
    script_dice(state, [2])
    state, _ = play(state, {"type": "advance", "player": 2, "unit": "p2-u3"})
    assert offered(state) == {("command-re-roll-11e", "p2-u3")}
