"""Core rules as printed: scenarios a referee gets asked about, each set up from a position
(`tests/position_world.py`) with the dice scripted where they matter, citing the section (11e
reference text) or heading (10e published core rules). Each one found the engine reading the
rule differently; docs/rulings.md records the reading (R-MV-19, R-MV-20, R-CB-14)."""

from __future__ import annotations

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.phases.fight import current_step
from tests.engine_world import decide, play
from tests.position_world import CADIANS, CADIANS_2, SQUAD, position_game
from tests.scripted_dice import scripted_dice
from tests.stratagem_world import pass_windows

# Centre distance of a Grey Knight (32 mm base) and a Cadian (25 mm) in base contact.
CONTACT = (32 + 25) / 2 / 25.4


def lone_model(unit: str, at: list[float], size: int) -> dict:
    """`unit` with its first model at `at` and the others destroyed."""
    return {
        "positions": {f"{unit}-m1": at},
        "wounds_left": {f"{unit}-m{i}": 0 for i in range(2, size + 1)},
    }


def grey_knights(*places: list[float]) -> dict:
    """The Strike Squad with a model at each place and the rest destroyed."""
    return {
        "positions": {f"{SQUAD}-m{i}": at for i, at in enumerate(places, 1)},
        "wounds_left": {f"{SQUAD}-m{i}": 0 for i in range(len(places) + 1, 6)},
    }


# --- 11e 11.04 Charge move; 10e Charge Move (R-MV-19) -------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_charging_model_may_end_closer_to_any_charge_target(edition):
    """11e 11.04 While Moving: "Each model must end its move closer to one or more charge
    targets". Two lone Cadians are both charge targets; the third Grey Knight starts nearer the
    left one (A) but charges the right one (B), ending farther from A: it is closer to B, so the
    move is made. 10e Charge Move prints no nearer condition at all; the engine keeps the 11e
    one for both."""
    state = position_game(
        edition,
        {
            SQUAD: grey_knights([26.6, 20], [28.0, 20], [29.6, 20], [31.4, 20]),
            CADIANS: lone_model(CADIANS, [27.3, 24], 10),
            CADIANS_2: lone_model(CADIANS_2, [32.5, 24], 10),
        },
        phase="charge",
    )
    declare = {"type": "declare_charge", "player": 1, "unit": SQUAD}
    if edition == "10e":  # 10e Declare Charge: targets first, then the roll
        state, _ = play(state, {**declare, "targets": [CADIANS, CADIANS_2]})
        with scripted_dice(6, 6):
            state = pass_windows(state)
    else:  # 11e 11.02: the roll first; targets are selected with the move
        with scripted_dice(6, 6):
            state, _ = play(state, declare)
    state = pass_windows(state)
    ends = {
        f"{SQUAD}-m1": [26.5, 23.2, 0],  # base contact with A
        f"{SQUAD}-m2": [28.1, 23.2, 0],  # base contact with A
        f"{SQUAD}-m3": [33.3, 23.2, 0],  # started nearer A; ends in base contact with B
        f"{SQUAD}-m4": [31.7, 23.2, 0],  # base contact with B
    }
    choice = {"targets": [CADIANS, CADIANS_2], "positions": ends} if edition == "11e" else ends
    state, events = decide(state, choice)
    assert events[-1]["type"] == "unit_charged"
    assert sorted(events[-1]["targets"]) == [CADIANS, CADIANS_2]


def test_11e_a_charging_model_that_ends_nearer_no_target_is_refused():
    """11e 11.04: the same charge with the third Grey Knight stepping back is refused."""
    state = position_game(
        "11e",
        {
            SQUAD: grey_knights([26.6, 20], [28.0, 20], [29.6, 20], [31.4, 20]),
            CADIANS: lone_model(CADIANS, [27.3, 24], 10),
            CADIANS_2: lone_model(CADIANS_2, [32.5, 24], 10),
        },
        phase="charge",
    )
    with scripted_dice(6, 6):
        state, _ = play(state, {"type": "declare_charge", "player": 1, "unit": SQUAD})
    state = pass_windows(state)
    ends = {
        f"{SQUAD}-m1": [26.5, 23.2, 0],
        f"{SQUAD}-m2": [28.1, 23.2, 0],
        f"{SQUAD}-m3": [29.6, 19.5, 0],  # back: farther from both targets
        f"{SQUAD}-m4": [31.7, 23.2, 0],
    }
    with pytest.raises(Refusal) as refused:
        decide(state, {"targets": [CADIANS, CADIANS_2], "positions": ends})
    assert (refused.value.code, refused.value.rule) == ("not_closer", "11.04")


# --- 11e 12.03 Pile-in move (R-MV-20) ---------------------------------------------------------


def pile_in_between_two_units():
    """One Grey Knight 1" from one lone Cadian (A, north) and 1.5" from another (B, south): it is
    engaged with both (11e engagement range 2", 03.04)."""
    return position_game(
        "11e",
        {
            SQUAD: grey_knights([30, 20]),
            CADIANS: lone_model(CADIANS, [30, 20 + CONTACT + 1.0], 10),
            CADIANS_2: lone_model(CADIANS_2, [30, 20 - CONTACT - 1.5], 10),
        },
        phase="fight",
    )


def test_11e_a_pile_in_cannot_leave_a_unit_the_model_started_engaged_with():
    """11e 12.03 After Moving: "Each model that started this move engaged with an enemy unit
    must still be engaged with that enemy unit." Piling 0.9" toward A takes the Grey Knight 2.4"
    from B: refused. Piling 0.3" toward A keeps it engaged with both: made."""
    state = pile_in_between_two_units()
    assert current_step(state) == ("pile_in", 1)
    pile_in = {"type": "pile_in", "player": 1, "unit": SQUAD, "targets": [CADIANS, CADIANS_2]}
    with pytest.raises(Refusal) as refused:
        play(state, {**pile_in, "positions": {f"{SQUAD}-m1": [30, 20.9, 0]}})
    assert (refused.value.code, refused.value.rule) == ("left_engagement", "12.03")
    assert "Cadian Shock Troops B" in refused.value.message
    state, events = play(state, {**pile_in, "positions": {f"{SQUAD}-m1": [30, 20.3, 0]}})
    assert any(e["type"] == "unit_moved" and e["move"] == "pile_in" for e in events)
    (model,) = alive_models(state["units"][SQUAD])
    assert model["y"] == pytest.approx(20.3)


# --- Which models fight: 11e 04.02 while fighting; 10e Fight phase (R-CB-14) ------------------

GREY_KNIGHT_BASE = 32 / 25.4


def hit_dice_of_a_fight(edition: str, second_rank_gap: float) -> int:
    """Two Grey Knights in file behind each other, the first in base contact with a lone Cadian;
    the second `second_rank_gap` behind the first. The squad charged and fights (Nemesis force
    weapon, A3): the number of hit dice rolled."""
    behind = 20 - GREY_KNIGHT_BASE - second_rank_gap
    state = position_game(
        edition,
        {
            SQUAD: grey_knights([30, 20], [30, behind]),
            CADIANS: lone_model(CADIANS, [30, 20 + CONTACT], 10),
        },
        phase="fight",
    )
    state["facts"]["turn"].setdefault("charged", []).append(SQUAD)
    if edition == "11e":  # the Pile In step (12.02) first: no unit moves
        while current_step(state)[0] == "pile_in":
            state, _ = play(state, {"type": "end_step", "player": current_step(state)[1]})
    state, events = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    while not any(e["type"] == "dice_rolled" and e["purpose"] == "hit_roll" for e in events):
        state, more = decide(state, "pass")
        events += more
    hits = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hit_roll")
    return len(hits["values"])


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_model_in_base_contact_with_a_friend_in_base_contact_with_the_enemy_fights(edition):
    """10e Fight phase: a model fights if it is within Engagement Range (1") of an enemy unit or
    "in base-to-base contact with another model from its own unit that is itself in
    base-to-base contact with an enemy unit". The second Grey Knight is 1.26" from the Cadian,
    in base contact with the first: both fight (6 attacks). 11e 03.04, 04.02: it is within 2"
    of the Cadian, so engaged with it, and fights as well."""
    assert hit_dice_of_a_fight(edition, second_rank_gap=0.0) == 6


@pytest.mark.parametrize(("edition", "dice"), [("11e", 6), ("10e", 3)])
def test_a_second_rank_model_not_in_base_contact_fights_only_within_engagement_range(edition, dice):
    """The second Grey Knight 0.3" behind the first (1.56" from the Cadian): in 10e it is neither
    within 1" nor in base contact with the first, so only the first fights (3 attacks); in 11e it
    is within the 2" engagement range and fights (6)."""
    assert hit_dice_of_a_fight(edition, second_rank_gap=0.3) == dice
