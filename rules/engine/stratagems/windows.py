"""Stratagem windows: the timing points where players may use stratagems (11e 15; 10e Stratagems).

`open_window(ctx, triggers, about, then)` is called by the rule at a timing point (start and end
of every phase, the battle-shock step, a unit selected to shoot or fight, ...; the `when.trigger`
vocabulary of docs/rules-data-format.md). Both players are asked in turn, the active player first;
each is asked with a pending decision (kind `stratagem_window`) whose options are every
stratagem x target they can use now and `"pass"`. After a use the same player is asked again
(another stratagem at the same point); after `"pass"` the other player; then `then` resumes. A
player with nothing usable is skipped without asking, so a game without stratagems never stops.

`any_time` stratagems ("Your Shooting phase.") are `use_stratagem` actions of the player who has
the initiative, and are offered to the other player at the windows of their phase (R-ST-01).

Standing choices (`set_window_preferences`) keep stratagems or re-roll purposes a player never
wants offered; `window_timeout` passes the top window when the online layer's time limit runs out.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from rules.engine.battlefield.placement import position_settled
from rules.engine.core.actions import declare_anytime
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision, top_decision
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import carry_on, continuation, resume
from rules.engine.core.state import State, detachment, player_key
from rules.engine.core.timing import (
    AFTER_ROLL,
    STRATAGEM_WINDOW,
    UNITS_DESTROYED_BY_ATTACKS,
    at,
    check_triggers,
)

# Module imports (not names): the phase modules import this one, and the stratagem effects
# import the phase modules, so names are looked up when called.
from rules.engine.stratagems import effects as stratagem_effects
from rules.engine.stratagems import use as stratagems
from rules.engine.stratagems.effects import rerolls

WINDOW_KIND = "stratagem_window"
# Whose unit a trigger's `unit` is: the deciding player's own, or an enemy's.
OWN_SUBJECT = frozenset(
    {
        "battle_shock_before_roll",
        "battle_shock_after_fail",
        "unit_selected_to_shoot",
        "unit_selected_to_fight",
        "charge_declared",
        "unit_destroyed",
        "after_roll",
        "reinforcements_step",
    }
)

# What the player with the initiative may use as a `use_stratagem` action: "any time" in a phase,
# and the Reinforcements step of their Movement phase (a unit "arriving ... this phase", used
# before it is set up: Prognisticated Arrival, Hallowed Beacon; rulings SD-05, R-GK-02).
INITIATIVE_TRIGGERS = ("any_time", "reinforcements_step")

# Windows inside another rule's resolution, where "any time in the phase" does not reach.
NOT_A_MOMENT_FOR_ANY_TIME = frozenset(
    {"battle_shock_before_roll", "battle_shock_after_fail", "after_roll"}
)


def _subject_matches(state: State, player: int, trigger: str, about: dict[str, Any]) -> bool:
    unit_id = about.get("unit")
    if unit_id is None:
        return True
    owner = state["units"][unit_id]["player"]
    if trigger.startswith("enemy_") or trigger == "charge_move_ended":
        return owner != player
    if trigger in OWN_SUBJECT:
        return owner == player
    return True


def preferences(state: State, player: int) -> dict[str, Any]:
    return state.get("window_preferences", {}).get(player_key(player), {})


def offers(
    state: State, player: int, triggers: list[str], about: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every stratagem x target `player` may use at this point (the window's options)."""
    records = state.get("stratagems")
    if not records:
        return []
    own_turn = state["active_player"] == player
    candidates = _index(records).candidates(
        tuple(triggers), state["phase"], own_turn, detachment(state, player)
    )
    if not candidates:  # most timing points: no stratagem of the game can open here
        return []
    with position_settled(state):  # finding the offers only reads the state
        return _offers(state, player, candidates, about)


class _Candidate:
    """A stratagem whose window may open at a timing point, and the (trigger, window) pairs that
    do open there whenever the trigger's unit is the right one (`_subject_matches`)."""

    __slots__ = ("openings", "slug")

    def __init__(self, slug: str, openings: list[tuple[str, dict[str, Any]]]) -> None:
        self.slug, self.openings = slug, openings


class _WindowIndex:
    """Which stratagems of a game can open at a timing point: whether a window opens depends on
    the point's triggers, the phase, whose turn it is and the player's detachment (the rules
    data's `when` and scope), and on the trigger's unit alone besides; all but the unit is
    worked out once per such point and rules data. The records are frozen rules data
    (state.FROZEN_KEYS): the index is kept with their dict, by identity."""

    def __init__(self, records: dict[str, Any]) -> None:
        self.records = records
        # In the order `offers` has always asked them: by slug (`player_stratagems`).
        self._records = [record for _, record in sorted(records.items())]
        self._found: dict[tuple[Any, ...], list[_Candidate]] = {}

    def candidates(
        self, triggers: tuple[str, ...], phase: str | None, own_turn: bool, own: str | None
    ) -> list[_Candidate]:
        key = (triggers, phase, own_turn, own)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._build(triggers, phase, own_turn, own)
        return found

    def _build(
        self, triggers: tuple[str, ...], phase: str | None, own_turn: bool, own: str | None
    ) -> list[_Candidate]:
        # For each record, the triggers in the order given, then its windows in the record's
        # order: the first that opens is the window's trigger.
        found = []
        for record in self._records:
            if record["scope"] == "detachment" and record["detachment"] != own:
                continue
            slug = record["slug"]
            openings = [
                (trigger, when)
                for trigger in triggers
                for when in stratagems.windows_of(record)
                if _may_open(when, phase, own_turn, trigger)
            ]
            if openings:
                found.append(_Candidate(slug, openings))
        return found


def _may_open(when: dict[str, Any], phase: str | None, own_turn: bool, trigger: str) -> bool:
    """Does this `when` window open at `trigger` in `phase`, in the player's own turn or not,
    when the trigger's unit is the right one (`_subject_matches`, asked when the window is)?"""
    if when["trigger"] == "any_time":
        # "Your Shooting phase.": the player with the initiative uses it as an action
        # (`use_stratagem`); the other player at the windows that open in that phase.
        if trigger != "any_time" and (own_turn or trigger in NOT_A_MOMENT_FOR_ANY_TIME):
            return False
    elif when["trigger"] != trigger:
        return False
    if when["phase"] == "any":
        phase_matches = True
    elif when["phase"] == "battle-shock-step":
        phase_matches = phase == "command" and trigger.startswith("battle_shock")
    else:
        phase_matches = when["phase"] == phase
    turn = when["turn"]
    return phase_matches and (turn == "either" or (turn == "own") == own_turn)


def _opening(candidate: _Candidate, state: State, player: int, about: dict[str, Any]) -> str | None:
    """The trigger the candidate's window opens with now (the first of the point's triggers
    whose window opens for this unit), or None."""
    return next(
        (
            trigger
            for trigger, when in candidate.openings
            if when["trigger"] == "any_time" or _subject_matches(state, player, trigger, about)
        ),
        None,
    )


# One index per game a worker serves (each game's state holds its own records dict): room for
# many more games than one worker holds, so that no game's index is built again at each action.
_INDEX_SIZE = 1024
_indexes: dict[int, _WindowIndex] = {}
_indexes_lock = threading.Lock()


def _index(records: dict[str, Any]) -> _WindowIndex:
    """The index of a game's stratagem records (kept while the records dict is: a state read
    again from the database brings a new dict, and a new index, built in microseconds)."""
    found = _indexes.get(id(records))
    if found is not None and found.records is records:
        return found
    found = _WindowIndex(records)
    with _indexes_lock:
        _indexes.pop(id(records), None)
        _indexes[id(records)] = found
        while len(_indexes) > _INDEX_SIZE:
            _indexes.pop(next(iter(_indexes)))
    return found


def _offers(
    state: State, player: int, candidates: list[_Candidate], about: dict[str, Any]
) -> list[dict[str, Any]]:
    never = preferences(state, player).get("never_offer", [])
    found: list[dict[str, Any]] = []
    for candidate in candidates:
        slug = candidate.slug
        if slug in never or slug not in stratagem_effects.IMPLEMENTATIONS:
            continue
        # Whether its window opens first: it is a few lookups, and most stratagems' do not open
        # at a given roll (the cost, with its discounts, looks at the whole army).
        trigger = _opening(candidate, state, player, about)
        if trigger is None:
            continue
        if not stratagems.affordable_and_unused(state, player, slug):
            continue  # before the targets: some need sight lines
        window = {**about, "trigger": trigger, "phase": state["phase"]}
        implementation = stratagem_effects.IMPLEMENTATIONS[slug]
        # Listed once: checking each target's use would list them all again for each (Fire
        # Overwatch's list asks every unit's targets, sight lines included).
        targets = implementation.targets(state, player, window)
        for target in targets:
            for extra in implementation.choices(state, player, window, target):
                use = stratagem_effects.Use(slug, player, target, window, extra)
                refusal = stratagems.refusal_for(state, use, targets)
                if refusal is None and _wanted(state, use):
                    found.append({"stratagem": slug, "target": target, "window": window, **extra})
    return found


def _moment(state: State) -> list[Any]:
    return [state["battle_round"], state["active_player"], state["phase"]]


def asked(state: State, player: int) -> bool:
    """Standing choices about windows themselves: "pass every window this phase" (kept for the
    phase it was set in) and "do not ask me while I have no CP"."""
    prefs = preferences(state, player)
    if prefs.get("pass_phase") == _moment(state):
        return False
    return not (prefs.get("quiet_without_cp") and stratagems.command_points(state, player) <= 0)


def _wanted(state: State, use: stratagem_effects.Use) -> bool:
    """Standing choices: e.g. never offer Command Re-roll on saves; and unless the player asked
    for every roll (`reroll_every_roll`), Command Re-roll only after a roll with a failed die
    not yet re-rolled (rulings R-ST-32)."""
    prefs = preferences(state, use.player)
    roll = use.window.get("roll")
    if not roll:
        return True
    if roll.get("purpose") in set(prefs.get("never_reroll", [])):
        return False
    if use.slug in rerolls.PURPOSES and not prefs.get("reroll_every_roll"):
        return rerolls.worth_asking(state, roll)
    return True


def open_window(
    ctx: Context,
    triggers: str | list[str],
    about: dict[str, Any] | None = None,
    then: dict[str, Any] | None = None,
    players: list[int] | None = None,
) -> None:
    """Open the window(s) of this timing point; resume `then` once every player has passed."""
    triggers = [triggers] if isinstance(triggers, str) else list(triggers)
    check_triggers(triggers)
    queue = players if players is not None else stratagems.players_in_order(ctx.state)
    _ask_next(ctx, triggers, about or {}, queue, then)


def _ask_next(
    ctx: Context,
    triggers: list[str],
    about: dict[str, Any],
    queue: list[int],
    then: dict[str, Any] | None,
) -> None:
    state = ctx.state
    for index, player in enumerate(queue):
        if not asked(state, player):
            continue
        options = offers(state, player, triggers, about)
        if not options:
            continue
        decision = push_decision(
            ctx,
            player,
            WINDOW_KIND,
            [*options, "pass"],
            {
                "step": "stratagem_window",
                "triggers": triggers,
                "about": about,
                "queue": queue[index:],
                "then": then,
            },
            cite(state, "command_points"),
            f"Use a stratagem now ({', '.join(triggers)})?",
        )
        limit = state.get("window_time_limit_seconds")
        if limit:
            decision["time_limit_seconds"] = limit
        return
    carry_on(ctx, then)


@at(STRATAGEM_WINDOW, 10, resumes=True)
def _at_a_timing_point(ctx: Context, data: dict[str, Any], then: dict[str, Any] | None) -> None:
    open_window(ctx, data["triggers"], data["about"], then, data["players"])


@at(AFTER_ROLL, 10, resumes=True)
def _after_a_roll(ctx: Context, data: dict[str, Any], then: dict[str, Any]) -> None:
    after_roll(ctx, data["roll"], then)


@at(UNITS_DESTROYED_BY_ATTACKS, 10, resumes=True)
def _after_units_destroyed(ctx: Context, data: dict[str, Any], then: dict[str, Any] | None) -> None:
    units_destroyed_by_attacks(ctx, data["destroyed"], data["attacker"], then)


@continuation("stratagem_window")
def _window_answered(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    queue = data["queue"]
    if choice == "pass":
        _ask_next(ctx, data["triggers"], data["about"], queue[1:], data["then"])
        return
    use = stratagem_effects.Use(
        choice["stratagem"],
        queue[0],
        choice["target"],
        choice["window"],
        {k: v for k, v in choice.items() if k not in ("stratagem", "target", "window")},
    )
    again = {
        "step": "stratagem_window_again",
        "triggers": data["triggers"],
        "about": data["about"],
        "queue": queue,
        "then": data["then"],
    }
    stratagems.use_stratagem(ctx, use, again)


@continuation("stratagem_window_again")
def _ask_again(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _ask_next(ctx, data["triggers"], data["about"], data["queue"], data["then"])


# --- actions --------------------------------------------------------------------------------


def use_stratagem_action(ctx: Context, action: dict[str, Any]) -> None:
    """`use_stratagem`: an `any_time` stratagem used by the player who has the initiative."""
    player = action["player"]
    slug = cast(str, action.get("stratagem"))
    options = offers(ctx.state, player, list(INITIATIVE_TRIGGERS), {})
    chosen = next(
        (o for o in options if o["stratagem"] == slug and o["target"] == action.get("target")),
        None,
    )
    if chosen is None:
        if isinstance(slug, str) and slug in ctx.state.get("stratagems", {}):
            window = {"trigger": "any_time", "phase": ctx.state["phase"]}
            refusal = stratagems.refusal_for(
                ctx.state, stratagem_effects.Use(slug, player, action.get("target"), window)
            )
            if refusal is not None:
                raise refusal
        raise Refusal(
            "stratagem_not_usable_now",
            cite(ctx.state, "command_points"),
            "That stratagem cannot be used now (check its WHEN and TARGET).",
            {"usable": [{"stratagem": o["stratagem"], "target": o["target"]} for o in options]},
        )
    extra = {k: v for k, v in action.items() if k not in ("type", "player", "stratagem", "target")}
    use = stratagem_effects.Use(slug, player, chosen["target"], chosen["window"], extra)
    if extra not in stratagem_effects.IMPLEMENTATIONS[slug].choices(
        ctx.state, player, chosen["window"], chosen["target"]
    ):
        raise Refusal(
            "invalid_stratagem_choice",
            cite(ctx.state, "command_points"),
            "Those choices are not allowed for this stratagem now.",
        )
    stratagems.use_stratagem(ctx, use, None)


def use_stratagem_actions(state: State, player: int) -> list[dict[str, Any]]:
    return [
        {
            "type": "use_stratagem",
            "player": player,
            "stratagem": o["stratagem"],
            "target": o["target"],
            **{k: v for k, v in o.items() if k not in ("stratagem", "target", "window")},
        }
        for o in offers(state, player, list(INITIATIVE_TRIGGERS), {})
    ]


def set_window_preferences(ctx: Context, action: dict[str, Any]) -> None:
    """Standing choices of a player: `never_offer` (stratagem slugs), `never_reroll` (roll
    purposes, e.g. `save`, on which Command Re-roll is never offered), `pass_phase` (true: pass
    every window for the rest of this phase), `quiet_without_cp` (true: no window while the
    player has no CP) and `reroll_every_roll` (true: Command Re-roll after every roll; false, the
    default: only after a roll with a failed die, rulings R-ST-32)."""
    never_offer = action.get("never_offer", [])
    never_reroll = action.get("never_reroll", [])
    flags = [
        action.get("pass_phase", False),
        action.get("quiet_without_cp", False),
        action.get("reroll_every_roll", False),
    ]
    if (
        not isinstance(never_offer, list)
        or not isinstance(never_reroll, list)
        or not all(isinstance(x, str) for x in [*never_offer, *never_reroll])
        or not all(isinstance(flag, bool) for flag in flags)
    ):
        raise Refusal(
            "invalid_preferences",
            "Stratagems",
            "Preferences are lists of stratagem slugs/rolls and true/false choices.",
        )
    prefs = ctx.state.setdefault("window_preferences", {})
    prefs[player_key(action["player"])] = {
        "never_offer": sorted(set(never_offer)),
        "never_reroll": sorted(set(never_reroll)),
        "pass_phase": _moment(ctx.state) if flags[0] else None,
        "quiet_without_cp": flags[1],
        "reroll_every_roll": flags[2],
    }
    ctx.emit(
        "window_preferences_set", player=action["player"], **prefs[player_key(action["player"])]
    )


def window_timeout(ctx: Context, action: dict[str, Any]) -> None:
    """The online layer's time limit for the top window ran out: its player passes."""
    decision = top_decision(ctx.state)
    if decision is None or decision["kind"] != WINDOW_KIND:
        raise Refusal(
            "no_open_window", "Stratagems", "No stratagem window is waiting for an answer."
        )
    if action.get("decision") != decision["id"]:
        raise Refusal(
            "stale_decision",
            "Sequencing",
            "That timeout is for a window that is no longer open.",
            {"current": decision["id"]},
        )
    ctx.state["pending"].pop()
    ctx.emit("window_timed_out", decision=decision["id"], player=decision["player"])
    resume(ctx, decision["resume"], "pass")


def after_roll(ctx: Context, record: dict[str, Any], then: dict[str, Any]) -> None:
    """Just after a roll (rolls.py record) for a unit: first a re-roll a rule grants for it
    (Order the Advance), then the `after_roll` window (Command Re-roll); then `then` resumes with
    `"roll"`, the roll as it stands after any re-roll."""
    source = rerolls.free_reroll_source(ctx.state, record)
    if source is not None:
        rerolls.offer_free_reroll(ctx, record, source, {"step": "free_reroll_made", "then": then})
        return
    _after_roll_window(ctx, record, then)


@continuation("free_reroll_made")
def _free_reroll_made(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _after_roll_window(ctx, data["roll"], data["then"])


def _after_roll_window(ctx: Context, record: dict[str, Any], then: dict[str, Any]) -> None:
    open_window(
        ctx,
        "after_roll",
        {"unit": record["unit"], "roll": record},
        {"step": "after_roll_closed", "then": then, "roll": record},
        players=[record["player"]],
    )


@continuation("after_roll_closed")
def _after_roll_closed(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    resume(ctx, {**data["then"], "roll": data["roll"]})


def units_destroyed_by_attacks(
    ctx: Context, destroyed: list[dict[str, Any]], attacker: str, then: dict[str, Any] | None
) -> None:
    """The `unit_destroyed` window of each unit the attacking unit's attacks destroyed (its
    owner's: Exact Punishment), one after the other once the attacker has shot; then `then`.
    Each of `destroyed` is `{"unit", "fallen"}`: the models that stood when the attacks began
    (where the unit was), with `part` when only that part of an attached unit was destroyed
    (10e)."""
    if not destroyed:
        carry_on(ctx, then)
        return
    first, rest = destroyed[0], destroyed[1:]
    about = {"unit": first["unit"], "fallen": first["fallen"], "attacker": attacker}
    if "part" in first:
        about["part"] = first["part"]
    open_window(
        ctx,
        "unit_destroyed",
        about,
        {"step": "destroyed_window_closed", "rest": rest, "attacker": attacker, "then": then},
    )


@continuation("destroyed_window_closed")
def _destroyed_window_closed(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    units_destroyed_by_attacks(ctx, data["rest"], data["attacker"], data["then"])


declare_anytime(
    meta={"set_window_preferences": set_window_preferences, "window_timeout": window_timeout},
    any_phase={"use_stratagem": use_stratagem_action},
    legal=use_stratagem_actions,
    window_kind=WINDOW_KIND,
)
