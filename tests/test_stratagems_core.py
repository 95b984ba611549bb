"""Core and Boarding Actions stratagems in play, one scenario each: the effect and refusals.

11e 15.03 Epic Challenge, 15.04 Insane Bravery (seeds 000, 003); 10e Insane Bravery, Go to Ground
(seed 004); Boarding Actions Insane Bravery (seeds 000, 003, 004).
"""

import pytest

from rules.engine.effects import add_effect
from rules.engine.events import Context
from rules.engine.stratagem_effects import Use
from rules.engine.stratagem_effects.attacks import attack_modifiers
from rules.engine.stratagems import refusal_for
from tests.engine_world import kill, play, script_dice
from tests.stratagem_world import (
    CADIANS,
    LED_SQUAD,
    SQUAD,
    choose,
    offered,
    pass_windows,
    place_unit,
    stratagem_game,
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
    return play(state, {"type": "shoot", "player": 2, "unit": CADIANS, "targets": [SQUAD]})[0]


def test_go_to_ground_gives_a_6_plus_invulnerable_save_and_cover():
    state = shot_at_by_cadians()
    assert offered(state) == {("go-to-ground-10e", SQUAD)}  # not the unit nobody shot at
    state, _ = choose(state, "go-to-ground-10e", SQUAD)
    granted = {(m.step, m.kind, m.value) for m in attack_modifiers(state, CADIANS, SQUAD)}
    assert granted == {("invulnerable", "set", 6), ("cover", "grant", None)}
    assert attack_modifiers(state, CADIANS, LED_SQUAD) == ()
    state = to_phase(state, 2, "charge")
    assert attack_modifiers(state, CADIANS, SQUAD) == ()  # until the end of the phase


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
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS})
    assert window(state) is None  # an enemy unit selected: not Epic Challenge's moment
    state, _ = play(state, {"type": "fight", "player": 1, "unit": LED_SQUAD})
    return state


def test_epic_challenge_gives_the_character_precision_in_melee():
    state = character_selected_to_fight()
    assert offered(state) == {("epic-challenge-11e", LED_SQUAD)}
    state, _ = choose(state, "epic-challenge-11e", LED_SQUAD)
    (granted,) = attack_modifiers(state, LED_SQUAD, CADIANS)
    assert (granted.step, granted.value, dict(granted.condition)) == (
        "ability",
        "precision",
        {"weapon_type": "melee"},
    )


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
