"""How the engine asks the battlefield: every set-up and move goes through the geometry modules.

The battle sequence and the phases hold the state (plain JSON); the battlefield modules
(`movement.validate_move`, `setting_up.check_*`, `measuring`) hold the rules of where models may
stand and how they may move. This module is the one bridge between them: it reads the players'
positions, builds the `Battlefield` (once per mission) and the `Edition` (once per rule set), the
placements of every model on the table, asks the battlefield, and writes the answer back.

Positions are given per model, either `[x, y, facing]` (inches, inches, degrees: a straight
move) or `{"path": [[x, y], ...], "facing": degrees}` (waypoints after the model's current
position, each leg a straight line; the last one is where the model ends, 11e §03.01). Either
may add the height the model ends at above ground level: `[x, y, facing, z]` or `"z": inches`
(11e §13.06 Moving Vertically; 10e Ruins upper floors); without it the model keeps its height.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from rules.engine.battlefield.board import Battlefield, ModelSet, Placement, placements_from_units
from rules.engine.battlefield.measuring import engaged_units as measuring_engaged_units
from rules.engine.battlefield.measuring import engagement_matrix, pairwise_distances
from rules.engine.battlefield.movement import Move, MoveResult, check_heights, validate_move
from rules.engine.core.editions import Edition
from rules.engine.core.kept import Kept
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Unit
from rules.engine.core.state import (
    State,
    alive_models,
    canonical_json,
    on_battlefield,
    unit_keywords,
)

# Per-process caches of derived, immutable geometry. The mission and edition dicts are frozen
# rules data shared by every version of a game's state (state.FROZEN_KEYS), so their identity
# is a key; the cached entry keeps the dict alive, so the id cannot be reused meanwhile. A state
# read again (from the database, by another worker) brings new dicts of the same value: they are
# then found by value (their canonical JSON), so the game keeps its one `Battlefield` and
# `Edition`, and the answers kept with them (sight, keyed by their identity).
_CACHE_SIZE = 64
_battlefields: dict[int, tuple[Any, Battlefield]] = {}
_editions: dict[int, tuple[Any, Edition]] = {}
_battlefields_by_value: dict[str, Battlefield] = {}
_editions_by_value: dict[str, Edition] = {}


def _remember(
    cache: dict[int, tuple[Any, Any]], by_value: dict[str, Any], source: Any, build: Any
) -> Any:
    found = cache.get(id(source))
    if found is not None and found[0] is source:
        return found[1]
    text = canonical_json(source)
    value = by_value.get(text)
    if value is None:
        value = build()
        if len(by_value) >= _CACHE_SIZE:
            by_value.pop(next(iter(by_value)))
        by_value[text] = value
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[id(source)] = (source, value)
    return value


def battlefield_of(state: State) -> Battlefield:
    """The mission's battlefield (size, zones, objective markers, terrain)."""
    mission = state["mission"]
    return _remember(
        _battlefields, _battlefields_by_value, mission, lambda: Battlefield.from_mission(mission)
    )


def edition_of(state: State) -> Edition:
    edition = state["edition"]
    return _remember(
        _editions,
        _editions_by_value,
        edition,
        lambda: Edition.from_parameters(
            edition["slug"], {key: value for key, value in edition.items() if key != "slug"}
        ),
    )


class _Position:
    """The placements of one position and what was measured on them. One immutable entry is
    swapped in whole, so engine calls from several threads never mix two positions."""

    __slots__ = ("datasheets", "engaged", "key", "measured", "placements")

    def __init__(self, key: list, placements: list[Placement], datasheets: Any) -> None:
        self.key, self.placements, self.datasheets = key, placements, datasheets
        self.engaged: dict[int, set[tuple[Any, Any]]] = {}
        self.measured: dict[tuple, Any] = {}


# The last position measured in each game (by the identity of its frozen datasheets, which the
# entry keeps alive): a worker serving many tables interleaves their actions, and one slot for
# all of them measured every game's table anew at each action (the engagement pairs included).
_last_positions: dict[int, _Position] = {}
_POSITIONS_KEPT = 256
_positions_lock = threading.Lock()
# Within `position_settled(state)`: [the state's units, their position once measured].
_settled: ContextVar[list[Any] | None] = ContextVar("settled_position", default=None)


@contextmanager
def position_settled(state: State) -> Iterator[None]:
    """A block that only reads `state` (the legal actions, a window's offers): its position is
    looked up once, not by comparing every model's position at each question (building that key
    for a Strike Force table, dozens of times per action, cost more than what it saved). Within
    a block already settled on the same units, the position found there is kept."""
    settled = _settled.get()
    if settled is not None and settled[0] is state["units"]:
        yield
        return
    token = _settled.set([state["units"], None])
    try:
        yield
    finally:
        _settled.reset(token)


def _position(state: State) -> _Position:
    """Every living model on the battlefield, rebuilt only when a model's position, facing,
    wounds or a unit's location changed (the phases ask many questions of one position). Bases
    and keywords come from the game's datasheets (frozen, compared by identity) and the unit."""
    settled = _settled.get()
    if settled is not None and settled[0] is state["units"]:
        if settled[1] is None or settled[1].datasheets is not state["datasheets"]:
            settled[1] = _measured_position(state)
        return settled[1]
    return _measured_position(state)


def _measured_position(state: State) -> _Position:
    units = state["units"]
    # List comprehensions, not generators: this runs at every question outside a settled block.
    # The models of a unit off the table (in reserves, embarked, destroyed) have no placement:
    # its location is enough.
    key = [
        (
            unit_id,
            unit["name"],
            location,
            [
                (m["x"], m["y"], m.get("facing"), m["wounds_left"], m.get("z", 0.0))
                for m in unit["models"]
            ]
            if location == "battlefield"
            else None,
        )
        for unit_id, unit in units.items()
        for location in (unit["location"],)
    ]
    datasheets = state["datasheets"]
    found = _last_positions.get(id(datasheets))
    if found is None or found.datasheets is not datasheets or found.key != key:
        before = found if found is not None and found.datasheets is datasheets else None
        placements, unchanged = _placements(units, key, before)
        found = _Position(key, placements, datasheets)
        if before is not None:
            # A unit that kept its placements keeps its shape (`unit_shape`): not hashed again.
            for unit_id in unchanged:
                shape = before.measured.get(("shape", unit_id))
                if shape is not None:
                    found.measured[("shape", unit_id)] = shape
        with _positions_lock:
            _last_positions.pop(id(datasheets), None)
            _last_positions[id(datasheets)] = found
            while len(_last_positions) > _POSITIONS_KEPT:
                _last_positions.pop(next(iter(_last_positions)))
    return found


def _placements(
    units: Any, key: list, before: _Position | None
) -> tuple[list[Placement], list[Any]]:
    """The placements of the position `key` names, in the order of `placements_from_units`. A
    unit whose entry of the key is unchanged since the game's last position keeps that position's
    placements: a move or set-up changes one unit, and building every model anew cost more than
    the rest of reading the position. A unit's other members that its placements read (player,
    keywords, bases) are never changed in a game (state.SHARED_UNIT_MEMBERS,
    SHARED_MODEL_MEMBERS), as the position's key already takes for granted. Also returns the
    ids of the units unchanged."""
    if before is None:
        return placements_from_units(units), []
    kept: dict[Any, list[Placement]] = {}
    for placement in before.placements:
        kept.setdefault(placement.unit_id, []).append(placement)
    earlier = {entry[0]: entry for entry in before.key}
    placements: list[Placement] = []
    unchanged = []
    for entry in key:
        unit_id = entry[0]
        if earlier.get(unit_id) == entry:
            unchanged.append(unit_id)
            placements.extend(kept.get(unit_id, ()))
        elif entry[2] == "battlefield":
            placements.extend(placements_from_units({unit_id: units[unit_id]}))
    return placements, unchanged


def measured_here(state: State) -> dict[tuple, Any]:
    """Answers that depend only on where the living models stand (and the game's rules data),
    kept for as long as the position lasts: keys name the question and its arguments."""
    return _position(state).measured


def placements_by_unit(state: State) -> dict[Any, list[Placement]]:
    """The placements of the table by unit id (shared, as `table`: callers never change them)."""
    measured = _position(state).measured
    found = measured.get(("by_unit",))
    if found is None:
        found = measured[("by_unit",)] = {}
        for placement in _position(state).placements:
            found.setdefault(placement.unit_id, []).append(placement)
    return found


class Shape:
    """A unit's living models where they stand: their placements by value (position, facing,
    height, base, keywords), hashed once. What is measured between units, or drawn around them,
    depends on their shapes (with the battlefield and the edition), not on the whole position:
    answers keyed by shapes outlast the position (a unit that did not move or lose a model keeps
    its shape)."""

    __slots__ = ("_hash", "placements")

    def __init__(self, placements: Sequence[Placement]) -> None:
        self.placements = tuple(placements)
        self._hash = hash(self.placements)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Shape)
            and self._hash == other._hash
            and self.placements == other.placements
        )


# Each shape seen lately, once: keys made of shapes then compare by identity, not model by model
# (a shape dropped here is still found by value). Least recently used first out.
_SHAPES: Kept[Shape, Shape] = Kept(8192)


def shape_of(placements: Sequence[Placement]) -> Shape:
    """The one `Shape` object of these placements."""
    shape = Shape(placements)
    return _SHAPES.get_or_make(shape, lambda: shape)


def unit_shape(state: State, unit_id: Any) -> Shape:
    """The shape of the unit's models on the table (none off it), kept with the position."""
    measured = _position(state).measured
    found = measured.get(("shape", unit_id))
    if found is None:
        found = measured[("shape", unit_id)] = shape_of(placements_by_unit(state).get(unit_id, ()))
    return found


def table(state: State) -> list[Placement]:
    """Every living model on the battlefield (shared: callers never change the list)."""
    return _position(state).placements


def unit_names(state: State) -> dict[str, str]:
    return {unit_id: unit["name"] for unit_id, unit in state["units"].items()}


# --- positions ------------------------------------------------------------------------------

Positions = dict[str, Any]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _point(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(map(_number, value))


def read_positions(unit: Unit, positions: Any, rule: str) -> Positions:
    """Every alive model of the unit needs a position; nothing else is accepted.

    Returns `{model_id: {"path": [(x, y), ...], "facing": degrees}}`.
    """
    if not isinstance(positions, dict):
        raise Refusal("positions_required", rule, "Give a position [x, y, facing] for each model.")
    wanted = {m["id"] for m in alive_models(unit)}
    if set(positions) != wanted:
        raise Refusal(
            "positions_for_every_model",
            rule,
            f"Give a position for each of the {len(wanted)} models of {unit['name']}, no others.",
        )
    read: Positions = {}
    for model_id, value in positions.items():
        height: Any = None
        if isinstance(value, list | tuple) and len(value) in (3, 4) and all(map(_number, value)):
            path, facing = [(float(value[0]), float(value[1]))], float(value[2])
            height = value[3] if len(value) == 4 else None
        elif (
            isinstance(value, dict)
            and isinstance(value.get("path"), list)
            and value["path"]
            and all(map(_point, value["path"]))
            and _number(value.get("facing"))
            and (value.get("z") is None or _number(value["z"]))
        ):
            path = [(float(x), float(y)) for x, y in value["path"]]
            facing = float(value["facing"])
            height = value.get("z")
        else:
            raise Refusal(
                "invalid_position",
                rule,
                f'{model_id}: a position is [x, y, facing] (optionally z) or {{"path": '
                '[[x, y], ...], "facing": degrees} (optionally "z").',
            )
        read[model_id] = {"path": path, "facing": facing % 360.0}
        if height is not None:
            read[model_id]["z"] = float(height)
    return read


def final_positions(read: Positions) -> dict[str, list[float]]:
    """Where each model ends, as `[x, y, facing]` (for events)."""
    return {
        model_id: [value["path"][-1][0], value["path"][-1][1], value["facing"]]
        + ([value["z"]] if "z" in value else [])
        for model_id, value in read.items()
    }


def unit_placements(state: State, unit: Unit, read: Positions) -> list[Placement]:
    """The unit's models set up at the given positions (not yet on the table); a model set up
    above ground level must stand on a terrain surface that allows it (11e §13.06 Setting Up or
    Ending a Move; 10e Ruins)."""
    keywords = frozenset(unit_keywords(state, unit))
    placements = [
        Placement(
            model["id"],
            unit["id"],
            unit["player"],
            read[model["id"]]["path"][-1][0],
            read[model["id"]]["path"][-1][1],
            read[model["id"]]["facing"],
            model["base"],  # type: ignore[arg-type]  # Placement reads a bundle-format base
            keywords | frozenset(model.get("keywords", ())),
            read[model["id"]].get("z", 0.0),
        )
        for model in alive_models(unit)
    ]
    if any(p.z for p in placements):
        check_heights(battlefield_of(state), edition_of(state), placements)
    return placements


def others_on_table(state: State, unit: Unit) -> list[Placement]:
    return [p for p in table(state) if p.unit_id != unit["id"]]


def place(unit: Unit, read: Positions) -> None:
    for model in alive_models(unit):
        if model["id"] in read:
            (model["x"], model["y"]), model["facing"] = (
                read[model["id"]]["path"][-1],
                read[model["id"]]["facing"],
            )
            if "z" in read[model["id"]]:
                model["z"] = read[model["id"]]["z"]


# --- moves ----------------------------------------------------------------------------------


def check_move(
    state: State,
    unit: Unit,
    read: Positions,
    move_type: str,
    movement: float | dict[str, float] = 0.0,
    keywords: frozenset[str] = frozenset(),
    **details: Any,
) -> MoveResult:
    """Ask the battlefield whether the unit may make this move (raises `Refusal` if not).

    A model whose position is where it stands and facing unchanged does not move. `keywords` are
    keywords a rule gives the unit's models for this move (Teleport Shunt: FLY)."""
    paths, facings, heights = {}, {}, {}
    for model in alive_models(unit):
        wanted = read[model["id"]]
        still = len(wanted["path"]) == 1 and (
            abs(wanted["path"][0][0] - model["x"]) < 1e-9
            and abs(wanted["path"][0][1] - model["y"]) < 1e-9
        )
        if not still:
            paths[model["id"]] = wanted["path"]
        facings[model["id"]] = wanted["facing"]
        if "z" in wanted:
            heights[model["id"]] = wanted["z"]
    move = Move(move_type, unit["id"], paths, facings, movement, heights=heights, **details)
    placements = table(state)
    if keywords:
        placements = [
            replace(p, keywords=p.keywords | keywords) if p.unit_id == unit["id"] else p
            for p in placements
        ]
    return validate_move(
        battlefield_of(state), edition_of(state), placements, move, unit_names(state)
    )


# --- engagement and distances -------------------------------------------------------------


def _engaged_pairs(state: State) -> set[tuple[Any, Any]]:
    """Every (unit, enemy unit) pair within engagement range now, measured once per position."""
    position = _position(state)
    edition = edition_of(state)
    pairs = position.engaged.get(id(edition))
    if pairs is None:
        pairs = measuring_engaged_units(position.placements, edition)
        position.engaged[id(edition)] = pairs
    return pairs


def engaged_units(state: State, unit: Unit, models: list[Placement] | None = None) -> list[str]:
    """Enemy units within engagement range of the unit (or of the given placements of it)
    (11e §03.04; 10e Engagement Range), horizontal and vertical."""
    if models is None:
        return sorted(str(b) for a, b in _engaged_pairs(state) if a == unit["id"])
    enemies = [p for p in table(state) if p.player != unit["player"]]
    if not models or not enemies:
        return []
    enemy_set = ModelSet(enemies)
    engaged = engagement_matrix(ModelSet(models), enemy_set, edition_of(state)).any(axis=0)
    return sorted({str(u) for u in enemy_set.unit_ids[engaged]})


def is_engaged(state: State, unit: Unit) -> bool:
    return on_battlefield(unit) and any(a == unit["id"] for a, _ in _engaged_pairs(state))


def enemy_gaps(state: State, unit: Unit) -> dict[str, float]:
    """The closest distance from the unit to each enemy unit on the battlefield."""
    everyone = table(state)
    mine = [p for p in everyone if p.unit_id == unit["id"]]
    enemies = [p for p in everyone if p.player != unit["player"]]
    if not mine or not enemies:
        return {}
    enemy_set = ModelSet(enemies)
    closest = pairwise_distances(ModelSet(mine), enemy_set).min(axis=0)
    gaps: dict[str, float] = {}
    for unit_id, gap in zip(enemy_set.unit_ids, closest, strict=True):
        gaps[unit_id] = min(gaps.get(unit_id, math.inf), max(0.0, float(gap)))
    return gaps
