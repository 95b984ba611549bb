"""Stratagems that change a battle-shock roll/test: Insane Bravery (11e 15.04; 10e Insane
Bravery; Boarding Actions Insane Bravery).

Before the roll (11e, 10e): an effect `{"battle_shock": "automatic_pass"}` on the unit until the
end of the phase; the battle-shock step (command_phase.py) reads it when it makes that roll and
records an automatic success instead of rolling (01.05.01). After a failed test (Boarding
Actions): the unit is treated as having passed, so the battle-shock it just got ends.
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import add_effect, effects_on_unit, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.phases.battle_shock import AUTOMATIC_PASS
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import is_trigger_unit, own_units


@implements(
    "insane-bravery-11e", "insane-bravery-10e", targets=own_units(is_trigger_unit, on_table=False)
)
def pass_automatically(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    add_effect(ctx, use.slug, {"unit": use.target}, AUTOMATIC_PASS, "end_of_phase", use.player)
    carry_on(ctx, then)


@implements(
    "insane-bravery-boarding-actions",
    targets=own_units(is_trigger_unit, on_table=False),
    ignores_battle_shock=True,
)
def treat_as_passed(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    for effect in effects_on_unit(ctx.state, use.target_unit):
        if effect["modifier"].get("status") == "battle_shocked":
            remove_effect(ctx, effect["id"], "treated as having passed (Insane Bravery)")
    ctx.emit("battle_shock_test_treated_as_passed", unit=use.target, stratagem=use.slug)
    carry_on(ctx, then)
