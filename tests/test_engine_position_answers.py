"""Answers kept with the position (`battlefield.placement.measured_here`) or asked within a settled
block, compared with the same answers computed in full, over the recorded self-played games of
both editions (`tests/compat_games.py`):

- where a unit can be set up around a TRANSPORT (`phases.transports.closest_set_up`, 11e §18.03,
  §18.05; 10e Disembark, Destroyed Transport): kept with the position, and built from the bases
  near the candidate spots only; the answer in full joins every base on the table;
- questions that look the position up once for a whole block (`position_settled`: a unit's
  eligibility to shoot and its targets, the Fight phase's step, Teleport Assault's candidates):
  the same answers with the position measured afresh at each question;
- whether one unit is a stratagem's target (`targeting.OwnUnits.holds`, used when a stratagem's
  use is checked): the same as listing every target and finding it there;
- the arrival areas (`battlefield.arrival_areas`) of every way to arrive (ingress, Deep Strike, a
  rule's own way, a rule's "anywhere more than"): each enemy base buffered once while it stays
  put, one area per enemy distance, kept with the enemy units' shapes across positions and with
  the position by the distances asked; in full, every base buffered for each method;
- the placements of a position (`battlefield.placement.table`): the units unchanged since the
  game's last position keep its placements; in full, every model's placement built anew;
- whether each model is wholly within the table or a deployment zone
  (`battlefield.measuring.wholly_within_polygon`): the polygon grown by the tolerance once; in
  full, grown for each hull or oval (the recorded armies' units asked on ovals and hulls too);
- whether a TRANSPORT's phrase names a model (`army.transport_capacity.phrase_matches`, 11e §18.01,
  kept per phrase and keywords; every TRANSPORT of the rules data against every model of the
  recorded games): the phrase split afresh at each question."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import shapely

from rules.engine.battlefield.board import Base, Placement
from rules.engine.battlefield.measuring import objective_marker_radius
from rules.engine.battlefield.placement import battlefield_of, edition_of, engaged_units, table
from rules.engine.core.state import alive_models, on_battlefield
from rules.engine.phases import transports
from rules.engine.sequence.game import apply, new_game
from tests.compat_games import load, replayed_states

RECORDED = load()


def closest_set_up_in_full(state, unit, transport, distance, may_engage, enemy_distance):
    """`closest_set_up` as it was before it was kept with the position: the union of every
    other base on the table, and of every enemy base."""
    models = alive_models(unit)
    if not models:
        return {}
    battlefield, edition = battlefield_of(state), edition_of(state)
    radius = max(Base.from_data(m["base"]).bounding_radius for m in models)
    hull = transport.polygon()
    spacing = 2 * radius + 0.05
    candidates: list[tuple[int, float, float, float]] = []
    offset, ring = radius + 0.02, 0
    while offset + radius <= distance - 0.01:
        outline = hull.buffer(offset, quad_segs=8).exterior
        steps = np.arange(0.0, outline.length - spacing / 2, spacing)
        points = shapely.line_interpolate_point(outline, steps)
        for index, point in enumerate(points):
            candidates.append((ring, index / max(len(points), 1), point.x, point.y))
        offset += spacing
        ring += 1
    if not candidates:
        return {}
    xy = np.array([(c[2], c[3]) for c in candidates])
    points = shapely.points(xy)
    fine = shapely.contains(battlefield.area.buffer(-radius - 0.01), points)
    others = [p for p in table(state) if p.unit_id != unit["id"]]
    blockers = shapely.union_all([p.polygon() for p in others] + [hull])
    fine &= shapely.distance(blockers, points) >= radius + 0.02
    enemies = [p for p in others if p.player != unit["player"] and p.unit_id not in may_engage]
    if enemies:
        enemy_shape = shapely.union_all([p.polygon() for p in enemies])
        gap = max(edition.engagement_range_horizontal, enemy_distance or 0.0)
        fine &= shapely.distance(enemy_shape, points) > gap + radius + 0.02
    if battlefield.objectives:
        centres = np.array([(o.x, o.y) for o in battlefield.objectives])
        reach = objective_marker_radius(edition) + radius + 0.02
        gaps = np.hypot(xy[:, None, 0] - centres[None, :, 0], xy[:, None, 1] - centres[None, :, 1])
        fine &= (gaps >= reach).all(axis=1)
    open_spots = [i for i in np.flatnonzero(fine)]
    chosen: list[int] = []
    for _ in models:
        best = None
        for i in open_spots:
            if i in chosen:
                continue
            if chosen:
                apart = np.hypot(xy[chosen, 0] - xy[i, 0], xy[chosen, 1] - xy[i, 1]) - 2 * radius
                if (apart < 0.02).any() or not (apart <= 1.5).any():
                    continue
                start = candidates[chosen[0]][1]
                turn = abs(candidates[i][1] - start)
                key = (candidates[i][0], min(turn, 1 - turn))
            else:
                key = (candidates[i][0], 0.0)
            if best is None or key < best[0]:
                best = (key, i)
        if best is None:
            break
        chosen.append(int(best[1]))
    return {
        model["id"]: [round(float(xy[i, 0]), 4), round(float(xy[i, 1]), 4), 0.0]
        for model, i in zip(models, chosen, strict=False)
    }


def _hulls(state, player):
    """Where a TRANSPORT could stand: on each of the player's units' first model on the table, and
    a Rhino-sized hull there (117 x 86 mm), facing as that model does."""
    for unit in state["units"].values():
        if unit["player"] != player or not on_battlefield(unit):
            continue
        model = alive_models(unit)[0]
        yield Placement(
            model["id"],
            unit["id"],
            player,
            model["x"],
            model["y"],
            model.get("facing") or 0.0,
            model["base"],
        )
        yield Placement(
            "hull",
            unit["id"],
            player,
            model["x"],
            model["y"],
            model.get("facing") or 0.0,
            Base("hull", length_mm=117, width_mm=86),
        )


@pytest.mark.parametrize("number", range(0, 16, 3), ids=lambda n: f"game-{n}")
def test_the_set_up_around_a_transport_kept_with_the_position_is_the_set_up_in_full(number):
    asked = placed = 0
    for _, state in replayed_states(RECORDED, number, every=7):
        for player in (1, 2):
            units = [
                u for u in state["units"].values() if u["player"] == player and alive_models(u)
            ]
            if not units:
                continue
            unit = max(units, key=lambda u: len(alive_models(u)))
            for hull in _hulls(state, player):
                engaged = frozenset(engaged_units(state, state["units"][hull.unit_id]))
                for distance, may_engage, enemy_distance in (
                    (3.0, frozenset(), None),
                    (6.0, engaged, None),
                    (3.0, frozenset(), 9.0),
                ):
                    arguments = (state, unit, hull, distance, may_engage, enemy_distance)
                    in_full = closest_set_up_in_full(*arguments)
                    assert transports.closest_set_up(*arguments) == in_full
                    # Asked again of the same position: the answer kept, a copy of it.
                    again = transports.closest_set_up(*arguments)
                    assert again == in_full
                    for spot in again.values():
                        spot[0] += 1
                    assert transports.closest_set_up(*arguments) == in_full
                    asked += 1
                    placed += len(in_full) == len(alive_models(unit))
    assert asked > 100 and placed > 10 and placed < asked


# --- questions asked in a settled block -------------------------------------------------------


def _questions(state) -> list:
    """Questions that now look the position up once (`position_settled`), each of every unit."""
    from rules.engine.factions.grey_knights import teleport_assault
    from rules.engine.phases import fight, shooting
    from rules.engine.phases.shooting_targets import has_a_target, weapon_options

    answers: list = [fight.current_step(state) if state["phase"] == "fight" else None]
    for player in (1, 2):
        answers.append(fight.pile_in_candidates(state, player))
        answers.append(teleport_assault.candidates(state, player))
    for unit in state["units"].values():
        refusal = shooting.ineligibility(state, unit)
        answers.append(refusal.code if refusal else None)
        if on_battlefield(unit) and refusal is None:
            answers.append(shooting.can_shoot_out_of_turn(state, unit, None, 12.0))
            answers.append(has_a_target(state, unit))
            answers.append([option["targets"] for option in weapon_options(state, unit)])
    return answers


@pytest.mark.parametrize("number", [0, 4, 9, 13], ids=lambda n: f"game-{n}")
def test_questions_asked_in_a_settled_block_have_the_answers_measured_at_each_question(
    number, monkeypatch
):
    """Each question measured afresh (no position kept between questions) gives the same."""
    from rules.engine.battlefield import placement

    asked = 0
    for _, state in replayed_states(RECORDED, number, every=3):
        settled = _questions(state)
        with monkeypatch.context() as fresh:
            fresh.setattr(placement, "_position", placement._measured_position)
            assert _questions(state) == settled
        asked += 1
    assert asked > 20


# --- a stratagem's one target -------------------------------------------------------------------


@pytest.mark.parametrize("number", [8, 10, 13, 15], ids=lambda n: f"game-{n}")
def test_whether_a_unit_is_a_stratagems_target_asked_alone_is_whether_it_is_listed(number):
    """`OwnUnits.holds` (a stratagem's use checks its one target) against the listed targets,
    for every stratagem whose targets are the player's units passing tests."""
    from rules.engine.stratagems import effects as stratagem_effects
    from rules.engine.stratagems.effects.targeting import OwnUnits

    record = RECORDED["games"][number]
    state, _ = new_game(RECORDED["setups"][record["setup"]], record["seed"])
    kinds = {
        slug: implementation.targets
        for slug, implementation in stratagem_effects.IMPLEMENTATIONS.items()
        if isinstance(implementation.targets, OwnUnits) and slug in state["stratagems"]
    }
    assert len(kinds) > 5
    listed = 0
    for step, state in replayed_states(RECORDED, number, every=5):
        units = sorted(state["units"])
        for player in (1, 2):
            enemies = [u for u in units if state["units"][u]["player"] != player]
            for trigger in ("any_time", "phase_end", "enemy_charge_declared", "after_roll"):
                window = {"trigger": trigger, "phase": state["phase"]}
                if enemies:
                    window["unit"] = enemies[step % len(enemies)]
                for targets in kinds.values():
                    found = targets(state, player, window)
                    for unit_id in [*units, "p9-u9", None, 3]:
                        assert targets.holds(state, player, window, unit_id) == (unit_id in found)
                    listed += len(found)
    assert listed > 50


# --- the arrival areas --------------------------------------------------------------------------


def arrival_areas_in_full(state, player, methods, anywhere=None):
    """`arrival_areas._arrival_areas` as it was: every enemy base buffered for each method; a
    rule's own way to arrive (`ARRIVAL_METHODS`) and a rule's "anywhere more than" the whole
    battlefield with its distance."""
    from rules.engine.battlefield.areas import base_of
    from rules.engine.battlefield.arrival_areas import _rings
    from rules.engine.core.standing_rules import ARRIVAL_METHODS

    battlefield, edition = battlefield_of(state), edition_of(state)
    enemies = [
        model
        for other in state["units"].values()
        if other["player"] != player and on_battlefield(other)
        for model in alive_models(other)
    ]
    found = {}
    for method in methods:
        allowed = battlefield.area
        if anywhere is not None:
            distance = anywhere
        elif method == "ingress":
            distance = edition.reserves_enemy_distance
            allowed = battlefield.area.difference(
                battlefield.area.buffer(-edition.reserves_edge_distance, join_style="mitre")
            )
            zone = battlefield.deployment_zone(3 - player)
            if (
                zone is not None
                and state["battle_round"] < edition.reserves_opponent_zone_from_round
            ):
                allowed = allowed.difference(zone)
        elif method == "deep_strike":
            distance = edition.deep_strike_enemy_distance
        else:
            distance = ARRIVAL_METHODS[method][0]
        keep_out = shapely.union_all([base_of(m).buffer(distance, 8) for m in enemies])
        found[method] = {
            "allowed": _rings(allowed),
            "keep_out": _rings(keep_out.intersection(battlefield.area)) if enemies else [],
            "enemy_distance": distance,
        }
    return found


# The ways asked: the Movement phase's (ingress, Deep Strike), a unit removed by a rule (Teleport
# Assault 9", Rapid Tactical Relocation 8") and a stratagem's "anywhere more than 6"".
ASKED = [
    (["ingress", "deep_strike"], None),
    (["deep_strike"], None),
    (["ingress"], None),
    (["teleport_assault"], None),
    (["rapid_tactical_relocation"], None),
    (["ingress", "deep_strike"], 6.0),
]


@pytest.mark.parametrize("number", [2, 7, 11, 14], ids=lambda n: f"game-{n}")
def test_the_arrival_areas_are_those_drawn_in_full(number, monkeypatch):
    """In the order of the game, so the keep-outs kept with the enemy units' shapes are found
    again at later positions (most are); the answer kept with a position is the one for the
    distances asked (Deep Strike and Teleport Assault, asked of the same position, differ)."""
    from rules.engine.battlefield import arrival_areas as module
    from rules.engine.core.kept import Kept

    kept: Kept = Kept(256)
    monkeypatch.setattr(module, "_KEEP_OUTS", kept)
    drawn = asked = 0
    for _, state in replayed_states(RECORDED, number, every=2):
        for player in (1, 2):
            unit = next(u for u in state["units"].values() if u["player"] == player)
            for methods, anywhere in ASKED:
                in_full = arrival_areas_in_full(state, player, methods, anywhere)
                assert module.arrival_areas(state, unit, methods, anywhere) == in_full
                drawn += sum(len(area["keep_out"]) for area in in_full.values())
                asked += 1
    assert drawn > 50
    assert len(kept) < asked // 3


# --- the placements of a position ---------------------------------------------------------------


@pytest.mark.parametrize("number", [0, 3, 6, 8, 12, 15], ids=lambda n: f"game-{n}")
def test_the_placements_kept_for_unchanged_units_are_the_placements_built_anew(number, monkeypatch):
    from rules.engine.battlefield import placement
    from rules.engine.battlefield.board import placements_from_units

    built = []

    def counted(units):
        built.append(len(units))
        return placements_from_units(units)

    monkeypatch.setattr(placement, "placements_from_units", counted)
    for _, state in replayed_states(RECORDED, number, every=1):
        kept, in_full = table(state), placements_from_units(state["units"])
        assert [p.__dict__ for p in kept] == [p.__dict__ for p in in_full]
        # The units' shapes, some carried from the last position with their placements.
        for unit_id in state["units"]:
            models = [p for p in in_full if p.unit_id == unit_id]
            assert placement.unit_shape(state, unit_id) == placement.Shape(models)
    # Units built alone: a position after a move, set-up or casualty keeping the others'.
    assert sum(1 for count in built if count == 1) > 10


def phrase_matches_in_full(phrase, keywords):
    """`phrase_matches` as it was before it was kept: the phrase split at each question."""
    from rules.engine.army.transport_capacity import _normal

    known = {_normal(k) for k in keywords}
    words = _normal(phrase)

    def split(start):
        if start == len(words):
            return True
        return any(
            words[start:end] in known and split(end) for end in range(start + 1, len(words) + 1)
        )

    return bool(words) and split(0)


def _published_transports():
    """Every TRANSPORT's capacity in the published datasheets of the rules data."""
    import json
    from pathlib import Path

    from rules.engine.army.transport_capacity import read_transport_capacity

    found = []
    for path in sorted(
        (Path(__file__).resolve().parents[1] / "rules/data/factions").glob("*/*.json")
    ):
        data = json.loads(path.read_text())
        for sheet in data.get("datasheets", []) if isinstance(data, dict) else []:
            try:
                capacity = read_transport_capacity(sheet)
            except Exception:  # a sheet this reader refuses is no TRANSPORT of the test's
                continue
            if capacity is not None:
                found.append(capacity)
    return found


@pytest.mark.parametrize("number", [0, 5, 9, 12], ids=lambda n: f"game-{n}")
def test_a_transports_phrases_kept_are_the_phrases_split_in_full(number):
    from rules.engine.army import transport_capacity
    from rules.engine.army.transport_capacity import model_keywords, phrase_matches

    capacities = _published_transports()
    assert len(capacities) >= 3  # Chimera, Rhino, the Inquisitorial Chimera
    phrases = sorted({p for c in capacities for p in [*c["eligible"], *c["excluded"], *c["space"]]})
    record = RECORDED["games"][number]
    state, _ = new_game(RECORDED["setups"][record["setup"]], record["seed"])
    transport_capacity._phrase_matches.cache_clear()
    asked = matched = 0
    for step, action in enumerate([None, *record["actions"]]):
        if action is not None:
            state, _ = apply(state, action)
        if step % 25:
            continue
        for unit in state["units"].values():
            for model in unit["models"]:
                keywords = model_keywords(state, unit, model)
                for phrase in phrases:
                    expected = phrase_matches_in_full(phrase, keywords)
                    assert phrase_matches(phrase, keywords) == expected
                    assert phrase_matches(phrase, set(keywords)) == expected
                    asked += 1
                    matched += expected
    assert asked > 500 and matched > 10


# --- wholly within the table or a deployment zone -------------------------------------------------


def wholly_within_polygon_in_full(models, polygon):
    """`measuring.wholly_within_polygon` as it was: the polygon grown anew for each hull or oval."""
    from rules.engine.battlefield.board import EPSILON, ModelSet

    group = ModelSet(models)
    inside = shapely.contains_xy(polygon, group.centres[:, 0], group.centres[:, 1])
    edge_distance = shapely.distance(polygon.boundary, shapely.points(group.centres))
    result = inside & (edge_distance >= group.radii - EPSILON)
    for index in np.flatnonzero(~group.round):
        result[index] = bool(shapely.covers(polygon.buffer(EPSILON), group.cores[index]))
    return result


@pytest.mark.parametrize("number", [1, 5, 10, 13], ids=lambda n: f"game-{n}")
def test_wholly_within_the_table_or_a_zone_is_the_answer_with_the_polygon_grown_each_time(number):
    from rules.engine.battlefield.measuring import wholly_within_polygon
    from rules.engine.battlefield.placement import placements_by_unit

    # The recorded armies stand on round bases: each unit is asked again on ovals and hulls, as
    # it stands and 2" along x (the models near an edge or a zone's line then cross it).
    others = [Base("oval", length_mm=75, width_mm=42), Base("hull", length_mm=120, width_mm=70)]
    answers = {True: 0, False: 0}
    for _, state in replayed_states(RECORDED, number, every=3):
        battlefield = battlefield_of(state)
        polygons = [battlefield.area, *battlefield.deployment_zones.values()]
        for models in placements_by_unit(state).values():
            for placed in (
                models,
                *(
                    [replace(m, base=base, facing_degrees=m.facing_degrees + 30) for m in models]
                    for base in others
                ),
                *([replace(m, base=base, x=m.x + 2.0) for m in models] for base in others),
            ):
                for polygon in polygons:
                    found = wholly_within_polygon(placed, polygon)
                    assert found.tolist() == wholly_within_polygon_in_full(placed, polygon).tolist()
                    for model, inside in zip(placed, found.tolist(), strict=True):
                        if not model.base.is_round:
                            answers[inside] += 1
    assert answers[True] > 100 and answers[False] > 100
