"""The missions data (docs/missions.md) and what players may see of the dice."""

import shapely

from rules.engine.core.state import public_state
from rules.engine.sequence.missions import default_mission, load_missions
from tests.engine_world import deployed_game

# Battlefield (width, depth) per battle size: docs/missions.md, rulings M-05.
BATTLEFIELDS = {"incursion": (60, 44), "strike-force": (60, 44), "onslaught": (90, 44)}


def test_every_battle_size_has_a_mission():
    assert {mission["battle_size"] for mission in load_missions()} == set(BATTLEFIELDS)


def test_every_mission_fits_its_battlefield_with_five_markers_and_symmetric_terrain():
    for mission in load_missions():
        width, depth = mission["battlefield"]["width"], mission["battlefield"]["depth"]
        assert (width, depth) == BATTLEFIELDS[mission["battle_size"]]
        board = shapely.box(0, 0, width, depth)
        zones = [shapely.Polygon(mission["deployment_zones"][p]) for p in ("1", "2")]
        assert all(board.covers(zone) for zone in zones)
        assert not zones[0].intersects(zones[1])
        assert len(mission["objective_markers"]) == 5
        assert all(
            board.contains(shapely.Point(m["x"], m["y"])) for m in mission["objective_markers"]
        )
        footprints = {shapely.Polygon(t["footprint"]).normalize().wkt for t in mission["terrain"]}
        mirrored = {
            shapely.Polygon([[width - x, depth - y] for x, y in t["footprint"]]).normalize().wkt
            for t in mission["terrain"]
        }
        assert footprints == mirrored
        assert all(t["height"] > 0 for t in mission["terrain"])


def test_the_default_mission_is_strike_force():
    assert default_mission()["battle_size"] == "strike-force"


def test_the_seed_is_secret_until_the_battle_ends_but_its_commitment_is_public():
    state, _ = deployed_game("11e")
    visible = public_state(state)
    assert "seed" not in visible["dice"] and visible["seed_commitment"]
    assert state["dice"]["seed"] not in str(visible)
