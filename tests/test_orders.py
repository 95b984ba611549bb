"""Voice of Command and the Orders in play (seed 003 L157-171; CATALOGUE UA-VOICE-OF-COMMAND, 4.3).

Each scenario shows the rule's effect and at least one refusal. Player 2 is the Astra Militarum
army of `tests/orders_world.py`, in its Command phase of battle round 1.
"""

import pytest

from rules.engine.core.effects import characteristic
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.factions.astra_militarum.orders import current_orders, officer_profile, officers
from rules.engine.phases.battle_shock import battle_shock_roll
from rules.engine.phases.movement import movement_characteristic
from rules.engine.sequence.objectives import model_oc
from tests.engine_world import decide, end_phase, play, script_dice
from tests.orders_world import (
    CADIANS,
    CADIANS_2,
    CASTELLAN_MODEL,
    CHIMERA,
    COMMISSAR_MODEL,
    RIDERS,
    SQUAD_1,
    TANK,
    am_game,
    granted,
    model,
    next_own_command_phase,
    options,
    order,
    refused,
    stand,
)
from tests.stratagem_world import pass_windows

# --- Voice of Command -------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_voice_of_command_order_lasts_until_the_start_of_your_next_command_phase(edition):
    state = am_game(edition=edition)
    state, events = order(state, CASTELLAN_MODEL, "move-move-move", CADIANS_2)
    assert [e["order"] for e in events if e["type"] == "order_issued"] == ["move-move-move"]
    assert current_orders(state, CADIANS_2) == ["move-move-move"]
    assert movement_characteristic(state, state["units"][CADIANS_2]) == 9.0
    state, _ = end_phase(state)  # still affected in the Movement phase and the opponent's turn
    assert current_orders(state, CADIANS_2) == ["move-move-move"]
    state = next_own_command_phase(state)
    assert current_orders(state, CADIANS_2) == []
    assert movement_characteristic(state, state["units"][CADIANS_2]) == 6.0


def test_voice_of_command_only_in_your_command_phase_and_within_6_inches():
    state = am_game()
    # The Death Riders stand more than 6" from the Castellan model.
    assert refused(state, CASTELLAN_MODEL, "take-aim", RIDERS).code == "invalid_order"
    state, _ = end_phase(state)
    state = pass_windows(state)
    assert options(state) == set()
    with pytest.raises(Refusal) as refusal:
        order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    assert refusal.value.code == "wrong_phase"


def test_voice_of_command_one_order_at_a_time_a_new_one_replaces_it():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)
    state, _ = order(state, COMMISSAR_MODEL, "duty-and-honour", CADIANS_2)
    assert current_orders(state, CADIANS_2) == ["duty-and-honour"]
    assert granted(state, CADIANS_2, SQUAD_1) == set()  # Take Aim! is gone


def test_voice_of_command_counts_orders_per_battle_round():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)
    refusal = refused(state, CASTELLAN_MODEL, "take-cover", CADIANS)
    assert "all its Orders" in refusal.message
    assert not any(o[0] == CASTELLAN_MODEL for o in options(state))


def test_voice_of_command_not_to_battle_shocked_units_and_lost_on_battle_shock():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "take-cover", CADIANS_2)
    script_dice(state, [1, 1])
    ctx = Context(state)
    assert not battle_shock_roll(ctx, ctx.state["units"][CADIANS_2], "test")
    state = ctx.state
    assert current_orders(state, CADIANS_2) == []
    refusal = refused(state, CASTELLAN_MODEL, "take-cover", CADIANS_2)
    assert "battle-shocked" in refusal.message


def test_voice_of_command_only_astra_militarum_models_benefit():
    state = am_game()
    # An attached model without the ASTRA MILITARUM keyword gains nothing from the Order.
    state["datasheets"] = dict(state["datasheets"])
    castellan = dict(state["datasheets"]["cadian-castellan"], faction_keywords=["IMPERIUM"])
    state["datasheets"]["cadian-castellan"] = castellan
    state, _ = order(state, COMMISSAR_MODEL, "duty-and-honour", CADIANS)
    cadians = state["units"][CADIANS]
    trooper, castellan_model = cadians["models"][0], cadians["models"][10]
    assert characteristic(state, CADIANS, trooper, "OC") == 3
    assert characteristic(state, CADIANS, castellan_model, "OC") == 1


def test_voice_of_command_needs_an_astra_militarum_army_faction():
    state = am_game(faction="imperial-agents")
    assert officers(state, 2) == []
    assert options(state) == set()


def test_voice_of_command_at_the_end_of_a_phase_the_officer_was_set_up():
    state = am_game()
    state, _ = end_phase(state)  # player 2's Movement phase
    state = pass_windows(state)
    ctx = Context(state)
    set_flag(ctx, RIDERS, "arrived_from_reserves")  # as if the unit had arrived this phase
    state, _ = end_phase(ctx.state)
    state = pass_windows(state)
    top = state["pending"][-1]
    assert top["kind"] == "issue_order" and top["player"] == 2
    choices = [o for o in top["options"] if o != "done"]
    assert {o["officer"] for o in choices} == {COMMISSAR_MODEL}  # not the Castellan
    with pytest.raises(Refusal):  # not an Order of that Officer
        decide(state, {"officer": COMMISSAR_MODEL, "order": "take-aim", "unit": RIDERS})
    wanted = {"officer": COMMISSAR_MODEL, "order": "fix-bayonets", "unit": RIDERS}
    state, _ = decide(state, wanted)
    assert current_orders(state, RIDERS) == ["fix-bayonets"]
    assert state["pending"] == []  # its one Order is issued: the phase ended
    assert state["phase"] == "shooting"


def test_voice_of_command_no_orders_at_the_end_of_a_phase_nobody_was_set_up():
    state = am_game()
    state, _ = end_phase(state)
    state = pass_windows(state)
    state, _ = end_phase(state)
    assert state["phase"] == "shooting"


# --- the Orders ---------------------------------------------------------------------------------


def test_move_move_move_adds_3_inches_to_move():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "move-move-move", CADIANS)
    assert movement_characteristic(state, state["units"][CADIANS]) == 9.0
    assert refused(state, COMMISSAR_MODEL, "move-move-move", RIDERS).code == "invalid_order"


def test_fix_bayonets_improves_melee_weapon_skill():
    state = am_game()
    state, _ = order(state, COMMISSAR_MODEL, "fix-bayonets", RIDERS)
    assert granted(state, RIDERS, SQUAD_1) == {("skill", "improve", 1, (("weapon_type", "melee"),))}
    assert refused(state, COMMISSAR_MODEL, "fix-bayonets", TANK).code == "invalid_order"


def test_take_aim_improves_ballistic_skill():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    assert granted(state, CADIANS, SQUAD_1) >= {
        ("skill", "improve", 1, (("weapon_type", "ranged"),))
    }
    assert refused(state, COMMISSAR_MODEL, "take-aim", RIDERS).code == "invalid_order"


def test_first_rank_fire_second_rank_fire_adds_an_attack_to_ranged_weapons():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "first-rank-fire-second-rank-fire", CADIANS_2)
    assert granted(state, CADIANS_2, SQUAD_1) == {
        ("attacks", "add", 1, (("weapon_type", "ranged"),))
    }
    refusal = refused(state, COMMISSAR_MODEL, "first-rank-fire-second-rank-fire", CADIANS_2)
    assert refusal.code == "invalid_order"


def test_take_cover_improves_the_save():
    state = am_game()
    state, _ = order(state, CASTELLAN_MODEL, "take-cover", CADIANS_2)
    assert characteristic(state, CADIANS_2, model(state, CADIANS_2), "Sv") == 4
    assert refused(state, COMMISSAR_MODEL, "take-cover", CADIANS_2).code == "invalid_order"


def test_duty_and_honour_improves_leadership_and_objective_control():
    state = am_game()
    state, _ = order(state, COMMISSAR_MODEL, "duty-and-honour", RIDERS)
    rider = model(state, RIDERS)
    assert characteristic(state, RIDERS, rider, "Ld") == 6  # 7+ improved to 6+
    assert characteristic(state, RIDERS, rider, "OC") == 2
    assert refused(state, COMMISSAR_MODEL, "duty-and-honour", CHIMERA).code == "invalid_order"


def test_target_weak_spot_improves_ap_within_12_inches_for_the_aquilan_eye_bearer():
    state = am_game(detachment="grizzled-company", castellan=["aquilan-eye"])
    assert refused(state, COMMISSAR_MODEL, "target-weak-spot", RIDERS).code == "invalid_order"
    state, _ = order(state, CASTELLAN_MODEL, "target-weak-spot", CADIANS)
    ap = ("ap", "improve", 1, (("weapon_type", "ranged"),))
    assert ap not in granted(state, CADIANS, SQUAD_1)  # the Grey Knights are far away
    stand(state, SQUAD_1, 6.0, 24.0)
    assert ap in granted(state, CADIANS, SQUAD_1)


# --- the Officers' datasheets -------------------------------------------------------------------


def test_death_rider_commissar_orders_one_order_to_a_regiment_unit_two_orders_only():
    profile = officer_profile(
        "This Officer can issue 1 Order to a REGIMENT unit. This OFFICER can only issue the Duty "
        "and Honour! and Fix Bayonets! Orders."
    )
    assert (profile.orders, profile.recipients) == (1, ("REGIMENT",))
    assert set(profile.allowed) == {"duty-and-honour", "fix-bayonets"}
    state = am_game()
    commissar = {o for o in options(state) if o[0] == COMMISSAR_MODEL}
    assert {o[1] for o in commissar} == {"duty-and-honour", "fix-bayonets"}
    assert CHIMERA not in {o[2] for o in commissar}  # within 6" but a SQUADRON unit
    state, _ = order(state, COMMISSAR_MODEL, "fix-bayonets", RIDERS)
    assert refused(state, COMMISSAR_MODEL, "fix-bayonets", CADIANS).code == "invalid_order"


def test_cadian_castellan_orders_two_orders_to_regiment_units():
    profile = officer_profile("This OFFICER can issue 2 Orders to Regiment units.")
    assert (profile.orders, profile.recipients, profile.allowed) == (2, ("REGIMENT",), None)
    state = am_game()
    stand(state, TANK, 12.0, 30.0)
    assert TANK not in {o[2] for o in options(state)}


# --- detachment rules -------------------------------------------------------------------------


def test_squadron_command_armoured_infantry_orders_to_squadron_units_and_on_my_signal():
    state = am_game(detachment="armoured-infantry")
    stand(state, CHIMERA, 10.0, 40.0)
    stand(state, TANK, 9.5, 29.5)
    mine = options(state)
    assert (CASTELLAN_MODEL, "take-aim", CHIMERA) in mine
    assert (CASTELLAN_MODEL, "take-aim", TANK) in mine  # SQUADRON
    # On My Signal only to ARMOURED SKIRMISHER units: not the Leman Russ (W 13).
    assert (CASTELLAN_MODEL, "on-my-signal", CHIMERA) in mine
    assert (CASTELLAN_MODEL, "on-my-signal", TANK) not in mine
    assert not any(o[1] == "on-my-signal" and o[0] == COMMISSAR_MODEL for o in mine)
    state, _ = order(state, CASTELLAN_MODEL, "on-my-signal", CHIMERA)
    assert current_orders(state, CHIMERA) == ["on-my-signal"]
    assert refused(state, CASTELLAN_MODEL, "on-my-signal", TANK).code == "invalid_order"


def test_squadron_command_only_in_armoured_infantry():
    state = am_game(detachment="combined-arms")
    stand(state, CHIMERA, 10.0, 40.0)
    assert not any(o[2] == CHIMERA for o in options(state))


def test_ruthless_discipline_grizzled_company_one_more_order_and_re_rolls_hit_rolls_of_1():
    state = am_game(detachment="grizzled-company")
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    state, _ = order(state, CASTELLAN_MODEL, "take-cover", CADIANS_2)
    state, _ = order(state, CASTELLAN_MODEL, "move-move-move", CADIANS)
    assert ("hit", "reroll", "ones", ()) in granted(state, CADIANS, SQUAD_1)
    assert ("hit", "reroll", "ones", ()) in granted(state, CADIANS_2, SQUAD_1)
    assert "all its Orders" in refused(state, CASTELLAN_MODEL, "take-aim", CADIANS_2).message
    assert ("hit", "reroll", "ones", ()) not in granted(state, RIDERS, SQUAD_1)  # no Order


# --- enhancements ------------------------------------------------------------------------------


def test_grand_strategist_combined_arms_one_additional_order_in_your_command_phase():
    state = am_game(detachment="combined-arms", castellan=["grand-strategist-combined-arms"])
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)
    state, _ = order(state, CASTELLAN_MODEL, "take-cover", CADIANS)
    assert "all its Orders" in refused(state, CASTELLAN_MODEL, "take-aim", CADIANS).message


def test_stalwarts_honours_unit_issued_an_order_is_also_affected_by_take_cover():
    state = am_game(detachment="siege-regiment", castellan=["stalwarts-honours"])
    state, _ = order(state, COMMISSAR_MODEL, "fix-bayonets", CADIANS)
    assert sorted(current_orders(state, CADIANS)) == ["fix-bayonets", "take-cover"]
    assert characteristic(state, CADIANS, model(state, CADIANS), "Sv") == 4
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)  # not led by the bearer
    assert current_orders(state, CADIANS_2) == ["take-aim"]
    assert characteristic(state, CADIANS_2, model(state, CADIANS_2), "Sv") == 5


def test_aquilan_eye_offers_target_weak_spot_only_to_its_bearer():
    state = am_game(detachment="grizzled-company", castellan=["aquilan-eye"])
    assert (CASTELLAN_MODEL, "target-weak-spot", CADIANS_2) in options(state)
    assert not any(o[1] == "target-weak-spot" and o[0] == COMMISSAR_MODEL for o in options(state))
    plain = am_game(detachment="grizzled-company")
    assert not any(o[1] == "target-weak-spot" for o in options(plain))


def test_death_mask_of_ollanius_battle_shocked_oc_minus_1_instead_of_0():
    state = am_game(detachment="combined-arms", commissar=["death-mask-of-ollanius"])
    for unit in (RIDERS, CADIANS_2):
        script_dice(state, [1, 1])
        ctx = Context(state)
        battle_shock_roll(ctx, ctx.state["units"][unit], "test")
        state = ctx.state
    riders, cadians = state["units"][RIDERS], state["units"][CADIANS_2]
    assert model_oc(state, riders, riders["models"][0]) == 0  # OC 1 - 1
    assert model_oc(state, riders, riders["models"][5]) == 0
    assert model_oc(state, cadians, cadians["models"][0]) == 0  # no mask: 0
    state["units"][RIDERS]["models"][0]["OC"] = 3
    assert model_oc(state, riders, state["units"][RIDERS]["models"][0]) == 2


def test_drill_commander_critical_hits_on_5_after_remaining_stationary():
    state = am_game(detachment="combined-arms", castellan=["drill-commander"])
    critical = ("hit", "critical", 5, (("weapon_type", "ranged"),))
    assert critical not in granted(state, CADIANS, SQUAD_1)
    ctx = Context(state)
    set_flag(ctx, CADIANS, "remained_stationary")
    assert critical in granted(ctx.state, CADIANS, SQUAD_1)
    set_flag(ctx, CADIANS_2, "remained_stationary")
    assert critical not in granted(ctx.state, CADIANS_2, SQUAD_1)  # not led by the bearer


# --- datasheet abilities ------------------------------------------------------------------------


def test_senior_officer_gives_the_led_unit_sustained_hits_1_on_ranged_weapons():
    state = am_game()
    sustained = ("ability", "grant", "sustained hits 1", (("weapon_type", "ranged"),))
    assert sustained in granted(state, CADIANS, SQUAD_1)
    assert sustained not in granted(state, CADIANS_2, SQUAD_1)  # not led by the Castellan


def test_get_back_in_the_fight_led_unit_shoots_after_falling_back():
    from rules.engine.phases.shooting import ineligibility

    state = am_game()
    ctx = Context(state)
    set_flag(ctx, CADIANS, "fell_back")
    set_flag(ctx, CADIANS_2, "fell_back")
    assert ineligibility(ctx.state, ctx.state["units"][CADIANS]) is None
    assert ineligibility(ctx.state, ctx.state["units"][CADIANS_2]).code == "fell_back"


def test_armoured_spearhead_re_rolls_hit_rolls_of_1_or_all_against_units_on_contested_markers():
    state = am_game()
    assert ("hit", "reroll", "ones", ()) in granted(state, TANK, SQUAD_1)
    stand(state, SQUAD_1, 30.0, 21.0)  # on objective o1, which player 2 does not control
    assert ("hit", "reroll", "any", ()) in granted(state, TANK, SQUAD_1)
    assert not any(m[0] == "hit" and m[1] == "reroll" for m in granted(state, CADIANS_2, SQUAD_1))


def test_damaged_1_4_wounds_remaining_subtracts_1_from_hit_rolls():
    state = am_game()
    assert ("hit", "add", -1, ()) not in granted(state, TANK, SQUAD_1)
    state["units"][TANK]["models"][0]["wounds_left"] = 4
    assert ("hit", "add", -1, ()) in granted(state, TANK, SQUAD_1)
    state["units"][TANK]["models"][0]["wounds_left"] = 5
    assert ("hit", "add", -1, ()) not in granted(state, TANK, SQUAD_1)


def test_shock_troops_keep_a_marker_controlled_at_the_end_of_your_command_phase():
    state = am_game()
    stand(state, CADIANS_2, 28.0, 36.5)  # within range of o5 (30, 38)
    marker = next(m for m in state["objectives"] if m["id"] == "o5")
    marker["controller"] = 2
    state, _ = end_phase(state)
    state = pass_windows(state)
    stand(state, CADIANS_2, 4.0, 38.0)  # walks away: the marker stays player 2's
    state, _ = end_phase(state)
    assert next(m for m in state["objectives"] if m["id"] == "o5")["controller"] == 2
    other = am_game()
    stand(other, RIDERS, 26.0, 36.5)  # no Shock Troops: the marker is not kept
    other, _ = end_phase(other)
    other = pass_windows(other)
    stand(other, RIDERS, 14.0, 33.0)
    other, _ = end_phase(other)
    assert next(m for m in other["objectives"] if m["id"] == "o5")["controller"] is None


# --- self-play ----------------------------------------------------------------------------------


def test_voice_of_command_self_play_agents_issue_orders_and_games_replay_exactly():
    import json

    from rules.engine.sequence.replay import check_replay
    from rules.engine.tools.selfplay import selfplay
    from tests.engine_world import BUNDLE
    from tests.orders_world import datasheets
    from tests.stratagem_world import STRATAGEMS
    from tests.test_stratagem_selfplay import detachments

    bundle = {
        **BUNDLE,
        "datasheets": datasheets(),
        "stratagems": STRATAGEMS,
        "detachments": detachments(),
    }
    issued = []
    for number in (1, 2):
        result, log = selfplay(bundle, number, "11e")
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"], f"game {number}"
        issued += [e for e in log["events"] if e["type"] == "order_issued"]
    assert issued, "the agents issued no Order in two games"


def shock(state, unit_id):
    script_dice(state, [1, 1])
    ctx = Context(state)
    assert not battle_shock_roll(ctx, ctx.state["units"][unit_id], "test")
    return ctx.state


def test_summary_execution_destroys_one_model_and_ends_battle_shock_once_per_round():
    from rules.engine.phases.battle_shock import is_battle_shocked

    state = shock(am_game(), CADIANS_2)
    state = shock(state, TANK)  # a VEHICLE: never executed
    state, _ = end_phase(state)
    top = state["pending"][-1]
    assert top["kind"] == "summary_execution" and top["player"] == 2
    assert {o["unit"] for o in top["options"] if o != "decline"} == {CADIANS_2}
    victim = state["units"][CADIANS_2]["models"][3]["id"]
    with pytest.raises(Refusal):
        decide(state, {"commissar": COMMISSAR_MODEL, "unit": TANK, "model": "p2-u4-m1"})
    state, events = decide(
        state, {"commissar": COMMISSAR_MODEL, "unit": CADIANS_2, "model": victim}
    )
    assert [e["model"] for e in events if e["type"] == "model_destroyed"] == [victim]
    assert not is_battle_shocked(state, CADIANS_2)
    state = pass_windows(state)
    state = shock(state, CADIANS_2)
    state, _ = end_phase(state)  # the next phase: once per battle round, so no offer
    assert not any(d["kind"] == "summary_execution" for d in state["pending"])


def test_political_overwatch_re_rolls_a_failed_battle_shock_test_with_another_officer():
    state = am_game()
    riders = state["units"][RIDERS]
    cadians = state["units"][CADIANS]
    castellan_part = dict(cadians["parts"][1])
    riders["parts"].append(castellan_part)
    castellan = dict(cadians["models"][10], id="p2-u3-m7", part=2, x=16.0, y=35.5)
    riders["models"].append(castellan)
    script_dice(state, [1, 1, 6, 6])
    ctx = Context(state)
    assert battle_shock_roll(ctx, ctx.state["units"][RIDERS], "test")
    assert [e["type"] for e in ctx.events].count("dice_rerolled") == 1
    # Without another OFFICER model in the unit: no re-roll.
    state = am_game()
    script_dice(state, [1, 1, 6, 6])
    ctx = Context(state)
    assert not battle_shock_roll(ctx, ctx.state["units"][RIDERS], "test")


def test_vox_caster_gains_1cp_on_5_plus_when_its_unit_is_targeted_by_a_stratagem():
    def shooting_phase_with_vox(unit_key):
        state = am_game(detachment="grizzled-company", wargear={unit_key: ["vox-caster"]})
        for _ in range(2):
            state, _ = end_phase(state)
            state = pass_windows(state)
        assert state["phase"] == "shooting"
        return state

    def sharpshooters(state, unit):
        script_dice(state, [4])
        return play(
            state,
            {
                "type": "use_stratagem",
                "player": 2,
                "stratagem": "veteran-sharpshooters",
                "target": unit,
            },
        )

    state = shooting_phase_with_vox("cad1")  # the Castellan's unit: an OFFICER model within 6"
    state, events = sharpshooters(state, CADIANS)
    rolled = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "vox_caster"]
    assert [(r["values"], r["total"]) for r in rolled] == [([4], 5)]
    assert state["players"]["2"]["cp"] == 5  # 5 - 1 + 1
    far = shooting_phase_with_vox("cad2")
    stand(far, CADIANS_2, 40.0, 40.0)  # no OFFICER model within 6": 4 is not enough
    far, events = sharpshooters(far, CADIANS_2)
    assert far["players"]["2"]["cp"] == 4
    plain = shooting_phase_with_vox("cad2")
    plain, events = sharpshooters(plain, CADIANS)  # no vox-caster in this unit: no roll
    assert not any(e["type"] == "dice_rolled" and e["purpose"] == "vox_caster" for e in events)


def test_grand_strategist_armoured_infantry_redeploys_up_to_two_units_after_deployment():
    from rules.engine.sequence.game import new_game
    from tests.engine_world import setup
    from tests.orders_world import SEED, STRATAGEMS, am_armies, datasheets, deploy_armies, spaced

    armies = am_armies(castellan=["grand-strategist-armoured-infantry"])
    armies["2"]["detachment"] = "armoured-infantry"
    state, _ = new_game(setup("11e", armies, datasheets=datasheets(), stratagems=STRATAGEMS), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    state = deploy_armies(state)
    assert state["stage"] == "redeployment"
    top = state["pending"][-1]
    assert top["kind"] == "select_units" and top["player"] == 2
    units = {o for o in top["options"] if o != "done"}
    assert units == {CADIANS, CADIANS_2, RIDERS, TANK, CHIMERA}  # REGIMENT or SQUADRON
    state, _ = decide(state, TANK)
    state, _ = decide(state, CADIANS_2)  # the second of two: no more to choose
    assert state["pending"][-1]["kind"] == "redeploy_unit"
    state, _ = decide(state, "strategic_reserves")
    assert state["units"][TANK]["location"] == "strategic_reserves"
    assert state["pending"][-1]["kind"] == "redeploy_unit"
    with pytest.raises(Refusal):  # redeployed units are set up again by the deployment rules
        decide(state, {m["id"]: [30.0, 20.0, 0.0] for m in state["units"][CADIANS_2]["models"]})
    state, _ = decide(state, spaced(state["units"][CADIANS_2], 40.0, 40.0))
    assert state["pending"][-1]["kind"] == "choose_first_turn"
    assert state["units"][CADIANS_2]["models"][0]["x"] == 40.0
    # Without the enhancement, no redeployment.
    plain = am_game(detachment="armoured-infantry")
    assert plain["phase"] == "command"


# --- Mobile Command Vehicle (Chimera) -----------------------------------------------------------


def castellan_in_the_chimera():
    """The Cadians and their Castellan embarked within the Chimera, which stands at (16, 40.5):
    4.5" from CADIANS_2, far from the Leman Russ."""
    state = am_game()
    stand(state, CHIMERA, 16.0, 40.5)
    cadians = state["units"][CADIANS]
    cadians["location"], cadians["embarked_in"] = "embarked", CHIMERA
    for m in cadians["models"]:
        m["x"] = m["y"] = None
    return state


def test_mobile_command_vehicle_an_embarked_officer_issues_orders_measured_from_the_chimera():
    """Chimera, Mobile Command Vehicle: in your Command phase one Officer model embarked within
    this TRANSPORT can issue Orders; distances are measured to and from the TRANSPORT."""
    state = castellan_in_the_chimera()
    mine = options(state)
    assert (CASTELLAN_MODEL, "take-aim", CADIANS_2) in mine
    assert not any(o[0] == CASTELLAN_MODEL and o[2] == TANK for o in mine)
    state, events = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)
    assert [e["officer"] for e in events if e["type"] == "order_issued"] == [CASTELLAN_MODEL]


def test_mobile_command_vehicle_needs_the_transport_on_the_battlefield():
    state = castellan_in_the_chimera()
    state["units"][CHIMERA]["location"] = "strategic_reserves"
    assert not any(o[0] == CASTELLAN_MODEL for o in options(state))
    assert refused(state, CASTELLAN_MODEL, "take-aim", CADIANS_2).code == "invalid_order"
