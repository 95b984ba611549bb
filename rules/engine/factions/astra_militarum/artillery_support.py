"""Artillery Support (Siege Regiment, Astra Militarum; seed 003 L613-619; CATALOGUE
D-AM-SIEGE-REGIMENT, AMB-36).

At the start of each battle round, a player whose detachment is the Siege Regiment selects one:

- Creeping Barrage: one D6 for each enemy unit more than 12" from every model of their army on
  the battlefield; on a 5+ that unit is shaken until the end of the battle round (-2" Move, -2 to
  its charge rolls), at most N units per battle round;
- Incendiary Bombardment: up to N such enemy units are scattered until the end of the battle
  round (they cannot have the benefit of cover);
- Smoke Shells: up to N of their own units have Stealth until the end of the battle round
  (AMB-36 caps this at N too).

N by battle size: Incursion 2, Strike Force 3, Onslaught 4. The players choose in turn order (the
player who takes the first turn first, rulings R-AM-09); units are picked one decision at a time,
ending with "done" (Creeping Barrage: the player picks the N shaken units only when more than N
rolled 5+, with no "done"). The effects are persisting effects through the existing pipelines: the M
characteristic, the `charge_roll` effect, and the attack pipeline's `cover` deny / grant (Stealth
is the benefit of cover against ranged attacks, 24.33).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.state import State, detachment, on_battlefield, opponent, units_of
from rules.engine.core.timing import BATTLE_ROUND_STARTED, at

add_sections({"artillery_support": "Artillery Support"})


SIEGE_REGIMENT = "siege-regiment"
MAXIMUM_UNITS = {"incursion": 2, "strike-force": 3, "onslaught": 4}
CHOICES = ["creeping-barrage", "incendiary-bombardment", "smoke-shells"]
DISTANCE = 12.0
SHAKEN_ON = 5
DURATION = "end_of_battle_round"


def maximum_units(state: State) -> int:
    return MAXIMUM_UNITS.get(state["mission"].get("battle_size", "strike-force"), 3)


def distant_enemies(state: State, player: int) -> list[str]:
    """Enemy units on the battlefield more than 12" from every model of `player`'s army there."""
    mine = [u for u in units_of(state, player) if on_battlefield(u)]
    return [
        enemy["id"]
        for enemy in units_of(state, opponent(player))
        if on_battlefield(enemy) and all(unit_distance(enemy, u) > DISTANCE for u in mine)
    ]


def _own_units(state: State, player: int) -> list[str]:
    return [u["id"] for u in units_of(state, player) if on_battlefield(u)]


@implements("detachment-rule", SIEGE_REGIMENT)
@at(BATTLE_ROUND_STARTED, 10, resumes=True)
def start_of_battle_round(ctx: Context, _data: dict[str, Any], then: dict[str, Any]) -> None:
    """Ask each Siege Regiment player (first player first) for their artillery support."""
    first = ctx.state["first_player"]
    assert first is not None, "the first turn is decided before the first battle round"
    _ask_next(ctx, [first, opponent(first)], then)


def _ask_next(ctx: Context, queue: list[int], then: dict[str, Any]) -> None:
    state = ctx.state
    for index, player in enumerate(queue):
        if detachment(state, player) != SIEGE_REGIMENT:
            continue
        push_decision(
            ctx,
            player,
            "artillery_support",
            list(CHOICES),
            {"step": "artillery_support_chosen", "queue": queue[index:], "then": then},
            cite(state, "artillery_support"),
            "Artillery Support: select Creeping Barrage, Incendiary Bombardment or Smoke Shells.",
        )
        return
    resume(ctx, then)


@continuation("artillery_support_chosen")
def _chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    player = data["queue"][0]
    ctx.emit("artillery_support_selected", player=player, support=choice)
    following = {"step": "artillery_support_next", "queue": data["queue"][1:], "then": data["then"]}
    if choice == "creeping-barrage":
        creeping_barrage(ctx, player, following)
        return
    _pick_unit(ctx, player, choice, [], following)


@continuation("artillery_support_next")
def _next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _ask_next(ctx, data["queue"], data["then"])


def creeping_barrage(ctx: Context, player: int, following: dict[str, Any]) -> None:
    """One D6 per distant enemy unit; on 5+ it is shaken, at most N units this battle round.
    When more than N units rolled 5+, the Siege Regiment player selects the N that are shaken
    (rulings R-AM-09), one `artillery_support_unit` decision at a time."""
    state = ctx.state
    rolled_5_plus = []
    for unit_id in distant_enemies(state, player):
        record = roll(ctx, 1, "creeping_barrage", cite(state, "artillery_support"), player, unit_id)
        if record["total"] >= SHAKEN_ON:
            rolled_5_plus.append(unit_id)
    if len(rolled_5_plus) <= maximum_units(state):
        for unit_id in rolled_5_plus:
            _shake(ctx, player, unit_id)
        resume(ctx, following)
        return
    _pick_shaken(ctx, player, rolled_5_plus, 0, following)


def _shake(ctx: Context, player: int, unit_id: str) -> None:
    for modifier in ({"characteristic": "M", "add": -2}, {"charge_roll": -2}):
        add_effect(ctx, "creeping-barrage", {"unit": unit_id}, modifier, DURATION, player)
    ctx.emit("unit_shaken", unit=unit_id, player=player)


def _pick_shaken(
    ctx: Context, player: int, left: list[str], shaken: int, following: dict[str, Any]
) -> None:
    """Ask for the next unit to shake among those that rolled 5+, until N are shaken: each of
    them "is shaken" up to the maximum, so there is no `done`."""
    state = ctx.state
    if shaken >= maximum_units(state):
        resume(ctx, following)
        return
    push_decision(
        ctx,
        player,
        "artillery_support_unit",
        list(left),
        {
            "step": "creeping_barrage_unit_chosen",
            "player": player,
            "left": left,
            "shaken": shaken,
            "following": following,
        },
        cite(state, "artillery_support"),
        f"Creeping Barrage: {len(left) + shaken} units rolled 5+ and at most "
        f"{maximum_units(state)} can be shaken; select a unit to shake ({shaken} so far).",
    )


@continuation("creeping_barrage_unit_chosen")
def _shaken_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    player = data["player"]
    _shake(ctx, player, choice)
    left = [unit for unit in data["left"] if unit != choice]
    _pick_shaken(ctx, player, left, data["shaken"] + 1, data["following"])


def _candidates(state: State, player: int, support: str, chosen: list[str]) -> list[str]:
    pool = distant_enemies(state, player) if support == "incendiary-bombardment" else []
    if support == "smoke-shells":
        pool = _own_units(state, player)
    return [u for u in pool if u not in chosen]


def _pick_unit(
    ctx: Context, player: int, support: str, chosen: list[str], following: dict[str, Any]
) -> None:
    state = ctx.state
    candidates = _candidates(state, player, support, chosen)
    if not candidates or len(chosen) >= maximum_units(state):
        resume(ctx, following)
        return
    push_decision(
        ctx,
        player,
        "artillery_support_unit",
        [*candidates, "done"],
        {
            "step": "artillery_support_unit_chosen",
            "player": player,
            "support": support,
            "chosen": chosen,
            "following": following,
        },
        cite(state, "artillery_support"),
        f"{support.replace('-', ' ').title()}: select a unit ({len(chosen)} of "
        f"{maximum_units(state)} so far), or done.",
    )


# Incendiary Bombardment: scattered units cannot have the benefit of cover; Smoke Shells:
# Stealth, the benefit of cover against ranged attacks.
SUPPORT_EFFECTS: dict[str, dict[str, Any]] = {
    "incendiary-bombardment": {
        "attack": {"step": "cover", "kind": "deny", "value": None, "condition": {}},
        "as": "defender",
        "against": None,
    },
    "smoke-shells": {
        "attack": {
            "step": "cover",
            "kind": "grant",
            "value": None,
            "condition": {"weapon_type": "ranged"},
        },
        "as": "defender",
        "against": None,
    },
}


# 10e Stealth: "each time a ranged attack is made against it, subtract 1 from that attack's Hit
# roll" (the edition's `stealth`, rulings R-AM-09).
STEALTH_10E = {
    "attack": {"step": "hit", "kind": "add", "value": -1, "condition": {"weapon_type": "ranged"}},
    "as": "defender",
    "against": None,
}


def support_effect(state: State, support: str) -> dict[str, Any]:
    """The effect a chosen unit gets; Smoke Shells' Stealth is the edition's Stealth."""
    if support == "smoke-shells" and state["edition"]["stealth"] == "minus_one_to_hit":
        return STEALTH_10E
    return SUPPORT_EFFECTS[support]


@continuation("artillery_support_unit_chosen")
def _unit_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    player, support = data["player"], data["support"]
    if choice == "done":
        resume(ctx, data["following"])
        return
    add_effect(ctx, support, {"unit": choice}, support_effect(ctx.state, support), DURATION, player)
    _pick_unit(ctx, player, support, [*data["chosen"], choice], data["following"])
