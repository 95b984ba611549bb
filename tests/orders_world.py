"""Astra Militarum scenarios: Officers, Orders and the faction's detachments in play.

Player 1 (Grey Knights + an Inquisitor, the default army) against player 2, an Astra Militarum army
built from the project's rules data (seed 003 and the published datasheets):

- `CADIANS` (p2-u1): Cadian Shock Troops led by a Cadian Castellan (2 Orders to REGIMENT units);
- `CADIANS_2` (p2-u2): Cadian Shock Troops;
- `RIDERS` (p2-u3): Death Riders led by a Death Rider Commissar (1 Order to a REGIMENT unit, only
  Duty and Honour! and Fix Bayonets!);
- `TANK` (p2-u4): a Leman Russ Battle Tank (SQUADRON, W 13);
- `CHIMERA` (p2-u5): a Chimera (SQUADRON, W 11).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.attacks.inputs import standing_modifiers
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, base_radius_inches
from rules.engine.sequence.game import legal_actions, new_game
from tests.engine_world import BUNDLE, ROOT, SEED, army, decide, end_phase, entry, play, setup
from tests.engine_world import wargear as pick_wargear
from tests.stratagem_world import STRATAGEMS, pass_windows

CADIANS, CADIANS_2, RIDERS, TANK, CHIMERA = "p2-u1", "p2-u2", "p2-u3", "p2-u4", "p2-u5"
CASTELLAN_ALONE = "p2-u6"  # the Castellan, when it leads no unit (`castellan_leads=None`)
SQUAD_1, SQUAD_2, SQUAD_3 = "p1-u1", "p1-u2", "p1-u3"
CASTELLAN_MODEL = "p2-u1-m11"
COMMISSAR_MODEL = "p2-u3-m6"

AM_DIR = ROOT / "rules" / "data" / "factions" / "astra-militarum"
AM_SEED = json.loads((AM_DIR / "seed.json").read_text("utf-8"))
AM_PUBLISHED = json.loads((AM_DIR / "published.json").read_text("utf-8"))


def datasheets() -> list[dict[str, Any]]:
    """The fixture's datasheets, the Astra Militarum ones replaced by the project's data."""
    ours = AM_SEED["datasheets"] + AM_PUBLISHED["datasheets"]
    slugs = {sheet["slug"] for sheet in ours}
    return [s for s in BUNDLE["datasheets"] if s["slug"] not in slugs] + ours


def am_armies(
    castellan: list[str] | None = None,
    commissar: list[str] | None = None,
    faction: str | None = "astra-militarum",
    wargear: dict[str, list[str]] | None = None,
    castellan_leads: str | None = "cad1",
    extra_entries: tuple[dict[str, Any], ...] = (),
    third_strike_squad: bool = False,
) -> dict[str, Any]:
    """Both armies; `castellan` / `commissar`: the enhancements of those Officers; `wargear`:
    the wargear of list entries by key; `castellan_leads`: the Castellan's Bodyguard (None: the
    Castellan is a unit of its own, `CASTELLAN_ALONE`); `extra_entries`: more list entries of
    player 2 (after the others); `third_strike_squad`: player 1 has a third Strike Squad
    (`SQUAD_3`)."""
    default = {
        "1": army(
            entry("ss1", "strike-squad", 5, warlord=True),
            entry("ss2", "strike-squad", 5),
        ),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10),
            entry("cad2", "cadian-shock-troops", 10),
            entry("riders", "death-riders", 5),
            entry("tank", "leman-russ-battle-tank", 1),
            entry("chimera", "chimera", 1),
            entry(
                "castellan",
                "cadian-castellan",
                1,
                attached_to=castellan_leads,
                role="leader",
                warlord=True,
                enhancements=castellan or [],
            ),
            entry(
                "commissar",
                "death-rider-commissar",
                1,
                attached_to="riders",
                role="leader",
                enhancements=commissar or [],
            ),
        ),
    }
    default["2"]["units"] += list(extra_entries)
    if third_strike_squad:
        default["1"]["units"].append(entry("ss3", "strike-squad", 5))
    if faction:
        default["2"]["faction"] = faction
    for unit in default["2"]["units"]:
        unit["wargear"] = pick_wargear(unit["datasheet"], *(wargear or {}).get(unit["key"], []))
    return default


def spaced(unit: dict[str, Any], x: float, y: float) -> dict[str, list[float]]:
    """Rows of five from (x, y), spaced for the unit's widest base."""
    models = alive_models(unit)
    step = max(base_radius_inches(m["base"]) for m in models) * 2 + 0.2
    return {m["id"]: [x + (i % 5) * step, y + (i // 5) * step, 0.0] for i, m in enumerate(models)}


# Where each unit stands (its first model): the Astra Militarum units close together.
PLACES = {
    "p1-u1": (20.0, 4.0),
    "p1-u2": (40.0, 4.0),
    SQUAD_3: (30.0, 4.0),  # when player 1 has it (`third_strike_squad`)
    CADIANS: (4.0, 33.0),
    CADIANS_2: (4.0, 38.0),
    RIDERS: (14.0, 33.0),
    TANK: (44.0, 36.0),
    CHIMERA: (16.0, 40.5),
    CASTELLAN_ALONE: (4.0, 42.0),  # within 6" of CADIANS_2 only
}


def stand(state: dict[str, Any], unit_id: str, x: float, y: float) -> None:
    """Test set-up: move a unit to (x, y) as `spaced` stands it."""
    unit = state["units"][unit_id]
    for model_id, (mx, my, _facing) in spaced(unit, x, y).items():
        model = next(m for m in unit["models"] if m["id"] == model_id)
        model["x"], model["y"] = mx, my
    unit["location"] = "battlefield"


def deploy_armies(
    state: dict[str, Any], places: dict[str, tuple[float, float]] | None = None
) -> dict[str, Any]:
    """Deploy every unit waiting to deploy (at `places`, else `PLACES`) until a decision waits."""
    while state["stage"] == "deployment" and not state["pending"]:
        player = state["awaiting"]
        unit = next(
            u
            for _, u in sorted(state["units"].items())
            if u["player"] == player and u["location"] == "unplaced"
        )
        positions = spaced(unit, *{**PLACES, **(places or {})}[unit["id"]])
        state, _ = play(
            state, {"type": "deploy", "player": player, "unit": unit["id"], "positions": positions}
        )
    return state


def am_game(
    detachment: str | None = None,
    first: int = 2,
    cp: int = 5,
    edition: str = "11e",
    artillery: tuple[Any, ...] | None = None,
    redeploy: tuple[Any, ...] = (),
    redeploy_places: dict[str, tuple[float, float]] | None = None,
    boarding_actions: bool = False,
    extra_datasheets: tuple[dict[str, Any], ...] = (),
    **armies_extra: Any,
) -> dict[str, Any]:
    """Player 2's Command phase of battle round 1 (battle-shock step done, windows passed).
    `artillery`: the answers to Artillery Support (Siege Regiment; default Smoke Shells on no
    unit); `()` leaves its decision pending. `redeploy`: the answers to Grand Strategist (Armoured
    Infantry), the units picked up deployed again at `redeploy_places`."""
    if artillery is None:
        artillery = ("smoke-shells", "done") if detachment == "siege-regiment" else ()
    armies = am_armies(**armies_extra)
    armies["2"]["detachment"] = detachment
    state, _ = new_game(
        setup(
            edition,
            armies,
            datasheets=datasheets() + list(extra_datasheets),
            stratagems=STRATAGEMS,
            mission={**BUNDLE["missions"][0], "boarding_actions": boarding_actions},
        ),
        SEED,
    )
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    state = deploy_armies(state)
    for answer in redeploy:  # Grand Strategist (Armoured Infantry)
        state, _ = decide(state, answer)
        state = deploy_armies(state, redeploy_places)
    winner = state["pending"][-1]["player"]
    state, _ = decide(state, "first" if winner == first else "second")
    for answer in artillery:  # Siege Regiment: Artillery Support at the start of the round
        state, _ = decide(state, answer)
    state = pass_windows(state)
    state["players"]["2"]["cp"] = cp
    return state


def order(state, officer, slug, unit, player=2):
    return play(
        state,
        {"type": "issue_order", "player": player, "officer": officer, "order": slug, "unit": unit},
    )


def refused(state, officer, slug, unit, player=2):
    with pytest.raises(Refusal) as refusal:
        order(state, officer, slug, unit, player)
    return refusal.value


def options(state, player=2):
    return {
        (a["officer"], a["order"], a["unit"])
        for a in legal_actions(state, player)
        if a["type"] == "issue_order"
    }


def granted(state, attacker, target, models=None):
    return {
        (m.step, m.kind, m.value, tuple(sorted(dict(m.condition).items())))
        for m in attack_modifiers(state, attacker, target, models)
        + standing_modifiers(state, state["units"][attacker], state["units"][target], models)
    }


def model(state, unit_id, index=0):
    return state["units"][unit_id]["models"][index]


def next_own_command_phase(state, player=2):
    """End phases until `player`'s next Command phase has started (its battle-shock step done)."""
    state, _ = end_phase(state)
    state = pass_windows(state)
    while not (state["active_player"] == player and state["phase"] == "command"):
        state, _ = end_phase(state)
        state = pass_windows(state)
    return state
