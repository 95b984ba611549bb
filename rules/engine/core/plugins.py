"""The rule packages the engine loads, in one ordered list.

Rule modules register themselves when imported: hook subscribers (`hooks.implements(...,
at=HOOK, order=N)`), reactions at timing points, continuations, stratagem implementations,
Leader abilities that may be lent. `load()` imports every module named here, once, in this
order; the public face (`rules/engine/__init__.py`) calls it, so any use of the engine sees
every rule. No other module imports a rule module only for its registrations.

The order of this list decides nothing in a game: hooks run in their explicit `order`, reactions
in name order, and the registries are keyed by name (`tests/test_engine_snapshot.py` pins them).
"""

from __future__ import annotations

import importlib

PLUGINS: tuple[str, ...] = (
    # Core and Boarding Actions stratagems
    "rules.engine.stratagems.effects.attacks",
    "rules.engine.stratagems.effects.battle_shock_tests",
    "rules.engine.stratagems.effects.charges_out_of_phase",
    "rules.engine.stratagems.effects.fight_order",
    "rules.engine.stratagems.effects.leaders",
    "rules.engine.stratagems.effects.mortal_wounds",
    "rules.engine.stratagems.effects.rerolls",
    "rules.engine.stratagems.effects.reserves",
    "rules.engine.stratagems.effects.shooting_out_of_turn",
    # Grey Knights
    "rules.engine.factions.grey_knights.rules",
    "rules.engine.factions.grey_knights.hallowed_ground",
    "rules.engine.factions.grey_knights.teleport_assault",
    "rules.engine.factions.grey_knights.stratagems",
    # Imperial Agents
    "rules.engine.factions.imperial_agents.army_list",
    "rules.engine.factions.imperial_agents.rules",
    "rules.engine.factions.imperial_agents.transports",
    "rules.engine.factions.imperial_agents.stratagems",
    # Astra Militarum
    "rules.engine.factions.astra_militarum.abilities",
    "rules.engine.factions.astra_militarum.artillery_support",
    "rules.engine.factions.astra_militarum.commissar",
    "rules.engine.factions.astra_militarum.orders",
    "rules.engine.factions.astra_militarum.order_stratagems",
    "rules.engine.factions.astra_militarum.stratagems",
    "rules.engine.factions.astra_militarum.reactions",
    "rules.engine.factions.astra_militarum.redeployment",
)

_loaded = False


def load() -> None:
    global _loaded
    if _loaded:
        return
    for name in PLUGINS:
        importlib.import_module(name)
    _loaded = True
