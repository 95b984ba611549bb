"""Falling back, as pending decisions (11e 09.07, 06.03; 10e Fall Back Moves, Desperate Escape)."""

import pytest

from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import (
    decide,
    deployed_game,
    end_phase,
    formation,
    place_unit,
    play,
    script_dice,
)

SQUAD = "p1-u2"


def engaged_squad(edition, battle_shocked=False):
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, "p2-u1", 20.0, 11.9)
    if battle_shocked:
        ctx = Context(copy_state(state))
        add_effect(
            ctx, "battle-shock", {"unit": SQUAD}, {"status": "battle_shocked"}, "until_removed", 1
        )
        state = ctx.state
    state, _ = end_phase(state)  # to the Movement phase
    return state


def back_to(state, y):
    return formation(state["units"][SQUAD], 20.0, y)


def test_an_engaged_unit_can_only_fall_back_or_remain_stationary():
    state = engaged_squad("11e")
    kinds = {a["type"] for a in legal_actions(state, 1) if a.get("unit") == SQUAD}
    assert kinds == {"fall_back", "remain_stationary"}
    with pytest.raises(Refusal) as refusal:
        apply(state, {"type": "move", "player": 1, "unit": SQUAD, "positions": back_to(state, 5)})
    assert refusal.value.code == "engaged"


def test_11e_ordered_retreat_then_no_shooting_or_charging_that_turn():
    """09.07: select a mode; after falling back the unit cannot shoot or declare a charge."""
    state = engaged_squad("11e")
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    assert state["pending"][-1]["options"] == ["ordered_retreat", "desperate_escape"]
    state, _ = decide(state, "ordered_retreat")
    assert state["pending"][-1]["kind"] == "fall_back_move"
    with pytest.raises(Refusal) as refusal:
        decide(state, back_to(state, 9.0))  # still within engagement range
    assert refusal.value.code == "ends_engaged"
    state, _ = decide(state, back_to(state, 5.0))
    assert SQUAD in state["facts"]["turn"]["fell_back"]
    state, _ = end_phase(state)
    assert not [a for a in legal_actions(state, 1) if a.get("unit") == SQUAD]


def test_11e_desperate_escape_hazard_rolls_mortal_wounds_and_a_battle_shock_roll():
    """09.07 Desperate Escape: a hazard roll per model (06.03: 1-2 fails, 1 mortal wound), the
    owner allocates it, then a battle-shock roll because the unit was not battle-shocked."""
    state = engaged_squad("11e")
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    script_dice(state, [2, 6, 6, 6, 6])
    state, events = decide(state, "desperate_escape")
    hazard = next(e for e in events if e["type"] == "dice_rolled")
    assert (hazard["purpose"], hazard["values"]) == ("hazard", [2, 6, 6, 6, 6])
    allocation = state["pending"][-1]
    assert allocation["kind"] == "allocate_mortal_wound" and len(allocation["options"]) == 5
    script_dice(state, [6, 6])
    state, events = decide(state, "p1-u2-m3")
    wounded = next(m for m in state["units"][SQUAD]["models"] if m["id"] == "p1-u2-m3")
    assert wounded["wounds_left"] == 1
    assert [e["passed"] for e in events if e["type"] == "battle_shock_rolled"] == [True]
    assert state["pending"][-1]["kind"] == "fall_back_move"


def test_11e_a_battle_shocked_unit_must_use_desperate_escape():
    state = engaged_squad("11e", battle_shocked=True)
    script_dice(state, [6, 6, 6, 6, 6])
    state, events = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    assert [e["mode"] for e in events if e["type"] == "fall_back_mode_selected"] == [
        "desperate_escape"
    ]
    assert not [e for e in events if e["type"] == "battle_shock_rolled"]


def test_10e_a_battle_shocked_unit_tests_for_every_model_and_you_select_the_losses():
    """10e Desperate Escape Tests: the move is given first; a battle-shocked unit tests for every
    model before any model moves; each 1-2 destroys one model, selected by you; the survivors
    then make the move."""
    state = engaged_squad("10e", battle_shocked=True)
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    assert state["pending"][-1]["kind"] == "fall_back_move"
    script_dice(state, [1, 2, 3, 6, 6])
    state, events = decide(state, back_to(state, 5.0))
    tests = [e for e in events if e["type"] == "dice_rolled"]
    assert [(e["purpose"], e["values"]) for e in tests] == [("desperate_escape", [1, 2, 3, 6, 6])]
    assert state["pending"][-1]["kind"] == "choose_model_destroyed"
    state, _ = decide(state, "p1-u2-m1")
    state, events = decide(state, "p1-u2-m5")
    assert [e["model"] for e in events if e["type"] == "model_destroyed"] == ["p1-u2-m5"]
    assert len(alive_models(state["units"][SQUAD])) == 3
    assert state["pending"] == []
    assert {m["y"] for m in alive_models(state["units"][SQUAD])} == {5.0}
    assert SQUAD in state["facts"]["turn"]["fell_back"]


def test_refusals_cite_the_rule_where_each_edition_writes_it():
    """11e cites section numbers, 10e its rule headings."""
    for edition, expected in (("11e", "09.05"), ("10e", "Normal Moves")):
        state = engaged_squad(edition)
        with pytest.raises(Refusal) as refusal:
            apply(
                state, {"type": "move", "player": 1, "unit": SQUAD, "positions": back_to(state, 5)}
            )
        assert refusal.value.rule == expected
