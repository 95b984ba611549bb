"""Grand Strategist (Armoured Infantry enhancement, seed 003 L729-731; CATALOGUE
E-GRAND-STRATEGIST-AI; rulings R-AM-13), one of the rules that redeploy units after deployment.

"After both players have deployed their armies, if the bearer's unit (or any TRANSPORT it is
embarked within) is on the battlefield, select up to two units with the REGIMENT or SQUADRON
keywords from your army and redeploy them. When doing so, you can set those units up in Strategic
Reserves, regardless of how many units are already in Strategic Reserves."

The selection and the redeployment itself are the shared redeployment step of `battle_sequence`
(`standing_rules.REDEPLOYMENTS`, also used by Liber Heresius): this module only says who may.
"""

from __future__ import annotations

from rules.engine.army.attached_units import unit_took_enhancement
from rules.engine.core import standing_rules
from rules.engine.core.hooks import implements
from rules.engine.core.state import State, detachment, on_battlefield, unit_keywords, units_of

GRAND_STRATEGIST = "grand-strategist-armoured-infantry"
DETACHMENT = "armoured-infantry"
MAXIMUM_UNITS = 2
RECIPIENTS = frozenset({"REGIMENT", "SQUADRON"})


def _bearer_on_battlefield(state: State, player: int) -> bool:
    """The bearer's unit, or the TRANSPORT it is embarked within, is on the battlefield."""
    for unit in units_of(state, player):
        if not unit_took_enhancement(unit, GRAND_STRATEGIST):
            continue
        carrier = state["units"].get(unit.get("embarked_in") or "")
        if on_battlefield(unit) or (carrier is not None and on_battlefield(carrier)):
            return True
    return False


@implements("enhancement", GRAND_STRATEGIST, at=standing_rules.REDEPLOYMENTS, order=20)
def grand_strategist(state: State, player: int) -> tuple[str, int, list[str]] | None:
    """Up to two REGIMENT or SQUADRON units on the battlefield, when the bearer is there and the
    army uses the Armoured Infantry detachment."""
    if detachment(state, player) != DETACHMENT:
        return None
    if not _bearer_on_battlefield(state, player):
        return None
    candidates = [
        unit["id"]
        for unit in units_of(state, player)
        if on_battlefield(unit) and unit_keywords(state, unit) & RECIPIENTS
    ]
    return ("Grand Strategist", MAXIMUM_UNITS, candidates) if candidates else None
