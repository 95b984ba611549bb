"""Writes on a match: picking armies, starting the game, applying the players' actions, and the
clock of stratagem windows.

Every write here runs inside `locked_game`, so actions on one game are applied one after the other
and each sees the version the previous one left: the engine's events are appended to the log with
consecutive sequence numbers in the same transaction as the new state and version, and broadcast
only after the commit (no client ever sees an event the database does not have).
"""

from __future__ import annotations

import datetime
import logging
import time
from typing import Any

from django.db import connections, transaction
from django.utils import timezone

from games import armies, live_states, messages, practice, selectors, window_clock
from games.action_fields import without_unknown_fields
from games.compiled import insert, save_fields
from games.models import Army, ClientAction, Game, GameEvent, GameSnapshot
from games.not_enforced import not_enforced
from games.services import (
    GameError,
    broadcast_lobby,
    broadcast_result,
    broadcast_texts_on_commit,
    locked_game,
    locked_game_for_action,
)
from games.state_patches import Memo, diff_sharing
from rules.engine import Refusal, acting_player, apply, cite, new_game
from tabletop import metrics

log = logging.getLogger(__name__)

# The engine state is stored whole (in the game row and in a GameSnapshot) every this many
# events; the actions in between store its patch. Writing the ~140 KB state whole is most of
# PostgreSQL's work for an action (docs/performance.md, "Fourteenth pass"): every 100 events
# instead of 50 took a fifth off it, and reading a game back applies up to 99 events' patches.
SNAPSHOT_EVERY = 100
STANDING_CHOICES = frozenset({"set_window_preferences"})
PLAYING = (Game.Status.DEPLOYMENT, Game.Status.BATTLE)
# The seat the computer holds in a practice game.
COMPUTER_SEAT = 2
STAGE_STATUS = {
    "declare_reserves": Game.Status.DEPLOYMENT,
    "deployment": Game.Status.DEPLOYMENT,
    # After deployment: rules that redeploy units (Grand Strategist, Liber Heresius), then the
    # roll-off for the first turn and the Scouts moves before the battle.
    "redeployment": Game.Status.DEPLOYMENT,
    "first_turn": Game.Status.DEPLOYMENT,
    "scouts": Game.Status.DEPLOYMENT,
    "battle": Game.Status.BATTLE,
    "ended": Game.Status.FINISHED,
}
# --- mustering ----------------------------------------------------------------------------


def pick_army(game_id: int, user, army_id: int) -> Game:
    """A player's army for this game: checked against the game's battle size and rule set, then
    copied into the game (later edits of the army do not change it). When both players have
    picked, the game starts."""
    with locked_game(game_id) as game:
        seat = game.seat_of(user)
        if seat is None:
            raise GameError("not_a_player", "Only the players pick armies.")
        army = Army.objects.filter(pk=army_id, owner=user).first()
        if army is None:
            raise GameError("army_unknown", "You have no such army.")
        return _pick(game, seat, armies.army_list(army))


def pick_army_list(game_id: int, seat: int, army_list: dict[str, Any]) -> Game:
    """The army of a seat the computer holds (games/practice.py): checked and copied as a
    player's pick is."""
    with locked_game(game_id) as game:
        return _pick(game, seat, army_list)


def _pick(game: Game, seat: int, army_list: dict[str, Any]) -> Game:
    if game.status != Game.Status.MUSTERING:
        raise GameError("not_mustering", "Armies are picked while the game is mustering.")
    report = armies.check(army_list, battle_size=game.battle_size, edition_slug=game.ruleset.slug)
    if not report.valid:
        raise ArmyRefused(report.as_dict())
    game.army_snapshots = {**game.army_snapshots, str(seat): army_list}
    game.save(update_fields=["army_snapshots", "updated"])
    if len(game.army_snapshots) == 2:
        _start(game)  # its events and the new status reach every page
    else:
        broadcast_lobby(game, armies_picked=picked_seats(game))
    return game


class ArmyRefused(GameError):
    """The army picked has problems; `report` lists them all."""

    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__("army_invalid", "This army cannot be fielded: " + _first(report))
        self.report = report


def _first(report: dict[str, Any]) -> str:
    return report["problems"][0]["message"] if report["problems"] else ""


def picked_seats(game: Game) -> list[int]:
    return sorted(int(seat) for seat in game.army_snapshots)


def default_mission(bundle: dict[str, Any], battle_size: str) -> dict[str, Any] | None:
    """The first mission (by slug) of the rules data for this battle size."""
    fitting = [m for m in bundle.get("missions", []) if m.get("battle_size") == battle_size]
    return min(fitting, key=lambda m: m["slug"]) if fitting else None


def build_setup(game: Game) -> dict[str, Any]:
    """What `new_game` needs: the rule set record, the mission, the datasheets, the stratagems
    (the engine keeps those of the edition and of the two armies' detachments) and both lists."""
    lists = [game.army_snapshots["1"], game.army_snapshots["2"]]
    bundle = armies.rules_bundle(lists, game.ruleset.slug)
    missions = {m["slug"]: m for m in bundle["missions"]}
    mission = missions.get(game.mission) if game.mission else None
    mission = mission or default_mission(bundle, game.battle_size)
    if mission is None:
        raise GameError("no_mission", f"The rules data has no mission for {game.battle_size}.")
    return {
        "ruleset": bundle["rulesets"][0],
        "mission": mission,
        "datasheets": bundle["datasheets"],
        "stratagems": bundle.get("stratagems", []),
        "enhancements": bundle.get("enhancements", []),
        "armies": {seat: game.army_snapshots[seat] for seat in ("1", "2")},
        "window_time_limit_seconds": game.window_time_limit,
        # Listed once for the game (hello's `game.not_enforced`); the engine does not read it.
        "not_enforced": {
            seat: not_enforced(game.army_snapshots[seat], bundle) for seat in ("1", "2")
        },
    }


def _start(game: Game) -> None:
    setup = build_setup(game)
    try:
        state, events = new_game(setup, game.dice_seed)
    except Refusal as refusal:
        raise GameError(refusal.code, refusal.message) from None
    game.setup = setup
    game.mission = setup["mission"]["slug"]
    game.save(update_fields=["setup", "mission", "updated"])
    _record(game, None, state, events)


# --- actions ------------------------------------------------------------------------------


def apply_action(
    game_id: int, seat: int | None, version: int, client_id: str, action: dict[str, Any]
) -> dict[str, Any]:
    """Apply a player's action and answer `accepted` or `refused` (docs/protocol.md).

    The answer is stored under (game, seat, client_id): a message sent again gets the same answer
    and is never applied twice.
    """
    if not seat:
        return _refused(
            client_id, "spectators_read_only", "Actions", "Spectators watch; only players act."
        )
    started = time.perf_counter()
    # An action needs neither the setup nor the army lists; the state comes from live_states.
    with locked_game_for_action(game_id, seat, client_id) as (game, previous):
        if previous is not None:
            return previous
        _expire_window(game, timezone.now())
        answer = _answer(game, seat, version, client_id, action)
        insert([ClientAction(game=game, seat=seat, client_id=client_id, response=answer)])
    _account(game_id, seat, action, answer, time.perf_counter() - started)
    return answer


def _account(game_id: int, seat: int, action: dict, answer: dict, seconds: float) -> None:
    """One log line and the metrics of an answered action (README, "Operating")."""
    accepted = answer["type"] == "accepted"
    code = "" if accepted else answer.get("code", "")
    metrics.ACTIONS.labels(outcome=answer["type"], code=code).inc()
    if accepted:
        metrics.APPLY_SECONDS.observe(seconds)
    log.info(
        "action %s",
        answer["type"],
        extra={
            "game_id": game_id,
            "seat": seat,
            "version": answer.get("version"),
            "action_type": str(action.get("type"))[:40],
            "code": code or None,
            "duration_ms": round(seconds * 1000, 1),
        },
    )


_refused = messages.refused


def _answer(
    game: Game, seat: int, version: int, client_id: str, action: dict[str, Any]
) -> dict[str, Any]:
    current = live_states.engine_state(game)
    if current is None or game.status not in (Game.Status.DEPLOYMENT, Game.Status.BATTLE):
        return _refused(client_id, "not_in_progress", "Actions", "This game is not in progress.")
    if version != game.version:
        return _refused(
            client_id,
            "stale_version",
            "Actions",
            f"The game has moved on to version {game.version}; catch up and try again.",
            version=game.version,
        )
    acting = acting_player(current)
    # A standing choice about stratagem windows is no move in the game: set at any time.
    if acting != seat and action.get("type") not in STANDING_CHOICES:
        return _refused(
            client_id,
            "not_your_turn",
            cite(current, "battle_sequence"),
            f"Player {acting} acts now.",
        )
    acted = {**action, "player": seat}
    try:
        applied = apply(current, acted)
    except Refusal as refusal:
        return _refused(client_id, **refusal.as_dict())
    state, events = without_unknown_fields(current, acted, applied)
    _record(game, current, state, events)
    return messages.accepted(client_id, game.version)


def _record(
    game: Game,
    before: dict[str, Any] | None,
    state: dict[str, Any],
    events: list[dict[str, Any]],
) -> None:
    """Append the events, store the state and version, and broadcast after the commit: the
    events with the patch from the state `before` them, one text per audience."""
    since = game.version
    status_before = game.status
    rows = [
        GameEvent(game=game, sequence=since + number, kind=event["type"], payload=_payload(event))
        for number, event in enumerate(events, start=1)
    ]
    game.version = since + len(rows)
    fields = ["version", "status", "window_decision", "window_deadline", "updated"]
    # The patches of this action (stored, and one per audience) share what they compare.
    memo: Memo = {}
    if before is None or not rows or game.version // SNAPSHOT_EVERY > since // SNAPSHOT_EVERY:
        # The state whole: at the start and every SNAPSHOT_EVERY events (games.models.Game).
        game.state = state
        fields += ["stored_state", "state_version"]
    else:
        # Only what changed, on the action's last log row: the row stays a few hundred bytes
        # where the whole state of a Strike Force game is about 145 KB.
        rows[-1].state_patch = diff_sharing(before, state, memo)
    insert(rows)  # GameEvent.objects.bulk_create(rows), compiled once per number of rows
    game.status = STAGE_STATUS[state["stage"]]
    if game.status == Game.Status.FINISHED:
        game.winner = state.get("winner")
        fields.append("winner")
    window_clock.set_clock(game, state)
    # `game.save(update_fields=fields)`, compiled once (docs/performance.md, "Seventh pass").
    save_fields(game, fields)
    game.__dict__.pop("_state_now", None)
    live_states.remember(game.pk, live_states.row_key(game), state)
    if game.version // SNAPSHOT_EVERY > since // SNAPSHOT_EVERY:
        # The state saved whole just now (above), copied by the database.
        GameSnapshot.copy_stored_state(game)
    logged = [row.as_message() for row in rows]
    version, status, window = game.version, game.status, selectors.window(game)

    def texts() -> dict[int, str]:
        # Only the seat the engine waits for has legal actions (rules.engine.legal_actions).
        acting = acting_player(state)
        legal = {acting: selectors.legal_actions_for(state, acting)} if acting else {}
        return messages.events_texts(
            since=since,
            version=version,
            events_by_audience={
                audience: [selectors.event_for(event, audience) for event in logged]
                for audience in messages.AUDIENCES
            },
            patch_by_audience={
                audience: selectors.patch_for(before, state, audience, memo)
                for audience in messages.AUDIENCES
            },
            status=status,
            window=window,
            legal_actions_by_seat=legal,
        )

    broadcast_texts_on_commit(game.pk, texts, window=window, version=version)
    if game.computer and game.status in PLAYING and acting_player(state) == COMPUTER_SEAT:
        # The computer's turn (games/practice.py): it thinks in a thread of its own.
        transaction.on_commit(lambda: practice.wake(game.pk))
    if game.status == Game.Status.FINISHED:
        broadcast_result(game)
    elif game.status != status_before:
        broadcast_lobby(game)


def _payload(event: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the log keeps it: `type` becomes the row's `kind`, and the engine's
    `version` (its count of actions) is kept as `state_version`, since the protocol's version is
    the count of events."""
    payload = {key: value for key, value in event.items() if key not in ("type", "version")}
    payload["state_version"] = event.get("version")
    return payload


# --- the stratagem window clock (games/window_clock.py) ---------------------------------


def _expire_window(game: Game, now: datetime.datetime) -> bool:
    """Pass for the player whose window's time is up: the engine's `window_timeout` action."""
    timeout = window_clock.due_timeout(game, now)
    if timeout is None:
        return False
    current = live_states.engine_state(game)
    try:
        state, events = apply(current, timeout)
    except Refusal as refusal:
        log.warning(
            "window timeout refused: %s",
            refusal,
            extra={"game_id": game.pk, "version": game.version, "seat": timeout["player"]},
        )
        window_clock.stop_clock(game)
        return False
    _record(game, current, state, events)
    metrics.WINDOW_TIMEOUTS.inc()
    log.info(
        "window timed out",
        extra={"game_id": game.pk, "version": game.version, "seat": timeout["player"]},
    )
    return True


def expire_window(game_id: int, now: datetime.datetime | None = None) -> bool:
    """Pass the game's stratagem window if its time is up (checked under the game's lock)."""
    with locked_game(game_id) as game:
        return _expire_window(game, now or timezone.now())


def expire_due_windows(now: datetime.datetime | None = None) -> int:
    """Pass every stratagem window whose time is up; `manage.py expire_windows` calls this."""
    now = now or timezone.now()
    return sum(expire_window(game_id, now) for game_id in window_clock.due_game_ids(now))


def expire_due_windows_at_start_up() -> None:
    """Run once when a server process starts (tabletop/asgi.py, in a background thread): the
    windows whose deadline passed while the server was down pass now."""
    try:
        passed = expire_due_windows()
    except Exception:  # the server must start even if the sweep fails
        log.exception("passing the stratagem windows due at start-up failed")
        return
    finally:
        connections.close_all()
    if passed:
        log.info("%s stratagem window(s) passed at start-up", passed)
