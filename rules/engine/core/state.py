"""The game state: one JSON-serialisable dict, hashed canonically so a replay can be checked.

Shape (documented in docs/engine.md):

- `edition`: the rule set's parameters frozen at the start (`Edition.parameters()` plus `slug`);
- `mission`: the mission record (bundle format, docs/missions.md) frozen at the start;
- `datasheets`: the datasheets the armies use, frozen at the start;
- `stratagems`: the stratagem records the game can use, frozen at the start (stratagems.py);
- `players`: per player (keys "1" and "2") command points, victory points and army name;
- `units`: per unit id the unit with its models (`x`, `y` in inches, `facing` in degrees,
  `base`, `wounds_left`), its location and its parts (Leader, Bodyguard, Support);
- `stage`, `battle_round`, `active_player`, `phase`: where the battle sequence is;
- `facts`: watchers' facts per scope (phase, turn, battle round) reset at their boundary;
- `effects`: persisting effects as data (rules/engine/effects.py);
- `objectives`: objective markers and who controls them;
- `pending`: the stack of pending decisions (rules/engine/decisions.py);
- `dice`: the secret seed and the next die index (rules/engine/dice.py); `seed_commitment`;
- `version`: grows by one with every accepted action.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from rules.engine.core.shapes import Dice, GameState, Model, Unit

State = GameState

PLAYERS = (1, 2)
PHASES = ("command", "movement", "shooting", "charge", "fight")
TURN_FLAGS = (
    "remained_stationary",
    "moved",
    "moved_within_3",  # 11e 24.16 [HEAVY]: its only move this turn was at most 3" (R-CB-06)
    "advanced",
    "fell_back",
    "charged",
    "shot",
    "fought",
    "arrived_from_reserves",
    "arrived_by_deep_strike_or_teleport_assault",
    "disembarked",
    "screening_line_used",  # Screening Line: once per turn
    "on_my_signal_used",  # On My Signal: once per turn
    "embarked",
)


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, ASCII: the same value always gives the same text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def state_hash(state: State) -> str:
    """SHA-256 of the canonical JSON of the state: equal hashes mean bit-identical states."""
    return hashlib.sha256(canonical_json(state).encode("ascii")).hexdigest()


# Rules data frozen into the game when it starts; the engine only reads it, so every version of
# the state shares it instead of copying it (callers must never mutate it either).
FROZEN_KEYS: tuple[Literal["edition", "mission", "datasheets", "stratagems"], ...] = (
    "edition",
    "mission",
    "datasheets",
    "stratagems",
)


# Members of a unit and of its models that no rule changes in place once the game has begun (a
# unit's keywords and abilities as mustered, its transport capacity, its parts (Leader,
# Bodyguard); the weapons and wargear a model carries, its base): every version of the game's
# state shares them, as it shares FROZEN_KEYS, so an action copies the few scalars of each model
# instead of a Strike Force army's 100 KB of JSON (the rules, and callers, must never mutate them
# in place; a rule that changes one replaces it, as the starting strengths do the parts).
SHARED_UNIT_MEMBERS = frozenset({"keywords", "abilities", "transport", "parts", "models"})
SHARED_MODEL_MEMBERS = frozenset({"weapons", "wargear_abilities", "base"})
_CONTAINERS = (dict, list)


def _copy_members(record: Any, shared: frozenset[str], deep: list[tuple[Any, str]]) -> Any:
    """A shallow copy of `record`; its containers not `shared` go on `deep` (copied later)."""
    copied = record.copy()
    for key, value in record.items():
        if value.__class__ in _CONTAINERS and key not in shared:
            deep.append((copied, key))
    return copied


def copy_state(state: State) -> State:
    """A deep copy of what the rules change: the frozen rules data (FROZEN_KEYS) and the members
    of units and models no rule changes (SHARED_UNIT_MEMBERS, SHARED_MODEL_MEMBERS) are shared."""
    deep: list[tuple[Any, str]] = []
    units = {}
    containers, shared = _CONTAINERS, SHARED_MODEL_MEMBERS
    for unit_id, unit in state["units"].items():
        copied_unit = units[unit_id] = _copy_members(unit, SHARED_UNIT_MEMBERS, deep)
        models: list[Any] = []
        for model in unit["models"]:  # _copy_members inlined: hundreds of models per action
            copied_model = model.copy()
            for key, value in model.items():
                if value.__class__ in containers and key not in shared:
                    deep.append((copied_model, key))
            models.append(copied_model)
        copied_unit["models"] = models
    rest = {key: value for key, value in state.items() if key not in FROZEN_KEYS and key != "units"}
    # One JSON round trip for all the rest: both the fastest deep copy and a check that it
    # serialises.
    rest, members = json.loads(
        json.dumps([rest, [record[key] for record, key in deep]], allow_nan=False)
    )
    for (record, key), value in zip(deep, members, strict=True):
        record[key] = value
    copied = {
        key: rest[key] if key != "units" else units for key in state if key not in FROZEN_KEYS
    }
    copied.update({key: state[key] for key in FROZEN_KEYS if key in state})
    return copied  # type: ignore[return-value]


def opponent(player: int) -> int:
    return 2 if player == 1 else 1


def player_key(player: int) -> str:
    return str(player)


def unit_keywords(state: State, unit: Unit) -> set[str]:
    """The unit's keywords and faction keywords, of every part (Leader and Bodyguard alike) that
    has a living model, upper case: the one way a rule reads what a unit is. 11e 19.03: "While
    that model is part of that unit, that unit has the PSYKER keyword": a destroyed Leader's
    keywords (CHARACTER, INQUISITOR, ...) leave the Bodyguard (rulings R-ENG-16). A unit with no
    living model keeps them all (rules about the destroyed unit read them)."""
    parts = unit.get("parts", [])
    living = {m["part"] for m in unit.get("models", []) if m["wounds_left"] > 0}
    by_part = [
        {
            k.upper()
            for sheet in [state["datasheets"].get(part["datasheet"], {})]
            for k in [*sheet.get("keywords", []), *sheet.get("faction_keywords", [])]
        }
        for part in parts
    ]
    kept = set().union(*(words for i, words in enumerate(by_part) if i in living or not living))
    gone = set().union(*by_part) - kept
    return ({k.upper() for k in unit.get("keywords", [])} - gone) | kept


def each_model_is(state: State, unit: Unit, words: set[str]) -> bool:
    """Each living model of the unit has one of `words` among its own keywords: a model's are
    those of its part's datasheet, so an attached unit whose Leader is a VEHICLE and whose
    Bodyguard is not fails (11e 06.03 "if each model in that unit is a MONSTER/VEHICLE model";
    rulings R-ENG-17). A unit of one part reads the unit's keywords (`unit_keywords`)."""
    parts = unit.get("parts", [])
    if len(parts) <= 1:
        return bool(words & unit_keywords(state, unit))
    models = [m for m in unit.get("models", []) if m["wounds_left"] > 0] or unit.get("models", [])
    for model in models:
        sheet = state["datasheets"].get(parts[model["part"]]["datasheet"], {})
        if not words & {k.upper() for k in sheet.get("keywords", [])}:
            return False
    return True


def detachment(state: State, player: int) -> str | None:
    """The slug of the player's detachment (the army list's `detachment`), None without one."""
    return state["players"][player_key(player)].get("detachment")


def unit(state: State, unit_id: str) -> Unit:
    return state["units"][unit_id]


def units_of(state: State, player: int) -> list[Unit]:
    """A player's units in a stable order (by id)."""
    return [u for _, u in sorted(state["units"].items()) if u["player"] == player]


def alive_models(unit_record: Unit) -> list[Model]:
    return [m for m in unit_record["models"] if m["wounds_left"] > 0]


def is_destroyed(unit_record: Unit) -> bool:
    return not alive_models(unit_record)


def on_battlefield(unit_record: Unit) -> bool:
    return unit_record["location"] == "battlefield" and not is_destroyed(unit_record)


def base_radius_inches(base: dict[str, Any]) -> float:
    """Half the largest dimension of a base (or hull), in inches; 25.4 mm to the inch."""
    if base.get("shape") == "round":
        size = base["diameter_mm"]
    else:
        size = max(base.get("length_mm", 0), base.get("width_mm", 0))
    return size / 2 / 25.4


def public_state_dice(state: State) -> Dice:
    """The dice as players see them before the battle ends: only the next die's index."""
    return {"next_index": state["dice"]["next_index"]}


def public_state(state: State) -> State:
    """The state as players may see it: the dice seed stays secret until the battle ends."""
    visible = copy_state(state)
    if state["revealed_seed"] is None:
        visible["dice"] = public_state_dice(state)
    return visible
