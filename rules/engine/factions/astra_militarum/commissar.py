"""The Death Rider Commissar's rules on battle-shock (seed 003 L15): Political Overwatch (a failed
battle-shock test of its unit is re-rolled while another OFFICER model is in it: the hook
`standing_rules.BATTLE_SHOCK_REROLLS`) and Summary Execution (at the start of any phase, after the
abilities used then: the timing point `PHASE_START_ABILITIES_RESOLVED`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import datasheet_of, part_has
from rules.engine.attacks.casualties import destroy_model
from rules.engine.battlefield.state_distances import model_distance
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import effects_on_unit, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import BATTLE_SHOCK_REROLLS
from rules.engine.core.state import State, alive_models, on_battlefield, units_of
from rules.engine.core.timing import PHASE_START_ABILITIES_RESOLVED, at
from rules.engine.phases.battle_shock import BATTLE_SHOCKED, is_battle_shocked

add_sections({"summary_execution": "Summary Execution"})


def _parts_with(state: State, unit: Unit, ability: str) -> list[int]:
    return [index for index, part in enumerate(unit["parts"]) if part_has(state, part, ability)]


@implements(
    "datasheet-ability",
    "death-rider-commissar/political-overwatch",
    at=BATTLE_SHOCK_REROLLS,
    order=10,
)
def political_overwatch_reroll(state: State, unit: Unit) -> str | None:
    """Death Rider Commissar: while another OFFICER model is in its unit, battle-shock tests for
    that unit may be re-rolled. A failed test is always re-rolled: a re-roll cannot make it worse
    (rulings R-AM-10)."""
    return "Political Overwatch" if political_overwatch(state, unit) else None


def political_overwatch(state: State, unit: Unit) -> bool:
    commissars = _parts_with(state, unit, "Political Overwatch")
    officers = [
        index
        for index, part in enumerate(unit["parts"])
        if "OFFICER" in datasheet_of(state, part)["keywords"]
    ]
    alive = {m["part"] for m in alive_models(unit)}
    return any(c in alive and any(o != c and o in alive for o in officers) for c in commissars)


# --- Summary Execution (Death Rider Commissar, seed 003 L15) ----------------------------------

SUMMARY_EXECUTION = "Summary Execution"
EXECUTION_RANGE = 12.0


def _executioners(state: State, player: int) -> list[Model]:
    """The player's models with Summary Execution on the battlefield, not yet used this round."""
    used = state["facts"]["battle_round"].get("summary_execution", [])
    found = []
    for unit in units_of(state, player):
        if not on_battlefield(unit):
            continue
        parts = _parts_with(state, unit, SUMMARY_EXECUTION)
        found += [m for m in alive_models(unit) if m["part"] in parts and m["id"] not in used]
    return found


def _am_infantry_or_mounted(state: State, unit: Unit) -> bool:
    keywords = set()
    for part in unit["parts"]:
        sheet = state["datasheets"][part["datasheet"]]
        keywords |= set(sheet["keywords"]) | set(sheet.get("faction_keywords", []))
    return "ASTRA MILITARUM" in keywords and bool({"INFANTRY", "MOUNTED"} & keywords)


def summary_execution_options(state: State, player: int) -> list[dict[str, Any]]:
    """Each {commissar, unit, model}: a battle-shocked friendly ASTRA MILITARUM INFANTRY or
    MOUNTED unit within 12" of the Commissar model, and the model its controller destroys
    (AMB-50)."""
    options = []
    for commissar in _executioners(state, player):
        for unit in units_of(state, player):
            if not on_battlefield(unit) or not is_battle_shocked(state, unit["id"]):
                continue
            if not _am_infantry_or_mounted(state, unit):
                continue
            if min(model_distance(commissar, m) for m in alive_models(unit)) > EXECUTION_RANGE:
                continue
            options += [
                {"commissar": commissar["id"], "unit": unit["id"], "model": m["id"]}
                for m in alive_models(unit)
            ]
    return options


@at(PHASE_START_ABILITIES_RESOLVED, 10, resumes=True)
@implements("datasheet-ability", "death-rider-commissar/summary-execution")
def summary_execution_at_phase_start(
    ctx: Context, _data: dict[str, Any], then: dict[str, Any]
) -> None:
    """At the start of any phase, each player (the active player first) may use Summary Execution
    once per battle round per Commissar; then `then` resumes."""
    active = ctx.state["active_player"]
    _ask_execution(ctx, [active, 2 if active == 1 else 1], then)


def _ask_execution(ctx: Context, queue: list[int], then: dict[str, Any]) -> None:
    for index, player in enumerate(queue):
        options = summary_execution_options(ctx.state, player)
        if options:
            push_decision(
                ctx,
                player,
                "summary_execution",
                [*options, "decline"],
                {"step": "summary_execution_chosen", "queue": queue[index:], "then": then},
                cite(ctx.state, "summary_execution"),
                "Summary Execution: destroy one model of a battle-shocked unit to end its "
                "battle-shock?",
            )
            return
    resume(ctx, then)


@continuation("summary_execution_chosen")
def _execution_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    queue = data["queue"]
    if choice == "decline":
        _ask_execution(ctx, queue[1:], data["then"])
        return
    state = ctx.state
    state["facts"]["battle_round"].setdefault("summary_execution", []).append(choice["commissar"])
    unit = state["units"][choice["unit"]]
    victim = next(m for m in unit["models"] if m["id"] == choice["model"])
    ctx.emit(
        "summary_execution", commissar=choice["commissar"], unit=unit["id"], model=victim["id"]
    )
    destroy_model(ctx, unit, victim, "summary-execution")
    for effect in effects_on_unit(state, unit["id"]):
        if effect["modifier"].get("status") == BATTLE_SHOCKED:
            remove_effect(ctx, effect["id"], "Summary Execution")
    _ask_execution(ctx, queue, data["then"])
