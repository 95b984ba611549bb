"""Death Rider Commissar's Leader: other Leaders (seed 003 L1-28): "You can attach this model to
the above unit even if one DEATH RIDER SQUADRON COMMANDER, LORD MARSHAL DREIR or LORD SOLAR
LEONTUS model has already been attached to it. If you do, and that Bodyguard unit is destroyed,
the Leader units attached to it become separate units, with their original Starting Strengths."

The datasheets of the Leaders it names are not in the rules data: these tests build a stand-in
Death Rider Squadron Commander in the test (the Commissar's datasheet with the DEATH RIDER
SQUADRON COMMANDER keyword in place of its own and without Leader: other Leaders). Rulings
R-AM-14.
"""

from __future__ import annotations

import copy

import pytest

from rules.engine.army.attached_units import may_join, other_leaders
from rules.engine.army.list_checks import check_army
from rules.engine.army.unit_strength import starting_strength
from rules.engine.attacks.casualties import destroy_model, lose_wounds
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state
from tests.engine_world import entry
from tests.orders_world import AM_PUBLISHED, AM_SEED, RIDERS, am_game

COMMISSAR = next(s for s in AM_SEED["datasheets"] if s["slug"] == "death-rider-commissar")


def stand_in_commander() -> dict:
    """A stand-in DEATH RIDER SQUADRON COMMANDER (its datasheet is not in the rules data)."""
    sheet = copy.deepcopy(COMMISSAR)
    sheet["slug"] = "death-rider-squadron-commander"
    sheet["name"] = "Death Rider Squadron Commander"
    sheet["keywords"] = [k for k in sheet["keywords"] if k != "DEATH RIDER COMMISSAR"] + [
        "DEATH RIDER SQUADRON COMMANDER"
    ]
    sheet["abilities"] = [a for a in sheet["abilities"] if a["name"] != "Leader: other Leaders"]
    sheet["models"][0]["name"] = sheet["name"]
    return sheet


COMMANDER = stand_in_commander()


def commander_entry(key: str = "commander", bodyguard: str = "riders") -> dict:
    return entry(key, COMMANDER["slug"], 1, attached_to=bodyguard, role="leader")


def bundle(*extra: dict) -> dict:
    data = {kind: AM_SEED.get(kind, []) + AM_PUBLISHED.get(kind, []) for kind in AM_SEED}
    data["datasheets"] = data["datasheets"] + list(extra)
    return data


def army_list(*leaders: dict) -> dict:
    return {
        "name": "Riders",
        "faction": "astra-militarum",
        "detachment": "combined-arms",
        "units": [
            entry("riders", "death-riders", 5),
            entry(
                "commissar",
                "death-rider-commissar",
                1,
                attached_to="riders",
                role="leader",
                warlord=True,
            ),
            *leaders,
        ],
    }


def attachment_codes(army: dict, *extra: dict) -> list[str]:
    report = check_army(army, "strike-force", bundle(*extra), support_units=True)
    return [p["code"] for p in report.problems]


def test_leader_other_leaders_names_the_leaders_it_may_join():
    assert other_leaders(COMMISSAR) == {
        "DEATH RIDER SQUADRON COMMANDER",
        "LORD MARSHAL DREIR",
        "LORD SOLAR LEONTUS",
    }
    assert other_leaders(COMMANDER) == set()
    assert may_join(COMMISSAR, [COMMANDER]) and may_join(COMMANDER, [COMMISSAR])
    assert not may_join(COMMISSAR, [COMMISSAR])  # only the Leaders it names
    assert not may_join(COMMISSAR, [COMMANDER, COMMANDER])  # one of them, not more
    assert not may_join(COMMISSAR, [COMMANDER], "support")


def test_leader_other_leaders_army_check_allows_the_commissar_beside_a_named_leader():
    assert attachment_codes(army_list(commander_entry()), COMMANDER) == []
    # Without the permission, one Leader per Bodyguard unit (19.01).
    second_commissar = entry(
        "commissar2", "death-rider-commissar", 1, attached_to="riders", role="leader"
    )
    assert attachment_codes(army_list(second_commissar)) == ["bodyguard_taken"]
    # "one ... model has already been attached": not a third Leader.
    both = army_list(commander_entry(), commander_entry("commander2"))
    assert attachment_codes(both, COMMANDER) == ["bodyguard_taken"]


def riders_game(edition: str = "11e"):
    """Player 2's Command phase of battle round 1 (Starting Strengths recorded): the Death
    Riders led by the Commissar and the stand-in Squadron Commander."""
    return am_game(
        edition=edition, extra_entries=(commander_entry(),), extra_datasheets=(COMMANDER,)
    )


def test_leader_other_leaders_muster_attaches_both_leaders():
    state = riders_game()
    riders = state["units"][RIDERS]
    assert [p["datasheet"] for p in riders["parts"]] == [
        "death-riders",
        "death-rider-commissar",
        COMMANDER["slug"],
    ]
    assert len(riders["models"]) == 7 and starting_strength(state, riders) == 7
    with pytest.raises(Refusal):  # muster refuses a third Leader as the army check does
        am_game(
            extra_entries=(commander_entry(), commander_entry("commander2")),
            extra_datasheets=(COMMANDER,),
        )


@pytest.mark.parametrize("part_destruction_triggers", [False, True])
def test_leader_other_leaders_become_separate_units_when_the_bodyguard_is_destroyed(
    part_destruction_triggers,
):
    """In either edition's way of counting a destroyed part of an attached unit (10e: a
    "destroyed" trigger, 11e 19.02: not; set here on the 11e game, whose set-up keeps the seven
    riders coherent), the Bodyguard unit is destroyed once and the Leaders go their own ways."""
    state = riders_game()
    state["edition"]["attached_part_destruction_triggers"] = part_destruction_triggers
    ctx = Context(copy_state(state))
    riders = ctx.state["units"][RIDERS]
    bodyguard = [m for m in riders["models"] if m["part"] == 0]
    for model in bodyguard[:-1]:
        destroy_model(ctx, riders, model, "test")
    assert len(ctx.state["units"]) == len(state["units"])  # not yet: one rider is left
    destroy_model(ctx, riders, bodyguard[-1], "test")
    split = next(e for e in ctx.events if e["type"] == "leaders_became_separate_units")
    assert split["unit"] == RIDERS and len(split["units"]) == 2
    destroyed = [e["unit"] for e in ctx.events if e["type"] == "unit_destroyed"]
    assert destroyed == [RIDERS]
    assert not [e for e in ctx.events if e["type"] == "unit_part_destroyed"]
    assert riders["location"] == "destroyed" and riders["models"] == bodyguard
    commissar, commander = (ctx.state["units"][u] for u in split["units"])
    assert commissar["datasheet"] == "death-rider-commissar"
    assert commander["datasheet"] == COMMANDER["slug"]
    for unit in (commissar, commander):
        assert unit["location"] == "battlefield" and len(alive_models(unit)) == 1
        assert [p["role"] for p in unit["parts"]] == ["bodyguard"]
        assert unit["starting_strength"] == 1 == starting_strength(ctx.state, unit)
    assert not commissar["warlord"] and not commander["warlord"]  # the Castellan is
    assert "OFFICER" in commissar["keywords"]
    # Wounds still being applied to a Leader through the attached unit reach its own unit.
    lose_wounds(ctx, riders, commander["models"][0], 99, "test")
    assert commander["location"] == "destroyed"
    assert ctx.events[-1] == {
        **ctx.events[-1],
        "type": "unit_destroyed",
        "unit": commander["id"],
    }


def test_leader_other_leaders_do_not_split_a_unit_led_by_one_leader():
    """With the Commissar alone, the Death Riders' destruction leaves the attached unit as it is
    (11e 19.02; 10e Attached Units)."""
    state = am_game()
    ctx = Context(copy_state(state))
    riders = ctx.state["units"][RIDERS]
    for model in [m for m in riders["models"] if m["part"] == 0]:
        destroy_model(ctx, riders, model, "test")
    assert set(ctx.state["units"]) == set(state["units"])
    assert riders["location"] == "battlefield" and len(alive_models(riders)) == 1
