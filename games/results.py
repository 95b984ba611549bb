"""The result of a game, read from its event log: who won and how, victory points per battle
round, units destroyed, command points spent, and the check of every die against the revealed
seed. Reads only: nothing here changes a game."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games.models import Game, GameEvent
from rules.engine import derive_die, seed_commitment

CONCEDED = "game_conceded"
# The events the summary reads; the rest of a long log is never loaded.
SUMMARY_KINDS = (
    "battle_round_started",
    "victory_points_scored",
    "unit_destroyed",
    "command_points_spent",
    CONCEDED,
)
DICE_KINDS = ("dice_rolled", "dice_rerolled")
SEATS = ("1", "2")


def ended_by(game: Game) -> str | None:
    """How a finished game ended: `concession`, `tabled` (the loser has no unit left on the
    battlefield) or `victory_points`; None while it goes on (or when it was abandoned)."""
    if game.status != Game.Status.FINISHED:
        return None
    if game.events.filter(kind=CONCEDED).exists():
        return "concession"
    loser = {1: "2", 2: "1"}.get(game.winner)
    units = (game.state or {}).get("units", {}).values()
    if (
        loser
        and units
        and not any(u["player"] == int(loser) and u.get("location") == "battlefield" for u in units)
    ):
        return "tabled"
    return "victory_points"


def _names(game: Game) -> dict[str, str | None]:
    return {
        "1": game.creator.get_username(),
        "2": game.opponent.get_username() if game.opponent else None,
    }


def summary(game: Game) -> dict[str, Any]:
    """Everything the result screen shows, per seat ("1", "2")."""
    rounds: list[int] = []
    vp_by_round: dict[str, dict[int, int]] = {seat: defaultdict(int) for seat in SEATS}
    primary_by_round: dict[str, dict[int, int]] = {seat: defaultdict(int) for seat in SEATS}
    destroyed = {seat: 0 for seat in SEATS}
    cp_spent = {seat: 0 for seat in SEATS}
    conceded_by = None
    current_round = 0
    primary_name = ((game.setup or {}).get("mission") or {}).get("primary", {}).get("name")
    events = game.events.filter(kind__in=SUMMARY_KINDS).order_by("sequence")
    for event in events.values_list("kind", "payload"):
        kind, payload = event
        if kind == "battle_round_started":
            current_round = payload["battle_round"]
            rounds.append(current_round)
        elif kind == "victory_points_scored":
            seat = str(payload["player"])
            vp_by_round[seat][current_round] += payload["amount"]
            if payload.get("source") == primary_name or primary_name is None:
                primary_by_round[seat][current_round] += payload["amount"]
        elif kind == "unit_destroyed":
            # Counted for the player who destroyed it: the other one.
            destroyed["2" if str(payload["player"]) == "1" else "1"] += 1
        elif kind == "command_points_spent":
            cp_spent[str(payload["player"])] += payload.get("amount", 0)
        elif kind == CONCEDED:
            conceded_by = payload["player"]
    players = (game.state or {}).get("players", {})

    def per_round(table: dict[str, dict[int, int]]) -> dict[str, list[int]]:
        return {seat: [table[seat].get(r, 0) for r in rounds] for seat in SEATS}

    return {
        "status": game.status,
        "winner": game.winner,
        "ended_by": ended_by(game),
        "conceded_by": conceded_by,
        "players": _names(game),
        "rounds": rounds,
        "vp": {seat: players.get(seat, {}).get("vp", 0) for seat in SEATS},
        "vp_by_round": per_round(vp_by_round),
        "primary_name": primary_name,
        "primary_vp_by_round": per_round(primary_by_round),
        "units_destroyed": destroyed,
        "cp_spent": cp_spent,
        "seed_commitment": game.seed_commitment,
        "dice_seed": game.dice_seed if game.is_over else None,
    }


def verify_dice(game: Game) -> dict[str, Any]:
    """Re-derive every die of the log from the revealed seed (rules/engine/dice.py): how many
    match, the first that do not, whether the seed matches the commitment published before the
    battle and whether the dice were drawn in order (0, 1, 2, ... each once)."""
    if not game.is_over:
        return {"available": False, "message": "The dice seed is revealed when the game ends."}
    seed = game.dice_seed
    checked = matched = 0
    mismatches: list[dict[str, Any]] = []
    used: list[int] = []
    rows = GameEvent.objects.filter(game=game, kind__in=DICE_KINDS).order_by("sequence")
    for sequence, kind, payload in rows.values_list("sequence", "kind", "payload"):
        if kind == "dice_rolled":
            fresh = list(zip(payload["indices"], payload["values"], strict=True))
        else:
            fresh = [(payload["indices"][p], payload["values"][p]) for p in payload["positions"]]
        for index, value in fresh:
            used.append(index)
            checked += 1
            expected = derive_die(seed, index, payload["sides"])
            if value == expected:
                matched += 1
            elif len(mismatches) < 20:
                mismatches.append(
                    {"sequence": sequence, "index": index, "shown": value, "derived": expected}
                )
    commitment_matches = seed_commitment(seed) == game.seed_commitment
    in_order = used == list(range(len(used)))
    words = [f"{matched} of {checked} dice match the dice derived from the revealed seed."]
    words.append(
        "The seed matches the commitment published before the battle."
        if commitment_matches
        else "The seed does NOT match the commitment published before the battle."
    )
    if not in_order:
        words.append("The dice were not drawn in order 0, 1, 2, … each once.")
    return {
        "available": True,
        "seed": seed,
        "commitment_matches": commitment_matches,
        "dice": checked,
        "matched": matched,
        "in_order": in_order,
        "mismatches": mismatches,
        "all_match": matched == checked and commitment_matches and in_order,
        "message": " ".join(words),
    }


def vp_chart(summary: dict[str, Any], width: int = 260, height: int = 120) -> dict[str, Any]:
    """The victory points each player held at the end of each battle round, as the points of a
    small SVG line chart (x: battle round, y: VP so far) for the result screen."""
    rounds = summary["rounds"]
    totals = {}
    for seat in SEATS:
        running, points = 0, [0]
        for amount in summary["vp_by_round"][seat]:
            running += amount
            points.append(running)
        totals[seat] = points
    top = max([1, *(v for points in totals.values() for v in points)])
    margin = 20
    step = (width - 2 * margin) / max(1, len(rounds))

    def at(index: int, value: int) -> tuple[float, float]:
        return (
            round(margin + index * step, 1),
            round(height - margin - value * (height - 2 * margin) / top, 1),
        )

    lines = [
        {
            "seat": seat,
            "points": " ".join(f"{x},{y}" for x, y in (at(i, v) for i, v in enumerate(values))),
            "final": values[-1],
        }
        for seat, values in totals.items()
    ]
    ticks = [{"round": r, "x": at(i + 1, 0)[0]} for i, r in enumerate(rounds)]
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "ticks": ticks,
        "top": top,
        "top_y": at(0, top)[1],
        "base_y": at(0, 0)[1],
        "left": margin,
        "right": width - margin,
    }
