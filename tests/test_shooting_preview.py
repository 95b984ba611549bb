"""The damage preview in the shoot panel (issue 15): the engine's own attack code on the game's
state, for the assignments a player is about to send; and why an enemy unit is not a target."""

from __future__ import annotations

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.phases.attack_preview import fight_preview, shooting_preview, unavailable_targets
from tests.engine_world import deployed_game, end_phase, kill, place_unit

SQUAD = "p1-u2"  # Strike Squad: storm bolters ([RAPID FIRE 2])
CADIANS = "p2-u1"
OTHER_CADIANS = "p2-u2"


def shooting(edition):
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 46.0, 1.0)
    while state["phase"] != "shooting":
        state, _ = end_phase(state)
    return state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_half_range_doubles_up_the_expected_damage_of_rapid_fire(edition):
    """[RAPID FIRE 2] (11e 24.30): at half range five storm bolters roll 20 attack dice, not 10,
    so the preview expects about twice the damage; its distribution sums to one."""
    state = shooting(edition)
    shot = [{"weapon": "Storm bolter", "target": CADIANS}]
    place_unit(state, CADIANS, 46.0, 11.0)  # 9": within half range
    near = shooting_preview(state, SQUAD, shot)["targets"][CADIANS]
    place_unit(state, CADIANS, 46.0, 20.0)  # 18": out of half range
    far = shooting_preview(state, SQUAD, shot)["targets"][CADIANS]
    assert near["damage"]["mean"] == pytest.approx(2 * far["damage"]["mean"], rel=0.15)
    assert sum(near["models_destroyed"]["distribution"]) == pytest.approx(1.0)
    assert near["models"] == 10


def test_a_shot_the_engine_would_refuse_is_refused_by_the_preview_too():
    state = shooting("11e")
    place_unit(state, CADIANS, 46.0, 40.0)  # 39": out of range
    with pytest.raises(Refusal) as refusal:
        shooting_preview(state, SQUAD, [{"weapon": "Storm bolter", "target": CADIANS}])
    assert refusal.value.code == "out_of_range"


def test_each_enemy_unit_out_of_reach_comes_with_the_reason_why_not():
    state = shooting("11e")
    place_unit(state, CADIANS, 46.0, 11.0)
    place_unit(state, OTHER_CADIANS, 10.0, 40.0)
    reasons = unavailable_targets(state, SQUAD)
    assert CADIANS not in reasons
    assert reasons[OTHER_CADIANS].startswith('Cadian Shock Troops B is not within 24"')


def test_the_fight_preview_attacks_the_unit_the_fighter_is_engaged_with():
    """11e 12.05: the Grey Knight left in the Strike Squad attacks the Cadians it is engaged with
    (its default melee weapons); at the unengaged second unit it makes no attack."""
    state, _ = deployed_game("11e")
    kill(state, SQUAD, 4)
    place_unit(state, CADIANS, 46.0, 20.0)
    place_unit(state, SQUAD, 46.0, 21.6 + 0.5 + 0.49 + 0.63)
    while state["phase"] != "fight":
        state, _ = end_phase(state)
    preview = fight_preview(state, SQUAD)
    assert set(preview["targets"]) == {CADIANS}
    assert preview["targets"][CADIANS]["damage"]["mean"] > 0
    assert all(group["target"] == CADIANS for group in preview["groups"])
