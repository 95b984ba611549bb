"""The stratagem windows' index (`windows._WindowIndex`: which stratagems can open at a timing
point, worked out once per rules data) against every stratagem of the player asked at each point,
as `offers` asked before the index, over the recorded self-played games of both editions with
stratagems (`tests/compat_games.py`):

- the stratagems whose window opens, and with which trigger, at every trigger of the vocabulary
  alone, the engine's combined points and all triggers at once, about no unit, an own unit and an
  enemy unit, for both players;
- the offers themselves (every stratagem x target x choice) at the windows the recorded games
  opened and at the `use_stratagem` actions' point (`any_time`, `reinforcements_step`)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine.battlefield.placement import position_settled
from rules.engine.core.state import detachment
from rules.engine.core.timing import STRATAGEM_TRIGGERS
from rules.engine.stratagems import effects as stratagem_effects
from rules.engine.stratagems import windows
from rules.engine.stratagems.use import (
    affordable_and_unused,
    player_stratagems,
    refusal_for,
    windows_of,
)
from tests.compat_games import load, replayed_states

RECORDED = load()
WITH_STRATAGEMS = [
    number
    for number, record in enumerate(RECORDED["games"])
    if record["setup"].startswith("stratagems/")
]
POINTS = [
    *((trigger,) for trigger in STRATAGEM_TRIGGERS),
    windows.INITIATIVE_TRIGGERS,
    ("unit_selected_to_shoot", "enemy_unit_selected_targets"),
    ("charge_declared", "enemy_charge_declared"),
    STRATAGEM_TRIGGERS,
]


# --- as `offers` asked before the index -----------------------------------------------------


def opens_in_full(when, state, player, trigger, about) -> bool:
    if when["trigger"] == "any_time":
        if trigger != "any_time" and (
            state["active_player"] == player or trigger in windows.NOT_A_MOMENT_FOR_ANY_TIME
        ):
            return False
    elif when["trigger"] != trigger or not windows._subject_matches(state, player, trigger, about):
        return False
    phase = when["phase"]
    if phase == "any":
        phase_matches = True
    elif phase == "battle-shock-step":
        phase_matches = state["phase"] == "command" and trigger.startswith("battle_shock")
    else:
        phase_matches = phase == state["phase"]
    own = state["active_player"] == player
    return phase_matches and (when["turn"] == "either" or (when["turn"] == "own") == own)


def openings_in_full(state, player, triggers, about) -> list[tuple[str, str]]:
    found = []
    for record in player_stratagems(state, player):
        trigger = next(
            (
                t
                for t in triggers
                for when in windows_of(record)
                if opens_in_full(when, state, player, t, about)
            ),
            None,
        )
        if trigger is not None:
            found.append((record["slug"], trigger))
    return found


def offers_in_full(state, player, triggers, about) -> list[dict[str, Any]]:
    never = set(windows.preferences(state, player).get("never_offer", []))
    found: list[dict[str, Any]] = []
    with position_settled(state):
        for slug, trigger in openings_in_full(state, player, triggers, about):
            if slug in never or slug not in stratagem_effects.IMPLEMENTATIONS:
                continue
            if not affordable_and_unused(state, player, slug):
                continue
            window = {**about, "trigger": trigger, "phase": state["phase"]}
            implementation = stratagem_effects.IMPLEMENTATIONS[slug]
            targets = implementation.targets(state, player, window)
            for target in targets:
                for extra in implementation.choices(state, player, window, target):
                    use = stratagem_effects.Use(slug, player, target, window, extra)
                    if refusal_for(state, use, targets) is None and windows._wanted(state, use):
                        found.append(
                            {"stratagem": slug, "target": target, "window": window, **extra}
                        )
    return found


# --- with the index -----------------------------------------------------------------------------


def openings_indexed(state, player, triggers, about) -> list[tuple[str, str]]:
    candidates = windows._index(state["stratagems"]).candidates(
        tuple(triggers),
        state["phase"],
        state["active_player"] == player,
        detachment(state, player),
    )
    found = []
    for candidate in candidates:
        trigger = windows._opening(candidate, state, player, about)
        if trigger is not None:
            found.append((candidate.slug, trigger))
    return found


def abouts(state, player):
    """No unit, the first of the player's units and the first enemy unit still standing."""
    own = next((u for u, unit in sorted(state["units"].items()) if unit["player"] == player), None)
    enemy = next(
        (u for u, unit in sorted(state["units"].items()) if unit["player"] != player), None
    )
    return [{}, *({"unit": unit} for unit in (own, enemy) if unit is not None)]


@pytest.mark.parametrize("number", WITH_STRATAGEMS, ids=lambda n: f"game-{n}")
def test_the_stratagems_the_index_opens_are_those_every_stratagem_asked_opens(number):
    opened = 0
    for _, state in replayed_states(RECORDED, number, every=3):
        for player in (1, 2):
            for about in abouts(state, player):
                for triggers in POINTS:
                    found = openings_indexed(state, player, list(triggers), about)
                    assert found == openings_in_full(state, player, list(triggers), about)
                    opened += len(found)
    assert opened > 500


@pytest.mark.parametrize("number", WITH_STRATAGEMS, ids=lambda n: f"game-{n}")
def test_the_offers_are_those_found_by_asking_every_stratagem(number):
    windows_seen = offered = 0
    for _, state in replayed_states(RECORDED, number):
        points = [(player, list(windows.INITIATIVE_TRIGGERS), {}) for player in (1, 2)]
        pending = state.get("pending") or []
        if pending and pending[-1]["kind"] == windows.WINDOW_KIND:
            resume = pending[-1]["resume"]
            points += [(player, resume["triggers"], resume["about"]) for player in (1, 2)]
            windows_seen += 1
        for player, triggers, about in points:
            found = windows.offers(state, player, triggers, about)
            assert found == offers_in_full(state, player, triggers, about)
            offered += len(found)
    assert windows_seen > 5
    assert offered > 20
