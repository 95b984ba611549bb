"""Rules as printed (issue 14): one scenario per rule an audit found misread, each set up from a
position (`tests/position_world.py`), with the dice scripted where they matter, citing the
section (11e) or heading (10e) and the seed line the rule is printed on."""

from __future__ import annotations

import pytest

from rules.engine.game import legal_actions
from rules.engine.refusals import Refusal
from tests.engine_world import play
from tests.position_world import CADIANS, SQUAD, position_game

# --- 11e 10.04-10.05 Normal and assault shooting; 10e Assault (defect 3, rulings R-CB-03) -----


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_that_advanced_shoots_only_with_assault_weapons(edition):
    """11e 10.04 "Normal shooting. Eligible if: ... did not make an advance move this turn";
    10.05 assault shooting needs [ASSAULT] weapons. 10e Assault: the same. The Strike Squad
    advanced and its storm bolters have no [ASSAULT]: it cannot shoot."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 20], "flags": ["advanced"]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
    )
    assert SQUAD not in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}
    with pytest.raises(Refusal) as refused:
        play(
            state,
            {
                "type": "shoot",
                "player": 1,
                "unit": SQUAD,
                "assignments": [{"weapon": "Storm bolter", "target": CADIANS}],
            },
        )
    assert refused.value.code == "advanced"
    assert refused.value.rule == {"11e": "10.05", "10e": "Assault"}[edition]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_that_did_not_advance_shoots_normally(edition):
    """11e 10.04 normal shooting; 10e Shooting phase: the same unit, not advanced, may shoot."""
    state = position_game(
        edition, {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 30]}}, phase="shooting"
    )
    assert SQUAD in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}
