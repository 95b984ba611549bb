"""Stratagems of the Reinforcements step and of units removed to arrive later: Prognisticated
Arrival, Haloed in Soulfire (Grey Knights, Teleport Strike Force; seed 004 L394-425), Hallowed
Beacon (Warpbane Task Force; L550-558), Rapid Tactical Relocation (Imperial Agents, Ordo Xenos
Alien Hunters; seed 000 L460-470)."""

import pytest

from rules.engine.attacks.inputs import attack_context
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import copy_state
from rules.engine.factions.grey_knights import teleport_assault
from rules.engine.phases.movement import destroy_units_not_returned
from rules.engine.phases.shooting_targets import may_be_targeted
from rules.engine.sequence.game import apply, legal_actions
from rules.engine.stratagems.effects import Use
from rules.engine.stratagems.effects.leaders import leader_abilities
from rules.engine.stratagems.use import refusal_for
from rules.engine.stratagems.windows import offers
from tests.engine_world import army, decide, default_armies, entry, place_unit, play
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
    usable,
    use,
    window,
)


def row(state, unit_id, x, y):
    """The unit's models in one row from (x, y), 1.5" apart (coherent: 32mm bases)."""
    models = [m for m in state["units"][unit_id]["models"] if m["wounds_left"] > 0]
    return {m["id"]: [x + 1.5 * i, y, 0.0] for i, m in enumerate(models)}


def reserves_arrive(detachment, edition="10e"):
    """Player 1's Movement phase in battle round 2, SQUAD (PSYKER, Deep Strike) in reserves."""
    state = stratagem_game(edition, {1: detachment}, reserves={1: [SQUAD]})
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "movement")
    state["players"]["1"]["cp"] = 3
    return state


# Cadians stand at y 36 from x 2: a row at y 28.5 is about 6.4" away, at y 25 about 9.9".
NEAR_ENEMY_Y, CLEAR_Y = 28.5, 25.0


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_prognisticated_arrival_sets_a_psyker_up_more_than_6_inches_away(edition):
    state = reserves_arrive("teleport-strike-force", edition)
    assert ("prognisticated-arrival", SQUAD) in usable(state, 1)
    assert ("prognisticated-arrival", LED_SQUAD) not in usable(state, 1)  # not arriving
    state, _ = use(state, 1, "prognisticated-arrival", SQUAD)
    top = state["pending"][-1]
    assert top["kind"] == "stratagem_arrival" and top["options"]["method"] == (
        "prognisticated_arrival"
    )
    # Deep Strike alone would refuse this place (within 9"/8"); the stratagem allows it.
    state, events = decide(state, row(state, SQUAD, 2.0, NEAR_ENEMY_Y))
    arrived = next(e for e in events if e["type"] == "unit_arrived")
    assert arrived["method"] == "prognisticated_arrival"
    assert state["units"][SQUAD]["location"] == "battlefield"
    assert state["players"]["1"]["cp"] == 2
    # Restriction: not eligible to declare a charge in the same turn.
    state = to_phase(state, 1, "charge")
    with pytest.raises(Refusal) as refused:
        apply(state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": [CADIANS]})
    assert refused.value.code == "not_eligible_to_charge"


def test_prognisticated_arrival_refuses_a_place_within_6_inches_and_without_cp():
    state = reserves_arrive("teleport-strike-force")
    state, _ = use(state, 1, "prognisticated-arrival", SQUAD)
    top = state["pending"][-1]
    with pytest.raises(Refusal) as refused:
        apply(
            state,
            {
                "type": "decide",
                "player": 1,
                "decision": top["id"],
                "choice": row(state, SQUAD, 2.0, 30.5),
            },
        )
    assert refused.value.code == "too_close_to_enemy"
    poor = reserves_arrive("teleport-strike-force")
    poor["players"]["1"]["cp"] = 0
    assert ("prognisticated-arrival", SQUAD) not in usable(poor, 1)
    with pytest.raises(Refusal) as refused:
        use(poor, 1, "prognisticated-arrival", SQUAD)
    assert refused.value.code == "not_enough_command_points"


def test_prognisticated_arrival_is_not_offered_in_the_first_battle_round():
    state = stratagem_game("10e", {1: "teleport-strike-force"}, reserves={1: [SQUAD]})
    state = to_phase(state, 1, "movement")
    state["players"]["1"]["cp"] = 3
    assert ("prognisticated-arrival", SQUAD) not in usable(state, 1)


def test_haloed_in_soulfire_after_a_deep_strike_keeps_far_shooters_off_until_next_movement():
    state = reserves_arrive("teleport-strike-force")
    state, _ = play(
        state,
        {
            "type": "arrive",
            "player": 1,
            "unit": SQUAD,
            "method": "deep_strike",
            "positions": row(state, SQUAD, 40.0, 14.0),
        },
    )
    # The window "when a unit is set up" of the Reinforcements step.
    assert ("haloed-in-soulfire", SQUAD) in offered(state)
    state, _ = choose(state, "haloed-in-soulfire", SQUAD)
    state = pass_windows(state)
    squad, near, far = (state["units"][u] for u in (SQUAD, CADIANS_2, CADIANS))
    place_unit(state, CADIANS_2, 40.0, 30.0)  # about 14" away
    assert may_be_targeted(state, near, squad)
    assert not may_be_targeted(state, far, squad)  # more than 18" away
    state = to_phase(state, 2, "shooting")
    assert not may_be_targeted(state, state["units"][CADIANS], state["units"][SQUAD])
    state = to_phase(state, 1, "movement")  # the start of player 1's next Movement phase
    assert may_be_targeted(state, state["units"][CADIANS], state["units"][SQUAD])


def test_haloed_in_soulfire_is_not_offered_after_an_ingress_move():
    state = reserves_arrive("teleport-strike-force")
    edge = {m: [1.0, 16.0 + 1.5 * i, 0.0] for i, m in enumerate(row(state, SQUAD, 0, 0))}
    state, _ = play(
        state,
        {"type": "arrive", "player": 1, "unit": SQUAD, "method": "ingress", "positions": edge},
    )
    # No Reinforcements-step window for player 1; only the opponent's (10e Fire Overwatch).
    assert window(state) is None or window(state)["player"] == 2
    assert ("haloed-in-soulfire", SQUAD) not in usable(state, 1)


def test_hallowed_beacon_sets_infantry_up_wholly_within_hallowed_ground():
    state = reserves_arrive("warpbane-task-force")
    assert ("hallowed-beacon", SQUAD) in usable(state, 1)
    state, _ = use(state, 1, "hallowed-beacon", SQUAD)
    state, events = decide(state, row(state, SQUAD, 40.0, 5.0))  # in player 1's deployment zone
    assert state["units"][SQUAD]["location"] == "battlefield"
    assert [e["method"] for e in events if e["type"] == "unit_arrived"] == ["hallowed_beacon"]


def test_hallowed_beacon_refuses_a_place_outside_hallowed_ground():
    state = reserves_arrive("warpbane-task-force")
    state, _ = use(state, 1, "hallowed-beacon", SQUAD)
    top = state["pending"][-1]
    with pytest.raises(Refusal) as refused:
        apply(
            state,
            {
                "type": "decide",
                "player": 1,
                "decision": top["id"],
                "choice": row(state, SQUAD, 40.0, 20.0),  # No Man's Land
            },
        )
    assert refused.value.code == "not_in_hallowed_ground"
    assert ("hallowed-beacon", SQUAD) not in usable(reserves_arrive("teleport-strike-force"), 1)


def relocation_window():
    """End of player 2's Fight phase; player 1 (Alien Hunters) has 3CP."""
    state = stratagem_game("10e", {1: "ordo-xenos-alien-hunters"})
    state = to_phase(state, 2, "fight")
    state["players"]["1"]["cp"] = 3
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return state


def test_rapid_tactical_relocation_removes_the_unit_and_sets_it_up_more_than_8_inches_away():
    state = relocation_window()
    assert offered(state) >= {("rapid-tactical-relocation", LED_SQUAD)}
    assert ("rapid-tactical-relocation", SQUAD) not in offered(state)  # no INQUISITOR
    state, _ = choose(state, "rapid-tactical-relocation", LED_SQUAD)
    assert state["units"][LED_SQUAD]["location"] == "off_battlefield"
    state = to_phase(state, 1, "movement")
    arrive = next(
        a for a in legal_actions(state, 1) if a["type"] == "arrive" and a["unit"] == LED_SQUAD
    )
    assert arrive["methods"] == ["rapid_tactical_relocation"]
    action = {"type": "arrive", "player": 1, "unit": LED_SQUAD}
    with pytest.raises(Refusal) as refused:
        apply(state, {**action, "positions": row(state, LED_SQUAD, 2.0, 29.0)})
    assert refused.value.code == "too_close_to_enemy"
    state, _ = play(state, {**action, "positions": row(state, LED_SQUAD, 2.0, 26.5)})
    assert state["units"][LED_SQUAD]["location"] == "battlefield"


def test_rapid_tactical_relocation_refuses_an_engaged_unit():
    state = stratagem_game("10e", {1: "ordo-xenos-alien-hunters"})
    state = to_phase(state, 2, "fight")
    state["players"]["1"]["cp"] = 3
    assert ("rapid-tactical-relocation", LED_SQUAD) in end_of_phase_offers(state)
    place_unit(state, LED_SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS_2, 20.0, 16.8)  # within 1" (10e Engagement Range)
    assert ("rapid-tactical-relocation", LED_SQUAD) not in end_of_phase_offers(state)
    window = {"trigger": "phase_end", "phase": "fight"}
    refusal = refusal_for(state, Use("rapid-tactical-relocation", 1, LED_SQUAD, window))
    assert refusal is not None and refusal.code == "invalid_stratagem_target"


def end_of_phase_offers(state):
    return {(o["stratagem"], o["target"]) for o in offers(state, 1, ["phase_end"], {})}


# --- Teleport Assault (faction ability) -----------------------------------------------------


def grey_knights_game(edition="10e", **extra):
    armies = default_armies()
    armies["1"]["faction"] = "grey-knights"
    return stratagem_game(edition, armies=armies, **extra)


def end_of_player_2_turn(state):
    state = to_phase(state, 2, "fight")
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return pass_windows(state)


def test_teleport_assault_removes_units_at_the_end_of_the_opponents_turn_and_sets_them_up():
    state = end_of_player_2_turn(grey_knights_game())
    top = state["pending"][-1]
    assert top["kind"] == "teleport_assault" and top["player"] == 1
    # The Inquisitor leading LED_SQUAD has no Teleport Assault: only SQUAD may go.
    assert top["options"] == [SQUAD, "done"]
    state, events = decide(state, SQUAD)
    assert state["units"][SQUAD]["location"] == "off_battlefield"
    assert "unit_removed_from_battlefield" in [e["type"] for e in events]
    assert state["active_player"] == 1 and state["battle_round"] == 2
    state = to_phase(state, 1, "movement")
    arrive = next(a for a in legal_actions(state, 1) if a["type"] == "arrive")
    assert arrive["unit"] == SQUAD and arrive["methods"] == ["teleport_assault"]
    action = {"type": "arrive", "player": 1, "unit": SQUAD}
    with pytest.raises(Refusal) as refused:  # within 9" of enemy models
        apply(state, {**action, "positions": row(state, SQUAD, 2.0, CLEAR_Y + 2.0)})
    assert refused.value.code == "too_close_to_enemy"
    state, events = play(state, {**action, "positions": row(state, SQUAD, 2.0, CLEAR_Y)})
    assert [e["method"] for e in events if e["type"] == "unit_arrived"] == ["teleport_assault"]
    assert "awaiting_arrival" not in state["units"][SQUAD]


def test_teleport_assault_excludes_engaged_units_and_other_factions():
    state = grey_knights_game()
    state = to_phase(state, 2, "fight")
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS_2, 20.0, 16.8)  # engaged
    assert teleport_assault.candidates(state, 1) == []
    other = end_of_player_2_turn(stratagem_game("10e"))  # no Army Faction: no Teleport Assault
    assert not [d for d in other["pending"] if d["kind"] == "teleport_assault"]
    assert other["active_player"] == 1


def test_teleport_assault_units_not_on_the_battlefield_at_the_end_count_as_destroyed():
    state = end_of_player_2_turn(grey_knights_game())
    state, _ = decide(state, SQUAD)
    ctx = Context(copy_state(state))
    destroy_units_not_returned(ctx)
    assert ctx.state["units"][SQUAD]["location"] == "destroyed"
    assert ctx.state["units"][LED_SQUAD]["location"] == "battlefield"


# --- Battlefield Command (Boarding Actions): Leader abilities as data -----------------------


def boarding_game():
    from tests.test_grey_knights_rules import DATASHEETS

    armies = default_armies()
    armies["1"] = army(
        entry("bts", "brotherhood-terminator-squad", 5),
        entry("cap", "brother-captain", 1, warlord=True),
    )
    state = stratagem_game("10e", boarding_actions=True, armies=armies, datasheets=DATASHEETS)
    state["players"]["1"]["cp"] = 3
    return state


def test_battlefield_command_lends_hammerhand_to_a_bodyguard_unit_within_6_inches():
    terminators, captain = "p1-u1", "p1-u2"
    state = boarding_game()  # the start of player 1's Command phase
    assert ("battlefield-command-boarding-actions", captain) in offered(state)
    option = next(o for o in window(state)["options"] if o != "pass" and o["target"] == captain)
    assert option["bodyguard"] == terminators and option["ability"] == "Hammerhand (Psychic)"
    assert not lethal_hits(state, terminators)
    state, _ = decide(state, option)
    assert lethal_hits(state, terminators) == [{"weapon_type": "melee"}]
    # Restriction: not targeted again until the next Command phase.
    state = pass_windows(state)
    assert ("battlefield-command-boarding-actions", captain) not in phase_end_offers(state)
    state = to_phase(state, 1, "movement")
    assert lethal_hits(state, terminators)
    state = to_phase(state, 1, "command")
    assert not lethal_hits(state, terminators)  # until the start of the next Command phase


def test_battlefield_command_needs_the_bodyguard_within_6_inches():
    terminators, captain = "p1-u1", "p1-u2"
    state = pass_windows(boarding_game())
    assert ("battlefield-command-boarding-actions", captain) in phase_end_offers(state)
    place_unit(state, captain, 40.0, 5.0)
    assert ("battlefield-command-boarding-actions", captain) not in phase_end_offers(state)
    assert leader_abilities(state, "brother-captain") == ["Hammerhand (Psychic)"]
    assert leader_abilities(state, "brotherhood-terminator-squad") == []
    assert terminators in state["units"]


def phase_end_offers(state):
    return {(o["stratagem"], o["target"]) for o in offers(state, 1, ["phase_end"], {})}


def lethal_hits(state, unit):
    modifiers = attack_context(state, state["units"][unit], CADIANS).modifiers
    return [dict(m.condition) for m in modifiers if m.value == "lethal hits"]
