"""Rules that answer an enemy unit's move or set-up through the `reactions` hook (seed 003):
On My Signal (the Order of Squadron Command, Armoured Infantry, L706-708) and Reactive Command
(Combined Arms enhancement, L716-718). Each: its effect and a case where it does not apply."""

from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.events import Context
from rules.engine.core.state import alive_models
from rules.engine.factions.astra_militarum.orders import current_orders
from rules.engine.phases.movement import set_up_arriving
from tests.engine_world import decide, play
from tests.orders_world import (
    CADIANS,
    CASTELLAN_MODEL,
    CHIMERA,
    am_game,
    order,
    stand,
)
from tests.stratagem_world import to_phase

STRIKERS = "p1-u1"


def shifted(state, unit_id, dx, dy=0.0):
    return {
        m["id"]: [m["x"] + dx, m["y"] + dy, m["facing"]]
        for m in alive_models(state["units"][unit_id])
    }


def signalled_chimera(detachment="armoured-infantry"):
    """The Chimera (ARMOURED SKIRMISHER) under On My Signal; player 1's Movement phase with its
    Strike Squad 9" from the Chimera."""
    state = am_game(detachment=detachment)
    stand(state, CHIMERA, 10.0, 40.0)
    state, _ = order(state, CASTELLAN_MODEL, "on-my-signal", CHIMERA)
    state = to_phase(state, 1, "movement")
    stand(state, CHIMERA, 16.0, 40.5)  # clear of the Cadians
    stand(state, STRIKERS, 28.0, 42.5)
    return state


def move_strikers(state, dx):
    state, events = play(
        state,
        {"type": "move", "player": 1, "unit": STRIKERS, "positions": shifted(state, STRIKERS, dx)},
    )
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, more = decide(state, "pass")
        events += more
    return state, events


def test_on_my_signal_moves_the_unit_up_to_d6_when_an_enemy_ends_a_move_within_8_inches():
    state = signalled_chimera()
    assert current_orders(state, CHIMERA) == ["on-my-signal"]
    state, events = move_strikers(state, -5.0)
    assert unit_distance(state["units"][STRIKERS], state["units"][CHIMERA]) <= 8.0
    (rolled,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "on_my_signal"]
    top = state["pending"][-1]
    assert top["kind"] == "normal_move" and top["player"] == 2
    assert top["options"]["max_distance"] == float(rolled["total"])
    state, moved = decide(state, shifted(state, CHIMERA, 1.0, 0.0))
    assert [e["source"] for e in moved if e["type"] == "unit_moved"] == ["on-my-signal"]
    # Once per turn: a second enemy move within 8" asks nothing.
    state = pass_everything(state)
    state, events = move_strikers_again(state)
    assert not any(e["type"] == "dice_rolled" and e["purpose"] == "on_my_signal" for e in events)


def move_strikers_again(state):
    """The second Strike Squad ends a move beside the Chimera too."""
    stand(state, "p1-u2", 28.0, 40.0)
    state, events = play(
        state,
        {"type": "move", "player": 1, "unit": "p1-u2", "positions": shifted(state, "p1-u2", -5.0)},
    )
    state, more = pass_everything(state, keep_events=True)
    return state, events + more


def pass_everything(state, keep_events=False):
    """Pass the windows and decline the other Normal moves offered (the Death Riders' Screening
    Line)."""
    events = []
    while state["pending"] and state["pending"][-1]["kind"] in ("stratagem_window", "normal_move"):
        top = state["pending"][-1]
        state, more = decide(state, "pass" if top["kind"] == "stratagem_window" else None)
        events += more
    return (state, events) if keep_events else state


def test_on_my_signal_does_nothing_for_a_move_ending_beyond_8_inches():
    state = signalled_chimera()
    state, events = move_strikers(state, 2.0)  # away from the Chimera
    assert not any(e["type"] == "dice_rolled" and e["purpose"] == "on_my_signal" for e in events)
    assert not (state["pending"] and state["pending"][-1]["kind"] == "normal_move")


def set_up_strikers(state, y):
    """Player 1's Strike Squad set up anywhere more than 6" from enemy models (as Prognisticated
    Arrival sets units up), in a row at height `y` left of the Cadians."""
    ctx = Context(state)
    unit = ctx.state["units"][STRIKERS]
    unit["location"] = "strategic_reserves"
    positions = {m["id"]: [1.0 + 1.5 * i, y, 0.0] for i, m in enumerate(alive_models(unit))}
    set_up_arriving(ctx, unit, positions, "prognisticated_arrival", None)
    return ctx.state


def test_reactive_command_issues_an_uncounted_order_when_an_enemy_unit_is_set_up_within_8():
    """The Castellan (leading the Cadians) bears Reactive Command: an enemy unit set up 6.3"
    from its unit lets it issue an Order at once, not counted against its Orders."""
    state = to_phase(
        am_game(detachment="combined-arms", castellan=["reactive-command"]), 1, "movement"
    )
    state = set_up_strikers(state, 25.6)
    assert unit_distance(state["units"][STRIKERS], state["units"][CADIANS]) <= 8.0
    top = state["pending"][-1]
    assert top["kind"] == "issue_order" and top["player"] == 2 and top["rule"] == "Reactive Command"
    choice = next(o for o in top["options"] if o != "done" and o["order"] == "take-cover")
    state, events = decide(state, choice)
    (issued,) = [e for e in events if e["type"] == "order_issued"]
    assert issued["counted"] is False and issued["unit"] == choice["unit"]
    assert "take-cover" in current_orders(state, choice["unit"])


def test_reactive_command_is_not_offered_beyond_8_inches_or_without_the_enhancement():
    far = to_phase(
        am_game(detachment="combined-arms", castellan=["reactive-command"]), 1, "movement"
    )
    far = set_up_strikers(far, 20.0)
    assert not any(d["kind"] == "issue_order" for d in far["pending"])
    plain = to_phase(am_game(detachment="combined-arms"), 1, "movement")
    plain = set_up_strikers(plain, 25.6)
    assert not any(d["kind"] == "issue_order" for d in plain["pending"])
