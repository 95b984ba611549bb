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
from typing import Any

from django.utils import timezone

from games import armies, selectors
from games.models import Army, ClientAction, Game, GameEvent, GameSnapshot
from games.services import GameError, broadcast_on_commit, broadcast_result, locked_game
from rules.engine import Refusal, acting_player, apply, cite, new_game

log = logging.getLogger(__name__)

# The engine state is stored in a GameSnapshot every this many events.
SNAPSHOT_EVERY = 50
STRATAGEM_WINDOW = "stratagem_window"
STANDING_CHOICES = frozenset({"set_window_preferences"})
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
        if game.status != Game.Status.MUSTERING:
            raise GameError("not_mustering", "Armies are picked while the game is mustering.")
        army = Army.objects.filter(pk=army_id, owner=user).first()
        if army is None:
            raise GameError("army_unknown", "You have no such army.")
        army_list = armies.army_list(army)
        report = armies.check(
            army_list, battle_size=game.battle_size, edition_slug=game.ruleset.slug
        )
        if not report.valid:
            raise ArmyRefused(report.as_dict())
        game.army_snapshots = {**game.army_snapshots, str(seat): army_list}
        game.save(update_fields=["army_snapshots", "updated"])
        broadcast_on_commit(
            game.pk,
            {"type": "lobby", "status": game.status, "armies_picked": picked_seats(game)},
        )
        if len(game.army_snapshots) == 2:
            _start(game)
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
        "armies": {seat: game.army_snapshots[seat] for seat in ("1", "2")},
        "window_time_limit_seconds": game.window_time_limit,
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
    _record(game, state, events)


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
    with locked_game(game_id) as game:
        previous = ClientAction.objects.filter(game=game, seat=seat, client_id=client_id).first()
        if previous is not None:
            return previous.response
        _expire_window(game, timezone.now())
        answer = _answer(game, seat, version, client_id, action)
        ClientAction.objects.create(game=game, seat=seat, client_id=client_id, response=answer)
        return answer


def _refused(client_id: str, code: str, rule: str, message: str, **details: Any) -> dict:
    return {
        "type": "refused",
        "client_id": client_id,
        "code": code,
        "rule": rule,
        "message": message,
        **details,
    }


def _answer(
    game: Game, seat: int, version: int, client_id: str, action: dict[str, Any]
) -> dict[str, Any]:
    if game.state is None or game.status not in (Game.Status.DEPLOYMENT, Game.Status.BATTLE):
        return _refused(client_id, "not_in_progress", "Actions", "This game is not in progress.")
    if version != game.version:
        return _refused(
            client_id,
            "stale_version",
            "Actions",
            f"The game has moved on to version {game.version}; catch up and try again.",
            version=game.version,
        )
    acting = acting_player(game.state)
    # A standing choice about stratagem windows is no move in the game: set at any time.
    if acting != seat and action.get("type") not in STANDING_CHOICES:
        return _refused(
            client_id,
            "not_your_turn",
            cite(game.state, "battle_sequence"),
            f"Player {acting} acts now.",
        )
    try:
        state, events = apply(game.state, {**action, "player": seat})
    except Refusal as refusal:
        return _refused(client_id, **refusal.as_dict())
    _record(game, state, events)
    return {"type": "accepted", "client_id": client_id, "version": game.version}


def _record(game: Game, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Append the events, store the state and version, and broadcast after the commit."""
    since = game.version
    rows = [
        GameEvent(game=game, sequence=since + number, kind=event["type"], payload=_payload(event))
        for number, event in enumerate(events, start=1)
    ]
    GameEvent.objects.bulk_create(rows)
    game.version = since + len(rows)
    game.state = state
    game.status = STAGE_STATUS[state["stage"]]
    fields = ["version", "state", "status", "window_decision", "window_deadline", "updated"]
    if game.status == Game.Status.FINISHED:
        game.winner = state.get("winner")
        fields.append("winner")
    _set_window_clock(game, state)
    game.save(update_fields=fields)
    if game.version // SNAPSHOT_EVERY > since // SNAPSHOT_EVERY:
        GameSnapshot.objects.create(game=game, version=game.version, state=state)
    broadcast_on_commit(
        game.pk,
        {
            "type": "events",
            "since": since,
            "version": game.version,
            "events": [row.as_message() for row in rows],
            "state": selectors.table_state(state),
            "status": game.status,
            "window": selectors.window(game),
            selectors.LEGAL_ACTIONS_BY_SEAT: {
                str(seat): selectors.legal_actions_for(state, seat) for seat in (1, 2)
            },
        },
    )
    if game.status == Game.Status.FINISHED:
        broadcast_result(game)


def _payload(event: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the log keeps it: `type` becomes the row's `kind`, and the engine's
    `version` (its count of actions) is kept as `state_version`, since the protocol's version is
    the count of events."""
    payload = {key: value for key, value in event.items() if key not in ("type", "version")}
    payload["state_version"] = event.get("version")
    return payload


# --- the stratagem window clock ----------------------------------------------------------


def _set_window_clock(game: Game, state: dict[str, Any]) -> None:
    """Start the clock when a stratagem window opens on top of the decision stack; stop it when
    the window is answered. The deadline is stored, so it survives a restart."""
    top = state["pending"][-1] if state.get("pending") else None
    if top is None or top.get("kind") != STRATAGEM_WINDOW or not game.window_time_limit:
        game.window_decision = None
        game.window_deadline = None
    elif game.window_decision != top["id"]:
        game.window_decision = top["id"]
        game.window_deadline = timezone.now() + datetime.timedelta(seconds=game.window_time_limit)


def _expire_window(game: Game, now: datetime.datetime) -> bool:
    """Pass for the player whose window's time is up: the engine's `window_timeout` action."""
    if game.window_deadline is None or game.window_deadline > now or game.state is None:
        return False
    top = game.state["pending"][-1] if game.state.get("pending") else None
    if top is None or top.get("id") != game.window_decision:
        game.window_decision = game.window_deadline = None
        game.save(update_fields=["window_decision", "window_deadline", "updated"])
        return False
    try:
        timeout = {"type": "window_timeout", "player": top["player"], "decision": top["id"]}
        state, events = apply(game.state, timeout)
    except Refusal as refusal:
        log.warning("game %s: window timeout refused: %s", game.pk, refusal)
        game.window_decision = game.window_deadline = None
        game.save(update_fields=["window_decision", "window_deadline", "updated"])
        return False
    _record(game, state, events)
    return True


def expire_window(game_id: int, now: datetime.datetime | None = None) -> bool:
    with locked_game(game_id) as game:
        return _expire_window(game, now or timezone.now())


def expire_due_windows(now: datetime.datetime | None = None) -> int:
    """Pass every stratagem window whose time is up; `manage.py expire_windows` calls this."""
    now = now or timezone.now()
    due = Game.objects.filter(window_deadline__lte=now).values_list("pk", flat=True)
    return sum(expire_window(game_id, now) for game_id in list(due))
