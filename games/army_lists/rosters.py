"""Reading New Recruit and BattleScribe rosters: the JSON export, `.ros` (XML) and `.rosz` (a zip
holding one `.ros`). All three hold the same tree: a roster of forces, each with selections
(units, models, upgrades: wargear, enhancements, the warlord) that carry a `number` and costs.

XML is parsed with defusedxml only (no entities, no DTDs); `games.army_lists.uploads` bounds the
sizes before anything is parsed. A selection that fits nothing is kept in `ParsedList.unread`,
numbered by its position in the roster (the report's "line" for a roster is that entry number).
"""

from __future__ import annotations

import json
from typing import Any

from defusedxml import ElementTree

from games.army_lists.parsed import Item, ParsedList, Unit, Unread

BATTLE_SIZE_WORDS = ("Combat Patrol", "Incursion", "Strike Force", "Onslaught")
# Selection groups the rosters use for what is not a unit.
_CONFIGURATION = {"battle size", "detachment", "detachment choice", "show/hide options"}


class RosterError(ValueError):
    """The file is not a roster this reader understands."""


def _number(value: Any, default: int = 1) -> int:
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return default


def _points(node: dict[str, Any]) -> int | None:
    for cost in node.get("costs") or []:
        if str(cost.get("name", "")).strip().lower() in {"pts", "points", "pt"}:
            return _number(cost.get("value"), 0)
    return None


def read_roster_json(text: str) -> ParsedList:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RosterError(f"not valid JSON: {error.msg} (line {error.lineno})") from None
    roster = data.get("roster", data) if isinstance(data, dict) else None
    if not isinstance(roster, dict) or not isinstance(roster.get("forces"), list):
        raise RosterError("a roster has `forces` (the JSON export of New Recruit or BattleScribe)")
    return _read_tree(roster, "New Recruit / BattleScribe JSON")


def read_roster_xml(data: bytes) -> ParsedList:
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except ElementTree.ParseError as error:
        raise RosterError(f"not valid roster XML: {error}") from None
    return _read_tree(_element_tree(root), "BattleScribe .ros")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _element_tree(element) -> dict[str, Any]:
    """The XML roster as the JSON export's shape (selections, forces, costs, categories)."""
    node: dict[str, Any] = dict(element.attrib)
    for child in element:
        tag = _local(child.tag)
        if tag in {"selections", "forces", "costs", "categories"}:
            node[tag] = [_element_tree(grandchild) for grandchild in child]
    return node


class _TreeReader:
    def __init__(self, format_name: str) -> None:
        self.parsed = ParsedList(format=format_name)

    def entry(self, text: str) -> int:
        self.parsed.lines.append(text)
        return len(self.parsed.lines)

    def force(self, force: dict[str, Any]) -> None:
        catalogue = str(force.get("catalogueName") or "").strip()
        if catalogue:
            self.parsed.header.append((catalogue, self.entry(catalogue)))
        for selection in force.get("selections") or []:
            self.top_level(selection)
        for nested in force.get("forces") or []:
            self.force(nested)

    def top_level(self, selection: dict[str, Any]) -> None:
        name = str(selection.get("name") or "").strip()
        kind = str(selection.get("type") or "").lower()
        if name.lower() in _CONFIGURATION or kind == "upgrade":
            self.configuration(name, selection)
            return
        line = self.entry(name)
        unit = Unit(name=name, line=line, points=_points(selection))
        self.parsed.units.append(unit)
        if kind == "model":
            unit.items.append(Item(_number(selection.get("number")), name, line))
            self.upgrades(unit, selection, unit.items[0])
        else:
            self.upgrades(unit, selection, None)

    def configuration(self, name: str, selection: dict[str, Any]) -> None:
        chosen = [str(s.get("name") or "").strip() for s in selection.get("selections") or []]
        if name.lower() == "battle size":
            for choice in chosen:
                line = self.entry(f"{name}: {choice}")
                size = next((s for s in BATTLE_SIZE_WORDS if s.lower() in choice.lower()), None)
                if size:
                    self.parsed.battle_size = (size, line)
                else:
                    self.parsed.unread.append(Unread(line, choice, "not a battle size"))
            return
        if name.lower().startswith("detachment"):
            for choice in chosen:
                self.parsed.detachment = (choice, self.entry(f"{name}: {choice}"))
            return
        line = self.entry(name)
        self.parsed.unread.append(Unread(line, name, "a roster option this game does not use"))

    def upgrades(self, unit: Unit, node: dict[str, Any], model: Item | None) -> None:
        for selection in node.get("selections") or []:
            name = str(selection.get("name") or "").strip()
            kind = str(selection.get("type") or "").lower()
            count = _number(selection.get("number"))
            line = self.entry(f"{unit.name}: {name}")
            if name.lower() == "warlord":
                unit.warlord = True
            elif name.lower().startswith("enhancement"):
                for chosen in selection.get("selections") or []:
                    enhancement = str(chosen.get("name") or "").strip()
                    unit.enhancements.append((enhancement, self.entry(enhancement)))
            elif kind == "model":
                item = Item(count, name, line)
                unit.items.append(item)
                self.upgrades(unit, selection, item)
            else:
                item = Item(count, name, line, parent=model)
                if model is not None:
                    model.children.append(item)
                else:
                    unit.items.append(item)
                # Wargear groups nest their choice one level down.
                self.upgrades(unit, selection, model)


def _read_tree(roster: dict[str, Any], format_name: str) -> ParsedList:
    reader = _TreeReader(format_name)
    reader.parsed.name = str(roster.get("name") or "").strip()
    reader.parsed.points = _points(roster)
    for force in roster.get("forces") or []:
        if not isinstance(force, dict):
            raise RosterError("every force of a roster is an object")
        reader.force(force)
    return reader.parsed
