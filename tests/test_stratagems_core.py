"""Core and Boarding Actions stratagems in play, one scenario each: the effect and refusals.

11e 15.03 Epic Challenge, 15.04 Insane Bravery (seeds 000, 003); 10e Insane Bravery, Go to Ground
(seed 004); Boarding Actions Insane Bravery (seeds 000, 003, 004).
"""

import copy

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import continuation
from rules.engine.phases import fight as fight_phase
from rules.engine.sequence.game import legal_actions
from rules.engine.stratagems.effects import Use
from rules.engine.stratagems.use import refusal_for, windows_of
from rules.engine.stratagems.windows import after_roll
from tests.engine_world import decide, kill, legal_charge, play, script_dice, shoot_at
from tests.stratagem_world import (
    CADIANS,
    CADIANS_2,
    LED_SQUAD,
    SQUAD,
    STRATAGEMS,
    cadians_charged_the_squad_10e,
    choose,
    offered,
    pass_windows,
    pass_windows_and_rules,
    place_unit,
    stratagem_game,
    through_attacks,
    to_phase,
    window,
)


def next_battle_shock_window(state):
    """From player 1's turn, on to player 1's next Command phase: its battle-shock window."""
    state = to_phase(state, 2, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return state


def shock_events(events):
    return [e for e in events if e["type"] == "battle_shock_rolled"]


# --- Insane Bravery ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition, slug", [("11e", "insane-bravery-11e"), ("10e", "insane-bravery-10e")]
)
def test_insane_bravery_passes_the_battle_shock_roll_without_dice(edition, slug):
    state = stratagem_game(edition)
    kill(state, SQUAD, 3)  # 2 of 5 left: below half strength, it must test
    state = next_battle_shock_window(state)
    assert window(state)["player"] == 1
    assert offered(state) == {(slug, SQUAD)}
    cp = state["players"]["1"]["cp"]
    state, events = choose(state, slug, SQUAD)
    (rolled,) = shock_events(events)
    assert rolled["passed"] and rolled["automatic"] and rolled["roll"] is None
    assert not [e for e in events if e["type"] == "dice_rolled"]
    assert state["players"]["1"]["cp"] == cp - 1


@pytest.mark.parametrize(
    "edition, slug", [("11e", "insane-bravery-11e"), ("10e", "insane-bravery-10e")]
)
def test_insane_bravery_is_once_per_battle(edition, slug):
    state = stratagem_game(edition)
    kill(state, SQUAD, 3)
    state = next_battle_shock_window(state)
    state, _ = choose(state, slug, SQUAD)
    state["players"]["1"]["cp"] = 5
    script_dice(state, [6, 6])
    state = pass_windows(next_battle_shock_window(state))
    assert (
        refusal_for(
            state, Use(slug, 1, SQUAD, {"trigger": "battle_shock_before_roll", "unit": SQUAD})
        ).code
        == "stratagem_used_this_battle"
    )


def test_insane_bravery_is_not_offered_without_the_cp():
    """Both players gain 1CP at the start of the Command phase; a cost change of +1 (data) makes
    Insane Bravery cost 2CP, which player 1 does not have: the roll is made without asking."""
    state = stratagem_game("11e")
    kill(state, SQUAD, 3)
    state = to_phase(state, 2, "fight")
    state["players"]["1"]["cp"] = 0
    ctx = Context(state)
    add_effect(ctx, "test", {"player": 1}, {"stratagem_cost": "*", "add": 1}, "end_of_battle", 2)
    state, events = play(ctx.state, {"type": "end_phase", "player": 2})
    assert window(state) is None
    assert [e.get("automatic", False) for e in shock_events(events)] == [False]
    use = Use(
        "insane-bravery-11e", 1, SQUAD, {"trigger": "battle_shock_before_roll", "unit": SQUAD}
    )
    assert refusal_for(state, use).code == "not_enough_command_points"


def test_insane_bravery_cannot_target_a_battle_shocked_unit_in_11e():
    """11e 01.07: a battle-shocked unit still rolls each Command phase, but its controller
    cannot target it with stratagems."""
    state = stratagem_game("11e")
    ctx = Context(state)
    add_effect(
        ctx, "battle-shock", {"unit": SQUAD}, {"status": "battle_shocked"}, "until_removed", 1
    )
    state = to_phase(ctx.state, 2, "fight")
    state, events = play(state, {"type": "end_phase", "player": 2})
    assert window(state) is None
    (rolled,) = shock_events(events)
    assert rolled["unit"] == SQUAD and rolled["roll"] is not None


def test_boarding_actions_insane_bravery_turns_a_failed_test_into_a_pass():
    state = stratagem_game("10e", boarding_actions=True)
    kill(state, SQUAD, 3)
    state["players"]["1"]["cp"] = 4
    state = to_phase(state, 2, "fight")
    script_dice(state, [1, 1])
    state, _ = play(state, {"type": "end_phase", "player": 2})
    # Before the roll: the core Insane Bravery; pass, fail the test, then the Boarding Actions one.
    assert ("insane-bravery-10e", SQUAD) in offered(state)
    state, _ = play(
        state, {"type": "decide", "player": 1, "decision": window(state)["id"], "choice": "pass"}
    )
    assert offered(state) == {("insane-bravery-boarding-actions", SQUAD)}
    assert any(e["modifier"].get("status") == "battle_shocked" for e in state["effects"])
    state, events = choose(state, "insane-bravery-boarding-actions", SQUAD)
    assert not any(e["modifier"].get("status") == "battle_shocked" for e in state["effects"])
    assert "battle_shock_test_treated_as_passed" in [e["type"] for e in events]


def test_boarding_actions_insane_bravery_is_not_in_an_ordinary_game():
    state = stratagem_game("10e")
    kill(state, SQUAD, 3)
    state["players"]["1"]["cp"] = 4
    state = to_phase(state, 2, "fight")
    script_dice(state, [1, 1])
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state, _ = play(
        state, {"type": "decide", "player": 1, "decision": window(state)["id"], "choice": "pass"}
    )
    assert window(state) is None


# --- Go to Ground (10e) -----------------------------------------------------------------------


def shot_at_by_cadians(edition="10e"):
    state = stratagem_game(edition, first=2)
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, LED_SQUAD, 40.0, 20.0)
    place_unit(state, CADIANS, 10.0, 30.0)
    state = to_phase(state, 2, "shooting")
    return play(state, shoot_at(state, 2, CADIANS, [SQUAD]))[0]


def test_go_to_ground_gives_a_6_plus_invulnerable_save_and_cover():
    state = shot_at_by_cadians()
    assert offered(state) == {("go-to-ground-10e", SQUAD)}  # not the unit nobody shot at
    state, _ = choose(state, "go-to-ground-10e", SQUAD)
    granted = {(m.step, m.kind, m.value) for m in attack_modifiers(state, CADIANS, SQUAD)}
    assert granted == {("invulnerable", "set", 6), ("cover", "grant", None)}
    assert attack_modifiers(state, CADIANS, LED_SQUAD) == ()
    state = to_phase(state, 2, "charge")
    assert attack_modifiers(state, CADIANS, SQUAD) == ()  # until the end of the phase


def test_go_to_ground_applies_to_the_attacks_of_the_unit_that_selected_its_targets():
    """The window opens after the targets are selected and before any attack (10e Go to Ground:
    "just after an enemy unit has selected its targets"); the attacks are its continuation, so
    their saving throws have the 6+ invulnerable save and the benefit of cover."""
    state = stratagem_game("10e", first=2)
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, CADIANS, 10.0, 30.0)
    state = to_phase(state, 2, "shooting")
    state, events = play(state, shoot_at(state, 2, CADIANS, [SQUAD]))
    assert [e["type"] for e in events][-2:] == ["targets_selected", "decision_pending"]
    state, events = choose(state, "go-to-ground-10e", SQUAD)
    more = []
    while window(state):  # no other stratagem, no Command Re-roll
        state, passed = decide(state, "pass")
        more += passed
    saves = [
        e["tray"] for e in events + more if e["type"] == "attack_step" and e["target"] == SQUAD
    ]
    saves = [tray for tray in saves if tray["step"] == "save_roll"]
    assert saves and all(tray["extra"]["invulnerable"] == 6 for tray in saves)
    assert all({"applied": "benefit of cover +1"} in tray["modifiers"] for tray in saves)


def test_go_to_ground_refuses_a_unit_that_was_not_targeted_and_is_not_in_11e():
    state = shot_at_by_cadians()
    window_ = window(state)["options"][0]["window"]
    assert refusal_for(state, Use("go-to-ground-10e", 1, LED_SQUAD, window_)).code == (
        "invalid_stratagem_target"
    )
    assert "go-to-ground-10e" not in shot_at_by_cadians("11e")["stratagems"]


# --- Epic Challenge (11e) ---------------------------------------------------------------------


def character_selected_to_fight():
    state = stratagem_game("11e")
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 1, "fight")
    # 11e 12.04: the player whose turn it is selects first.
    state, _ = play(state, {"type": "fight", "player": 1, "unit": LED_SQUAD})
    return state


def test_epic_challenge_gives_the_character_precision_in_melee():
    """Epic Challenge (11e 15.03) [000 L437-445]: "Select one CHARACTER model in your unit. Until
    the end of the phase, that model's melee weapons have the [PRECISION] ability" (issue 14
    defect 8; rulings R-ST-06): the Inquisitor's melee attacks, not the Strike Squad's. 10e has
    no Epic Challenge in the seeds."""
    state = character_selected_to_fight()
    assert offered(state) == {("epic-challenge-11e", LED_SQUAD)}
    inquisitor = next(m["id"] for m in state["units"][LED_SQUAD]["models"] if m["character"])
    option = next(o for o in window(state)["options"] if o != "pass")
    assert option["model"] == inquisitor  # "Select one CHARACTER model in your unit"
    state, _ = choose(state, "epic-challenge-11e", LED_SQUAD)
    (granted,) = attack_modifiers(state, LED_SQUAD, CADIANS, (inquisitor,))
    assert (granted.step, granted.value, dict(granted.condition)) == (
        "ability",
        "precision",
        {"weapon_type": "melee"},
    )
    # Only that model's melee weapons: the Strike Squad's own attacks do not have [PRECISION].
    knights = tuple(m["id"] for m in state["units"][LED_SQUAD]["models"] if not m["character"])
    assert attack_modifiers(state, LED_SQUAD, CADIANS, knights) == ()


def test_epic_challenge_refuses_a_unit_without_a_character_and_a_second_use_in_the_phase():
    state = character_selected_to_fight()
    window_ = window(state)["options"][0]["window"]
    assert refusal_for(state, Use("epic-challenge-11e", 1, SQUAD, window_)).code == (
        "invalid_stratagem_target"
    )
    state["players"]["1"]["cp"] = 3
    state, _ = choose(state, "epic-challenge-11e", LED_SQUAD)
    assert refusal_for(state, Use("epic-challenge-11e", 1, LED_SQUAD, window_)).code == (
        "stratagem_used_this_phase"
    )


# --- Explosives (11e) / Grenade (10e) ---------------------------------------------------------


def grenades_in_range(edition):
    state = stratagem_game(edition)
    state["players"]["1"]["cp"] = 3
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, LED_SQUAD, 40.0, 20.0)
    place_unit(state, CADIANS, 10.0, 26.0)
    return to_phase(state, 1, "shooting")


@pytest.mark.parametrize("edition, slug", [("11e", "explosives-11e"), ("10e", "grenade-10e")])
def test_explosives_and_grenade_roll_six_dice_for_mortal_wounds(edition, slug):
    state = grenades_in_range(edition)
    options = [
        a
        for a in legal_actions(state, 1)
        if a["type"] == "use_stratagem" and a["stratagem"] == slug
    ]
    assert {(a["target"], a["enemy"]) for a in options} == {(SQUAD, CADIANS)}  # CADIANS_2: 8"+
    alive = len([m for m in state["units"][CADIANS]["models"] if m["wounds_left"]])
    script_dice(state, [4, 1, 6, 2, 5, 3])
    state, events = play(state, options[0])
    (thrown,) = [e for e in events if e["type"] == "explosives_thrown"]
    assert thrown["mortal_wounds"] == 3
    state = pass_windows(state)
    while state["pending"] and state["pending"][-1]["kind"] == "allocate_mortal_wound":
        state, _ = decide(state, state["pending"][-1]["options"][0])
    after = len([m for m in state["units"][CADIANS]["models"] if m["wounds_left"]])
    assert alive - after == 3  # one-wound models


@pytest.mark.parametrize("edition, slug", [("11e", "explosives-11e"), ("10e", "grenade-10e")])
def test_explosives_and_grenade_refuse_an_enemy_out_of_reach_and_a_unit_that_shot(edition, slug):
    state = grenades_in_range(edition)
    with pytest.raises(Refusal) as refused:
        play(
            state,
            {
                "type": "use_stratagem",
                "player": 1,
                "stratagem": slug,
                "target": SQUAD,
                "enemy": CADIANS_2,
                "model": "p1-u2-m1",
            },
        )
    assert refused.value.code == "invalid_stratagem_choice"
    state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
    state = pass_windows(state)
    with pytest.raises(Refusal) as refused:
        play(
            state,
            {
                "type": "use_stratagem",
                "player": 1,
                "stratagem": slug,
                "target": SQUAD,
                "enemy": CADIANS,
                "model": "p1-u2-m1",
            },
        )
    assert refused.value.code == "invalid_stratagem_target"


# --- Command Re-roll (11e 15.02; 10e; Boarding Actions) ----------------------------------------


@continuation("test_after_roll_then")
def _roll_carried_on(ctx, data, _choice):
    ctx.emit("test_roll_carried_on", values=data["roll"]["values"], total=data["roll"]["total"])


def rolled(edition, purpose, dice=2, unit=SQUAD, player=1, boarding_actions=False, cp=2):
    """A roll just made for `unit`, then the after-roll window (as the rolling rule opens it)."""
    state = stratagem_game(edition, boarding_actions=boarding_actions, attack_rerolls=True)
    state["players"][str(player)]["cp"] = cp
    ctx = Context(state)
    script_dice(ctx.state, [1, 2] if dice == 2 else [1] * dice)
    ctx.dice.next_index = ctx.state["dice"]["next_index"]
    record = roll(ctx, dice, purpose, "test", player, unit)
    after_roll(ctx, record, {"step": "test_after_roll_then"})
    return ctx.state, ctx.events


@pytest.mark.parametrize(
    "edition, slug, boarding",
    [
        ("11e", "command-re-roll-11e", False),
        ("10e", "command-re-roll-10e", False),
        ("11e", "command-re-roll-boarding-actions", True),
    ],
)
def test_command_re_roll_re_rolls_a_charge_roll_in_full(edition, slug, boarding):
    state, events = rolled(edition, "charge", boarding_actions=boarding)
    assert (slug, SQUAD) in offered(state)
    state, _ = choose(state, slug, SQUAD)
    reroll = state["pending"][-1]
    assert reroll["kind"] == "choose_dice_to_reroll" and reroll["options"] == ["pass", "all"]
    state, events = decide(state, "all")
    (again,) = [e for e in events if e["type"] == "dice_rerolled"]
    assert again["rerolled"] == [True, True]
    (carried,) = [e for e in events if e["type"] == "test_roll_carried_on"]
    assert carried["values"] == again["values"]
    assert window(state) is None


def test_command_re_roll_re_rolls_one_die_of_a_hit_roll_and_the_rule_carries_on_with_it():
    state, _ = rolled("11e", "hit", dice=5)
    state, _ = choose(state, "command-re-roll-11e", SQUAD)
    assert state["pending"][-1]["options"] == ["pass", [0], [1], [2], [3], [4]]
    state, events = decide(state, [3])
    (carried,) = [e for e in events if e["type"] == "test_roll_carried_on"]
    assert carried["values"][:3] == [1, 1, 1] and carried["values"][4] == 1
    assert state["players"]["1"]["cp"] == 1


def test_command_re_roll_is_not_offered_for_an_unlisted_roll_or_without_cp():
    state, events = rolled("11e", "desperate_escape", dice=3)  # a 10e test, not an 11e roll
    assert window(state) is None
    assert [e["type"] for e in events][-1] == "test_roll_carried_on"
    state, _ = rolled("10e", "desperate_escape", dice=3)
    assert ("command-re-roll-10e", SQUAD) in offered(state)
    state, events = rolled("11e", "charge", cp=0)
    assert window(state) is None


def test_command_re_roll_respects_the_standing_choice_never_on_saves():
    state, _ = rolled("11e", "save", dice=3)
    assert ("command-re-roll-11e", SQUAD) in offered(state)
    state = stratagem_game("11e", attack_rerolls=True)
    state, _ = play(
        state, {"type": "set_window_preferences", "player": 1, "never_reroll": ["save"]}
    )
    ctx = Context(state)
    record = roll(ctx, 3, "save", "test", 1, SQUAD)
    after_roll(ctx, record, {"step": "test_after_roll_then"})
    assert window(ctx.state) is None


def test_command_re_roll_is_only_for_the_player_who_rolled():
    state, _ = rolled("11e", "charge", unit=CADIANS, player=2)
    assert window(state)["player"] == 2
    assert offered(state) == {("command-re-roll-11e", CADIANS)}


# --- Counteroffensive (11e 15.12) / Counter-Offensive (10e, Boarding Actions) ------------------


def after_a_charger_fought(edition, cp=2, boarding_actions=False):
    """Player 1's two units charged into player 2's two units; Fights First: player 1 selects
    SQUAD (one Grey Knight left, so the Cadians it fights stay in the combat), which fights; now
    player 2's window."""
    state = stratagem_game(edition, boarding_actions=boarding_actions)
    kill(state, SQUAD, 4)
    # 0.7" apart: within Engagement Range in both editions (10e: 1")
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 16.6)
    place_unit(state, LED_SQUAD, 45.0, 20.0)
    place_unit(state, CADIANS_2, 45.0, 16.6)
    state = to_phase(state, 1, "fight")
    ctx = Context(state)
    set_flag(ctx, SQUAD, "charged")
    set_flag(ctx, LED_SQUAD, "charged")
    state = ctx.state
    state["players"]["2"]["cp"] = cp
    state, _ = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    return through_attacks(state)


@pytest.mark.parametrize(
    "edition, slug, boarding",
    [
        ("11e", "counteroffensive-11e", False),
        ("10e", "counter-offensive-10e", False),
        ("10e", "counter-offensive-boarding-actions", True),
    ],
)
def test_counteroffensive_makes_the_unit_fight_next(edition, slug, boarding):
    state = after_a_charger_fought(edition, boarding_actions=boarding)
    assert window(state)["player"] == 2
    assert (slug, CADIANS) in offered(state) and (slug, CADIANS_2) in offered(state)
    assert legal_actions(state, 1) == []
    state, events = choose(state, slug, CADIANS_2)
    state = pass_windows(state)
    assert fight_phase.selecting_player(state) == 2  # before player 1's other charging unit
    assert fight_phase.selectable(state, 2) == [CADIANS_2]
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS_2})
    state = pass_windows(state)
    assert fight_phase.selecting_player(state) == 1  # Fights First resumes


def test_the_fight_step_window_opens_when_the_pile_in_step_is_over():
    """11e 12.04, 15.12 ("WHEN: Fight step of your opponent's Fight phase, ..."): a stratagem whose
    trigger is the Fight step itself is offered when that step begins, once both players have
    made (or passed) their pile-in moves, before any unit is selected to fight. No stratagem of
    the data has that trigger yet: Counteroffensive's record is given it here."""
    state = stratagem_game("11e")
    # The game owns its records (copied by new_game): editing them leaves `STRATAGEMS` alone.
    record = state["stratagems"]["counteroffensive-11e"]
    record["when"] = {**windows_of(record)[0], "trigger": "fight_step"}
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 16.6)
    state["players"]["2"]["cp"] = 2
    state = to_phase(state, 1, "charge")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    state = pass_windows_and_rules(state)
    assert fight_phase.current_step(state)[0] == "pile_in"
    while fight_phase.current_step(state)[0] == "pile_in":
        assert window(state) is None
        state, _ = play(state, {"type": "end_step", "player": fight_phase.current_step(state)[1]})
    assert fight_phase.current_step(state)[0] == "fight"
    assert window(state)["player"] == 2
    assert ("counteroffensive-11e", CADIANS) in offered(state)


def test_counteroffensive_costs_2cp_and_without_it_the_chargers_fight_first():
    state = after_a_charger_fought("11e", cp=1)
    assert window(state) is None
    assert fight_phase.selecting_player(state) == 1
    refusal = refusal_for(
        state,
        Use(
            "counteroffensive-11e",
            2,
            CADIANS,
            {"trigger": "enemy_unit_resolved_attacks", "unit": SQUAD},
        ),
    )
    assert refusal.code == "not_enough_command_points"


def test_counter_offensive_refuses_a_unit_that_has_fought():
    state = after_a_charger_fought("10e", cp=4)
    state, _ = choose(state, "counter-offensive-10e", CADIANS_2)
    state = pass_windows(state)
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS_2})
    window_ = {"trigger": "enemy_unit_fought", "phase": "fight", "unit": SQUAD}
    state["facts"]["phase"]["stratagems_used"] = []  # as if in a later phase of the same kind
    assert refusal_for(state, Use("counter-offensive-10e", 2, CADIANS_2, window_)).code == (
        "invalid_stratagem_target"
    )


# --- Heroic Intervention (11e 15.11) ------------------------------------------------------------


def end_of_enemy_charge_phase(cp=3):
    state = stratagem_game("11e", first=2)
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, LED_SQUAD, 50.0, 5.0)
    place_unit(state, CADIANS, 20.0, 24.5)  # 3.4" away: within 6", not engaged
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = cp
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return state


def heroic_options(state):
    return {
        (o["target"], o["mode"])
        for o in window(state)["options"]
        if o != "pass" and o["stratagem"] == "heroic-intervention-11e"
    }


def test_heroic_intervention_into_the_fray_charges_an_enemy_within_6_inches():
    state = end_of_enemy_charge_phase()
    assert heroic_options(state) == {(SQUAD, "leap_to_defend"), (SQUAD, "into_the_fray")}
    option = next(
        o for o in window(state)["options"] if o != "pass" and o.get("mode") == "into_the_fray"
    )
    script_dice(state, [6, 5])
    state, _ = decide(state, option)
    assert state["players"]["1"]["cp"] == 1  # 1CP, +1CP for Into the Fray
    # No Command Re-roll on the charge roll: the unit is already the target of one of the
    # player's stratagems this phase (11e 15.01).
    assert window(state) is None
    assert state["pending"][-1]["options"] == [[CADIANS]]  # 11 capped to 6; CADIANS_2 too far
    state, _ = decide(state, [CADIANS])
    move = state["pending"][-1]
    assert move["kind"] == "charge_move" and move["options"]["max_distance"] == 6
    positions = {m["id"]: [m["x"], m["y"] + 3.0, 0.0] for m in state["units"][SQUAD]["models"]}
    state, events = decide(state, positions)
    assert "unit_charged" in [e["type"] for e in events]
    assert state["phase"] == "fight"  # the Charge phase ended after the window
    assert SQUAD in fight_phase.fights_first(state)


def test_heroic_intervention_leap_to_defend_needs_an_enemy_that_charged_and_costs_1cp():
    state = end_of_enemy_charge_phase(cp=1)
    assert heroic_options(state) == {(SQUAD, "leap_to_defend")}  # Into the Fray costs 2CP
    option = next(o for o in window(state)["options"] if o != "pass")
    state, events = decide(state, option)
    assert "charge_failed" in [e["type"] for e in events]  # no enemy made a charge move
    assert state["phase"] == "fight"


def test_heroic_intervention_10e_charges_the_enemy_unit_that_just_charged_without_fights_first():
    state = cadians_charged_the_squad_10e()
    assert offered(state) == {("heroic-intervention-10e", LED_SQUAD)}  # SQUAD is engaged
    script_dice(state, [1, 6, 6])  # the Inquisitor's Power of the Rosette, then the charge roll
    state, _ = choose(state, "heroic-intervention-10e", LED_SQUAD)
    assert state["pending"][-1]["options"] == [[CADIANS]]  # only that enemy unit
    state, _ = decide(state, [CADIANS])
    state, events = decide(state, legal_charge(state, LED_SQUAD, [CADIANS], 12))
    assert "unit_charged" in [e["type"] for e in events]
    state = to_phase(state, 2, "fight")
    assert CADIANS in fight_phase.fights_first(state)
    assert LED_SQUAD not in fight_phase.fights_first(state)  # no Charge bonus


def test_ensnaring_trap_charges_at_the_end_of_the_enemy_charge_phase_without_fights_first():
    state = stratagem_game("11e", {1: "veiled-blade-elimination-force"}, first=2)
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, SQUAD, 45.0, 5.0)
    place_unit(state, CADIANS, 20.0, 25.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 1
    state, _ = play(state, {"type": "end_phase", "player": 2})
    assert {o for o in offered(state) if o[0] == "ensnaring-trap"} == {
        ("ensnaring-trap", LED_SQUAD)  # SQUAD: no AGENTS unit, and too far
    }
    script_dice(state, [1, 6, 5])  # the Inquisitor's Power of the Rosette, then the charge roll
    state, _ = choose(state, "ensnaring-trap", LED_SQUAD)
    state, _ = decide(state, [CADIANS])
    state, events = decide(state, legal_charge(state, LED_SQUAD, [CADIANS], 11))
    assert "unit_charged" in [e["type"] for e in events]
    assert state["phase"] == "fight"
    assert LED_SQUAD not in fight_phase.fights_first(state)  # no Charge bonus


def test_command_re_roll_in_play_re_rolls_a_failed_charge_roll():
    state = stratagem_game("11e")
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 28.0)
    state = to_phase(state, 1, "charge")
    state["players"]["1"]["cp"] = 1
    script_dice(state, [1, 1])
    state, _ = play(
        state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": [CADIANS]}
    )
    assert offered(state) == {("command-re-roll-11e", SQUAD)}
    state, _ = choose(state, "command-re-roll-11e", SQUAD)
    script_dice(state, [6, 6])
    state, events = decide(state, "all")  # charge rolls are re-rolled in full
    assert [e["values"] for e in events if e["type"] == "dice_rerolled"] == [[6, 6]]
    assert state["pending"][-1]["kind"] == "charge_move"
    assert state["pending"][-1]["options"]["max_distance"] == 12


def test_a_game_owns_its_rules_data_and_editing_it_changes_neither_the_setup_nor_another_game():
    """new_game copies the setup's records into the state: a caller that edits one game's
    stratagem, datasheet or mission records leaves the setup and every other game alone."""
    before = copy.deepcopy(STRATAGEMS)
    first, second = stratagem_game("11e"), stratagem_game("11e")
    untouched = copy.deepcopy(second["stratagems"])
    first["stratagems"]["counteroffensive-11e"]["cp_cost"] = 9
    first["stratagems"]["counteroffensive-11e"]["when"]["trigger"] = "fight_step"
    slug = next(iter(first["datasheets"]))
    first["datasheets"][slug]["name"] = "Edited"
    first["mission"]["objective_markers"].clear()
    assert before == STRATAGEMS
    assert second["stratagems"] == untouched
    assert second["datasheets"][slug]["name"] != "Edited"
    assert second["mission"]["objective_markers"]
