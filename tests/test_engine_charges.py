"""Charges through `apply` and the battlefield (11e 11.02, 11.04; 10e Declare Charge, Charge Roll,
Charge Move). The Strike Squad stands in a row from (36, 19) (32 mm bases), the Cadians (25 mm)
5" in front of it unless a test says otherwise."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import decide, deployed_game, end_phase, place_unit, play, script_dice

SQUAD = "p1-u2"
CADIANS = "p2-u1"
OTHER_CADIANS = "p2-u2"
CONTACT = (32 + 25) / 2 / 25.4  # centre distance of the two bases in base contact
ROW = 19.0


def charge_phase(edition, gap=5.0, **places):
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 36.0, ROW)
    place_unit(state, CADIANS, 36.0, ROW + CONTACT + gap)
    for unit_id, (x, y) in places.items():
        place_unit(state, unit_id, x, y)
    while state["phase"] != "charge":
        state, _ = end_phase(state)
    return state


def declare(state, targets=None):
    action = {"type": "declare_charge", "player": 1, "unit": SQUAD}
    if targets is not None:
        action["targets"] = targets
    return play(state, action)


def forward(state, distance):
    return {
        m["id"]: [m["x"], m["y"] + distance, m["facing"]]
        for m in alive_models(state["units"][SQUAD])
    }


def refused_decision(state, choice):
    with pytest.raises(Refusal) as refusal:
        decide(state, choice)
    return refusal.value


def test_charge_targets_must_be_within_12_inches():
    """11.02 / 10e Declare Charge: targets are enemy units within 12"."""
    state = charge_phase("10e")
    template = next(a for a in legal_actions(state, 1) if a.get("unit") == SQUAD)
    assert template["targets"] == [CADIANS] and template["max_distance"] == "2D6"
    with pytest.raises(Refusal) as refusal:
        declare(state, [OTHER_CADIANS])
    assert (refusal.value.code, refusal.value.details["allowed"]) == (
        "invalid_charge_target",
        [CADIANS],
    )


@pytest.mark.parametrize(("edition", "rule"), [("11e", "11.02"), ("10e", "Charge Phase")])
def test_a_unit_with_no_enemy_within_12_inches_cannot_declare_a_charge(edition, rule):
    """11e 11.02 Charge (10e Charge Phase): "A unit is eligible to declare a charge if ...";
    "It is not within 12" of one or more enemy units" makes it ineligible. The refusal cites the
    section that says so in 11e, the heading in 10e."""
    state = charge_phase(edition, gap=14.0)
    assert not [a for a in legal_actions(state, 1) if a["type"] == "declare_charge"]
    with pytest.raises(Refusal) as refusal:
        declare(state, [])
    assert (refusal.value.code, refusal.value.rule) == ("no_charge_target", rule)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_failed_charge_roll_is_recorded_and_moves_nothing(edition):
    """2D6 charge roll; 10e: 3 cannot cover 5" less the 1" engagement range; 11e: no enemy unit
    within 3", so no charge target can be selected."""
    state = charge_phase(edition)
    script_dice(state, [1, 2])
    state, events = declare(state, [CADIANS])
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert (rolled["purpose"], rolled["values"], rolled["total"]) == ("charge", [1, 2], 3)
    assert events[-1]["type"] == "charge_failed"
    assert state["pending"] == []
    assert {m["y"] for m in alive_models(state["units"][SQUAD])} == {ROW}


def test_10e_a_charge_move_ends_in_base_contact_where_possible():
    """10e Charge Move: each model must end in base contact with a target if it can."""
    state = charge_phase("10e")
    script_dice(state, [6, 6])
    state, _ = declare(state, [CADIANS])
    refusal = refused_decision(state, forward(state, 4.5))  # 0.5" short: engaged, no contact
    assert (refusal.code, refusal.rule) == ("must_close_in", "Charging with a Unit")
    state, events = decide(state, forward(state, 5.0))
    assert events[-1]["type"] == "unit_charged" and events[-1]["targets"] == [CADIANS]
    assert SQUAD in state["facts"]["turn"]["charged"]


@pytest.mark.parametrize(("edition", "reach"), [("11e", 1.5), ("10e", 0.5)])
def test_a_charge_move_must_end_engaged_with_every_target(edition, reach):
    state = charge_phase(edition)
    script_dice(state, [6, 6])
    state, _ = declare(state, [CADIANS])
    refusal = refused_decision(state, forward(state, 5.0 - reach - 1.0))
    assert refusal.code == "charge_target_not_engaged"


def test_a_charge_move_cannot_end_engaged_with_a_unit_that_is_not_a_target():
    """11.04 After Moving / 10e Charge Move: not within engagement range of a non-target."""
    state = charge_phase("11e", **{OTHER_CADIANS: (43.9, ROW + CONTACT + 5.0)})
    script_dice(state, [6, 6])
    state, _ = declare(state, [CADIANS])
    refusal = refused_decision(state, {"targets": [CADIANS], "positions": forward(state, 4.5)})
    assert (refusal.code, refusal.rule) == ("charge_engages_non_target", "11.04")


def test_11e_targets_are_selected_after_the_roll_within_it():
    """11.04 Before Moving: select enemy units within 12" and within the charge roll."""
    state = charge_phase("11e", **{OTHER_CADIANS: (20.0, ROW + CONTACT + 9.0)})
    script_dice(state, [3, 3])
    state, _ = declare(state)  # no targets yet
    options = state["pending"][-1]["options"]
    assert (options["max_distance"], options["targets"]) == (6, [CADIANS])
    assert refused_decision(state, forward(state, 4.5)).code == "charge_targets_required"
    refusal = refused_decision(
        state, {"targets": [OTHER_CADIANS], "positions": forward(state, 4.5)}
    )
    assert refusal.code == "invalid_charge_target"
    state, events = decide(state, {"targets": [CADIANS], "positions": forward(state, 4.5)})
    assert events[-1]["type"] == "unit_charged"


def test_11e_a_charge_move_must_close_within_1_inch_where_possible():
    """11.04 While Moving: each model that can end within 1" of a charge target must do so."""
    state = charge_phase("11e")
    script_dice(state, [6, 6])
    state, _ = declare(state, [CADIANS])
    refusal = refused_decision(state, forward(state, 3.5))  # 1.5" away: engaged, not within 1"
    assert refusal.code == "must_close_in"


def test_a_charge_can_be_declined():
    state = charge_phase("10e")
    script_dice(state, [6, 6])
    state, _ = declare(state, [CADIANS])
    state, events = decide(state, None)
    assert events[-1]["type"] == "charge_move_declined"
    assert SQUAD not in state["facts"]["turn"].get("charged", [])
    assert {m["y"] for m in alive_models(state["units"][SQUAD])} == {ROW}


def test_a_unit_that_advanced_cannot_declare_a_charge():
    state, _ = deployed_game("11e")
    place_unit(state, SQUAD, 36.0, ROW)
    place_unit(state, CADIANS, 36.0, ROW + CONTACT + 14.0)
    state, _ = end_phase(state)
    script_dice(state, [2])
    state, _ = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    state, _ = decide(state, forward(state, 7.0))
    while state["phase"] != "charge":
        state, _ = end_phase(state)
    with pytest.raises(Refusal) as refusal:
        apply(state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": [CADIANS]})
    assert refusal.value.code == "advanced"
