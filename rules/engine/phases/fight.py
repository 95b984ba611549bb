"""The Fight phase (11e 12; 10e Fight Phase): the order in which units fight, pile in, attacks
and consolidation.

Eligible: units on the battlefield that are engaged or charged this turn and have not fought this
phase (11e 12.04; 10e Fight Phase). Fights First (11e 12.04 with 11.04 "each model has the Fights
First ability" after a charge move; 10e Charge bonus): units that charged this turn are selected
first. Then the remaining combats alternate, starting with the player whose turn it is not; a
player with no eligible unit passes. Every eligible unit must fight before the phase ends.

Fighting a unit (`fight`): its models engaged with their target make their melee attacks (one
melee weapon plus every [EXTRA ATTACKS] weapon per model, 11e 24.11). Pile-in and consolidation
moves (up to 3", checked by `movement.validate_move`; 11e 12.08 modes, 10e objective fallback)
come where the edition's `close_combat_moves` puts them: `fight_phase_steps` (11e 12.02 Pile In
and 12.07 Consolidate: steps of the phase, the player whose turn it is first; `current_step`)
or `each_fight` (10e: the `fight` action carries the pile-in move; a consolidation decision
follows the attacks).

Overrun fights (11e 12.04-12.06, `overrun_fights`): units engaged when the Fight step began stay
eligible; a unit selected to fight makes a normal fight (engaged) or an overrun fight (unengaged,
or unengaged at the start of the step and engaged since): one additional pile-in move (the
action's `pile_in`), then its attacks. Pile-in and consolidation distances may be raised by
effects (Breach-Shock: `close_combat_distance`).

Timing points other rules hook into: `unit_selected_to_fight` (then, after a 10e pile-in, the
stratagem window `unit_selected_to_fight` / `enemy_unit_selected_targets`, whose continuation
resolves the attacks), `attacks_resolved`, `unit_fought` (then the window `enemy_unit_fought` /
`enemy_unit_resolved_attacks`). A unit a stratagem makes fight next (`fights_next`)
is selected before any other; a charge without the Charge bonus gives no Fights First.
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import every_model_has
from rules.engine.attacks.in_game import AttackGroup, group_data, resolve_attacks
from rules.engine.attacks.melee_weapons import (
    default_melee_assignments,
    melee_groups,
    melee_options,
    melee_weapon_choices,
)
from rules.engine.battlefield.placement import (
    check_move,
    enemy_gaps,
    engaged_units,
    final_positions,
    is_engaged,
    place,
    position_settled,
    read_positions,
)
from rules.engine.core import timing
from rules.engine.core.ability_choices import selected_to_fight
from rules.engine.core.actions import PhaseActions
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models, on_battlefield, opponent


def fights_next(state: State) -> str | None:
    """The unit a stratagem made fight next, while it is still to fight."""
    unit_id = state["facts"]["phase"].get("fights_next")
    if unit_id is None:
        return None
    unit = state["units"][unit_id]
    return unit_id if on_battlefield(unit) and not has_acted(state, unit_id) else None


NO_CHARGE_BONUS = {"charge_bonus": False}


def has_charge_bonus(state: State, unit_id: str) -> bool:
    """A unit that charged has Fights First, unless a rule says it receives no Charge bonus
    (10e Heroic Intervention, Ensnaring Trap)."""
    return not any(e["modifier"] == NO_CHARGE_BONUS for e in effects_on_unit(state, unit_id))


def eligible_fighters(state: State) -> list[str]:
    """11e 12.04: engaged, or engaged at the start of the Fight step (with overrun fights), or
    made a charge move this turn; 10e Fight Phase: engaged or charged."""
    at_start = state["facts"]["phase"].get(ENGAGED_AT_FIGHT_STEP, [])
    with position_settled(state):  # it only reads the state: one position for every unit
        return sorted(
            unit["id"]
            for unit in state["units"].values()
            if on_battlefield(unit)
            and not has_acted(state, unit["id"])
            and (
                is_engaged(state, unit)
                or has_flag(state, unit["id"], "charged")
                or unit["id"] in at_start
            )
        )


# facts.phase key: the units engaged when the Fight step began (11e 12.04, 12.06).
ENGAGED_AT_FIGHT_STEP = "engaged_at_fight_step"


def _engaged_at_fight_step(state: State) -> set[str]:
    """The units engaged at the start of the Fight step; before it is recorded (the first unit
    is selected to fight) nothing has changed since, so it is the units engaged now."""
    recorded = state["facts"]["phase"].get(ENGAGED_AT_FIGHT_STEP)
    if recorded is not None:
        return set(recorded)
    return {
        unit["id"]
        for unit in state["units"].values()
        if on_battlefield(unit) and is_engaged(state, unit)
    }


def _record_fight_step_start(state: State) -> None:
    if state["edition"]["overrun_fights"]:
        state["facts"]["phase"].setdefault(
            ENGAGED_AT_FIGHT_STEP, sorted(_engaged_at_fight_step(state))
        )


def fight_types(state: State, unit: Unit) -> list[str]:
    """The fight types the unit is eligible to make when selected to fight (11e 12.04 When a
    Unit Is Selected to Fight): a normal fight (12.05) while engaged; an overrun fight (12.06)
    while unengaged, or when it was unengaged at the start of the Fight step and became engaged
    since. 10e has one kind of fight (a charged unit that is no longer engaged fights too)."""
    engaged = is_engaged(state, unit)
    types = ["normal"] if engaged else []
    if state["edition"]["overrun_fights"] and (
        not engaged or unit["id"] not in _engaged_at_fight_step(state)
    ):
        types.append("overrun")
    return types or ["normal"]


@implements("ability", "fights-first")
def has_fights_first(state: State, unit_id: str) -> bool:
    """11e 11.04 (a charge move gives every model Fights First until the end of the turn) and
    24.13 Fights First; 10e Charge Bonus and Fights First. A charge that a rule says gives no
    Charge bonus (Heroic Intervention, Ensnaring Trap: `has_charge_bonus`) does not."""
    unit = state["units"][unit_id]
    charge_bonus = has_flag(state, unit_id, "charged") and has_charge_bonus(state, unit_id)
    return charge_bonus or every_model_has(state, unit, "fights first")


def fights_first(state: State) -> list[str]:
    return [u for u in eligible_fighters(state) if has_fights_first(state, u)]


def _fight_selector(state: State) -> int | None:
    """Who selects the next unit to fight, or None when no unit is left to fight. A unit a
    stratagem made fight next (Counteroffensive: `fights_next`) comes first."""
    forced = fights_next(state)
    if forced is not None:
        return state["units"][forced]["player"]
    # Fights First combats, then the remaining combats; in each the players alternate, starting
    # with `first_to_fight` (11e 12.04: the player whose turn it is; 10e Fight phase: the player
    # whose turn is not taking place) and carrying the alternation from one step to the next
    # (11e: "this player will select their next unit"). Rulings R-ENG-10.
    eligible = fights_first(state) or eligible_fighters(state)
    if not eligible:
        return None
    turn = state["facts"]["phase"].get("next_to_fight", first_to_fight(state))
    players = {state["units"][u]["player"] for u in eligible}
    return turn if turn in players else opponent(turn)


def first_to_fight(state: State) -> int:
    """Who selects first in the Fight phase (`Edition.fight_order_starts_with`)."""
    active = state["active_player"]
    return active if state["edition"]["fight_order_starts_with"] == "active" else opponent(active)


def moves_in_steps(state: State) -> bool:
    """11e: pile-in and consolidation moves are steps of the phase (12.02, 12.07)."""
    return state["edition"]["close_combat_moves"] == "fight_phase_steps"


def pile_in_candidates(state: State, player: int) -> list[str]:
    """11e 12.03 Eligible If: engaged, or made a charge move this turn; one move per unit."""
    done = state["facts"]["phase"].get("piled_in", [])
    with position_settled(state):  # it only reads the state: one position for every unit
        return sorted(
            unit["id"]
            for unit in state["units"].values()
            if unit["player"] == player
            and on_battlefield(unit)
            and unit["id"] not in done
            and not has_acted(state, unit["id"])
            and (is_engaged(state, unit) or has_flag(state, unit["id"], "charged"))
        )


def consolidation_candidates(state: State, player: int) -> list[str]:
    """11e 12.08 Eligible If: the unit was eligible to fight this phase (it fought); one move."""
    done = state["facts"]["phase"].get("consolidated", [])
    return sorted(
        unit["id"]
        for unit in state["units"].values()
        if unit["player"] == player
        and on_battlefield(unit)
        and has_acted(state, unit["id"])
        and unit["id"] not in done
    )


def current_step(state: State) -> tuple[str, int | None]:
    """Where the Fight phase is: (`pile_in` | `fight` | `consolidate` | `done`, the player who
    acts). 11e 12.02-12.07: pile-in moves (the player whose turn it is first, then the
    opponent; a player with no eligible unit is skipped), the Fight step, consolidation moves
    (same order). Under `each_fight` (10e) only the Fight step exists. Units that become
    eligible to fight during consolidation fight before the phase goes on (12.08)."""
    with position_settled(state):  # it only reads the state: one position for every unit
        return _current_step(state)


def _current_step(state: State) -> tuple[str, int | None]:
    fighter = _fight_selector(state)
    if not moves_in_steps(state):
        return ("fight", fighter) if fighter is not None else ("done", None)
    passed = state["facts"]["phase"].get("passed_steps", [])
    order = (state["active_player"], opponent(state["active_player"]))
    for player in order:
        if f"pile_in:{player}" not in passed and pile_in_candidates(state, player):
            return "pile_in", player
    if fighter is not None:
        return "fight", fighter
    for player in order:
        if f"consolidate:{player}" not in passed and consolidation_candidates(state, player):
            return "consolidate", player
    return "done", None


def selecting_player(state: State) -> int | None:
    """Who acts next in the Fight phase, or None when the phase may end."""
    return current_step(state)[1]


def selectable(state: State, player: int) -> list[str]:
    if current_step(state) != ("fight", player):
        return []
    forced = fights_next(state)
    if forced is not None:
        return [forced]
    first = fights_first(state)
    pool = first if first else eligible_fighters(state)
    return [u for u in pool if state["units"][u]["player"] == player]


# --- pile in and consolidate ------------------------------------------------------------------


def close_combat_distance(state: State, unit_id: str, move_type: str) -> float:
    """The maximum distance of the unit's pile-in or consolidation move: the edition's 3", or
    more where an effect says so (Breach-Shock: up to 6" instead of 3")."""
    base = float(
        state["edition"]["pile_in_distance" if move_type == "pile_in" else "consolidate_distance"]
    )
    granted = [
        float(effect["modifier"]["close_combat_move_distance"])
        for effect in effects_on_unit(state, unit_id)
        if "close_combat_move_distance" in effect["modifier"]
    ]
    return max([base, *granted])


def close_combat_targets(state: State, unit: Unit, move_type: str) -> list[str]:
    """The enemy units a pile-in or consolidation move goes toward when the player names none
    (ruling R-MV-16): those the unit is engaged with; otherwise those within 5" (11e 12.03
    pile in) or 3" (12.08 engaging consolidation)."""
    engaged = engaged_units(state, unit)
    if engaged:
        return engaged
    reach = float(
        state["edition"][
            "pile_in_target_range" if move_type == "pile_in" else "consolidate_distance"
        ]
    )
    return sorted(t for t, gap in enemy_gaps(state, unit).items() if gap <= reach + 1e-6)


def close_combat_move(
    ctx: Context,
    unit: Unit,
    positions: Any,
    move_type: str,
    rule: str,
    targets: list[str] | None = None,
) -> None:
    """A pile-in or consolidation move to `positions`, checked by the battlefield
    (`placement.check_move`: distance, closing in, ending engaged, consolidation modes)."""
    state = ctx.state
    read = read_positions(unit, positions, rule)
    if targets is not None and (
        not isinstance(targets, list) or not all(isinstance(t, str) for t in targets)
    ):
        raise Refusal("invalid_targets", rule, "Targets are a list of enemy unit ids.")
    chosen = frozenset(targets if targets else close_combat_targets(state, unit, move_type))
    bonus = close_combat_distance(state, unit["id"], move_type) - float(
        state["edition"]["pile_in_distance" if move_type == "pile_in" else "consolidate_distance"]
    )
    result = check_move(state, unit, read, move_type, targets=chosen, bonus=bonus)
    place(unit, read)
    ctx.emit(
        "unit_moved",
        unit=unit["id"],
        move=move_type,
        mode=result.mode,
        positions=final_positions(read),
    )


# --- fighting -------------------------------------------------------------------------------


def fight(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    rule = cite(state, "fight_phase")
    unit = own_unit(ctx, action, rule)
    if has_acted(state, unit["id"]):
        raise Refusal(
            "already_acted",
            cite(state, "once_per_phase"),
            f"{unit['name']} has already fought this phase.",
        )
    if unit["id"] not in selectable(state, action["player"]):
        raise Refusal(
            "not_eligible_to_fight",
            rule,
            f"{unit['name']} cannot be selected to fight now: it must be engaged or have charged, "
            "units that charged fight first, then players alternate.",
        )
    _record_fight_step_start(state)
    types = fight_types(state, unit)
    fight_type = action.get("fight_type", types[0])
    if fight_type not in types:
        raise Refusal(
            "fight_type_not_eligible",
            cite(state, "overrun_fight" if fight_type == "overrun" else "fight_step"),
            f"{unit['name']} can make: {', '.join(types)} fight.",
            {"fight_types": types},
        )
    if moves_in_steps(state) and action.get("pile_in") is not None and fight_type != "overrun":
        raise Refusal(
            "pile_in_step",
            cite(state, "fight_phase"),
            "Pile-in moves are made in the Pile In step (12.02), before units fight; only an "
            "overrun fight (12.06) makes one when the unit is selected.",
        )
    if moves_in_steps(state):
        passed = state["facts"]["phase"].setdefault("passed_steps", [])
        passed.extend(f"pile_in:{p}" for p in (1, 2) if f"pile_in:{p}" not in passed)
    unit_selected_to_fight(ctx, unit)
    if state["edition"]["overrun_fights"]:
        ctx.emit(
            "fight_type_selected",
            unit=unit["id"],
            fight_type=fight_type,
            rule=cite(state, "overrun_fight" if fight_type == "overrun" else "fight_step"),
        )
    state["facts"]["phase"]["next_to_fight"] = opponent(action["player"])
    if action.get("pile_in") is not None:
        close_combat_move(
            ctx, unit, action["pile_in"], "pile_in", rule, action.get("pile_in_targets")
        )
    groups = melee_groups(state, unit, action.get("assignments"), rule)
    # Rules resolved when the unit is selected to fight (Digital Weapons) come first.
    selected_to_fight(
        ctx,
        unit["id"],
        {"step": "fight_window", "unit": unit["id"], "groups": [group_data(g) for g in groups]},
    )


@continuation("fight_window")
def _fight_window(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    # The stratagem window of this timing point comes before any attack, so an effect used in it
    # applies to these attacks: they are the window's `then` (rulings R-ST-13, R-CB-13).
    state = ctx.state
    unit = state["units"][data["unit"]]
    groups = [AttackGroup.from_data(group) for group in data["groups"]]
    timing.stratagem_window(
        ctx,
        ["unit_selected_to_fight", "enemy_unit_selected_targets"],
        {"unit": unit["id"], "targets": _selected_targets(state, unit, groups)},
        then={"step": "melee_attacks", "unit": unit["id"], "groups": data["groups"]},
    )


def _selected_targets(state: State, unit: Unit, groups: list[AttackGroup]) -> list[str]:
    """The enemy units the fight's attacks go to; a unit with no attack to make (none of its
    models engaged) has the enemy units it is engaged with."""
    targets = {group.target for group in groups if group.models}
    return sorted(targets) if targets else sorted(engaged_units(state, unit))


@continuation("melee_attacks")
def _melee_attacks(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    """The window after the unit was selected to fight has closed: resolve its attacks."""
    groups = [AttackGroup.from_data(group) for group in data["groups"]]
    then = {"step": "melee_attacks_resolved", "unit": data["unit"]}
    resolve_attacks(ctx, data["unit"], groups, "melee", then)


@continuation("melee_attacks_resolved")
def _melee_attacks_resolved(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    attacks_resolved(ctx, unit, data["lost"])
    if not alive_models(unit) or moves_in_steps(state):
        unit_fought(ctx, unit)
        return
    distance = close_combat_distance(state, unit["id"], "consolidate")
    push_decision(
        ctx,
        unit["player"],
        "consolidate_move",
        {"unit": unit["id"], "max_distance": distance},
        {"step": "consolidated", "unit": unit["id"]},
        cite(state, "fight_phase"),
        f'Consolidate {unit["name"]} up to {distance:g}" (or decline with null).',
    )


@continuation("consolidated")
def _consolidated(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    if choice is not None:
        close_combat_move(ctx, unit, choice, "consolidate", cite(ctx.state, "fight_phase"))
    unit_fought(ctx, unit)


def _step_unit(ctx: Context, action: dict[str, Any], step: str) -> Unit:
    state = ctx.state
    rule = cite(state, "fight_phase")
    unit = own_unit(ctx, action, rule)
    candidates = (
        pile_in_candidates(state, action["player"])
        if step == "pile_in"
        else consolidation_candidates(state, action["player"])
    )
    if current_step(state) != (step, action["player"]) or unit["id"] not in candidates:
        raise Refusal(
            f"not_eligible_to_{step}",
            rule,
            f"{unit['name']} cannot make a {step.replace('_', '-')} move now.",
            {"step": current_step(state)[0], "units": candidates},
        )
    return unit


def pile_in(ctx: Context, action: dict[str, Any]) -> None:
    """11e 12.02-12.03: one pile-in move for an eligible unit in the Pile In step."""
    before = current_step(ctx.state)[0]
    unit = _step_unit(ctx, action, "pile_in")
    close_combat_move(
        ctx,
        unit,
        action.get("positions"),
        "pile_in",
        cite(ctx.state, "fight_phase"),
        action.get("targets"),
    )
    ctx.state["facts"]["phase"].setdefault("piled_in", []).append(unit["id"])
    _open_fight_step_if_begun(ctx, before)


def consolidate(ctx: Context, action: dict[str, Any]) -> None:
    """11e 12.07-12.08: one consolidation move for a unit that fought, in the Consolidate step."""
    unit = _step_unit(ctx, action, "consolidate")
    close_combat_move(
        ctx,
        unit,
        action.get("positions"),
        "consolidate",
        cite(ctx.state, "fight_phase"),
        action.get("targets"),
    )
    ctx.state["facts"]["phase"].setdefault("consolidated", []).append(unit["id"])


def end_step(ctx: Context, action: dict[str, Any]) -> None:
    """The acting player makes no more moves in this Pile In or Consolidate step."""
    step, player = current_step(ctx.state)
    if step not in ("pile_in", "consolidate") or player != action["player"]:
        raise Refusal(
            "no_step_to_end",
            cite(ctx.state, "fight_phase"),
            "Only the player making pile-in or consolidation moves can end that step.",
        )
    ctx.state["facts"]["phase"].setdefault("passed_steps", []).append(f"{step}:{player}")
    ctx.emit("fight_step_ended", step=step, player=action["player"])
    _open_fight_step_if_begun(ctx, step)


def _open_fight_step_if_begun(ctx: Context, before: str) -> None:
    """11e 12.04: the Fight step begins once the Pile In step is over (or at once, after the
    start-of-phase window, when no unit piles in): the stratagem window `fight_step` opens there
    ("WHEN: Fight step"), before the first unit is selected to fight. Under `each_fight` (10e)
    the phase has no steps and no such window."""
    state = ctx.state
    if before == "fight" or not moves_in_steps(state) or state["pending"]:
        return
    if current_step(state)[0] == "fight":
        timing.stratagem_window(ctx, "fight_step", {}, None)


def fight_step_at_phase_start(ctx: Context) -> None:
    """After the Fight phase's start-of-phase window: the Fight step may begin at once."""
    _open_fight_step_if_begun(ctx, "start_of_phase")


def step_templates(state: State, player: int) -> list[dict[str, Any]]:
    """What `legal_actions` offers in the Fight phase."""
    step, acting = current_step(state)
    if acting != player:
        return []
    if step == "fight":
        return [fight_template(state, player, u) for u in selectable(state, player)]
    if step == "done":
        return []
    candidates = (
        pile_in_candidates(state, player)
        if step == "pile_in"
        else consolidation_candidates(state, player)
    )
    moves = [
        {
            "type": step,
            "player": player,
            "unit": unit_id,
            "positions": "required",
            "max_distance": close_combat_distance(state, unit_id, step),
            "targets": close_combat_targets(state, state["units"][unit_id], step),
        }
        for unit_id in candidates
    ]
    return [*moves, {"type": "end_step", "player": player}]


def unit_selected_to_fight(ctx: Context, unit: Unit) -> None:
    """Timing point: the unit has been selected to fight."""
    mark_acted(ctx, unit["id"])
    set_flag(ctx, unit["id"], "fought")
    ctx.emit("unit_selected_to_fight", unit=unit["id"], engaged=is_engaged(ctx.state, unit))


def attacks_resolved(ctx: Context, unit: Unit, lost: dict[str, int]) -> None:
    """Timing point: the unit's melee attacks are resolved."""
    ctx.emit("attacks_resolved", unit=unit["id"], wounds_lost=lost)


def unit_fought(ctx: Context, unit: Unit) -> None:
    """Timing point: the unit has fought (after its consolidation move), then the stratagem
    window `enemy_unit_fought` / `enemy_unit_resolved_attacks` (Counteroffensive)."""
    ctx.emit("unit_fought", unit=unit["id"])
    timing.stratagem_window(
        ctx, ["enemy_unit_fought", "enemy_unit_resolved_attacks"], {"unit": unit["id"]}
    )


def fight_template(state: State, player: int, unit_id: str) -> dict[str, Any]:
    unit = state["units"][unit_id]
    template = {"type": "fight", "player": player, "unit": unit_id}
    types = fight_types(state, unit)
    if state["edition"]["overrun_fights"]:
        template["fight_types"] = types
    if not moves_in_steps(state) or "overrun" in types:
        # 10e: every fight piles in; 11e: an overrun fight's one additional pile-in move.
        template["pile_in"] = "optional"
        template["max_distance"] = close_combat_distance(state, unit_id, "pile_in")
    template["weapons"] = melee_options(state, unit)
    template["default_assignments"] = default_melee_assignments(state, unit)
    choices = melee_weapon_choices(state, unit)
    if choices:
        template["weapon_choices"] = choices
    return template


# --- the phase's actions (core/actions.py) ------------------------------------------------------


def may_not_end(state: State) -> Refusal | None:
    if current_step(state)[0] in ("pile_in", "consolidate"):
        return Refusal(
            "fight_steps_remaining",
            cite(state, "fight_phase"),
            "Both players make (or pass) their pile-in and consolidation moves first.",
        )
    return None


PHASE = PhaseActions(
    "fight",
    {"fight": fight, "pile_in": pile_in, "consolidate": consolidate, "end_step": end_step},
    step_templates,
    may_not_end=may_not_end,
    offers_end=lambda state: current_step(state)[0] == "done",
    selecting_player=selecting_player,
)
