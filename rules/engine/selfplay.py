"""Self-play: two built-in agents that pick random legal actions until the battle ends.

The agents draw every choice from their own `random.Random(seed)`, never from the game's dice; the
game's dice seed is derived from the same number, so a seed gives the same game every time. Armies
are built from a rules bundle (bundle format): the two factions with the most non-CHARACTER
datasheets each field two units of their first such datasheets (Battleline, then Infantry, then
by slug) at the smallest size, and any CHARACTER datasheet whose `leads` names one of those units
is attached to it as its Leader.
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

from rules.engine.combat_geometry import all_placements, battlefield_of, edition_of
from rules.engine.fight_phase import move_template
from rules.engine.game import acting_player, apply, legal_actions, new_game
from rules.engine.missions import default_mission
from rules.engine.pathing import random_move
from rules.engine.refusals import Refusal
from rules.engine.replay import game_log
from rules.engine.state import (
    State,
    alive_models,
    base_radius_inches,
    model_distance,
    on_battlefield,
    state_hash,
)

MAX_ATTEMPTS = 40
MAX_ACTIONS = 20000


class SelfplayError(RuntimeError):
    """The rules data cannot make two armies, or an agent found no legal way on."""


def dice_seed(number: int) -> str:
    return hashlib.sha256(f"strategium-selfplay:{number}".encode("ascii")).hexdigest()


def _playable(sheet: dict[str, Any]) -> bool:
    """A datasheet the agents can field: model profiles with bases."""
    return bool(sheet.get("models")) and all(m.get("base") for m in sheet["models"])


def _troop_order(sheet: dict[str, Any]) -> tuple:
    """Battleline first, then infantry: units that deploy and move easily."""
    keywords = sheet["keywords"]
    return ("BATTLELINE" not in keywords, "INFANTRY" not in keywords, sheet["slug"])


def build_armies(bundle: dict[str, Any]) -> dict[str, dict[str, Any]]:
    datasheets = [s for s in bundle.get("datasheets", []) if _playable(s)]
    troops: dict[str, list[dict[str, Any]]] = {}
    for sheet in datasheets:
        if "CHARACTER" not in sheet["keywords"]:
            troops.setdefault(sheet["faction"], []).append(sheet)
    factions = sorted(troops, key=lambda f: (-len(troops[f]), f))[:2]
    if len(factions) < 2:
        raise SelfplayError(
            "The rules data needs datasheets of at least two factions to build two armies; "
            "load the rules data (manage.py load_rules) first."
        )
    characters = sorted(
        (s for s in datasheets if "CHARACTER" in s["keywords"]), key=lambda s: s["slug"]
    )
    armies = {}
    for player, faction in enumerate(factions, start=1):
        chosen = sorted(troops[faction], key=_troop_order)[:2]
        units = []
        for number in range(2):
            sheet = chosen[number % len(chosen)]
            size = min((p["models"] for p in sheet.get("points", [])), default=None)
            if size is None:
                size = sum(m.get("min", 1) for m in sheet["models"])
            units.append(
                {
                    "key": f"u{number + 1}",
                    "datasheet": sheet["slug"],
                    "models": size,
                    "wargear": [],
                    "warlord": False,
                    "enhancements": [],
                }
            )
        for character in characters:
            free = [
                u
                for u in units
                if "attached_to" not in u
                and u["datasheet"] in character.get("leads", [])
                and not any(c.get("attached_to") == u["key"] for c in units)
            ]
            if free:
                units.append(
                    {
                        "key": character["slug"],
                        "datasheet": character["slug"],
                        "models": 1,
                        "attached_to": free[0]["key"],
                        "role": "leader",
                        "wargear": [],
                        "warlord": False,
                        "enhancements": [],
                    }
                )
        leaders = [u for u in units if "attached_to" in u]
        (leaders or units)[0]["warlord"] = True
        armies[str(player)] = {"name": f"{faction} (self-play)", "faction": faction, "units": units}
    return armies


def selfplay_setup(bundle: dict[str, Any], edition: str) -> dict[str, Any]:
    rulesets = {r["slug"]: r for r in bundle.get("rulesets", [])}
    if edition not in rulesets or "parameters" not in rulesets[edition]:
        raise SelfplayError(f"The rules data has no rule set {edition!r} with its parameters.")
    missions = bundle.get("missions") or [default_mission()]
    return {
        "ruleset": rulesets[edition],
        "mission": missions[0],
        "datasheets": bundle["datasheets"],
        "armies": build_armies(bundle),
    }


# --- the agent ----------------------------------------------------------------------------


def _formation(
    models: list[dict[str, Any]], x: float, y: float, facing: float
) -> dict[str, list[float]]:
    """Rows of five, a base and half an inch apart, from (x, y)."""
    positions = {}
    for index, model in enumerate(models):
        step = 2 * base_radius_inches(model["base"]) + 0.5
        positions[model["id"]] = [
            round(x + (index % 5) * step, 3),
            round(y + (index // 5) * step, 3),
            facing,
        ]
    return positions


def _translate(unit: dict[str, Any], dx: float, dy: float) -> dict[str, list[float]]:
    return {
        m["id"]: [round(m["x"] + dx, 3), round(m["y"] + dy, 3), m["facing"]]
        for m in alive_models(unit)
    }


def _towards_nearest(state: State, unit: dict[str, Any], goal: str) -> tuple[float, float] | None:
    """The vector from the unit's centre to the nearest enemy model or objective marker."""
    mine = alive_models(unit)
    cx = sum(m["x"] for m in mine) / len(mine)
    cy = sum(m["y"] for m in mine) / len(mine)
    if goal == "enemy":
        points = [
            (m["x"], m["y"])
            for other in state["units"].values()
            if on_battlefield(other) and other["player"] != unit["player"]
            for m in alive_models(other)
        ]
    else:
        points = [(marker["x"], marker["y"]) for marker in state["objectives"]]
    if not points:
        return None
    x, y = min(points, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
    return x - cx, y - cy


def _move_positions(
    rng: random.Random, state: State, unit: dict[str, Any], maximum: float, away: bool, attempt: int
) -> dict[str, list[float]]:
    """A straight move of the whole unit: away from the nearest enemy when falling back; otherwise
    towards the nearest enemy or objective marker (stopping short of it), or anywhere. Later
    attempts pick random directions."""
    if away:
        vector = _towards_nearest(state, unit, "enemy") if attempt < 3 else None
        vector = (-vector[0], -vector[1]) if vector else None
        distance = maximum
    else:
        goal = rng.choice(["enemy", "objective", "anywhere"])
        vector = (
            _towards_nearest(state, unit, goal) if goal != "anywhere" and attempt <= 5 else None
        )
        distance = rng.uniform(0, maximum)
        if vector:
            distance = min(distance, max(0.0, math.hypot(*vector) - 2.5))
    angle = math.atan2(vector[1], vector[0]) if vector else rng.uniform(0, 2 * math.pi)
    distance = max(0.0, distance - 0.01)
    return _translate(unit, distance * math.cos(angle), distance * math.sin(angle))


def _charge_positions(
    state: State, unit: dict[str, Any], maximum: float, targets: list[str], attempt: int
) -> dict[str, list[float]]:
    """Move the unit as a block along the line between its closest model and the closest target
    model, stopping half an engagement range short (a little shorter on later attempts)."""
    reach = state["edition"]["engagement_range_horizontal"]
    pairs = [
        (model_distance(a, b), a, b)
        for t in targets
        for b in alive_models(state["units"][t])
        for a in alive_models(unit)
    ]
    gap, mine, theirs = min(pairs, key=lambda p: p[0])
    centre = math.hypot(theirs["x"] - mine["x"], theirs["y"] - mine["y"])
    travel = max(0.0, min(maximum - 0.01, gap - reach * (0.5 - 0.1 * min(attempt, 4))))
    scale = travel / centre if centre else 0.0
    return _translate(unit, (theirs["x"] - mine["x"]) * scale, (theirs["y"] - mine["y"]) * scale)


def _zone_point(rng: random.Random, zone: list[list[float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    return rng.uniform(min(xs) + 1, max(xs) - 12), rng.uniform(min(ys) + 1, max(ys) - 6)


def _edge_formation(rng: random.Random, state: State, unit: dict[str, Any]) -> dict:
    """A row of five per rank along a random battlefield edge, the first rank 1" from it."""
    width = state["mission"]["battlefield"]["width"]
    depth = state["mission"]["battlefield"]["depth"]
    models = alive_models(unit)
    step = 2 * max(base_radius_inches(m["base"]) for m in models) + 0.5
    edge = rng.choice(["near", "left", "right"])
    along = rng.uniform(1.0, 0.5 * min(width, depth))
    positions = {}
    for index, model in enumerate(models):
        rank, file = index // 5 * step + 1.0, along + index % 5 * step
        if edge == "near":
            x, y = file, rank if unit["player"] == 1 else depth - rank
        else:
            x = rank if edge == "left" else width - rank
            y = depth / 2 + (file - along) * (1 if unit["player"] == 1 else -1) - 6
        positions[model["id"]] = [round(x, 3), round(y, 3), 0.0]
    return positions


def _fill(
    rng: random.Random, state: State, template: dict[str, Any], attempt: int
) -> dict[str, Any]:
    """A concrete action from a template: positions and targets drawn by the agent."""
    action = dict(template)
    kind = template["type"]
    if kind == "declare_reserves":
        candidates = template["candidates"]
        count = rng.randint(0, template["max_units"])
        return {
            "type": kind,
            "player": template["player"],
            "units": sorted(rng.sample(candidates, count)),
        }
    if kind == "shoot":
        return _shooting_assignments(rng, template)
    if kind == "fight":
        unit = state["units"][template["unit"]]
        action = {"type": "fight", "player": template["player"], "unit": template["unit"]}
        if template.get("pile_in") == "optional" and attempt == 0:
            # One pathing search (attempt 0); the later tries fight without moving.
            action["pile_in"] = _close_combat_positions(rng, state, unit, "pile_in")
        return action
    if kind in ("pile_in", "consolidate"):
        unit = state["units"][template["unit"]]
        positions = _close_combat_positions(rng, state, unit, kind) if attempt == 0 else None
        return {
            "type": kind,
            "player": template["player"],
            "unit": template["unit"],
            "positions": positions,
        }
    if kind == "declare_charge":
        action["targets"] = [rng.choice(template["targets"])]
        return action
    if kind == "deploy":
        unit = state["units"][template["unit"]]
        x, y = _zone_point(rng, state["mission"]["deployment_zones"][str(unit["player"])])
        action["positions"] = _formation(alive_models(unit), x, y, 0.0)
        return action
    if kind == "arrive":
        unit = state["units"][template["unit"]]
        action["positions"] = _edge_formation(rng, state, unit)
        return action
    if kind == "move":
        unit = state["units"][template["unit"]]
        action["positions"] = _move_positions(
            rng, state, unit, template["max_distance"], False, attempt
        )
        action.pop("max_distance")
        return action
    if kind == "decide" and template["choice"] == "positions":
        unit = state["units"][template["unit"]]
        decision = state["pending"][-1]
        base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
        if decision["kind"] == "consolidate_move":
            if attempt:
                return {**base, "choice": None}
            return {**base, "choice": _close_combat_positions(rng, state, unit, "consolidate")}
        if decision["kind"] == "charge_move":
            if attempt > 4:
                return {**base, "choice": None}
            maximum, targets = template["max_distance"], template["targets"]
            return {**base, "choice": _charge_positions(state, unit, maximum, targets, attempt)}
        away = decision["kind"] == "fall_back_move"
        return {
            **base,
            "choice": _move_positions(rng, state, unit, template["max_distance"], away, attempt),
        }
    return action


def _close_combat_positions(
    rng: random.Random, state: State, unit: dict[str, Any], move_type: str
) -> dict[str, list[float]] | None:
    """A legal pile-in or consolidation move found by `pathing.random_move`, as positions; None
    (no move) when none is found."""
    found = random_move(
        battlefield_of(state),
        edition_of(state),
        all_placements(state),
        move_template(state, unit, move_type),
        rng,
        attempts=12,
    )
    if found is None:
        return None
    _, result = found
    return {
        p.model_id: [p.x, p.y, p.facing_degrees]
        for p in result.placements
        if p.unit_id == unit["id"]
    }


def _shooting_assignments(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """Shoot every weapon that has a target, at a random one; pistols only when nothing else can
    shoot (a model fires pistols or its other weapons, not both)."""
    options = [o for o in template["weapons"] if o["targets"]]
    pistols = [o for o in options if o.get("close_quarters")]
    others = [o for o in options if not o.get("close_quarters")]
    chosen = others or pistols
    return {
        "type": "shoot",
        "player": template["player"],
        "unit": template["unit"],
        "assignments": [
            {"weapon": o["weapon"], "target": rng.choice(o["targets"])} for o in chosen
        ],
    }


def choose_action(rng: random.Random, state: State, player: int) -> list[dict[str, Any]]:
    """Candidate actions in the order the agent will try them (the first accepted is played)."""
    options = legal_actions(state, player)
    if not options:
        raise SelfplayError(f"player {player} has no legal action")
    acting = [o for o in options if o["type"] != "end_phase"]
    # Mostly act before ending a phase, so that games see moves, charges and casualties.
    template = rng.choice(acting if acting and rng.random() < 0.9 else options)
    tries = [_fill(rng, state, template, attempt) for attempt in range(MAX_ATTEMPTS)]
    tries.extend(_systematic(state, template))
    if template["type"] != "decide":
        fallback = [
            o for o in options if o["type"] in ("remain_stationary", "end_phase", "end_step")
        ]
        tries.extend(fallback)
    return tries


def _systematic(state: State, template: dict[str, Any]) -> list[dict[str, Any]]:
    """When random tries fail: deploy on a grid over the zone; advance without moving; fall back
    in each of 16 directions at a few distances."""
    if template["type"] == "deploy":
        unit = state["units"][template["unit"]]
        zone = state["mission"]["deployment_zones"][str(unit["player"])]
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
        return [
            {**template, "positions": _formation(alive_models(unit), x + 0.0, y + 0.0, 0.0)}
            for y in range(int(min(ys)) + 1, int(max(ys)), 2)
            for x in range(int(min(xs)) + 1, int(max(xs)), 3)
        ]
    if template["type"] != "decide" or template["choice"] != "positions":
        return []
    unit = state["units"][template["unit"]]
    base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
    if state["pending"][-1]["kind"] == "advance_move":
        return [{**base, "choice": _translate(unit, 0.0, 0.0)}]
    if state["pending"][-1]["kind"] == "fall_back_move":
        reach = template["max_distance"] - 0.01
        return [
            {
                **base,
                "choice": _translate(
                    unit, d * math.cos(a * math.pi / 8), d * math.sin(a * math.pi / 8)
                ),
            }
            for d in (reach, reach / 2)
            for a in range(16)
        ]
    return []


def play(setup: dict[str, Any], number: int) -> tuple[State, list[dict[str, Any]], dict[str, Any]]:
    """Play one game to the end; returns the final state, every event and the game log."""
    rng = random.Random(number)
    seed = dice_seed(number)
    state, events = new_game(setup, seed)
    actions: list[dict[str, Any]] = []
    while state["stage"] != "ended":
        if len(actions) > MAX_ACTIONS:
            raise SelfplayError("the game did not end")
        player = acting_player(state)
        for candidate in choose_action(rng, state, player):
            try:
                state, produced = apply(state, candidate)
            except Refusal:
                continue
            actions.append(candidate)
            events.extend(produced)
            break
        else:
            raise SelfplayError(f"no candidate action was accepted at version {state['version']}")
    return state, events, game_log(setup, seed, actions, events)


def summary(number: int, state: State, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "seed": number,
        "edition": state["edition"]["slug"],
        "events": len(events),
        "battle_rounds": state["battle_round"],
        "victory_points": [state["players"]["1"]["vp"], state["players"]["2"]["vp"]],
        "winner": state["winner"],
        "state_hash": state_hash(state),
    }


def selfplay(
    bundle: dict[str, Any], number: int, edition: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The summary selfplay prints, and the game log."""
    state, events, log = play(selfplay_setup(bundle, edition), number)
    return summary(number, state, events), log
