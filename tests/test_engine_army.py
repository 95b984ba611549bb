"""Mustering armies from army lists (Muster Armies; 11e 19.01 attached units; 10e Leader)."""

import pytest

from rules.engine.attacks.casualties import destroy_model
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state
from rules.engine.sequence.game import new_game
from tests.engine_world import SEED, army, default_armies, deployed_game, entry, setup


def muster(edition, first_army):
    armies = default_armies()
    armies["1"] = first_army
    return new_game(setup(edition, armies), SEED)


def refused(edition, first_army):
    with pytest.raises(Refusal) as refusal:
        muster(edition, first_army)
    return refusal.value


def test_an_attached_unit_is_one_unit_with_a_part_per_datasheet():
    state, _ = muster("11e", default_armies()["1"])
    led = state["units"]["p1-u1"]
    assert [(p["datasheet"], p["role"]) for p in led["parts"]] == [
        ("strike-squad", "bodyguard"),
        ("inquisitor", "leader"),
    ]
    assert len(led["models"]) == 6 and led["warlord"]
    assert "CHARACTER" in led["keywords"] and "Sanctifying Ritual" in led["abilities"]


def test_a_leader_can_only_lead_the_units_its_datasheet_lists():
    listing = army(
        entry("dr", "death-rider-commissar", 1, attached_to="ss", role="leader", warlord=True),
        entry("ss", "strike-squad", 5),
    )
    assert refused("10e", listing).code == "invalid_attachment"


def test_a_bodyguard_takes_one_leader():
    listing = army(
        entry("ss", "strike-squad", 5),
        entry("a", "inquisitor", 1, attached_to="ss", role="leader", warlord=True),
        entry("b", "inquisitor", 1, attached_to="ss", role="leader"),
    )
    assert "already has a leader" in refused("11e", listing).message


def test_support_units_exist_in_11e_only():
    listing = army(
        entry("ss", "strike-squad", 5, warlord=True),
        entry("a", "inquisitor", 1, attached_to="ss", role="support"),
    )
    assert refused("10e", listing).code == "support_not_in_edition"
    state, _ = muster("11e", listing)
    assert state["units"]["p1-u1"]["parts"][1]["role"] == "support"


def test_unit_sizes_and_the_warlord_are_checked():
    assert refused("11e", army(entry("ss", "strike-squad", 7, warlord=True))).code == (
        "invalid_unit_size"
    )
    assert refused("11e", army(entry("ss", "strike-squad", 5))).code == "one_warlord"
    state, _ = muster("11e", army(entry("cad", "cadian-shock-troops", 20, warlord=True)))
    names = [m["name"] for m in state["units"]["p1-u1"]["models"]]
    assert names.count("Shock Trooper Sergeant") == 2 and len(names) == 20


@pytest.mark.parametrize(("edition", "triggers"), [("10e", True), ("11e", False)])
def test_destroying_one_part_of_an_attached_unit_is_a_destruction_in_10e_only(edition, triggers):
    """10e Attached Units: "destroyed" rules trigger per part; 11e 19.02: only the last model."""
    state, _ = deployed_game(edition)
    ctx = Context(copy_state(state))
    unit = ctx.state["units"]["p1-u1"]
    for model in [m for m in alive_models(unit) if m["part"] == 0]:
        destroy_model(ctx, unit, model, "test")
    types = [e["type"] for e in ctx.events]
    assert ("unit_part_destroyed" in types) is triggers
    assert "unit_destroyed" not in types
