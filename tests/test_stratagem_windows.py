"""Stratagem windows (11e 15; 10e Stratagems): who is asked, in which order, with what; the
restrictions every stratagem shares; standing choices and the online layer's timeout."""

import pytest

from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import canonical_json
from rules.engine.sequence.game import apply
from rules.engine.stratagems import windows
from rules.engine.stratagems.effects import Use
from rules.engine.stratagems.use import cost, refusal_for
from tests.engine_world import kill, play, shoot_at
from tests.stratagem_world import (
    CADIANS,
    LED_SQUAD,
    SQUAD,
    offered,
    place_unit,
    stratagem_game,
    to_phase,
    use,
    window,
)


def shooting_at(state, shooter, targets):
    return play(state, shoot_at(state, 2, shooter, targets))


def p2_shooting(edition="10e", detachments=None, **extra):
    state = stratagem_game(edition, detachments, first=2, **extra)
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, LED_SQUAD, 30.0, 20.0)
    place_unit(state, CADIANS, 10.0, 30.0)
    return to_phase(state, 2, "shooting")


def test_a_window_asks_the_player_who_can_respond_and_lists_stratagem_and_target():
    state = p2_shooting()
    state, events = shooting_at(state, CADIANS, [SQUAD])
    top = window(state)
    assert top["player"] == 1
    assert offered(state) == {("go-to-ground-10e", SQUAD)}
    assert "pass" in top["options"]


def test_a_window_with_nothing_usable_is_skipped_without_asking():
    state = p2_shooting()
    state["players"]["1"]["cp"] = 0
    state, events = shooting_at(state, CADIANS, [SQUAD])
    assert window(state) is None
    assert not any(e["type"] == "decision_pending" for e in events)


def test_the_active_player_is_asked_first_then_the_other():
    """Player 1 (active) selects its CHARACTER unit to fight: it may use Epic Challenge; player 2,
    whose unit is that unit's target, may use Hexbane Wards. Player 1 is asked first."""
    state = stratagem_game("11e", {2: "void-purge-force"})
    state["players"]["1"]["cp"] = state["players"]["2"]["cp"] = 5
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 1, "fight")
    # 11e 12.04: the player whose turn it is selects first.
    state, _ = play(state, {"type": "fight", "player": 1, "unit": LED_SQUAD})
    assert window(state)["player"] == 1
    assert offered(state) == {("epic-challenge-11e", LED_SQUAD)}
    state, _ = play(
        state, {"type": "decide", "player": 1, "decision": window(state)["id"], "choice": "pass"}
    )
    assert window(state)["player"] == 2
    # Breach-Shock (any time in the Fight phase) for the units that have not fought yet.
    assert offered(state) == {
        ("hexbane-wards", CADIANS),
        ("breach-shock", CADIANS),
        ("breach-shock", "p2-u2"),
    }


def test_a_pass_moves_to_the_next_player_and_then_the_game_carries_on():
    state = p2_shooting()
    state, _ = shooting_at(state, CADIANS, [SQUAD])
    top = window(state)
    state, events = play(
        state, {"type": "decide", "player": 1, "decision": top["id"], "choice": "pass"}
    )
    assert window(state) is None
    assert state["phase"] == "shooting"


def test_after_a_use_the_same_player_is_asked_again_without_that_stratagem():
    state = p2_shooting()
    state["players"]["1"]["cp"] = 3
    state, _ = shooting_at(state, CADIANS, [SQUAD])
    top = window(state)
    option = next(o for o in top["options"] if o != "pass")
    state, events = play(
        state, {"type": "decide", "player": 1, "decision": top["id"], "choice": option}
    )
    # Go to Ground is once per phase, so nothing else is left to offer: the window closed.
    assert window(state) is None
    assert [e["stratagem"] for e in events if e["type"] == "stratagem_used"] == ["go-to-ground-10e"]


def test_a_stale_or_foreign_answer_is_refused_and_changes_nothing():
    state = p2_shooting()
    state, _ = shooting_at(state, CADIANS, [SQUAD])
    before = canonical_json(state)
    with pytest.raises(Refusal) as refused:
        apply(
            state,
            {"type": "decide", "player": 2, "decision": window(state)["id"], "choice": "pass"},
        )
    assert refused.value.code == "not_your_decision"
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "decide", "player": 1, "decision": "d1", "choice": "pass"})
    assert refused.value.code == "stale_decision"
    assert canonical_json(state) == before


def test_window_timeout_passes_for_the_player_and_is_refused_without_an_open_window():
    state = p2_shooting(window_time_limit_seconds=30)
    state, _ = shooting_at(state, CADIANS, [SQUAD])
    top = window(state)
    assert top["time_limit_seconds"] == 30
    state, events = play(state, {"type": "window_timeout", "player": 1, "decision": top["id"]})
    assert window(state) is None
    assert [e["type"] for e in events if e["type"] == "window_timed_out"] == ["window_timed_out"]
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "window_timeout", "player": 1, "decision": top["id"]})
    assert refused.value.code == "no_open_window"


def test_a_standing_choice_never_offers_that_stratagem_again():
    state = p2_shooting()
    state, _ = play(
        state,
        {
            "type": "set_window_preferences",
            "player": 1,
            "never_offer": ["go-to-ground-10e"],
            "never_reroll": ["save"],
        },
    )
    state, events = shooting_at(state, CADIANS, [SQUAD])
    assert window(state) is None
    assert state["window_preferences"]["1"]["never_offer"] == ["go-to-ground-10e"]


def test_standing_choices_can_be_set_while_a_window_waits():
    state = p2_shooting()
    state, _ = shooting_at(state, CADIANS, [SQUAD])
    state, _ = play(
        state, {"type": "set_window_preferences", "player": 2, "never_reroll": ["save"]}
    )
    assert state["window_preferences"]["2"]["never_reroll"] == ["save"]
    assert window(state)["player"] == 1


def test_passing_every_window_this_phase_holds_for_this_phase_only():
    state = p2_shooting()
    state, _ = play(state, {"type": "set_window_preferences", "player": 1, "pass_phase": True})
    assert state["window_preferences"]["1"]["pass_phase"] == [
        state["battle_round"],
        2,
        "shooting",
    ]
    state, events = shooting_at(state, CADIANS, [SQUAD])
    assert window(state) is None
    assert not any(e["type"] == "decision_pending" for e in events)
    # Another phase is another moment: the choice no longer holds.
    state["phase"] = "fight"
    assert windows.asked(state, 1)


def test_a_player_without_cp_who_asked_for_quiet_is_not_asked():
    state = p2_shooting()
    state, _ = play(
        state, {"type": "set_window_preferences", "player": 1, "quiet_without_cp": True}
    )
    assert windows.asked(state, 1)
    state["players"]["1"]["cp"] = 0
    assert not windows.asked(state, 1)


def test_standing_choices_refuse_anything_but_lists_and_true_or_false():
    state = p2_shooting()
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "set_window_preferences", "player": 1, "pass_phase": "yes"})
    assert refused.value.code == "invalid_preferences"


def test_a_cost_change_never_makes_a_stratagem_cost_less_than_zero():
    state = stratagem_game("11e")
    ctx = Context(state)
    add_effect(ctx, "test", {"player": 1}, {"stratagem_cost": "*", "add": -3}, "end_of_turn", 1)
    assert cost(ctx.state, 1, "epic-challenge-11e") == 0
    assert cost(ctx.state, 2, "epic-challenge-11e") == 1


def test_a_detachment_stratagem_is_only_for_that_detachment_and_boarding_actions_only_there():
    state = stratagem_game("11e", {1: "teleport-strike-force"})
    assert "truesilver-armour" in state["stratagems"]
    assert "battlefield-command-boarding-actions" not in state["stratagems"]
    window_ = {"trigger": "enemy_unit_selected_targets", "phase": "shooting", "unit": CADIANS}
    refusal = refusal_for(state, Use("truesilver-armour", 2, CADIANS, window_))
    assert refusal.code == "stratagem_not_available"
    boarding = stratagem_game("11e", boarding_actions=True)
    assert "insane-bravery-boarding-actions" in boarding["stratagems"]
    assert "command-re-roll-10e" not in boarding["stratagems"]


def test_use_stratagem_is_refused_out_of_its_phase_and_for_the_player_without_initiative():
    state = stratagem_game("11e", {1: "teleport-strike-force"})
    state["players"]["1"]["cp"] = 5
    with pytest.raises(Refusal) as refused:
        use(state, 1, "radiant-strike", SQUAD)  # Fight phase only
    assert refused.value.code == "stratagem_not_usable_now"
    with pytest.raises(Refusal) as refused:
        use(state, 2, "radiant-strike", SQUAD)
    assert refused.value.code == "not_your_turn"


def test_a_battle_shocked_unit_is_not_offered_as_a_target():
    state = p2_shooting()
    ctx = Context(state)
    add_effect(
        ctx, "battle-shock", {"unit": SQUAD}, {"status": "battle_shocked"}, "until_removed", 1
    )
    state, _ = shooting_at(ctx.state, CADIANS, [SQUAD])
    assert window(state) is None
    kill(state, SQUAD, 0)
