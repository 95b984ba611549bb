"""Test-only moves of a real game on the browser tests' database (run in `manage.py shell`):
self-play chooses each action, and the match service applies it as a player's socket would
(`matches.apply_action`: the log, snapshots and the window clock as in play). Never imported by
the product."""

from __future__ import annotations

import random
import uuid

from rules.engine import Refusal, acting_player, apply
from rules.engine.tools.selfplay import choose_action


def _next_action(rng: random.Random, state: dict) -> tuple[int, dict, dict]:
    """The acting seat, the first self-play candidate the engine accepts, and the state after."""
    seat = acting_player(state)
    for candidate in choose_action(rng, state, seat):
        try:
            after, _ = apply(state, candidate)
        except Refusal:
            continue
        return seat, candidate, after
    raise AssertionError(f"player {seat} has nothing to do")


def _send(game, seat: int, action: dict) -> None:
    from games import matches

    answer = matches.apply_action(
        game.pk, seat, game.version, uuid.uuid4().hex, {k: v for k, v in action.items()}
    )
    assert answer["type"] == "accepted", answer


def play_on(game_id: int, events: int = 300, attack: bool = False, number: int = 7) -> dict:
    """Play until the log holds at least `events` events (and, with `attack`, a shooting attack's
    hit roll), or the battle ends."""
    from games.models import Game, GameEvent

    rng = random.Random(number)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        attacked = not attack or GameEvent.objects.filter(game=game, kind="attack_step").exists()
        if game.state["stage"] == "ended" or (game.version >= events and attacked):
            break
        seat, action, _ = _next_action(rng, game.state)
        _send(game, seat, action)
    game = Game.objects.get(pk=game_id)
    return {"version": game.version, "stage": game.state["stage"], "status": game.status}


def play_to_window(game_id: int, number: int = 11) -> dict:
    """Play until the next action would open a stratagem window; returns that action (for the
    acting player's page to send), its seat and the version it acts on."""
    from games.models import Game

    rng = random.Random(number)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        seat, action, after = _next_action(rng, game.state)
        top = after["pending"][-1] if after.get("pending") else None
        if top and top["kind"] == "stratagem_window":
            sent = {k: v for k, v in action.items() if k != "player"}
            return {"seat": seat, "action": sent, "version": game.version, "decider": top["player"]}
        _send(game, seat, action)
    raise AssertionError("no stratagem window opened")


def expire_while_down(game_id: int) -> dict:
    """The window's deadline as if it had passed while the server was down."""
    import datetime

    from django.utils import timezone

    from games.models import Game

    game = Game.objects.get(pk=game_id)
    assert game.window_deadline is not None, "no window on the clock"
    game.window_deadline = timezone.now() - datetime.timedelta(seconds=30)
    game.save(update_fields=["window_deadline"])
    return {"decision": game.window_decision, "version": game.version}


def game_facts(game_id: int) -> dict:
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    return {
        "version": game.version,
        "status": game.status,
        "window_decision": game.window_decision,
        "window_deadline": game.window_deadline.isoformat() if game.window_deadline else None,
        "kinds": list(game.events.order_by("sequence").values_list("kind", flat=True)),
    }


def store_army(username: str, seat: int) -> dict:
    """Give the player the self-play army of `seat` (a valid Incursion list of the seed data)."""
    from django.contrib.auth import get_user_model

    from games.models import Army
    from rules.engine.tools.selfplay import build_armies
    from rules.loader import export_rules

    rules = export_rules()
    army = build_armies(rules)[str(seat)]
    detachment = army.get("detachment") or next(
        d["slug"] for d in rules["detachments"] if d["faction"] == army["faction"]
    )
    record = Army.objects.create(
        owner=get_user_model().objects.get(username=username),
        name=army["name"],
        faction=army["faction"],
        detachment=detachment,
        units=army["units"],
    )
    return {"id": record.pk, "name": record.name}


def apply_as(game_id: int, seat: int, action: dict) -> dict:
    """Apply one player's action through the match service (as their socket would)."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    _send(game, seat, action)
    return {"version": Game.objects.get(pk=game_id).version}


def play_to_decision(game_id: int, kind: str, number: int = 7) -> dict:
    """Play until the top pending decision is of `kind`; returns it and the game's version."""
    from games.models import Game

    rng = random.Random(number)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        pending = game.state.get("pending") or []
        if pending and pending[-1]["kind"] == kind:
            return {"decision": pending[-1], "version": game.version}
        if game.state["stage"] == "ended":
            break
        seat, action, _ = _next_action(rng, game.state)
        _send(game, seat, action)
    raise AssertionError(f"no {kind} decision")
