"""Hooks through which always-on rules (datasheet abilities, detachment rules, enhancements) reach
the engine's pipelines without those pipelines knowing any rule by name.

Low-level modules (effects, command points, stratagems, the start of a phase) call the hooks;
rule modules (e.g. `imperial_agents`) register into them when imported. Each list is called in
registration order, which is import order, so it is the same in every process.

- `CHARACTERISTIC_RULES`: `(state, unit_id, model, name, value) -> value`, applied after the
  persisting effects by `effects.characteristic` (auras and standing characteristic changes);
- `ATTACK_RULES`: `(state, attacking_unit, target_unit, attacking_model_ids) -> [Modifier]`, the
  attack pipeline's modifiers a standing rule gives those attacks (`attack_inputs`);
- `AFTER_STRATAGEM`: `(ctx, use) -> None`, once a stratagem is paid for, before it resolves;
- `AFTER_CP_GAIN`: `(ctx, player, amount, source) -> None`, after a player gained CP from a rule;
- `PHASE_START_CHOICES`: `(state, player) -> [ (rule, options) ]`: choices a player's rules offer
  at the start of the current phase (each with a pass), resolved by `RESOLVE_CHOICE[rule]`;
- `SHOOT_CHOICES`: `(state, unit, point) -> [ (rule, options) ]`: the same, when the unit has
  been selected to shoot and its targets are chosen (`ability_choices`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CHARACTERISTIC_RULES: list[Callable[..., int]] = []
ATTACK_RULES: list[Callable[..., list[Any]]] = []
AFTER_STRATAGEM: list[Callable[..., None]] = []
AFTER_CP_GAIN: list[Callable[..., None]] = []
PHASE_START_CHOICES: list[Callable[..., list[tuple[str, list[Any]]]]] = []
# `(state, attacking_unit) -> bool`: the unit's ranged attacks may ignore Lone Operative
IGNORES_LONE_OPERATIVE: list[Callable[..., bool]] = []
# `(ctx, unit) -> bool`: may the unit, just selected to fall back, do so (False: it remained
# stationary instead; the rule has said why)
BEFORE_FALL_BACK: list[Callable[..., bool]] = []
# `(ctx, unit_id, then) -> None`: rules resolved when a unit is selected to fight, each resuming
# `then` when done (ability_choices.selected_to_fight)
SELECTED_TO_FIGHT: list[Callable[..., None]] = []
# `(state, player) -> (rule, limit, candidate unit ids) | None`: units a player's rule lets them
# select in the Declare Battle Formations step (battle_sequence.declare_reserves), and what they
# gain: `FORMATION_GRANTS[rule]` (an ability name)
FORMATION_SELECTIONS: list[Callable[..., Any]] = []
FORMATION_GRANTS: dict[str, str] = {}
# `(state, player) -> (rule, limit, candidate unit ids) | None`: units a player's rule lets them
# redeploy after both armies have deployed (battle_sequence), possibly into Strategic Reserves
REDEPLOYMENTS: list[Callable[..., Any]] = []
# `(state, player, window, unit_id, choices so far) -> [extra choice]`: more enemy units the
# Explosives / Grenade stratagem may throw at (each choice names the `rule` that allows it)
GRENADE_CHOICES: list[Callable[..., list[dict[str, Any]]]] = []
# `(state, player, window, unit_id) -> [extra choice]`: other ways to use Rapid Ingress on the
# unit (Gift of the Prescient); a choice may carry `cost_change` (CP) and
# `set_up_more_than_from_enemies` (inches: set up anywhere that far from every enemy unit)
INGRESS_CHOICES: list[Callable[..., list[dict[str, Any]]]] = []
# `(state, player, slug) -> int`: the most CP a rule may take off the stratagem's cost through a
# choice (so a window offers it to a player who could not pay the full cost)
STRATAGEM_DISCOUNTS: list[Callable[..., int]] = []
SHOOT_CHOICES: list[Callable[..., list[tuple[str, list[Any]]]]] = []
RESOLVE_CHOICE: dict[str, Callable[..., None]] = {}
# `(state, unit, limit) -> bool`: a standing rule lifts one of the unit's eligibility limits:
# `charge_after_advance` (Clarion of Haste), `shoot_after_fall_back` (Get Back in the Fight)
ELIGIBILITY_WAIVERS: list[Callable[..., bool]] = []
# `(state, unit, roll) -> int`: a standing rule's bonus to the unit's `advance` or `charge` roll
# (An Urgent Duty)
ROLL_BONUSES: list[Callable[..., int]] = []


def waives(state: Any, unit: dict[str, Any], limit: str) -> bool:
    """Does a standing rule lift `limit` for the unit now (`ELIGIBILITY_WAIVERS`)?"""
    return any(rule(state, unit, limit) for rule in ELIGIBILITY_WAIVERS)


def roll_bonus(state: Any, unit: dict[str, Any], roll: str) -> int:
    """The standing rules' bonus to the unit's `roll` (`ROLL_BONUSES`)."""
    return sum(rule(state, unit, roll) for rule in ROLL_BONUSES)
