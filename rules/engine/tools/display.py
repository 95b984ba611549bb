"""What the table shows beside the state (issue 15): the names of things the engine knows by slug
(Orders, terrain kinds), each terrain piece's category and whether it obscures, and the weapon
abilities' rule text. Sent with the public state, so the browser names nothing itself."""

from __future__ import annotations

from typing import Any

from rules.engine.army.list_checks import reserves_points_limit
from rules.engine.battlefield.placement import battlefield_of, edition_of
from rules.engine.battlefield.terrain import is_obscuring
from rules.engine.core.citations import cite
from rules.engine.core.display_names import NAMES, REASONS
from rules.engine.core.standing_rules import ARRIVAL_METHODS
from rules.engine.core.state import State
from rules.engine.phases.movement import arrival_method_name

TERRAIN_NAMES = {
    "ruin": "Ruins",
    "ruins": "Ruins",
    "woods": "Woods",
    "barricade": "Barricade",
    "barricades": "Barricades",
    "crater": "Crater",
    "craters": "Craters",
    "razorwire": "Razorwire",
    "debris": "Debris",
    "hill": "Hill",
    "low-wall": "Low wall",
    "statuary": "Statuary",
    "building": "Building",
    "armoured-container": "Armoured container",
    "container": "Container",
}

# The weapon abilities as a player reads them on hover: the 11th edition section and its gist
# (the engine's attack sequence is the authority; these words only say what it does).
WEAPON_ABILITIES = {
    "anti": (
        "24.03",
        "[ANTI-X Y+]: against a target with keyword X, an unmodified wound roll of "
        "Y+ is a critical wound.",
    ),
    "assault": (
        "24.04",
        "The unit can shoot with this weapon after it Advanced (assault shooting).",
    ),
    "blast": (
        "24.05",
        "+1 attack die for every five models in the target unit; cannot target a "
        "unit engaged with friendly units.",
    ),
    "cleave": (
        "24.06",
        "[CLEAVE X]: +X attack dice when the target has at least five models within reach.",
    ),
    "close-quarters": ("24.07", "Can shoot while the unit is engaged (as a [PISTOL] can)."),
    "devastating wounds": (
        "24.10",
        "A critical wound inflicts mortal wounds equal to the "
        "weapon's Damage instead of normal damage.",
    ),
    "extra attacks": (
        "24.11",
        "Attacks with this weapon are made in addition to the model's other melee weapon.",
    ),
    "hazardous": (
        "24.15",
        "After the unit attacks, roll a hazard roll for each such weapon: on a "
        "fail the unit suffers mortal wounds.",
    ),
    "heavy": (
        "24.16",
        '+1 to hit in your Shooting phase if the unit is braced (did not move more than 3").',
    ),
    "ignores cover": ("24.18", "The target gets no benefit of cover against these attacks."),
    "indirect fire": (
        "24.19",
        "Can target units not visible; those attacks are worse to hit and the target has cover.",
    ),
    "lance": ("24.21", "+1 to the wound roll if the attacking unit made a charge move this turn."),
    "lethal hits": ("24.23", "A critical hit automatically wounds the target."),
    "melta": ("24.25", "[MELTA X]: +X Damage against a target within half range."),
    "one shot": ("24.26", "Can be fired only once per battle."),
    "pistol": (
        "24.27",
        "Can shoot while engaged, at an engaged unit; a model shoots its pistols "
        "or its other ranged weapons, not both.",
    ),
    "precision": (
        "24.28",
        "Attacks can be allocated to a visible CHARACTER model (10e: of an Attached unit only).",
    ),
    "psychic": ("24.29", "A psychic attack: rules that affect psychic attacks apply."),
    "rapid fire": ("24.30", "[RAPID FIRE X]: +X attack dice when the target is within half range."),
    "sustained hits": ("24.36", "[SUSTAINED HITS X]: a critical hit scores X additional hits."),
    "torrent": ("24.37", "Attacks automatically hit: no hit roll."),
    "twin-linked": ("24.38", "Re-roll the wound roll."),
}


def weapon_abilities() -> dict[str, dict[str, str]]:
    return {name: {"rule": rule, "text": text} for name, (rule, text) in WEAPON_ABILITIES.items()}


def terrain(state: State) -> dict[str, dict[str, Any]]:
    """Each terrain piece's name, kind name, category and whether it obscures, by piece id."""
    mission = state.get("mission") or {}
    pieces = mission.get("terrain") or []
    if not pieces:
        return {}
    field = battlefield_of(state)
    edition = edition_of(state)
    found = {}
    for data, piece in zip(pieces, field.terrain, strict=False):
        categories = sorted({feature.category for feature in piece.features})
        found[str(data.get("id", piece.index))] = {
            "kind": TERRAIN_NAMES.get(piece.kind, piece.kind.replace("-", " ").capitalize()),
            "name": piece.name or "",
            "categories": categories,
            "obscuring": bool(is_obscuring(piece, edition)),
        }
    return found


def steps(state: State) -> dict[str, dict[str, Any]]:
    """What each set-up step before the battle asks of the player whose step it is, in one line
    with the rule it cites (the action panel shows it at the head of that step): what the step is
    for and how to finish it. `with` lists the decisions the step is made of, beside which the
    line is shown too (a step that is only decisions: the redeployments, the first turn). The
    numbers are the game's rule set's (the reserves' share of the points limit: 11e 20.01 50%,
    10e Strategic Reserves 25%; Infiltrators 11e 24.20 8", 10e 9"; Scouts 11e 24.32 8", 10e
    9"); the engine's checks are the authority. `others` is the same step as the other player and
    spectators read it, after the name of the player whose step it is ("bob is deploying: ...")."""
    edition = edition_of(state)
    limit = reserves_points_limit(state)
    share = f"{edition.reserves_points_fraction * 100:g}% of the points limit"
    worth = f"worth up to {limit} points, {share}" if limit is not None else f"up to {share}"
    infiltrators = cite(state, "infiltrators")
    infiltrators = "Infiltrators" + ("" if infiltrators == "Infiltrators" else f" ({infiltrators})")
    return {
        "declare_reserves": {
            "rule": cite(state, "reserves"),
            "text": (
                "Declare reserves, before deployment: tick the units that start in Strategic "
                f"Reserves instead of on the battlefield ({worth} in all) and choose any that "
                'start embarked within a TRANSPORT, then press "Declare reserves" (none ticked: '
                "every unit is deployed)."
            ),
            "others": (
                "is declaring reserves, before deployment: which units start in Strategic "
                f"Reserves instead of on the battlefield ({worth} in all) and which start "
                "embarked within a TRANSPORT."
            ),
        },
        "deployment": {
            "rule": cite(state, "deploy"),
            "text": (
                "Deploy armies: the players take turns setting up one unit at a time, wholly "
                f"within their deployment zone (a unit with {infiltrators}: anywhere more than "
                f'{edition.infiltrators_enemy_distance:g}" from the enemy deployment zone and '
                "every enemy model). Press a unit's Deploy button, drag it into place and "
                "confirm, until every unit is deployed."
            ),
            "others": (
                "is deploying: the players take turns setting up one unit at a time, wholly "
                f"within their deployment zone (a unit with {infiltrators}: anywhere more than "
                f'{edition.infiltrators_enemy_distance:g}" from the enemy deployment zone and '
                "every enemy model), until every unit is deployed."
            ),
        },
        "redeployment": {
            "rule": cite(state, "deploy"),
            "text": (
                "Redeployments, after both armies are deployed: a rule of your army lets you set "
                'units up again. Select them one by one, then press "Done"; each is then set up '
                "again wholly within your deployment zone (drag it and confirm) or put into "
                "Strategic Reserves."
            ),
            "others": (
                "is redeploying, after both armies are deployed: a rule of their army lets them "
                "set units up again, each wholly within their deployment zone, or put them into "
                "Strategic Reserves."
            ),
            "with": ["select_units", "redeploy_unit"],
        },
        "first_turn": {
            "rule": cite(state, "first_turn"),
            "text": (
                "Determine first turn: the players roll off (a tie is rolled again) and the "
                "winner chooses who takes the first turn. The player taking the first turn "
                "also makes the first Scout moves."
            ),
            "others": (
                "won the roll-off (a tie is rolled again) and chooses who takes the first "
                "turn. The player taking the first turn also makes the first Scout moves."
            ),
            "with": ["choose_first_turn"],
        },
        "scouts": {
            "rule": cite(state, "scout"),
            "text": (
                'Scout moves, before the first battle round: each of your units with Scouts X" '
                f'can move up to X", ending more than {edition.scouts_enemy_distance:g}" from '
                'every enemy unit. Select one and drag it, or press "End Scout moves" to finish.'
            ),
            "others": (
                "is making Scout moves, before the first battle round: each of their units with "
                f'Scouts X" can move up to X", ending more than '
                f'{edition.scouts_enemy_distance:g}" from every enemy unit.'
            ),
        },
    }


def arrival_methods(state: State) -> dict[str, str]:
    """The name of each way a unit may arrive by (the action panel's choice of way, the prompts,
    the roster), by the engine's method word (`movement.arrival_method_name`)."""
    methods = ("ingress", "deep_strike", *ARRIVAL_METHODS.entries)
    return {method: arrival_method_name(state, method) for method in methods}


def display(state: State) -> dict[str, Any]:
    """The names and texts the table shows with this state."""
    return {
        "steps": steps(state),
        "decisions": {kind: words(state) for kind, words in REASONS.items()},
        "orders": dict(NAMES["orders"]),
        "terrain": terrain(state),
        "terrain_kinds": dict(TERRAIN_NAMES),
        "weapon_abilities": weapon_abilities(),
        "arrival_methods": arrival_methods(state),
    }
