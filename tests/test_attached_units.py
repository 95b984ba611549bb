"""Leader abilities read through one question (`attached_units.is_led_with`): "is this unit led
by a model with X, or lent X?" (10e Leader; 11e 24.22 Leader, 19 Attached units), so Battlefield
Command (Boarding Actions; seed 003 L656-666, rulings R-GK-08) lends every Leader ability the
engine implements, not only Hammerhand and Clarion of Haste.

Player 2's Cadian Castellan stands alone (`CASTELLAN_ALONE`) within 6" of `CADIANS_2` only.
"""

from rules.engine.army.attached_units import LENDABLE, is_led_with, leading_models
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.phases.shooting import ineligibility
from rules.engine.stratagems.effects.leaders import leader_abilities
from tests.engine_world import decide, play
from tests.orders_world import CADIANS, CADIANS_2, CASTELLAN_ALONE, SQUAD_1, am_game, granted
from tests.stratagem_world import window

BATTLEFIELD_COMMAND = "battlefield-command-boarding-actions"
SUSTAINED = ("ability", "grant", "sustained hits 1", (("weapon_type", "ranged"),))


def command_phase_end():
    """Player 2's Command phase ends with the Castellan alone: the phase_end window is open."""
    state = am_game(castellan_leads=None, boarding_actions=True)
    state, _ = play(state, {"type": "end_phase", "player": 2})
    return state


def lend(state, ability):
    option = next(
        o
        for o in window(state)["options"]
        if o != "pass" and o["stratagem"] == BATTLEFIELD_COMMAND and o["ability"] == ability
    )
    assert option["target"] == CASTELLAN_ALONE and option["bodyguard"] == CADIANS_2
    state, _ = decide(state, option)
    return state


def test_every_implemented_leader_ability_is_lendable():
    assert {
        "Senior Officer",
        "Get Back in the Fight",
        "Blessed Wardings",
        "Malefic Wardings (Psychic)",
        "Hammerhand (Psychic)",
        "Clarion of Haste (Psychic)",
    } <= LENDABLE
    state = command_phase_end()
    assert leader_abilities(state, "cadian-castellan") == [
        "Senior Officer",
        "Get Back in the Fight",
    ]
    bodyguards = {o["bodyguard"] for o in window(state)["options"] if o != "pass"}
    assert bodyguards == {CADIANS_2}  # CADIANS stand more than 6" away


def test_senior_officer_lent_by_battlefield_command_gives_sustained_hits_1():
    """Senior Officer: "While this model is leading a unit, ranged weapons equipped by models in
    that unit have the [SUSTAINED HITS 1] ability." Lent, the Bodyguard's ranged weapons have it
    until the start of player 2's next Command phase; the other unit does not."""
    state = command_phase_end()
    assert SUSTAINED not in granted(state, CADIANS_2, SQUAD_1)
    state = lend(state, "Senior Officer")
    assert SUSTAINED in granted(state, CADIANS_2, SQUAD_1)
    assert SUSTAINED not in granted(state, CADIANS, SQUAD_1)
    assert not is_led_with(state, state["units"][CADIANS_2], "Get Back in the Fight")
    assert leading_models(state["units"][CADIANS_2]) == []  # lent, not attached
    # The lender no longer on the battlefield lends nothing.
    state["units"][CASTELLAN_ALONE]["location"] = "destroyed"
    assert SUSTAINED not in granted(state, CADIANS_2, SQUAD_1)


def test_get_back_in_the_fight_lent_by_battlefield_command_lets_the_unit_shoot_after_falling_back():
    """Get Back in the Fight: "While this model is leading a unit, that unit is eligible to shoot
    in a turn in which it Fell Back." Lent, the Bodyguard may shoot after Falling Back; the
    Senior Officer was not lent with it."""
    state = lend(command_phase_end(), "Get Back in the Fight")
    ctx = Context(state)
    set_flag(ctx, CADIANS_2, "fell_back")
    set_flag(ctx, CADIANS, "fell_back")
    assert ineligibility(ctx.state, ctx.state["units"][CADIANS_2]) is None
    assert ineligibility(ctx.state, ctx.state["units"][CADIANS]).code == "fell_back"
    assert SUSTAINED not in granted(ctx.state, CADIANS_2, SQUAD_1)


def test_battlefield_command_targets_a_leader_unit_that_leads_a_unit():
    """Battlefield Command: "TARGET: One Leader unit from your army and one friendly Bodyguard
    unit within 6" of it that it could normally be attached to" asks nothing of the Leader unit
    beyond being one (rulings R-GK-08). The Castellan leading `CADIANS` lends Senior Officer to
    `CADIANS_2`, 5" away, which no Leader leads; the Castellan's own unit keeps it too."""
    state = am_game(boarding_actions=True)
    state, _ = play(state, {"type": "end_phase", "player": 2})
    options = [
        o for o in window(state)["options"] if o != "pass" and o["stratagem"] == BATTLEFIELD_COMMAND
    ]
    assert {(o["target"], o["bodyguard"], o["ability"]) for o in options} == {
        (CADIANS, CADIANS_2, "Senior Officer"),
        (CADIANS, CADIANS_2, "Get Back in the Fight"),
    }
    assert SUSTAINED not in granted(state, CADIANS_2, SQUAD_1)
    state, _ = decide(state, next(o for o in options if o["ability"] == "Senior Officer"))
    assert SUSTAINED in granted(state, CADIANS_2, SQUAD_1)
    assert SUSTAINED in granted(state, CADIANS, SQUAD_1)  # still led by the Castellan
