"""Reading the Warhammer 40,000 app's text export (and lists written in its shape by hand).

    Castellans (1,000 Points)

    Imperium - Grey Knights
    Teleport Strike Force
    Incursion (1,000 Points)

    CHARACTERS

    Brother-Captain (90 Points)
      • Warlord
      • 1x Nemesis force weapon
      • Enhancement: Sigil of Exigence

    BATTLELINE

    Strike Squad (110 Points)
      • 1x Justicar
         ◦ 1x Storm bolter
      • 4x Grey Knight
         ◦ 4x Storm bolter

    Exported with App Version: v1.29.0 (53), Data Version: v593

The faction and detachment lines come in either order (which is which is decided against the
rules data); bullets are any of • ◦ - * ▪ ‣; points are written "Points", "points" or "pts",
with or without thousands separators; blank lines and Windows line endings are ignored. A line
that fits nothing (or follows the closing line) is kept, with its number, in `ParsedList.unread`.
"""

from __future__ import annotations

import re

from games.army_lists.parsed import Item, ParsedList, Unit, Unread

BATTLE_SIZES = ("Combat Patrol", "Incursion", "Strike Force", "Onslaught")
# Section headings of the English app and the French one (PERSONNAGES, LIGNE: French exports
# signed "Exporté avec la Version de l'Appli"); all only structure, never units.
SECTION_HEADINGS = {
    "CHARACTER",
    "CHARACTERS",
    "EPIC HEROES",
    "EPIC HERO",
    "BATTLELINE",
    "DEDICATED TRANSPORTS",
    "DEDICATED TRANSPORT",
    "OTHER DATASHEETS",
    "ALLIED UNITS",
    "FORTIFICATIONS",
    "FORTIFICATION",
    "LORDS OF WAR",
    "ATTACHED UNITS",
    "PERSONNAGES",
    "LIGNE",
}
FOOTERS = re.compile(
    r"^(exported with|export[ée] avec la version de l.appli|end of roster|created with newrecruit)",
    re.IGNORECASE,
)
BULLETS = "•◦-*▪‣·"
_POINTS = r"\(\s*(?P<points>\d[\d.,\u00a0\u202f ]*)\s*(?:points?|pts?)\s*\)"
POINTS_LINE = re.compile(rf"^(?P<name>.+?)\s*{_POINTS}$", re.IGNORECASE)
DETACHMENT_LINE = re.compile(r"^(?P<name>.+?)\s*\(\s*\d+\s*detachment points?\s*\)$", re.IGNORECASE)
ITEM = re.compile(r"^(?P<count>\d+)\s*x\s+(?P<name>.+)$", re.IGNORECASE)
ENHANCEMENT = re.compile(r"^enhancements?\s*:\s*(?P<name>.+)$", re.IGNORECASE)
ATTACHED_TO = re.compile(r"^attached to\s*:\s*(?P<name>.+)$", re.IGNORECASE)
ATTACHED_AS = re.compile(r"^attached as\s*:\s*(?P<role>.+)$", re.IGNORECASE)
ATTACHED_GROUP = re.compile(r"^attached unit\s*\d*$", re.IGNORECASE)
TRAILING_POINTS = re.compile(rf"\s*(?:{_POINTS}|\(\s*\+\s*\d+\s*(?:points?|pts?)\s*\))$", re.I)


def whole_number(text: str) -> int:
    """Points are whole numbers: `2,000`, `2.000` and `2 000` are all two thousand."""
    return int(re.sub(r"\D", "", text))


def split_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


def looks_like_app_text(text: str) -> bool:
    lines = [line.strip() for line in split_lines(text) if line.strip()]
    return any(FOOTERS.match(line) or line.upper() in SECTION_HEADINGS for line in lines) or any(
        POINTS_LINE.match(line) for line in lines[:3]
    )


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def _strip_bullet(text: str) -> tuple[str, str]:
    if text and text[0] in BULLETS and (len(text) == 1 or text[1] == " "):
        return text[0], text[1:].strip()
    return "", text


def read_app_text(text: str) -> ParsedList:
    parsed = ParsedList(format="app text", lines=split_lines(text))
    in_header = True
    unit: Unit | None = None
    group: str | None = None
    last_top: Item | None = None
    ended = False
    for number, raw in enumerate(parsed.lines, start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        if ended:
            parsed.unread.append(Unread(number, stripped, "after the export's closing line"))
            continue
        if FOOTERS.match(stripped):
            ended = True
            continue
        bullet, content = _strip_bullet(stripped)
        if not bullet and (stripped.upper() in SECTION_HEADINGS or ATTACHED_GROUP.match(stripped)):
            in_header = False
            unit = None
            group = stripped if ATTACHED_GROUP.match(stripped) else None
            continue
        if not bullet and (match := POINTS_LINE.match(stripped)):
            name, points = match["name"].strip(), whole_number(match["points"])
            if in_header and name in BATTLE_SIZES:
                parsed.battle_size, parsed.battle_size_points = (name, number), points
                continue
            if in_header and not parsed.name and parsed.points is None and not parsed.header:
                parsed.name, parsed.points = name, points
                continue
            if in_header and (detachment := DETACHMENT_LINE.match(stripped)):
                parsed.header.append((detachment["name"].strip(), number))
                continue
            in_header = False
            unit = Unit(name=name, line=number, points=points, group=group)
            parsed.units.append(unit)
            last_top = None
            continue
        if in_header and not bullet:
            if detachment := DETACHMENT_LINE.match(stripped):
                parsed.header.append((detachment["name"].strip(), number))
            elif stripped.lower().startswith("force disposition"):
                parsed.unread.append(Unread(number, stripped, "force dispositions are not used"))
            elif not parsed.name and parsed.points is None and not parsed.header:
                parsed.name = stripped
            else:
                parsed.header.append((stripped, number))
            continue
        if unit is None:
            parsed.unread.append(Unread(number, stripped, "not under any unit"))
            continue
        last_top = _read_unit_line(parsed, unit, raw, bullet, content, number, last_top)
    return parsed


def _read_unit_line(
    parsed: ParsedList,
    unit: Unit,
    raw: str,
    bullet: str,
    content: str,
    number: int,
    last_top: Item | None,
) -> Item | None:
    if content.lower() == "warlord":
        unit.warlord = True
        return last_top
    if match := ENHANCEMENT.match(content):
        unit.enhancements.append((TRAILING_POINTS.sub("", match["name"]).strip(), number))
        return last_top
    if match := ATTACHED_TO.match(content):
        unit.attached_to = (match["name"].strip(), number)
        return last_top
    if match := ATTACHED_AS.match(content):
        unit.attached_as = match["role"].strip().capitalize()
        return last_top
    match = ITEM.match(content)
    if not match and not bullet:
        parsed.unread.append(Unread(number, content, "not a line of the app's export"))
        return last_top
    count, name = (int(match["count"]), match["name"]) if match else (1, content)
    item = Item(count=count, name=TRAILING_POINTS.sub("", name).strip(), line=number)
    item.indent = _indent(raw)
    nested = last_top is not None and (bullet == "◦" or item.indent > last_top.indent)
    if nested:
        item.parent = last_top
        last_top.children.append(item)
        return last_top
    unit.items.append(item)
    return item
