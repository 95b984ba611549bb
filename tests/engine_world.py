"""A small shared world for engine scenario tests: the fixture bundle, armies and set-ups.

Scenario tests set up a position, script the dice they depend on (`script_dice` moves the game's
dice stream to the next place where those values come up, as a referee rolling them would), play
actions and assert what the rules say.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import shapely

from rules.engine.battlefield.areas import base_of
from rules.engine.core.dice import derive_die
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import apply, legal_actions, new_game

ROOT = Path(__file__).resolve().parent.parent
# The fixture holds real datasheets; the rule sets and missions are the project's own data files,
# so a parameter added to `Edition` never leaves the fixture behind.
BUNDLE = {
    **json.loads((ROOT / "tests" / "data" / "engine_bundle.json").read_text("utf-8")),
    **json.loads((ROOT / "rules" / "data" / "rulesets.json").read_text("utf-8")),
    **json.loads((ROOT / "rules" / "data" / "missions.json").read_text("utf-8")),
}
SEED = "00" * 32


def ruleset(edition: str) -> dict[str, Any]:
    return next(r for r in BUNDLE["rulesets"] if r["slug"] == edition)


def army(*units: dict[str, Any], name: str = "test army") -> dict[str, Any]:
    return {"name": name, "units": list(units)}


def entry(key: str, datasheet: str, models: int, **extra: Any) -> dict[str, Any]:
    return {"key": key, "datasheet": datasheet, "models": models, "warlord": False, **extra}


def default_armies() -> dict[str, dict[str, Any]]:
    """Player 1: a Strike Squad led by an Inquisitor, and a second Strike Squad.
    Player 2: two units of Cadian Shock Troops."""
    return {
        "1": army(
            entry("ss1", "strike-squad", 5),
            entry("inq", "inquisitor", 1, attached_to="ss1", role="leader", warlord=True),
            entry("ss2", "strike-squad", 5),
        ),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True),
            entry("cad2", "cadian-shock-troops", 10),
        ),
    }


def setup(edition: str, armies: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A game set-up; `extra` adds or replaces keys (e.g. `stratagems`, `mission`)."""
    return {
        "ruleset": ruleset(edition),
        "mission": BUNDLE["missions"][0],
        "datasheets": BUNDLE["datasheets"],
        "armies": armies or default_armies(),
        **extra,
    }


def script_dice(state: dict[str, Any], values: list[int], sides: int = 6) -> None:
    """Make the next dice drawn show `values`, by moving the stream to where they come up."""
    seed, index = state["dice"]["seed"], state["dice"]["next_index"]
    while [derive_die(seed, index + i, sides) for i in range(len(values))] != values:
        index += 1
    state["dice"]["next_index"] = index


def formation(unit: dict[str, Any], x: float, y: float) -> dict[str, list[float]]:
    return {
        m["id"]: [x + (i % 5) * 1.6, y + (i // 5) * 1.6, 0.0]
        for i, m in enumerate(alive_models(unit))
    }


def play(state: dict[str, Any], *actions: dict[str, Any]) -> tuple[dict[str, Any], list[dict]]:
    events: list[dict] = []
    for action in actions:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def shoot_at(state: dict[str, Any], player: int, unit: str, targets: list[str]) -> dict:
    """A `shoot` action: every weapon of the unit (its other weapons before its pistols, 11e
    24.07; 10e Pistols) at the `targets` it can shoot, its models shared among them in order."""
    action = {"type": "shoot", "player": player, "unit": unit, "assignments": []}
    template = next(
        (a for a in legal_actions(state, player) if a["type"] == "shoot" and a["unit"] == unit),
        None,
    )
    if template is None:
        return action
    options = sorted(template["weapons"], key=lambda option: option["close_quarters"])
    for option in options:
        reachable = [t for t in targets if t in option["targets"]]
        if not reachable or (option["close_quarters"] and action["assignments"]):
            continue
        models = option["models"]
        share = max(1, len(models) // len(reachable))
        for index, target in enumerate(reachable):
            last = index == len(reachable) - 1
            chunk = models[index * share :] if last else models[index * share : (index + 1) * share]
            if chunk:
                action["assignments"].append(
                    {"weapon": option["weapon"], "models": chunk, "target": target}
                )
    return action


def decide(state: dict[str, Any], choice: Any) -> tuple[dict[str, Any], list[dict]]:
    top = state["pending"][-1]
    return play(
        state, {"type": "decide", "player": top["player"], "decision": top["id"], "choice": choice}
    )


def deployed_game(
    edition: str,
    armies: dict[str, Any] | None = None,
    places: dict[str, tuple[float, float]] | None = None,
    reserves: dict[int, list[str]] | None = None,
    first: int = 1,
    embarked: dict[int, dict[str, str]] | None = None,
    **extra: Any,
) -> tuple[dict[str, Any], list[dict]]:
    """A game in the first battle round, first player's Command phase (after its battle-shock step).

    Units are deployed in their zones (or at `places`, centre of the first model), units listed in
    `reserves` start in strategic reserves, units in `embarked` ({player: {unit: transport}})
    start embarked, and player `first` takes the first turn.
    """
    state, events = new_game(setup(edition, armies, **extra), SEED)
    reserves = reserves or {}
    embarked = embarked or {}
    state, more = play(
        state,
        *(
            {
                "type": "declare_reserves",
                "player": player,
                "units": reserves.get(player, []),
                **({"embarked": embarked[player]} if player in embarked else {}),
            }
            for player in (1, 2)
        ),
    )
    events += more
    default_rows = {1: 2.0, 2: 36.0}
    next_x = {1: 2.0, 2: 2.0}
    places = places or {}
    while state["stage"] == "deployment":
        player = state["awaiting"]
        unit = next(
            u
            for _, u in sorted(state["units"].items())
            if u["player"] == player and u["location"] == "unplaced"
        )
        if unit["id"] in places:
            x, y = places[unit["id"]]
        else:
            x, y = next_x[player], default_rows[player]
            next_x[player] += 10
        state, more = play(
            state,
            {
                "type": "deploy",
                "player": player,
                "unit": unit["id"],
                "positions": formation(unit, x, y),
            },
        )
        events += more
    winner = state["pending"][-1]["player"]
    state, more = decide(state, "first" if winner == first else "second")
    return state, events + more


def kill(state: dict[str, Any], unit_id: str, count: int, part: int | None = None) -> None:
    """Remove `count` models (of one part, if given) as if destroyed earlier in the battle."""
    unit = state["units"][unit_id]
    for model in [m for m in alive_models(unit) if part is None or m["part"] == part][:count]:
        model["wounds_left"] = 0


def event_types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def place_unit(state: dict[str, Any], unit_id: str, x: float, y: float) -> None:
    """Test set-up: stand a unit in rows of five from (x, y), as if it had moved there."""
    unit = state["units"][unit_id]
    for model_id, (mx, my, facing) in formation(unit, x, y).items():
        model = next(m for m in unit["models"] if m["id"] == model_id)
        model["x"], model["y"], model["facing"] = mx, my, facing
    unit["location"] = "battlefield"


def end_phase(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict]]:
    return play(state, {"type": "end_phase", "player": state["active_player"]})


def legal_charge(state: dict[str, Any], unit_id: str, targets: list[str], distance: float) -> dict:
    """Positions of a legal charge move found by the battlefield's path generator (the same one
    the self-play agents use): for tests whose subject is not where each model ends."""
    import random

    from rules.engine.tools.selfplay import legal_positions

    for seed in range(20):
        positions = legal_positions(
            random.Random(seed),
            state,
            state["units"][unit_id],
            "charge",
            bonus=distance,
            targets=frozenset(targets),
        )
        if positions is not None:
            return positions
    raise AssertionError(f"no legal charge move for {unit_id}")


def _rules_data_datasheets() -> dict[str, dict[str, Any]]:
    sheets: dict[str, dict[str, Any]] = {}
    for path in sorted((ROOT / "rules" / "data" / "factions").glob("*/*.json")):
        for sheet in json.loads(path.read_text("utf-8")).get("datasheets", []):
            sheets[sheet["slug"]] = sheet
    return sheets


def wargear(datasheet: str, *labels: str) -> list[dict[str, Any]]:
    """An army-list entry's wargear choices picked by the words of the choice, one model each:
    `wargear("vigilant-squad", "nuncio aquila")` -> `[{"option": 1, "choice": 0, "models": 1}]`
    (the first choice whose label holds the words; rules.engine.wargear.choices_offered)."""
    from rules.engine.army.wargear import choices_offered, normal_name

    if not labels:
        return []
    offered = choices_offered(_rules_data_datasheets()[datasheet])
    picks = []
    for label in labels:
        wanted = normal_name(label)
        option, choice = next(
            (option, choice)
            for option in offered
            for choice in option["choices"]
            if wanted in normal_name(choice["label"])
        )
        picks.append({"option": option["option"], "choice": choice["choice"], "models": 1})
    return picks


# --- the arrival areas the table draws ----------------------------------------------------------


def polygons(areas: list) -> shapely.Geometry:
    """The drawn polygons (each its outline, then its holes) as one shapely area."""
    return shapely.union_all([shapely.Polygon(rings[0], rings[1:]) for rings in areas])


def enemy_models(state: dict[str, Any], player: int) -> list[dict[str, Any]]:
    return [
        m
        for u in state["units"].values()
        if u["player"] != player and u["location"] == "battlefield"
        for m in alive_models(u)
    ]


def assert_anywhere_more_than(
    state: dict[str, Any],
    player: int,
    area: dict[str, Any],
    distance: float,
    allowed: shapely.Geometry | None = None,
) -> None:
    """`allowed` (the whole battlefield unless given) may be set up in, and the keep-out is the
    area within `distance` of each enemy model's base, on the battlefield (as drawn: rounded to
    a hundredth of an inch)."""
    board = shapely.box(
        0, 0, state["mission"]["battlefield"]["width"], state["mission"]["battlefield"]["depth"]
    )
    assert area["enemy_distance"] == distance
    expected = board if allowed is None else allowed
    assert polygons(area["allowed"]).symmetric_difference(expected).area < 0.01
    enemies = enemy_models(state, player)
    assert enemies
    around = shapely.union_all([base_of(m).buffer(distance, 8) for m in enemies]) & board
    drawn = polygons(area["keep_out"])
    assert drawn.symmetric_difference(around).area < 0.002 * around.area
