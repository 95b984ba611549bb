"""Shooting out of turn and the windows of enemy moves and set-ups, one scenario each.

11e 15.08 Fire Overwatch and 15.09 snap shooting (seeds 000, 003); 10e Fire Overwatch (seed 004
L321-331); Exact Punishment (seed 000 L607-615); Fires of Covenant (seed 004 L503-511); Death
Riders' Screening Line (published datasheet). The timing points are `rules.engine.reactions`.
"""

import copy
import json

import pytest

from rules.engine.core.reactions import REACTIONS, ReactionPoint, reacts_to
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import legal_actions
from tests.engine_world import (
    BUNDLE,
    ROOT,
    army,
    decide,
    entry,
    formation,
    place_unit,
    play,
    script_dice,
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
    window,
)


def top(state):
    return state["pending"][-1] if state["pending"] else None


def hit_trays(events):
    return [
        e["tray"] for e in events if e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll"
    ]


def move_action(state, unit_id, dx, dy):
    unit = state["units"][unit_id]
    positions = {m["id"]: [m["x"] + dx, m["y"] + dy, m["facing"]] for m in alive_models(unit)}
    return {"type": "move", "player": unit["player"], "unit": unit_id, "positions": positions}


def overwatch_11e_game():
    """Player 2's turn; player 1's SQUAD 13" from the CADIANS, LED_SQUAD far from every enemy."""
    state = stratagem_game("11e", first=2)
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, LED_SQUAD, 50.0, 2.0)
    place_unit(state, CADIANS, 20.0, 35.0)
    place_unit(state, CADIANS_2, 60.0, 40.0)
    state = to_phase(state, 2, "movement")
    state["players"]["1"]["cp"] = 2
    return state


# --- Fire Overwatch (11e) -------------------------------------------------------------------


def test_fire_overwatch_11e_snap_shoots_at_the_end_of_the_opponent_movement_phase():
    """15.08/15.09: one visible eligible enemy unit within 24"; only unmodified 6s hit."""
    state = overwatch_11e_game()
    state, _ = play(state, {"type": "end_phase", "player": 2})
    assert window(state)["resume"]["triggers"] == ["phase_end"]
    assert offered(state) == {("fire-overwatch-11e", SQUAD)}  # LED_SQUAD: nothing within 24"
    state, _ = choose(state, "fire-overwatch-11e", SQUAD)
    decision = top(state)
    assert decision["kind"] == "shoot_out_of_turn" and decision["player"] == 1
    assert decision["options"]["single_target"] is True
    assert [o["targets"] for o in decision["options"]["weapons"]] == [[CADIANS]]
    assert state["players"]["1"]["cp"] == 1
    state, events = decide(state, {"assignments": [{"weapon": "Storm bolter", "target": CADIANS}]})
    (tray,) = hit_trays(events)
    sixes = tray["dice"].count(6)
    assert tray["target"] == 6 and tray["successes"] == sixes  # BS 3+ ignored
    assert "hit rolls cannot be re-rolled" in [m["applied"] for m in tray["modifiers"]]
    hit_roll = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hit_roll")
    assert hit_roll["player"] == 1 and hit_roll["values"] == tray["dice"]  # every die an event
    assert state["phase"] == "shooting" and state["active_player"] == 2


def test_fire_overwatch_11e_cannot_re_roll_hits_and_refuses_a_second_target_and_no_cp():
    state = overwatch_11e_game()
    # A re-roll a rule grants (Accuracy under Pressure's shape) is cancelled by snap shooting.
    state["effects"].append(
        {
            "id": "e-test",
            "source": "test re-roll",
            "selector": {"unit": SQUAD},
            "modifier": {
                "attack": {"step": "hit", "kind": "reroll", "value": "any", "condition": {}},
                "as": "attacker",
                "against": None,
            },
            "duration": "end_of_battle",
            "started_at": {"battle_round": 1, "active_player": 2, "phase": "movement", "player": 1},
        }
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state, _ = choose(state, "fire-overwatch-11e", SQUAD)
    with pytest.raises(Refusal) as refused:
        decide(state, {"assignments": [{"weapon": "Storm bolter", "target": CADIANS_2}]})
    assert refused.value.code in ("out_of_range", "target_not_allowed")
    state, events = decide(state, {"assignments": [{"weapon": "Storm bolter", "target": CADIANS}]})
    (tray,) = hit_trays(events)
    assert tray["rerolled"] == []
    # Without CP the window does not open at all.
    poor = overwatch_11e_game()
    poor["players"]["1"]["cp"] = 0
    poor, _ = play(poor, {"type": "end_phase", "player": 2})
    assert window(poor) is None


def test_fire_overwatch_11e_refuses_an_engaged_unit_and_holds_fire_on_null():
    state = overwatch_11e_game()
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state, _ = choose(state, "fire-overwatch-11e", SQUAD)
    state, events = decide(state, None)
    assert "shooting_out_of_turn_declined" in [e["type"] for e in events]
    engaged = overwatch_11e_game()
    place_unit(engaged, CADIANS, 20.0, 23.0)  # 1.4" from SQUAD's second row: engaged
    engaged, _ = play(engaged, {"type": "end_phase", "player": 2})
    assert ("fire-overwatch-11e", SQUAD) not in offered(engaged)


# --- Fire Overwatch (10e) and the move windows ----------------------------------------------


def overwatch_10e_game():
    state = stratagem_game("10e", first=2)
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, LED_SQUAD, 45.0, 2.0)
    place_unit(state, CADIANS, 20.0, 40.0)  # 30" away
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "movement")
    state["players"]["1"]["cp"] = 3
    return state


def test_fire_overwatch_10e_shoots_the_unit_that_ended_its_move_within_24_inches():
    """Just after an enemy unit ends a Normal move within 24": only that unit, 6s to hit."""
    state = overwatch_10e_game()
    state, events = play(state, move_action(state, CADIANS, 0.0, -6.0))
    # The start of the move (30" away) opened nothing; its end (24" away) the window.
    assert [e["type"] for e in events].count("decision_pending") == 1
    assert window(state)["resume"]["triggers"] == ["enemy_move_started_or_ended"]
    assert window(state)["resume"]["about"] == {
        "unit": CADIANS,
        "moment": "move_ended",
        "move": "normal",
    }
    assert offered(state) == {("fire-overwatch-10e", SQUAD)}
    state, _ = choose(state, "fire-overwatch-10e", SQUAD)
    assert [o["targets"] for o in top(state)["options"]["weapons"]] == [[CADIANS]]
    state, events = decide(state, {"assignments": [{"weapon": "Storm bolter", "target": CADIANS}]})
    (tray,) = hit_trays(events)
    assert tray["target"] == 6 and tray["successes"] == tray["dice"].count(6)
    # Once per turn: the next move opens no window.
    state, events = play(state, move_action(state, CADIANS_2, 0.0, -5.0))
    assert window(state) is None


def test_fire_overwatch_10e_at_the_start_of_a_move_shoots_before_the_unit_moves():
    state = overwatch_10e_game()
    place_unit(state, CADIANS, 20.0, 30.0)  # within 24" before it moves
    action = move_action(state, CADIANS, 0.0, 3.0)
    state, events = play(state, action)
    assert "unit_moved" not in [e["type"] for e in events]  # the move waits for the window
    assert window(state)["resume"]["about"]["moment"] == "move_started"
    state, _ = choose(state, "fire-overwatch-10e", SQUAD)
    state, events = decide(state, {"assignments": [{"weapon": "Storm bolter", "target": CADIANS}]})
    assert "unit_moved" in [e["type"] for e in events]
    survivors = alive_models(state["units"][CADIANS])
    assert all(m["y"] >= 33.0 - 1e-9 for m in survivors)  # the declared move, by the survivors


def test_fire_overwatch_10e_when_a_charge_is_declared_and_refusals():
    state = overwatch_10e_game()
    place_unit(state, CADIANS, 20.0, 20.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 1
    state, _ = play(
        state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [SQUAD]}
    )
    assert ("fire-overwatch-10e", SQUAD) in offered(state)
    # TITANIC units are never offered; a unit beyond 24" neither.
    assert ("fire-overwatch-10e", LED_SQUAD) not in offered(state)
    state["units"][SQUAD]["keywords"] = [*state["units"][SQUAD]["keywords"], "TITANIC"]
    from rules.engine.stratagems.effects import Use
    from rules.engine.stratagems.use import refusal_for

    use = Use("fire-overwatch-10e", 1, SQUAD, window(state)["options"][0]["window"])
    assert refusal_for(state, use).code == "invalid_stratagem_target"


def test_fire_overwatch_10e_is_offered_to_the_opponent_of_the_moving_unit_only():
    """In player 1's turn its own move offers player 1 nothing; player 2 may overwatch it."""
    state = overwatch_10e_game()
    state = to_phase(state, 1, "movement")
    state["players"]["1"]["cp"] = 3
    state["players"]["2"]["cp"] = 1
    place_unit(state, CADIANS, 20.0, 30.0)
    state, _ = play(state, move_action(state, SQUAD, 0.0, 3.0))
    assert window(state)["player"] == 2
    assert {target for _, target in offered(state)} <= {CADIANS, CADIANS_2}
    state["players"]["2"]["cp"] = 0
    state, _ = decide(state, "pass")
    state, _ = play(state, move_action(state, LED_SQUAD, 0.0, 1.0))
    assert window(state) is None  # no CP: nothing usable, nobody asked


def test_fire_overwatch_10e_just_after_an_enemy_unit_is_set_up():
    """An arrival from strategic reserves opens `enemy_unit_set_up` for the other player."""
    state = stratagem_game("10e", first=2, reserves={2: [CADIANS_2]})
    place_unit(state, SQUAD, 10.0, 20.0)
    place_unit(state, LED_SQUAD, 45.0, 2.0)
    place_unit(state, CADIANS, 20.0, 40.0)
    state = to_phase(state, 1, "fight")
    state = to_phase(state, 2, "movement")  # battle round 2: reserves may arrive
    state["players"]["1"]["cp"] = 1
    positions = formation(state["units"][CADIANS_2], 10.0, 41.2)  # along the far edge
    state, _ = play(
        state, {"type": "arrive", "player": 2, "unit": CADIANS_2, "positions": positions}
    )
    assert window(state)["resume"]["triggers"] == ["enemy_unit_set_up"]
    assert window(state)["resume"]["about"] == {
        "unit": CADIANS_2,
        "moment": "set_up",
        "move": "ingress",
    }
    assert offered(state) == {("fire-overwatch-10e", SQUAD)}  # LED_SQUAD: beyond 24"
    state, _ = choose(state, "fire-overwatch-10e", SQUAD)
    assert top(state)["kind"] == "shoot_out_of_turn"


# --- the hook -------------------------------------------------------------------------------


def test_a_reaction_subscribed_to_move_ends_sees_the_unit_where_it_ended():
    """`reactions.reacts_to`: a rule subscribed to `move_ended` hears every Normal move's end."""
    heard = []

    @reacts_to("test-listener", "move_ended", "move_started")
    def listener(ctx, point: ReactionPoint, then):
        heard.append((point.moment, point.move, point.unit, sorted(point.positions.values())[0]))
        from rules.engine.core.sequencing import resume

        resume(ctx, then)

    try:
        state = overwatch_10e_game()
        state["players"]["1"]["cp"] = 0
        state, _ = play(state, move_action(state, CADIANS_2, 0.0, -2.0))
    finally:
        del REACTIONS["test-listener"]
    assert [h[:3] for h in heard] == [
        ("move_started", "normal", CADIANS_2),
        ("move_ended", "normal", CADIANS_2),
    ]
    assert heard[1][3][1] == pytest.approx(heard[0][3][1] - 2.0)
    with pytest.raises(ValueError):
        reacts_to("bad", "moved_somewhere")


# --- Exact Punishment ---------------------------------------------------------------------


def agents_datasheets():
    """The Inquisitor and an ORDO HERETICUS copy of it (the fixture has no such datasheet)."""
    inquisitor = next(s for s in BUNDLE["datasheets"] if s["slug"] == "inquisitor")
    heretic = copy.deepcopy(inquisitor)
    heretic.update(slug="ordo-inquisitor", name="Ordo Inquisitor")
    heretic["keywords"] = [*heretic["keywords"], "ORDO HERETICUS"]
    heretic["leads"] = []
    return [*BUNDLE["datasheets"], heretic]


def exact_punishment_game(near: bool = True):
    armies = {
        "1": army(
            entry("inq", "inquisitor", 1, warlord=True),
            entry("ordo", "ordo-inquisitor", 1),
        ),
        "2": army(entry("cad1", "cadian-shock-troops", 10, warlord=True)),
    }
    state = stratagem_game(
        "11e",
        {1: "ordo-hereticus-purgation-force"},
        first=2,
        armies=armies,
        datasheets=agents_datasheets(),
    )
    inquisitor, ordo, cadians = "p1-u1", "p1-u2", "p2-u1"
    place_unit(state, inquisitor, 20.0, 20.0)
    place_unit(state, ordo, 24.0 if near else 40.0, 20.0)
    place_unit(state, cadians, 20.0, 30.0)
    state = to_phase(state, 2, "shooting")
    state["players"]["1"]["cp"] = 2
    state["units"][inquisitor]["models"][0]["wounds_left"] = 1
    return state, inquisitor, ordo, cadians


def pass_windows_of(state, triggers):
    while window(state) and set(triggers) & set(window(state)["resume"]["triggers"]):
        state, _ = decide(state, "pass")
    return state


def test_exact_punishment_shoots_back_at_the_unit_that_destroyed_an_agents_unit():
    state, inquisitor, ordo, cadians = exact_punishment_game()
    weapons = {
        w["weapon"] for a in legal_actions(state, 2) if a["type"] == "shoot" for w in a["weapons"]
    }
    weapon = "Lasgun" if "Lasgun" in weapons else sorted(weapons)[0]
    script_dice(state, [6, 6, 6])
    state, _ = play(
        state,
        {
            "type": "shoot",
            "player": 2,
            "unit": cadians,
            "assignments": [{"weapon": weapon, "target": inquisitor}],
        },
    )
    while top(state) and top(state)["kind"] == "allocation_order":
        state, _ = decide(state, top(state)["options"][0])
    assert not alive_models(state["units"][inquisitor]), "the scripted dice destroy the Inquisitor"
    assert window(state)["resume"]["triggers"] == ["unit_destroyed"]
    assert offered(state) == {("exact-punishment", ordo)}
    state, _ = choose(state, "exact-punishment", ordo)
    decision = top(state)
    assert decision["kind"] == "shoot_out_of_turn"
    assert {t for o in decision["options"]["weapons"] for t in o["targets"]} == {cadians}
    state, events = decide(state, {"assignments": [{"weapon": "Bolt pistol", "target": cadians}]})
    assert [e for e in events if e["type"] == "attack_step" and e["unit"] == ordo]
    assert state["phase"] == "shooting" and state["active_player"] == 2


def test_exact_punishment_refuses_a_unit_beyond_6_inches_of_the_destroyed_unit():
    state, inquisitor, ordo, cadians = exact_punishment_game(near=False)
    script_dice(state, [6, 6, 6])
    state, _ = play(
        state,
        {
            "type": "shoot",
            "player": 2,
            "unit": cadians,
            "assignments": [{"weapon": "Lasgun", "target": inquisitor}],
        },
    )
    while top(state) and top(state)["kind"] == "allocation_order":
        state, _ = decide(state, top(state)["options"][0])
    assert not alive_models(state["units"][inquisitor])
    assert window(state) is None  # nothing usable: the window is skipped
    from rules.engine.stratagems.effects import Use
    from rules.engine.stratagems.use import refusal_for

    fallen = [m["id"] for m in state["units"][inquisitor]["models"]]
    missed = {"trigger": "unit_destroyed", "phase": "shooting", "unit": inquisitor}
    missed |= {"attacker": cadians, "fallen": fallen}
    refusal = refusal_for(state, Use("exact-punishment", 1, ordo, missed))
    assert refusal.code == "invalid_stratagem_target"


# --- Fires of Covenant ---------------------------------------------------------------------


def fires_game():
    state = stratagem_game("10e", {1: "warpbane-task-force"}, first=2)
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, LED_SQUAD, 45.0, 2.0)
    place_unit(state, CADIANS, 20.0, 22.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "command")
    state["players"]["1"]["cp"] = 1
    return state


def to_movement(state):
    """End player 2's Command phase: the Movement phase starts with player 1's window."""
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return state


def test_fires_of_covenant_inflicts_mortal_wounds_on_a_unit_ending_a_move_within_6_inches():
    state = to_movement(fires_game())
    assert state["phase"] == "movement"
    assert ("fires-of-covenant", SQUAD) in offered(state)
    state, _ = choose(state, "fires-of-covenant", SQUAD)
    state = pass_windows(state)
    before = len(alive_models(state["units"][CADIANS]))
    script_dice(state, [5])
    state, events = play(state, move_action(state, CADIANS, 0.0, -6.0))
    while top(state) and top(state)["kind"] == "allocate_mortal_wound":
        state, more = decide(state, top(state)["options"][0])
        events += more
    rolls = [e for e in events if e["type"] == "dice_rolled"]
    assert rolls[0]["purpose"] == "fires_of_covenant" and rolls[0]["values"] == [5]
    assert rolls[1]["purpose"] == "mortal_wounds" and rolls[1]["sides"] == 3
    assert len(alive_models(state["units"][CADIANS])) == before - rolls[1]["values"][0]
    # A move ending beyond 6" rolls nothing.
    state = pass_windows(state)
    state, events = play(state, move_action(state, CADIANS_2, 0.0, -2.0))
    assert "fires_of_covenant" not in [e.get("purpose") for e in events]


def test_fires_of_covenant_refuses_a_unit_without_infantry_and_without_cp():
    state = fires_game()
    state["players"]["1"]["cp"] = 0
    state = to_movement(state)
    assert state["phase"] == "movement" and window(state) is None
    from rules.engine.stratagems.effects import IMPLEMENTATIONS

    state["units"][SQUAD]["keywords"] = ["VEHICLE"]
    for part in state["units"][SQUAD]["parts"]:
        state["datasheets"][part["datasheet"]] = {
            **state["datasheets"][part["datasheet"]],
            "keywords": ["VEHICLE"],
        }
    assert SQUAD not in IMPLEMENTATIONS["fires-of-covenant"].targets(
        state, 1, {"phase": "movement"}
    )


# --- Screening Line (Death Riders) ------------------------------------------------------------


def death_riders_datasheets():
    published = json.loads(
        (ROOT / "rules" / "data" / "factions" / "astra-militarum" / "published.json").read_text(
            "utf-8"
        )
    )
    riders = copy.deepcopy(next(s for s in published["datasheets"] if s["slug"] == "death-riders"))
    # The test formations stand models 1.6" apart: round 32mm bases instead of 60mm ovals.
    for model in riders["models"]:
        model["base"] = {"shape": "round", "diameter_mm": 32}
    return [*BUNDLE["datasheets"], riders]


def screening_game():
    armies = {
        "1": army(entry("ss1", "strike-squad", 5, warlord=True)),
        "2": army(entry("dr", "death-riders", 5, warlord=True)),
    }
    state = stratagem_game("10e", first=1, armies=armies, datasheets=death_riders_datasheets())
    place_unit(state, "p1-u1", 20.0, 10.0)
    place_unit(state, "p2-u1", 20.0, 22.0)
    state = to_phase(state, 1, "movement")
    state["players"]["2"]["cp"] = 0  # no Fire Overwatch window in the way
    return state


def test_screening_line_lets_the_death_riders_make_a_normal_move_of_6_inches():
    state = screening_game()
    state, _ = play(state, move_action(state, "p1-u1", 0.0, 5.0))  # ends 9.4" from the riders
    decision = top(state)
    assert decision["kind"] == "normal_move" and decision["player"] == 2
    assert decision["options"]["max_distance"] == 6.0
    riders = state["units"]["p2-u1"]
    too_far = {m["id"]: [m["x"] - 7.0, m["y"], m["facing"]] for m in alive_models(riders)}
    with pytest.raises(Refusal):
        decide(state, too_far)
    fine = {m["id"]: [m["x"] - 5.0, m["y"], m["facing"]] for m in alive_models(riders)}
    state, events = decide(state, fine)
    assert "unit_moved" in [e["type"] for e in events]
    # Once per turn.
    state["facts"]["phase"]["acted"] = [u for u in state["facts"]["phase"]["acted"] if u != "p1-u1"]
    state, _ = play(state, move_action(state, "p1-u1", 0.0, 2.0))
    assert top(state) is None or top(state)["kind"] != "normal_move"


def test_screening_line_is_not_offered_beyond_9_inches():
    state = screening_game()
    state, _ = play(state, move_action(state, "p1-u1", 0.0, 1.0))
    assert top(state) is None


# --- [PRECISION]: the attacker's choice -------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_precision_lets_the_attacker_choose_the_character_or_decline(edition):
    """11e 24.28 / 10e Precision: after the wound rolls the attacker chooses the CHARACTER model
    its [PRECISION] attacks go to, or none (`precision_target` decision, null declines)."""
    for choice in ("character", None):
        state = stratagem_game(edition, first=2)
        place_unit(state, LED_SQUAD, 20.0, 20.0)
        place_unit(state, SQUAD, 50.0, 2.0)
        place_unit(state, CADIANS, 20.0, 28.0)
        place_unit(state, CADIANS_2, 50.0, 40.0)
        state = to_phase(state, 2, "shooting")
        state["players"]["1"]["cp"] = 0
        troopers = state["units"][CADIANS]["models"]
        for model in troopers[:-1]:
            model["wounds_left"] = 0  # one Shock Trooper left: two lasgun shots at half range
        state["effects"].append(
            {
                "id": "e-precise",
                "source": "test precision",
                "selector": {"unit": CADIANS},
                "modifier": {
                    "attack": {"step": "ability", "kind": "grant", "value": "precision"},
                    "as": "attacker",
                    "against": None,
                },
                "duration": "end_of_battle",
                "started_at": {"battle_round": 1, "active_player": 2, "phase": "shooting"},
            }
        )
        script_dice(state, [6, 6, 6, 6])
        state, _ = play(
            state,
            {
                "type": "shoot",
                "player": 2,
                "unit": CADIANS,
                "assignments": [{"weapon": "Lasgun", "target": LED_SQUAD}],
            },
        )
        decision = top(state)
        inquisitor = next(m for m in state["units"][LED_SQUAD]["models"] if m["character"])
        assert decision["kind"] == "precision_target" and decision["player"] == 2
        assert decision["options"] == [inquisitor["id"], None]
        answer = inquisitor["id"] if choice else None
        script_dice(state, [1, 1])  # both saves fail
        state, events = decide(state, answer)
        while top(state) and top(state)["kind"] == "allocation_order":
            state, more = decide(state, top(state)["options"][0])
            events += more
        assert {"type": "precision_target_chosen", "model": answer}.items() <= next(
            e for e in events if e["type"] == "precision_target_chosen"
        ).items()
        hurt = {e["model"] for e in events if e["type"] in ("wounds_lost", "model_destroyed")}
        assert hurt
        if choice:
            assert hurt <= {inquisitor["id"]}
        else:
            assert inquisitor["id"] not in hurt


@pytest.mark.parametrize(("edition", "triggers"), [("10e", True), ("11e", False)])
def test_exact_punishment_when_only_the_attached_inquisitor_is_destroyed(edition, triggers):
    """Exact Punishment [000 L607-615]: "just after an AGENTS OF THE IMPERIUM unit from your army
    is destroyed". 10e Attached Units: when the Leader part of an attached unit is destroyed, it
    counts as a unit destroyed (seed 004 L218-219; rulings R-ENG-12); 11e 19.02: only the last
    model. The Cadians' attacks destroy the Inquisitor leading a Strike Squad, which stands."""
    from rules.engine.factions.imperial_agents.stratagems import _exact_punishment_targets
    from rules.engine.phases.shooting import _parts_destroyed

    armies = {
        "1": army(
            entry("ss1", "strike-squad", 5),
            entry("inq", "inquisitor", 1, attached_to="ss1", role="leader", warlord=True),
            entry("ordo", "ordo-inquisitor", 1),
        ),
        "2": army(entry("cad1", "cadian-shock-troops", 10, warlord=True)),
    }
    state = stratagem_game(
        edition,
        {1: "ordo-hereticus-purgation-force"},
        first=2,
        armies=armies,
        datasheets=agents_datasheets(),
    )
    led, ordo, cadians = "p1-u1", "p1-u2", "p2-u1"
    place_unit(state, led, 20.0, 20.0)
    place_unit(state, ordo, 24.0, 24.0)
    place_unit(state, cadians, 20.0, 34.0)
    standing = {led: [m["id"] for m in alive_models(state["units"][led])]}
    inquisitor = next(m for m in state["units"][led]["models"] if m["character"])
    inquisitor["wounds_left"] = 0  # the attacks destroyed the Leader part
    destroyed = _parts_destroyed(state, standing)
    assert bool(destroyed) is triggers
    if triggers:
        (part,) = destroyed
        window_ = {**part, "attacker": cadians, "trigger": "unit_destroyed"}
        assert _exact_punishment_targets(state, 1, window_) == [ordo]
