"""Faction-wide rules of the export: faction abilities, detachments, stratagems, enhancements."""

from __future__ import annotations

import re

from rules.wahapedia.export import Row, SkippedRow
from rules.wahapedia.stats import Unreadable
from rules.wahapedia.text import clean_text, upper_keyword
from rules.wahapedia.timing import stratagem_limit, stratagem_when

_SECTIONS = re.compile(r"<b>\s*(WHEN|TARGET|EFFECT|RESTRICTIONS)\s*:\s*</b>", re.IGNORECASE)
_PLAIN_SECTIONS = re.compile(r"(?:^|\n)\s*(WHEN|TARGET|EFFECT|RESTRICTIONS)\s*:", re.IGNORECASE)


def faction_ability(row: Row, *, slug: str, faction: str, source: str) -> dict:
    return {
        "slug": slug,
        "name": clean_text(row["name"]),
        "kind": "faction",
        "edition": None,
        "faction": faction,
        "text": clean_text(row["description"]),
        "source": source,
    }


def detachment(row: Row, rules: list[Row], *, slug: str, faction: str, source: str) -> dict:
    return {
        "slug": slug,
        "name": clean_text(row["name"]),
        "faction": faction,
        "rules": [
            {
                "name": clean_text(rule["name"]),
                "text": clean_text(rule["description"]),
                "source": source_of(source, "detachment ability", rule["id"]),
            }
            for rule in rules
        ],
        "source": source,
    }


def source_of(source: str, kind: str, identity: str) -> str:
    """`Wahapedia export 2026-02-14, datasheet 1` from the prefix of another record's source."""
    return f"{source.split(',')[0]}, {kind} {identity}"


def stratagem_sections(description: str) -> dict[str, str]:
    """WHEN/TARGET/EFFECT/RESTRICTIONS texts of a printed stratagem, cleaned."""
    text = clean_text(_SECTIONS.sub(lambda match: f"\n{match[1].upper()}:", description))
    parts = _PLAIN_SECTIONS.split("\n" + text)
    sections: dict[str, str] = {}
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        sections[heading.upper()] = " ".join(body.split("\n")).strip()
    return sections


def stratagem(row: Row, *, slug: str, detachment: str, source: str) -> dict:
    """The record, or `Unreadable` when its sections, cost or timing cannot be read."""
    sections = stratagem_sections(row["description"])
    missing = [name for name in ("WHEN", "TARGET", "EFFECT") if not sections.get(name)]
    if missing:
        raise Unreadable(f"no {', '.join(missing)} section in its text")
    cost = row["cp_cost"].strip()
    if not cost.isdigit():
        raise Unreadable(f"CP cost {cost!r} is not a number")
    category = clean_text(row["type"]).split("–")[-1].strip()
    restrictions = sections.get("RESTRICTIONS", "")
    return {
        "slug": slug,
        "name": clean_text(row["name"]),
        "edition": None,
        "scope": "detachment",
        "detachment": detachment,
        "category": category,
        "section": None,
        "cp_cost": int(cost),
        "when": stratagem_when(row["turn"], row["phase"], sections["WHEN"]),
        "when_text": sections["WHEN"],
        "target_text": sections["TARGET"],
        "effect_text": sections["EFFECT"],
        "restrictions_text": restrictions,
        "limit": stratagem_limit(restrictions),
        "source": source,
    }


_ELIGIBLE = re.compile(r"^(?P<who>[^.]+?)\s+models?\s+only\.\s*", re.IGNORECASE)


def enhancement(row: Row, *, slug: str, detachment: str, source: str) -> dict:
    """The record; `eligible_keywords` are the alternatives of its `X or Y model only.` line.

    Each entry is one keyword phrase as printed (`GREY KNIGHTS INFANTRY`): a model is eligible
    when it has every keyword of at least one entry.
    """
    cost = row["cost"].strip()
    if not cost.isdigit():
        raise Unreadable(f"points {cost!r} is not a number")
    text = clean_text(row["description"])
    eligible: list[str] = []
    restrictions = ""
    match = _ELIGIBLE.match(text)
    if match:
        restrictions = match[0].strip()
        eligible = [upper_keyword(part) for part in re.split(r"\s+or\s+", match["who"])]
        text = text[match.end() :]
    return {
        "slug": slug,
        "name": clean_text(row["name"]),
        "detachment": detachment,
        "points": int(cost),
        "eligible_keywords": eligible,
        "excluded_keywords": [],
        "restrictions_text": restrictions,
        "effect_text": text.strip(),
        "source": source,
    }


def skipped(row: Row, kind: str, error: Unreadable) -> SkippedRow:
    return row.skip(f"{kind} {clean_text(row['name'])!r} left out: {error}")
