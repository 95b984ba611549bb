"""FLY and heights in play: the player declares Take to the Skies on the move (11e §21.03), 10e FLY
units fly without a declaration, and models climb onto upper floors of ruins (11e §13.06, 10e
Ruins) with positions that carry a height."""

import json

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import apply, legal_actions, new_game
from tests.engine_world import (
    BUNDLE,
    ROOT,
    SEED,
    army,
    default_armies,
    deployed_game,
    entry,
    formation,
    place_unit,
    play,
    setup,
)
from tests.stratagem_world import CADIANS, CADIANS_2, to_phase

INTERCEPTORS, SQUAD = "p1-u1", "p1-u2"


def interceptor_sheet():
    data = json.loads((ROOT / "rules/data/factions/grey-knights/published.json").read_text("utf-8"))
    return next(d for d in data["datasheets"] if d["slug"] == "interceptor-squad")


def flying_game(edition):
    """Player 1's Movement phase: Interceptors (M12, FLY) with a Cadian unit 3" in front."""
    armies = default_armies()
    armies["1"] = army(
        entry("int", "interceptor-squad", 5, warlord=True), entry("ss", "strike-squad", 5)
    )
    state, _ = deployed_game(
        edition, armies, datasheets=[*BUNDLE["datasheets"], interceptor_sheet()]
    )
    place_unit(state, INTERCEPTORS, 40.0, 2.0)
    place_unit(state, SQUAD, 50.0, 30.0)
    kill_all_but_a_row(state, CADIANS)
    place_unit(state, CADIANS, 38.0, 6.0)
    place_unit(state, CADIANS_2, 2.0, 40.0)
    return to_phase(state, 1, "movement")


def kill_all_but_a_row(state, unit_id):
    for model in state["units"][unit_id]["models"][5:]:
        model["wounds_left"] = 0


def over_the_cadians(state, dy):
    return {
        m["id"]: [m["x"], m["y"] + dy, 90.0] for m in alive_models(state["units"][INTERCEPTORS])
    }


def test_11e_fly_units_take_to_the_skies_to_move_over_enemy_models_for_two_inches_less():
    # 11e §21.03: declared before moving; subtract 2" from the maximum distance; move through
    # all models. Without the declaration the base cannot cross enemy models (03.01).
    state = flying_game("11e")
    move = next(
        a for a in legal_actions(state, 1) if a["type"] == "move" and a["unit"] == INTERCEPTORS
    )
    assert move["can_take_to_the_skies"] is True and move["fly_move_penalty"] == 2
    walk = {
        "type": "move",
        "player": 1,
        "unit": INTERCEPTORS,
        "positions": over_the_cadians(state, 9.0),
    }
    with pytest.raises(Refusal) as refusal:
        apply(state, walk)
    assert refusal.value.code == "through_enemy_model"
    with pytest.raises(Refusal) as refusal:
        apply(
            state, {**walk, "positions": over_the_cadians(state, 10.5), "take_to_the_skies": True}
        )
    assert refusal.value.code == "move_too_far" and '10.5" of 10"' in refusal.value.message
    state, events = play(state, {**walk, "take_to_the_skies": True})
    assert any(e["type"] == "unit_moved" for e in events)


def test_11e_only_fly_units_take_to_the_skies_and_10e_needs_no_declaration():
    # 11e §21.03 ("FLYING unit"); 10e FLY: models move over enemy models as if they were not
    # there in Normal, Advance and Fall Back moves, with no declaration to make.
    state = flying_game("11e")
    squad = {
        "type": "move",
        "player": 1,
        "unit": SQUAD,
        "positions": {
            m["id"]: [m["x"], m["y"] - 1, 0.0] for m in alive_models(state["units"][SQUAD])
        },
        "take_to_the_skies": True,
    }
    with pytest.raises(Refusal) as refusal:
        apply(state, squad)
    assert refusal.value.code == "cannot_take_to_the_skies" and refusal.value.rule == "21.03"
    tenth = flying_game("10e")
    move = next(
        a for a in legal_actions(tenth, 1) if a["type"] == "move" and a["unit"] == INTERCEPTORS
    )
    assert "can_take_to_the_skies" not in move
    walk = {
        "type": "move",
        "player": 1,
        "unit": INTERCEPTORS,
        "positions": over_the_cadians(tenth, 11.0),
    }
    tenth, events = play(tenth, walk)
    assert any(e["type"] == "unit_moved" for e in events)
    with pytest.raises(Refusal) as refusal:
        apply(flying_game("10e"), {**walk, "take_to_the_skies": True})
    assert refusal.value.code == "cannot_take_to_the_skies"


def test_11e_advance_taking_to_the_skies_carries_the_declaration_to_the_move():
    # 11e §21.03 example: an advance of M + roll, 2" less when taking to the skies.
    state = flying_game("11e")
    state, _ = play(
        state, {"type": "advance", "player": 1, "unit": INTERCEPTORS, "take_to_the_skies": True}
    )
    top = state["pending"][-1]
    assert top["kind"] == "advance_move" and top["options"]["take_to_the_skies"] is True
    assert top["options"]["max_distance"] == 12 + top["options"]["advance_roll"] - 2


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_infantry_climbs_onto_the_upper_floor_of_a_ruin_and_the_height_is_kept(edition):
    # 11e §13.06 / 10e Ruins: INFANTRY end on upper floors; the climb counts. Ruin t1 of the
    # mission: x 4-12, y 14-20, 6" high. Four models climb 2" up, one stays below (coherency:
    # 5" vertically).
    state, _ = deployed_game(edition)
    state = to_phase(state, 1, "movement")
    place_unit(state, SQUAD, 5.0, 14.5)  # x 5 ... 11.4, at ground level inside the ruin
    positions = {}
    for index, model in enumerate(alive_models(state["units"][SQUAD])):
        height = [2.0] if index < 4 else []
        positions[model["id"]] = [model["x"], model["y"] + 1.0, 0.0, *height]
    action = {"type": "move", "player": 1, "unit": SQUAD, "positions": positions}
    state, events = play(state, action)
    heights = [m.get("z", 0.0) for m in alive_models(state["units"][SQUAD])]
    assert heights == [2.0, 2.0, 2.0, 2.0, 0.0]
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert len(moved["positions"][f"{SQUAD}-m1"]) == 4


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_model_whose_base_overhangs_the_floor_cannot_end_up_there(edition):
    # 11e §13.06: "no part of its base overhangs the outer edge of that surface".
    state, _ = deployed_game(edition)
    state = to_phase(state, 1, "movement")
    place_unit(state, SQUAD, 5.0, 14.5)
    positions = {
        m["id"]: [m["x"], m["y"] + 1.0, 0.0, 2.0] for m in alive_models(state["units"][SQUAD])
    }  # the fifth model at x 11.4 overhangs the edge at x 12
    with pytest.raises(Refusal) as refusal:
        apply(state, {"type": "move", "player": 1, "unit": SQUAD, "positions": positions})
    assert refusal.value.code == "no_surface"
    assert refusal.value.rule == ("13.06" if edition == "11e" else "Ruins")


def test_deploying_on_an_upper_floor_needs_a_surface_under_every_base():
    # 11e §13.06 Setting Up: models can be set up on an upper surface (ruin t3: x 20-26, y 6-10,
    # 4" high, inside player 1's deployment zone); not in the air.
    state, _ = new_game(setup("11e"), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    if state["awaiting"] == 2:
        cadians = state["units"][CADIANS]
        state, _ = play(
            state,
            {
                "type": "deploy",
                "player": 2,
                "unit": CADIANS,
                "positions": formation(cadians, 2.0, 36.0),
            },
        )
    spots = [(20.8, 7.0), (22.4, 7.0), (24.0, 7.0), (20.8, 8.6), (22.4, 8.6), (24.0, 8.6)]
    unit = state["units"]["p1-u1"]
    floor = {
        m["id"]: [x, y, 0.0, 4.0] for m, (x, y) in zip(alive_models(unit), spots, strict=False)
    }
    air = {m: [x + 10.0, y, f, z] for m, (x, y, f, z) in floor.items()}
    deploy = {"type": "deploy", "player": 1, "unit": "p1-u1"}
    with pytest.raises(Refusal) as refusal:
        apply(state, {**deploy, "positions": air})
    assert refusal.value.code == "no_surface"
    state, _ = play(state, {**deploy, "positions": floor})
    assert {m.get("z") for m in alive_models(state["units"]["p1-u1"])} == {4.0}


def test_the_self_play_agent_takes_to_the_skies_with_fly_units():
    # The agents declare Take to the Skies (half the time) when a template offers it, and find a
    # move the battlefield accepts for that declaration.
    import random

    from rules.engine.tools.selfplay import choose_action

    state = flying_game("11e")
    flown = 0
    for seed in range(12):
        for candidate in choose_action(random.Random(seed), state, 1):
            try:
                apply(state, candidate)
            except Refusal:
                continue
            flown += bool(candidate.get("take_to_the_skies"))
            break
    assert flown


def test_10e_fly_models_falling_back_over_enemy_models_take_no_desperate_escape_test():
    # 10e Desperate Escape Tests: not for FLY models (every model when battle-shocked).
    state = flying_game("10e")
    place_unit(state, INTERCEPTORS, 40.0, 4.6)  # engaged with the Cadians at y 6
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": INTERCEPTORS})
    top = state["pending"][-1]
    assert top["kind"] == "fall_back_move"
    over = {
        m["id"]: [m["x"], m["y"] + 4.5, 90.0] for m in alive_models(state["units"][INTERCEPTORS])
    }
    state, events = play(
        state, {"type": "decide", "player": 1, "decision": top["id"], "choice": over}
    )
    assert not [e for e in events if e["type"] == "dice_rolled"]
    assert any(e["type"] == "unit_moved" for e in events)
