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


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_the_preview_builds_the_attack_context_the_game_uses(edition, monkeypatch):
    """The preview runs the game's attack steps on the game's context (`in_game.group_context`):
    with five of ten Cadians in a ruin, 10e Benefit of Cover is per model (R-WG-07), so both the
    preview and the game give exactly those five +1 to their armour saves; 11e 13.08 gives the
    unit no cover (not every model has it), in both. The phase (`shooting`) is the game's too."""
    from rules.engine.attacks import in_game
    from rules.engine.phases import attack_preview
    from tests.engine_world import play, script_dice
    from tests.test_engine_shooting import half_in_a_ruin, shoot

    state = half_in_a_ruin(edition)
    seen: dict[str, object] = {}
    preview_resolve = attack_preview.resolve_weapon_attacks
    game_save_step = in_game.save_step

    def previewed(dice, trials, attacker, profile, context, carried):
        seen["preview"] = context
        return preview_resolve(dice, trials, attacker, profile, context, carried)

    def played(dice, wounds, unit_state, attacker, profile, context, *rest):
        seen["game"] = context
        return game_save_step(dice, wounds, unit_state, attacker, profile, context, *rest)

    monkeypatch.setattr(attack_preview, "resolve_weapon_attacks", previewed)
    monkeypatch.setattr(in_game, "save_step", played)
    shooting_preview(state, SQUAD, [{"weapon": "Storm bolter", "target": CADIANS}], trials=10)
    script_dice(state, [5, 2, 1, 1, 5, 4])  # one hit, one wound, one save roll
    play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert seen["preview"] == seen["game"]
    in_ruin = (True,) * 5 + (False,) * 5
    assert seen["preview"].cover_models == (in_ruin if edition == "10e" else None)
    assert seen["preview"].shooting_phase is True
