"""Provably fair game dice, derived from the game's secret seed with a version-stable function.

Die number n (counting from 0) of a game is derived as follows, so that anyone holding the revealed
seed can re-derive every die in the log with nothing but HMAC-SHA256:

    digest = HMAC-SHA256(key=seed, message=f"{n}:{attempt}".encode("ascii"))
    value  = int.from_bytes(digest[:8], "big")
    accept the first attempt (0, 1, 2, ...) with value < 2**64 - (2**64 % sides);
    the die shows 1 + value % sides

The rejection step removes the modulo bias, so every face is exactly equally likely. Before the
battle the server publishes `seed_commitment(seed)` (SHA-256 of the seed); at the end it reveals
the seed. `docs/verify_dice.py` is the stand-alone verifier.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

_SPACE = 2**64


def new_seed() -> str:
    """A fresh secret seed for a game, as 64 hexadecimal characters."""
    return secrets.token_hex(32)


def seed_commitment(seed: str) -> str:
    """What the server publishes at the start: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def derive_die(seed: str, index: int, sides: int = 6) -> int:
    """The value of die number `index` of the game with this seed."""
    if sides < 2:
        raise ValueError("a die has at least two sides")
    limit = _SPACE - (_SPACE % sides)
    key = seed.encode("ascii")
    attempt = 0
    while True:
        digest = hmac.new(key, f"{index}:{attempt}".encode("ascii"), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return 1 + value % sides
        attempt += 1


class DiceStream:
    """The game's dice in order: each draw takes the next index, so a replay draws the same dice.

    The stream's position is part of the game state (`next_index`); the engine records every
    die it draws in an event, with its index, so the log alone shows every outcome.
    """

    __slots__ = ("seed", "next_index")

    def __init__(self, seed: str, next_index: int = 0) -> None:
        self.seed = seed
        self.next_index = next_index

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        values = [derive_die(self.seed, self.next_index + i, sides) for i in range(count)]
        self.next_index += count
        return values
