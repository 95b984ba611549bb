"""The attack's setting carried from one step of the attack sequence to the next
(`attacks.in_game._setting`): where a step hands what it read from the state (the target's
profile, the attacker, the attack context) to the step it calls, nothing between them changed the
state, so it is what reading the state again gives. Checked over every step of the recorded
self-played games of both editions (`tests/compat_games.py`), stratagem windows included; a step
after a window (a stratagem may have been used in it) reads the state again."""

import pytest

from rules.engine.attacks import in_game
from rules.engine.battlefield.placement import position_settled
from tests.compat_games import load, replay_game

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
