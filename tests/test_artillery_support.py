"""Artillery Support (Siege Regiment, seed 003 L613-619): at the start of the battle round the
Siege Regiment player selects Creeping Barrage, Incendiary Bombardment or Smoke Shells."""

import pytest

from rules.engine.core.effects import characteristic
from rules.engine.core.refusals import Refusal
from rules.engine.phases.charge import charge_roll_modifier
from tests.engine_world import decide, script_dice
from tests.orders_world import (
    CADIANS,
    CADIANS_2,
    SQUAD_1,
    SQUAD_2,
    SQUAD_3,
    am_game,
    granted,
)

SQUADS = [SQUAD_1, SQUAD_2]


def siege_game(edition="11e"):
    state = am_game(detachment="siege-regiment", artillery=(), edition=edition)
    top = state["pending"][-1]
    assert top["kind"] == "artillery_support" and top["player"] == 2
    assert top["options"] == ["creeping-barrage", "incendiary-bombardment", "smoke-shells"]
    return state


def test_artillery_support_siege_regiment_creeping_barrage_shakes_distant_units_on_5_plus():
    state = siege_game()
    script_dice(state, [5, 2])
    state, events = decide(state, "creeping-barrage")
    rolls = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "creeping_barrage"]
    assert [(r["unit"], r["values"]) for r in rolls] == [(SQUAD_1, [5]), (SQUAD_2, [2])]
    assert [e["unit"] for e in events if e["type"] == "unit_shaken"] == [SQUAD_1]
    shaken, calm = state["units"][SQUAD_1], state["units"][SQUAD_2]
    assert characteristic(state, SQUAD_1, shaken["models"][0], "M") == shaken["models"][0]["M"] - 2
    assert charge_roll_modifier(state, SQUAD_1, []) == -2
    assert characteristic(state, SQUAD_2, calm["models"][0], "M") == calm["models"][0]["M"]
    assert state["phase"] == "command"


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_creeping_barrage_beyond_the_maximum_the_siege_regiment_player_selects_the_shaken(edition):
    """Creeping Barrage: "Roll one D6 for each enemy unit ...: On a 5+, until the end of the battle
    round, that unit is shaken ... The maximum number of units that can be shaken by this rule in
    each battle round depends on the battle size" (Incursion 2). Three distant Strike Squads roll
    5, 6 and 5: the text does not say which two, so the player whose rule it is selects them
    (rulings R-AM-09), two decisions with no "done"; the third unit is not shaken."""
    state = am_game(
        detachment="siege-regiment", artillery=(), edition=edition, third_strike_squad=True
    )
    state["mission"]["battle_size"] = "incursion"
    script_dice(state, [5, 6, 5])
    state, _ = decide(state, "creeping-barrage")
    top = state["pending"][-1]
    assert (top["kind"], top["player"]) == ("artillery_support_unit", 2)
    assert top["options"] == [SQUAD_1, SQUAD_2, SQUAD_3]
    state, first = decide(state, SQUAD_3)
    assert state["pending"][-1]["options"] == [SQUAD_1, SQUAD_2]
    state, second = decide(state, SQUAD_1)
    shaken = [e["unit"] for e in first + second if e["type"] == "unit_shaken"]
    assert shaken == [SQUAD_3, SQUAD_1]
    assert charge_roll_modifier(state, SQUAD_2, []) == 0
    assert charge_roll_modifier(state, SQUAD_1, []) == -2
    assert state["phase"] == "command"


def test_artillery_support_siege_regiment_incendiary_bombardment_scatters_up_to_3_units():
    state = siege_game()
    state, _ = decide(state, "incendiary-bombardment")
    top = state["pending"][-1]
    assert set(top["options"]) == {*SQUADS, "done"}  # only enemy units more than 12" away
    with pytest.raises(Refusal):
        decide(state, CADIANS)
    state, _ = decide(state, SQUAD_1)
    state, _ = decide(state, "done")
    assert ("cover", "deny", None, ()) in granted(state, CADIANS, SQUAD_1)
    assert ("cover", "deny", None, ()) not in granted(state, CADIANS, SQUAD_2)


@pytest.mark.parametrize(
    ("edition", "stealth"),
    [
        ("11e", ("cover", "grant", None, (("weapon_type", "ranged"),))),  # 11e 24.33
        ("10e", ("hit", "add", -1, (("weapon_type", "ranged"),))),  # 10e Stealth (R-AM-09)
    ],
)
def test_artillery_support_siege_regiment_smoke_shells_give_stealth_until_the_round_ends(
    edition, stealth
):
    state = siege_game(edition)
    state, _ = decide(state, "smoke-shells")
    for unit in (CADIANS, CADIANS_2):
        state, _ = decide(state, unit)
    state, _ = decide(state, "done")
    assert stealth in granted(state, SQUAD_1, CADIANS)
    assert stealth in granted(state, SQUAD_1, CADIANS_2)
    effects = [e for e in state["effects"] if e["source"] == "smoke-shells"]
    assert {e["duration"] for e in effects} == {"end_of_battle_round"}


def test_artillery_support_only_for_the_siege_regiment():
    state = am_game(detachment="grizzled-company")
    assert state["phase"] == "command"
    assert not any(e["source"] in ("smoke-shells", "creeping-barrage") for e in state["effects"])
