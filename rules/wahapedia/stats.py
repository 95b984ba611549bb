"""Single characteristics as the export prints them, read into the values the data format keeps.

Each reader returns the value or raises `Unreadable` with a reason; the caller decides whether the
field or the whole record is skipped, and reports it. Nothing is guessed.
"""

from __future__ import annotations

import re

from rules.engine import (
    NotationError,
    format_weapon_abilities,
    parse_dice,
    parse_weapon_abilities,
)


class Unreadable(ValueError):
    """A printed value this converter will not interpret."""


def inches(text: str, name: str) -> int | None:
    """`6"` -> 6; `-` (a model that cannot move) -> None. `20+"` (an aircraft) is refused."""
    cleaned = text.strip()
    if cleaned in {"-", ""}:
        return None
    match = re.fullmatch(r'(\d+)\s*"?', cleaned)
    if not match:
        raise Unreadable(f"{name} {cleaned!r} is not a distance in inches")
    return int(match[1])


def number(text: str, name: str) -> int:
    """`4` -> 4. A value with a footnote mark (`5*`) or dice is refused."""
    cleaned = text.strip()
    if not cleaned.isdigit():
        raise Unreadable(f"{name} {cleaned!r} is not a whole number")
    return int(cleaned)


def roll_target(text: str, name: str) -> int:
    """`3+` -> 3 (Sv, Ld, BS/WS). A bare number is read the same way."""
    match = re.fullmatch(r"([2-9])\+?", text.strip())
    if not match:
        raise Unreadable(f"{name} {text.strip()!r} is not a roll target such as 3+")
    return int(match[1])


def skill(text: str) -> int | None:
    """BS/WS: `3` or `3+` -> 3; `N/A` (a weapon that hits automatically) -> None."""
    if text.strip().upper() == "N/A":
        return None
    return roll_target(text, "BS/WS")


def armour_penetration(text: str) -> int:
    """AP as printed: `-1` -> -1, `0` and `-0` -> 0."""
    match = re.fullmatch(r"-?(\d+)", text.strip())
    if not match:
        raise Unreadable(f"AP {text.strip()!r} is not a number such as -1")
    return -int(match[1])


def dice_text(text: str, name: str) -> str:
    """A/D kept as the dice text the format uses (`D6+1`, `2`), checked by the notation parser."""
    cleaned = "".join(text.split()).upper()
    try:
        return str(parse_dice(cleaned))
    except NotationError as error:
        raise Unreadable(f"{name}: {error}") from error


def weapon_range(text: str, melee: bool) -> int | None:
    """`24` or `24"` -> 24; `Melee` -> None."""
    cleaned = text.strip()
    if melee:
        if cleaned not in {"Melee", ""}:
            raise Unreadable(f"melee weapon with range {cleaned!r}")
        return None
    match = re.fullmatch(r'(\d+)\s*"?', cleaned)
    if not match:
        raise Unreadable(f"range {cleaned!r} is not a distance in inches")
    return int(match[1])


def weapon_abilities(text: str) -> list[str]:
    """`anti-infantry 4+, devastating wounds` -> the canonical lower-case list, or `Unreadable`."""
    if not text.strip():
        return []
    try:
        return format_weapon_abilities(parse_weapon_abilities(text))
    except NotationError as error:
        raise Unreadable(f"weapon abilities {text.strip()!r}: {error}") from error


_ROUND = re.compile(r"(\d+(?:\.\d+)?)\s*mm(?: flying base)?")
_OVAL = re.compile(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm(?: flying base)?")
_HULL = {"use model", "hull"}


def _millimetres(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def base(text: str) -> dict:
    """`32mm` -> round; `60 x 35.5mm` -> oval; `Use model` -> hull (the export gives no size).

    A flying base is measured like any other base of its size (its stem does not matter here).
    """
    cleaned = " ".join(text.strip().lower().split())
    if match := _ROUND.fullmatch(cleaned):
        return {"shape": "round", "diameter_mm": _millimetres(match[1])}
    if match := _OVAL.fullmatch(cleaned):
        return {
            "shape": "oval",
            "length_mm": _millimetres(match[1]),
            "width_mm": _millimetres(match[2]),
        }
    if cleaned in _HULL:
        return {"shape": "hull", "length_mm": None, "width_mm": None}
    raise Unreadable(
        f"base size {text.strip()!r} is neither round (32mm), oval (60 x 35mm) nor hull"
    )
