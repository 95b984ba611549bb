"""Practice against the computer (issue 19): a game whose seat 2 the computer holds.

A practice game is an ordinary game (log, replay, dice commitment, spectator link) whose opponent
is the computer's account and whose `computer` names its level: "random" (the self-play agent) or
"tactical" (rules/engine/tools/tactical.py). The computer acts only through the match service a
player's socket uses (`matches.apply_action`, as seat 2), never by writing the state.

Its thinking runs in a worker thread per game, never on the event loop: `wake(game_id)` starts the
game's thread (or tells the running one to look again), which plays while the engine waits for
seat 2, pausing `PRACTICE_PAUSE_SECONDS` between actions so that the player sees each one. It is
woken after every recorded change that leaves the computer to act (`matches._record`), when a
player connects to the game, and at start-up for every practice game in progress
(`resume_at_start_up`), so a game survives a restart with the computer to move.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connections, transaction

from games import armies, services
from games.models import Army, Game
from rules.engine import SelfplayError, acting_player, build_armies, opponent_action
from rules.snapshot import bundle_for

log = logging.getLogger(__name__)

LEVELS = {"random": "Random (any legal action)", "tactical": "Tactical"}
# The computer's account: a name no one can sign up with (a space), which cannot log in.
COMPUTER_USERNAME = "Computer opponent"
COMPUTER_SEAT = 2
# At most this many actions in one wake-up (a game takes a few hundred): a loop is cut short.
MAX_ACTIONS_PER_WAKE = 2000


class PracticeError(services.GameError):
    pass


def computer_user():
    user, created = get_user_model().objects.get_or_create(username=COMPUTER_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


# --- the computer's army ------------------------------------------------------------------


def builtin_factions() -> list[str]:
    """The factions with a built-in list: those whose datasheets the rules data holds."""
    from rules.models import Datasheet

    return sorted(set(Datasheet.objects.values_list("faction__slug", flat=True)) - {None})


def builtin_army(faction: str, edition_slug: str, battle_size: str) -> dict[str, Any]:
    """The faction's built-in list: its self-play army (two troop units, a Leader, a transport;
    `selfplay.build_armies`) with its first detachment, named "<Faction> (built-in list)"."""
    from rules.models import Faction

    factions = builtin_factions()
    if faction not in factions:
        raise PracticeError("army_unknown", "There is no built-in list for that faction.")
    others = [f for f in factions if f != faction]
    bundle = bundle_for(edition_slug, sorted({faction, *others[:1]}))
    try:
        built = build_armies(bundle)
    except SelfplayError as error:
        raise PracticeError("army_unknown", str(error)) from None
    army = next((a for a in built.values() if a["faction"] == faction), None)
    if army is None:
        raise PracticeError("army_unknown", "There is no built-in list for that faction.")
    detachments = sorted(
        d["slug"] for d in bundle.get("detachments", []) if d.get("faction") == faction
    )
    # The self-play army is named by the faction's slug; the player reads the faction's name.
    faction_name = Faction.objects.filter(slug=faction).values_list("name", flat=True).first()
    name = f"{faction_name or faction} (built-in list)"
    return {
        **army,
        "name": name,
        "detachment": detachments[0] if detachments else "",
        "battle_size": battle_size,
    }


def computer_army(user, choice: str, edition_slug: str, mine: Army) -> dict[str, Any]:
    """The army the player chose for the computer: "army:<id>" (one of the player's saved
    armies, of the same battle size as the player's army `mine`) or "builtin:<faction>" (built
    for that battle size)."""
    kind, _, value = choice.partition(":")
    if kind == "army" and value.isdigit():
        army = Army.objects.filter(pk=int(value), owner=user).first()
        if army is None:
            raise PracticeError("army_unknown", "You have no such army.")
        if army.battle_size != mine.battle_size:
            # The game is played at the player's army's battle size; a saved list is built for
            # its own, so the refusal names both armies and both sizes.
            raise PracticeError(
                "battle_size_mismatch",
                f"Your army {mine.name} is {mine.get_battle_size_display()} but the computer's "
                f"army {army.name} is {army.get_battle_size_display()}: choose a computer's army "
                "of your army's battle size, or a built-in list.",
            )
        return armies.army_list(army)
    if kind == "builtin":
        return builtin_army(value, edition_slug, mine.battle_size)
    raise PracticeError("army_unknown", "Choose the computer's army.")


# --- a practice game ----------------------------------------------------------------------


def start_practice_game(
    user,
    *,
    army_id: int,
    computer_choice: str,
    level: str = "tactical",
    ruleset_slug: str | None = None,
    mission: str = "",
) -> Game:
    """Create the game at the battle size of the player's army, seat the computer, pick both
    armies (the player's, then the computer's through the same check) and start it. Nothing is
    kept if any step is refused."""
    from games import matches

    if level not in LEVELS:
        raise PracticeError("unknown_level", "Choose the computer's level: random or tactical.")
    mine = Army.objects.filter(pk=army_id, owner=user).first()
    if mine is None:
        raise PracticeError("army_unknown", "You have no such army.")
    with transaction.atomic():
        game = services.create_game(
            user, ruleset_slug=ruleset_slug, battle_size=mine.battle_size, mission=mission
        )
        game.opponent = computer_user()
        game.computer = level
        game.status = Game.Status.MUSTERING
        game.save(update_fields=["opponent", "computer", "status", "updated"])
        army_list = computer_army(user, computer_choice, game.ruleset.slug, mine)
        matches.pick_army_list(game.pk, COMPUTER_SEAT, army_list)
        matches.pick_army(game.pk, user, army_id)
    return Game.objects.get(pk=game.pk)


# --- the computer's thinking --------------------------------------------------------------


def to_move(game: Game) -> bool:
    from games import live_states

    if not game.computer or game.status not in (Game.Status.DEPLOYMENT, Game.Status.BATTLE):
        return False
    state = live_states.engine_state(game)
    return state is not None and acting_player(state) == COMPUTER_SEAT


def think(game_id: int, pause: float | None = None) -> int:
    """Play the computer's actions while the engine waits for it; returns how many it played.
    Each goes through `matches.apply_action` as seat 2's message would."""
    from games import matches

    pause = settings.PRACTICE_PAUSE_SECONDS if pause is None else pause
    played = 0
    while played < MAX_ACTIONS_PER_WAKE:
        game = (
            Game.objects.filter(pk=game_id).defer("stored_state", "setup", "army_snapshots").first()
        )
        if game is None or not to_move(game):
            return played
        from games import live_states

        state = live_states.engine_state(game)
        try:
            # The engine's pure agent; this runs in the game's worker thread, off the event loop.
            action = opponent_action(state, COMPUTER_SEAT, game.computer)
        except SelfplayError:
            log.exception("the computer found no action", extra={"game_id": game_id})
            return played
        if played and pause:
            time.sleep(pause)
        answer = matches.apply_action(
            game_id, COMPUTER_SEAT, game.version, f"computer-{game.version}", action
        )
        if answer["type"] != "accepted":
            if answer.get("code") == "stale_version":
                continue  # the player set a standing choice meanwhile: look again
            log.warning(
                "the computer's action was refused: %s",
                answer.get("message"),
                extra={"game_id": game_id, "version": game.version},
            )
            return played
        played += 1
    return played


class _Worker:
    def __init__(self) -> None:
        self.again = threading.Event()
        self.thread: threading.Thread | None = None


_workers: dict[int, _Worker] = {}
_lock = threading.Lock()


def wake(game_id: int) -> None:
    """Make the game's computer look whether it is to act: start its thread, or tell the
    running one to look again when it is done."""
    with _lock:
        worker = _workers.get(game_id)
        if worker is not None and worker.thread is not None and worker.thread.is_alive():
            worker.again.set()
            return
        worker = _Worker()
        worker.thread = threading.Thread(
            target=_run, args=(game_id, worker), name=f"computer-{game_id}", daemon=True
        )
        _workers[game_id] = worker
        worker.thread.start()


def _run(game_id: int, worker: _Worker) -> None:
    try:
        while True:
            worker.again.clear()
            close_old_connections()
            try:
                think(game_id)
            except Exception:
                log.exception("the computer's thinking failed", extra={"game_id": game_id})
            with _lock:
                if not worker.again.is_set():
                    _workers.pop(game_id, None)
                    return
    finally:
        connections.close_all()


def thinking(game_id: int) -> bool:
    """Whether the game's computer thread runs (for tests)."""
    with _lock:
        worker = _workers.get(game_id)
        return worker is not None and worker.thread is not None and worker.thread.is_alive()


def wait_idle(game_id: int, timeout: float = 30.0) -> bool:
    """Wait until the game's computer thread has finished (tests)."""
    with _lock:
        worker = _workers.get(game_id)
    if worker is None or worker.thread is None:
        return True
    worker.thread.join(timeout)
    return not worker.thread.is_alive()


def wake_if_to_move(game_id: int) -> None:
    """Wake the game's computer if it is a practice game waiting for it (a player connects)."""
    game = (
        Game.objects.filter(pk=game_id)
        .exclude(computer="")
        .defer("stored_state", "setup", "army_snapshots")
        .first()
    )
    if game is not None and to_move(game):
        wake(game_id)


def games_in_progress() -> list[int]:
    return list(
        Game.objects.exclude(computer="")
        .filter(status__in=(Game.Status.DEPLOYMENT, Game.Status.BATTLE))
        .values_list("pk", flat=True)
    )


def resume_at_start_up() -> None:
    """Run once when a server process starts (tabletop/asgi.py, in a background thread): every
    practice game in progress whose computer is to act resumes."""
    try:
        for game_id in games_in_progress():
            wake(game_id)
    except Exception:  # the server must start even if this fails
        log.exception("resuming the computer's games at start-up failed")
    finally:
        connections.close_all()
