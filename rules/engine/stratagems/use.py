"""Stratagems (11e 15; 10e Stratagems): which a player may use, their cost, limits and use.

The stratagem records a game uses are copied into `state["stratagems"]` when it starts (bundle
format, docs/rules-data-format.md), already narrowed to the game: the edition's own and
edition-free records, core ones, Boarding Actions ones only when the mission is a Boarding Actions
mission (`mission["boarding_actions"]`), and the detachment ones of the two armies' detachments.

Restrictions checked here for every use, whatever opened it:

- scope: core, the player's own detachment, Boarding Actions only in Boarding Actions games;
- CP: the cost after cost changes (effects `{"stratagem_cost": slug or "*", "add": n}` on the
  player), never below 0; refused when the player has too few (command_points.py);
- the same stratagem once per phase per player (11e 15; 10e Stratagems), and its `limit`
  (`once_per_turn`, `once_per_battle`);
- its TARGET: the implementation's own conditions (stratagem_effects/), and that a battle-shocked
  unit is never its controller's target (11e 01.07; 10e Battle-shock) unless the stratagem says so.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import position_settled
from rules.engine.core.citations import cite
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.standing_rules import AFTER_STRATAGEM, STRATAGEM_DISCOUNTS
from rules.engine.core.state import PLAYERS, State, detachment
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.phases.command_points import command_points, spend_command_points
from rules.engine.stratagems import effects as stratagem_effects
from rules.engine.stratagems.effects.targeting import OwnUnits


def player_stratagems(state: State, player: int) -> list[dict[str, Any]]:
    """What `player` may ever use: core, Boarding Actions (if in the game) and their detachment."""
    own = detachment(state, player)
    return [
        record
        for _, record in sorted(state.get("stratagems", {}).items())
        if record["scope"] != "detachment" or record["detachment"] == own
    ]


def windows_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's `when`: one window or a list of them (rulings SD-03)."""
    when = record["when"]
    return when if isinstance(when, list) else [when]


def cost(state: State, player: int, slug: str, extra: dict[str, Any] | None = None) -> int:
    """The CP cost after cost changes (and the cost of extra choices), never below 0."""
    value = state["stratagems"][slug]["cp_cost"]
    if extra and slug in stratagem_effects.IMPLEMENTATIONS:
        value += stratagem_effects.IMPLEMENTATIONS[slug].extra_cost(extra)
    if extra:
        # a choice a rule offers may change the cost (Gift of the Prescient: 0CP); choices are
        # checked against the implementation's own, so a player cannot invent one
        value += int(extra.get("cost_change", 0))
    for effect in state["effects"]:
        modifier = effect["modifier"]
        if effect["selector"].get("player") == player and modifier.get("stratagem_cost") in (
            slug,
            "*",
        ):
            value += modifier.get("add", 0)
    return max(0, value)


def _used(state: State, scope: str) -> list[str]:
    """Uses this phase/turn/battle as `player:slug` (read only: legal_actions reads it)."""
    if scope == "battle":
        return state.get("stratagems_used", [])
    return state["facts"][scope].get("stratagems_used", [])


def _record_use(state: State, key: str) -> None:
    """Watchers' facts: cleared with their phase and turn (facts.reset); the battle's is kept."""
    state.setdefault("stratagems_used", []).append(key)
    for scope in ("phase", "turn"):
        state["facts"][scope].setdefault("stratagems_used", []).append(key)


def usage_refusal(state: State, player: int, slug: str) -> Refusal | None:
    """Once per phase (every stratagem), and the record's own `limit`."""
    record = state["stratagems"][slug]
    key = f"{player}:{slug}"
    name = record["name"]
    if key in _used(state, "phase"):
        return Refusal(
            "stratagem_used_this_phase",
            cite(state, "command_points"),
            f"{name} has already been used this phase; a stratagem is used once per phase.",
        )
    limit = record.get("limit", "none")
    if limit == "once_per_turn" and key in _used(state, "turn"):
        return Refusal(
            "stratagem_used_this_turn", cite(state, "command_points"), f"{name}: once per turn."
        )
    if limit == "once_per_battle" and key in _used(state, "battle"):
        return Refusal(
            "stratagem_used_this_battle",
            cite(state, "command_points"),
            f"{name} can be used once per battle and has been used.",
        )
    return None


def affordable_and_unused(state: State, player: int, slug: str) -> bool:
    """Used before its targets are asked: the cost less the largest discount a rule may offer
    (the exact cost of each choice is checked by `refusal_for`)."""
    discount = max((rule(state, player, slug) for rule in STRATAGEM_DISCOUNTS), default=0)
    return usage_refusal(state, player, slug) is None and cost(state, player, slug) - discount <= (
        command_points(state, player)
    )


def target_refusal(
    state: State, use: stratagem_effects.Use, targets: list[str] | None = None
) -> Refusal | None:
    """Why `use.target` is not a legal target now (also re-checked when it resolves).
    `targets`: the stratagem's targets in this window, when the caller has just listed them on
    this very state (a window's offers check every target of the list)."""
    implementation = stratagem_effects.IMPLEMENTATIONS[use.slug]
    name = state["stratagems"][use.slug]["name"]
    if targets is not None:
        listed = use.target in targets
    elif isinstance(implementation.targets, OwnUnits):  # the one target asked alone
        listed = implementation.targets.holds(state, use.player, use.window, use.target)
    else:
        listed = use.target in implementation.targets(state, use.player, use.window)
    if not listed or use.target is None:  # a target is a unit id
        return Refusal(
            "invalid_stratagem_target",
            cite(state, "command_points"),
            f"{name} cannot target that unit now: {state['stratagems'][use.slug]['target_text']}",
        )
    unit = state["units"].get(use.target)
    if (
        unit is not None
        and unit["player"] == use.player
        and not implementation.ignores_battle_shock
        and is_battle_shocked(state, use.target)
    ):
        return Refusal(
            "battle_shocked_stratagem_target",
            cite(state, "battle_shock"),
            f"{unit['name']} is battle-shocked: its controller cannot use stratagems on it.",
        )
    return None


def refusal_for(
    state: State, use: stratagem_effects.Use, targets: list[str] | None = None
) -> Refusal | None:
    """Every restriction on using a stratagem now, or None when it may be used. `targets`: as
    `target_refusal`'s."""
    with position_settled(state):  # it only reads the state: one position for every target
        return _refusal_for(state, use, targets)


def _refusal_for(
    state: State, use: stratagem_effects.Use, targets: list[str] | None
) -> Refusal | None:
    if use.slug not in {r["slug"] for r in player_stratagems(state, use.player)}:
        return Refusal(
            "stratagem_not_available",
            cite(state, "command_points"),
            "That stratagem is not one your army can use in this game.",
        )
    if use.slug not in stratagem_effects.IMPLEMENTATIONS:
        return Refusal(
            "stratagem_not_implemented",
            cite(state, "command_points"),
            "That stratagem is not implemented yet (docs/engine.md, Stratagems).",
        )
    refusal = usage_refusal(state, use.player, use.slug)
    if refusal is not None:
        return refusal
    price = cost(state, use.player, use.slug, use.extra)
    if price > command_points(state, use.player):
        return Refusal(
            "not_enough_command_points",
            cite(state, "command_points"),
            f"{state['stratagems'][use.slug]['name']} costs {price}CP and you have "
            f"{command_points(state, use.player)}CP.",
            {"cost": price, "available": command_points(state, use.player)},
        )
    return unit_limit_refusal(state, use) or target_refusal(state, use, targets)


def unit_limit_refusal(state: State, use: stratagem_effects.Use) -> Refusal | None:
    """11e 15.01: "Unless otherwise stated, each player cannot target the same unit with more
    than one stratagem in the same phase" (`one_stratagem_per_unit_per_phase`; 10e: none)."""
    if not state["edition"].get("one_stratagem_per_unit_per_phase"):
        return None
    if f"{use.player}:{use.target}" not in state["facts"]["phase"].get("stratagem_targets", []):
        return None
    unit = state["units"].get(use.target) if use.target else None
    return Refusal(
        "unit_already_targeted_this_phase",
        cite(state, "stratagem_limits"),
        f"{unit['name'] if unit else use.target} has already been the target of one of your "
        "stratagems this phase.",
    )


def use_stratagem(ctx: Context, use: stratagem_effects.Use, then: dict[str, Any] | None) -> None:
    """Pay for and resolve a stratagem; `then` is resumed when it has resolved."""
    state = ctx.state
    refusal = refusal_for(state, use)
    if refusal is not None:
        raise refusal
    record = state["stratagems"][use.slug]
    spend_command_points(
        ctx, use.player, cost(state, use.player, use.slug, use.extra), record["name"]
    )
    key = f"{use.player}:{use.slug}"
    _record_use(state, key)
    state["facts"]["phase"].setdefault("stratagem_targets", []).append(f"{use.player}:{use.target}")
    ctx.emit(
        "stratagem_used",
        player=use.player,
        stratagem=use.slug,
        name=record["name"],
        target=use.target,
        trigger=use.window.get("trigger"),
    )
    for rule in AFTER_STRATAGEM:
        rule(ctx, use)
    stratagem_effects.IMPLEMENTATIONS[use.slug].resolve(ctx, use, then)


def implemented_slugs() -> list[str]:
    return sorted(stratagem_effects.IMPLEMENTATIONS)


def players_in_order(state: State) -> list[int]:
    """Both players at a timing point: the active player first (11e 15; 10e Sequencing)."""
    active = state["active_player"]
    return [active] + [p for p in PLAYERS if p != active]
