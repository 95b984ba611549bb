"""Grey Knights, Warpbane Task Force: Hallowed Ground (seed 004 L496-502) and its stratagems
Sanctified Kill Zone, Aegis Eternal and Repelling Sphere (seed 004 L512-538)."""

import json

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.attacks.inputs import target_profile
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.saved_games import upgrade
from rules.engine.core.state import state_hash
from rules.engine.factions.grey_knights.hallowed_ground import unit_wholly_within
from tests.engine_world import play, shoot_at
from tests.stratagem_world import (
    CADIANS,
    LED_SQUAD,
    SQUAD,
    choose,
    offered,
    place_unit,
    stratagem_game,
    to_phase,
    use,
    window,
)
from tests.test_stratagems_detachments import refused

WARPBANE = {1: "warpbane-task-force"}


def test_hallowed_ground_is_the_own_zone_and_no_mans_land_when_holding_half_its_markers():
    state = stratagem_game("11e", WARPBANE)
    place_unit(state, SQUAD, 10.0, 2.0)  # own deployment zone
    place_unit(state, LED_SQUAD, 28.0, 21.0)  # No Man's Land, on o1
    assert unit_wholly_within(state, 1, state["units"][SQUAD])
    assert not unit_wholly_within(state, 1, state["units"][LED_SQUAD])
    place_unit(state, SQUAD, 8.0, 23.0)  # on o2: now 2 of the 3 No Man's Land markers
    state = to_phase(state, 1, "movement")  # control is determined at the end of the phase
    state = to_phase(state, 1, "shooting")
    assert state["facts"]["phase"]["hallowed_ground"]["1"] == ["no_mans_land"]
    assert unit_wholly_within(state, 1, state["units"][LED_SQUAD])


def test_sanctified_kill_zone_re_rolls_wound_rolls_of_1_for_a_unit_in_hallowed_ground():
    state = stratagem_game("11e", WARPBANE)
    state["players"]["1"]["cp"] = 3
    place_unit(state, SQUAD, 10.0, 2.0)
    place_unit(state, LED_SQUAD, 30.0, 18.0)
    state = to_phase(state, 1, "shooting")
    assert refused(state, 1, "sanctified-kill-zone", LED_SQUAD) == "invalid_stratagem_target"
    state, _ = use(state, 1, "sanctified-kill-zone", SQUAD)
    assert {(m.step, m.kind, m.value) for m in attack_modifiers(state, SQUAD, CADIANS)} == {
        ("wound", "reroll", "ones")
    }


def shot_in_own_zone(edition="11e"):
    state = stratagem_game(edition, WARPBANE, first=2)
    state["players"]["1"]["cp"] = 3
    place_unit(state, SQUAD, 10.0, 2.0)
    place_unit(state, LED_SQUAD, 40.0, 2.0)
    place_unit(state, CADIANS, 10.0, 20.0)
    state = to_phase(state, 2, "shooting")
    state, _ = play(state, shoot_at(state, 2, CADIANS, [SQUAD]))
    return state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_aegis_eternal_gives_a_4_plus_invulnerable_save_while_in_hallowed_ground(edition):
    """Aegis Eternal [004 L521-529]: "models in your unit that are wholly within your Hallowed
    Ground have a 4+ invulnerable save" (issue 14 defect 18): model by model, in both editions."""
    state = shot_in_own_zone(edition)
    # Not the unit nobody shot at (10e also offers its core Go to Ground).
    assert offered(state) - {("go-to-ground-10e", SQUAD)} == {("aegis-eternal", SQUAD)}
    state, _ = choose(state, "aegis-eternal", SQUAD)
    profile, _ = target_profile(state, state["units"][SQUAD])
    assert {m.invulnerable for m in profile.models} == {4}
    place_unit(state, SQUAD, 10.0, 14.0)  # out of the deployment zone
    profile, _ = target_profile(state, state["units"][SQUAD])
    assert 4 not in {m.invulnerable for m in profile.models}
    # Model by model (rulings R-ST-20): one model back in the deployment zone has it.
    first = state["units"][SQUAD]["models"][0]
    first["y"] = 2.0
    profile, models = target_profile(state, state["units"][SQUAD])
    saves = {m["id"]: p.invulnerable for m, p in zip(models, profile.models, strict=True)}
    assert saves[first["id"]] == 4 and list(saves.values()).count(4) == 1


def sphere_raised(squad_y):
    """Player 2's Charge phase starts with the Cadians 11" from the Strike Squad, which stands
    in Hallowed Ground (y 2) or out of it (y 16); player 1 answers with Repelling Sphere."""
    state = stratagem_game("11e", WARPBANE, first=2)
    state["players"]["1"]["cp"] = 3
    place_unit(state, SQUAD, 10.0, squad_y)
    place_unit(state, LED_SQUAD, 45.0, 2.0)
    place_unit(state, CADIANS, 10.0, squad_y + 11.0)
    state = to_phase(state, 2, "shooting")
    state, _ = play(state, {"type": "end_phase", "player": 2})  # start of player 2's Charge
    assert window(state)["player"] == 1
    state, _ = choose(state, "repelling-sphere", SQUAD)
    return state


def charge_declared(state):
    state, events = play(
        state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [SQUAD]}
    )
    (roll,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    return state, roll


def charge_against(squad_y):
    return charge_declared(sphere_raised(squad_y))[1]


def test_repelling_sphere_subtracts_2_in_hallowed_ground_and_1_elsewhere():
    assert charge_against(2.0)["modifier"] == -2
    assert charge_against(16.0)["modifier"] == -1


def test_repelling_sphere_is_not_offered_at_the_start_of_the_own_charge_phase():
    state = stratagem_game("11e", WARPBANE)
    state["players"]["1"]["cp"] = 3
    state = to_phase(state, 1, "shooting")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    assert window(state) is None  # only at the start of the opponent's Charge phase


# --- Games saved before the effect vocabulary named areas as data (issue 13) -------------------


def test_a_repelling_sphere_saved_with_the_old_word_charges_as_it_does_now():
    """Repelling Sphere [004 L530-538] saved as `in_hallowed_ground: -2` (the Grey Knights word
    the core vocabulary held before) loads as `in_area: {hallowed_ground: -2}` and the charge
    that follows has the same roll, modifier and state."""
    for squad_y, modifier in ((2.0, -2), (16.0, -1)):
        state = sphere_raised(squad_y)
        (sphere,) = [e for e in state["effects"] if e["source"] == "repelling-sphere"]
        assert sphere["modifier"] == {
            "charge_roll_when_targeted": -1,
            "in_area": {"hallowed_ground": -2},
        }
        saved = json.loads(json.dumps(state))
        (old,) = [e for e in saved["effects"] if e["source"] == "repelling-sphere"]
        old["modifier"] = {"charge_roll_when_targeted": -1, "in_hallowed_ground": -2}
        now, roll_now = charge_declared(state)
        loaded, roll_loaded = charge_declared(saved)
        assert roll_now["modifier"] == roll_loaded["modifier"] == modifier
        assert state_hash(loaded) == state_hash(now)


def test_an_aegis_eternal_saved_with_the_old_only_if_word_reads_the_area_by_name():
    """The first Aegis Eternal (rulings R-ST-20) saved an attack modifier with `only_if:
    {target_in_hallowed_ground: true}`; it loads as `target_in_area: hallowed_ground`, so it
    still holds only while the target is wholly within its Hallowed Ground."""
    state = stratagem_game("11e", WARPBANE, first=2)
    place_unit(state, SQUAD, 10.0, 2.0)
    place_unit(state, CADIANS, 10.0, 20.0)
    state = to_phase(state, 2, "shooting")
    state["effects"].append(
        {
            "id": "e999",
            "source": "aegis-eternal",
            "selector": {"unit": SQUAD},
            "modifier": {
                "attack": {"step": "hit", "kind": "add", "value": -1, "condition": {}},
                "as": "defender",
                "against": None,
                "only_if": {"target_in_hallowed_ground": True},
            },
            "duration": "end_of_phase",
            "started_at": {"battle_round": 1, "active_player": 2, "phase": "shooting", "player": 1},
        }
    )
    loaded = upgrade(json.loads(json.dumps(state)))
    (aegis,) = [e for e in loaded["effects"] if e["id"] == "e999"]
    assert aegis["modifier"]["only_if"] == {"target_in_area": "hallowed_ground"}
    assert [m.source for m in attack_modifiers(loaded, CADIANS, SQUAD)] == ["aegis-eternal"]
    place_unit(loaded, SQUAD, 10.0, 14.0)  # out of the deployment zone
    assert attack_modifiers(loaded, CADIANS, SQUAD) == ()


def test_the_old_words_are_read_only_from_saved_games_never_in_a_new_effect():
    """The core vocabulary no longer has the Grey Knights word: an effect created with it fails
    at once (an effect whose modifier no rule reads fails when it is created)."""
    state = stratagem_game("11e", WARPBANE)
    with pytest.raises(ValueError, match="in_hallowed_ground"):
        add_effect(
            Context(state),
            "repelling-sphere",
            {"unit": SQUAD},
            {"charge_roll_when_targeted": -1, "in_hallowed_ground": -2},
            "end_of_phase",
            1,
        )
