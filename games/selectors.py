"""Reads on games: who is connected, what a client needs to catch up."""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, CharField, ExpressionWrapper, F, Func, Q

from games import live_states, messages, results
from games.models import Game, GameEvent
from games.state_patches import Memo, Patch, diff, diff_sharing
from rules.engine import display, legal_actions, public_state
from rules.models import Enhancement, Mission

SPECTATOR = messages.SPECTATOR
# A client further behind than this receives a snapshot instead of every missed event.
SNAPSHOT_AFTER_MISSED_EVENTS = 500
# `hello` carries the newest chat messages only; older ones are paged over HTTP
# (GET /api/games/{id}/chat/).
HELLO_CHAT_MESSAGES = 50
# No message the server sends is larger (daphne closes a socket on frames over 1 MiB): `events`
# over it are sent as a `snapshot`, `sync` answers that would be are a `snapshot` too.
MAX_OUTGOING_BYTES = 512 * 1024
# The part of the engine state that is one player's own business (never the opponent's).
PRIVATE_STATE_KEYS = ("window_preferences",)
PRIVATE_ACTION_TYPES = ("set_window_preferences",)
PRIVATE_EVENT_KINDS = ("window_preferences_set",)
PRIVATE_EVENT_FIELDS = (
    "never_offer",
    "never_reroll",
    "pass_phase",
    "quiet_without_cp",
    "reroll_every_roll",
)


def connection_seat(game_id: int, user, spectator_token: str | None) -> int | None:
    """1 or 2 for a player, SPECTATOR for a valid spectator link, None to refuse the connection."""
    # Only the columns it needs: every socket that opens asks (a Strike Force row holds ~250 KB
    # of JSON in its state and setup).
    fields = ("creator", "opponent", "spectator_token")
    game = Game.objects.only(*fields).filter(pk=game_id).first()
    if game is None:
        return None
    seat = game.seat_of(user) if user is not None else None
    if seat is not None:
        return seat
    if spectator_token and game.spectator_token and spectator_token == game.spectator_token:
        return SPECTATOR
    return None


def mission_name(game: Game) -> str | None:
    """The mission's name as the rules data gives it (never its slug)."""
    if "setup" in game.get_deferred_fields():
        # The name alone, read from the JSON in the database rather than the whole setup.
        rows = Game.objects.filter(pk=game.pk).values_list("setup__mission__name", flat=True)
        name = rows.first()
        if name:
            return name
    elif game.setup and game.setup.get("mission"):
        return game.setup["mission"].get("name") or game.mission
    return _mission_name_by_slug(game)


def _mission_name_by_slug(game: Game) -> str | None:
    if not game.mission:
        return None
    found = Mission.objects.filter(slug=game.mission).values_list("name", flat=True).first()
    return found or game.mission


def army_names(game: Game) -> dict[str, str | None]:
    """Each seat's army as picked for this game (its name), None until picked."""
    return {
        seat: (game.army_snapshots.get(seat) or {}).get("name")
        if seat in game.army_snapshots
        else None
        for seat in ("1", "2")
    }


SEATS = ("1", "2")


class ArmyName(Func):
    """The name of the army a seat picked (`army_snapshots[seat]["name"]`), read in the database.
    Django's key transforms would take the seat's key, a string of digits, for an array index."""

    output_field = CharField()

    def __init__(self, seat: str) -> None:
        if seat not in SEATS:
            raise ValueError(f"no seat {seat!r}")
        super().__init__(F("army_snapshots"))
        self.seat = seat

    def as_sqlite(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        return f"json_extract({column}, %s)", [*params, f'$."{self.seat}".name']

    def as_postgresql(self, compiler, connection, **extra):
        column, params = compiler.compile(self.source_expressions[0])
        return f"({column} -> %s ->> 'name')", [*params, self.seat]


def _header_parts(game: Game) -> dict[str, Any]:
    """What the header shows of the game's setup and army lists. An action reads the game row
    without them (each is about 100 KB of JSON in a Strike Force game) and a status change
    broadcasts the header: then its few keys are read in the database, with the players' and
    the rule set's names, in one query instead of the whole columns and three more reads."""
    if not game.get_deferred_fields() & {"setup", "army_snapshots"}:
        return {
            "edition": game.ruleset.slug,
            "players": {
                "1": game.creator.get_username(),
                "2": game.opponent.get_username() if game.opponent else None,
            },
            "mission_name": mission_name(game),
            "armies_picked": sorted(int(seat) for seat in game.army_snapshots),
            "not_enforced": (game.setup or {}).get("not_enforced") or {},
            "armies": army_names(game),
        }
    picked = {
        f"picked_{seat}": ExpressionWrapper(
            Q(army_snapshots__has_key=seat), output_field=BooleanField()
        )
        for seat in SEATS
    }
    names = {f"army_{seat}": ArmyName(seat) for seat in SEATS}
    row = (
        Game.objects.filter(pk=game.pk)
        .values(
            "ruleset__slug",
            "creator__username",
            "opponent__username",
            in_setup=F("setup__mission__name"),
            not_enforced=F("setup__not_enforced"),
            **picked,
            **names,
        )
        .get()
    )
    return {
        "edition": row["ruleset__slug"],
        "players": {"1": row["creator__username"], "2": row["opponent__username"]},
        "mission_name": row["in_setup"] or _mission_name_by_slug(game),
        "armies_picked": [int(seat) for seat in SEATS if row[f"picked_{seat}"]],
        "not_enforced": row["not_enforced"] or {},
        "armies": {seat: row[f"army_{seat}"] if row[f"picked_{seat}"] else None for seat in SEATS},
    }


def public_game(game: Game) -> dict:
    """What every page of the game shows in its header: status, players, armies, mission."""
    parts = _header_parts(game)
    return {
        "id": game.pk,
        "status": game.status,
        "status_label": game.get_status_display(),
        "edition": parts["edition"],
        "battle_size": game.battle_size,
        "version": game.version,
        "players": parts["players"],
        "seed_commitment": game.seed_commitment,
        "dice_seed": game.dice_seed if game.is_over else None,
        "winner": game.winner,
        "window_time_limit": game.window_time_limit,
        "mission": game.mission or None,
        "mission_name": parts["mission_name"],
        "armies_picked": parts["armies_picked"],
        "not_enforced": parts["not_enforced"],
        "armies": parts["armies"],
        "ended_by": results.ended_by(game),
    }


def legal_actions_for(state: dict[str, Any] | None, seat: int | None) -> list[dict[str, Any]]:
    """What the player of `seat` may do now (none for spectators or before the game starts)."""
    if state is None or seat not in (1, 2):
        return []
    return legal_actions(state, seat)


def window(game: Game) -> dict[str, Any] | None:
    """The stratagem window whose clock is running: its decision id and deadline."""
    if game.window_deadline is None:
        return None
    return {"decision": game.window_decision, "deadline": game.window_deadline.isoformat()}


def state_for(state: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """The engine state as `seat` may see it: without the dice seed (until the end) and without
    the other player's private choices (window preferences); never send `game.state` itself."""
    if state is None:
        return None
    return with_display(_without_others_private(public_state(state), seat), state)


def visible_state(game: Game, seat: int | None = None) -> dict[str, Any] | None:
    return state_for(live_states.engine_state(game), seat)


def patch_for(
    before: dict[str, Any] | None,
    after: dict[str, Any],
    seat: int | None,
    memo: Memo | None = None,
) -> Patch:
    """The RFC 6902 patch that turns the state `seat` saw before an action into the one it sees
    after (engine states in; the frozen rules data never in a patch). The first one of a game
    replaces the whole document. Patches of one action built with one `memo` compare each
    shared part of the states once (games.state_patches.diff_sharing)."""
    if before is None:
        return [{"op": "replace", "path": "", "value": state_for(after, seat)}]
    old, new = _changing_for(before, seat), _changing_for(after, seat)
    return diff(old, new) if memo is None else diff_sharing(old, new, memo)


def _changing_for(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    # A view of the state (no copy: a diff only reads it).
    return _without_others_private(messages.changing_part(state), seat)


def event_for(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A logged event as `seat` may see it: another player's window preferences are left out."""
    if event.get("kind") in PRIVATE_EVENT_KINDS:
        owner = event.get("player")
    elif event.get("kind") == "action_applied" and isinstance(event.get("action"), dict):
        if event["action"].get("type") not in PRIVATE_ACTION_TYPES:
            return event
        owner = event["action"].get("player")
        if owner == seat:
            return event
        return {**event, "action": {"type": event["action"]["type"], "player": owner}}
    else:
        return event
    if owner == seat:
        return event
    return {key: value for key, value in event.items() if key not in PRIVATE_EVENT_FIELDS}


def with_display(visible: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """The visible state with the names and texts the table shows (`rules.engine.tools.display`,
    and the enhancements the models bear, from the rules data)."""
    visible["display"] = display(state)
    borne = sorted(
        {
            slug
            for unit in state.get("units", {}).values()
            for model in unit.get("models", [])
            for slug in model.get("enhancements", [])
        }
    )
    visible["display"]["enhancements"] = _enhancements(tuple(borne))
    return visible


def _enhancements(slugs: tuple[str, ...]) -> dict[str, dict[str, str]]:
    if not slugs:
        return {}
    found = Enhancement.objects.filter(slug__in=slugs).values("slug", "name", "effect_text")
    return {e["slug"]: {"name": e["name"], "text": e["effect_text"]} for e in found}


def game_state(game: Game, seat: int | None) -> dict[str, Any]:
    """What a client needs to draw the table: the state it may see and its own legal actions."""
    state = live_states.engine_state(game)
    # Nothing is offered in a game that has ended (a concession leaves the engine mid-turn).
    legal = [] if game.is_over else legal_actions_for(state, seat)
    return messages.table(
        game.version,
        game.status,
        state_for(state, seat),
        window(game),
        legal if seat in (1, 2) else None,
    )


def hello(game_id: int, seat: int) -> dict:
    game = (
        Game.objects.select_related("creator", "opponent", "ruleset")
        .defer("stored_state", "setup")
        .get(pk=game_id)
    )
    newest = game.chat.select_related("author").order_by("-id")[: HELLO_CHAT_MESSAGES + 1]
    chat = [message.as_message() for message in reversed(newest[:HELLO_CHAT_MESSAGES])]
    # Older messages: GET /api/games/{id}/chat/ (paged).
    more = len(newest) > HELLO_CHAT_MESSAGES
    return messages.hello(seat, public_game(game), chat, game_state(game, seat), chat_more=more)


def snapshot(game: Game, seat: int | None) -> dict[str, Any]:
    return messages.snapshot(game_state(game, seat))


def catch_up(game_id: int, since: int, seat: int | None = None) -> dict:
    """The events a client missed after version `since`, in order, or a snapshot when far behind
    or when the events would not fit in one message; with the state now and the seat's legal
    actions either way."""
    game = Game.objects.defer("stored_state", "setup", "army_snapshots").get(pk=game_id)
    if since > game.version:
        return messages.error("version_ahead", "You are ahead of the server.")
    current = game_state(game, seat)
    if game.version - since > SNAPSHOT_AFTER_MISSED_EVENTS and current["state"] is not None:
        return messages.snapshot(current)
    rows = GameEvent.objects.filter(game=game, sequence__gt=since).order_by("sequence")
    events = [event_for(event.as_message(), seat) for event in rows]
    reply = messages.caught_up(since, events, current)
    if current["state"] is not None and len(messages.encode(reply)) > MAX_OUTGOING_BYTES:
        return messages.snapshot(current)
    return reply


def _without_others_private(state: dict[str, Any] | None, seat: int | None) -> dict | None:
    if state is None:
        return None
    visible = dict(state)
    for key in PRIVATE_STATE_KEYS:
        own = visible.get(key, {})
        visible[key] = {str(seat): own[str(seat)]} if seat in (1, 2) and str(seat) in own else {}
    return visible


# The most events one page of the log holds (GET /games/{id}/log/).
LOG_PAGE_LIMIT = 500


def log_page(game: Game, since: int, limit: int, seat: int | None) -> dict[str, Any]:
    """The log after version `since`, at most `limit` events as `seat` may see them, and where
    the next page starts (None at the end): what a reloaded page, a reconnection or a replay
    reads the history from."""
    limit = max(1, min(limit, LOG_PAGE_LIMIT))
    rows = list(
        GameEvent.objects.filter(game=game, sequence__gt=since).order_by("sequence")[:limit]
    )
    last = rows[-1].sequence if rows else since
    return {
        "since": since,
        "version": game.version,
        "events": [event_for(row.as_message(), seat) for row in rows],
        "next": last if last < game.version else None,
    }


def games_list(user) -> list[dict[str, Any]]:
    """A player's games for the lobby: status, opponent, both armies, rule set, mission, result."""
    games = (
        Game.objects.filter(Q(creator=user) | Q(opponent=user))
        .select_related("creator", "opponent", "ruleset")
        .defer("stored_state", "setup")
        .order_by("-updated")
    )
    names = dict(Mission.objects.values_list("slug", "name"))
    conceded = set(
        GameEvent.objects.filter(game__in=games, kind=results.CONCEDED).values_list(
            "game_id", flat=True
        )
    )
    rows = []
    for game in games:
        seat = game.seat_of(user)
        players = {"1": game.creator.get_username()}
        players["2"] = game.opponent.get_username() if game.opponent else None
        rows.append(
            {
                "game": game,
                "seat": seat,
                "opponent": players["2" if seat == 1 else "1"],
                "armies": army_names(game),
                "mission_name": names.get(game.mission, game.mission) or None,
                "winner_name": players.get(str(game.winner)) if game.winner else None,
                "conceded": game.pk in conceded,
                "picking": game.status == Game.Status.MUSTERING
                and str(seat) not in game.army_snapshots,
            }
        )
    return rows


def listed_games(limit: int = 20) -> list[Game]:
    """Games anyone may watch (their creator listed them), newest first: the home page's Watch."""
    return list(
        Game.objects.filter(listed=True, spectator_token__isnull=False)
        .exclude(status__in=[Game.Status.WAITING, Game.Status.ABANDONED])
        .select_related("creator", "opponent", "ruleset")
        .defer("stored_state", "setup")
        .order_by("-updated")[:limit]
    )
