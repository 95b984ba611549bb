"""Compatibility games: self-played games on both editions recorded with the engine as it was,
kept compactly (`tests/data/compat/selfplay.json.gz`) so that a change meant to keep behaviour
(the package layout of issue 13) can prove it did: each game replays to the same events and the
same final state hash.

Record them again (only when a change of behaviour is intended, with a note in `NOTES` saying why):

    .venv/bin/python -m tests.compat_games

The file also keeps states saved part-way through one game (a stratagem window or another decision
pending) with the actions that follow them: games saved by an older engine must stay loadable.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

from rules.engine.sequence.game import apply, new_game
from rules.engine.tools.selfplay import selfplay

ROOT = Path(__file__).resolve().parent.parent
COMPAT_FILE = ROOT / "tests" / "data" / "compat" / "selfplay.json.gz"
FORMAT = "strategium-compat/1"
GAMES = {"plain": range(0, 4), "stratagems": range(1, 5)}
EDITIONS = ("11e", "10e")
# Why the recording was last redone (a change of behaviour that was meant).
NOTES = [
    "Recorded before the package layout of issue 13 (engine as of commit a560682).",
    "Recorded again for issue 14 (rules as printed): Command Re-roll windows after the attack "
    "sequence's rolls, 11e assault shooting after an advance, 11e one stratagem per unit per "
    "phase, the fight order per edition, 11e objective markers, Epic Challenge on one model.",
    "Recorded again for issue 15 (the table a player wants), a change meant: units that share a "
    "datasheet name get a letter at the muster ('Cadian Shock Troops A', 'B') and every model a "
    "label, so states, prompts and events name them apart.",
    "Recorded again for issue 14 (Command Re-roll on every roll), a change meant: a window after "
    "each attack's damage roll, and by default Command Re-roll asked about only after a roll with "
    "a failed die (rulings R-ST-32), so the self-played games answer other windows.",
    "Recorded again for issue 14 (defect 22, rulings R-GK-04), a change meant: a unit removed by "
    "Teleport Assault or Rapid Tactical Relocation is set up in its player's next Movement phase "
    "or counts as destroyed; the self-play agent sets such a unit up first in that phase.",
    "Recorded again for issue 14's audit (rulings R-ENG-07, R-OW-15), a change meant: strategic "
    "reserves are limited by points (11e 50%, 10e 25% of the points limit) and the self-play "
    "agent picks them within it; [PRECISION] reaches only a CHARACTER an attacker sees.",
    "Recorded again for issue 14's audit of the faction rulings (R-CB-10, R-AM-09), a change "
    "meant: the rule set parameter `stealth` (10e Stealth is -1 to hit, not cover) is in every "
    "rule set record and saved state, so the recorded set-ups and state hashes change.",
    "Recorded again for issue 14's follow-up (rulings R-OW-15, R-GK-08, R-AM-09, 'Which model "
    "takes an attack in 10e'), a change meant: the rule set parameter "
    "`precision_needs_attached_unit` (10e [PRECISION] only against an Attached unit) is in every "
    "rule set record and saved state; 10e attacks go to a bodyguard model before a wounded "
    "CHARACTER; Battlefield Command may target an attached Leader; Creeping Barrage beyond its "
    "maximum asks the Siege Regiment player.",
    "Recorded again for the review's wording point, a change of words only: an attack step's "
    "dice-tray summary puts a count of one in the singular ('1 hit roll, BS 3+: 1 hit', was "
    "'1 hit rolls ... 1 hits'), so the events digests change; no rule changed.",
    "Recorded again for the core rules scenarios (rulings R-CB-14), a change meant: the rule set "
    "parameter `fight_through_base_contact` (10e: a model in base contact with a friend in base "
    "contact with the enemy fights) is in every rule set record and saved state, and 10e fights "
    "make those models' attacks.",
    "Recorded again for the core rules scenarios (rulings R-ENG-14), a change meant: the rule set "
    "parameter `attached_abilities_shared` (11e 19.04 shares an attached unit's abilities, 10e "
    "keeps them per model) is in every rule set record and saved state.",
    "Recorded again for the core rules scenarios (rulings R-CB-06), a change meant: a normal or "
    'advance move of at most 3" sets the turn flag `moved_within_3` (11e [HEAVY] stays braced), '
    "so the events and saved states of games with such moves change.",
    "Recorded again for the core rules scenarios (rulings R-MV-21), a change meant: the rule set "
    "parameter `monster_vehicle_moves_through_models` (11e 17.01) is in every rule set record "
    "and saved state.",
    "Recorded again for the core rules scenarios (rulings R-MV-22), a change meant: units not "
    "selected in the Movement phase are flagged as having remained stationary when it ends.",
    "Recorded again for the core rules scenarios (rulings R-ENG-16), a change meant: an attached "
    "unit loses the keywords of a destroyed Leader, so the stratagems offered to it change.",
    "Recorded again for the 11e command points (rulings R-CP-01), a change meant: the rule set "
    "strategy `extra_command_points` is in every rule set record and saved state, and 11e keeps "
    "every CP gained through rules (no cap of 1 a battle round).",
]


def events_digest(events: list[dict[str, Any]]) -> str:
    text = json.dumps(events, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bundles() -> dict[str, dict[str, Any]]:
    from tests.engine_world import BUNDLE
    from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE

    return {"plain": BUNDLE, "stratagems": STRATAGEM_BUNDLE}


def load() -> dict[str, Any]:
    return json.loads(gzip.decompress(COMPAT_FILE.read_bytes()))


def replay_game(record: dict[str, Any], setup: dict[str, Any]):
    state, events = new_game(setup, record["seed"])
    for action in record["actions"]:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def replayed_states(recorded: dict[str, Any], number: int, every: int = 1):
    """Recorded game `number` played again: (index, state) after each action whose index is a
    multiple of `every`, for tests that compare answers over the states of real games."""
    record = recorded["games"][number]
    state, _ = new_game(recorded["setups"][record["setup"]], record["seed"])
    for index, action in enumerate(record["actions"]):
        state, _ = apply(state, action)
        if index % every == 0:
            yield index, state


def _saved_states(setup, record) -> list[dict[str, Any]]:
    """Three states part-way through a game, each with a decision pending, and where they are."""
    state, _ = new_game(setup, record["seed"])
    saved = []
    kinds: set[str] = set()
    for index, action in enumerate(record["actions"]):
        pending = state.get("pending") or []
        if pending and pending[-1]["kind"] not in kinds and len(saved) < 3:
            kinds.add(pending[-1]["kind"])
            saved.append({"after_actions": index, "state": json.loads(json.dumps(state))})
        state, _ = apply(state, action)
    return saved


def record() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    setups: dict[str, Any] = {}
    games = []
    for name, bundle in bundles().items():
        for edition in EDITIONS:
            key = f"{name}/{edition}"
            for number in GAMES[name]:
                summary, log = selfplay(bundle, number, edition)
                setups.setdefault(key, log["setup"])
                assert log["setup"] == setups[key]
                games.append(
                    {
                        "setup": key,
                        "number": number,
                        "seed": log["seed"],
                        "actions": log["actions"],
                        "events": len(log["events"]),
                        "events_digest": events_digest(log["events"]),
                        "state_hash": summary["state_hash"],
                    }
                )
    longest = max(
        (g for g in games if g["setup"] == "stratagems/11e"), key=lambda g: len(g["actions"])
    )
    saved = {
        "game": games.index(longest),
        "states": _saved_states(setups[longest["setup"]], longest),
    }
    data = {
        "format": FORMAT,
        "recorded_at_commit": commit,
        "notes": NOTES,
        "setups": setups,
        "games": games,
        "saved": saved,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    COMPAT_FILE.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return data


if __name__ == "__main__":
    recorded = record()
    print(
        f"{len(recorded['games'])} games, {len(recorded['saved']['states'])} saved states, "
        f"{COMPAT_FILE.stat().st_size} bytes"
    )
