"""Overrun fights (11e 12.04 eligibility "engaged at the start of this step", 12.06 Overrun
Fight: one additional pile-in move, then attacks); 10e has no such fight."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.phases.fight import current_step, eligible_fighters, fight_types
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import decide, deployed_game, kill, place_unit, play
from tests.stratagem_world import CADIANS, CADIANS_2, LED_SQUAD, SQUAD, to_phase


def settle(state, events=None):
    """Answer the attacks' decisions (the first allocation order; no 10e consolidation); the
    events produced are added to `events`."""
    while state["pending"]:
        top = state["pending"][-1]
        if top["kind"] == "allocation_order":
            state, more = decide(state, top["options"][0])
        elif top["kind"] == "consolidate_move":
            state, more = decide(state, None)
        else:
            break
        if events is not None:
            events.extend(more)
    return state


def combat(edition, squad_models=5):
    """Player 1's Fight phase: SQUAD engaged with CADIANS; CADIANS_2 stand 2.78" from SQUAD
    (unengaged, within the 5" of a pile-in); LED_SQUAD far away."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 5 - squad_models)
    place_unit(state, SQUAD, 10.0, 36.0)
    place_unit(state, CADIANS, 10.0, 38.0)
    place_unit(state, CADIANS_2, 10.0, 30.5)  # its second rank at y 32.1
    place_unit(state, LED_SQUAD, 50.0, 8.0)
    return to_phase(state, 1, "fight")


def destroyed_while_fighting(edition, squad_models=5):
    """The Cadians fight first (player 2 selects first in Remaining Combats), then are destroyed
    (as if by another unit's attacks): SQUAD is no longer engaged."""
    state = combat(edition, squad_models)
    assert current_step(state) == ("fight", 2)
    state, _ = play(state, {"type": "fight", "player": 2, "unit": CADIANS})
    state = settle(state)
    kill(state, CADIANS, 10)
    return state


def overrun_pile_in(state):
    """Every SQUAD model 1" toward CADIANS_2: it ends 1.78" away, engaged."""
    return {m["id"]: [m["x"], m["y"] - 1.0, 270.0] for m in alive_models(state["units"][SQUAD])}


def test_a_unit_engaged_at_the_start_of_the_fight_step_makes_an_overrun_fight():
    # 11e 12.04: eligible if "it was engaged at the start of this step"; 12.06 Overrun Fight:
    # eligible if unengaged; one additional pile-in move, then it fights.
    state = destroyed_while_fighting("11e")
    assert SQUAD in eligible_fighters(state)
    assert fight_types(state, state["units"][SQUAD]) == ["overrun"]
    template = next(a for a in legal_actions(state, 1) if a.get("unit") == SQUAD)
    assert template["fight_types"] == ["overrun"] and template["pile_in"] == "optional"
    normal = {"type": "fight", "player": 1, "unit": SQUAD, "fight_type": "normal"}
    with pytest.raises(Refusal) as refusal:
        apply(state, normal)
    assert refusal.value.code == "fight_type_not_eligible" and refusal.value.rule == "12.04"
    action = {
        "type": "fight",
        "player": 1,
        "unit": SQUAD,
        "fight_type": "overrun",
        "pile_in": overrun_pile_in(state),
    }
    state, events = play(state, action)
    types = [e["type"] for e in events]
    assert types.index("fight_type_selected") < types.index("unit_moved")
    selected = next(e for e in events if e["type"] == "fight_type_selected")
    assert selected["fight_type"] == "overrun" and selected["rule"] == "12.06"
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["move"] == "pile_in"
    state = settle(state, events)
    assert {e["target"] for e in events if e["type"] == "attack_step"} == {CADIANS_2}


def test_the_overrun_pile_in_is_a_pile_in_move_and_is_checked_as_one():
    # 12.06 "one additional pile-in move" (12.03: up to 3", closer to the selected targets).
    state = destroyed_while_fighting("11e")
    too_far = {m: [x, y - 3.5, f] for m, (x, y, f) in overrun_pile_in(state).items()}
    with pytest.raises(Refusal) as refusal:
        apply(
            state,
            {
                "type": "fight",
                "player": 1,
                "unit": SQUAD,
                "fight_type": "overrun",
                "pile_in": too_far,
            },
        )
    assert refusal.value.code == "move_too_far"


def test_an_enemy_unit_engaged_by_an_overrun_becomes_eligible_and_may_choose_its_fight_type():
    # 12.06: enemy units that were unengaged and become engaged become eligible to fight; a unit
    # unengaged at the start of the Fight step that became engaged may make an overrun fight too.
    state = destroyed_while_fighting("11e", squad_models=1)  # one Grey Knight: Cadians survive
    assert CADIANS_2 not in eligible_fighters(state)
    action = {
        "type": "fight",
        "player": 1,
        "unit": SQUAD,
        "fight_type": "overrun",
        "pile_in": overrun_pile_in(state),
    }
    state, _ = play(state, action)
    state = settle(state)
    assert alive_models(state["units"][CADIANS_2])  # ten Cadians: some survive the attacks
    assert CADIANS_2 in eligible_fighters(state)
    assert fight_types(state, state["units"][CADIANS_2]) == ["normal", "overrun"]
    template = next(a for a in legal_actions(state, 2) if a.get("unit") == CADIANS_2)
    assert template["fight_types"] == ["normal", "overrun"]


def test_tenth_edition_has_no_overrun_fight():
    # 10e Fight Phase: eligible units are engaged or made a charge move this turn.
    state = destroyed_while_fighting("10e")
    assert SQUAD not in eligible_fighters(state)
    assert fight_types(state, state["units"][SQUAD]) == ["normal"]
    assert not [a for a in legal_actions(state, 1) if a["type"] == "fight"]


def test_the_self_play_agent_makes_overrun_fights_with_a_pile_in_move():
    # The agents fill the fight template: an overrun fight, piling in toward units within 5".
    import random

    from rules.engine.tools.selfplay import choose_action

    state = destroyed_while_fighting("11e")
    for seed in range(3):
        candidates = choose_action(random.Random(seed), state, 1)
        first = candidates[0]
        assert first["type"] == "fight" and first["fight_type"] == "overrun"
        assert "pile_in" in first
        _, events = apply(state, first)
        assert any(e["type"] == "unit_moved" and e["move"] == "pile_in" for e in events)
