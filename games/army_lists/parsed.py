"""What a list reader finds in a list, before anything is matched to the rules data.

Every entry keeps the line it was read from (1-based) so that the import report can name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Item:
    """A counted line under a unit: `4x Brotherhood Terminator` or `1x Storm bolter`.

    `parent` is the model line an item is printed under (its weapons), or None at the top level.
    """

    count: int
    name: str
    line: int
    parent: Item | None = None
    indent: int = 0
    children: list[Item] = field(default_factory=list)


@dataclass
class Unit:
    name: str
    line: int
    points: int | None = None
    items: list[Item] = field(default_factory=list)
    warlord: bool = False
    enhancements: list[tuple[str, int]] = field(default_factory=list)  # (name, line)
    attached_to: tuple[str, int] | None = None  # (the bodyguard's name as printed, line)
    group: str | None = None  # "Attached Unit 2" of the app's 11th-edition export
    attached_as: str | None = None  # "Leader" or "Bodyguard" within such a group


@dataclass
class Unread:
    """A line the reader could not place, and why (the import report shows it)."""

    line: int
    text: str
    reason: str


@dataclass
class ParsedList:
    format: str
    name: str = ""
    points: int | None = None
    # Header lines that are neither the title nor the battle size: the faction and the
    # detachment in either order; which is which is decided against the rules data.
    header: list[tuple[str, int]] = field(default_factory=list)
    detachment: tuple[str, int] | None = None  # a roster's detachment selection
    battle_size: tuple[str, int] | None = None
    battle_size_points: int | None = None
    units: list[Unit] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # the text as read, for the report
