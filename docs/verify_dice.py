#!/usr/bin/env python3
"""Verify every die of a Strategium game: stand-alone, standard library only.

Usage: python verify_dice.py GAME_LOG.json [--seed SEED]

The log is the JSON a game exports (`manage.py selfplay --log FILE`, or the game's export). The
seed is revealed at the end of the battle (the log's `seed`, or the `battle_ended` event's `seed`,
or give it with --seed). The script checks that:

1. SHA-256 of the seed equals the commitment published before the battle (`seed_commitment`);
2. every die in every `dice_rolled` / `dice_rerolled` event equals the die derived from the seed:
       digest = HMAC-SHA256(key=seed, message=f"{index}:{attempt}")
       value  = first 8 bytes of digest, big-endian; accept the first attempt with
                value < 2**64 - (2**64 % sides); the die shows 1 + value % sides
3. the dice were drawn in order: indices 0, 1, 2, ... each used once, none skipped.

Exit status 0 when everything checks, 1 otherwise (with the first problems printed).
"""

import argparse
import hashlib
import hmac
import json
import sys

SPACE = 2**64


def derive_die(seed: str, index: int, sides: int) -> int:
    limit = SPACE - (SPACE % sides)
    attempt = 0
    while True:
        message = f"{index}:{attempt}".encode("ascii")
        digest = hmac.new(seed.encode("ascii"), message, hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return 1 + value % sides
        attempt += 1


def verify(log: dict, seed: str | None = None) -> list[str]:
    problems = []
    events = log.get("events", [])
    if seed is None:
        seed = log.get("seed") or next(
            (e.get("seed") for e in events if e.get("type") == "battle_ended"), None
        )
    if not seed:
        return ["no revealed seed: give it with --seed"]
    commitment = log.get("seed_commitment") or next(
        (e.get("seed_commitment") for e in events if e.get("type") == "game_created"), None
    )
    if hashlib.sha256(seed.encode("ascii")).hexdigest() != commitment:
        problems.append("the seed does not match the published commitment")
    used = []
    for number, event in enumerate(events):
        if event.get("type") == "dice_rolled":
            fresh = list(zip(event["indices"], event["values"], strict=True))
        elif event.get("type") == "dice_rerolled":
            fresh = [(event["indices"][p], event["values"][p]) for p in event["positions"]]
        else:
            continue
        for index, value in fresh:
            used.append(index)
            expected = derive_die(seed, index, event["sides"])
            if value != expected:
                problems.append(
                    f"event {number} ({event.get('purpose')}): die {index} shows {value}, "
                    f"the seed gives {expected}"
                )
    if used != list(range(len(used))):
        problems.append("dice were not drawn in order 0, 1, 2, ... each once")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--seed")
    arguments = parser.parse_args()
    with open(arguments.log, encoding="utf-8") as handle:
        log = json.load(handle)
    problems = verify(log, arguments.seed)
    dice = sum(
        len(e["indices"]) if e["type"] == "dice_rolled" else len(e["positions"])
        for e in log.get("events", [])
        if e.get("type") in ("dice_rolled", "dice_rerolled")
    )
    if problems:
        print("\n".join(problems[:20]))
        return 1
    print(f"ok: {dice} dice verified against the revealed seed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
