"""Transports in play (11e §18.01-18.05, 24.08 Deadly Demise; 10e Transports, Deadly Demise).

A unit embarked within a TRANSPORT has `location: "embarked"` and `embarked_in` (the TRANSPORT's
unit id); its models have no position. It is not on the battlefield (11e §01.02.04): nothing sees
it and nothing measures to it, yet it keeps its effects and still makes battle-shock rolls where
the edition says so (`battle_shock_tests`). TRANSPORT units carry their capacity as data
(`unit["transport"]`, read at muster by `transport_capacity`).

- Declare Battle Formations (11e §18.01; 10e Declare Battle Formations): `declare_reserves` takes
  `embarked: {unit: transport}`; capacity and eligibility are checked.
- Embark (11e §18.02; 10e Embark): the `embark` action, right after the unit's normal, advance or
  fall-back move (the engine remembers the unit that has just moved; any other action ends that
  moment), every model within 3", not set up this turn, eligible, capacity enough.
- Disembark (11e §18.03-18.04; 10e Disembark): the `disembark` action with the players' positions.
  11e: the mode is set by the TRANSPORT (rapid after its normal or ingress move; tactical when it
  has not moved and the unit fits wholly within 3" unengaged, ruling AMB-35; combat otherwise,
  with a hazard roll per model); 10e: before the TRANSPORT moves the unit acts normally, after its
  Normal move it cannot move further nor charge (`disembark_modes`).
- A destroyed TRANSPORT (11e §18.05; 10e Destroyed Transport) and Deadly Demise are resolved in
  `state["aftermath"]` once the rule that destroyed the model has finished (ruling R-TR-03):
  emergency disembark moves, placed by the embarked unit's owner (AMB-34) with the engine's
  closest set-up suggested, and Deadly Demise rolls in the order of the edition.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from rules.engine.army.transport_capacity import (
    model_keywords,
    model_refusal,
    model_space,
)
from rules.engine.army.weapons import model_weapons
from rules.engine.attacks.casualties import (
    allocate_mortal_wounds,
    destroy_model,
    hazard_mortal_wounds,
)
from rules.engine.battlefield.board import EPSILON, Base, ModelSet, Placement
from rules.engine.battlefield.measuring import (
    farthest_distance,
    objective_marker_radius,
    pairwise_distances,
)
from rules.engine.battlefield.placement import (
    battlefield_of,
    edition_of,
    engaged_units,
    final_positions,
    measured_here,
    others_on_table,
    place,
    read_positions,
    table,
    unit_placements,
)
from rules.engine.battlefield.setting_up import (
    _check_enemy_distance,
    check_disembark,
    check_embark,
    check_emergency_disembark,
)
from rules.engine.core import reactions, standing_rules
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import forbid_charge_this_turn
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, has_flag, mark_acted, set_flag, unit_flags
from rules.engine.core.hooks import implements
from rules.engine.core.notation import DiceExpression, NotationError, parse_dice
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import roll
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import continuation
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import EMBARK_WAIVERS, EMBARKED_DECLARED, MODEL_DESTROYED
from rules.engine.core.state import State, alive_models, on_battlefield, units_of
from rules.engine.phases.battle_shock import make_battle_shocked
from rules.engine.phases.shooting_targets import check_target

DEADLY_DEMISE = "Deadly Demise"


# --- who may embark where -----------------------------------------------------------------


def passengers(state: State, transport_id: str) -> list[Unit]:
    """The units embarked within a TRANSPORT now."""
    return [
        u
        for u in units_of(state, state["units"][transport_id]["player"])
        if u["location"] == "embarked" and u.get("embarked_in") == transport_id
    ]


def _space(state: State, transport: Unit, unit: Unit) -> int:
    capacity = transport["transport"]
    return sum(model_space(capacity, model_keywords(state, unit, m)) for m in alive_models(unit))


def free_space(state: State, transport: Unit) -> int:
    used = sum(_space(state, transport, u) for u in passengers(state, transport["id"]))
    return transport["transport"]["capacity"] - used


def embark_refusal(state: State, unit: Unit, transport: Unit, rule: str) -> Refusal | None:
    """Why the unit cannot embark within the TRANSPORT (capacity and eligibility), or None."""
    capacity = transport.get("transport")
    if capacity is None or transport["id"] == unit["id"]:
        return Refusal("not_a_transport", rule, f"{transport['name']} is not a TRANSPORT.")
    if transport["player"] != unit["player"]:
        return Refusal("not_your_transport", rule, f"{transport['name']} is not in your army.")
    for model in alive_models(unit):
        reason = model_refusal(capacity, model_keywords(state, unit, model))
        if reason is not None and not any(
            waiver(state, unit, model, capacity) for waiver in EMBARK_WAIVERS
        ):
            return Refusal(
                "not_eligible_to_embark",
                rule,
                f"{model['name']} ({model['id']}) cannot embark within {transport['name']}: "
                f"{reason}.",
            )
    needed, free = _space(state, transport, unit), free_space(state, transport)
    if needed > free:
        return Refusal(
            "transport_full",
            rule,
            f"{unit['name']} needs {needed} places; {transport['name']} has {free} of "
            f"{capacity['capacity']} left.",
        )
    return None


def _transport_placement(transport: Unit) -> Placement:
    """The TRANSPORT model where it stands (or stood, when it was just destroyed)."""
    model = next((m for m in transport["models"] if m["wounds_left"] > 0), transport["models"][0])
    if TYPE_CHECKING:  # a TRANSPORT that carries or carried units stands on the battlefield
        assert model["x"] is not None and model["y"] is not None
    return Placement(
        model["id"],
        transport["id"],
        transport["player"],
        model["x"],
        model["y"],
        model.get("facing") or 0.0,
        model["base"],  # type: ignore[arg-type]  # Placement reads a bundle-format base
        frozenset(transport.get("keywords", ())),
        model.get("z", 0.0),
    )


def _embark_within(ctx: Context, unit: Unit, transport: Unit) -> None:
    unit["location"] = "embarked"
    unit["embarked_in"] = transport["id"]
    for model in unit["models"]:
        model["x"] = model["y"] = None


# --- Declare Battle Formations --------------------------------------------------------------


def embark_options(state: State, player: int) -> dict[str, list[str]]:
    """For each unit of the player, the TRANSPORTs it could start the battle embarked within
    (each on its own: several passengers share the capacity)."""
    mine = units_of(state, player)
    transports = [u for u in mine if u.get("transport")]
    options: dict[str, list[str]] = {}
    for unit in mine:
        if unit.get("transport"):
            continue
        fits = [
            t["id"]
            for t in transports
            if embark_refusal(state, unit, t, cite(state, "transport_capacity")) is None
        ]
        if fits:
            options[unit["id"]] = fits
    return options


def declare_embarked(ctx: Context, player: int, chosen: Any, reserves: list[str]) -> None:
    """11e §18.01: in the Declare Battle Formations step units can start embarked within a
    friendly TRANSPORT with enough capacity remaining for the whole unit."""
    state = ctx.state
    rule = cite(state, "transport_capacity")
    if chosen is None:
        chosen = {}
    if not isinstance(chosen, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in chosen.items()
    ):
        raise Refusal("invalid_embarked", rule, "Give embarked units as {unit: transport}.")
    for unit_id, transport_id in sorted(chosen.items()):
        unit = own_unit(ctx, {"unit": unit_id, "player": player}, rule)
        transport = own_unit(ctx, {"unit": transport_id, "player": player}, rule)
        if unit_id in reserves:
            raise Refusal(
                "embarked_and_in_reserves",
                rule,
                f"{unit['name']} cannot both start embarked and in strategic reserves.",
            )
        if transport_id in chosen:
            raise Refusal("transport_embarked", rule, f"{transport['name']} is itself embarked.")
        refusal = embark_refusal(state, unit, transport, rule)
        if refusal is not None:
            raise refusal
        _embark_within(ctx, unit, transport)
        ctx.emit("unit_embarked", unit=unit_id, transport=transport_id, rule=rule)
    for standing_rule in EMBARKED_DECLARED:
        standing_rule(ctx, player)


# --- embarking ------------------------------------------------------------------------------

JUST_MOVED = "just_moved"


def note_move_made(state: State, unit_id: str) -> None:
    """The unit has just made a normal, advance or fall-back move: it may embark now."""
    state["facts"]["phase"][JUST_MOVED] = unit_id


def end_move_moment(state: State) -> None:
    state["facts"]["phase"].pop(JUST_MOVED, None)


def embark_targets(state: State, unit: Unit) -> list[str]:
    """The TRANSPORTs the unit may embark within now (for `legal_actions`)."""
    if state["facts"]["phase"].get(JUST_MOVED) != unit["id"] or not on_battlefield(unit):
        return []
    if has_flag(state, unit["id"], "disembarked") or has_flag(
        state, unit["id"], "arrived_from_reserves"
    ):
        return []
    rule = cite(state, "embark")
    found = []
    mine = [p for p in table(state) if p.unit_id == unit["id"]]
    for transport in units_of(state, unit["player"]):
        if not transport.get("transport") or not on_battlefield(transport):
            continue
        if embark_refusal(state, unit, transport, rule) is not None:
            continue
        try:
            check_embark(edition_of(state), mine, _transport_placement(transport))
        except Refusal:
            continue
        found.append(transport["id"])
    return found


def embark(ctx: Context, action: dict[str, Any]) -> None:
    """11e §18.02 / 10e Embark: right after a normal, advance or fall-back move; every model
    within 3" of the TRANSPORT; not set up this turn; eligible; enough capacity."""
    state = ctx.state
    rule = cite(state, "embark")
    unit = own_unit(ctx, action, rule)
    transport = (
        state["units"].get(action["transport"])
        if isinstance(action.get("transport"), str)
        else None
    )
    if transport is None:
        raise Refusal("unknown_transport", rule, "Name the TRANSPORT to embark within.")
    if state["facts"]["phase"].get(JUST_MOVED) != unit["id"]:
        raise Refusal(
            "not_just_moved",
            rule,
            f"{unit['name']} can embark only right after it makes a normal, advance or "
            "fall-back move.",
        )
    if has_flag(state, unit["id"], "disembarked") or has_flag(
        state, unit["id"], "arrived_from_reserves"
    ):
        raise Refusal(
            "set_up_this_turn",
            rule,
            f"{unit['name']} was set up on the battlefield this turn and cannot embark.",
        )
    if not on_battlefield(transport):
        raise Refusal(
            "transport_not_on_battlefield", rule, f"{transport['name']} is not on the battlefield."
        )
    refusal = embark_refusal(state, unit, transport, rule)
    if refusal is not None:
        raise refusal
    mine = [p for p in table(state) if p.unit_id == unit["id"]]
    check_embark(edition_of(state), mine, _transport_placement(transport))
    end_move_moment(state)
    _embark_within(ctx, unit, transport)
    set_flag(ctx, unit["id"], "embarked")
    ctx.emit("unit_embarked", unit=unit["id"], transport=transport["id"], rule=rule)


# --- where a unit can be set up around its TRANSPORT ------------------------------------------


def closest_set_up(
    state: State,
    unit: Unit,
    transport: Placement,
    distance: float,
    may_engage: frozenset = frozenset(),
    enemy_distance: float | None = None,
) -> dict[str, list[float]]:
    """Positions for as many of the unit's models as fit wholly within `distance` of the
    TRANSPORT, ring by ring from its hull outwards (so as close as possible), each touching
    the one set up before it (so in coherency), on the battlefield, on no model or marker, and
    unengaged (but for the units in `may_engage`). Used for suggestions, for whether a mode is
    possible (AMB-35) and for how many models an emergency disembark must set up.

    The answer depends on where the models on the table stand and on the arguments (the unit's
    living models, by id and by the largest base, and the TRANSPORT's placement by value): it is
    kept with the position, as the arrival areas are (the Movement phase's legal actions ask it
    of every embarked unit at each call)."""
    models = alive_models(unit)
    if not models:
        return {}
    battlefield, edition = battlefield_of(state), edition_of(state)
    radius = max(Base.from_data(m["base"]).bounding_radius for m in models)
    key = (
        "closest_set_up",
        unit["id"],
        unit["player"],
        tuple(m["id"] for m in models),
        radius,
        transport,
        distance,
        may_engage,
        enemy_distance,
    )
    measured = measured_here(state)
    found = measured.get(key)
    if found is None or found[0] is not battlefield or found[1] is not edition:
        spots = _closest_spots(
            state, unit, len(models), radius, transport, distance, may_engage, enemy_distance
        )
        found = measured[key] = (battlefield, edition, spots)
    return {model["id"]: list(spot) for model, spot in zip(models, found[2], strict=False)}


def _near(placements: list[Placement], xy: np.ndarray, gap: float) -> list[Placement]:
    """The placements whose base may come within `gap` of one of the points `xy`: by bounding
    circles, with a margin, so every base left out is certainly farther than `gap` from all of
    them (and the distance to the union of the others is the distance to the union of all)."""
    if not placements:
        return []
    centres = np.array([(p.x, p.y) for p in placements])
    reach = np.array([p.base.metrics[2] for p in placements]) + gap + 0.01
    closest = np.hypot(
        centres[:, None, 0] - xy[None, :, 0], centres[:, None, 1] - xy[None, :, 1]
    ).min(axis=1)
    return [p for p, near in zip(placements, closest <= reach, strict=True) if near]


def _closest_spots(
    state: State,
    unit: Unit,
    count: int,
    radius: float,
    transport: Placement,
    distance: float,
    may_engage: frozenset,
    enemy_distance: float | None,
) -> list[tuple[float, float, float]]:
    """`closest_set_up`'s positions, in the order of the unit's living models (`count` at
    most)."""
    battlefield, edition = battlefield_of(state), edition_of(state)
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
        return []
    xy = np.array([(c[2], c[3]) for c in candidates])
    points = shapely.points(xy)
    fine = shapely.contains(battlefield.area.buffer(-radius - 0.01), points)
    others = [p for p in table(state) if p.unit_id != unit["id"]]
    # Only the bases that may come within the gaps of a candidate are joined (the union of a
    # Strike Force table's bases was most of the time): a base left out is farther from every
    # candidate than the gap, so no candidate's test changes.
    blocking_gap = radius + 0.02
    blockers = shapely.union_all([p.polygon() for p in _near(others, xy, blocking_gap)] + [hull])
    fine &= shapely.distance(blockers, points) >= blocking_gap
    enemies = [p for p in others if p.player != unit["player"] and p.unit_id not in may_engage]
    gap = max(edition.engagement_range_horizontal, enemy_distance or 0.0) + radius + 0.02
    enemies = _near(enemies, xy, gap)
    if enemies:
        enemy_shape = shapely.union_all([p.polygon() for p in enemies])
        fine &= shapely.distance(enemy_shape, points) > gap
    if battlefield.objectives:
        centres = np.array([(o.x, o.y) for o in battlefield.objectives])
        reach = objective_marker_radius(edition) + radius + 0.02
        gaps = np.hypot(xy[:, None, 0] - centres[None, :, 0], xy[:, None, 1] - centres[None, :, 1])
        fine &= (gaps >= reach).all(axis=1)
    open_spots = [i for i in np.flatnonzero(fine)]
    chosen: list[int] = []
    for _ in range(count):
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
    return [(round(float(xy[i, 0]), 4), round(float(xy[i, 1]), 4), 0.0) for i in chosen]


def _overlaps_hull(models: list[Placement], transport: Placement, rule: str) -> None:
    """The TRANSPORT is still on the battlefield while units disembark from it (11e §18.03)."""
    hull = transport.polygon()
    for model in models:
        if model.polygon().intersection(hull).area > 1e-6:
            raise Refusal(
                "ends_on_model", rule, f"model {model.model_id} would be on the TRANSPORT"
            )


def _subset_view(unit: Unit, model_ids: set[str]) -> Unit:
    return {**unit, "models": [m for m in unit["models"] if m["id"] in model_ids]}


# --- disembarking ---------------------------------------------------------------------------


def _ingress_restriction(state: State, transport: Unit) -> tuple[float, str] | None:
    """11e §18.04 Rapid Disembark after an ingress move: the same distance from enemy models
    the TRANSPORT kept when it arrived."""
    method = state["facts"]["phase"].get("arrival_methods", {}).get(transport["id"])
    if method is None:
        return None
    edition = state["edition"]
    if method == "deep_strike":
        return edition["deep_strike_enemy_distance"], "deep_strike"
    return edition["reserves_enemy_distance"], "ingress"


def disembark_mode(state: State, unit: Unit) -> str:
    """The disembark the unit may make now, or a Refusal naming why it cannot: `rapid`,
    `tactical` (may turn into `combat`, AMB-35) under 11e §18.04; `before_transport_moved` or
    `after_transport_moved` under 10e Disembark."""
    rule = cite(state, "disembark")
    if unit["location"] != "embarked":
        raise Refusal("not_embarked", rule, f"{unit['name']} is not embarked.")
    if state["phase"] != "movement" or unit["player"] != state["active_player"]:
        raise Refusal("wrong_phase", rule, "Units disembark in their own player's Movement phase.")
    if has_acted(state, unit["id"]):
        raise Refusal("already_acted", cite(state, "once_per_phase"), f"{unit['name']} acted.")
    transport = state["units"][unit["embarked_in"]]
    if not on_battlefield(transport):
        raise Refusal(
            "transport_not_on_battlefield", rule, f"{transport['name']} is not on the battlefield."
        )
    if has_flag(state, unit["id"], "embarked"):
        raise Refusal(
            "embarked_this_phase",
            rule,
            f"{unit['name']} embarked within {transport['name']} this phase.",
        )
    flags = unit_flags(state, transport["id"])
    eleventh = state["edition"]["disembark_modes"] == "rapid_tactical_combat"
    if "fell_back" in flags or (
        "advanced" in flags
        and not standing_rules.waives(state, transport, "disembark_after_advance")
    ):
        made = "fell back" if "fell_back" in flags else "advanced"
        raise Refusal(
            "transport_advanced_or_fell_back",
            rule,
            f"{transport['name']} {made} this phase: units cannot disembark from it.",
        )
    if flags & {"moved", "advanced", "arrived_from_reserves"}:
        return "rapid" if eleventh else "after_transport_moved"
    return "tactical" if eleventh else "before_transport_moved"


def disembark_template(state: State, unit: Unit) -> dict[str, Any] | None:
    """The `disembark` action the unit may take now, with the engine's suggested set-up."""
    try:
        mode = disembark_mode(state, unit)
    except Refusal:
        return None
    transport = state["units"][unit["embarked_in"]]
    hull = _transport_placement(transport)
    restriction = _ingress_restriction(state, transport) if mode == "rapid" else None
    distance = state["edition"]["disembark_distance"]
    suggested = closest_set_up(
        state, unit, hull, distance, enemy_distance=restriction[0] if restriction else None
    )
    if len(suggested) < len(alive_models(unit)) and mode == "tactical":
        mode = "combat"
        suggested = closest_set_up(
            state,
            unit,
            hull,
            state["edition"]["combat_disembark_distance"],
            may_engage=frozenset(engaged_units(state, transport)),
        )
    template = {
        "type": "disembark",
        "player": unit["player"],
        "unit": unit["id"],
        "transport": transport["id"],
        "mode": mode,
        "positions": "required",
        "near": [hull.x, hull.y],
    }
    if len(suggested) == len(alive_models(unit)):
        template["suggested"] = suggested
    return template


def disembark(ctx: Context, action: dict[str, Any]) -> None:
    """11e §18.04 Disembark Move / 10e Disembark, checked by `setting_up.check_disembark`."""
    state = ctx.state
    rule = cite(state, "disembark")
    unit = own_unit(ctx, action, rule)
    mode = disembark_mode(state, unit)
    transport = state["units"][unit["embarked_in"]]
    hull = _transport_placement(transport)
    read = read_positions(unit, action.get("positions"), rule)
    models, others = unit_placements(state, unit, read), others_on_table(state, unit)
    battlefield, edition = battlefield_of(state), edition_of(state)
    _overlaps_hull(models, hull, rule)
    if mode == "tactical":
        try:
            check_disembark(battlefield, edition, models, others, hull)
        except Refusal:
            if len(closest_set_up(state, unit, hull, edition.disembark_distance)) == len(models):
                raise
            mode = "combat"
    if mode == "combat":
        engaged = frozenset(engaged_units(state, transport))
        check_disembark(battlefield, edition, models, others, hull, True, engaged)
    elif mode != "tactical":
        check_disembark(battlefield, edition, models, others, hull)
        restriction = _ingress_restriction(state, transport) if mode == "rapid" else None
        if restriction is not None:
            _check_enemy_distance(edition, models, others, restriction[0], restriction[1])
    ctx.emit("disembark_mode_selected", unit=unit["id"], mode=mode, rule=rule)
    positions = final_positions(read)
    if mode == "combat":
        mark_acted(ctx, unit["id"])
        record = roll(
            ctx, len(models), "hazard", cite(state, "hazard_roll"), unit["player"], unit["id"]
        )
        failures = sum(1 for v in record["values"] if v <= state["edition"]["hazard_fail_max"])
        then = {"step": "combat_disembark_set_up", "unit": unit["id"], "positions": positions}
        allocate_mortal_wounds(
            ctx, unit["id"], failures * hazard_mortal_wounds(state, unit), "hazard roll", then
        )
        return
    _set_up(ctx, unit, positions, transport["id"], mode)
    if mode in ("rapid", "after_transport_moved"):
        mark_acted(ctx, unit["id"])
        _forbid_charge(ctx, unit, f"{mode} disembark")
        if mode == "after_transport_moved" or "advanced" in unit_flags(state, transport["id"]):
            set_flag(ctx, unit["id"], "moved")
    elif mode == "tactical":
        state["facts"]["phase"].setdefault("must_move", []).append(unit["id"])
    # Disembarking is a unit being set up: the same timing point as every other set-up (10e Fire
    # Overwatch, Fires of Covenant, Reactive Command; issue 14 defect 13).
    reactions.announce(ctx, "set_up", unit["id"], "disembark", None)


def _set_up(
    ctx: Context, unit: Unit, positions: dict[str, Any], transport_id: str, how: str
) -> None:
    alive = {m["id"] for m in alive_models(unit)}
    kept = {k: v for k, v in positions.items() if k in alive}
    view = _subset_view(unit, set(kept))
    place(view, read_positions(view, kept, cite(ctx.state, "disembark")))
    unit["location"] = "battlefield"
    unit.pop("embarked_in", None)
    set_flag(ctx, unit["id"], "disembarked")
    ctx.emit("unit_disembarked", unit=unit["id"], transport=transport_id, mode=how, positions=kept)


@continuation("combat_disembark_set_up")
def _combat_disembark_set_up(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """11e §18.04 Combat Disembark, after the hazard rolls: the survivors are set up; the unit
    is battle-shocked and cannot declare a charge this turn."""
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    _set_up(ctx, unit, data["positions"], unit["embarked_in"], "combat")
    make_battle_shocked(ctx, unit, "combat disembark")
    _forbid_charge(ctx, unit, "combat disembark")
    reactions.announce(ctx, "set_up", unit["id"], "disembark", None)


def must_move_after_disembark(state: State) -> list[str]:
    """11e §18.04 Tactical Disembark: units that must still be selected for a normal or advance
    move this phase."""
    return [
        u
        for u in state["facts"]["phase"].get("must_move", [])
        if not has_acted(state, u) and on_battlefield(state["units"][u])
    ]


# --- destroyed models: emergency disembark and Deadly Demise ------------------------------------


def _deadly_demise_parameter(state: State, unit: Unit, model: Model) -> Any:
    sheet = state["datasheets"][unit["parts"][model["part"]]["datasheet"]]
    return next(
        (a.get("parameter") for a in sheet.get("abilities", []) if a["name"] == DEADLY_DEMISE),
        None,
    )


def _watch_destruction(ctx: Context, unit: Unit, model: Model) -> None:
    """Queue what a destroyed model sets off, in the edition's order."""
    state = ctx.state
    queue = state.setdefault("aftermath", [])
    demise = _deadly_demise_parameter(state, unit, model)
    demise_items = []
    if demise is not None and model.get("x") is not None:
        demise_items.append(
            {"kind": "deadly_demise", "unit": unit["id"], "model": model["id"], "x": demise}
        )
    disembarks = []
    if unit.get("transport") and not alive_models(unit):
        disembarks = [
            {"kind": "emergency_disembark", "unit": p["id"], "transport": unit["id"]}
            for p in passengers(state, unit["id"])
        ]
    if state["edition"]["deadly_demise_before_emergency_disembark"]:
        queue.extend(demise_items + disembarks)
    else:
        queue.extend(disembarks + demise_items)


# A core rule (18.05 Destroyed Transport, with 24.08 Deadly Demise, recorded where it resolves):
# subscribed without a rule of the data to record.
MODEL_DESTROYED.subscribe(_watch_destruction, order=10)


def resolve_aftermath(ctx: Context) -> None:
    """Resolve queued consequences of destroyed models, one at a time, while nothing waits for a
    player's decision (ruling R-TR-03)."""
    state = ctx.state
    while state.get("aftermath") and not state["pending"] and state["stage"] != "ended":
        item = state["aftermath"].pop(0)
        if item["kind"] == "deadly_demise":
            _deadly_demise(ctx, item)
        else:
            _emergency_disembark(ctx, item)


def _emergency_disembark(ctx: Context, item: dict[str, Any]) -> None:
    """11e §18.05: a hazard roll per model, then set up wholly within 6" as close as possible;
    10e Destroyed Transport: set up wholly within 3" (or within 6" when the unit cannot be),
    then a D6 per model."""
    state = ctx.state
    unit, transport = state["units"][item["unit"]], state["units"][item["transport"]]
    if unit["location"] != "embarked" or not alive_models(unit):
        return
    edition = state["edition"]
    rule = cite(state, "emergency_disembark")
    then: dict[str, Any] = {
        "step": "emergency_disembark_ask",
        "unit": unit["id"],
        "transport": transport["id"],
    }
    if edition["emergency_disembark"] == "hazard_rolls_then_set_up":
        record = roll(ctx, len(alive_models(unit)), "hazard", rule, unit["player"], unit["id"])
        failures = sum(1 for v in record["values"] if v <= edition["emergency_disembark_fail_max"])
        then.update(distance=edition["emergency_disembark_distance"], fail_max=None)
        allocate_mortal_wounds(
            ctx,
            unit["id"],
            failures * hazard_mortal_wounds(state, unit),
            "emergency disembark",
            then,
        )
        return
    hull = _transport_placement(transport)
    near = edition["destroyed_transport_near_distance"]
    if near and len(closest_set_up(state, unit, hull, near)) == len(alive_models(unit)):
        then.update(distance=near, fail_max=edition["destroyed_transport_near_fail_max"])
    else:
        then.update(
            distance=edition["emergency_disembark_distance"],
            fail_max=edition["emergency_disembark_fail_max"],
        )
    _ask_emergency_set_up(ctx, then, None)


@continuation("emergency_disembark_ask")
def _ask_emergency_set_up(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    unit, transport = state["units"][data["unit"]], state["units"][data["transport"]]
    if not alive_models(unit):
        return
    hull = _transport_placement(transport)
    suggested = closest_set_up(state, unit, hull, data["distance"])
    push_decision(
        ctx,
        unit["player"],
        "emergency_disembark",
        {
            "unit": unit["id"],
            "transport": transport["id"],
            "max_distance": data["distance"],
            "near": [hull.x, hull.y],
            "suggested": suggested,
            "fewest_models": len(suggested),
        },
        {
            **data,
            "step": "emergency_disembark_placed",
            "suggested": suggested,
            "fewest_models": len(suggested),
        },
        cite(state, "emergency_disembark"),
        f"{transport['name']} was destroyed: set up {unit['name']} wholly within "
        f'{data["distance"]:g}" of it; models you cannot set up are destroyed.',
    )


@continuation("emergency_disembark_placed")
def _emergency_placed(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    rule = cite(state, "emergency_disembark")
    unit, transport = state["units"][data["unit"]], state["units"][data["transport"]]
    if not isinstance(choice, dict):
        raise Refusal("positions_required", rule, "Give a position [x, y, facing] per model.")
    alive = {m["id"] for m in alive_models(unit)}
    if not set(choice) <= alive:
        raise Refusal("positions_for_every_model", rule, f"Only models of {unit['name']}.")
    if len(choice) < data["fewest_models"]:
        raise Refusal(
            "models_can_be_set_up",
            rule,
            f"{data['fewest_models']} models of {unit['name']} can be set up wholly within "
            f'{data["distance"]:g}"; set up at least that many ({len(choice)} given).',
        )
    view = _subset_view(unit, set(choice))
    read = read_positions(view, choice, rule)
    models, others = unit_placements(state, view, read), others_on_table(state, unit)
    hull = _transport_placement(transport)
    battlefield, edition = battlefield_of(state), edition_of(state)
    _overlaps_hull(models, hull, rule)
    if data["distance"] == edition.emergency_disembark_distance:
        check_emergency_disembark(battlefield, edition, models, others, hull)
    else:
        check_disembark(battlefield, edition, models, others, hull)
    if state["edition"]["emergency_disembark_as_close_as_possible"] and data["suggested"]:
        _check_as_close_as_possible(state, unit, models, hull, data["suggested"], rule)
    for model in alive_models(unit):
        if model["id"] not in choice:
            destroy_model(ctx, unit, model, "emergency disembark: could not be set up")
    if not alive_models(unit):
        return
    _set_up(ctx, unit, final_positions(read), transport["id"], "emergency")
    if state["edition"]["emergency_disembark_battle_shocks"]:
        make_battle_shocked(ctx, unit, "emergency disembark")
    if state["edition"]["emergency_disembark_forbids_charge"]:
        _forbid_charge(ctx, unit, "emergency disembark")
    if data["fail_max"] is not None:
        record = roll(ctx, len(models), "destroyed_transport", rule, unit["player"], unit["id"])
        failures = sum(1 for v in record["values"] if v <= data["fail_max"])
        allocate_mortal_wounds(
            ctx, unit["id"], failures, "destroyed transport", {"step": "aftermath_step_done"}
        )


@continuation("aftermath_step_done")
def _aftermath_step_done(_ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    """Nothing more: the next queued consequence starts when no decision waits."""


def _check_as_close_as_possible(
    state: State,
    unit: Unit,
    models: list[Placement],
    hull: Placement,
    suggested: dict[str, list[float]],
    rule: str,
) -> None:
    """11e §18.05 "as close as possible" (ruling R-TR-04): no model may end farther from the
    TRANSPORT than the farthest model of the engine's ring-by-ring set-up."""
    reference = [
        p.moved_to(suggested[p.model_id][0], suggested[p.model_id][1], 0.0)
        for p in unit_placements(
            state,
            _subset_view(unit, set(suggested)),
            {k: {"path": [(v[0], v[1])], "facing": 0.0} for k, v in suggested.items()},
        )
    ]
    limit = max(farthest_distance(p, hull) for p in reference)
    for model in models:
        far = farthest_distance(model, hull)
        if far > limit + 0.01:
            raise Refusal(
                "not_as_close_as_possible",
                rule,
                f'model {model.model_id} would be {far:.1f}" from the TRANSPORT; the unit can '
                f'be set up within {limit:.1f}" of it',
            )


def _deadly_demise_dice(value: Any) -> DiceExpression:
    """The X of Deadly Demise X ('D3', '2', 'D6+1'), read by the one dice notation parser."""
    try:
        return parse_dice(value)
    except NotationError as error:
        raise Refusal(
            "unreadable_deadly_demise", "Deadly Demise", f"Deadly Demise {value!r}"
        ) from error


@implements("ability", "deadly-demise-10e", "deadly-demise-11e")
def _deadly_demise(ctx: Context, item: dict[str, Any]) -> None:
    """10e Deadly Demise / 11e 24.08: when the model is destroyed roll one D6; on a 6 each unit
    within 6" of it suffers X mortal wounds (a random X rolled separately for each unit)."""
    state = ctx.state
    rule = cite(state, "deadly_demise")
    unit = state["units"][item["unit"]]
    model = next(m for m in unit["models"] if m["id"] == item["model"])
    record = roll(ctx, 1, "deadly_demise", rule, unit["player"], unit["id"])
    if record["total"] < 6:
        return
    if TYPE_CHECKING:  # Deadly Demise is queued only for a model destroyed where it stood
        assert model["x"] is not None and model["y"] is not None
    dead = Placement(
        model["id"],
        unit["id"],
        unit["player"],
        model["x"],
        model["y"],
        model.get("facing") or 0.0,
        model["base"],  # type: ignore[arg-type]  # Placement reads a bundle-format base
    )
    everyone = table(state)
    if not everyone:
        return
    gaps = pairwise_distances(ModelSet([dead]), ModelSet(everyone))[0]
    victims = sorted(
        {p.unit_id for p, gap in zip(everyone, gaps, strict=True) if gap <= 6 + EPSILON}
    )
    ctx.emit("deadly_demise", unit=unit["id"], model=model["id"], units=victims, rule=rule)
    expression = _deadly_demise_dice(item["x"])
    dice, sides, plus = expression.count, expression.sides, expression.modifier
    wounds = []
    for victim in victims:
        amount = plus
        if dice:
            amount += roll(ctx, dice, "deadly_demise_wounds", rule, unit["player"], victim, sides)[
                "total"
            ]
        wounds.append([victim, amount])
    _deadly_demise_next(ctx, {"wounds": wounds}, None)


@continuation("deadly_demise_next")
def _deadly_demise_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    if not data["wounds"]:
        return
    (victim, amount), rest = data["wounds"][0], data["wounds"][1:]
    allocate_mortal_wounds(
        ctx, victim, amount, "deadly demise", {"step": "deadly_demise_next", "wounds": rest}
    )


def passengers_lost_with(state: State, transport_ids: set[str]) -> list[Unit]:
    """Units embarked within TRANSPORTs that are removed without a disembark (strategic
    reserves that never arrived, ruling R-TR-07)."""
    return [
        u
        for u in state["units"].values()
        if u["location"] == "embarked" and u.get("embarked_in") in transport_ids
    ]


# --- Firing Deck ----------------------------------------------------------------------------

FIRING_DECK = "Firing Deck"


def firing_deck_size(state: State, transport: Unit) -> int:
    """X of the TRANSPORT's Firing Deck X (0 without the ability)."""
    sheet = state["datasheets"][transport["datasheet"]]
    found = [a.get("parameter") for a in sheet.get("abilities", []) if a["name"] == FIRING_DECK]
    numbers = [int(m.group()) for p in found if (m := re.search(r"\d+", str(p)))]
    return max(numbers, default=0)


def _one_shot(weapon: dict[str, Any]) -> bool:
    return any(a.strip().lower() == "one shot" for a in weapon.get("abilities", []))


def _deck_weapons(state: State, transport: Unit) -> list[tuple[Unit, Model, dict[str, Any]]]:
    """(passenger unit, model, weapon) for every ranged weapon, [ONE SHOT] excluded, of models
    embarked within the TRANSPORT whose units have not been selected to shoot this phase."""
    found = []
    for unit in passengers(state, transport["id"]):
        if has_acted(state, unit["id"]):
            continue
        for model in alive_models(unit):
            for weapon in model_weapons(state, unit, model, "ranged"):
                if not _one_shot(weapon):
                    found.append((unit, model, weapon))
    return found


def firing_deck_options(state: State, transport: Unit) -> dict[str, Any] | None:
    """For `legal_actions`: how many embarked models may lend a weapon, and each weapon with the
    targets the TRANSPORT can shoot it at."""
    size = firing_deck_size(state, transport)
    if not size or not on_battlefield(transport):
        return None
    deck = _deck_weapons(state, transport)
    if not deck:
        return None
    shooters = [m["id"] for m in alive_models(transport)]
    enemies = sorted(
        u["id"]
        for u in state["units"].values()
        if u["player"] != transport["player"] and on_battlefield(u)
    )
    targets_of: dict[str, list[str]] = {}
    weapons = []
    for unit, model, weapon in deck:
        if weapon["name"] not in targets_of:
            targets_of[weapon["name"]] = [
                t
                for t in enemies
                if check_target(state, transport, weapon, shooters, t).refusal is None
            ]
        weapons.append(
            {
                "unit": unit["id"],
                "model": model["id"],
                "weapon": weapon["name"],
                "targets": targets_of[weapon["name"]],
            }
        )
    return {"max_models": size, "weapons": weapons}


@implements("ability", "firing-deck-10e", "firing-deck-11e")
def firing_deck_attacks(
    state: State, transport: Unit, chosen: Any
) -> tuple[list[tuple[dict[str, Any], list[str], str]], list[str]]:
    """10e Firing Deck / 11e 24.14: when the TRANSPORT shoots, up to X embarked models (whose
    units have not been selected to shoot this phase) each lend one ranged weapon ([ONE SHOT]
    excluded); the TRANSPORT has it until its attacks are resolved. Returns the (weapon, the
    TRANSPORT's models, target) assignments and the lending units, which then count as having
    been selected to shoot this phase (ruling R-TR-08)."""
    rule = cite(state, "firing_deck")
    if chosen is None:
        return [], []
    size = firing_deck_size(state, transport)
    if not isinstance(chosen, list) or not all(isinstance(c, dict) for c in chosen):
        raise Refusal(
            "invalid_firing_deck", rule, 'Firing Deck: [{"model", "weapon", "target"}, ...].'
        )
    if len(chosen) > size:
        raise Refusal(
            "firing_deck_too_many",
            rule,
            f"{transport['name']} has Firing Deck {size}: {len(chosen)} models selected.",
        )
    deck = {(m["id"], w["name"]): (u, w) for u, m, w in _deck_weapons(state, transport)}
    models = [c.get("model") for c in chosen]
    if len(set(models)) != len(models):
        raise Refusal("firing_deck_model_twice", rule, "Select each embarked model once.")
    shooters = [m["id"] for m in alive_models(transport)]
    assignments, lenders = [], []
    for item in chosen:
        found = deck.get((item.get("model"), item.get("weapon")))
        if found is None:
            raise Refusal(
                "firing_deck_weapon",
                rule,
                f"{item.get('model')!r} is not embarked within {transport['name']} with a ranged "
                f"weapon {item.get('weapon')!r} (not [ONE SHOT], its unit not yet selected to "
                "shoot this phase).",
            )
        unit, weapon = found
        assignments.append((weapon, shooters, item.get("target")))
        if unit["id"] not in lenders:
            lenders.append(unit["id"])
    return assignments, lenders


def _forbid_charge(ctx: Context, unit: Unit, source: str) -> None:
    """ "Cannot declare a charge this turn" (11e 18.04, 18.05; 10e Disembark)."""
    forbid_charge_this_turn(ctx, unit["id"], source, unit["player"])
