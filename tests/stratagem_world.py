"""Stratagem scenarios: games with the project's stratagem records, and helpers to reach a phase.

Player 1: a Strike Squad led by an Inquisitor (`LED_SQUAD`, GREY KNIGHTS + AGENTS OF THE
IMPERIUM, a CHARACTER) and a Strike Squad (`SQUAD`). Player 2: two Cadian Shock Troops units
(`CADIANS`, `CADIANS_2`; ASTRA MILITARUM).
"""

from __future__ import annotations

import json
from typing import Any

from rules.engine.core.state import opponent
from rules.engine.phases.fight import current_step
from rules.engine.sequence.game import legal_actions, pending_window
from tests.engine_world import (
    BUNDLE,
    ROOT,
    decide,
    default_armies,
    deployed_game,
    legal_charge,
    place_unit,
    play,
    script_dice,
)

LED_SQUAD, SQUAD, CADIANS, CADIANS_2 = "p1-u1", "p1-u2", "p2-u1", "p2-u2"
RULES_FILES = sorted((ROOT / "rules" / "data" / "core").glob("*.json")) + sorted(
    (ROOT / "rules" / "data" / "factions").glob("*/seed.json")
)


def stratagem_records() -> list[dict[str, Any]]:
    records = []
    for path in RULES_FILES:
        records.extend(json.loads(path.read_text("utf-8")).get("stratagems", []))
    return records


STRATAGEMS = stratagem_records()


# The rolls of the attack sequence after which Command Re-roll is offered. Scenarios about other
# rules leave them out (a player's standing choice, `set_window_preferences` `never_reroll`), so
# their attacks run without a re-roll window after every roll.
ATTACK_ROLLS = ["attacks", "hit", "wound", "save", "damage", "hazard"]


def no_attack_rerolls(state: dict[str, Any]) -> dict[str, Any]:
    """Both players never want Command Re-roll offered on the attack sequence's rolls."""
    for player in (1, 2):
        state["window_preferences"][str(player)] = {
            "never_offer": [],
            "never_reroll": list(ATTACK_ROLLS),
        }
    return state


def stratagem_game(
    edition: str,
    detachments: dict[int, str | None] | None = None,
    first: int = 1,
    boarding_actions: bool = False,
    armies: dict[str, Any] | None = None,
    attack_rerolls: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """A deployed game with the project's stratagems; `attack_rerolls` False: Command Re-roll is
    not offered on attack rolls (`no_attack_rerolls`)."""
    armies = armies or default_armies()
    for player, slug in (detachments or {}).items():
        armies[str(player)]["detachment"] = slug
    mission = {**BUNDLE["missions"][0], "boarding_actions": boarding_actions}
    state, _ = deployed_game(
        edition, armies, first=first, stratagems=STRATAGEMS, mission=mission, **extra
    )
    return state if attack_rerolls else no_attack_rerolls(state)


def window(state: dict[str, Any]) -> dict[str, Any] | None:
    """The open window, as the online layer asks for it (rules.engine.game.pending_window)."""
    return pending_window(state)


def offered(state: dict[str, Any]) -> set[tuple[str, str]]:
    """(stratagem, target) pairs of the open window."""
    top = window(state)
    return {(o["stratagem"], o["target"]) for o in top["options"] if o != "pass"} if top else set()


def choose(state: dict[str, Any], slug: str, target: str) -> tuple[dict[str, Any], list[dict]]:
    option = next(
        o
        for o in window(state)["options"]
        if o != "pass" and o["stratagem"] == slug and o["target"] == target
    )
    return decide(state, option)


def pass_windows(state: dict[str, Any]) -> dict[str, Any]:
    """Pass every stratagem window, and every ability choice (At all Costs, Tome-skull, ...)."""
    while window(state) or (state["pending"] and state["pending"][-1]["kind"] == "ability_choice"):
        state, _ = decide(state, "pass")
    return state


# Decisions of optional rules on the way, and the answer that does nothing: Artillery Support
# (Smoke Shells on no unit), Summary Execution, Orders at the end of a phase.
DO_NOTHING = {
    "artillery_support": "smoke-shells",
    "artillery_support_unit": "done",
    "summary_execution": "decline",
    "issue_order": "done",
}


def pass_windows_and_rules(state: dict[str, Any]) -> dict[str, Any]:
    """Pass every stratagem window and ability choice (At all Costs, Tome-skull, ...) and decline
    every optional rule's decision on the way."""
    while state["pending"]:
        top = state["pending"][-1]
        if top["kind"] in ("stratagem_window", "ability_choice"):
            state, _ = decide(state, "pass")
        elif top["kind"] in DO_NOTHING:
            state, _ = decide(state, DO_NOTHING[top["kind"]])
        else:
            break
    return state


def to_phase(state: dict[str, Any], player: int, phase: str) -> dict[str, Any]:
    """End phases (passing every window) until `player`'s `phase` has started; in the Fight
    phase, on to its Fight step (11e 12.02: both players pass their pile-in moves)."""
    state = pass_windows_and_rules(state)
    while not (state["active_player"] == player and state["phase"] == phase):
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
        state = pass_windows_and_rules(state)
    return to_fight_step(state) if phase == "fight" else state


def cadians_charged_the_squad_10e(detachments: dict[int, str | None] | None = None):
    """10e, player 2's Charge phase: the Cadians rolled 6 + 6 and charged the Strike Squad; the
    Inquisitor's unit stands 9.5" from the Squad, 6" from the Cadians, with 1CP to spend (the
    set-up of Heroic Intervention [004 L374-381])."""
    state = stratagem_game("10e", detachments, first=2)
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, LED_SQUAD, 29.5, 20.0)
    place_unit(state, CADIANS, 20.0, 26.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 1
    script_dice(state, [6, 6])
    state, _ = play(
        state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [SQUAD]}
    )
    state = pass_windows(state)  # player 2's Command Re-roll window on its charge roll
    state, _ = decide(state, legal_charge(state, CADIANS, [SQUAD], 12))
    return state


def through_attacks(state: dict[str, Any]) -> dict[str, Any]:
    """Pass the window of the selection to shoot or fight and the re-roll windows after the
    attacks' rolls (Command Re-roll), then answer the decisions of the
    attacks (the defender's allocation order and the attacker's [PRECISION] character: the first
    legal one; a 10e consolidation: none)
    until the next stratagem window or nothing is pending."""
    selection = {"unit_selected_to_shoot", "unit_selected_to_fight", "after_roll"}
    while state["pending"]:
        top = state["pending"][-1]
        if top["kind"] == "stratagem_window" and selection & set(top["resume"]["triggers"]):
            state, _ = decide(state, "pass")
        elif top["kind"] in ("allocation_order", "precision_target"):
            state, _ = decide(state, top["options"][0])
        elif top["kind"] == "consolidate_move":
            state, _ = decide(state, None)
        else:
            break
    return state


def to_fight_step(state: dict[str, Any]) -> dict[str, Any]:
    """11e: both players make no pile-in move (12.02), so the Fight step begins."""
    while current_step(state)[0] == "pile_in":
        state, _ = play(state, {"type": "end_step", "player": current_step(state)[1]})
        state = pass_windows(state)
    return state


def engage(state: dict[str, Any], mine: str, theirs: str) -> None:
    """Stand two units within engagement range of each other in mid-table."""
    place_unit(state, mine, 20.0, 20.0)
    place_unit(state, theirs, 20.0, 15.8)


def use(state: dict[str, Any], player: int, slug: str, target: str):
    return play(
        state, {"type": "use_stratagem", "player": player, "stratagem": slug, "target": target}
    )


def usable(state: dict[str, Any], player: int) -> set[tuple[str, str]]:
    return {
        (a["stratagem"], a["target"])
        for a in legal_actions(state, player)
        if a["type"] == "use_stratagem"
    }


def other(player: int) -> int:
    return opponent(player)
