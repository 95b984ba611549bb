"""Test-only set-up of games on the browser tests' daphne database (run in `manage.py shell`).

The online game flow (armies, actions) lives on the server; until a test drives it through the
browser, these helpers play a self-play game with the engine up to a chosen point and store it in
a `Game`, so the page can be shown a real engine state. They are never imported by the product.
"""

from __future__ import annotations

import json
import random

from rules.engine.game import acting_player, apply, legal_actions, new_game
from rules.engine.refusals import Refusal
from rules.engine.selfplay import choose_action, dice_seed, selfplay_setup
from rules.engine.state import public_state
from rules.loader import export_rules

# A client further behind than SNAPSHOT_AFTER_MISSED_EVENTS receives the state as a snapshot.
SNAPSHOT_VERSION = 10_000


def play_until(stop, number: int = 3, edition: str = "11e", limit: int = 3000):
    """Self-play from a new game until `stop(state, events)` holds; returns (state, events)."""
    rng = random.Random(number)
    state, events = new_game(selfplay_setup(export_rules(), edition), dice_seed(number))
    for _ in range(limit):
        if stop(state, events) or state["stage"] == "ended":
            return state, events
        player = acting_player(state)
        for candidate in choose_action(rng, state, player):
            try:
                state, produced = apply(state, candidate)
            except Refusal:
                continue
            events.extend(produced)
            break
    return state, events


def battle_over(state, events) -> bool:
    return state["stage"] == "ended"


def movement_of_player_one(state, events) -> bool:
    """Player 1's Movement phase, with a unit of round bases (not a TRANSPORT) on the table."""
    return (
        state["stage"] == "battle"
        and state["phase"] == "movement"
        and state["active_player"] == 1
        and not state["pending"]
        and any(
            u["player"] == 1
            and u["location"] == "battlefield"
            and u["models"][0]["base"]["shape"] == "round"
            for u in state["units"].values()
        )
    )


def shock_and_engage(state) -> dict:
    """For display tests: mark player 2's first unit battle-shocked (the effect as effects.py
    writes it) and set player 1's first unit base to base with it, so both are engaged."""
    enemy = next(
        u for u in state["units"].values() if u["player"] == 2 and u["location"] == "battlefield"
    )
    mine = next(
        u
        for u in state["units"].values()
        if u["player"] == 1
        and u["location"] == "battlefield"
        and u["models"][0]["base"]["shape"] == "round"
    )
    state["effects"].append(
        {
            "id": f"e{state['next_effect_id']}",
            "source": "battle_shock_test",
            "selector": {"unit": enemy["id"]},
            "modifier": {"status": "battle_shocked"},
            "duration": "start_of_next_command_phase",
            "started_at": state["version"],
        }
    )
    state["next_effect_id"] += 1
    target = enemy["models"][0]
    for index, model in enumerate(mine["models"]):
        model["x"] = target["x"] + (index % 5) * 1.2 - 2.4
        model["y"] = target["y"] - 1.5 - (index // 5) * 1.2
    return {"shocked": enemy["id"], "engaged": [mine["id"], enemy["id"]]}


def store_snapshot_game(
    game_id: int, stop=movement_of_player_one, number: int = 3, marks: bool = False
) -> dict:
    """Store a played state in the game, far enough ahead that a new client gets a snapshot."""
    from games.models import Game

    state, _ = play_until(stop, number=number)
    marked = shock_and_engage(state) if marks else {}
    game = Game.objects.get(pk=game_id)
    game.state = public_state(state)
    game.status = {"battle": Game.Status.BATTLE, "ended": Game.Status.FINISHED}.get(
        state["stage"], Game.Status.DEPLOYMENT
    )
    game.winner = state["winner"]
    game.version = SNAPSHOT_VERSION
    game.save()
    return {"units": len(state["units"]), "phase": state["phase"], **marked}


def store_event_log(game_id: int, stop=battle_over, number: int = 3) -> dict:
    """Store a played game's events as the game's log (what `sync` sends), without a state."""
    from games.models import Game, GameEvent

    state, events = play_until(stop, number=number)
    game = Game.objects.get(pk=game_id)
    GameEvent.objects.bulk_create(
        GameEvent(game=game, sequence=index, kind=event["type"], payload=event)
        for index, event in enumerate(events, start=1)
    )
    game.version = len(events)
    game.status = Game.Status.BATTLE
    game.save()
    rolls = [e for e in events if e["type"] in ("dice_rolled", "dice_rerolled")]
    # An attack step's row (its dice-tray record) takes the place of its dice's own row; a roll
    # that succeeds without dice has a row of its own.
    steps = [e for e in events if e["type"] == "attack_step"]
    stepped = {e["roll"] for e in steps if e["roll"]}
    automatic = [e for e in events if e["type"] == "roll_automatic"]
    rows = len([r for r in rolls if r["roll"] not in stepped]) + len(steps) + len(automatic)
    return {"events": len(events), "rolls": len(rolls), "rows": rows}


if __name__ == "__main__":  # for a quick look at a state: python -m tests.browser.table_fixtures
    import django

    django.setup()
    state, events = play_until(movement_of_player_one)
    print(json.dumps({"state": public_state(state), "legal": legal_actions(state, 1)})[:2000])


def store_saved_armies(
    usernames: list[str], edition: str = "11e", detachments: dict[str, str] | None = None
) -> dict:
    """Give each player a saved army (the self-play armies: valid Incursion lists of the seeds),
    with the detachment `detachments` names for its faction (or the faction's first)."""
    from django.contrib.auth import get_user_model

    from games.models import Army
    from rules.engine.selfplay import build_armies

    rules = export_rules()
    armies = build_armies(rules)
    saved = {}
    for seat, username in enumerate(usernames, start=1):
        army = armies[str(seat)]
        # A saved army names its detachment (army validation); the faction's first will do.
        detachment = (
            (detachments or {}).get(army["faction"])
            or army.get("detachment")
            or next(d["slug"] for d in rules["detachments"] if d["faction"] == army["faction"])
        )
        record = Army.objects.create(
            owner=get_user_model().objects.get(username=username),
            name=army["name"],
            faction=army["faction"],
            detachment=detachment,
            units=army["units"],
        )
        saved[username] = {"id": record.pk, "name": record.name}
    return saved


def store_attack_records(game_id: int, seed: int = 5) -> dict:
    """Append one real attack's dice-tray records (docs/attacks.md, `AttackResult.events`) to the
    game's log: ten storm bolter shots at a 3+ save, [SUSTAINED HITS 1], re-rolled 1s to hit."""
    from games.models import Game, GameEvent
    from rules.engine.attack_dice import GeneratorDice
    from rules.engine.attack_modifiers import Modifier
    from rules.engine.attack_resolution import resolve_weapon_attacks
    from tests.attack_helpers import attacker, context, unit, weapon

    ctx = context(modifiers=(Modifier("hit", "reroll", "ones"),))
    result = resolve_weapon_attacks(
        GeneratorDice(seed),
        1,
        attacker(weapon(["sustained hits 1"], attacks="2"), models=5),
        unit(10, toughness=4, save=3),
        ctx,
    )
    game = Game.objects.get(pk=game_id)
    records = result.events()
    for offset, record in enumerate(records, start=game.version + 1):
        GameEvent.objects.create(
            game=game,
            sequence=offset,
            kind="attack_step",
            payload={"type": "attack_step", **record},
        )
    game.version += len(records)
    game.save()
    return {"records": records}
