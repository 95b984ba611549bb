"""Setting up through `apply` and the battlefield: deployment and Infiltrators, scout moves,
arrivals from strategic reserves and by Deep Strike, reserves destroyed after the third battle
round, and coherency regained at the end of a turn (11e 03.02, 03.03, 20.03-20.04, 24.20, 24.32;
10e Deploy Armies, Infiltrators, Scouts, Strategic Reserves, Deep Strike, Unit Coherency)."""

import copy

import pytest
import shapely

from rules.engine.army.names import model_label
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import apply, legal_actions, new_game
from tests.engine_world import (
    BUNDLE,
    SEED,
    army,
    assert_anywhere_more_than,
    decide,
    default_armies,
    deployed_game,
    end_phase,
    entry,
    formation,
    place_unit,
    play,
    setup,
)
from tests.stratagem_world import LED_SQUAD, choose, pass_windows, stratagem_game, to_phase, use

SQUAD = "p1-u2"


def with_ability(slug, new_slug, name, parameter=None):
    """A fixture datasheet given one more core ability (the seeds' Scouts/Infiltrators units
    are not in the small engine bundle)."""
    sheet = copy.deepcopy(next(d for d in BUNDLE["datasheets"] if d["slug"] == slug))
    sheet["slug"] = new_slug
    sheet["abilities"] = [
        *sheet["abilities"],
        {"name": name, "kind": "core", "parameter": parameter},
    ]
    return sheet


@pytest.fixture
def extra_datasheets(monkeypatch):
    sheets = [
        with_ability("cadian-shock-troops", "cadian-infiltrators", "Infiltrators"),
        with_ability("strike-squad", "scouting-squad", "Scouts", '6"'),
        with_ability("cadian-shock-troops", "scouting-cadians", "Scouts", '6"'),
    ]
    monkeypatch.setitem(BUNDLE, "datasheets", BUNDLE["datasheets"] + sheets)


def refused(state, action):
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    return refusal.value


# --- deployment (11e 03.02; 10e Deploy Armies) and Infiltrators (24.20) -------------------


def infiltration(edition):
    armies = {
        "1": army(entry("ss", "strike-squad", 5, warlord=True)),
        "2": army(entry("inf", "cadian-infiltrators", 10, warlord=True)),
    }
    state, _ = new_game(setup(edition, armies), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    assert state["awaiting"] == 2  # the mission's first to deploy
    return state


def deploy(state, player, unit_id, x, y):
    unit = state["units"][unit_id]
    return {"type": "deploy", "player": player, "unit": unit_id, "positions": formation(unit, x, y)}


@pytest.mark.parametrize(("edition", "rule"), [("11e", "03.02"), ("10e", "Deploy Armies")])
def test_deployment_is_wholly_within_the_deployment_zone(edition, rule):
    state, _ = new_game(setup(edition), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    # Player 2's zone starts at y 32; a 25 mm base centred 0.3" inside it is not wholly within.
    refusal = refused(state, deploy(state, 2, "p2-u1", 20.0, 32.3))
    assert (refusal.code, refusal.rule) == ("outside_deployment_zone", rule)
    # Refusals name the model as players see it (rules.engine.names), never by its id.
    label = model_label(state, "p2-u1-m1")
    assert refusal.message == f"{label} is not wholly within the deployment zone"
    assert "p2-u1" not in refusal.message
    state, events = play(state, deploy(state, 2, "p2-u1", 20.0, 32.5))
    assert events[-1]["type"] == "unit_deployed"


def test_a_10e_deployment_on_an_objective_marker_names_the_model_and_the_marker():
    """10e Objective Markers: "they cannot end a move on top of an objective marker" [004
    L567-574], set-ups included (rulings R-BF-05); 11e allows it. The refusal says which model
    stands on which marker, as a move's does."""
    for edition in ("10e", "11e"):
        state, _ = new_game(setup(edition), SEED)
        state, _ = play(
            state,
            {"type": "declare_reserves", "player": 1, "units": []},
            {"type": "declare_reserves", "player": 2, "units": []},
        )
        on_o5 = deploy(state, 2, "p2-u1", 30.0, 38.0)  # marker o5 stands at (30, 38)
        if edition == "11e":
            state, events = play(state, on_o5)
            assert events[-1]["type"] == "unit_deployed"
            continue
        refusal = refused(state, on_o5)
        assert (refusal.code, refusal.rule) == ("ends_on_objective_marker", "Deploy Armies")
        labels = [model_label(state, m["id"]) for m in state["units"]["p2-u1"]["models"]]
        said = [f"{label} would be on objective marker o5" for label in labels]
        assert refusal.message in said, refusal.message


@pytest.mark.usefixtures("extra_datasheets")
@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_infiltrators_set_up_anywhere_far_enough_from_the_opponents_zone(edition):
    """24.20 / 10e Infiltrators: more than 8" (10e 9") from the opponent's deployment zone and
    every enemy unit. Player 1's zone ends at y 12."""
    state = infiltration(edition)
    refusal = refused(state, deploy(state, 2, "p2-u1", 20.0, 20.0))  # 7.5" from the zone
    assert refusal.code == "too_close_to_deployment_zone"
    state, events = play(state, deploy(state, 2, "p2-u1", 20.0, 22.5))
    assert events[-1]["type"] == "unit_deployed"


@pytest.mark.usefixtures("extra_datasheets")
def test_units_without_infiltrators_deploy_in_their_zone():
    state = infiltration("11e")
    state, _ = play(state, deploy(state, 2, "p2-u1", 20.0, 22.5))
    refusal = refused(state, deploy(state, 1, "p1-u1", 20.0, 14.0))
    assert refusal.code == "outside_deployment_zone"


# --- scout moves (24.32; 10e Scouts) --------------------------------------------------------


def scouting_game(edition, first, both=False):
    armies = {
        "1": army(entry("sc", "scouting-squad", 5, warlord=True), entry("ss", "strike-squad", 5)),
        "2": army(
            entry("cad", "scouting-cadians" if both else "cadian-shock-troops", 10, warlord=True)
        ),
    }
    state, events = deployed_game(edition, armies, first=first)
    return state, events


@pytest.mark.usefixtures("extra_datasheets")
def test_scout_moves_come_before_the_first_battle_round_first_player_first():
    state, events = scouting_game("11e", first=2, both=True)
    assert state["stage"] == "scouts" and state["battle_round"] == 0
    assert state["awaiting"] == 2
    assert [a["type"] for a in legal_actions(state, 2)] == ["scout", "end_scouts"]
    state, _ = play(state, {"type": "end_scouts", "player": 2})
    assert state["awaiting"] == 1
    template = legal_actions(state, 1)[0]
    assert (template["type"], template["unit"], template["max_distance"]) == ("scout", "p1-u1", 6)
    state, _ = play(state, {"type": "end_scouts", "player": 1})
    assert state["stage"] == "battle" and state["battle_round"] == 1


@pytest.mark.usefixtures("extra_datasheets")
@pytest.mark.parametrize(("edition", "rule"), [("11e", "24.32"), ("10e", "Scouts")])
def test_a_scout_move_is_up_to_x_and_ends_far_from_the_enemy(edition, rule):
    state, _ = scouting_game(edition, first=1)
    assert state["awaiting"] == 1
    unit = state["units"]["p1-u1"]
    ahead = {m["id"]: [m["x"], m["y"] + 6.5, 0.0] for m in alive_models(unit)}
    refusal = refused(state, {"type": "scout", "player": 1, "unit": "p1-u1", "positions": ahead})
    assert (refusal.code, refusal.rule) == ("move_too_far", rule)
    ahead = {m["id"]: [m["x"], m["y"] + 6.0, 0.0] for m in alive_models(unit)}
    state, events = play(state, {"type": "scout", "player": 1, "unit": "p1-u1", "positions": ahead})
    assert events[1]["type"] == "unit_moved"
    # The only scout unit has moved: the battle starts.
    assert state["stage"] == "battle" and state["battle_round"] == 1


@pytest.mark.usefixtures("extra_datasheets")
def test_a_scout_move_cannot_end_within_8_inches_of_the_enemy():
    state, _ = scouting_game("11e", first=1)
    place_unit(state, "p2-u1", 2.0, 15.0)
    unit = state["units"]["p1-u1"]
    ahead = {m["id"]: [m["x"], m["y"] + 6.0, 0.0] for m in alive_models(unit)}
    refusal = refused(state, {"type": "scout", "player": 1, "unit": "p1-u1", "positions": ahead})
    assert (refusal.code, refusal.rule) == ("too_close_to_enemy", "24.32")


def test_units_without_scouts_go_straight_to_the_first_battle_round():
    state, _ = deployed_game("11e")
    assert state["stage"] == "battle" and state["battle_round"] == 1


# --- arriving from reserves (20.03-20.04; 10e Strategic Reserves, Deep Strike) -------------


def round_two_movement(edition, reserves):
    state, _ = deployed_game(edition, reserves={1: reserves})
    while not (state["battle_round"] == 2 and state["phase"] == "movement"):
        state, _ = end_phase(state)
    assert state["active_player"] == 1
    return state


def arrive(state, unit_id, x, y, method=None):
    action = {
        "type": "arrive",
        "player": 1,
        "unit": unit_id,
        "positions": formation(state["units"][unit_id], x, y),
    }
    if method:
        action["method"] = method
    return action


def test_an_arrival_template_lists_the_ways_to_arrive():
    """Strike Squads have Deep Strike: they may arrive by an ingress move or by Deep Strike."""
    state = round_two_movement("11e", [SQUAD])
    template = next(a for a in legal_actions(state, 1) if a["type"] == "arrive")
    assert template["methods"] == ["ingress", "deep_strike"]


def test_an_arrival_template_carries_the_areas_the_table_draws():
    """11e 20.04: the ingress band is within 6" of an edge and leaves out the opponent's zone
    before battle round 3; Deep Strike may use the whole table; both keep more than 8" from
    enemy models (the keep-out area grows from each enemy base)."""
    state = round_two_movement("11e", [SQUAD])
    template = next(a for a in legal_actions(state, 1) if a["type"] == "arrive")
    ingress, deep = template["areas"]["ingress"], template["areas"]["deep_strike"]
    assert ingress["enemy_distance"] == deep["enemy_distance"] == 8
    band = shapely.union_all([shapely.Polygon(rings[0], rings[1:]) for rings in ingress["allowed"]])
    assert band.contains(shapely.Point(3, 20)) and not band.contains(shapely.Point(30, 20))
    assert not band.contains(shapely.Point(30, 42))  # player 2's zone, battle round 2
    assert shapely.Polygon(deep["allowed"][0][0]).contains(shapely.Point(30, 20))
    keep_out = shapely.union_all(
        [shapely.Polygon(rings[0], rings[1:]) for rings in deep["keep_out"]]
    )
    enemy = next(
        m
        for u in state["units"].values()
        if u["player"] == 2 and u["location"] == "battlefield"
        for m in u["models"]
        if m["wounds_left"]
    )
    assert keep_out.contains(shapely.Point(enemy["x"], enemy["y"]))
    assert not keep_out.contains(shapely.Point(3, 3))  # player 1's corner, far from them


def teleport_assault_arrival():
    """Grey Knights (seed 004 L139): SQUAD removed by Teleport Assault at the end of player 2's
    turn, in player 1's Movement phase of battle round 2 (11e, whose Deep Strike is 8")."""
    armies = default_armies()
    armies["1"]["faction"] = "grey-knights"
    state = stratagem_game("11e", armies=armies)
    state = to_phase(state, 2, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state = pass_windows(state)
    assert state["pending"][-1]["kind"] == "teleport_assault"
    state, _ = decide(state, SQUAD)
    return to_phase(state, 1, "movement")


def rapid_tactical_relocation_arrival():
    """Imperial Agents, Ordo Xenos Alien Hunters (seed 000 L460-470): LED_SQUAD removed at the
    end of player 2's Fight phase, in player 1's next Movement phase."""
    state = stratagem_game("10e", {1: "ordo-xenos-alien-hunters"})
    state = to_phase(state, 2, "fight")
    state["players"]["1"]["cp"] = 3
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state, _ = choose(state, "rapid-tactical-relocation", LED_SQUAD)
    return to_phase(state, 1, "movement")


@pytest.mark.parametrize(
    ("arrival", "unit", "method", "distance"),
    [
        (teleport_assault_arrival, SQUAD, "teleport_assault", 9),
        (rapid_tactical_relocation_arrival, LED_SQUAD, "rapid_tactical_relocation", 8),
    ],
    ids=["teleport-assault", "rapid-tactical-relocation"],
)
def test_a_unit_removed_to_arrive_later_is_drawn_anywhere_more_than_its_rules_distance(
    arrival, unit, method, distance
):
    """Teleport Assault: "anywhere on the battlefield that is more than 9" horizontally away
    from all enemy models" (seed 004 L139); Rapid Tactical Relocation: more than 8" (seed 000
    L460-470). The whole battlefield, less the area within that distance of each enemy model."""
    state = arrival()
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "arrive" and a["unit"] == unit
    )
    assert template["methods"] == [method] and list(template["areas"]) == [method]
    assert_anywhere_more_than(state, 1, template["areas"][method], distance)


def reinforcements_step(detachment):
    """Player 1's Movement phase in battle round 2 (10e), SQUAD (PSYKER, INFANTRY, Deep Strike)
    in strategic reserves, 3CP."""
    state = stratagem_game("10e", {1: detachment}, reserves={1: [SQUAD]})
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "movement")
    state["players"]["1"]["cp"] = 3
    return state


def test_a_stratagem_arrival_decision_carries_the_areas_it_may_be_set_up_in():
    """Prognisticated Arrival (seed 004 L415-425): "anywhere on the battlefield that is more
    than 6" horizontally away from all enemy models". The decision's template carries the areas,
    measured when offered; the decision kept in the state does not."""
    state, _ = use(reinforcements_step("teleport-strike-force"), 1, "prognisticated-arrival", SQUAD)
    top = state["pending"][-1]
    assert top["kind"] == "stratagem_arrival" and "areas" not in top["options"]
    template = next(a for a in legal_actions(state, 1) if a["choice"] == "positions")
    assert template["decision"] == top["id"] and template["method"] == "prognisticated_arrival"
    assert list(template["areas"]) == ["prognisticated_arrival"]
    assert_anywhere_more_than(state, 1, template["areas"]["prognisticated_arrival"], 6)


def test_hallowed_beacon_is_drawn_within_hallowed_ground():
    """Hallowed Beacon (seed 004 L550-558): "wholly within your army's Hallowed Ground and more
    than 6" horizontally away from all enemy units"; with no PURIFIER SQUAD and no markers held,
    Hallowed Ground is the player's deployment zone."""
    state, _ = use(reinforcements_step("warpbane-task-force"), 1, "hallowed-beacon", SQUAD)
    template = next(a for a in legal_actions(state, 1) if a["choice"] == "positions")
    zone = shapely.Polygon(state["mission"]["deployment_zones"]["1"])
    assert_anywhere_more_than(state, 1, template["areas"]["hallowed_beacon"], 6, allowed=zone)


@pytest.mark.parametrize(("edition", "distance"), [("11e", 8), ("10e", 9)])
def test_deep_strike_sets_up_more_than_9_or_8_inches_from_enemy_models(edition, distance):
    """10e Deep Strike: more than 9"; 11e: more than 8" (ruling R-BF-11). Player 2's units stand
    from y 36; the squad's 32 mm bases put its row's edge 0.63" beyond its centres."""
    state = round_two_movement(edition, [SQUAD])
    close = 36.0 - 0.49 - 0.63 - distance + 0.5
    refusal = refused(state, arrive(state, SQUAD, 4.0, close, "deep_strike"))
    assert refusal.code == "too_close_to_enemy"
    state, events = play(state, arrive(state, SQUAD, 30.0, 20.0, "deep_strike"))
    assert events[-1]["type"] == "unit_arrived" and events[-1]["method"] == "deep_strike"


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_an_ingress_move_is_wholly_within_6_inches_of_an_edge(edition):
    state = round_two_movement(edition, [SQUAD])
    assert refused(state, arrive(state, SQUAD, 30.0, 20.0)).code == "not_near_edge"
    state, _ = play(state, arrive(state, SQUAD, 30.0, 1.0))
    assert state["units"][SQUAD]["location"] == "battlefield"


def test_no_ingress_into_the_opponents_zone_before_the_third_battle_round():
    """20.04 / 10e Strategic Reserves: not in the opponent's deployment zone before round 3."""
    state = round_two_movement("11e", [SQUAD])
    refusal = refused(state, arrive(state, SQUAD, 40.0, 42.0))
    assert (refusal.code, refusal.rule) == ("in_opponent_zone", "20.04")


@pytest.mark.parametrize(
    ("edition", "ingress"), [("11e", "ingress move"), ("10e", "Strategic Reserves")]
)
def test_a_unit_without_deep_strike_cannot_deep_strike(edition, ingress):
    """24.09 / 10e Deep Strike: the refusal names the ways the unit has, as the rules name them."""
    state = round_two_movement(edition, ["p1-u1"])  # the Inquisitor's unit: he has no Deep Strike
    refusal = refused(state, arrive(state, "p1-u1", 30.0, 20.0, "deep_strike"))
    assert refusal.code == "invalid_arrival"
    assert refusal.message.endswith(f"can arrive by: {ingress}."), refusal.message


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_reserves_that_have_not_arrived_by_the_end_of_round_3_are_destroyed(edition):
    """11e 20.04 / 10e Strategic Reserves."""
    state, _ = deployed_game(edition, reserves={1: [SQUAD]})
    destroyed = []
    while state["battle_round"] < 4:
        assert state["units"][SQUAD]["location"] == "strategic_reserves"
        state, events = end_phase(state)
        destroyed += [e for e in events if e["type"] == "unit_destroyed"]
    assert state["units"][SQUAD]["location"] == "destroyed"
    assert [(e["unit"], e["source"]) for e in destroyed] == [
        (SQUAD, "strategic reserves not arrived")
    ]


# --- regaining coherency (03.03; 10e Unit Coherency) -----------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_out_of_coherency_at_the_end_of_a_turn_loses_models_until_coherent(edition):
    state, _ = deployed_game(edition)
    straggler = state["units"][SQUAD]["models"][4]
    straggler["x"], straggler["y"] = 40.0, 20.0
    events = []
    while state["active_player"] == 1:
        state, produced = end_phase(state)
        events += produced
    lost = [e for e in events if e["type"] in ("coherency_lost", "model_destroyed")]
    assert [(e["type"], e["model"]) for e in lost] == [
        ("coherency_lost", straggler["id"]),
        ("model_destroyed", straggler["id"]),
    ]
    assert len(alive_models(state["units"][SQUAD])) == 4


@pytest.mark.usefixtures("extra_datasheets")
@pytest.mark.parametrize(("edition", "accepted"), [("11e", True), ("10e", False)])
def test_a_scout_move_ends_more_than_8_inches_11e_or_9_inches_10e_from_enemies(edition, accepted):
    """24.32 After Moving: more than 8" from all enemy units; 10e Scouts: more than 9"."""
    state, _ = scouting_game(edition, first=1)
    # After the move the squad's bases reach y 8.63; the Cadians' front edge is 8.5" beyond.
    place_unit(state, "p2-u1", 2.0, 8.0 + 0.63 + 8.5 + 0.49)
    unit = state["units"]["p1-u1"]
    ahead = {m["id"]: [m["x"], m["y"] + 6.0, 0.0] for m in alive_models(unit)}
    action = {"type": "scout", "player": 1, "unit": "p1-u1", "positions": ahead}
    if accepted:
        state, _ = play(state, action)
        assert state["stage"] == "battle"
    else:
        assert refused(state, action).code == "too_close_to_enemy"
