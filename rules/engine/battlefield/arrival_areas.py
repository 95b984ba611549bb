"""Where an arriving unit may be set up, as areas the table draws before the player drops it
(issue 15), for every way it may arrive: for an ingress move the band within the edge distance of
a battlefield edge (less the opponent's deployment zone before the battle round the edition
allows it), with the edition's reserves enemy distance; for Deep Strike the whole battlefield,
with the edition's Deep Strike distance; for a rule's own way to set a unit up "anywhere more
than d" from all enemy models" (`standing_rules.ARRIVAL_METHODS`) the whole battlefield, with
that rule's d, cut to the area the rule allows where it names one
(`standing_rules.ARRIVAL_ALLOWED_AREAS`); and, when a rule lets the unit be set up anywhere more
than d" away whatever way it arrives (a stratagem arrival's `set_up_more_than_from_enemies`), the
whole battlefield with that d for each way. Each keeps out the area within its distance of each
enemy model, where no part of a base may be. The checks themselves stay in `setting_up`; these
are the same figures drawn."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import shapely

from rules.engine.battlefield.board import Base, Battlefield, base_polygon
from rules.engine.battlefield.placement import (
    battlefield_of,
    edition_of,
    measured_here,
)
from rules.engine.core.kept import Kept
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import ARRIVAL_ALLOWED_AREAS, ARRIVAL_METHODS
from rules.engine.core.state import State, alive_models, on_battlefield

# The allowed area of a way to arrive: the ingress band, or the whole battlefield.
INGRESS_BAND, WHOLE_BATTLEFIELD = "ingress", "battlefield"


def _rings(geometry: shapely.Geometry) -> list[list[list[list[float]]]]:
    """Each polygon of a (multi)polygon as its rings (the outline, then its holes) of [x, y],
    rounded for the page."""
    polygons = getattr(geometry, "geoms", [geometry])

    def ring(coords) -> list[list[float]]:
        return [[round(x, 2), round(y, 2)] for x, y in coords]

    return [
        [ring(polygon.exterior.coords), *(ring(hole.coords) for hole in polygon.interiors)]
        for polygon in polygons
        if not polygon.is_empty and polygon.geom_type == "Polygon"
    ]


def arrival_areas(
    state: State, unit: Unit, methods: list[str], anywhere_more_than: float | None = None
) -> dict[str, Any]:
    """{method: {"allowed": [polygon, ...], "keep_out": [polygon, ...], "enemy_distance": inches}}
    for each of `methods` the engine knows (ingress, Deep Strike, `ARRIVAL_METHODS`); with
    `anywhere_more_than`, each method's area is the whole battlefield with that distance (the
    rule that allows it replaces the method's own place and distance). A polygon is its rings
    (outline and holes)."""
    ways = tuple(
        (method, *way)
        for method in methods
        for way in [_way(state, method, anywhere_more_than)]
        if way is not None
    )
    # The areas depend only on where the enemy models stand, the player, the battle round and
    # each way's area and distance; the Movement phase's legal actions ask them of every unit in
    # reserves, and the union of buffered bases is the costly part. Kept with the position (the
    # page only reads them), and the union with where the enemy models stand (`_keep_out`).
    measured = measured_here(state)
    key = ("arrival_areas", unit["player"], state["battle_round"], ways)
    found = measured.get(key)
    if found is None:
        found = measured[key] = _arrival_areas(state, unit["player"], ways)
    found = dict(found)
    for method in found:
        if method in ARRIVAL_ALLOWED_AREAS:
            # The area a rule allows depends on more than where the models stand (Hallowed
            # Ground's areas of the phase): cut each time it is asked, never kept.
            allowed = ARRIVAL_ALLOWED_AREAS[method](state, unit["player"])
            area = battlefield_of(state).area.intersection(allowed)
            found[method] = {**found[method], "allowed": _rings(area)}
    return found


def _way(state: State, method: str, anywhere_more_than: float | None) -> tuple[str, float] | None:
    """(the allowed area, the enemy distance) of a way to arrive; None for one not known."""
    edition = edition_of(state)
    if method == "ingress":
        way = (INGRESS_BAND, edition.reserves_enemy_distance)
    elif method == "deep_strike":
        way = (WHOLE_BATTLEFIELD, edition.deep_strike_enemy_distance)
    elif method in ARRIVAL_METHODS:
        way = (WHOLE_BATTLEFIELD, ARRIVAL_METHODS[method][0])
    else:
        return None
    return way if anywhere_more_than is None else (WHOLE_BATTLEFIELD, anywhere_more_than)


def _arrival_areas(
    state: State, player: int, ways: tuple[tuple[str, str, float], ...]
) -> dict[str, Any]:
    battlefield = battlefield_of(state)
    edition = edition_of(state)
    enemy_units = [
        other
        for other in state["units"].values()
        if other["player"] != player and on_battlefield(other)
    ]
    enemies = [model for other in enemy_units for model in alive_models(other)]
    found: dict[str, Any] = {}
    keep_outs: dict[float, Any] = {}  # the methods' enemy distances are often the same
    for method, area, distance in ways:
        if area == INGRESS_BAND:
            allowed = battlefield.area.difference(
                battlefield.area.buffer(-edition.reserves_edge_distance, join_style="mitre")
            )
            zone = battlefield.deployment_zone(3 - player)
            if (
                zone is not None
                and state["battle_round"] < edition.reserves_opponent_zone_from_round
            ):
                allowed = allowed.difference(zone)
        else:
            allowed = battlefield.area
        if distance not in keep_outs:
            keep_outs[distance] = _keep_out(battlefield, enemies, distance)
        found[method] = {
            "allowed": _rings(allowed),
            "keep_out": keep_outs[distance],
            "enemy_distance": distance,
        }
    return found


# The keep-out areas drawn lately, keyed by what they are drawn from: the battlefield, each enemy
# model's base, position and facing as the state holds them, and the distance. The player's own
# moves make a new position, not new keep-outs: the Movement phase's legal actions after each
# move found the same union again. The battlefield is kept alive with its answer, so that its id
# in the key stays its own.
_KEEP_OUTS: Kept[tuple, tuple[Battlefield, list]] = Kept(256)


def _keep_out(battlefield: Battlefield, enemies: list[Model], distance: float) -> list:
    """The rings of the area within `distance` of the enemy models, on the battlefield."""
    drawn = tuple(
        (Base.from_data(m["base"]), m["x"], m["y"], m.get("facing", 0.0)) for m in enemies
    )

    def draw() -> tuple[Battlefield, list]:
        keep_out = shapely.union_all([_kept_out(m, distance) for m in enemies])
        return battlefield, _rings(keep_out.intersection(battlefield.area)) if enemies else []

    return _KEEP_OUTS.get_or_make((id(battlefield), drawn, distance), draw)[1]


def _kept_out(model: Model, distance: float) -> shapely.Geometry:
    """The area within `distance` of the model's base (its base buffered)."""
    if TYPE_CHECKING:  # an enemy model on the battlefield (`x`, `y` set)
        assert model["x"] is not None and model["y"] is not None
    return _buffered_base(
        Base.from_data(model["base"]), model["x"], model["y"], model.get("facing", 0.0), distance
    )


@lru_cache(maxsize=4096)
def _buffered_base(
    base: Base, x: float, y: float, facing: float, distance: float
) -> shapely.Geometry:
    # Geometries are immutable: a model that stays put is buffered once, not at every position
    # (the enemy models that did not move since the last one are most of them).
    return base_polygon(base, x, y, facing).buffer(distance, 8)
