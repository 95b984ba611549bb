"""Imperial Agents rules about TRANSPORTs: Authority of the Inquisition (a leading Inquisitor
embarks wherever its Bodyguard may: `EMBARK_WAIVERS`), Rapid Deployment (the Inquisitorial
Chimera's passengers may disembark after it Advanced: `ELIGIBILITY_WAIVERS`,
`disembark_after_advance`) and Assigned Agents' DEDICATED TRANSPORTs (`EMBARKED_DECLARED`).
"""

from __future__ import annotations

from rules.engine.army.transport_capacity import model_keywords, model_refusal
from rules.engine.attacks.casualties import count_as_destroyed
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.shapes import Model, TransportCapacity, Unit
from rules.engine.core.standing_rules import ELIGIBILITY_WAIVERS, EMBARK_WAIVERS, EMBARKED_DECLARED
from rules.engine.core.state import State, units_of
from rules.engine.phases.transports import passengers

add_sections({"assigned_agents": "Assigned Agents"})


AUTHORITY = "Authority of the Inquisition"
RAPID_DEPLOYMENT = "Rapid Deployment"
AGENTS_KEYWORD = "AGENTS OF THE IMPERIUM"
AGENTS_FACTION = "imperial-agents"


@implements(
    "datasheet-ability",
    "inquisitor/authority-of-the-inquisition",
    "inquisitor-coteaz/authority-of-the-inquisition",
    at=EMBARK_WAIVERS,
    order=10,
)
def _authority_of_the_inquisition(
    state: State, unit: Unit, model: Model, capacity: TransportCapacity
) -> bool:
    """While this model is leading a unit, it can embark within any TRANSPORT its Bodyguard unit
    can embark within."""
    part = unit["parts"][model["part"]]
    sheet = state["datasheets"][part["datasheet"]]
    if part["role"] != "leader" or not any(
        a["name"] == AUTHORITY for a in sheet.get("abilities", [])
    ):
        return False
    bodyguard = [m for m in unit["models"] if m["part"] == 0]
    return all(model_refusal(capacity, model_keywords(state, unit, m)) is None for m in bodyguard)


@implements(
    "datasheet-ability",
    "inquisitorial-chimera/rapid-deployment",
    at=ELIGIBILITY_WAIVERS,
    order=30,
)
def _rapid_deployment(state: State, transport: Unit, limit: str) -> bool:
    """Units can disembark from this TRANSPORT after it has Advanced; they count as having made
    a Normal move that phase and cannot declare a charge in the same turn."""
    if limit != "disembark_after_advance":
        return False
    sheet = state["datasheets"][transport["datasheet"]]
    return any(a["name"] == RAPID_DEPLOYMENT for a in sheet.get("abilities", []))


@implements("ability", "assigned-agents", at=EMBARKED_DECLARED, order=10)
def _assigned_agents_transports(ctx: Context, player: int) -> None:
    """Assigned Agents: in an army whose faction is not AGENTS OF THE IMPERIUM, each AGENTS OF
    THE IMPERIUM DEDICATED TRANSPORT must start the battle with a unit embarked within it, or it
    cannot be deployed and counts as destroyed (the ability's army limits are in `army_list`)."""
    state = ctx.state
    faction = state["players"][str(player)].get("faction")
    if not faction or faction == AGENTS_FACTION:
        return
    for unit in units_of(state, player):
        sheet = state["datasheets"][unit["datasheet"]]
        if (
            unit.get("transport")
            and AGENTS_KEYWORD in sheet.get("faction_keywords", [])
            and "DEDICATED TRANSPORT" in sheet.get("keywords", [])
            and unit["location"] in ("unplaced", "strategic_reserves")
            and not passengers(state, unit["id"])
        ):
            rule = cite(state, "assigned_agents")
            count_as_destroyed(ctx, unit, "Assigned Agents: no unit embarked", rule=rule)
