"""Terrain (11e chapter 13; 10e Terrain Features): categories, areas, movement through terrain.

11e §13.01: each terrain area is a boundary holding one or more terrain features; §13.02-13.05
sort features into exposed, light and dense. 10e names kinds (ruins, woods, craters, barricades,
hills, debris); `board.KIND_CATEGORIES` maps both vocabularies onto the 11e categories so that
one set of geometry serves both editions, and the edition's parameters decide what each category
does.
"""

from __future__ import annotations

import numpy as np
import shapely

from rules.engine.battlefield.board import Battlefield, ModelSet, TerrainPiece
from rules.engine.core.editions import Edition

# 10e Ruins: models cannot see through them; other 10e features do not block sight.
TENTH_EDITION_SIGHT_BLOCKING_KINDS = frozenset({"ruins", "ruin", "building", "armoured-container"})
AREA_KEYWORDS = frozenset({"INFANTRY", "BEASTS", "SWARM"})


def is_obscuring(piece: TerrainPiece, edition: Edition) -> bool:
    """Whether sight lines crossing this terrain area are blocked (11e §13.10, 10e Ruins).

    A piece's explicit `obscuring` flag wins; otherwise the edition's rule decides.
    """
    if piece.obscuring is not None:
        return piece.obscuring
    if edition.obscuring_terrain == "light_or_dense_areas":
        return any(feature.category in ("light", "dense") for feature in piece.features)
    return piece.kind in TENTH_EDITION_SIGHT_BLOCKING_KINDS


def areas_containing(models: ModelSet, battlefield: Battlefield) -> np.ndarray:
    """Boolean matrix (models x terrain pieces): the model is within that terrain area.

    A model is within a terrain area while any part of its base is over it (ruling R-BF-03).
    """
    matrix = np.zeros((len(models), len(battlefield.terrain)), dtype=bool)
    if not len(models) or not battlefield.terrain:
        return matrix
    reach = float(models.radii.max(initial=0))
    model_index, piece_index = battlefield.terrain_tree.query(
        models.cores, predicate="dwithin", distance=reach
    )
    if len(model_index):
        exact = shapely.distance(models.cores[model_index], battlefield.terrain_areas[piece_index])
        inside = exact < models.radii[model_index] - 1e-9
        inside |= (~models.round[model_index]) & (exact <= 0)
        matrix[model_index[inside], piece_index[inside]] = True
    return matrix


def impassable_features(battlefield: Battlefield, edition: Edition, keywords: frozenset[str]):
    """Indices (into `battlefield.feature_polygons`) of features a model with these keywords
    cannot move horizontally through.

    11e §13.06: INFANTRY/BEASTS/SWARM/MOBILE models cross dense features; other models only dense
    features no more than 2" high. 10e Ruins: only INFANTRY/BEASTS/SWARM cross ruins' walls.
    FLY models that take to the skies (11e §21.03) or FLY (10e) cross everything; the caller
    leaves them out.
    """
    movers = frozenset(edition.dense_terrain_movers.split())
    if keywords & movers:
        return np.empty(0, dtype=int)
    limit = edition.dense_terrain_passable_height
    blocked = [
        index
        for index, (_, feature) in enumerate(battlefield.features)
        if feature.category == "dense" and feature.height > limit
    ]
    return np.array(blocked, dtype=int)
