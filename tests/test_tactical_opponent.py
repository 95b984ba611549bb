"""The tactical computer opponent (issue 19, rules/engine/tools/tactical.py): it decides every
action and window of a whole game within a second, the same way every time, beats the random
self-play agent from the same armies and dice, and passes stratagem windows that do not help."""

from __future__ import annotations

import pytest

from rules.engine import acting_player, new_game
from rules.engine.tools import selfplay, tactical
from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE


@pytest.mark.parametrize(("edition", "number"), [("11e", 1), ("10e", 2)])
def test_the_tactical_agent_beats_the_random_agent_deciding_each_action_within_a_second(
    edition, number
):
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, edition)
    side = 1 if number % 2 else 2
    agents = {side: "tactical", 3 - side: "random"}
    state, timings, actions = tactical.play_game(setup, selfplay.dice_seed(number), agents, number)
    assert state["stage"] == "ended"
    assert state["winner"] == side
    assert max(timings) < 1.0
    assert any(a["type"] == "shoot" for a in actions)
    assert any(a["type"] == "deploy" for a in actions)


def test_the_same_state_gives_the_same_action():
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(3))
    for _ in range(12):
        player = acting_player(state)
        first = tactical.choose(state, player)
        assert tactical.choose(state, player) == first
        first, state, _events = tactical.play(state, player)


def _window(state, options, player=1):
    state = {
        **state,
        "pending": [
            {
                "id": "d9",
                "player": player,
                "kind": "stratagem_window",
                "options": options,
                "resume": {},
                "rule": "",
                "prompt": "",
            }
        ],
    }
    return state


def test_a_window_where_nothing_helps_is_passed_at_once():
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(1))
    option = {"stratagem": "burst-of-speed", "target": "p1-u1", "window": {"trigger": "phase_end"}}
    state = _window(state, [option, "pass"])
    options = [
        {"type": "decide", "player": 1, "decision": "d9", "choice": c} for c in (option, "pass")
    ]
    chosen = tactical._tactical(tactical.agent_rng(state, 1), state, 1, options)
    assert chosen[0]["choice"] == "pass"


def test_a_failed_charge_roll_is_re_rolled_with_a_command_re_roll():
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(1))
    for unit_id, x in (("p1-u1", 10.0), ("p2-u1", 10.0)):
        for index, model in enumerate(state["units"][unit_id]["models"]):
            model["x"], model["y"] = x + index, (20.0 if unit_id == "p1-u1" else 28.0)
        state["units"][unit_id]["location"] = "battlefield"
    state["players"]["1"]["cp"] = 2
    roll = {"purpose": "charge", "player": 1, "unit": "p1-u1", "values": [1, 2], "total": 3}
    option = {"stratagem": "command-re-roll-11e", "target": "p1-u1", "window": {"roll": roll}}
    state = _window(state, [option, "pass"])
    options = [
        {"type": "decide", "player": 1, "decision": "d9", "choice": c} for c in (option, "pass")
    ]
    chosen = tactical._tactical(tactical.agent_rng(state, 1), state, 1, options)
    assert chosen[0]["choice"] == option
    # A charge roll that already reaches the enemy (about 7" apart, engagement range 2") is kept.
    roll["total"] = 9
    chosen = tactical._tactical(tactical.agent_rng(state, 1), state, 1, options)
    assert chosen[0]["choice"] == "pass"


def _facing(state, gap: float):
    """Strike Squad A (player 2) and Cadian Shock Troops A (player 1) in lines `gap`" apart."""
    for unit_id, y in (("p1-u1", 20.0), ("p2-u1", 20.0 + gap + 1.0)):
        for index, model in enumerate(state["units"][unit_id]["models"]):
            model["x"], model["y"] = 10.0 + 1.3 * index, y
        state["units"][unit_id]["location"] = "battlefield"
    return state


@pytest.mark.parametrize(("gap", "declared"), [(4.0, True), (12.0, False)])
def test_a_melee_unit_charges_when_2d6_likely_reaches(gap, declared):
    """Strike Squads fight better than they shoot: a charge needing 2" after the 2" engagement
    range (35/36) is declared, one needing 10" (6/36) is not."""
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(1))
    state = _facing(state, gap)
    template = {"type": "declare_charge", "player": 2, "unit": "p2-u1", "targets": ["p1-u1"]}
    chosen = tactical._charges(state, [template])
    assert bool(chosen) is declared
    assert tactical.two_dice_at_least(2) == 1.0 and tactical.two_dice_at_least(12) == 1 / 36


def test_a_unit_that_the_target_outfights_does_not_charge():
    """Cadians led by an Inquisitor hit harder in melee than they shoot, but the Strike Squad
    hits back harder still: no charge, however close."""
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(1))
    state = _facing(state, 3.0)
    cadians, squad = state["units"]["p1-u1"], state["units"]["p2-u1"]
    assert tactical.punch(state, cadians, "melee") < tactical.punch(state, squad, "melee")
    template = {"type": "declare_charge", "player": 1, "unit": "p1-u1", "targets": ["p2-u1"]}
    assert tactical._charges(state, [template]) == []


def orders_then_next_action() -> tuple[list[dict], dict]:
    """The tactical agent's Command phase with Officers (tests.orders_world.am_game): the
    `issue_order` actions it takes in a row, then the action after them."""
    from tests.orders_world import am_game

    state = am_game()
    issued = []
    for _ in range(6):
        action, state, _events = tactical.play(state, 2)
        if action["type"] != "issue_order":
            break
        issued.append(action)
    return issued, action


def test_officers_issue_orders_in_the_command_phase_then_the_phase_ends():
    """Voice of Command: every Order its Officers may issue (the Castellan's two, the Death
    Rider Commissar's one) is issued, the most helpful first, then the Command phase ends."""
    issued, then = orders_then_next_action()
    assert len(issued) == 3
    assert then["type"] == "end_phase"


def test_units_deploy_near_objective_markers_of_their_zone():
    """Each unit is set up at the point of its zone nearest a marker no unit of its side holds
    yet: the home marker first, then as near the middle's markers as the zone allows."""
    setup = selfplay.selfplay_setup(STRATAGEM_BUNDLE, "11e")
    state, _ = new_game(setup, selfplay.dice_seed(5))
    while state["stage"] in ("declare_reserves", "deployment"):
        _action, state, _events = tactical.play(state, acting_player(state))
    for unit in state["units"].values():
        if unit["location"] != "battlefield":
            continue
        nearest = min(
            tactical.math.dist(tactical._centre(unit), (o["x"], o["y"]))
            for o in state["objectives"]
        )
        assert nearest < 12.0, unit["name"]
    homes = [o for o in state["objectives"] if o["y"] in (6.0, 38.0)]
    for player in (1, 2):
        mine = [u for u in state["units"].values() if u["player"] == player]
        assert any(tactical._holds(state, u, o) for u in mine for o in homes)


@pytest.mark.parametrize(
    ("edition", "dice", "options", "spared"),
    [
        ("10e", (1, 1, 1, 6), ["p1-u2-m3", "p1-u2-m4"], "p1-u2-m4"),
        ("11e", (1, 1, 2, 6), [f"p1-u2-m{i}" for i in range(1, 6)], "p1-u2-m4"),
    ],
)
def test_both_agents_answer_a_failed_hazardous_test_and_the_tactical_one_spares_firepower(
    edition, dice, options, spared
):
    """10e Hazardous (rulings R-ENG-17): the player selects which Grey Knight with a plasma gun
    suffers a failed test's mortal wounds; 11e 06.02: which non-CHARACTER model suffers a failed
    hazard roll's mortal wound. The random agent answers with one of the options; the tactical
    one never gives it to the Grey Knight that carries the most weapons."""
    from tests.test_core_rules_scenarios import fire_plasma_guns, two_plasma_gunners

    state = two_plasma_gunners(("Nemesis force weapon", "Plasma gun", "Storm bolter"), edition)
    state, _ = fire_plasma_guns(state, dice)
    decision = state["pending"][-1]
    assert decision["kind"] == "allocate_mortal_wound"
    assert decision["options"] == options
    assert tactical.choose(state, 1)["choice"] == options[0]
    assert tactical.choose(state, 1)["choice"] != spared
    assert tactical.opponent_action(state, 1, "random")["choice"] in decision["options"]


def test_no_officer_spends_an_order_on_one_the_unit_already_has():
    """An Order issued to a unit it already affects replaces it by the same one (seed 003, Voice
    of Command: "one Order at a time"): legal, but an Order spent for nothing. The computer gives
    each of its Orders where it is not yet in effect."""
    orders, _ = orders_then_next_action()
    issued = [(order["unit"], order["order"]) for order in orders]
    assert issued and len(set(issued)) == len(issued), issued
