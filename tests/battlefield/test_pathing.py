"""The self-play agents' path generator finds moves that the battlefield accepts."""

import random

import pytest

from rules.engine.battlefield.measuring import engaged_units
from rules.engine.battlefield.movement import Move
from rules.engine.tools.pathing import random_move
from tests.battlefield.helpers import ELEVENTH, R32, TENTH, board, line, squad


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
@pytest.mark.parametrize("move_type", ["normal", "advance"])
def test_random_normal_and_advance_moves_are_legal(edition, move_type):
    unit = squad("a", 1, line(10, 10, 5))
    enemy = squad("e", 2, line(30, 30, 5))
    found = random_move(
        board(), edition, unit + enemy, Move(move_type, "a", movement=6, bonus=3), random.Random(1)
    )
    assert found is not None
    move, result = found
    assert move.paths and result.moved


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_random_charge_ends_engaged_with_its_target(edition):
    unit = squad("a", 1, line(10, 10, 5))
    target = squad("t", 2, line(16, 10, 5))
    template = Move("charge", "a", bonus=7, targets=frozenset({"t"}))
    found = random_move(board(), edition, unit + target, template, random.Random(2))
    assert found is not None
    assert ("a", "t") in engaged_units(found[1].placements, edition)


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_random_fall_back_and_pile_in(edition):
    unit = squad("a", 1, line(10, 10, 3))
    enemy = squad("e", 2, line(10 + 2 * R32 + 0.5, 10, 3))
    fall_back = random_move(
        board(), edition, unit + enemy, Move("fall_back", "a", movement=6), random.Random(3)
    )
    assert fall_back is not None
    assert engaged_units(fall_back[1].placements, edition) == set()
    pile_in = random_move(
        board(),
        edition,
        unit + enemy,
        Move("pile_in", "a", targets=frozenset({"e"})),
        random.Random(4),
    )
    assert pile_in is not None


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_random_consolidation_onto_an_objective(edition):
    unit = squad("a", 1, line(10, 10, 3))
    bf = board(objectives=[{"id": "o", "x": 10, "y": 16}])
    found = random_move(
        bf, edition, unit, Move("consolidate", "a", objective_id="o"), random.Random(5)
    )
    assert found is not None and found[1].mode in ("objective", "objective_10e")
