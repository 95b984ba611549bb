"""Shared set-up for the battlefield scenario tests: editions, boards and squads of models."""

from __future__ import annotations

from rules.engine.battlefield.board import Battlefield, Placement
from rules.engine.core.editions import Edition
from tests.editions import edition_for

ROUND_32 = {"shape": "round", "diameter_mm": 32}
R32 = 32 / 25.4 / 2  # radius of a 32 mm base in inches


def edition(slug: str) -> Edition:
    return edition_for(slug)


ELEVENTH = edition("11e")
TENTH = edition("10e")


def board(terrain=(), objectives=(), zones=None) -> Battlefield:
    return Battlefield.from_dict(
        {
            "width": 44,
            "depth": 60,
            "terrain": list(terrain),
            "objectives": list(objectives),
            "deployment_zones": zones or {},
        }
    )


def squad(unit, player, points, base=ROUND_32, keywords=("INFANTRY",), first_id=None):
    """Models of one unit at the given centres, with ids `<unit>-<n>`."""
    return [
        Placement(f"{unit}-{n}", unit, player, x, y, 0, base, frozenset(keywords))
        for n, (x, y) in enumerate(points)
    ]


def line(x, y, count, spacing=1.5):
    """Centres of a line of models along +y (32 mm bases 1.5" apart touch at 0.24")."""
    return [(x, y + n * spacing) for n in range(count)]
