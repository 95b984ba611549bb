"""Setting up units (11e §03.02 Set Up, §18.02-18.05 Transports, §20.04 Ingress Move, 24.20
Infiltrators; 10e Deploy Armies, Deep Strike, Strategic Reserves, Infiltrators, Transports).

Each check takes the unit's proposed placements and either raises `Refusal` or returns nothing.
All of them require what every set-up requires (11e §03.02): bases wholly on the battlefield, on
no other model or objective marker, the unit in coherency and unengaged (except a combat
disembark, §18.04).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rules.engine.battlefield.board import (
    EPSILON,
    Battlefield,
    ModelSet,
    Placement,
    pairwise_distances,
)
from rules.engine.battlefield.coherency import coherency_break
from rules.engine.battlefield.measuring import (
    engagement_matrix,
    farthest_distance,
    objective_distances,
    wholly_within_polygon,
    within_polygon,
)
from rules.engine.battlefield.movement import overlaps
from rules.engine.core.citations import section
from rules.engine.core.editions import Edition
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal


def _refuse(code: str, edition: Edition, rule: str, message: str) -> Refusal:
    return Refusal(code, section(edition, rule), message)


def check_set_up(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    rule: str = "setup",
    may_engage: frozenset = frozenset(),
) -> None:
    """11e §03.02: on the battlefield, on no model or marker, coherent, unengaged (enemy units
    in `may_engage` excepted)."""
    ids = {p.model_id for p in unit}
    unit_id = unit[0].unit_id if unit else None
    others = [p for p in placements if p.model_id not in ids and p.unit_id != unit_id]
    on_table = wholly_within_polygon(unit, battlefield.area)
    if not on_table.all():
        model = unit[int(np.flatnonzero(~on_table)[0])]
        raise _refuse(
            "off_battlefield", edition, rule, f"model {model.model_id} is not on the battlefield"
        )
    group = ModelSet(unit)
    clash = overlaps(group, ModelSet(list(others) + list(unit)))
    clash[:, len(others) :] &= ~np.eye(len(unit), dtype=bool)
    if clash.any():
        row = int(np.nonzero(clash)[0][0])
        raise _refuse(
            "ends_on_model", edition, rule, f"model {unit[row].model_id} would be on another model"
        )
    if battlefield.objectives and not edition.may_end_on_objective_marker:
        on_marker = objective_distances(group, battlefield.objectives, edition) < -EPSILON
        if on_marker.any():
            # Which model and which marker, as a move's refusal says (the player moves that one).
            row, col = (int(v[0]) for v in np.nonzero(on_marker))
            raise _refuse(
                "ends_on_objective_marker",
                edition,
                rule,
                f"model {unit[row].model_id} would be on objective marker "
                f"{battlefield.objectives[col].objective_id}",
            )
    broken = coherency_break(group, edition)
    if broken is not None:
        raise _refuse("not_in_coherency", edition, "coherency", broken.reason)
    players = {p.player for p in unit}
    enemies = [p for p in others if p.player not in players and p.unit_id not in may_engage]
    if enemies and engagement_matrix(group, ModelSet(enemies), edition).any():
        raise _refuse("ends_engaged", edition, "engagement", "the unit would be set up engaged")


def _check_enemy_distance(
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    distance: float,
    rule: str,
) -> None:
    players = {p.player for p in unit}
    enemies = [p for p in placements if p.player not in players]
    if not enemies:
        return
    gaps = pairwise_distances(ModelSet(unit), ModelSet(enemies))
    if (gaps <= distance + EPSILON).any():
        row, col = (int(v[0]) for v in np.nonzero(gaps <= distance + EPSILON))
        raise _refuse(
            "too_close_to_enemy",
            edition,
            rule,
            f'model {unit[row].model_id} would be {max(gaps[row, col], 0):.1f}" from an enemy '
            f'model; it must be set up more than {distance:g}" away',
        )


def check_deployment(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    player: Any,
) -> None:
    """Deploy wholly within the player's deployment zone."""
    zone = battlefield.deployment_zone(player)
    if zone is None:
        raise _refuse("no_deployment_zone", edition, "setup", f"player {player} has no zone")
    inside = wholly_within_polygon(unit, zone)
    if not inside.all():
        model = unit[int(np.flatnonzero(~inside)[0])]
        raise _refuse(
            "outside_deployment_zone",
            edition,
            "setup",
            f"model {model.model_id} is not wholly within the deployment zone",
        )
    check_set_up(battlefield, edition, unit, placements)


def check_deep_strike(battlefield, edition, unit, placements) -> None:
    """Deep Strike: more than 9" (10e) / 8" (11e 24.09) from all enemy models."""
    check_set_up_anywhere(
        battlefield, edition, unit, placements, edition.deep_strike_enemy_distance, "deep_strike"
    )


def check_set_up_anywhere(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    distance: float,
    rule: str,
) -> None:
    """ "Set up anywhere on the battlefield that is more than d" horizontally away from all enemy
    models": Deep Strike, and the faction rules that set units up like it (Teleport Assault 9",
    Rapid Tactical Relocation 8", Prognisticated Arrival 6", Hallowed Beacon 6"); `rule` is the
    citation key of the rule that gives the distance."""
    check_set_up(battlefield, edition, unit, placements, rule)
    _check_enemy_distance(edition, unit, placements, distance, rule)


@implements("ability", "infiltrators")
def check_infiltrators(battlefield, edition, unit, placements, opponent: Any) -> None:
    """Infiltrators (11e 24.20): more than 8" from the opponent's deployment zone and from all
    enemy units (10e: 9")."""
    check_set_up(battlefield, edition, unit, placements, "infiltrators")
    distance = edition.infiltrators_enemy_distance
    _check_enemy_distance(edition, unit, placements, distance, "infiltrators")
    zone = battlefield.deployment_zone(opponent)
    if zone is not None:
        near = within_polygon(unit, zone.buffer(distance))
        if near.any():
            raise _refuse(
                "too_close_to_deployment_zone",
                edition,
                "infiltrators",
                f'model {unit[int(np.flatnonzero(near)[0])].model_id} is within {distance:g}" '
                "of the opponent's deployment zone",
            )


def check_reserves_arrival(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    battle_round: int,
    opponent: Any,
) -> None:
    """11e §20.04 Ingress Move / 10e Strategic Reserves: wholly within 6" of a battlefield edge,
    more than 8" (11e) / 9" (10e) from all enemies, and not in the opponent's deployment zone
    before the third battle round."""
    check_set_up(battlefield, edition, unit, placements, "ingress")
    edge_band = battlefield.area.difference(
        battlefield.area.buffer(-edition.reserves_edge_distance, join_style="mitre")
    )
    inside = wholly_within_polygon(unit, edge_band)
    if not inside.all():
        model = unit[int(np.flatnonzero(~inside)[0])]
        raise _refuse(
            "not_near_edge",
            edition,
            "ingress",
            f"model {model.model_id} is not wholly within "
            f'{edition.reserves_edge_distance:g}" of a battlefield edge',
        )
    _check_enemy_distance(edition, unit, placements, edition.reserves_enemy_distance, "ingress")
    zone = battlefield.deployment_zone(opponent)
    if zone is not None and battle_round < edition.reserves_opponent_zone_from_round:
        inside_zone = within_polygon(unit, zone)
        if inside_zone.any():
            raise _refuse(
                "in_opponent_zone",
                edition,
                "ingress",
                f"model {unit[int(np.flatnonzero(inside_zone)[0])].model_id} would be in the "
                f"opponent's deployment zone before battle round "
                f"{edition.reserves_opponent_zone_from_round}",
            )


def check_embark(edition: Edition, unit: Sequence[Placement], transport: Placement) -> None:
    """11e §18.02 / 10e: every model within 3" of the transport after its move (capacity and
    eligibility are the engine's)."""
    for model in unit:
        gap = float(pairwise_distances(ModelSet([model]), ModelSet([transport]))[0, 0])
        if gap > edition.embark_distance + EPSILON:
            raise _refuse(
                "too_far_to_embark",
                edition,
                "embark",
                f'model {model.model_id} is {gap:.1f}" from the transport; it must be within '
                f'{edition.embark_distance:g}"',
            )


def check_disembark(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    transport: Placement,
    combat: bool = False,
    engaged_with_transport: frozenset = frozenset(),
) -> None:
    """11e §18.04: rapid/tactical disembark wholly within 3" of the transport; combat disembark
    wholly within 6" and may be set up engaged with enemy units the transport is engaged with.
    10e: wholly within 3", not within engagement range of enemies."""
    distance = edition.combat_disembark_distance if combat else edition.disembark_distance
    if combat and not distance:
        raise _refuse("no_combat_disembark", edition, "disembark", "there is no combat disembark")
    for model in unit:
        far = farthest_distance(model, transport)
        if far > distance + EPSILON:
            raise _refuse(
                "too_far_from_transport",
                edition,
                "disembark",
                f'model {model.model_id} is not wholly within {distance:g}" of the transport',
            )
    others = [p for p in placements if p.model_id != transport.model_id]
    may_engage = engaged_with_transport if combat else frozenset()
    check_set_up(battlefield, edition, unit, others, "disembark", may_engage)


def check_emergency_disembark(
    battlefield: Battlefield,
    edition: Edition,
    unit: Sequence[Placement],
    placements: Sequence[Placement],
    transport: Placement,
) -> None:
    """11e §18.05 / 10e Destroyed Transport: each model wholly within 6" of the destroyed
    transport and set up as normal (the engine destroys the models it cannot place, and makes
    them as close as possible)."""
    distance = edition.emergency_disembark_distance
    for model in unit:
        if farthest_distance(model, transport) > distance + EPSILON:
            raise _refuse(
                "too_far_from_transport",
                edition,
                "emergency_disembark",
                f'model {model.model_id} is not wholly within {distance:g}" of the transport',
            )
    others = [p for p in placements if p.model_id != transport.model_id]
    check_set_up(battlefield, edition, unit, others, "emergency_disembark")
