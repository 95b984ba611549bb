"""Self-play: two built-in agents that pick random legal actions until the battle ends.

The agents draw every choice from their own `random.Random(seed)`, never from the game's dice; the
game's dice seed is derived from the same number, so a seed gives the same game every time. Armies
are built from a rules bundle (bundle format): the two factions with the most non-CHARACTER
datasheets each field two units of their first such datasheets (Battleline, then Infantry, then
by slug) at the smallest size, any CHARACTER datasheet whose `leads` names one of those units is
attached to it as its Leader, and, when neither unit is one, the faction's first DEDICATED
TRANSPORT comes along. Agents sometimes start units embarked, embark after a move and disembark.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from rules.engine.army.wargear import composition_names, equip, option_limit, options
from rules.engine.battlefield.movement import Move
from rules.engine.battlefield.placement import battlefield_of, edition_of, table
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Event, Model, Unit
from rules.engine.core.state import (
    State,
    alive_models,
    base_radius_inches,
    on_battlefield,
    state_hash,
)
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.phases.fight import close_combat_distance, close_combat_targets
from rules.engine.phases.movement import ARRIVAL_OWED_KIND, arrivals_owed, movement_characteristics
from rules.engine.phases.transports import must_move_after_disembark
from rules.engine.sequence.game import acting_player, apply, legal_actions, new_game
from rules.engine.sequence.missions import default_mission
from rules.engine.sequence.replay import game_log
from rules.engine.tools.pathing import random_move

MAX_ATTEMPTS = 40
MAX_ACTIONS = 20000


class SelfplayError(RuntimeError):
    """The rules data cannot make two armies, or an agent found no legal way on."""


def dice_seed(number: int) -> str:
    return hashlib.sha256(f"strategium-selfplay:{number}".encode("ascii")).hexdigest()


def _playable(sheet: dict[str, Any]) -> bool:
    """A datasheet the agents can field: model profiles with bases."""
    return bool(sheet.get("models")) and all(m.get("base") for m in sheet["models"])


def _some_wargear(sheet: dict[str, Any], size: int) -> list[dict[str, Any]]:
    """Wargear for a self-played unit, so games see the options: each option in turn, a choice
    by its position, taken by as many models as allowed, kept when the unit can still take it."""
    chosen: list[dict[str, Any]] = []
    names = composition_names(sheet, size)
    for option in options(sheet):
        limit = option_limit(option, names)
        if not limit:
            continue
        choice = option["index"] % len(option["choices"])
        trial = [*chosen, {"option": option["index"], "choice": choice, "models": limit}]
        while trial[-1]["models"] and equip(sheet, size, trial).problems:
            trial[-1]["models"] -= 1
        if trial[-1]["models"]:
            chosen = trial
    return chosen


def _troop_order(sheet: dict[str, Any]) -> tuple:
    """Battleline first, then infantry: units that deploy and move easily."""
    keywords = sheet["keywords"]
    return ("BATTLELINE" not in keywords, "INFANTRY" not in keywords, sheet["slug"])


def build_armies(bundle: dict[str, Any]) -> dict[str, dict[str, Any]]:
    datasheets = [s for s in bundle.get("datasheets", []) if _playable(s)]
    troops: dict[str, list[dict[str, Any]]] = {}
    transports: dict[str, list[dict[str, Any]]] = {}
    for sheet in datasheets:
        if "CHARACTER" not in sheet["keywords"]:
            troops.setdefault(sheet["faction"], []).append(sheet)
        if "DEDICATED TRANSPORT" in sheet["keywords"]:
            transports.setdefault(sheet["faction"], []).append(sheet)
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
                    "wargear": _some_wargear(sheet, size),
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
        carried = any(
            u["datasheet"] in {s["slug"] for s in transports.get(faction, [])} for u in units
        )
        for sheet in sorted(transports.get(faction, []), key=lambda s: s["slug"])[: 1 - carried]:
            units.append(
                {
                    "key": "transport",
                    "datasheet": sheet["slug"],
                    "models": 1,
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
    armies = build_armies(bundle)
    for army in armies.values():
        # Each army takes its faction's first detachment, so detachment stratagems get played.
        detachments = sorted(
            d["slug"] for d in bundle.get("detachments", []) if d.get("faction") == army["faction"]
        )
        army["detachment"] = detachments[0] if detachments else None
    return {
        "ruleset": rulesets[edition],
        "mission": missions[0],
        "datasheets": bundle["datasheets"],
        "stratagems": bundle.get("stratagems", []),
        "enhancements": bundle.get("enhancements", []),
        "armies": armies,
    }


# --- the agent ----------------------------------------------------------------------------


def _formation(
    models: list[Model],
    x: float,
    y: float,
    facing: float,
    per_row: int = 5,
    uniform: bool = False,
) -> dict[str, list[float]]:
    """Rows of `per_row` (five), each base (or, `uniform`, the widest) and half an inch apart,
    from (x, y)."""
    positions = {}
    widest = max((2 * base_radius_inches(m["base"]) + 0.5 for m in models), default=0.0)
    for index, model in enumerate(models):
        step = widest if uniform else 2 * base_radius_inches(model["base"]) + 0.5
        positions[model["id"]] = [
            round(x + (index % per_row) * step, 3),
            round(y + (index // per_row) * step, 3),
            facing,
        ]
    return positions


def _translate(unit: Unit, dx: float, dy: float) -> dict[str, list[float]]:
    return {
        # A unit the agent moves is on the battlefield: its models have `x`, `y`.
        m["id"]: [round(m["x"] + dx, 3), round(m["y"] + dy, 3), m["facing"]]  # type: ignore[operator]
        for m in alive_models(unit)
    }


def _goal(rng: random.Random, state: State, unit: Unit) -> tuple[float, float] | None:
    """Where the unit heads: the nearest enemy model or objective marker, or anywhere."""
    goal = rng.choice(["enemy", "objective", "anywhere"])
    if goal == "anywhere":
        return None
    mine = alive_models(unit)
    # Units on the battlefield (the agent's and the enemy's): their models have `x`, `y`.
    cx = sum(m["x"] for m in mine) / len(mine)  # type: ignore[misc]
    cy = sum(m["y"] for m in mine) / len(mine)  # type: ignore[misc]
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
    return min(points, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)  # type: ignore[operator, return-value]


def legal_positions(
    rng: random.Random,
    state: State,
    unit: Unit,
    move_type: str,
    movement: Any = None,
    **details: Any,
) -> dict[str, Any] | None:
    """A legal move found by the battlefield's path generator, as the engine's positions (a
    straight move `[x, y, facing]`, or a path), or None when none was found. `movement`
    replaces the models' M (a Normal move of up to X")."""
    if movement is None:
        movement = movement_characteristics(state, unit)
    template = Move(move_type, unit["id"], movement=movement, **details)
    toward = _goal(rng, state, unit) if move_type in ("normal", "advance", "scout") else None
    found = random_move(
        battlefield_of(state), edition_of(state), table(state), template, rng, toward=toward
    )
    if found is None:
        return None
    move = found[0]
    positions: dict[str, Any] = {}
    for model in alive_models(unit):
        facing = move.facings.get(model["id"], model["facing"])
        path = [[float(x), float(y)] for x, y in move.paths.get(model["id"], ())]
        height = [float(move.heights[model["id"]])] if model["id"] in move.heights else []
        if not path:
            positions[model["id"]] = [model["x"], model["y"], facing, *height]
        elif len(path) == 1:
            positions[model["id"]] = [*path[0], facing, *height]
        else:
            positions[model["id"]] = {"path": path, "facing": facing}
            if height:
                positions[model["id"]]["z"] = height[0]
    return positions


def _zone_point(rng: random.Random, zone: list[list[float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    return rng.uniform(min(xs) + 1, max(xs) - 12), rng.uniform(min(ys) + 1, max(ys) - 6)


def _edge_formation(rng: random.Random, state: State, unit: Unit) -> dict:
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


def _anywhere_formation(rng: random.Random, state: State, unit: Unit) -> dict:
    width = state["mission"]["battlefield"]["width"]
    depth = state["mission"]["battlefield"]["depth"]
    x, y = rng.uniform(1.0, width - 9.0), rng.uniform(1.0, depth - 5.0)
    return _formation(alive_models(unit), x, y, 0.0)


def _fill(rng: random.Random, state: State, template: dict[str, Any]) -> dict[str, Any] | None:
    """A concrete action from a template: positions and targets drawn by the agent (None when
    the agent found no legal positions)."""
    action = dict(template)
    kind = template["type"]
    if kind == "declare_reserves":
        # Now and then a unit starts embarked (one unit per TRANSPORT, so capacity holds).
        embarked: dict[str, str] = {}
        for unit_id, transports in sorted(template.get("embark_options", {}).items()):
            free = [t for t in transports if t not in embarked.values()]
            if free and rng.random() < 0.5:
                embarked[unit_id] = rng.choice(free)
        carrying = set(embarked) | set(embarked.values())
        candidates = [u for u in template["candidates"] if u not in carrying]
        # A random share of at most half the units (so that games see fighting), kept within the
        # points the edition allows.
        picked, worth = [], 0
        half = len(template["candidates"]) // 2
        for unit_id in rng.sample(candidates, rng.randint(0, min(half, len(candidates)))):
            cost = template["points"][unit_id]
            if template["max_points"] is None or worth + cost <= template["max_points"]:
                picked.append(unit_id)
                worth += cost
        action = {"type": kind, "player": template["player"], "units": sorted(picked)}
        if embarked:
            action["embarked"] = embarked
        return action
    if kind == "disembark":
        if "suggested" not in template:
            return None
        return {
            "type": kind,
            "player": template["player"],
            "unit": template["unit"],
            "positions": template["suggested"],
        }
    if kind == "shoot":
        return _shooting_assignments(rng, template)
    if kind == "fight":
        unit = state["units"][template["unit"]]
        action = {"type": "fight", "player": template["player"], "unit": template["unit"]}
        fight_type = rng.choice(template.get("fight_types", ["normal"]))
        if "fight_types" in template:
            action["fight_type"] = fight_type
        if template.get("pile_in") == "optional" and (
            "fight_types" not in template or fight_type == "overrun"
        ):
            positions = _close_combat_positions(rng, state, unit, "pile_in")
            if positions is not None:
                action["pile_in"] = positions
        return action
    if kind in ("pile_in", "consolidate"):
        unit = state["units"][template["unit"]]
        positions = _close_combat_positions(rng, state, unit, kind)
        if positions is None:
            return None
        return {
            "type": kind,
            "player": template["player"],
            "unit": template["unit"],
            "positions": positions,
        }
    if kind == "declare_charge":
        action = {
            "type": kind,
            "player": template["player"],
            "unit": template["unit"],
            "targets": [rng.choice(template["targets"])],
        }
        if _takes_to_the_skies(rng, template):
            action["take_to_the_skies"] = True
        return action
    if kind == "deploy":
        unit = state["units"][template["unit"]]
        x, y = _zone_point(rng, state["mission"]["deployment_zones"][str(unit["player"])])
        action["positions"] = _formation(alive_models(unit), x, y, 0.0)
        return action
    if kind == "arrive":
        unit = state["units"][template["unit"]]
        methods = action.pop("methods")
        action.pop("areas", None)  # drawn by the table, not part of the action
        # Deep Strike (or Teleport Assault, Rapid Tactical Relocation: their only method): a
        # random place anywhere, which the engine checks against the enemy.
        anywhere = [m for m in methods if m != "ingress"]
        if anywhere and ("ingress" not in methods or rng.random() < 0.5):
            action["method"] = anywhere[0]
            action["positions"] = _anywhere_formation(rng, state, unit)
            return action
        action["positions"] = _edge_formation(rng, state, unit)
        return action
    if kind in ("move", "scout"):
        unit = state["units"][template["unit"]]
        move_type = "normal" if kind == "move" else "scout"
        bonus = template["max_distance"] if kind == "scout" else 0.0
        flying = _takes_to_the_skies(rng, template)
        positions = legal_positions(
            rng, state, unit, move_type, bonus=bonus, take_to_the_skies=flying
        )
        if positions is None:
            return None
        action = {
            "type": kind,
            "player": template["player"],
            "unit": unit["id"],
            "positions": positions,
        }
        if flying:
            action["take_to_the_skies"] = True
        return action
    if kind in ("advance", "fall_back"):
        action = {"type": kind, "player": template["player"], "unit": template["unit"]}
        if _takes_to_the_skies(rng, template):
            action["take_to_the_skies"] = True
        return action
    if kind == "decide" and template["choice"] == "positions":
        return _position_decision(rng, state, template)
    if kind == "decide" and template["choice"] == "assignments":
        return _out_of_turn_assignments(rng, template)
    return action


def _takes_to_the_skies(rng: random.Random, template: dict[str, Any]) -> bool:
    """A FLYING unit takes to the skies half the time (11e §21.03) when the template offers it."""
    return bool(template.get("can_take_to_the_skies")) and rng.random() < 0.5


def _position_decision(
    rng: random.Random, state: State, template: dict[str, Any]
) -> dict[str, Any] | None:
    unit = state["units"][template["unit"]]
    decision = state["pending"][-1]
    base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
    flying = bool(template.get("take_to_the_skies"))
    if decision["kind"] == "normal_move":
        # A Normal move of up to X" out of sequence (Burst of Speed, Displacer Field, ...).
        flying = flying and rng.random() < 0.5
        maximum = template["max_distance"]
        positions = legal_positions(
            rng,
            state,
            unit,
            "normal",
            movement={m["id"]: maximum for m in alive_models(unit)},
            take_to_the_skies=flying,
            as_if_fly=template["as_if_fly"],
        )
        if positions is None:
            return {**base, "choice": None}
        if flying:
            return {**base, "choice": {"positions": positions, "take_to_the_skies": True}}
        return {**base, "choice": positions}
    if decision["kind"] == "consolidate_move":
        return {**base, "choice": _close_combat_positions(rng, state, unit, "consolidate")}
    if decision["kind"] == "redeploy_unit":
        # Liber Heresius: set up again in the zone, or into Strategic Reserves.
        if rng.random() < 0.5:
            return {**base, "choice": "strategic_reserves"}
        x, y = _zone_point(rng, state["mission"]["deployment_zones"][str(unit["player"])])
        return {**base, "choice": _formation(alive_models(unit), x, y, 0.0)}
    if decision["kind"] == "emergency_disembark":
        return {**base, "choice": template["suggested"]}
    if decision["kind"] == "stratagem_arrival":
        # Rapid Ingress: set up along an edge; Prognisticated Arrival, Hallowed Beacon: anywhere;
        # if no place is accepted the agent passes (None).
        if isinstance(decision["options"], dict) and decision["options"].get("method"):
            return {**base, "choice": _anywhere_formation(rng, state, unit)}
        return {**base, "choice": _edge_formation(rng, state, unit)}
    if decision["kind"] == "return_destroyed_model":
        # Apothecary's Narthecium: next to a random model of the unit (null if refused); the
        # unit is on the battlefield, so its models have `x`, `y`.
        anchor = rng.choice(alive_models(unit))
        step = 2 * base_radius_inches(anchor["base"]) + 0.3
        x, y = anchor["x"] + rng.choice([-step, step]), anchor["y"] + rng.uniform(-0.5, 0.5)  # type: ignore[operator]
        choice = {template["model"]: [round(x, 3), round(y, 3), 0.0]}
        return {**base, "choice": choice}
    if decision["kind"] == "charge_move":
        # 11e selects the targets after the roll, among those it can reach (11.04); 10e charges
        # the units it declared.
        if template.get("select_targets") or not template.get("declared"):
            if not template["targets"]:
                return {**base, "choice": None}
            targets = [rng.choice(template["targets"])]
        else:
            targets = template["declared"]
        positions = legal_positions(
            rng,
            state,
            unit,
            "charge",
            bonus=template["max_distance"],
            targets=frozenset(targets),
            take_to_the_skies=unit["id"] in state["facts"]["phase"].get("taking_to_the_skies", []),
        )
        if positions is None:
            return {**base, "choice": None}
        return {**base, "choice": {"targets": targets, "positions": positions}}
    if decision["kind"] == "advance_move":
        positions = legal_positions(
            rng,
            state,
            unit,
            "advance",
            bonus=template["advance_roll"],
            take_to_the_skies=flying,
        )
        return {**base, "choice": positions or _translate(unit, 0.0, 0.0)}
    positions = legal_positions(
        rng,
        state,
        unit,
        "fall_back",
        mode=template["mode"],
        battle_shocked=is_battle_shocked(state, unit["id"]),
        take_to_the_skies=flying,
    )
    return {**base, "choice": positions}


def _close_combat_positions(
    rng: random.Random, state: State, unit: Unit, move_type: str
) -> dict[str, Any] | None:
    """A legal pile-in or consolidation move (toward the enemy units it is engaged with, or
    those in reach: `fight_phase.close_combat_targets`), or None (no move) when none is found.
    Its maximum is the unit's (Breach-Shock: 6")."""
    edition_distance = state["edition"][
        "pile_in_distance" if move_type == "pile_in" else "consolidate_distance"
    ]
    return legal_positions(
        rng,
        state,
        unit,
        move_type,
        targets=frozenset(close_combat_targets(state, unit, move_type)),
        bonus=close_combat_distance(state, unit["id"], move_type) - edition_distance,
    )


def _out_of_turn_assignments(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """Shooting out of turn (Fire Overwatch, Exact Punishment): one target drawn among those the
    rule allows, every weapon that can shoot it (other weapons before pistols)."""
    base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
    targets = sorted({t for o in template["weapons"] for t in o["targets"]})
    target = rng.choice(targets)
    options = [o for o in template["weapons"] if target in o["targets"]]
    others = [o for o in options if not o.get("close_quarters")]
    chosen = others or options
    assignments = [{"weapon": o["weapon"], "target": target} for o in chosen]
    return {**base, "choice": {"assignments": assignments}}


def _shooting_assignments(rng: random.Random, template: dict[str, Any]) -> dict[str, Any]:
    """Shoot every weapon that has a target, at a random one; pistols only when nothing else can
    shoot (a model fires pistols or its other weapons, not both)."""
    options = [o for o in template["weapons"] if o["targets"]]
    pistols = [o for o in options if o.get("close_quarters")]
    others = [o for o in options if not o.get("close_quarters")]
    # One profile of each weapon ("Plasma gun – standard" or "– supercharge"), R-WG-06.
    by_weapon: dict[str, list[dict[str, Any]]] = {}
    for option in others or pistols:
        by_weapon.setdefault(option.get("weapon_of", option["weapon"]), []).append(option)
    chosen = [rng.choice(profiles) for profiles in by_weapon.values()]
    action = {
        "type": "shoot",
        "player": template["player"],
        "unit": template["unit"],
        "assignments": [
            {"weapon": o["weapon"], "target": rng.choice(o["targets"])} for o in chosen
        ],
    }
    deck = template.get("firing_deck_options")
    if deck:
        # Firing Deck: a few embarked models lend a weapon each (one weapon per model).
        lent: dict[str, dict[str, Any]] = {}
        for option in rng.sample(deck["weapons"], len(deck["weapons"])):
            if option["targets"] and option["model"] not in lent and len(lent) < deck["max_models"]:
                lent[option["model"]] = {
                    "model": option["model"],
                    "weapon": option["weapon"],
                    "target": rng.choice(option["targets"]),
                }
        if lent:
            action["firing_deck"] = list(lent.values())
    return action


def choose_action(rng: random.Random, state: State, player: int) -> list[dict[str, Any]]:
    """Candidate actions in the order the agent will try them (the first accepted is played)."""
    options = legal_actions(state, player)
    if not options:
        raise SelfplayError(f"player {player} has no legal action")
    decision = state["pending"][-1] if state["pending"] else None
    if decision is not None and decision["kind"] == ARRIVAL_OWED_KIND:
        # Asked only when the phase ends with a unit owed a set-up (rulings R-GK-04): the agent
        # tried to set it up first (below), so it found no place.
        return [
            {"type": "decide", "player": player, "decision": decision["id"], "choice": "destroyed"}
        ]
    passing = ("end_phase", "end_scouts")
    acting = [o for o in options if o["type"] not in passing]
    owed = {unit["id"] for unit in arrivals_owed(state)}
    arrivals = [o for o in options if o["type"] == "arrive" and o["unit"] in owed]
    # Mostly act before ending a phase, so that games see moves, charges and casualties; a unit
    # that must be set up this phase is set up first.
    template = (
        arrivals[0]
        if arrivals
        else rng.choice(acting if acting and rng.random() < 0.9 else options)
    )
    tries = [_fill(rng, state, template)]
    if template["type"] in ("deploy", "arrive") or _anywhere_arrival(state, template):
        tries.extend(_fill(rng, state, template) for _ in range(MAX_ATTEMPTS))
    tries.extend(_systematic(state, template))
    if template["type"] != "decide":
        fallback = [o for o in options if o["type"] in ("remain_stationary", "end_step", *passing)]
        tries.extend(fallback)
    return [t for t in tries if t is not None]


def _anywhere_arrival(state: State, template: dict[str, Any]) -> bool:
    decision = state["pending"][-1] if state["pending"] else None
    return (
        template["type"] == "decide"
        and decision is not None
        and decision["kind"] == "stratagem_arrival"
        and isinstance(decision["options"], dict)
        and bool(decision["options"].get("method"))
    )


def _systematic(state: State, template: dict[str, Any]) -> list[dict[str, Any]]:
    """When random tries fail: deploy on a grid over the zone; a unit that found no fall-back
    path stays where it is, a Rapid Ingress unit with no place stays in reserve, a unit that
    found no consolidation move does not make one (`null`); a 10e fight goes without a pile-in."""
    if template["type"] == "deploy":
        unit = state["units"][template["unit"]]
        zone = state["mission"]["deployment_zones"][str(unit["player"])]
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
        # Rows of five, then rows of three (a row of five wide bases can exceed the 11e
        # coherency span of 9").
        return [
            {
                **template,
                "positions": _formation(
                    alive_models(unit), x + 0.0, y + 0.0, 0.0, per_row, per_row == 3
                ),
            }
            for per_row in (5, 3)
            for y in range(int(min(ys)) + 1, int(max(ys)), 2)
            for x in range(int(min(xs)) + 1, int(max(xs)), 3)
        ]
    if template["type"] == "move" and template["unit"] in must_move_after_disembark(state):
        # After a tactical disembark the unit must move: a normal move of no distance.
        unit = state["units"][template["unit"]]
        return [{**template, "positions": _translate(unit, 0.0, 0.0)}]
    if template["type"] == "fight" and "pile_in" in template:
        # A 10e fight whose pile-in move was refused: fight without moving.
        return [{"type": "fight", "player": template["player"], "unit": template["unit"]}]
    if template["type"] == "decide" and state["pending"][-1]["kind"] in (
        "fall_back_move",
        "stratagem_arrival",
        "consolidate_move",
        "return_destroyed_model",
        "normal_move",
        "shoot_out_of_turn",
    ):
        base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
        return [{**base, "choice": None}]
    if template["type"] == "decide" and state["pending"][-1]["kind"] == "redeploy_unit":
        base = {"type": "decide", "player": template["player"], "decision": template["decision"]}
        return [{**base, "choice": "strategic_reserves"}]
    return []


def play(setup: dict[str, Any], number: int) -> tuple[State, list[Event], dict[str, Any]]:
    """Play one game to the end; returns the final state, every event and the game log."""
    rng = random.Random(number)
    seed = dice_seed(number)
    state, events = new_game(setup, seed)
    actions: list[dict[str, Any]] = []
    while state["stage"] != "ended":
        if len(actions) > MAX_ACTIONS:
            raise SelfplayError("the game did not end")
        player = acting_player(state)
        assert player is not None  # the battle has not ended
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


def summary(number: int, state: State, events: list[Event]) -> dict[str, Any]:
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
