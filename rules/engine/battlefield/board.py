"""The battlefield as plain data: model placements, bases, deployment zones, objectives, terrain.

Everything here is built from plain values so that the engine can call the geometry modules
(`measuring`, `coherency`, `terrain`, `visibility`, `movement`, `setting_up`) without knowing
shapely. Distances are in inches; base sizes in the bundle format are in millimetres
(`docs/rules-data-format.md`, `base`). The accepted mission dict is documented in
`docs/battlefield.md`.

Facing is in degrees, counter-clockwise from the +x axis; an oval base's or a hull's length lies
along its facing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

MM_PER_INCH = 25.4
# Tolerance for comparisons of distances in inches: 1/10000". Measuring on a table is far
# coarser; this only absorbs floating-point noise so that "exactly 2 inches" counts as within 2".
EPSILON = 1e-6
# Slack on the bounding-circle test of `pairwise_distances(within=...)`: pairs this close to the
# bound are measured exactly, so rounding never decides one.
BOUND_MARGIN = 1e-3
# Segments per quarter circle when an oval is turned into a polygon (0.05 % too small at most).
OVAL_QUAD_SEGMENTS = 16
BASE_SHAPES = frozenset({"round", "oval", "hull"})
# 11e §06.01: the line of sight is 1 mm wide, so gaps narrower than that block it.
SIGHT_LINE_WIDTH = 1 / MM_PER_INCH


class BattlefieldError(ValueError):
    """A mission or placement given in a form this module does not accept."""


@dataclass(frozen=True)
class Base:
    """A model's base (or a hull for vehicles without one), sizes in millimetres."""

    shape: str
    diameter_mm: float = 0.0
    length_mm: float = 0.0
    width_mm: float = 0.0

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | Base) -> Base:
        if isinstance(data, Base):
            return data
        shape = data.get("shape")
        if shape not in BASE_SHAPES:
            raise BattlefieldError(f"base shape must be one of {sorted(BASE_SHAPES)}: {data!r}")
        if shape == "round":
            diameter = float(data.get("diameter_mm", 0))
            if diameter <= 0:
                raise BattlefieldError(f"a round base needs a positive diameter_mm: {data!r}")
            return cls(shape, diameter_mm=diameter)
        length, width = float(data.get("length_mm", 0)), float(data.get("width_mm", 0))
        if length <= 0 or width <= 0:
            raise BattlefieldError(f"an {shape} base needs length_mm and width_mm: {data!r}")
        if shape == "oval" and length == width:
            return cls("round", diameter_mm=length)
        return cls(shape, length_mm=length, width_mm=width)

    @property
    def is_round(self) -> bool:
        return self.shape == "round"

    @property
    def radius(self) -> float:
        """Radius in inches (round bases only; 0 for the others)."""
        return self.diameter_mm / MM_PER_INCH / 2 if self.is_round else 0.0

    @cached_property
    def metrics(self) -> tuple[float, float, float]:
        """(radius, 1.0 if round else 0.0, bounding radius), computed once per base."""
        return self.radius, float(self.is_round), self.bounding_radius

    @property
    def bounding_radius(self) -> float:
        """Radius in inches of the smallest circle around the centre holding the whole base."""
        if self.is_round:
            return self.radius
        if self.shape == "oval":
            return max(self.length_mm, self.width_mm) / MM_PER_INCH / 2
        return math.hypot(self.length_mm, self.width_mm) / MM_PER_INCH / 2


@lru_cache(maxsize=256)
def _outline(base: Base) -> np.ndarray:
    """The base's outline around (0, 0) facing +x, as a closed ring of points in inches."""
    if base.is_round:
        angles = np.linspace(0, 2 * math.pi, 4 * OVAL_QUAD_SEGMENTS + 1)
        return np.column_stack([np.cos(angles), np.sin(angles)]) * base.radius
    half_length = base.length_mm / MM_PER_INCH / 2
    half_width = base.width_mm / MM_PER_INCH / 2
    if base.shape == "oval":
        angles = np.linspace(0, 2 * math.pi, 4 * OVAL_QUAD_SEGMENTS + 1)
        return np.column_stack([np.cos(angles) * half_length, np.sin(angles) * half_width])
    return np.array(
        [
            [half_length, half_width],
            [-half_length, half_width],
            [-half_length, -half_width],
            [half_length, -half_width],
            [half_length, half_width],
        ]
    )


def base_outline(base: Base, x: float, y: float, facing_degrees: float) -> np.ndarray:
    """The base's outline ring placed at (x, y) turned to `facing_degrees`."""
    ring = _outline(base)
    angle = math.radians(facing_degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    rotated = ring @ np.array([[cos, sin], [-sin, cos]])
    return rotated + (x, y)


def base_polygon(base: Base, x: float, y: float, facing_degrees: float) -> shapely.Polygon:
    return shapely.Polygon(base_outline(base, x, y, facing_degrees))


@dataclass(frozen=True)
class Placement:
    """One model on the battlefield: `(model_id, unit_id, player, x, y, facing_degrees, base)`.

    `keywords` (upper-case, e.g. INFANTRY, FLY, TITANIC) matter for terrain, cover and fall-back
    tests; `z` is the height of the base above ground level in inches (0 on the ground).
    """

    model_id: Any
    unit_id: Any
    player: Any
    x: float
    y: float
    facing_degrees: float
    base: Base
    keywords: frozenset[str] = field(default_factory=frozenset)
    z: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", Base.from_data(self.base))
        object.__setattr__(self, "keywords", frozenset(k.upper() for k in self.keywords))
        for name in ("x", "y", "facing_degrees", "z"):
            object.__setattr__(self, name, float(getattr(self, name)))

    def moved_to(
        self, x: float, y: float, facing_degrees: float | None = None, z: float | None = None
    ) -> Placement:
        facing = self.facing_degrees if facing_degrees is None else facing_degrees
        height = self.z if z is None else z
        return Placement(
            self.model_id, self.unit_id, self.player, x, y, facing, self.base, self.keywords, height
        )

    def polygon(self) -> shapely.Polygon:
        return _placed_polygon(self.base, self.x, self.y, self.facing_degrees)


@lru_cache(maxsize=8192)
def _placed_polygon(base: Base, x: float, y: float, facing_degrees: float) -> shapely.Polygon:
    # Geometries are immutable: a model that stays put is drawn once, not at every question
    # (sight lines ask for the outline of every oval and hull of both units).
    return base_polygon(base, x, y, facing_degrees)


def placements_from_units(units: Mapping[Any, Mapping[str, Any]]) -> list[Placement]:
    """Placements of every model on the battlefield from unit records shaped like the engine's
    state (`player`, `models` with `id`, `x`, `y`, `facing`, `base`, optional `wounds_left`,
    `keywords` and `z`; optional unit `keywords` and `location`).

    The engine calls this for every question it asks, so it skips the dataclass checks: bases
    and keyword sets are built once per distinct value."""
    result = []
    for unit_id, unit in units.items():
        if unit.get("location", "battlefield") != "battlefield":
            continue
        unit_keywords = _keywords(tuple(unit.get("keywords", ())))
        for model in unit["models"]:
            if model.get("wounds_left", 1) <= 0 or model.get("x") is None:
                continue
            keywords = unit_keywords
            if model.get("keywords"):
                keywords = unit_keywords | _keywords(tuple(model["keywords"]))
            placement = object.__new__(Placement)
            setter = placement.__dict__
            setter["model_id"] = model["id"]
            setter["unit_id"] = unit_id
            setter["player"] = unit["player"]
            setter["x"] = float(model["x"])
            setter["y"] = float(model["y"])
            setter["facing_degrees"] = float(model.get("facing", 0.0))
            setter["base"] = _base(model["base"])
            setter["keywords"] = keywords
            setter["z"] = float(model.get("z", 0.0))
            result.append(placement)
    return result


_BASES: dict[tuple, Base] = {}
_KEYWORDS: dict[tuple, frozenset[str]] = {}


def _base(data: Mapping[str, Any] | Base) -> Base:
    if isinstance(data, Base):
        return data
    key = tuple(sorted(data.items()))
    found = _BASES.get(key)
    if found is None:
        found = _BASES[key] = Base.from_data(data)
    return found


def _keywords(names: tuple) -> frozenset[str]:
    found = _KEYWORDS.get(names)
    if found is None:
        found = _KEYWORDS[names] = frozenset(k.upper() for k in names)
    return found


def placements_from_data(rows: Iterable[Sequence[Any] | Mapping[str, Any] | Placement]) -> list:
    """Placements from tuples `(model_id, unit_id, player, x, y, facing, base[, keywords, z])`
    or dicts with those names."""
    result = []
    for row in rows:
        if isinstance(row, Placement):
            result.append(row)
        elif isinstance(row, Mapping):
            result.append(Placement(**row))
        else:
            result.append(Placement(*row))
    return result


class ModelSet:
    """A group of placements as arrays, for vectorised measuring.

    Each model has a *core* (its centre point for a round base, its polygon otherwise) and a
    radius (the round base's radius, 0 otherwise), so the distance between two bases is the
    distance between their cores minus both radii: exact for round bases, which is what the
    rules measure between (01.04: closest part of the base).
    """

    def __init__(self, placements: Sequence[Placement]) -> None:
        self.placements = list(placements)
        count = len(self.placements)
        self.ids = [p.model_id for p in self.placements]
        self.unit_ids = np.array([p.unit_id for p in self.placements], dtype=object)
        self.players = np.array([p.player for p in self.placements], dtype=object)
        self.centres = np.array([(p.x, p.y) for p in self.placements], dtype=float).reshape(
            count, 2
        )
        self.z = np.array([p.z for p in self.placements], dtype=float)
        metrics = np.array([p.base.metrics for p in self.placements], dtype=float).reshape(count, 3)
        self.radii = metrics[:, 0]
        self.round = metrics[:, 1].astype(bool)
        self.bounding_radii = metrics[:, 2]
        self._cores: np.ndarray | None = None
        self._shapes: np.ndarray | None = None
        self._some_shapes: dict[int, shapely.Polygon] = {}

    def __len__(self) -> int:
        return len(self.placements)

    @property
    def cores(self) -> np.ndarray:
        if self._cores is None:
            cores = shapely.points(self.centres) if len(self) else np.empty(0, dtype=object)
            for index in np.flatnonzero(~self.round):
                cores[index] = self.placements[index].polygon()
            self._cores = cores
        return self._cores

    @property
    def shapes(self) -> np.ndarray:
        """The bases as polygons (round bases with 64 segments)."""
        if self._shapes is None:
            self._shapes = np.array([p.polygon() for p in self.placements], dtype=object).reshape(
                len(self)
            )
        return self._shapes

    def shapes_at(self, index: np.ndarray) -> np.ndarray:
        """The polygons of the bases at the given indices (as `shapes[index]`), building only
        those: a check of one unit against the table needs the few bases it touches, not the
        polygons of every model on it."""
        if self._shapes is not None:
            return self._shapes[index]
        built = self._some_shapes
        found = np.empty(len(index), dtype=object)
        for position, model in enumerate(np.asarray(index).tolist()):
            shape = built.get(model)
            if shape is None:
                shape = built[model] = self.placements[model].polygon()
            found[position] = shape
        return found

    def subset(self, mask: np.ndarray) -> ModelSet:
        """The models where `mask` is true (or at the given indices), without re-measuring."""
        index = np.flatnonzero(mask) if np.asarray(mask).dtype == bool else np.asarray(mask)
        part = ModelSet.__new__(ModelSet)
        part.placements = [self.placements[i] for i in index]
        part.ids = [self.ids[i] for i in index]
        for name in ("unit_ids", "players", "centres", "z", "radii", "round", "bounding_radii"):
            setattr(part, name, getattr(self, name)[index])
        part._cores = None if self._cores is None else self._cores[index]
        part._shapes = None if self._shapes is None else self._shapes[index]
        part._some_shapes = {}
        return part

    @staticmethod
    def concat(first: ModelSet, second: ModelSet) -> ModelSet:
        both = ModelSet.__new__(ModelSet)
        both.placements = first.placements + second.placements
        both.ids = first.ids + second.ids
        for name in ("unit_ids", "players", "centres", "z", "radii", "round", "bounding_radii"):
            setattr(both, name, np.concatenate([getattr(first, name), getattr(second, name)]))
        both._cores = both._shapes = None
        both._some_shapes = {}
        return both


def pairwise_distances(a: ModelSet, b: ModelSet, within: float | None = None) -> np.ndarray:
    """Horizontal distances between every base of `a` and every base of `b` (0 when touching;
    negative between overlapping round bases).

    With `within`, a pair whose bases are certainly farther apart than that (their centres
    farther than `within` plus both bounding radii) is not measured through its polygons: its
    entry is then only a figure above `within`, enough for a `<= within` test. Measuring every
    pair of a Strike Force table with a hull or an oval base exactly was most of an action's
    time (engagement range asked of every unit for the legal actions)."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)))
    gaps = a.centres[:, None, :] - b.centres[None, :, :]
    distances = np.hypot(gaps[..., 0], gaps[..., 1])
    needs_shapes = ~(a.round[:, None] & b.round[None, :])
    if within is not None:
        # The centre distance minus both bounding radii never exceeds the true distance; what
        # is kept for a pair left out (its centre distance minus the round radii, 0 for a
        # polygon) is at least that bound, so it stays above `within`.
        reach = within + BOUND_MARGIN + a.bounding_radii[:, None] + b.bounding_radii[None, :]
        needs_shapes &= distances <= reach
    if needs_shapes.any():
        rows, cols = np.nonzero(needs_shapes)
        distances[rows, cols] = shapely.distance(a.cores[rows], b.cores[cols])
    return distances - a.radii[:, None] - b.radii[None, :]


def vertical_distances(a: ModelSet, b: ModelSet) -> np.ndarray:
    return np.abs(a.z[:, None] - b.z[None, :])


@dataclass(frozen=True)
class TerrainFeature:
    """One terrain feature: its category (11e §13.02 exposed/light/dense), footprint, height."""

    category: str
    polygon: shapely.Polygon
    height: float


@dataclass(frozen=True)
class TerrainPiece:
    """A terrain area (11e §13.01) and the features in it.

    Without explicit `features`, the area's footprint is one feature of the category its kind
    implies (`KIND_CATEGORIES`).
    """

    index: int
    kind: str
    polygon: shapely.Polygon
    height: float
    obscuring: bool | None
    features: tuple[TerrainFeature, ...]
    name: str = ""


@dataclass(frozen=True)
class Objective:
    objective_id: Any
    x: float
    y: float


class Battlefield:
    """The table: size, deployment zones per player, objective markers and terrain."""

    def __init__(
        self,
        width: float,
        depth: float,
        deployment_zones: Mapping[Any, shapely.Polygon] | None = None,
        objectives: Sequence[Objective] = (),
        terrain: Sequence[TerrainPiece] = (),
    ) -> None:
        if width <= 0 or depth <= 0:
            raise BattlefieldError("a battlefield needs a positive width and depth")
        self.width = float(width)
        self.depth = float(depth)
        self.area = shapely.box(0, 0, self.width, self.depth)
        self.deployment_zones = dict(deployment_zones or {})
        self.objectives = list(objectives)
        self.terrain = list(terrain)
        for zone in self.deployment_zones.values():
            shapely.prepare(zone)
        self.terrain_areas = np.array([piece.polygon for piece in self.terrain], dtype=object)
        for polygon in self.terrain_areas:
            shapely.prepare(polygon)
        self.terrain_tree = shapely.STRtree(self.terrain_areas)
        self.features = [
            (piece.index, feature) for piece in self.terrain for feature in piece.features
        ]
        self.feature_polygons = np.array([f.polygon for _, f in self.features], dtype=object)
        self.feature_piece = np.array([i for i, _ in self.features], dtype=int)
        for polygon in self.feature_polygons:
            shapely.prepare(polygon)
        self.feature_tree = shapely.STRtree(self.feature_polygons)
        self._cache: dict[Any, Any] = {}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Battlefield:
        """Build from a mission's battlefield dict (documented in docs/battlefield.md)."""
        try:
            width, depth = float(data["width"]), float(data["depth"])
        except (KeyError, TypeError, ValueError) as error:
            raise BattlefieldError("a battlefield needs numeric width and depth") from error
        zones_data = data.get("deployment_zones") or {}
        if isinstance(zones_data, Mapping):
            zones = {player: _polygon(points) for player, points in zones_data.items()}
        else:
            zones = {zone["player"]: _polygon(zone["polygon"]) for zone in zones_data}
        objectives = []
        for number, marker in enumerate(
            data.get("objectives") or data.get("objective_markers") or []
        ):
            if isinstance(marker, Mapping):
                objectives.append(
                    Objective(marker.get("id", number), float(marker["x"]), float(marker["y"]))
                )
            else:
                objectives.append(Objective(number, float(marker[0]), float(marker[1])))
        terrain = [_terrain_piece(i, piece) for i, piece in enumerate(data.get("terrain") or [])]
        return cls(width, depth, zones, objectives, terrain)

    @classmethod
    def from_mission(cls, mission: Mapping[str, Any]) -> Battlefield:
        """Build from a mission record of `docs/missions.md` (`battlefield` holds the size;
        `deployment_zones`, `objective_markers` and `terrain` sit beside it)."""
        data = dict(mission.get("battlefield") or {})
        for key in ("deployment_zones", "objective_markers", "objectives", "terrain"):
            if key in mission and key not in data:
                data[key] = mission[key]
        return cls.from_dict(data)

    def deployment_zone(self, player: Any) -> shapely.Polygon | None:
        """The player's zone; JSON keys are strings, so player 1 also finds zone "1"."""
        for key in (player, str(player)):
            if key in self.deployment_zones:
                return self.deployment_zones[key]
        if isinstance(player, str) and player.isdigit():
            return self.deployment_zones.get(int(player))
        return None

    def cached(self, key: Any, build: Any) -> Any:
        """Static derived geometry (built once per battlefield and edition)."""
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]


def _polygon(points: Any) -> shapely.Polygon:
    if isinstance(points, BaseGeometry):
        return points
    try:
        polygon = shapely.Polygon([(float(x), float(y)) for x, y in points])
    except (TypeError, ValueError) as error:
        raise BattlefieldError(f"a polygon is a list of [x, y] points: {points!r}") from error
    if not polygon.is_valid or polygon.area <= 0:
        raise BattlefieldError(f"not a valid polygon: {points!r}")
    return polygon


# 11e §13.03-13.05 examples; 10e kinds mapped to the closest 11e category.
KIND_CATEGORIES = {
    "crater": "exposed",
    "craters": "exposed",
    "razorwire": "exposed",
    "debris": "exposed",
    "hill": "exposed",
    "barricade": "light",
    "barricades": "light",
    "low-wall": "light",
    "statuary": "light",
    "ruins": "dense",
    "ruin": "dense",
    "building": "dense",
    "woods": "dense",
    "armoured-container": "dense",
    "container": "dense",
}


def _terrain_piece(index: int, data: Mapping[str, Any]) -> TerrainPiece:
    kind = str(data.get("kind", "ruins")).lower()
    polygon = _polygon(data.get("polygon", data.get("footprint")))
    height = float(data.get("height", 0))
    features_data = data.get("features") or []
    if features_data:
        features = tuple(
            TerrainFeature(
                str(f.get("category") or KIND_CATEGORIES.get(str(f.get("kind", kind)), "dense")),
                _polygon(f["polygon"]),
                float(f.get("height", height)),
            )
            for f in features_data
        )
    else:
        features = (TerrainFeature(KIND_CATEGORIES.get(kind, "dense"), polygon, height),)
    obscuring = data.get("obscuring")
    return TerrainPiece(
        index=index,
        kind=kind,
        polygon=polygon,
        height=height,
        obscuring=None if obscuring is None else bool(obscuring),
        features=features,
        name=str(data.get("name", data.get("id", ""))),
    )
