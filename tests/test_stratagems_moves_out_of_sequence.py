"""Normal moves outside the Movement phase's sequence (CATALOGUE CORE-MOVE-EXTRA, AMB-27), and the
rules that grant them: Burst of Speed (Astra Militarum), Displacer Field (Imperial Agents),
Breach-Shock (Grey Knights; pile-in and consolidation distance), Personal Teleporters
(Interceptor Squad). Each: its effect and at least one refusal."""

import json

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.factions.grey_knights.rules import personal_teleporters
from rules.engine.phases.charge import ineligibility as charge_ineligibility
from rules.engine.phases.out_of_sequence_moves import after_attacks_resolved, offer_normal_move
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import (
    BUNDLE,
    ROOT,
    army,
    decide,
    default_armies,
    deployed_game,
    entry,
    kill,
    place_unit,
    play,
    script_dice,
    shoot_at,
)
from tests.stratagem_world import (
    CADIANS,
    CADIANS_2,
    LED_SQUAD,
    SQUAD,
    choose,
    offered,
    pass_windows,
    stratagem_game,
    to_phase,
    use,
    window,
)


def shifted(state, unit_id, dx, dy=0.0, **extra):
    """Every model of the unit moved by (dx, dy) in a straight line."""
    return {
        m["id"]: [m["x"] + dx, m["y"] + dy, m["facing"], *extra.get("z", [])]
        for m in alive_models(state["units"][unit_id])
    }


def answer(state, choice):
    top = state["pending"][-1]
    return apply(
        state, {"type": "decide", "player": top["player"], "decision": top["id"], "choice": choice}
    )


def refused(state, choice):
    with pytest.raises(Refusal) as refusal:
        answer(state, choice)
    return refusal.value


def positions_of(state, unit_id):
    return [(m["x"], m["y"]) for m in alive_models(state["units"][unit_id])]


# --- Burst of Speed --------------------------------------------------------------------------


def pass_windows_of(state, player):
    while (top := window(state)) is not None and top["player"] == player:
        state, _ = decide(state, "pass")
    return state


def burst_game(edition="11e", cp=3):
    """Player 2 (Armoured Infantry) in its Movement phase: Cadians at (10, 30) and (30, 30)."""
    state = stratagem_game(edition, {2: "armoured-infantry"}, first=2)
    state["players"]["2"]["cp"] = cp
    place_unit(state, SQUAD, 10.0, 12.0)
    place_unit(state, LED_SQUAD, 30.0, 12.0)
    place_unit(state, CADIANS, 10.0, 30.0)
    place_unit(state, CADIANS_2, 30.0, 30.0)
    return to_phase(state, 2, "movement")


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_burst_of_speed_makes_a_normal_move_of_up_to_d6_at_the_end_of_the_movement_phase(edition):
    # Seed 003 Burst of Speed: end of your Movement phase, a unit that did not Remain Stationary
    # or arrive from Reserves makes a Normal move of up to D6" (AMB-27: a Normal move, 09.05).
    state = burst_game(edition)
    for action in (
        {"type": "move", "player": 2, "unit": CADIANS, "positions": shifted(state, CADIANS, 0, 2)},
        {"type": "remain_stationary", "player": 2, "unit": CADIANS_2},
        {"type": "end_phase", "player": 2},
    ):
        # Player 1's windows on the way (10e Fire Overwatch after a move) are passed.
        state, _ = play(pass_windows_of(state, 1), action)
    assert offered(state) == {("burst-of-speed", CADIANS)}  # CADIANS_2 remained stationary
    script_dice(state, [4])
    state, events = choose(state, "burst-of-speed", CADIANS)
    roll = next(e for e in events if e["type"] == "dice_rolled")
    assert roll["purpose"] == "burst_of_speed" and roll["values"] == [4]
    move = state["pending"][-1]
    assert move["kind"] == "normal_move" and move["options"]["max_distance"] == 4
    template = legal_actions(state, 2)[0]
    assert template["choice"] == "positions" and template["max_distance"] == 4
    too_far = refused(state, shifted(state, CADIANS, 0, 4.5))
    assert too_far.code == "move_too_far" and '4.5" of 4"' in too_far.message
    state, events = answer(state, shifted(state, CADIANS, 0, 3.9))
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["source"] == "burst-of-speed" and moved["move"] == "normal"
    state = pass_windows(state)  # the opponent's end-of-phase window (11e Fire Overwatch)
    assert state["phase"] == "shooting"  # the window was the end of the phase
    assert state["players"]["2"]["cp"] == 2


def test_burst_of_speed_refuses_an_engaged_unit_and_lets_the_player_pass_the_move():
    # 09.05 Eligible If: unengaged. An engaged unit is no target; a `null` answer is no move.
    state = burst_game()
    place_unit(state, SQUAD, 10.0, 25.8)  # within 2" of CADIANS
    state, _ = play(
        state,
        {"type": "remain_stationary", "player": 2, "unit": CADIANS},
        {"type": "move", "player": 2, "unit": CADIANS_2, "positions": shifted(state, CADIANS_2, 1)},
        {"type": "end_phase", "player": 2},
    )
    assert offered(state) == {("burst-of-speed", CADIANS_2)}
    state["players"]["2"]["cp"] = 0
    with pytest.raises(Refusal) as refusal:
        choose(state, "burst-of-speed", CADIANS_2)
    assert refusal.value.code == "not_enough_command_points"
    state["players"]["2"]["cp"] = 1
    before = positions_of(state, CADIANS_2)
    state, _ = choose(state, "burst-of-speed", CADIANS_2)
    state, events = answer(state, None)
    assert "normal_move_declined" in [e["type"] for e in events]
    assert positions_of(state, CADIANS_2) == before


def test_burst_of_speed_move_obeys_the_normal_move_checks():
    # 11e 09.05 / 03.04: a Normal move must end unengaged (the same check as in the phase).
    state = burst_game()
    state, _ = play(
        state,
        {"type": "move", "player": 2, "unit": CADIANS, "positions": shifted(state, CADIANS, 0, -1)},
        {"type": "end_phase", "player": 2},
    )
    script_dice(state, [6])
    state, _ = choose(state, "burst-of-speed", CADIANS)
    assert refused(state, shifted(state, CADIANS, 0, -6.5)).code == "move_too_far"
    place_unit(state, SQUAD, 24.0, 29.0)  # CADIANS' right file at x 16.4
    assert refused(state, shifted(state, CADIANS, 5.5)).code == "ends_engaged"
    state, _ = answer(state, shifted(state, CADIANS, 3.0))


# --- Displacer Field -------------------------------------------------------------------------


def displacer_game(edition="11e", cp=3):
    """Player 2's Shooting phase: the Cadians shoot at the Inquisitor's unit (Imperialis Fleet)."""
    state = stratagem_game(edition, {1: "imperialis-fleet"}, first=2)
    place_unit(state, SQUAD, 10.0, 4.0)
    place_unit(state, LED_SQUAD, 30.0, 12.0)
    place_unit(state, CADIANS, 30.0, 24.0)
    place_unit(state, CADIANS_2, 10.0, 40.0)
    state = to_phase(state, 2, "shooting")
    state["players"]["1"]["cp"] = cp
    state, _ = play(state, shoot_at(state, 2, CADIANS, [LED_SQUAD]))
    while window(state) and window(state)["player"] == 2:
        state, _ = decide(state, "pass")
    return state


def to_the_move(state):
    """Pass the windows and answer the attack's decisions until the Normal move is asked."""
    while state["pending"] and state["pending"][-1]["kind"] != "normal_move":
        top = state["pending"][-1]
        if top["kind"] == "allocation_order":
            state, _ = decide(state, top["options"][0])
        elif top["kind"] in ("stratagem_window", "choose_dice_to_reroll"):
            state, _ = decide(state, "pass")
        else:
            break
    return state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_displacer_field_gives_a_4_plus_invulnerable_save_and_a_6_inch_move_after_the_attacks(
    edition,
):
    # Seed 000 Displacer Field: until the end of the phase a 4+ invulnerable save; after the
    # attacking unit has resolved its attacks, a Normal move of up to 6" as if it had FLY.
    state = displacer_game(edition)
    assert ("displacer-field", LED_SQUAD) in offered(state)
    state, _ = choose(state, "displacer-field", LED_SQUAD)
    invulnerable = [
        e for e in state["effects"] if e["modifier"].get("attack", {}).get("step") == "invulnerable"
    ]
    assert [e["modifier"]["attack"]["value"] for e in invulnerable] == [4]
    assert invulnerable[0]["duration"] == "end_of_phase"
    # The attack pipeline reads it for the attacks against the unit (docs/attacks.md).
    assert ("invulnerable", "set", 4) in {
        (m.step, m.kind, m.value) for m in attack_modifiers(state, CADIANS, LED_SQUAD)
    }
    state = to_the_move(state)
    move = state["pending"][-1]
    assert move["kind"] == "normal_move" and move["player"] == 1
    assert move["options"]["max_distance"] == 6 and move["options"]["as_if_fly"] is True
    if edition == "10e":
        # 10e FLY: over enemy models in a Normal move (and through engagement range on the way).
        kill(state, CADIANS_2, 9)
        place_unit(state, CADIANS_2, 33.2, 14.5)
        state, events = answer(state, shifted(state, LED_SQUAD, 0, 5.0))
    else:
        # 11e §21.03: as if FLY, it may take to the skies: 2" less, models and terrain ignored.
        assert move["options"]["take_to_the_skies"] is True
        high = {"positions": shifted(state, LED_SQUAD, 0, 4.5), "take_to_the_skies": True}
        assert refused(state, high).code == "move_too_far"
        state, events = answer(
            state, {"positions": shifted(state, LED_SQUAD, 0, 3.9), "take_to_the_skies": True}
        )
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["source"] == "displacer-field"
    assert not state["pending"]


def test_displacer_field_as_if_fly_is_what_lets_the_unit_pass_over_enemy_models():
    # 10e: the same move without FLY would go through an enemy model (03.01 / Moving).
    state = displacer_game("10e")
    state, _ = choose(state, "displacer-field", LED_SQUAD)
    state = to_the_move(state)
    kill(state, CADIANS_2, 9)
    place_unit(state, CADIANS_2, 33.2, 14.5)
    state["pending"][-1]["resume"]["as_if_fly"] = False  # the same move, as a unit without FLY
    assert refused(state, shifted(state, LED_SQUAD, 0, 5.0)).code == "through_enemy_model"


def test_displacer_field_refuses_a_unit_not_targeted_and_gives_no_move_to_an_engaged_unit():
    # TARGET: a unit selected as a target of the attacking unit; EFFECT: "unless your unit is
    # within Engagement Range of one or more enemy units".
    state = displacer_game()
    assert ("displacer-field", SQUAD) not in offered(state)
    top = state["pending"][-1]
    forged = {
        "stratagem": "displacer-field",
        "target": SQUAD,
        "window": top["options"][0]["window"],
    }
    with pytest.raises(Refusal):
        apply(state, {"type": "decide", "player": 1, "decision": top["id"], "choice": forged})
    state, _ = choose(state, "displacer-field", LED_SQUAD)
    assert state["pending"][-1]["kind"] == "normal_move"
    # The same offer once an enemy unit stands within engagement range: no move is asked.
    ctx = Context(state)
    ctx.state["pending"].pop()
    place_unit(ctx.state, CADIANS_2, 30.0, 15.0)
    offer_normal_move(ctx, LED_SQUAD, 6.0, source="displacer-field", rule="09.05", as_if_fly=True)
    assert not ctx.state["pending"]
    assert [e["reason"] for e in ctx.events if e["type"] == "normal_move_unavailable"] == [
        "engaged"
    ]


# --- Breach-Shock ----------------------------------------------------------------------------


def breach_game(edition="11e"):
    """Player 1's Fight phase (Void Purge Force): one Strike Squad model that charged this turn
    stands 4.2" from one Cadian; LED_SQUAD fights CADIANS_2 elsewhere."""
    state = stratagem_game(edition, {1: "void-purge-force"})
    kill(state, SQUAD, 4)
    kill(state, CADIANS, 9)
    place_unit(state, SQUAD, 10.0, 36.0)
    place_unit(state, CADIANS, 10.0, 41.325)  # 5.325 - 0.63 - 0.49 = 4.2" apart
    place_unit(state, LED_SQUAD, 40.0, 20.0)
    place_unit(state, CADIANS_2, 40.0, 23.0)
    state = pass_windows(state)
    while not (state["active_player"] == 1 and state["phase"] == "fight"):
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
        state = pass_windows(state)
    state["facts"]["turn"].setdefault("charged", []).append(SQUAD)
    state["players"]["1"]["cp"] = 3
    return state


def squad_model(state):
    return alive_models(state["units"][SQUAD])[0]["id"]


def test_breach_shock_lets_a_unit_pile_in_up_to_6_inches():
    # Seed 004 Breach-Shock: until the end of the phase each Pile-in or Consolidation move can be
    # up to 6" instead of 3" (11e 12.03: a unit that charged piles in toward units within 5").
    state = breach_game()
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "pile_in" and a["unit"] == SQUAD
    )
    assert template["max_distance"] == 3 and template["targets"] == [CADIANS]
    four = {squad_model(state): [10.0, 40.1, 90.0]}
    with pytest.raises(Refusal) as refusal:
        play(state, {"type": "pile_in", "player": 1, "unit": SQUAD, "positions": four})
    assert refusal.value.code == "move_too_far"
    state, events = use(state, 1, "breach-shock", SQUAD)
    assert any(e["type"] == "stratagem_used" for e in events)
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "pile_in" and a["unit"] == SQUAD
    )
    assert template["max_distance"] == 6
    state, events = play(state, {"type": "pile_in", "player": 1, "unit": SQUAD, "positions": four})
    assert any(e["type"] == "unit_moved" and e["move"] == "pile_in" for e in events)


def test_breach_shock_refuses_a_unit_that_has_fought_and_a_second_use_in_the_phase():
    # TARGET: a unit that has not been selected to fight this phase; a stratagem once per phase.
    state = breach_game()
    state["facts"]["phase"]["acted"].append(LED_SQUAD)
    with pytest.raises(Refusal) as refusal:
        use(state, 1, "breach-shock", LED_SQUAD)
    assert refusal.value.code == "invalid_stratagem_target"
    state, _ = use(state, 1, "breach-shock", SQUAD)
    with pytest.raises(Refusal) as refusal:
        use(state, 1, "breach-shock", SQUAD)
    assert refusal.value.code == "stratagem_used_this_phase"


def test_breach_shock_consolidation_of_6_inches_in_10th_edition():
    # 10e Consolidate: up to 3" (Breach-Shock: 6"); the decision after the attacks says so.
    state = breach_game("10e")
    state["facts"]["turn"]["charged"].remove(SQUAD)
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS_2})
    state = settle(state)
    assert state["pending"][-1]["options"]["max_distance"] == 3  # the Cadians' own
    state, _ = decide(state, None)
    state = pass_windows(state)
    state, _ = use(state, 1, "breach-shock", LED_SQUAD)
    state, _ = play(state, {"type": "fight", "player": 1, "unit": LED_SQUAD})
    state = settle(state)
    assert state["pending"][-1]["kind"] == "consolidate_move"
    assert state["pending"][-1]["options"]["max_distance"] == 6


def settle(state):
    """Pass windows and take the first allocation order until a consolidation is asked."""
    while state["pending"] and state["pending"][-1]["kind"] != "consolidate_move":
        top = state["pending"][-1]
        state, _ = decide(state, top["options"][0] if top["kind"] == "allocation_order" else "pass")
    return state


# --- Personal Teleporters --------------------------------------------------------------------


def interceptor_sheet():
    data = json.loads((ROOT / "rules/data/factions/grey-knights/published.json").read_text("utf-8"))
    return next(d for d in data["datasheets"] if d["slug"] == "interceptor-squad")


INTERCEPTORS = "p1-u1"


def interceptor_game(edition):
    armies = default_armies()
    armies["1"] = army(entry("int", "interceptor-squad", 5, warlord=True))
    state, _ = deployed_game(
        edition, armies, datasheets=[*BUNDLE["datasheets"], interceptor_sheet()]
    )
    place_unit(state, INTERCEPTORS, 20.0, 14.0)
    place_unit(state, CADIANS, 20.0, 26.0)
    place_unit(state, CADIANS_2, 40.0, 40.0)
    return state


def to_own(state, phase):
    while not (state["active_player"] == 1 and state["phase"] == phase):
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    return state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_personal_teleporters_move_6_inches_after_shooting_and_forbid_a_charge(edition):
    # Interceptor Squad, Personal Teleporters: in your Shooting phase, after this unit has shot,
    # if unengaged, a Normal move of up to 6"; if it does, it cannot declare a charge this turn.
    state = to_own(interceptor_game(edition), "shooting")
    state, _ = play(state, shoot_at(state, 1, INTERCEPTORS, [CADIANS]))
    state = to_the_move(state)
    move = state["pending"][-1]
    assert move["kind"] == "normal_move" and move["options"]["source"] == "personal-teleporters"
    assert move["options"]["max_distance"] == 6
    assert refused(state, shifted(state, INTERCEPTORS, 0, 6.5)).code == "move_too_far"
    state, _ = answer(state, shifted(state, INTERCEPTORS, 0, 5.0))
    state = to_own(state, "charge")
    assert not [a for a in legal_actions(state, 1) if a["type"] == "declare_charge"]
    with pytest.raises(Refusal) as refusal:
        play(
            state,
            {"type": "declare_charge", "player": 1, "unit": INTERCEPTORS, "targets": [CADIANS]},
        )
    assert refusal.value.code == "not_eligible_to_charge"


def test_personal_teleporters_declined_keeps_the_charge_and_engaged_units_get_no_move():
    state = to_own(interceptor_game("11e"), "shooting")
    state, _ = play(state, shoot_at(state, 1, INTERCEPTORS, [CADIANS]))
    state = to_the_move(state)
    state, _ = answer(state, None)
    state = to_own(state, "charge")
    assert charge_ineligibility(state, state["units"][INTERCEPTORS]) is None
    # Engaged after shooting (an enemy unit moved in meanwhile): no move is asked.
    engaged = to_own(interceptor_game("11e"), "shooting")
    ctx = Context(engaged)
    place_unit(ctx.state, CADIANS, 20.0, 16.5)
    after_attacks_resolved(ctx, INTERCEPTORS, None)
    assert not ctx.state["pending"]
    assert "normal_move_unavailable" in [e["type"] for e in ctx.events]
    # Only in its own Shooting phase.
    assert personal_teleporters(engaged, INTERCEPTORS)
    engaged["active_player"] = 2
    assert personal_teleporters(engaged, INTERCEPTORS) == []


def test_burst_of_speed_legal_actions_list_the_move_and_the_pass():
    # The decision is listed as a positions template and a pass (`null`), both accepted.
    state = burst_game()
    state, _ = play(
        state,
        {"type": "move", "player": 2, "unit": CADIANS, "positions": shifted(state, CADIANS, 0, 1)},
        {"type": "end_phase", "player": 2},
    )
    state, _ = choose(state, "burst-of-speed", CADIANS)
    options = legal_actions(state, 2)
    assert [o["choice"] for o in options] == ["positions", None]
    state, events = apply(state, options[1])
    assert "normal_move_declined" in [e["type"] for e in events]


# --- Mists of Deimos ---------------------------------------------------------------------------


def mists_game(cp=2):
    """Player 2's Movement phase (10e); player 1 (Teleport Strike Force) has its Strike Squads,
    PSYKER units with Deep Strike, at (10, 12) and (40, 12); Cadians at (14, 27) and (40, 40)."""
    state = stratagem_game("10e", {1: "teleport-strike-force"}, first=2)
    state["players"]["1"]["cp"] = cp
    place_unit(state, SQUAD, 10.0, 12.0)
    place_unit(state, LED_SQUAD, 40.0, 12.0)
    place_unit(state, CADIANS, 14.0, 27.0)
    place_unit(state, CADIANS_2, 40.0, 40.0)
    return to_phase(state, 2, "movement")


def moved_towards_the_squad(state):
    """The Cadians end a Normal move 6" closer: within 9" of SQUAD, far from LED_SQUAD."""
    state, _ = play(
        state,
        {"type": "move", "player": 2, "unit": CADIANS, "positions": shifted(state, CADIANS, 0, -6)},
    )
    # The window as the move starts (10e Fire Overwatch) is passed; then the one as it ends.
    while (top := window(state)) and top["resume"]["about"].get("moment") == "move_started":
        state, _ = decide(state, "pass")
    return state


def mists_window(state):
    """Player 1's window just after the enemy move, its other stratagems (Fire Overwatch) aside."""
    top = window(state)
    assert top is not None and top["player"] == 1
    return {o["stratagem"]: o["target"] for o in top["options"] if o != "pass"}


def test_mists_of_deimos_moves_a_psyker_unit_within_9_inches_of_the_enemy_unit_that_moved():
    """Seed 004 L426-436: just after an enemy unit ends a Normal move in your opponent's Movement
    phase, one PSYKER unit within 9" of it makes a Normal move of up to 6"; a unit with Deep
    Strike chooses between that and Strategic Reserves."""
    state = moved_towards_the_squad(mists_game())
    assert ("mists-of-deimos", SQUAD) in {
        (o["stratagem"], o["target"]) for o in window(state)["options"] if o != "pass"
    }
    assert mists_window(state).get("mists-of-deimos") != LED_SQUAD  # 18" away
    state, _ = choose(state, "mists-of-deimos", SQUAD)
    assert state["players"]["1"]["cp"] == 1
    assert state["pending"][-1]["kind"] == "mists_of_deimos"
    state, _ = answer(state, "normal_move")
    assert state["pending"][-1]["kind"] == "normal_move"
    assert state["pending"][-1]["options"]["max_distance"] == 6.0
    assert refused(state, shifted(state, SQUAD, 0, -6.5)).code == "move_too_far"
    state, events = answer(state, shifted(state, SQUAD, -5.5, -0.0))
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["source"] == "mists-of-deimos" and moved["unit"] == SQUAD


def test_mists_of_deimos_can_put_a_deep_striking_unit_into_strategic_reserves():
    state = moved_towards_the_squad(mists_game())
    state, _ = choose(state, "mists-of-deimos", SQUAD)
    state, events = answer(state, "strategic_reserves")
    assert state["units"][SQUAD]["location"] == "strategic_reserves"
    assert [e["source"] for e in events if e["type"] == "unit_placed_into_reserves"] == [
        "mists-of-deimos"
    ]


def test_mists_of_deimos_is_refused_without_cp_or_for_an_engaged_unit():
    poor = moved_towards_the_squad(mists_game(cp=0))
    assert "mists-of-deimos" not in {
        o["stratagem"] for o in (window(poor) or {"options": []})["options"] if o != "pass"
    }
    state = mists_game()
    place_unit(state, CADIANS_2, 10.0, 13.8)  # engaged with SQUAD (10e: 1")
    state = moved_towards_the_squad(state)
    assert ("mists-of-deimos", SQUAD) not in {
        (o["stratagem"], o["target"]) for o in window(state)["options"] if o != "pass"
    }
