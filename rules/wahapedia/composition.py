"""Unit composition and points: how many models of which kind, and what each unit size costs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.wahapedia.text import clean_text

_EPIC_HERO = re.compile(r"\s*[–-]\s*EPIC HERO\s*$", re.IGNORECASE)
_ITEM = re.compile(r"(\d+)(?:\s*-\s*(\d+))?\s+(.+?)\s*\**$")


@dataclass(frozen=True)
class CompositionItem:
    minimum: int
    maximum: int
    name: str


def composition_lines(descriptions: list[str]) -> list[str]:
    """The printed lines, cleaned: `1 Vindicare Assassin – EPIC HERO`, `OR`, `4-9 Interceptors`."""
    return [clean_text(description) for description in descriptions if clean_text(description)]


def composition_alternatives(lines: list[str]) -> list[list[CompositionItem]] | None:
    """The unit's possible compositions (lines separated by `OR`), or None when not readable.

    `1 Shock Trooper Sergeant and 9 Shock Troopers` is two items of one alternative.
    """
    alternatives: list[list[CompositionItem]] = [[]]
    for line in lines:
        if line.strip().upper() == "OR":
            alternatives.append([])
            continue
        for part in re.split(r",\s*|\s+and\s+", _EPIC_HERO.sub("", line)):
            match = _ITEM.fullmatch(part.strip())
            if not match:
                return None
            minimum = int(match[1])
            maximum = int(match[2]) if match[2] else minimum
            alternatives[-1].append(CompositionItem(minimum, maximum, match[3]))
    if any(not items for items in alternatives):
        return None
    return alternatives


def _stem(name: str) -> str:
    words = re.sub(r"[^a-z0-9 ]", "", name.lower()).split()
    return " ".join(word[:-1] if word.endswith("s") else word for word in words)


def model_counts(
    profile_names: list[str], alternatives: list[list[CompositionItem]]
) -> dict[str, tuple[int, int]] | None:
    """Minimum and maximum models each stat line covers over all alternatives, or None.

    With one stat line every model uses it; with several, each composition item must name one of
    them (singular or plural) or the counts are not readable.
    """
    counts: dict[str, tuple[int, int]] = {}
    for name in profile_names:
        per_alternative = []
        for items in alternatives:
            matched = [item for item in items if _matches(name, item.name, profile_names)]
            per_alternative.append(
                (sum(item.minimum for item in matched), sum(item.maximum for item in matched))
            )
        counts[name] = (
            min(low for low, _ in per_alternative),
            max(high for _, high in per_alternative),
        )
    if len(profile_names) > 1:
        for items in alternatives:
            for item in items:
                if not any(_matches(name, item.name, profile_names) for name in profile_names):
                    return None
    return counts


def _matches(profile: str, item: str, profile_names: list[str]) -> bool:
    if len(profile_names) == 1:
        return True
    return _stem(profile) == _stem(item)


_POINTS = re.compile(r"(\d+)\s+models?\b(?:\s*\((?P<qualifier>.+)\))?\s*$", re.IGNORECASE)


def points_models(description: str) -> tuple[int, str | None] | None:
    """`10 models` -> (10, None); `6 models (AGENTS OF THE IMPERIUM Detachment)` -> (6, that text);
    `1 Spanner and 4 Burna Boyz` -> (5, None). None when no count is printed."""
    text = clean_text(description)
    if match := _POINTS.fullmatch(text):
        return int(match[1]), match["qualifier"]
    parts = re.split(r",\s*|\s+and\s+", text)
    counts = [re.fullmatch(r"(\d+)\s+\D+", part.strip()) for part in parts]
    if parts and all(counts):
        return sum(int(count[1]) for count in counts), None
    return None
