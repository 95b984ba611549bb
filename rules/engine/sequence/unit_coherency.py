"""Regaining coherency at the end of each turn (11e 03.03 Unit Coherency; 10e Unit Coherency).

At the end of every turn, each unit on the battlefield that is out of coherency has models
removed, one at a time, until it is in coherency again; removed models are destroyed, but their
destruction triggers no rules. The battlefield says which model breaks coherency
(`coherency.coherency_break`); that model is removed (ruling R-MV-05: the engine removes it, since
the owner's choice would be a decision at every turn end for a rare case).
"""

from __future__ import annotations

from rules.engine.attacks.casualties import destroy_model
from rules.engine.battlefield.coherency import coherency_break
from rules.engine.battlefield.placement import edition_of, table
from rules.engine.core.events import Context
from rules.engine.core.state import on_battlefield


def regain_coherency(ctx: Context) -> None:
    state = ctx.state
    edition = edition_of(state)
    everyone = table(state)
    for unit_id, unit in sorted(state["units"].items()):
        if not on_battlefield(unit):
            continue
        models = [p for p in everyone if p.unit_id == unit_id]
        broken = coherency_break(models, edition)
        while broken is not None:
            model = next(m for m in unit["models"] if m["id"] == broken.model_id)
            ctx.emit("coherency_lost", unit=unit_id, model=model["id"], reason=broken.reason)
            destroy_model(ctx, unit, model, "unit coherency")
            models = [p for p in models if p.model_id != broken.model_id]
            broken = coherency_break(models, edition)
