"""What the attack's setting keeps instead of reading the state again, compared with reading it
again over the recorded self-played games of both editions (`tests/compat_games.py`), stratagem
windows included:

- the setting carried from one step of the attack sequence to the next
  (`attacks.in_game._setting`): where a step hands what it read from the state (the target's
  profile, the attacker, the attack context) to the step it calls, nothing between them changed
  the state; a step after a window (a stratagem may have been used in it) reads it again;
- which of a target's models are within a terrain area (the first condition of cover), kept with
  the position (`phases.shooting_targets._in_areas`);
- the attack context of the Shooting phase's target checks, without the rules' modifiers where
  `check_weapon_may_attack` reads none (`shooting_targets._context_for_the_check`);
- a game's `Battlefield` and `Edition` when its state is read again (new dicts of the same
  value): found by value (`battlefield.placement.battlefield_of`, `edition_of`)."""

import json

import pytest

from rules.engine.attacks import in_game
from rules.engine.attacks.inputs import attack_context
from rules.engine.attacks.profiles import Attacker, TargetUnit, WeaponProfile
from rules.engine.attacks.sequence import check_weapon_may_attack
from rules.engine.battlefield.board import Battlefield
from rules.engine.battlefield.placement import battlefield_of, edition_of, position_settled
from rules.engine.battlefield.visibility import models_in_areas
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import on_battlefield, unit_keywords, units_of
from rules.engine.phases import shooting_targets
from rules.engine.sequence.game import new_game
from tests.compat_games import load, replay_game, replayed_states

RECORDED = load()


@pytest.fixture
def carried_reads(monkeypatch):
    """Each read a step was handed, with what the state gives when read again at that step."""
    seen: list[tuple[object, object]] = []
    setting = in_game._setting

    def checked(ctx, sequence, index, order=None, read=None):
        if read is not None:
            with position_settled(ctx.state):
                seen.append((read, in_game._read_setting(ctx.state, sequence, index)))
        return setting(ctx, sequence, index, order, read)

    monkeypatch.setattr(in_game, "_setting", checked)
    return seen


@pytest.mark.parametrize(
    "record", RECORDED["games"], ids=lambda r: f"{r['setup']}/game-{r['number']}"
)
def test_a_setting_carried_to_the_next_step_is_the_setting_read_again(record, carried_reads):
    replay_game(record, RECORDED["setups"][record["setup"]])
    for carried, read_again in carried_reads:
        assert carried == read_again


def test_the_recorded_games_carry_settings_between_steps(carried_reads):
    """The check above is not empty: the recorded games' attacks hand settings on."""
    for record in RECORDED["games"][:2]:
        replay_game(record, RECORDED["setups"][record["setup"]])
    assert len(carried_reads) > 50


@pytest.mark.parametrize("number", [0, 5, 9, 15], ids=lambda n: f"game-{n}")
def test_the_models_within_terrain_areas_kept_with_the_position_are_those_measured_again(number):
    asked = within = 0
    for _, state in replayed_states(RECORDED, number):
        for unit in state["units"].values():
            if not on_battlefield(unit):
                continue
            theirs = shooting_targets.unit_placements(state, unit)
            kept = shooting_targets._in_areas(state, unit, theirs)
            assert kept.tolist() == models_in_areas(battlefield_of(state), theirs).tolist()
            asked += 1
            within += int(kept.sum())
    assert asked > 100 and within > 0


def _geometry(battlefield: Battlefield) -> tuple:
    """What a battlefield is, by value."""
    return (
        battlefield.width,
        battlefield.depth,
        sorted((str(k), zone.wkb) for k, zone in battlefield.deployment_zones.items()),
        [(o.objective_id, o.x, o.y) for o in battlefield.objectives],
        [(p.index, p.kind, p.polygon.wkb, p.height, p.obscuring) for p in battlefield.terrain],
        [(i, f.category, f.polygon.wkb, f.height) for i, f in battlefield.features],
    )


@pytest.mark.parametrize("number", [0, 5, 9, 15], ids=lambda n: f"game-{n}")
def test_a_state_read_again_keeps_its_battlefield_and_edition(number):
    record = RECORDED["games"][number]
    state, _ = new_game(RECORDED["setups"][record["setup"]], record["seed"])
    read_again = json.loads(json.dumps(state))
    assert read_again["mission"] is not state["mission"]
    assert battlefield_of(read_again) is battlefield_of(state)
    assert edition_of(read_again) is edition_of(state)
    fresh = Battlefield.from_mission(read_again["mission"])
    assert _geometry(battlefield_of(read_again)) == _geometry(fresh)
    other = json.loads(json.dumps(state))
    other["mission"]["battlefield"] = {**other["mission"]["battlefield"], "width": 44.0}
    assert battlefield_of(other) is not battlefield_of(state)


def _weapon_check(state, unit, weapon, target, context) -> str | None:
    attacker = Attacker(WeaponProfile.from_dict(weapon), 1, frozenset(unit_keywords(state, unit)))
    try:
        check_weapon_may_attack(
            attacker, TargetUnit((), frozenset(unit_keywords(state, target))), context
        )
    except Refusal as refusal:
        return refusal.code
    return None


@pytest.mark.parametrize("number", [0, 5, 10, 15], ids=lambda n: f"game-{n}")
def test_a_target_check_without_the_rules_modifiers_refuses_what_it_refuses_with_them(number):
    asked, refused = 0, set()
    for _, state in replayed_states(RECORDED, number):
        if state["stage"] != "battle" or state["phase"] != "shooting":
            continue
        for unit in units_of(state, state["active_player"]):
            if not on_battlefield(unit):
                continue
            for target in units_of(state, 3 - state["active_player"]):
                if not on_battlefield(target):
                    continue
                checked = shooting_targets._context_for_the_check(state, unit, target["id"], None)
                full = attack_context(state, unit, target["id"], shooting=True)
                for weapon, _ in shooting_targets.carried_ranged(state, unit).values():
                    code = _weapon_check(state, unit, weapon, target, checked)
                    assert code == _weapon_check(state, unit, weapon, target, full)
                    asked += 1
                    refused.add(code)
    assert asked > 100 and len(refused) > 1
