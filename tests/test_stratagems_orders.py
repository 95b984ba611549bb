"""Astra Militarum stratagems about Orders in play (seed 003): Flexible Command, Inspired Command,
Snap To It, No Retreat! and Purging Fire; each scenario shows the effect and a refusal."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.factions.astra_militarum.orders import current_orders
from rules.engine.sequence.game import legal_actions
from tests.engine_world import decide, end_phase, play
from tests.orders_world import (
    CADIANS,
    CADIANS_2,
    CASTELLAN_MODEL,
    CHIMERA,
    COMMISSAR_MODEL,
    RIDERS,
    SQUAD_1,
    am_game,
    granted,
    next_own_command_phase,
    options,
    order,
    stand,
)
from tests.stratagem_world import pass_windows

# --- stratagems -------------------------------------------------------------------------------


def stratagem(state, slug, target, player=2, **extra):
    return play(
        state,
        {"type": "use_stratagem", "player": player, "stratagem": slug, "target": target, **extra},
    )


def usable(state, player=2):
    return [a for a in legal_actions(state, player) if a["type"] == "use_stratagem"]


def test_flexible_command_officers_order_regiment_and_squadron_units_this_phase():
    state = am_game(detachment="combined-arms")
    assert (COMMISSAR_MODEL, "fix-bayonets", CHIMERA) not in options(state)
    state, _ = stratagem(state, "flexible-command", RIDERS)
    assert state["players"]["2"]["cp"] == 3
    assert (COMMISSAR_MODEL, "fix-bayonets", CHIMERA) in options(state)
    state, _ = order(state, COMMISSAR_MODEL, "fix-bayonets", CHIMERA)
    assert current_orders(state, CHIMERA) == ["fix-bayonets"]
    with pytest.raises(Refusal) as refusal:
        stratagem(state, "flexible-command", CADIANS)
    assert refusal.value.code == "stratagem_used_this_phase"


def test_flexible_command_costs_2cp_and_ends_with_the_phase():
    state = am_game(detachment="combined-arms", cp=1)
    assert not any(a["stratagem"] == "flexible-command" for a in usable(state))
    state = am_game(detachment="combined-arms")
    state, _ = stratagem(state, "flexible-command", RIDERS)
    state, _ = end_phase(state)
    assert not any(e["modifier"].get("order_recipients") for e in state["effects"])


def test_inspired_command_issues_an_order_in_the_opponents_command_phase():
    state = am_game(detachment="combined-arms")
    state = next_own_command_phase(state, player=1)  # player 1's Command phase
    state, _ = end_phase(state)  # back round the turn: player 1's Command phase, round 2
    state = pass_windows(state)
    while not (state["active_player"] == 1 and state["phase"] == "command"):
        state, _ = end_phase(state)
        state = pass_windows(state)
    state, _ = play(state, {"type": "end_phase", "player": 1})  # the end-of-phase window
    top = state["pending"][-1]
    chosen = next(
        o
        for o in top["options"]
        if o != "pass"
        and o["stratagem"] == "inspired-command"
        and o["order"] == "take-cover"
        and o["unit"] == CADIANS_2
    )
    assert not any(
        o != "pass"
        and o["stratagem"] == "inspired-command"
        and o["order"] == "take-aim"
        and o["officer"] == COMMISSAR_MODEL
        for o in top["options"]
    )
    state, events = decide(state, chosen)
    assert current_orders(state, CADIANS_2) == ["take-cover"]
    assert [e["counted"] for e in events if e["type"] == "order_issued"] == [True]  # R-AM-03


def test_inspired_command_not_in_your_own_command_phase():
    state = am_game(detachment="combined-arms")
    assert not any(a["stratagem"] == "inspired-command" for a in usable(state))


def test_snap_to_it_issues_an_order_at_the_start_of_a_phase():
    state = am_game(detachment="grizzled-company")
    state, _ = play(state, {"type": "end_phase", "player": 2})  # Movement phase starts
    top = state["pending"][-1]
    assert top["kind"] == "stratagem_window"
    chosen = next(
        o
        for o in top["options"]
        if o != "pass"
        and o["stratagem"] == "snap-to-it"
        and o["order"] == "move-move-move"
        and o["unit"] == CADIANS
    )
    state, _ = decide(state, chosen)
    assert current_orders(state, CADIANS) == ["move-move-move"]
    assert state["players"]["2"]["cp"] == 4
    # Asked again at the same point: Snap To It is used once per phase.
    again = state["pending"][-1]["options"] if state["pending"] else []
    assert not any(o != "pass" and o["stratagem"] == "snap-to-it" for o in again)


def test_no_retreat_keeps_the_marker_of_a_unit_under_duty_and_honour():
    state = am_game(detachment="grizzled-company")
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS_2)
    stand(state, CADIANS_2, 28.0, 36.5)  # within range of o5
    marker = next(m for m in state["objectives"] if m["id"] == "o5")
    marker["controller"] = 2
    assert not any(a["stratagem"] == "no-retreat" for a in usable(state))  # not Duty and Honour!
    stand(state, CADIANS_2, 4.0, 38.0)
    state, _ = order(state, COMMISSAR_MODEL, "duty-and-honour", CADIANS_2)
    stand(state, CADIANS_2, 28.0, 36.5)
    assert {
        (a["target"], a.get("objective")) for a in usable(state) if a["stratagem"] == "no-retreat"
    } == {(CADIANS_2, "o5")}
    state, _ = stratagem(state, "no-retreat", CADIANS_2, objective="o5")
    stand(state, CADIANS_2, 4.0, 38.0)
    state["units"][CADIANS_2]["location"] = "battlefield"
    state, _ = end_phase(state)
    state = pass_windows(state)
    assert next(m for m in state["objectives"] if m["id"] == "o5")["controller"] == 2
    stand(state, SQUAD_1, 29.0, 37.0)  # the opponent takes it: released
    state, _ = end_phase(state)
    state = pass_windows(state)
    assert next(m for m in state["objectives"] if m["id"] == "o5")["controller"] == 1


def test_purging_fire_gives_lethal_hits_to_an_ordered_unit_on_an_objective():
    state = am_game(detachment="grizzled-company")
    state, _ = order(state, COMMISSAR_MODEL, "duty-and-honour", CADIANS_2)
    state, _ = order(state, CASTELLAN_MODEL, "take-aim", CADIANS)
    stand(state, CADIANS_2, 28.0, 36.5)
    state, _ = end_phase(state)
    state = pass_windows(state)
    state, _ = end_phase(state)
    state = pass_windows(state)
    assert state["phase"] == "shooting"
    targets = {a["target"] for a in usable(state) if a["stratagem"] == "purging-fire"}
    assert targets == {CADIANS_2}  # CADIANS has an Order but stands on no marker
    state, _ = stratagem(state, "purging-fire", CADIANS_2)
    lethal = ("ability", "grant", "lethal hits", (("weapon_type", "ranged"),))
    assert lethal in granted(state, CADIANS_2, SQUAD_1)
    with pytest.raises(Refusal):
        stratagem(state, "purging-fire", CADIANS)
