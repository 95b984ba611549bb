"""Test-only set-up of games on the browser tests' daphne database (run in `manage.py shell`).

The online game flow (armies, actions) lives on the server; until a test drives it through the
browser, these helpers play a self-play game with the engine up to a chosen point and store it in
a `Game`, so the page can be shown a real engine state. They are never imported by the product.
"""

from __future__ import annotations

import json
import random

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import public_state
from rules.engine.sequence.game import acting_player, apply, legal_actions, new_game
from rules.engine.tools.selfplay import choose_action, dice_seed, selfplay_setup
from rules.loader import export_rules

# A client further behind than SNAPSHOT_AFTER_MISSED_EVENTS receives the state as a snapshot.
SNAPSHOT_VERSION = 10_000


def play_until(stop, number: int = 3, edition: str = "11e", limit: int = 3000):
    """Self-play from a new game until `stop(state, events)` holds; returns (state, events)."""
    rng = random.Random(number)
    state, events = new_game(selfplay_setup(export_rules(), edition), dice_seed(number))
    for _ in range(limit):
        if stop(state, events) or state["stage"] == "ended":
            # Test set-up: the scenes start from a free phase, so the move a tactical disembark
            # owes (11e 18.04) is waived.
            state["facts"]["phase"].pop("must_move", None)
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
    # The rows may reach a second enemy unit standing beside the first: every unit the engine
    # counts as engaged is marked.
    from rules.engine.battlefield.placement import is_engaged

    engaged = sorted(
        u["id"]
        for u in state["units"].values()
        if u["location"] == "battlefield" and is_engaged(state, u)
    )
    assert {mine["id"], enemy["id"]} <= set(engaged)
    return {"shocked": enemy["id"], "engaged": engaged}


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
    from rules.engine.tools.selfplay import build_armies

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
    from rules.engine.attacks.dice import GeneratorDice
    from rules.engine.attacks.modifiers import Modifier
    from rules.engine.attacks.resolution import resolve_weapon_attacks
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


# --- close combat and turning: a position set up for the browser to act on -------------------

CLOSE_COMBAT_FRONT = 24.5  # the y of the Terminators' row, in the open between the ruins


def _stand(unit: dict, spots: list[tuple[float, float]]) -> None:
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    for model, (x, y) in zip(alive, spots, strict=True):
        model["x"], model["y"], model["facing"] = x, y, 0.0
    unit["location"] = "battlefield"


def face_off(state: dict) -> dict:
    """Player 1's Cadians (two rows) facing player 2's Terminators (one row) in the open east of
    the middle: the Cadians' front row 1" from them (engaged), the back row behind it."""
    cadians = state["units"]["p1-u1"]
    terminators = state["units"]["p2-u1"]
    _stand(terminators, [(35 + 2.0 * i, CLOSE_COMBAT_FRONT) for i in range(5)])
    gap = 1.575 / 2 + 0.984 / 2  # the two bases' radii, in inches
    front = CLOSE_COMBAT_FRONT - gap - 1.0
    back = front - 1.2
    # The Castellan (the last model, a CHARACTER: casualties come from the others first) stands
    # at the end of the front row.
    front_row = [(35 + 1.2 * i, front) for i in range(6)]
    back_row = [(35.6 + 1.2 * i, back) for i in range(5)]
    _stand(cadians, front_row[:5] + back_row + front_row[5:])
    return {"unit": cadians["id"], "enemy": terminators["id"], "front": front, "back": back}


def _advance(state: dict, stop, limit: int = 200) -> dict:
    """Play on with plain choices (decline every offer, fight with the default weapons, end the
    steps and phases) until `stop(state)` holds."""
    for _ in range(limit):
        if stop(state):
            return state
        player = acting_player(state)
        options = legal_actions(state, player)
        order = ("decide", "fight", "end_step", "end_phase")
        candidates = sorted(
            (o for o in options if o["type"] in order), key=lambda o: order.index(o["type"])
        )
        declines = [
            o for o in candidates if o["type"] == "decide" and o.get("choice") in (None, "pass")
        ]
        for option in declines + candidates:
            action = {k: v for k, v in option.items() if k not in ("weapons", "max_distance")}
            if action.get("pile_in") == "optional":
                del action["pile_in"]
            try:
                state, _ = apply(state, action)
            except Refusal:
                continue
            break
        else:
            raise RuntimeError(f"stuck: {options}")
    raise RuntimeError("the position was never reached")


def _step_of(state: dict) -> tuple:
    from rules.engine.phases.fight import current_step

    if state["phase"] != "fight" or state["pending"]:
        return (None, None)
    return current_step(state)


def _store_engine_state(game_id: int, state: dict) -> None:
    """The whole engine state (dice seed included: the server rolls with it), far ahead."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    game.state = state
    game.status = Game.Status.BATTLE
    game.version = SNAPSHOT_VERSION
    game.save()


def store_close_combat_game(game_id: int, step: str = "pile_in") -> dict:
    """Player 1's Fight phase in 11e at the Pile In (or Consolidate) step, with the Cadians
    engaged with the Terminators (`face_off`): player 1 piles in first; with seed 3 only the
    Terminators are left to consolidate."""
    state, _ = play_until(movement_of_player_one)
    placed = face_off(state)
    state = _advance(state, lambda s: _step_of(s)[0] == step)
    _store_engine_state(game_id, state)
    player = _step_of(state)[1]
    mover = state["units"][placed["unit" if player == 1 else "enemy"]]
    models = [m for m in mover["models"] if m["wounds_left"] > 0]
    return {
        **placed,
        "player": player,
        "models": [[m["id"], m["x"], m["y"]] for m in models],
        "half_inch_closer": _half_inch_closer(state, step, mover),
    }


def _half_inch_closer(state: dict, step: str, unit: dict) -> list | None:
    """A model of the unit the server lets move half an inch straight towards the nearest enemy
    model, and where it ends: [model id, x, y] (None when no model can)."""
    enemies = [
        m
        for u in state["units"].values()
        if u["player"] != unit["player"] and u["location"] == "battlefield"
        for m in u["models"]
        if m["wounds_left"] > 0
    ]
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    stand = {m["id"]: [m["x"], m["y"], m.get("facing", 0.0)] for m in alive}
    for model in alive:
        near = min(enemies, key=lambda e: (e["x"] - model["x"]) ** 2 + (e["y"] - model["y"]) ** 2)
        length = ((near["x"] - model["x"]) ** 2 + (near["y"] - model["y"]) ** 2) ** 0.5
        x = round(model["x"] + 0.5 * (near["x"] - model["x"]) / length, 3)
        y = round(model["y"] + 0.5 * (near["y"] - model["y"]) / length, 3)
        positions = {**stand, model["id"]: [x, y, model.get("facing", 0.0)]}
        action = {"type": step, "player": unit["player"], "unit": unit["id"]}
        try:
            apply(state, {**action, "positions": positions})
        except Refusal:
            continue
        return [model["id"], x, y]
    return None


def store_vehicle_to_turn(game_id: int) -> dict:
    """Player 1's Movement phase with the Chimera (a hull base) in the open, facing 0 degrees."""
    state, _ = play_until(movement_of_player_one)
    chimera = next(
        u for u in state["units"].values() if u["player"] == 1 and u["name"] == "Chimera"
    )
    _stand(chimera, [(52.0, 14.0)])
    _store_engine_state(game_id, state)
    model = chimera["models"][0]
    return {"unit": chimera["id"], "model": model["id"], "x": model["x"], "y": model["y"]}


# --- the engine's newer actions and decisions, as the page receives them ----------------------


def _command_phase_with_orders(state, events) -> bool:
    return (
        state["stage"] == "battle"
        and state["phase"] == "command"
        and state["active_player"] == 1
        and not state["pending"]
        and any(a["type"] == "issue_order" for a in legal_actions(state, 1))
    )


def store_orders_game(game_id: int) -> dict:
    """Player 1's Command phase (11e self-play, seed 3), after the Battle-shock step: the Cadian
    Castellan may issue Orders (Voice of Command) as `issue_order` actions."""
    state, _ = play_until(_command_phase_with_orders)
    _store_engine_state(game_id, state)
    orders = [a for a in legal_actions(state, 1) if a["type"] == "issue_order"]
    return {"orders": orders}


def store_grand_strategist_game(game_id: int, number: int = 3) -> dict:
    """The redeployment stage after deployment (11e, seed 3) with the Cadian Castellan bearing
    Grand Strategist (Armoured Infantry): player 1's `select_units` decision is pending."""
    setup = selfplay_setup(export_rules(), "11e")
    for unit in setup["armies"]["1"]["units"]:
        if unit.get("role") == "leader":
            unit["enhancements"] = ["grand-strategist-armoured-infantry"]
    rng = random.Random(number)
    state, _ = new_game(setup, dice_seed(number))
    for _ in range(500):
        if state["pending"] and state["pending"][-1]["kind"] == "select_units":
            break
        for candidate in choose_action(rng, state, acting_player(state)):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            break
    else:
        raise RuntimeError("no select_units decision")
    _store_engine_state(game_id, state)
    return {"decision": state["pending"][-1], "legal": legal_actions(state, 1)}


def store_normal_move_game(game_id: int, unit_id: str = "p1-u1", inches: float = 6.0) -> dict:
    """Player 1's Movement phase with a Normal move out of sequence offered to `unit_id` (the
    `normal_move` decision as `out_of_sequence_moves.offer_normal_move` pushes it for Burst of
    Speed), and a whole-unit shift of 2" the server accepts: [dx, dy]."""
    from rules.engine.core.citations import cite
    from rules.engine.core.events import Context
    from rules.engine.core.state import copy_state
    from rules.engine.phases.out_of_sequence_moves import offer_normal_move

    state, _ = play_until(movement_of_player_one)
    ctx = Context(copy_state(state))
    offer_normal_move(
        ctx, unit_id, inches, source="burst-of-speed", rule=cite(ctx.state, "normal_move")
    )
    ctx.sync_dice()
    state = ctx.state
    unit = state["units"][unit_id]
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    template = legal_actions(state, 1)[0]
    shift = None
    for dx, dy in ((0, 2), (0, -2), (2, 0), (-2, 0)):
        positions = {m["id"]: [m["x"] + dx, m["y"] + dy, m.get("facing", 0.0)] for m in alive}
        try:
            apply(
                state,
                {**{k: template[k] for k in ("type", "player", "decision")}, "choice": positions},
            )
        except Refusal:
            continue
        shift = [dx, dy]
        break
    _store_engine_state(game_id, state)
    return {
        "unit": unit_id,
        "shift": shift,
        "models": [[m["id"], m["x"], m["y"]] for m in alive],
        "legal": legal_actions(state, 1),
    }


def _play_to_decision(setup: dict, kind: str, number: int = 3, limit: int = 800) -> dict:
    rng = random.Random(number)
    state, _ = new_game(setup, dice_seed(number))
    for _ in range(limit):
        if state["pending"] and state["pending"][-1]["kind"] == kind:
            return state
        for candidate in choose_action(rng, state, acting_player(state)):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            break
    raise RuntimeError(f"no {kind} decision")


def store_at_all_costs_game(game_id: int) -> dict:
    """Player 1's army in the Imperialis Fleet detachment (11e self-play, seed 3): at the start of
    its Command phase At all Costs is an `ability_choice` decision (an enemy unit to Eliminate or
    an objective marker to Acquire, or pass)."""
    setup = selfplay_setup(export_rules(), "11e")
    setup["armies"]["1"]["detachment"] = "imperialis-fleet"
    state = _play_to_decision(setup, "ability_choice")
    _store_engine_state(game_id, state)
    return {"decision": state["pending"][-1]}


def _movement_of_player_two(state, events) -> bool:
    return (
        state["stage"] == "battle"
        and state["phase"] == "movement"
        and state["active_player"] == 2
        and not state["pending"]
    )


def store_narthecium_game(game_id: int) -> dict:
    """Player 2's turn (11e self-play, seed 3) with a Brotherhood Terminator (not the CHARACTER)
    destroyed and the first Terminator carrying the Apothecary's narthecium: the
    `return_destroyed_model` decision as `grey_knights.offer_narthecium` pushes it. Also where
    the page first shows the ghost (beside the unit's models) and a spot the server accepts."""
    from rules.engine.core.events import Context
    from rules.engine.core.state import copy_state
    from rules.engine.factions.grey_knights.rules import offer_narthecium

    state, _ = play_until(_movement_of_player_two)
    ctx = Context(copy_state(state))
    unit = next(
        u for u in ctx.state["units"].values() if u["datasheet"] == "brotherhood-terminator-squad"
    )
    unit["models"][0]["wargear_abilities"] = ["Apothecary\u2019s Narthecium"]  # its bearer
    lost = next(m for m in unit["models"] if not m["character"] and m is not unit["models"][0])
    lost["wounds_left"] = 0
    assert offer_narthecium(ctx, None, [])
    state = ctx.state
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    cx = sum(m["x"] for m in alive) / len(alive)
    cy = sum(m["y"] for m in alive) / len(alive)
    ghost = [round(cx + 1.5, 3), round(cy, 3)]
    decision = state["pending"][-1]
    spot = None
    for model in alive:
        for dx, dy in ((0, 2.2), (0, -2.2), (2.2, 0), (-2.2, 0)):
            at = [round(model["x"] + dx, 3), round(model["y"] + dy, 3), 0.0]
            answer = {"type": "decide", "player": 2, "decision": decision["id"]}
            try:
                apply(state, {**answer, "choice": {lost["id"]: at}})
            except Refusal:
                continue
            spot = at[:2]
            break
        if spot:
            break
    _store_engine_state(game_id, state)
    return {"unit": unit["id"], "model": lost["id"], "ghost": ghost, "spot": spot}


def store_teleport_assault_game(game_id: int) -> dict:
    """Player 2's Grey Knights in the Teleport Strike Force (11e self-play, seed 3), the first
    time a unit is removed by Teleport Assault: that unit is off the battlefield waiting to
    arrive, and the `teleport_assault` decision asks for one more unit or done."""

    def removed(state) -> bool:
        return any(u["location"] == "off_battlefield" for u in state["units"].values())

    setup = selfplay_setup(export_rules(), "11e")
    setup["armies"]["2"]["detachment"] = "teleport-strike-force"
    state = _play(setup, removed)
    _store_engine_state(game_id, state)
    unit = next(u for u in state["units"].values() if u["location"] == "off_battlefield")
    return {"unit": unit["id"], "name": unit["name"], "decision": state["pending"][-1]["kind"]}


def store_teleport_arrival_game(game_id: int, prognisticated: bool = False) -> dict:
    """Player 2's Grey Knights in the Teleport Strike Force (11e self-play, seed 3) in their
    Movement phase, nothing pending, with a unit removed by Teleport Assault waiting to arrive
    (its `arrive` template's one way is `teleport_assault`). `prognisticated`: player 2 has then
    used Prognisticated Arrival on it (given the CP), and the `stratagem_arrival` decision asks
    where it is set up."""

    def waiting(state) -> bool:
        return (
            state["stage"] == "battle"
            and state["phase"] == "movement"
            and state["active_player"] == 2
            and not state["pending"]
            and any(u["location"] == "off_battlefield" for u in state["units"].values())
        )

    setup = selfplay_setup(export_rules(), "11e")
    setup["armies"]["2"]["detachment"] = "teleport-strike-force"
    state = _play(setup, waiting)
    unit = next(u for u in state["units"].values() if u["location"] == "off_battlefield")
    if prognisticated:
        state["players"]["2"]["cp"] = max(state["players"]["2"]["cp"], 1)
        use = next(
            a
            for a in legal_actions(state, 2)
            if a["type"] == "use_stratagem"
            and a["stratagem"] == "prognisticated-arrival"
            and a.get("target") == unit["id"]
        )
        state, _ = apply(state, use)
    _store_engine_state(game_id, state)
    top = state["pending"][-1] if state["pending"] else None
    return {"unit": unit["id"], "decision": top["kind"] if top else None}


def _formation(unit: dict, centre: tuple[float, float]) -> dict:
    """The positions the page starts a unit's set-up from, centred on `centre` (game.js
    `formation`: rows of five, half an inch between the widest bases)."""
    models = [m for m in unit["models"] if m["wounds_left"] > 0]

    def half_length(base: dict) -> float:
        size = base["diameter_mm"] if base["shape"] == "round" else base["length_mm"]
        return size / 25.4 / 2

    step = max(2 * half_length(m["base"]) for m in models) + 0.5
    rows = -(-len(models) // 5)
    positions = {}
    for index, model in enumerate(models):
        column, row = index % 5, index // 5
        in_row = min(5, len(models) - row * 5)
        x = centre[0] + (column - (in_row - 1) / 2) * step
        y = centre[1] + (row - (rows - 1) / 2) * step
        positions[model["id"]] = [round(x, 3), round(y, 3), 0.0]
    return positions


def _accepted(state: dict, action: dict) -> bool:
    try:
        apply(state, action)
    except Refusal:
        return False
    return True


def store_deep_strike_arrival_game(game_id: int, rapid_ingress: bool = False) -> dict:
    """Player 2's Brotherhood Terminator Squad (Deep Strike) in strategic reserves in battle
    round 2 (11e self-play, seed 3; a test-only change of the state): in player 2's Movement
    phase its `arrive` template offers an ingress move or Deep Strike. `rapid_ingress`: in
    player 1's Movement phase, which player 1 has ended, and player 2 (given the CP) has used
    Rapid Ingress on it from the window: the `stratagem_arrival` decision offers both ways.
    `spot`: a centre in the open where the page's formation is accepted by Deep Strike and
    refused as an ingress move (far from every edge)."""
    state, _ = play_until(movement_of_player_one if rapid_ingress else _movement_of_player_two)
    unit = next(
        u for u in state["units"].values() if u["datasheet"] == "brotherhood-terminator-squad"
    )
    unit["location"] = "strategic_reserves"
    for model in unit["models"]:
        model["x"] = model["y"] = None
    state["battle_round"] = max(2, state["battle_round"])
    if rapid_ingress:
        state["players"]["2"]["cp"] = max(state["players"]["2"]["cp"], 1)
        end = next(a for a in legal_actions(state, 1) if a["type"] == "end_phase")
        state, _ = apply(state, end)
        use = next(
            a
            for a in legal_actions(state, 2)
            if a["type"] == "decide"
            and isinstance(a["choice"], dict)
            and a["choice"]["stratagem"] == "rapid-ingress-11e"
            and a["choice"]["target"] == unit["id"]
        )
        state, _ = apply(state, use)
    template = next(
        a
        for a in legal_actions(state, 2)
        if a.get("unit") == unit["id"] and (a["type"] == "arrive" or a["choice"] == "positions")
    )
    assert template["methods"] == ["ingress", "deep_strike"], template

    def answer(positions: dict, method: str) -> dict:
        if template["type"] == "arrive":
            return {**template, "positions": positions, "method": method}
        choice = {"positions": positions, "method": method}
        return {"type": "decide", "player": 2, "decision": template["decision"], "choice": choice}

    table = state["mission"]["battlefield"]
    spot = None
    for x in range(14, int(table["width"]) - 13, 2):
        for y in range(14, int(table["depth"]) - 13, 2):
            # A margin of an inch around the spot: the drag lands within it.
            near = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
            deep_strike = (answer(_formation(unit, p), "deep_strike") for p in near)
            ingress = answer(_formation(unit, (x, y)), "ingress")
            if all(_accepted(state, a) for a in deep_strike) and not _accepted(state, ingress):
                spot = [x, y]
                break
        if spot:
            break
    _store_engine_state(game_id, state)
    top = state["pending"][-1] if state["pending"] else None
    return {
        "unit": unit["id"],
        "name": unit["name"],
        "decision": top["kind"] if top else None,
        "spot": spot,
    }


def store_flying_game(game_id: int, unit_id: str = "p1-u1") -> dict:
    """Player 1's Movement phase (11e, seed 3) with the unit given the FLY keyword (a test-only
    change of the state), so its move template offers to take to the skies (11e 21.03); and a
    2" shift of the whole unit the server accepts when it does: [dx, dy]."""
    state, _ = play_until(movement_of_player_one)
    unit = state["units"][unit_id]
    # The template reads the unit's keywords; the move check its models' keywords and the
    # keywords effects grant (as Teleport Shunt grants FLY).
    unit["keywords"] = sorted({*unit["keywords"], "FLY"})
    from rules.engine.core.effects import add_effect
    from rules.engine.core.events import Context

    ctx = Context(state)
    add_effect(ctx, "test-fly", {"unit": unit_id}, {"keyword": "FLY"}, "end_of_turn", 1)
    state = ctx.state
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "move" and a["unit"] == unit_id
    )
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    shift = None
    for dx, dy in ((0, 2), (0, -2), (2, 0), (-2, 0)):
        positions = {m["id"]: [m["x"] + dx, m["y"] + dy, m.get("facing", 0.0)] for m in alive}
        action = {"type": "move", "player": 1, "unit": unit_id, "positions": positions}
        try:
            apply(state, {**action, "take_to_the_skies": True})
        except Refusal:
            continue
        shift = [dx, dy]
        break
    _store_engine_state(game_id, state)
    return {
        "unit": unit_id,
        "template": template,
        "shift": shift,
        "models": [[m["id"], m["x"], m["y"]] for m in alive],
    }


def last_action(game_id: int) -> dict:
    """The last action the server applied in the game (its `action_applied` event)."""
    from games.models import GameEvent

    event = GameEvent.objects.filter(game_id=game_id, kind="action_applied").last()
    return event.payload["action"]


def last_event(game_id: int, kind: str) -> dict:
    """The payload of the game's last event of this kind (`unit_arrived`: the unit and its
    `method`)."""
    from games.models import GameEvent

    event = GameEvent.objects.filter(game_id=game_id, kind=kind).order_by("sequence").last()
    return event.payload if event else {}


def store_climbing_game(game_id: int, unit_id: str = "p1-u1") -> dict:
    """Player 1's Movement phase (11e, seed 3) with the Cadians set up in two rows just outside
    the north edge of a ruin with a height (a test-only placement, like `face_off`), and one
    model's move onto its upper floor the server accepts: [model, x, y, z] (11e 13.06)."""
    state, _ = play_until(movement_of_player_one)
    ruin = next(
        t
        for t in state["mission"]["terrain"]
        if t.get("height", 0) >= 3 and t["kind"] in ("ruin", "ruins")
    )
    xs = [p[0] for p in ruin["footprint"]]
    north = min(p[1] for p in ruin["footprint"])
    unit = state["units"][unit_id]
    left = min(xs) + 1.0
    front = [(left + 1.2 * i, north - 1.3) for i in range(6)]
    back = [(left + 0.6 + 1.2 * i, north - 2.5) for i in range(5)]
    _stand(unit, front + back)
    alive = [m for m in unit["models"] if m["wounds_left"] > 0]
    stand = {m["id"]: [m["x"], m["y"], 0.0] for m in alive}
    climb = None
    for model in alive[:6]:
        x, y, z = model["x"], round(north + 0.6, 3), 3.0
        positions = {**stand, model["id"]: [x, y, 0.0, z]}
        try:
            apply(state, {"type": "move", "player": 1, "unit": unit_id, "positions": positions})
        except Refusal:
            continue
        climb = [model["id"], x, y, z]
        break
    _store_engine_state(game_id, state)
    return {
        "unit": unit_id,
        "climb": climb,
        "start": {m["id"]: [m["x"], m["y"]] for m in alive},
        "height": ruin["height"],
    }


def store_scouts_game(game_id: int) -> dict:
    """The Scouts step before the first battle round (11e self-play, seed 3), with player 2's
    Strike Squad (Scouts 6") led by no CHARACTER, so that it may make a scout move (24.32)."""
    setup = selfplay_setup(export_rules(), "11e")
    for entry in setup["armies"]["2"]["units"]:
        if entry["datasheet"] == "brotherhood-champion":
            entry.pop("attached_to", None)
            entry.pop("role", None)
    state = _play(setup, lambda s: s["stage"] == "scouts")
    _store_engine_state(game_id, state)
    return {"awaiting": state["awaiting"], "legal": legal_actions(state, state["awaiting"])}


def store_set_up_step_game(game_id: int, stage: str, edition: str = "11e") -> dict:
    """A self-played game of `edition` stopped at the set-up `stage` (declare reserves,
    deployment, first_turn) with its player's question open: nothing else pending, or, for the
    first turn, the roll-off winner's choice."""

    def reached(state) -> bool:
        top = state["pending"][-1]["kind"] if state["pending"] else None
        return state["stage"] == stage and top == (
            "choose_first_turn" if stage == "first_turn" else None
        )

    state = _play(selfplay_setup(export_rules(), edition), reached)
    _store_engine_state(game_id, state)
    top = state["pending"][-1] if state["pending"] else None
    return {"awaiting": top["player"] if top else state["awaiting"]}


# --- the table a player wants (issue 15) ------------------------------------------------------


def _twin_setup(seat: str, datasheet: str, detachment: str | None = None) -> dict:
    """Self-play armies (11e) with a second unit of `datasheet` in `seat`'s army, so two units
    share a datasheet name; optionally another detachment."""
    setup = selfplay_setup(export_rules(), "11e")
    army = setup["armies"][seat]
    twin = next(e for e in army["units"] if e["datasheet"] == datasheet)
    army["units"].append({**twin, "key": f"{twin['key']}-twin", "warlord": False})
    if detachment:
        army["detachment"] = detachment
    return setup


def _play(setup: dict, stop, number: int = 3, limit: int = 1500) -> dict:
    rng = random.Random(number)
    state, _ = new_game(setup, dice_seed(number))
    for _ in range(limit):
        if stop(state):
            state["facts"]["phase"].pop("must_move", None)
            return state
        for candidate in choose_action(rng, state, acting_player(state)):
            try:
                state, _ = apply(state, candidate)
            except Refusal:
                continue
            break
    raise RuntimeError("the position was never reached")


def store_window_game(game_id: int) -> dict:
    """Player 1's Astra Militarum in the Combined Arms detachment with two Cadian Shock Troops
    units: at the start of player 2's Command phase player 1 is asked whether to use Inspired
    Command, one option per OFFICER unit and Order."""

    def asked(state) -> bool:
        top = state["pending"][-1] if state["pending"] else None
        return bool(
            top
            and top["kind"] == "stratagem_window"
            and top["player"] == 1
            and any(
                isinstance(o, dict) and o["stratagem"] == "inspired-command" for o in top["options"]
            )
        )

    state = _play(_twin_setup("1", "cadian-shock-troops", "combined-arms"), asked)
    _store_engine_state(game_id, state)
    top = state["pending"][-1]
    return {"decision": top["id"], "options": [o for o in top["options"] if o != "pass"]}


def store_shooting_scene(game_id: int, phase: str = "shooting", reserve: bool = False) -> dict:
    """Player 1's Cadian Shock Troops in the open west of the table facing player 2's two Strike
    Squads (A 8" away, B 16" away); the Terminators far east, out of range; player 1's `phase`
    (movement or shooting) with nothing pending. `reserve`: the Chimera waits in strategic
    reserves and it is battle round 2 at least, so it may arrive."""
    setup = _twin_setup("2", "strike-squad")
    state = _play(setup, lambda s: movement_of_player_one(s, []))
    units = state["units"]
    cadians = next(u for u in units.values() if u["name"] == "Cadian Shock Troops")
    squads = sorted(
        (u for u in units.values() if u["name"].startswith("Strike Squad")), key=lambda u: u["id"]
    )
    terminators = next(u for u in units.values() if u["datasheet"].startswith("brotherhood-t"))
    alive = len([m for m in cadians["models"] if m["wounds_left"] > 0])
    _stand(cadians, [(1.5 + 1.2 * (i % 6), 22.0 + 1.3 * (i // 6)) for i in range(alive)])
    for squad, y in zip(squads, (31.0, 39.0), strict=True):
        count = len([m for m in squad["models"] if m["wounds_left"] > 0])
        _stand(squad, [(2.0 + 1.5 * i, y) for i in range(count)])
    count = len([m for m in terminators["models"] if m["wounds_left"] > 0])
    _stand(terminators, [(50.0 + 1.8 * i, 42.0) for i in range(count)])
    # Test set-up: the scene starts with every unit free to act this turn.
    state["facts"]["phase"]["acted"] = []
    state["facts"]["turn"] = {}
    chimera = next(u for u in units.values() if u["datasheet"] == "chimera")
    if reserve:
        for passenger in units.values():
            if passenger.get("embarked_in") == chimera["id"]:
                passenger.pop("embarked_in")
                _stand(passenger, [(40.0 + 1.2 * i, 4.0) for i in range(len(passenger["models"]))])
        chimera["location"] = "strategic_reserves"
        for model in chimera["models"]:
            model["x"] = model["y"] = None
        state["battle_round"] = max(2, state["battle_round"])
    if phase == "shooting":
        state = _advance(state, lambda s: s["phase"] == "shooting" and not s["pending"])
    _store_engine_state(game_id, state)
    return {
        "shooter": cadians["id"],
        "near": squads[0]["id"],
        "far": squads[1]["id"],
        "names": [squads[0]["name"], squads[1]["name"]],
        "out_of_range": terminators["id"],
        "terminators": terminators["name"],
        "chimera": chimera["id"],
    }


def store_crowded_labels(game_id: int) -> dict:
    """Player 1's Movement phase (11e, seed 3) with every unit on the table standing in a row just
    beside a terrain piece's middle (towards player 2's edge), so that, on player 1's turned
    table, each unit's label would start on that piece's label."""
    state = _play(_twin_setup("2", "strike-squad"), lambda s: movement_of_player_one(s, []))
    pieces = [p for p in state["mission"]["terrain"] if p.get("footprint") or p.get("polygon")]
    units = [
        u
        for u in state["units"].values()
        if u["location"] == "battlefield" and any(m["wounds_left"] > 0 for m in u["models"])
    ]
    crowded = []
    for unit, piece in zip(units, pieces, strict=False):
        corners = piece.get("footprint") or piece["polygon"]
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        count = len([m for m in unit["models"] if m["wounds_left"] > 0])
        _stand(unit, [(cx - 0.6 * (count - 1) + 1.2 * i, cy - 1.2) for i in range(count)])
        crowded.append(unit["id"])
    _store_engine_state(game_id, state)
    return {"units": crowded, "terrain": len(pieces)}


def store_melee_choice_game(game_id: int) -> dict:
    """Player 2's Fight phase (11e) with the Death Riders (who carry a frag lance and a power
    sabre each) engaged with a Strike Squad after a charge: their fight is offered, with a choice
    of melee weapon per rider."""
    from tests.orders_world import COMMISSAR_MODEL, RIDERS, SQUAD_1, am_game, stand
    from tests.stratagem_world import to_phase

    state = am_game()
    stand(state, SQUAD_1, 30.0, 10.0)
    stand(state, RIDERS, 30.0, 12.2)
    state["facts"]["turn"].setdefault("charged", []).append(RIDERS)
    state = to_phase(state, 2, "fight")
    _store_engine_state(game_id, state)
    template = next(a for a in legal_actions(state, 2) if a["type"] == "fight")
    return {
        "unit": RIDERS,
        "enemy": SQUAD_1,
        "choices": template["weapon_choices"],
        "commissar": COMMISSAR_MODEL,
    }
