"""Names players see (issue 15): two units of one datasheet are told apart everywhere, from the
muster on, and refusals name models and units, never their ids."""

from __future__ import annotations

import re

import pytest

from rules.engine.army.names import model_label
from rules.engine.core.refusals import Refusal
from rules.engine.sequence.game import apply, new_game
from tests.engine_world import SEED, formation, play, setup


def refused(state, action):
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    return refusal.value


def deploy(state, player, unit_id, x, y):
    unit = state["units"][unit_id]
    return {"type": "deploy", "player": player, "unit": unit_id, "positions": formation(unit, x, y)}


def test_two_units_of_one_datasheet_get_a_letter_each_and_keep_it():
    state, _ = new_game(setup("11e"), SEED)
    names = {unit_id: unit["name"] for unit_id, unit in state["units"].items()}
    assert names == {
        "p1-u1": "Strike Squad A",
        "p1-u2": "Strike Squad B",
        "p2-u1": "Cadian Shock Troops A",
        "p2-u2": "Cadian Shock Troops B",
    }
    # The datasheet's own name stays on the unit's parts.
    assert state["units"]["p2-u2"]["parts"][0]["name"] == "Cadian Shock Troops"


def test_models_are_labelled_by_their_composition_and_numbered_when_alike():
    state, _ = new_game(setup("11e"), SEED)
    labels = [model["label"] for model in state["units"]["p2-u1"]["models"]]
    assert labels[0] == "Shock Trooper Sergeant"
    assert labels[1:4] == ["Shock Trooper 1", "Shock Trooper 2", "Shock Trooper 3"]
    assert len(set(labels)) == len(labels)
    assert model_label(state, "p2-u1-m1") == "Cadian Shock Troops A: Shock Trooper Sergeant"


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_refusal_names_the_model_not_its_id(edition):
    state, _ = new_game(setup(edition), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    refusal = refused(state, deploy(state, 2, "p2-u1", 20.0, 32.3))
    assert refusal.message.startswith("Cadian Shock Troops A: Shock Trooper Sergeant ")
    assert not re.search(r"p[12]-u\d", refusal.message)


def test_a_model_named_as_its_unit_is_named_once():
    """A Chimera's one model is a Chimera: a refusal about it says "Chimera", not "Chimera:
    Chimera"."""
    state, _ = new_game(setup("11e"), SEED)
    unit = state["units"]["p2-u1"]
    unit["models"][0]["label"] = unit["name"]
    assert model_label(state, "p2-u1-m1") == unit["name"]
    assert model_label(state, "p2-u1-m2") == f"{unit['name']}: Shock Trooper 1"
