"""The tactical computer opponent (issue 19): an agent that plays every kind of action and
decision the engine pushes, choosing with simple tactics, and falls back on the self-play agent
(`tools/selfplay.choose_action`) for whatever it has no tactic for, so it never stalls.

Its tactics:
- deployment: the unit's formation at the point of its zone nearest an objective marker (and in
  a terrain area when one is as near), no unit in reserve;
- movement: each unit heads for the nearest objective marker no other unit of its side holds,
  or, when every marker is held, for the nearest enemy; a unit already on a marker stays;
  the whole unit moves rigidly (coherency kept), the longest straight move the engine accepts;
- shooting: every weapon at the one target whose damage preview is best: models destroyed
  weighted by their points, a bonus for a target on an objective marker;
- charges: when the chance of rolling the distance on 2D6 and the unit's melee punch are good
  enough; fights (normal fights first), piles in and consolidates toward the enemy;
- stratagems and Orders: Command Re-roll on a failed charge roll or on a failed save of a
  valuable model, Go to Ground (and the like) against heavy fire, Insane Bravery on a
  Battle-shock test, every Order its Officers may issue (the most helpful first); every other
  window passes at once.

Deterministic: its choices come from the state alone, and the only randomness (the path search
of `tools/pathing`) draws from a `random.Random` seeded by the game's seed commitment, the state's
version and the player. It never writes the state: it returns actions, which the caller applies
(the engine refuses what is illegal; the next candidate is tried).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from typing import Any

from rules.engine.army.weapons import model_weapons
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.effects import effects_on_unit
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Decision, Event, Objective, Unit
from rules.engine.core.state import (
    State,
    alive_models,
    base_radius_inches,
    on_battlefield,
    units_of,
)
from rules.engine.phases.attack_preview import shooting_preview
from rules.engine.sequence.game import acting_player, apply, legal_actions, new_game
from rules.engine.tools import selfplay

PREVIEW_TRIALS = 200
# A charge is declared when the 2D6 roll reaches the distance this often (and the unit can fight).
CHARGE_CHANCE = 0.5
# Stratagems the agent uses against heavy fire: the target unit's own defensive stratagems.
DEFENSIVE = ("go-to-ground", "smokescreen", "truesilver-armour")
MOVE_FRACTIONS = (1.0, 0.75, 0.5, 0.25)
MOVE_ANGLES = (0.0, 25.0, -25.0, 50.0, -50.0, 80.0, -80.0)


def agent_rng(state: State, player: int) -> random.Random:
    """The agent's own dice: from the game's seed commitment, the version and the player."""
    return random.Random(f"{state.get('seed_commitment', '')}:{state['version']}:{player}")


def choose(state: State, player: int) -> dict[str, Any]:
    """The action the tactical agent plays now: the first of its candidates the engine accepts,
    else the self-play agent's. Raises `selfplay.SelfplayError` if nothing is accepted."""
    action, _state, _events = play(state, player)
    return action


def opponent_action(state: State, player: int, level: str = "tactical") -> dict[str, Any]:
    """The computer opponent's next action at its level: "tactical" (this agent) or "random"
    (the self-play agent, with the same dice of its own)."""
    if level == "tactical":
        return choose(state, player)
    rng = agent_rng(state, player)
    for candidate in selfplay.choose_action(rng, state, player):
        try:
            apply(state, candidate)
        except Refusal:
            continue
        return candidate
    raise selfplay.SelfplayError("the random agent found no accepted action")


def play(state: State, player: int) -> tuple[dict[str, Any], State, list[Event]]:
    """The chosen action, with the state and events it produces."""
    rng = agent_rng(state, player)
    for candidate in candidates(rng, state, player):
        try:
            new_state, events = apply(state, candidate)
        except Refusal:
            continue
        return candidate, new_state, events
    raise selfplay.SelfplayError(f"no candidate action was accepted at version {state['version']}")


def candidates(rng: random.Random, state: State, player: int) -> Iterator[dict[str, Any]]:
    """Candidate actions in the order to try them: the tactic's, then (only when the engine
    refused them all) the self-play agent's."""
    options = legal_actions(state, player)
    if not options:
        raise selfplay.SelfplayError(f"player {player} has no legal action")
    try:
        tried = _tactical(rng, state, player, options)
    except Exception:  # noqa: BLE001 - a shape the tactics do not know must not stall the game
        # The self-play agent decides instead.
        tried = []
    yield from tried
    yield from selfplay.choose_action(rng, state, player)


def _tactical(
    rng: random.Random, state: State, player: int, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    if state["pending"]:
        return _decision(rng, state, player, options)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for option in options:
        by_type.setdefault(option["type"], []).append(option)
    if "declare_reserves" in by_type:
        # Everything on the table: every unit fights for the objectives from the first turn.
        return [{"type": "declare_reserves", "player": player, "units": []}]
    if "deploy" in by_type:
        return _deploy(state, by_type["deploy"][0])
    if "scout" in by_type or "end_scouts" in by_type:
        return [o for o in options if o["type"] == "end_scouts"]
    phase = state.get("phase")
    ending = [o for o in options if o["type"] in ("end_phase", "end_step")]
    if phase == "command":
        return [*_orders(state, by_type.get("issue_order", [])), *ending]
    if phase == "movement":
        return [*_movement(rng, state, player, by_type), *ending]
    if phase == "shooting":
        return [*_shooting(state, by_type.get("shoot", [])), *ending]
    if phase == "charge":
        return [*_charges(state, by_type.get("declare_charge", [])), *ending]
    if phase == "fight":
        return _fights(rng, state, by_type, ending)
    return ending


# --- Orders (Astra Militarum's Voice of Command) -------------------------------------------


def _order_worth(state: State, order: str, unit: Unit) -> int:
    """How much an Order helps the unit now: OC on a marker, speed far from its goal, more
    shots or better aim otherwise."""
    if order == "duty-and-honour" and _on_marker(state, unit):
        return 5
    goal = _goal(state, unit) if on_battlefield(unit) else None
    if order == "move-move-move" and goal and math.dist(_centre(unit), goal) > 8:
        return 4
    worth = {"first-rank-fire-second-rank-fire": 3, "take-aim": 2, "target-weak-spot": 2}
    return worth.get(order, 1)


def _orders(
    state: State, options: list[dict[str, Any]], key: str | None = None
) -> list[dict[str, Any]]:
    """The Orders offered, the most helpful first (each unit at most one, the engine checks)."""
    scored = []
    for index, option in enumerate(options):
        detail = option[key] if key else option
        unit = state["units"].get(detail.get("unit", ""))
        if unit is None or not alive_models(unit):
            continue
        if detail["order"] in _orders_on(state, unit["id"]):
            continue  # the rules let it be issued again, to no end: an Order spent for nothing
        scored.append((-_order_worth(state, detail["order"], unit), index, option))
    return [option for _, _, option in sorted(scored, key=lambda s: s[:2])]


def _orders_on(state: State, unit_id: str) -> set[str]:
    """The Orders affecting the unit now (each is an effect that names its issuer): the reading
    of the Astra Militarum package's `current_orders`, which tools may not import (only faction
    packages import a faction package, tests/test_engine_layers.py)."""
    return {
        e["modifier"]["order"]
        for e in effects_on_unit(state, unit_id)
        if "issued_by" in e["modifier"]
    }


# --- deployment ---------------------------------------------------------------------------


def _inside(point: tuple[float, float], polygon: list[list[float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _terrain_points(state: State) -> list[tuple[float, float]]:
    """The centres of the mission's terrain areas (cover to deploy behind or in)."""
    points = []
    for feature in state["mission"].get("terrain") or []:
        outline = feature.get("footprint") or feature.get("polygon") or feature.get("points")
        if isinstance(outline, list) and outline and isinstance(outline[0], list | tuple):
            xs = [float(p[0]) for p in outline]
            ys = [float(p[1]) for p in outline]
            points.append((sum(xs) / len(xs), sum(ys) / len(ys)))
    return points


def _deploy(state: State, template: dict[str, Any]) -> list[dict[str, Any]]:
    """Formations at grid points of the zone, nearest an objective marker first, in cover
    (near a terrain area's centre) breaking near-ties."""
    unit = state["units"][template["unit"]]
    zone = state["mission"]["deployment_zones"][str(unit["player"])]
    models = alive_models(unit)
    per_row = 5
    span = 2 * max(base_radius_inches(m["base"]) for m in models) + 0.5
    width = span * min(per_row, len(models))
    depth = span * math.ceil(len(models) / per_row)
    deployed = [u for u in units_of(state, unit["player"]) if on_battlefield(u)]
    markers = [
        (o["x"], o["y"])
        for o in state["objectives"]
        if not any(_holds(state, u, o) for u in deployed)
    ] or [(o["x"], o["y"]) for o in state["objectives"]]
    cover = _terrain_points(state)
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    scored = []
    for gx in range(int(min(xs)) + 1, int(max(xs)), 2):
        for gy in range(int(min(ys)) + 1, int(max(ys)), 2):
            corners = [(gx, gy), (gx + width, gy), (gx, gy + depth), (gx + width, gy + depth)]
            if not all(_inside(c, zone) for c in corners):
                continue
            centre = (gx + width / 2, gy + depth / 2)
            near = min((math.dist(centre, m) for m in markers), default=0.0)
            shelter = min((math.dist(centre, c) for c in cover), default=99.0)
            scored.append((round(near) + min(shelter, 6.0) / 6.0, gx, gy))
    scored.sort()
    return [
        {**template, "positions": selfplay._formation(models, float(x), float(y), 0.0)}
        for _, x, y in scored[:60]
    ]


# --- movement -----------------------------------------------------------------------------


def _centre(unit: Unit) -> tuple[float, float]:
    models = alive_models(unit)
    # The agent measures units on the battlefield: their models have `x`, `y`.
    return (sum(m["x"] for m in models) / len(models), sum(m["y"] for m in models) / len(models))  # type: ignore[misc]


def _holds(state: State, unit: Unit, marker: Objective) -> bool:
    """Some model of the unit is within the objective range of the marker (a unit on the
    battlefield: its models have `x`, `y`)."""
    reach = state["edition"].get("objective_range_horizontal", 3.0)
    return any(
        math.dist((m["x"], m["y"]), (marker["x"], marker["y"])) - base_radius_inches(m["base"])  # type: ignore[arg-type]
        <= reach - 0.25
        for m in alive_models(unit)
    )


def _first_holder(state: State, unit: Unit) -> bool:
    """The unit holds a marker that no unit of its side before it (by id) holds."""
    before = [
        u for u in units_of(state, unit["player"]) if u["id"] < unit["id"] and on_battlefield(u)
    ]
    return any(
        _holds(state, unit, o) and not any(_holds(state, u, o) for u in before)
        for o in state["objectives"]
    )


def _enemies(state: State, player: int) -> list[Unit]:
    return [u for u in state["units"].values() if u["player"] != player and on_battlefield(u)]


def _goal(state: State, unit: Unit) -> tuple[float, float] | None:
    """The nearest marker no other unit of the side holds, else the nearest enemy unit."""
    mine = [
        u for u in units_of(state, unit["player"]) if u["id"] != unit["id"] and on_battlefield(u)
    ]
    centre = _centre(unit)
    free = [o for o in state["objectives"] if not any(_holds(state, u, o) for u in mine)]
    if free:
        marker = min(free, key=lambda o: math.dist(centre, (o["x"], o["y"])))
        return (marker["x"], marker["y"])
    enemies = _enemies(state, unit["player"])
    if enemies:
        return min((_centre(e) for e in enemies), key=lambda c: math.dist(centre, c))
    return None


def _movement(
    rng: random.Random, state: State, player: int, by_type: dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The first unit still to move: hold a marker it is on, else head for its goal; arrivals
    from reserves come on by the self-play agent."""
    stationary = {o["unit"]: o for o in by_type.get("remain_stationary", [])}
    for template in by_type.get("arrive", []):
        return [a for a in (selfplay._fill(rng, state, template) for _ in range(10)) if a]
    for template in by_type.get("move", []):
        unit = state["units"][template["unit"]]
        if not on_battlefield(unit):
            continue
        hold = stationary.get(unit["id"])
        if hold is not None and _first_holder(state, unit):
            return [hold]
        goal = _goal(state, unit)
        moves = _moves_toward(state, unit, template, goal) if goal else []
        return [*moves, *([hold] if hold else [])]
    # Engaged units stay in the fight; the others with nothing to do remain stationary.
    return list(stationary.values())[:1]


def _moves_toward(
    state: State, unit: Unit, template: dict[str, Any], goal: tuple[float, float]
) -> list[dict[str, Any]]:
    """Rigid straight moves of the whole unit toward the goal (stopping on a marker or short
    of the enemy), the longest first, turned aside when the straight way is refused."""
    cx, cy = _centre(unit)
    distance = math.dist((cx, cy), goal)
    reach = min(float(template.get("max_distance") or 0.0) - 0.05, distance - 1.0)
    if reach <= 0.2:
        return []
    heading = math.atan2(goal[1] - cy, goal[0] - cx)
    moves = []
    width = state["mission"]["battlefield"]["width"]
    depth = state["mission"]["battlefield"]["depth"]
    for fraction in MOVE_FRACTIONS:
        for angle in MOVE_ANGLES:
            length = reach * fraction
            turn = heading + math.radians(angle)
            dx, dy = length * math.cos(turn), length * math.sin(turn)
            shifted = selfplay._translate(unit, dx, dy)
            if all(0.5 < p[0] < width - 0.5 and 0.5 < p[1] < depth - 0.5 for p in shifted.values()):
                moves.append(
                    {
                        "type": "move",
                        "player": unit["player"],
                        "unit": unit["id"],
                        "positions": shifted,
                    }
                )
    return moves


# --- shooting -----------------------------------------------------------------------------


def model_points(state: State, unit: Unit) -> float:
    """Points per model of the unit (its datasheets' cheapest size, spread over its models)."""
    total = 0.0
    for part in unit.get("parts", []):
        sheet = state["datasheets"].get(part["datasheet"], {})
        prices = sheet.get("points") or []
        if prices:
            cheapest = min(prices, key=lambda p: p["models"])
            total += cheapest["points"]
    models = len(unit["models"]) or 1
    return total / models if total else 10.0


def _on_marker(state: State, unit: Unit) -> bool:
    return any(_holds(state, unit, o) for o in state["objectives"])


def target_value(state: State, target_id: str, result: dict[str, Any]) -> float:
    """What a preview's result is worth: models destroyed by their points, a little for damage,
    half as much again for a unit on an objective marker."""
    target = state["units"][target_id]
    value = result["models_destroyed"]["mean"] * model_points(state, target)
    value += 0.5 * result["damage"]["mean"]
    return value * (1.5 if _on_marker(state, target) else 1.0)


def shooting_assignments(template: dict[str, Any], target: str) -> list[dict[str, Any]]:
    """Every weapon able to shoot `target` at it (one profile of each weapon, pistols only when
    nothing else can)."""
    usable = [o for o in template["weapons"] if target in o["targets"]]
    others = [o for o in usable if not o.get("close_quarters")]
    chosen: dict[str, dict[str, Any]] = {}
    for option in others or usable:
        chosen.setdefault(option.get("weapon_of", option["weapon"]), option)
    return [{"weapon": o["weapon"], "target": target} for o in chosen.values()]


def best_target(state: State, template: dict[str, Any]) -> tuple[str, list, float] | None:
    """The target whose preview is worth most, its assignments and its value."""
    targets = sorted({t for o in template["weapons"] for t in o["targets"]})
    best = None
    for target in targets:
        assignments = shooting_assignments(template, target)
        try:
            preview = shooting_preview(state, template["unit"], assignments, PREVIEW_TRIALS)
        except Refusal:
            continue
        value = sum(target_value(state, t, r) for t, r in preview["targets"].items())
        if best is None or value > best[2]:
            best = (target, assignments, value)
    return best


def _shooting(state: State, shots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for template in shots:
        chosen = best_target(state, template)
        if chosen is None:
            continue
        return [
            {
                "type": "shoot",
                "player": template["player"],
                "unit": template["unit"],
                "assignments": chosen[1],
            }
        ]
    return []


# --- charges and fights -------------------------------------------------------------------


def _average(expression: Any) -> float:
    """The average of a characteristic like "2", "D6", "D3+1" or 3."""
    text = str(expression).upper().replace(" ", "")
    if not text:
        return 0.0
    total = 0.0
    for term in text.split("+"):
        if "D" in term:
            count, _, sides = term.partition("D")
            total += (int(count) if count else 1) * (int(sides) + 1) / 2
        else:
            total += float(term)
    return total


def punch(state: State, unit: Unit, kind: str) -> float:
    """The unit's `melee` or `ranged` damage before wounds and saves: each model's best weapon
    of the kind, A x D x the chance to hit."""
    total = 0.0
    for model in alive_models(unit):
        best = 0.0
        for weapon in model_weapons(state, unit, model, kind):
            try:
                hit = (7 - int(weapon.get("skill") or 4)) / 6
                best = max(best, _average(weapon.get("A", 1)) * _average(weapon.get("D", 1)) * hit)
            except ValueError:
                continue
        total += best
    return total


def two_dice_at_least(total: int) -> float:
    """The chance that 2D6 roll `total` or more."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= total)
    return ways / 36


def charge_chance(state: State, unit: Unit, target: Unit) -> float:
    engagement = state["edition"].get("engagement_range_horizontal", 1.0)
    gap = unit_distance(unit, target) - engagement
    return 1.0 if gap <= 0 else two_dice_at_least(math.ceil(gap))


def _charges(state: State, charges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for template in charges:
        unit = state["units"][template["unit"]]
        melee = punch(state, unit, "melee")
        # A unit better at shooting than at fighting stays out of combat.
        if melee < 2.0 or melee < 0.8 * punch(state, unit, "ranged"):
            continue
        scored = []
        for target_id in template.get("targets", []):
            target = state["units"][target_id]
            chance = charge_chance(state, unit, target)
            toughness = sum(m["wounds_left"] for m in alive_models(target)) or 1
            worth = chance * min(1.0, melee / toughness) * model_points(state, target)
            # The expected fight: it hits at least as hard as the target hits back.
            if chance >= CHARGE_CHANCE and melee >= punch(state, target, "melee"):
                scored.append((-worth, target_id))
        if scored:
            target_id = min(scored)[1]
            return [
                {
                    "type": "declare_charge",
                    "player": template["player"],
                    "unit": template["unit"],
                    "targets": [target_id],
                }
            ]
    return []


def _fights(
    rng: random.Random,
    state: State,
    by_type: dict[str, list[dict[str, Any]]],
    ending: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Fight first (a normal fight, piling in toward the enemy), then pile in and consolidate."""
    for kind in ("fight", "pile_in", "consolidate"):
        for template in by_type.get(kind, []):
            if kind == "fight":
                action = {"type": "fight", "player": template["player"], "unit": template["unit"]}
                if "fight_types" in template:
                    types = template["fight_types"]
                    action["fight_type"] = "normal" if "normal" in types else types[0]
                tries = []
                if template.get("pile_in") == "optional" and action.get("fight_type") in (
                    None,
                    "overrun",
                ):
                    unit = state["units"][template["unit"]]
                    piled = selfplay._close_combat_positions(rng, state, unit, "pile_in")
                    if piled is not None:
                        tries.append({**action, "pile_in": piled})
                return [*tries, action]
            filled = selfplay._fill(rng, state, template)
            return [filled] if filled else []
    return ending


# --- decisions and windows ----------------------------------------------------------------


def _decision(
    rng: random.Random, state: State, player: int, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    decision = state["pending"][-1]
    kind = decision["kind"]
    passing = [o for o in options if o.get("choice") in ("pass", None)]
    if kind == "stratagem_window":
        return [*_stratagems(state, player, decision, options), *passing]
    if kind == "choose_dice_to_reroll":
        return _rerolls(state, decision, options)
    if kind == "issue_order":
        orders = [o for o in options if isinstance(o.get("choice"), dict)]
        done = [o for o in options if not isinstance(o.get("choice"), dict)]
        return _orders(state, orders, key="choice")[:1] + done
    if kind == "choose_first_turn":
        return [o for o in options if o.get("choice") == "first"]
    if kind == "charge_move":
        return _charge_move(rng, state, options)
    if kind == "allocate_mortal_wound":
        return _model_to_lose(state, decision, options)
    return []


def _model_to_lose(
    state: State, decision: Decision, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Mortal wounds (a failed Hazardous test among them) go to the model whose loss costs
    least: a non-CHARACTER one, with the fewest weapons, then the most wounds left (it may
    survive them)."""
    models = {m["id"]: m for unit in state["units"].values() for m in unit["models"]}

    def cost(option: dict[str, Any]) -> tuple[bool, int, int]:
        model = models[option["choice"]]
        return (bool(model.get("character")), len(model["weapons"]), -model["wounds_left"])

    picks = [o for o in options if o.get("choice") in decision["options"] and o["choice"] in models]
    return sorted(picks, key=cost)


def _cp(state: State, player: int) -> int:
    return int(state["players"][str(player)].get("cp", 0))


def _stratagems(
    state: State, player: int, decision: Decision, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    uses = [o for o in options if isinstance(o.get("choice"), dict)]
    chosen = []
    for option in uses:
        choice = option["choice"]
        name = str(choice.get("stratagem", ""))
        window = choice.get("window") or {}
        if name.startswith("command-re-roll"):
            if _reroll_pays(state, player, window.get("roll") or {}):
                chosen.append(option)
        elif name.startswith(DEFENSIVE):
            if _heavy_fire(state, decision, choice.get("target")):
                chosen.append(option)
        elif name.startswith("insane-bravery") and _cp(state, player) >= 1:
            target = state["units"].get(choice.get("target", ""))
            if target and _on_marker(state, target):
                chosen.append(option)
    return chosen[:1]


def _charge_failed(state: State, roll: dict[str, Any]) -> bool:
    unit = state["units"].get(roll.get("unit", ""))
    if unit is None:
        return False
    enemies = _enemies(state, unit["player"])
    if not enemies:
        return False
    engagement = state["edition"].get("engagement_range_horizontal", 1.0)
    needed = min(unit_distance(unit, e) for e in enemies) - engagement
    return roll.get("total", 0) < needed and two_dice_at_least(math.ceil(needed)) > 0.1


def _failed_saves_on_valuable(state: State, roll: dict[str, Any]) -> bool:
    unit = state["units"].get(roll.get("unit", ""))
    if unit is None:
        return False
    valuable = model_points(state, unit) >= 30 or any(m["W"] >= 3 for m in alive_models(unit))
    save = min((m["Sv"] for m in alive_models(unit)), default=7)
    return valuable and any(v < save for v in roll.get("values", []))


def _reroll_pays(state: State, player: int, roll: dict[str, Any]) -> bool:
    if roll.get("player") != player:
        return False
    if roll.get("purpose") == "charge":
        return _charge_failed(state, roll)
    if roll.get("purpose") == "save":
        return _failed_saves_on_valuable(state, roll)
    return False


def _heavy_fire(state: State, decision: Decision, target: Any) -> bool:
    """The enemy's attacks at our unit are many: ten or more models shooting, or a valuable
    target (three or more wounds a model) under any fire."""
    then = decision["resume"].get("then") or {}
    groups = [g for g in then.get("groups") or [] if g.get("target") in (target, None)]
    shooters = sum(len(g.get("models", [])) for g in groups)
    unit = state["units"].get(target)
    if unit is None:
        return False
    valuable = any(m["W"] >= 3 for m in alive_models(unit))
    return shooters >= 10 or (valuable and shooters >= 3)


def _rerolls(
    state: State, decision: Decision, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Re-roll the worst die (a failed save or a charge die), or all of a charge roll."""
    roll = decision["resume"].get("roll") or {}
    values = roll.get("values") or []
    choices = [o for o in options if o.get("choice") not in ("pass", None)]
    passing = [o for o in options if o.get("choice") == "pass"]
    if not values or not choices:
        return passing
    everything = [o for o in choices if o["choice"] == "all"]
    if everything and roll.get("purpose") == "charge":
        return everything
    worst = min(range(len(values)), key=lambda i: values[i])
    picked = [o for o in choices if o["choice"] == [worst]]
    wanted = roll.get("purpose") in ("charge", "save")
    return [*(picked if wanted else []), *passing]


def _charge_move(
    rng: random.Random, state: State, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Try the charge move several times (the path search draws from the agent's dice)."""
    tries = []
    template = options[0]
    for _ in range(6):
        action = selfplay._position_decision(rng, state, template)
        if action is not None and action.get("choice") is not None:
            tries.append(action)
    return tries


# --- a whole game (bench/opponent.py, tests) ----------------------------------------------


def play_game(
    setup: dict[str, Any], seed: str, agents: dict[int, str], number: int, max_actions: int = 20000
) -> tuple[State, list[float], list[dict[str, Any]]]:
    """Play a game between `agents` ({1: "tactical", 2: "random"}; the random agent draws from
    `random.Random(number)`); returns the final state, the seconds each tactical decision took
    and the tactical agent's actions."""
    state, _ = new_game(setup, seed)
    rng = random.Random(number)
    timings: list[float] = []
    played: list[dict[str, Any]] = []
    for _ in range(max_actions):
        if state["stage"] == "ended":
            return state, timings, played
        player = acting_player(state)
        assert player is not None
        if agents[player] == "tactical":
            started = time.perf_counter()
            action, state, _events = play(state, player)
            timings.append(time.perf_counter() - started)
            played.append(action)
            continue
        for candidate in selfplay.choose_action(rng, state, player):
            try:
                state, _events = apply(state, candidate)
            except Refusal:
                continue
            break
        else:
            raise selfplay.SelfplayError("the random agent found no accepted action")
    raise selfplay.SelfplayError("the game did not end")
