"""Rapid Ingress (11e 15.07; 10e Rapid Ingress), Scouting Outriders (Astra Militarum, Recon
Element), Ritual of Warding (Imperial Agents, Ordo Malleus): stratagems that move units between
the battlefield and strategic reserves, and that keep objective markers."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.sequence.game import apply
from tests.engine_world import army, decide, default_armies, entry, play
from tests.stratagem_world import (
    CADIANS_2,
    LED_SQUAD,
    SQUAD,
    choose,
    offered,
    place_unit,
    stratagem_game,
    to_phase,
    window,
)


def column_on_left_edge(state, unit_id, y):
    """Two files along the left edge, five models deep: in coherency (03.03: 9" span)."""
    unit = state["units"][unit_id]
    return {
        m["id"]: [1.0 + (i % 2) * 1.2, y + (i // 2) * 1.2, 0.0]
        for i, m in enumerate(unit["models"])
    }


def end_of_p1_movement(edition, battle_round):
    state = stratagem_game(edition, reserves={2: [CADIANS_2]})
    state["players"]["2"]["cp"] = 3
    if battle_round == 2:
        state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "movement")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    return state


@pytest.mark.parametrize(
    "edition, slug", [("11e", "rapid-ingress-11e"), ("10e", "rapid-ingress-10e")]
)
def test_rapid_ingress_sets_a_reserve_unit_up_at_the_end_of_the_opponents_movement(edition, slug):
    state = end_of_p1_movement(edition, 2)
    assert window(state)["player"] == 2
    assert offered(state) == {(slug, CADIANS_2)}
    cp = state["players"]["2"]["cp"]
    state, _ = choose(state, slug, CADIANS_2)
    arrival = state["pending"][-1]
    assert arrival["kind"] == "stratagem_arrival" and arrival["player"] == 2
    state, events = decide(state, column_on_left_edge(state, CADIANS_2, 26.0))
    assert state["units"][CADIANS_2]["location"] == "battlefield"
    assert "unit_arrived" in [e["type"] for e in events]
    assert state["players"]["2"]["cp"] == cp - 1
    assert state["phase"] == "shooting"  # the phase ended after the window


@pytest.mark.parametrize(
    "edition, slug", [("11e", "rapid-ingress-11e"), ("10e", "rapid-ingress-10e")]
)
def test_rapid_ingress_refuses_the_first_battle_round_and_a_set_up_away_from_the_edges(
    edition, slug
):
    state = end_of_p1_movement(edition, 1)
    assert window(state) is None  # strategic reserves arrive from the second battle round
    state = end_of_p1_movement(edition, 2)
    state, _ = choose(state, slug, CADIANS_2)
    far = {
        m: [x + 20.0, y, f] for m, (x, y, f) in column_on_left_edge(state, CADIANS_2, 26.0).items()
    }
    top = state["pending"][-1]
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "decide", "player": 2, "decision": top["id"], "choice": far})
    assert refused.value.code == "not_near_edge"


def outriders_game():
    armies = default_armies()
    armies["2"] = army(
        entry("cad1", "cadian-shock-troops", 10, warlord=True),
        entry("drc", "death-rider-commissar", 1),
    )
    state = stratagem_game("11e", {2: "recon-element"}, armies=armies)
    state["players"]["2"]["cp"] = 3
    return state


RIDER = "p2-u2"


def test_scouting_outriders_puts_a_mounted_unit_near_an_edge_into_strategic_reserves():
    state = outriders_game()
    place_unit(state, RIDER, 30.0, 40.0)
    state = to_phase(state, 1, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    assert offered(state) == {("scouting-outriders", RIDER)}
    state, events = choose(state, "scouting-outriders", RIDER)
    assert state["units"][RIDER]["location"] == "strategic_reserves"
    assert "unit_placed_into_reserves" in [e["type"] for e in events]


def test_scouting_outriders_refuses_a_unit_in_mid_table():
    state = outriders_game()
    place_unit(state, RIDER, 30.0, 22.0)
    state = to_phase(state, 1, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    assert window(state) is None


INQUISITOR = "p1-u1"


def warding_game():
    armies = default_armies()
    armies["1"] = army(entry("inq", "inquisitor", 1, warlord=True), entry("ss2", "strike-squad", 5))
    state = stratagem_game("11e", {1: "ordo-malleus-daemon-hunters"}, armies=armies)
    place_unit(state, INQUISITOR, 30.0, 6.0)  # on objective o4
    state["players"]["1"]["cp"] = 3
    state = to_phase(state, 1, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 1})  # start of player 2's Command
    return state


def marker(state, marker_id):
    return next(m for m in state["objectives"] if m["id"] == marker_id)


def test_ritual_of_warding_keeps_the_objective_marker_without_models_in_range():
    state = warding_game()
    assert marker(state, "o4")["controller"] == 1
    assert offered(state) == {("ritual-of-warding", INQUISITOR)}
    state, _ = choose(state, "ritual-of-warding", INQUISITOR)
    place_unit(state, INQUISITOR, 10.0, 10.0)
    state = to_phase(state, 2, "shooting")
    assert marker(state, "o4")["controller"] == 1


def test_ritual_of_warding_refuses_a_unit_that_is_no_warden_and_without_it_control_lapses():
    state = warding_game()
    assert (
        "ritual-of-warding",
        "p1-u2",
    ) not in offered(state)  # the Strike Squad is no INQUISITOR unit
    state, _ = decide(state, "pass")
    place_unit(state, INQUISITOR, 10.0, 10.0)
    state = to_phase(state, 2, "shooting")
    assert marker(state, "o4")["controller"] is None
    assert LED_SQUAD == INQUISITOR and SQUAD == "p1-u2"
