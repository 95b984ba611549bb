"""Voice of Command and Orders (Astra Militarum, seed 003 L157-171; CATALOGUE UA-VOICE-OF-COMMAND,
4.3; rulings R-AM-01..).

If the Army Faction is ASTRA MILITARUM, OFFICER models with Voice of Command issue Orders: each
Officer's datasheet `Orders` ability says how many per battle round, to which units, and (the
Death Rider Commissar) which Orders; the text is parsed (`officer_profile`). An Order goes to an
eligible friendly unit within 6" of the Officer model, in your Command phase (`issue_order`
actions) and at the end of a phase in which the Officer was set up on the battlefield or
disembarked (a decision then, `end_of_phase_orders`). The unit is affected until the start of
your next Command phase, by one Order at a time (a new one replaces it); Orders are not issued to
battle-shocked units and end when the unit becomes battle-shocked; only ASTRA MILITARUM models
benefit.

An Order is persisting effects on the unit (effects.py): a record `{"order": slug, "issued_by":
model}` and its modifiers, each marked `order`, `benefits: "ASTRA MILITARUM"` and
`ends_when_battle_shocked`, through the existing pipelines: characteristics (M, Sv, Ld, OC) and
attack modifiers (WS/BS, A, AP, re-rolls; stratagem_effects/attacks.py reads them).

Detachment rules and enhancements that change Orders live here too: Squadron Command (Armoured
Infantry: SQUADRON recipients, On My Signal, the ARMOURED SKIRMISHER keyword), Ruthless
Discipline (Grizzled Company: +1 Order, re-roll hit rolls of 1 while affected), Grand Strategist
(Combined Arms: +1 Order in your Command phase), Stalwart's Honours (Take Cover! as well) and
Aquilan Eye (Target Weak Spot).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.engine.army.attached_units import is_led_with, part_has
from rules.engine.battlefield.state_distances import model_distance
from rules.engine.core import display_names, standing_rules
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect, effects_on_unit, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Unit
from rules.engine.core.state import (
    PLAYERS,
    State,
    alive_models,
    detachment,
    on_battlefield,
    player_key,
    unit_keywords,
    units_of,
)
from rules.engine.core.timing import PHASE_ENDING, PHASE_STARTED, at
from rules.engine.phases.battle_shock import is_battle_shocked

add_sections({"voice_of_command": "Voice of Command"})


AM = "ASTRA MILITARUM"
AM_FACTION = "astra-militarum"
ORDER_RANGE = 6.0
VOICE_OF_COMMAND = "Voice of Command"

# The Orders of Voice of Command (seed 003 L166-171), then those rules add.
ORDER_NAMES = {
    "move-move-move": "Move! Move! Move!",
    "fix-bayonets": "Fix Bayonets!",
    "take-aim": "Take Aim!",
    "first-rank-fire-second-rank-fire": "First Rank, Fire! Second Rank, Fire!",
    "take-cover": "Take Cover!",
    "duty-and-honour": "Duty and Honour!",
    "on-my-signal": "On My Signal",
    "target-weak-spot": "Target Weak Spot",
}
display_names.register("orders", ORDER_NAMES)
VOICE_ORDERS = tuple(list(ORDER_NAMES)[:6])
ON_MY_SIGNAL = "on-my-signal"
TARGET_WEAK_SPOT = "target-weak-spot"
TAKE_COVER = "take-cover"

ARMOURED_INFANTRY = "armoured-infantry"
GRIZZLED_COMPANY = "grizzled-company"
ARMOURED_SKIRMISHER = "ARMOURED SKIRMISHER"
# Squadron Command: not ARTILLERY units, nor units with a model of W 13 or more (seed 003 L709).
SKIRMISHER_MAX_WOUNDS = 12


def _attack(step: str, kind: str, value: Any, **condition: Any) -> dict[str, Any]:
    return {
        "attack": {"step": step, "kind": kind, "value": value, "condition": condition},
        "as": "attacker",
        "against": None,
    }


def _characteristic(name: str, add: int) -> dict[str, Any]:
    return {"characteristic": name, "add": add}


# What each Order does (AMB-15: Fix Bayonets! melee WS, Take Aim! ranged BS, First Rank... ranged
# A; "improve" Sv and Ld lowers the target number). On My Signal's move is a trigger when an
# enemy unit ends a move (not yet: rules_not_yet), so it has no modifier of its own.
ORDER_MODIFIERS: dict[str, list[dict[str, Any]]] = {
    "move-move-move": [_characteristic("M", 3)],
    "fix-bayonets": [_attack("skill", "improve", 1, weapon_type="melee")],
    "take-aim": [_attack("skill", "improve", 1, weapon_type="ranged")],
    "first-rank-fire-second-rank-fire": [_attack("attacks", "add", 1, weapon_type="ranged")],
    "take-cover": [_characteristic("Sv", -1)],
    "duty-and-honour": [_characteristic("Ld", -1), _characteristic("OC", 1)],
    "on-my-signal": [],
    "target-weak-spot": [
        {**_attack("ap", "improve", 1, weapon_type="ranged"), "only_if": {"target_within": 12.0}}
    ],
}
RUTHLESS_DISCIPLINE = _attack("hit", "reroll", "ones")


@implements(
    "ability",
    "move-move-move",
    "fix-bayonets",
    "take-aim",
    "first-rank-fire-second-rank-fire",
    "take-cover",
    "duty-and-honour",
    "target-weak-spot",
)
def order_modifiers(order: str) -> list[dict[str, Any]]:
    """The modifiers an Order gives the unit it affects (ORDER_MODIFIERS)."""
    return ORDER_MODIFIERS[order]


# --- Officers -------------------------------------------------------------------------------

_COUNT = re.compile(r"can issue (\d+) Orders? to (?:an? )?(.+?) units?\b", re.IGNORECASE)
_ONLY = re.compile(r"can only issue the (.+?) Orders?\b", re.IGNORECASE)


@dataclass(frozen=True)
class OfficerProfile:
    """What an Officer's datasheet `Orders` ability allows: Orders per battle round, recipient
    keywords, and the Orders it may issue (None: every Order)."""

    orders: int
    recipients: tuple[str, ...]
    allowed: tuple[str, ...] | None


@implements("datasheet-ability", "death-rider-commissar/orders", "cadian-castellan/orders")
def officer_profile(text: str) -> OfficerProfile:
    """Parse 'This Officer can issue 1 Order to a REGIMENT unit. This OFFICER can only issue the
    Duty and Honour! and Fix Bayonets! Orders.' (seed 003 L24) and the like."""
    found = _COUNT.search(text)
    if found is None:
        raise ValueError(f"an Orders ability without a number of Orders: {text!r}")
    recipients = tuple(
        word.strip().upper() for word in re.split(r",| or | and ", found.group(2)) if word.strip()
    )
    only = _ONLY.search(text)
    allowed = None
    if only is not None:
        phrase = only.group(1).lower()
        allowed = tuple(slug for slug, name in ORDER_NAMES.items() if name.lower() in phrase)
    return OfficerProfile(int(found.group(1)), recipients, allowed)


@dataclass(frozen=True)
class Officer:
    """One OFFICER model able to issue Orders now."""

    model: str
    unit: str
    player: int
    part: int
    profile: OfficerProfile
    enhancements: tuple[str, ...]
    # Mobile Command Vehicle: an Officer embarked within this TRANSPORT unit, distances measured
    # to and from it.
    measured_from: str | None = None


def army_faction(state: State, player: int) -> str | None:
    """The Army Faction: the list's `faction`, else the one faction of all its datasheets
    (rulings R-AM-01)."""
    named = state["players"][player_key(player)].get("faction")
    if named:
        return named
    factions = {
        state["datasheets"][part["datasheet"]].get("faction")
        for unit in units_of(state, player)
        for part in unit["parts"]
    }
    return factions.pop() if len(factions) == 1 else None


def _orders_text(sheet: dict[str, Any]) -> str | None:
    for ability in sheet.get("abilities", []):
        if ability["name"].lower() == "orders" and ability.get("text"):
            return ability["text"]
    return None


@implements("ability", "voice-of-command")
def officers(state: State, player: int) -> list[Officer]:
    """The player's OFFICER models with Voice of Command on the battlefield, if the Army
    Faction is ASTRA MILITARUM (seed 003 L157)."""
    if army_faction(state, player) != AM_FACTION:
        return []
    found = []
    for unit in units_of(state, player):
        carrier = _command_vehicle(state, unit)
        if not on_battlefield(unit) and carrier is None:
            continue
        for index, part in enumerate(unit["parts"]):
            sheet = state["datasheets"][part["datasheet"]]
            text = _orders_text(sheet)
            voiced = part_has(state, part, VOICE_OF_COMMAND)
            if text is None or not voiced or "OFFICER" not in sheet["keywords"]:
                continue
            model = next((m for m in alive_models(unit) if m["part"] == index), None)
            if model is None:
                continue
            found.append(
                Officer(
                    model["id"],
                    unit["id"],
                    player,
                    index,
                    officer_profile(text),
                    tuple(part.get("enhancements", [])),
                    carrier,
                )
            )
    return found


MOBILE_COMMAND_VEHICLE = "Mobile Command Vehicle"


@implements("datasheet-ability", "chimera/mobile-command-vehicle")
def _command_vehicle(state: State, unit: Unit) -> str | None:
    """Mobile Command Vehicle (Chimera): in your Command phase, one Officer model embarked within
    this TRANSPORT can issue Orders although it is not on the battlefield, distances measured to
    and from the TRANSPORT. The TRANSPORT's id for such a unit, else None (rulings R-AM-16: the
    first Officer unit of the TRANSPORT to issue an Order this phase is the one)."""
    if unit["location"] != "embarked" or state["phase"] != "command":
        return None
    transport = state["units"].get(unit.get("embarked_in", ""))
    if transport is None or not on_battlefield(transport):
        return None
    if not any(part_has(state, part, MOBILE_COMMAND_VEHICLE) for part in transport["parts"]):
        return None
    chosen = state["facts"]["phase"].get("mobile_command", {}).get(transport["id"])
    return transport["id"] if chosen in (None, unit["id"]) else None


def officer_of_model(state: State, model_id: str) -> Officer | None:
    for player in PLAYERS:
        for officer in officers(state, player):
            if officer.model == model_id:
                return officer
    return None


def issued_this_round(state: State, officer: Officer) -> int:
    return state["facts"]["battle_round"].get("orders_issued", {}).get(officer.model, 0)


@implements("detachment-rule", GRIZZLED_COMPANY)
def ruthless_discipline(state: State, officer: Officer) -> int:
    """Ruthless Discipline: each ASTRA MILITARUM OFFICER model issues 1 more Order (the re-roll
    of hit rolls of 1 while affected is part of every Order issued in this detachment)."""
    sheet = state["datasheets"][state["units"][officer.unit]["parts"][officer.part]["datasheet"]]
    return int(
        detachment(state, officer.player) == GRIZZLED_COMPANY
        and AM in sheet.get("faction_keywords", [])
    )


@implements("enhancement", "grand-strategist-combined-arms")
def grand_strategist(state: State, officer: Officer) -> int:
    """Grand Strategist (Combined Arms): one additional Order in your Command phase."""
    own_command_phase = state["phase"] == "command" and state["active_player"] == officer.player
    return int("grand-strategist-combined-arms" in officer.enhancements and own_command_phase)


def orders_allowed(state: State, officer: Officer) -> int:
    """Orders this Officer may issue this battle round (datasheet, detachment, enhancement)."""
    return (
        officer.profile.orders
        + ruthless_discipline(state, officer)
        + grand_strategist(state, officer)
    )


def armoured_skirmisher(state: State, unit: Unit) -> bool:
    """Squadron Command: ASTRA MILITARUM SQUADRON units of an Armoured Infantry army have
    ARMOURED SKIRMISHER, except ARTILLERY units and units with a model of W 13+ (AMB-37); only
    they receive On My Signal. (Its move when an enemy unit ends a move within 8" waits for the
    move-ended trigger: rules_not_yet.)"""
    if detachment(state, unit["player"]) != ARMOURED_INFANTRY:
        return False
    keywords = unit_keywords(state, unit)
    return (
        {AM, "SQUADRON"} <= keywords
        and "ARTILLERY" not in keywords
        and all(m["W"] <= SKIRMISHER_MAX_WOUNDS for m in unit["models"])
    )


@implements("detachment-rule", ARMOURED_INFANTRY)
def recipients(state: State, officer: Officer) -> set[str]:
    """Who may receive this Officer's Orders: its datasheet's keywords, SQUADRON under Squadron
    Command, REGIMENT and SQUADRON for the phase of a Flexible Command."""
    found = set(officer.profile.recipients)
    if detachment(state, officer.player) == ARMOURED_INFANTRY:
        found.add("SQUADRON")
    if any(
        e["selector"].get("player") == officer.player and "order_recipients" in e["modifier"]
        for e in state["effects"]
    ):
        found |= {"REGIMENT", "SQUADRON"}
    return found


@implements("enhancement", "aquilan-eye")
def orders_of(state: State, officer: Officer) -> list[str]:
    """The Orders this Officer may choose: Voice of Command's (or those its datasheet allows),
    On My Signal in an Armoured Infantry army, Target Weak Spot for the Aquilan Eye's bearer
    (rulings R-AM-04)."""
    found = [
        o for o in VOICE_ORDERS if officer.profile.allowed is None or o in officer.profile.allowed
    ]
    if detachment(state, officer.player) == ARMOURED_INFANTRY and (
        officer.profile.allowed is None or ON_MY_SIGNAL in officer.profile.allowed
    ):
        found.append(ON_MY_SIGNAL)
    if "aquilan-eye" in officer.enhancements:
        found.append(TARGET_WEAK_SPOT)
    return found


def eligible_units(state: State, officer: Officer, order: str) -> list[str]:
    """Friendly units within 6" of the Officer model that may receive `order` from it."""
    unit = state["units"][officer.unit]
    if officer.measured_from is not None:
        sources = alive_models(state["units"][officer.measured_from])
    else:
        sources = [m for m in unit["models"] if m["id"] == officer.model]
    wanted = recipients(state, officer)
    found = []
    for other in units_of(state, officer.player):
        if not on_battlefield(other) or is_battle_shocked(state, other["id"]):
            continue
        if not wanted & unit_keywords(state, other):
            continue
        if order == ON_MY_SIGNAL and not armoured_skirmisher(state, other):
            continue
        if min(model_distance(s, m) for s in sources for m in alive_models(other)) > ORDER_RANGE:
            continue
        found.append(other["id"])
    return found


def order_options(
    state: State, player: int, counted: bool = True, unit_id: str | None = None
) -> list[dict[str, Any]]:
    """Every {officer, order, unit} the player may issue now: counted against each Officer's
    Orders per battle round, or not (a stratagem's Order; `unit_id`: that Officer unit only)."""
    options = []
    for officer in officers(state, player):
        if unit_id is not None and officer.unit != unit_id:
            continue
        if counted and issued_this_round(state, officer) >= orders_allowed(state, officer):
            continue
        for order in orders_of(state, officer):
            for target in eligible_units(state, officer, order):
                options.append({"officer": officer.model, "order": order, "unit": target})
    return options


# --- issuing --------------------------------------------------------------------------------


def current_orders(state: State, unit_id: str) -> list[str]:
    """The Orders affecting the unit now (one, or two with Stalwart's Honours)."""
    return [
        e["modifier"]["order"]
        for e in effects_on_unit(state, unit_id)
        if "issued_by" in e["modifier"]
    ]


def _end_orders(ctx: Context, unit_id: str, reason: str) -> None:
    for effect in effects_on_unit(ctx.state, unit_id):
        if "order" in effect["modifier"]:
            remove_effect(ctx, effect["id"], reason)


def _affect(ctx: Context, officer: Officer, order: str, unit_id: str, grizzled: bool) -> None:
    base = {"order": order, "benefits": AM, "ends_when_battle_shocked": True}
    duration = "start_of_next_command_phase"
    add_effect(
        ctx,
        order,
        {"unit": unit_id},
        {**base, "issued_by": officer.model},
        duration,
        officer.player,
    )
    extra = [RUTHLESS_DISCIPLINE] if grizzled else []
    for modifier in [*order_modifiers(order), *extra]:
        add_effect(ctx, order, {"unit": unit_id}, {**base, **modifier}, duration, officer.player)


@implements("enhancement", "stalwarts-honours")
def also_take_cover(state: State, unit_id: str) -> bool:
    """Stalwart's Honours: while the bearer leads a unit, that unit, when issued an Order (by any
    Officer), is also affected by Take Cover! (rulings R-AM-05)."""
    return is_led_with(state, state["units"][unit_id], "stalwarts-honours")


def issue(ctx: Context, officer: Officer, order: str, unit_id: str, counted: bool) -> None:
    """The Officer issues `order` to the unit: it replaces the unit's Order (seed 003 L161)."""
    state = ctx.state
    _end_orders(ctx, unit_id, "replaced by a new Order")
    grizzled = detachment(state, officer.player) == GRIZZLED_COMPANY
    _affect(ctx, officer, order, unit_id, grizzled)
    if order != TAKE_COVER and also_take_cover(state, unit_id):
        _affect(ctx, officer, TAKE_COVER, unit_id, grizzled=False)
    if officer.measured_from is not None:
        chosen = state["facts"]["phase"].setdefault("mobile_command", {})
        chosen.setdefault(officer.measured_from, officer.unit)
    if counted:
        issued = state["facts"]["battle_round"].setdefault("orders_issued", {})
        issued[officer.model] = issued.get(officer.model, 0) + 1
    ctx.emit(
        "order_issued",
        player=officer.player,
        officer=officer.model,
        order=order,
        name=ORDER_NAMES[order],
        unit=unit_id,
        counted=counted,
    )


def issue_chosen(
    ctx: Context, player: int, choice: Any, options: list[dict[str, Any]], counted: bool
) -> None:
    """Issue the chosen {officer, order, unit} if it is one of `options`, else refuse."""
    state = ctx.state
    wanted = (
        {k: choice.get(k) for k in ("officer", "order", "unit")}
        if isinstance(choice, dict)
        else None
    )
    if wanted not in options:
        raise Refusal(
            "invalid_order",
            cite(state, "voice_of_command"),
            _why_not(state, player, wanted),
            {"allowed": options},
        )
    officer = officer_of_model(state, wanted["officer"])
    assert officer is not None  # `wanted` is one of the options, each an Officer's
    issue(ctx, officer, wanted["order"], wanted["unit"], counted)


def _why_not(state: State, player: int, wanted: dict[str, Any] | None) -> str:
    if wanted is None:
        return "An Order names its officer model, its Order and the unit it is issued to."
    officer = officer_of_model(state, wanted.get("officer") or "")
    unit = state["units"].get(wanted.get("unit") or "")
    if officer is None or officer.player != player:
        return "That is not an OFFICER model of yours that can issue Orders."
    if wanted.get("order") not in orders_of(state, officer):
        return "That Officer cannot issue that Order."
    if issued_this_round(state, officer) >= orders_allowed(state, officer):
        return "That Officer has issued all its Orders this battle round."
    if unit is not None and is_battle_shocked(state, unit["id"]):
        return "Orders cannot be issued to battle-shocked units."
    return 'That unit is not an eligible unit within 6" of that Officer model.'


def issue_order(ctx: Context, action: dict[str, Any]) -> None:
    """`issue_order` in your Command phase: {officer, order, unit}."""
    player = action["player"]
    issue_chosen(ctx, player, action, order_options(ctx.state, player), counted=True)


@implements("ability", "voice-of-command", at=standing_rules.LEGAL_ACTIONS, order=10)
def issue_order_actions(state: State, player: int) -> list[dict[str, Any]]:
    if state["phase"] != "command" or state["active_player"] != player:
        return []
    return [{"type": "issue_order", "player": player, **o} for o in order_options(state, player)]


standing_rules.PHASE_ACTIONS.add("issue_order", ("command", issue_order))


# --- at the end of a phase in which the Officer was set up (or disembarked) ------------------

ARRIVAL_FLAGS = ("arrived_from_reserves", "disembarked")


@at(PHASE_STARTED, 10)
def note_phase_start(ctx: Context, _data: dict[str, Any]) -> None:
    """Which units had been set up or had disembarked this turn before the phase started, so that
    at its end those that did so in the phase are known (seed 003 L159)."""
    state = ctx.state
    turn = state["facts"]["turn"]
    state["facts"]["phase"]["arrived_before"] = sorted(
        {unit for flag in ARRIVAL_FLAGS for unit in turn.get(flag, [])}
    )


def arrived_this_phase(state: State, unit_id: str) -> bool:
    """Set up on the battlefield (arrived from reserves) or disembarked in this phase. The
    disembark half reads the `disembarked` turn flag the transports rules set."""
    before = state["facts"]["phase"].get("arrived_before", [])
    turn = state["facts"]["turn"]
    return unit_id not in before and any(unit_id in turn.get(flag, []) for flag in ARRIVAL_FLAGS)


def _arrival_options(state: State, player: int) -> list[dict[str, Any]]:
    arrived = {o.model for o in officers(state, player) if arrived_this_phase(state, o.unit)}
    return [o for o in order_options(state, player) if o["officer"] in arrived]


@at(PHASE_ENDING, 10, resumes=True)
def end_of_phase_orders(ctx: Context, _data: dict[str, Any], then: dict[str, Any]) -> None:
    """At the end of the phase, each player whose Officers were set up or disembarked in it may
    issue their Orders (the active player first); then `then` resumes."""
    _ask_arrival_orders(ctx, [ctx.state["active_player"], 3 - ctx.state["active_player"]], then)


def _ask_arrival_orders(ctx: Context, queue: list[int], then: dict[str, Any]) -> None:
    for index, player in enumerate(queue):
        options = _arrival_options(ctx.state, player)
        if options:
            push_decision(
                ctx,
                player,
                "issue_order",
                [*options, "done"],
                {"step": "arrival_order_chosen", "queue": queue[index:], "then": then},
                cite(ctx.state, "voice_of_command"),
                "Your Officer was set up this phase: issue an Order?",
            )
            return
    resume(ctx, then)


@continuation("arrival_order_chosen")
def _arrival_order_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    queue = data["queue"]
    if choice == "done":
        _ask_arrival_orders(ctx, queue[1:], data["then"])
        return
    officer = officer_of_model(ctx.state, choice["officer"])
    assert officer is not None  # the choice is one of the decision's options
    issue(ctx, officer, choice["order"], choice["unit"], counted=True)
    _ask_arrival_orders(ctx, queue, data["then"])
