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
    """A name in the singular for comparison: `Veteran Guardsmen` and `VETERAN GUARDSMAN`,
    `Beast Snagga Boyz` and `BEAST SNAGGA BOY` are one name."""
    words = re.sub(r"[^a-z0-9 ]", "", name.lower()).split()
    return " ".join(_singular(word) for word in words)


def _singular(word: str) -> str:
    if word.endswith("men"):
        return word[:-3] + "man"
    if word.endswith("yz"):
        return word[:-1]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def fallback_counts(profile_names: list[str], sizes: list[int]) -> dict[str, tuple[int, int]]:
    """Model counts when the composition cannot be read per profile: the unit's sizes (from its
    points lines) are what the export means by a missing minimum. The first profile takes one
    model at least and every model up to the largest size; further profiles may take up to the
    largest size less the first's one."""
    low, high = (min(sizes), max(sizes)) if sizes else (1, 1)
    if len(profile_names) == 1:
        return {profile_names[0]: (low, high)}
    counts = {profile_names[0]: (1, high)}
    for name in profile_names[1:]:
        counts.setdefault(name, (0, max(high - 1, 0)))
    return counts


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
