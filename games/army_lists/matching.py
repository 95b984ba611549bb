"""Matching a list read from another tool to the rules data: the army (the engine's army-list
format, docs/engine.md) and a report of every line that was not used as printed, and why.

Pure Python over a bundle (docs/rules-data-format.md). Nothing is dropped silently: a line either
becomes part of the army or appears in the report with its line number. Where the list and the
data disagree (points, unit sizes) the data wins and the report shows both.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.army_lists.names import normalise, singular_name
from games.army_lists.parsed import Item, ParsedList, Unit
from rules.engine import (
    WargearTextError,
    allied_as,
    composition_names,
    default_loadouts,
    normal_name,
    resolve_item,
    unit_points,
    wargear_options,
)

BATTLE_SIZES = {"incursion": "incursion", "strike force": "strike-force", "onslaught": "onslaught"}


@dataclass
class Matched:
    army: dict[str, Any]
    report: list[dict[str, Any]] = field(default_factory=list)
    # Leaders the list does not attach: the bodyguards each may join (the builder proposes them).
    proposals: list[dict[str, Any]] = field(default_factory=list)

    def unused(self, line: int, text: str, code: str, message: str) -> None:
        self.report.append({"line": line, "text": text, "code": code, "message": message})


def _index(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        for name in [record["name"], *(record.get("aliases") or [])]:
            found.setdefault(normalise(name), []).append(record)
    return found


class _Matcher:
    def __init__(self, parsed: ParsedList, bundle: dict[str, Any]) -> None:
        self.parsed = parsed
        self.bundle = bundle
        self.factions = _index(bundle.get("factions", []))
        for faction in bundle.get("factions", []):
            self.factions.setdefault(normalise(faction.get("faction_keyword", "")), [faction])
        self.detachments = _index(bundle.get("detachments", []))
        self.datasheets = _index(bundle.get("datasheets", []))
        self.enhancements = _index(bundle.get("enhancements", []))
        self.result = Matched(army={})

    def text(self, line: int, fallback: str = "") -> str:
        lines = self.parsed.lines
        return lines[line - 1].strip() if 0 < line <= len(lines) else fallback

    def unused(self, line: int, code: str, message: str, text: str = "") -> None:
        self.result.unused(line, self.text(line, text), code, message)

    # ------------------------------------------------------------------ header

    def header(self) -> tuple[dict | None, dict | None]:
        faction = detachment = None
        candidates = [*self.parsed.header, *filter(None, [self.parsed.detachment])]
        leftovers = []
        for name, line in candidates:
            key = normalise(name)
            if faction is None and key in self.factions:
                faction = self.factions[key][0]
            elif detachment is None and key in self.detachments:
                detachment = self.detachments[key]
                continue
            else:
                leftovers.append((name, line))
        if detachment is not None:
            own = [d for d in detachment if faction is None or d.get("faction") == faction["slug"]]
            detachment = (own or detachment)[0]
        for name, line in leftovers:
            self.unused(
                line,
                "unknown_header_line",
                f"{name!r} is neither a faction nor a detachment in the rules data.",
                name,
            )
        return faction, detachment

    def battle_size(self) -> str:
        named = self.parsed.battle_size
        if named:
            slug = BATTLE_SIZES.get(normalise(named[0]))
            if slug:
                return slug
            self.unused(
                named[1],
                "battle_size_unknown",
                f"{named[0]} is not a battle size this game offers.",
            )
        points = self.parsed.battle_size_points or self.parsed.points or 0
        return "incursion" if points <= 1000 else "strike-force" if points <= 2000 else "onslaught"

    # ------------------------------------------------------------------ units

    def datasheet(self, unit: Unit, faction: dict | None) -> dict | None:
        found = self.datasheets.get(normalise(unit.name)) or self.datasheets.get(
            singular_name(unit.name)
        )
        if not found:
            self.unused(
                unit.line,
                "unknown_datasheet",
                f"No datasheet named {unit.name!r} in the rules data; the unit and its lines "
                "are left out.",
                unit.name,
            )
            for item in _all_items(unit):
                if item.line == unit.line:
                    continue  # a roster's single model is the unit's own entry
                self.unused(item.line, "unknown_datasheet", f"Part of {unit.name!r}, left out.")
            return None
        own = [sheet for sheet in found if faction and sheet.get("faction") == faction["slug"]]
        return (own or found)[0]

    def unit(self, number: int, unit: Unit, sheet: dict, faction: dict | None, detachment):
        model_names = _model_names(sheet)
        model_items = [item for item in unit.items if singular_name(item.name) in model_names]
        size = self.size(unit, sheet, model_items, faction)
        entry: dict[str, Any] = {
            "key": f"u{number}",
            "datasheet": sheet["slug"],
            "models": size,
            "wargear": [],
            "warlord": unit.warlord,
            "enhancements": [],
        }
        weapons = [item for item in unit.items if item not in model_items]
        weapons += [child for item in model_items for child in item.children]
        for item in unit.items:
            if item not in model_items and item.children:
                weapons += item.children
        # Rosters list an enhancement as one more upgrade of the unit.
        for item in list(weapons):
            if normalise(item.name) in self.enhancements and not resolve_item(sheet, item.name):
                weapons.remove(item)
                unit.enhancements.append((item.name, item.line))
        entry["wargear"] = self.wargear(unit, sheet, size, weapons)
        entry["enhancements"] = self.enhancement_slugs(unit, sheet, detachment)
        self.check_points(unit, sheet, entry, faction)
        return entry

    def size(self, unit: Unit, sheet: dict, model_items: list[Item], faction) -> int:
        sizes = sorted({entry["models"] for entry in sheet.get("points", [])})
        allied = allied_as(sheet, faction)
        if model_items:
            size = sum(item.count for item in model_items)
        else:
            by_points = [s for s in sizes if unit_points(sheet, s, allied) == unit.points]
            size = by_points[0] if by_points else (sizes[0] if sizes else 1)
        if sizes and size not in sizes:
            chosen = min(sizes, key=lambda s: (abs(s - size), s))
            self.unused(
                unit.line,
                "size_not_offered",
                f"{sheet['name']} is not taken with {size} models (offered: "
                f"{', '.join(map(str, sizes))}); {chosen} models are used.",
            )
            size = chosen
        return size

    def check_points(self, unit: Unit, sheet: dict, entry: dict, faction) -> None:
        """The list's points against the data's (the unit's size plus its enhancements)."""
        data_points = unit_points(sheet, entry["models"], allied_as(sheet, faction))
        if unit.points is None or data_points is None:
            return
        extras = {e["slug"]: e.get("points") or 0 for e in self.bundle.get("enhancements", [])}
        data_points += sum(extras.get(slug, 0) for slug in entry["enhancements"])
        if unit.points != data_points:
            self.unused(
                unit.line,
                "points_differ",
                f"The list says {unit.points} points, the rules data {data_points} for "
                f"{entry['models']} models; the data's {data_points} count.",
            )

    def wargear(self, unit: Unit, sheet: dict, size: int, items: list[Item]) -> list[dict]:
        listed: Counter[str] = Counter()
        lines: dict[str, Item] = {}
        for item in items:
            resolved = resolve_item(sheet, item.name)
            if resolved is None:
                self.unused(
                    item.line,
                    "unknown_wargear",
                    f"{sheet['name']} has no weapon or wargear named {item.name!r}.",
                )
                continue
            name = normal_name(resolved[1])
            listed[name] += item.count
            lines.setdefault(name, item)
        default: Counter[str] = Counter()
        try:
            for loadout in default_loadouts(sheet, composition_names(sheet, size)):
                for carried in loadout:
                    default[_item_key(sheet, carried)] += 1
        except WargearTextError as error:
            self.unused(
                unit.line,
                "wargear_not_offered",
                f"The loadout of {sheet['name']} cannot be read ({error}); its wargear lines "
                "are compared with nothing.",
            )
        surplus = Counter({name: n - default[name] for name, n in listed.items()})
        if not any(n > 0 for n in surplus.values()):
            return []
        try:
            offered = wargear_options(sheet)
        except WargearTextError as error:
            for name, item in lines.items():
                if surplus[name] > 0:
                    self.unused(
                        item.line,
                        "wargear_not_offered",
                        f"The wargear options of {sheet['name']} cannot be read ({error}); "
                        f"{item.name!r} is not chosen.",
                    )
            return []
        chosen: dict[tuple[int, int], int] = {}
        for name, _ in listed.most_common():
            while surplus[name] > 0:
                found = _offering(sheet, offered, name, surplus)
                if found is None:
                    self.unused(
                        lines[name].line,
                        "wargear_not_offered",
                        f"No wargear option of {sheet['name']} gives {lines[name].name!r} "
                        f"({surplus[name]} more than its loadout).",
                    )
                    break
                option, choice, per_model = found
                models = max(1, surplus[name] // per_model)
                chosen[option["index"], choice] = chosen.get((option["index"], choice), 0) + models
                for other in option["choices"][choice]["items"]:
                    surplus[_item_key(sheet, other["name"])] -= other["count"] * models
        return [
            {"option": option, "choice": choice, "models": models}
            for (option, choice), models in sorted(chosen.items())
        ]

    def enhancement_slugs(self, unit: Unit, sheet: dict, detachment: dict | None) -> list[str]:
        slugs = []
        for name, line in unit.enhancements:
            found = self.enhancements.get(normalise(name), [])
            if not found:
                self.unused(line, "unknown_enhancement", f"No enhancement named {name!r}.")
                continue
            mine = [e for e in found if detachment and e.get("detachment") == detachment["slug"]]
            if not mine:
                where = detachment["name"] if detachment else "no detachment"
                self.unused(
                    line,
                    "enhancement_not_in_detachment",
                    f"{name!r} is not an enhancement of the army's detachment ({where}).",
                )
                continue
            slugs.append(mine[0]["slug"])
        return slugs

    # ------------------------------------------------------------------ leaders

    def attachments(self, units: list[tuple[Unit, dict, dict]]) -> None:
        by_name: dict[str, list[dict]] = {}
        for unit, sheet, entry in units:
            for name in {normalise(unit.name), normalise(sheet["name"])}:
                by_name.setdefault(name, []).append(entry)
        sheets = {entry["key"]: sheet for _unit, sheet, entry in units}
        taken: set[str] = set()
        groups: dict[str, list[tuple[Unit, dict, dict]]] = {}
        for unit, sheet, entry in units:
            if unit.group:
                groups.setdefault(unit.group, []).append((unit, sheet, entry))
        for members in groups.values():
            bodyguards = [m for m in members if m[0].attached_as == "Bodyguard"] or [
                m for m in members if not m[1].get("leads")
            ]
            if len(bodyguards) == 1:
                for _unit, sheet, entry in members:
                    if entry is not bodyguards[0][2] and bodyguards[0][1]["slug"] in sheet.get(
                        "leads", []
                    ):
                        entry["attached_to"], entry["role"] = bodyguards[0][2]["key"], "leader"
        for unit, sheet, entry in units:
            if unit.attached_to is None:
                continue
            name, line = unit.attached_to
            ordinal = 1
            if name.endswith(")") and "(" in name and name[name.rindex("(") + 1 : -1].isdigit():
                ordinal = int(name[name.rindex("(") + 1 : -1])
                name = name[: name.rindex("(")].strip()
            candidates = [
                other
                for other in by_name.get(normalise(name), [])
                if other is not entry and sheets[other["key"]]["slug"] in sheet.get("leads", [])
            ]
            if len(candidates) >= ordinal:
                target = candidates[ordinal - 1]
                entry["attached_to"], entry["role"] = target["key"], "leader"
                taken.add(target["key"])
            else:
                self.unused(
                    line,
                    "attachment_unknown",
                    f"{sheet['name']} cannot be attached to a unit named {name!r} of this list.",
                )
        for _unit, sheet, entry in units:
            if sheet.get("leads") and "attached_to" not in entry:
                bodyguards = [
                    (other["key"], other_sheet["name"])
                    for _u, other_sheet, other in units
                    if other_sheet["slug"] in sheet["leads"]
                ]
                if bodyguards:
                    names = " or ".join(dict.fromkeys(name for _key, name in bodyguards))
                    self.result.proposals.append(
                        {
                            "leader": entry["key"],
                            "bodyguards": [key for key, _name in bodyguards],
                            "message": f"The list does not say whom {sheet['name']} leads: it "
                            f"can be attached to {names} (choose under “Attached to”).",
                        }
                    )

    # ------------------------------------------------------------------ all

    def run(self) -> Matched:
        faction, detachment = self.header()
        battle_size = self.battle_size()
        matched: list[tuple[Unit, dict]] = []
        for unit in self.parsed.units:
            sheet = self.datasheet(unit, faction)
            if sheet is not None:
                matched.append((unit, sheet))
        if faction is None and matched:
            counts = Counter(sheet.get("faction") for _unit, sheet in matched)
            slug = counts.most_common(1)[0][0]
            faction = next((f for f in self.bundle.get("factions", []) if f["slug"] == slug), None)
        units = [
            (unit, sheet, self.unit(number, unit, sheet, faction, detachment))
            for number, (unit, sheet) in enumerate(matched, start=1)
        ]
        self.attachments(units)
        for unread in self.parsed.unread:
            self.unused(unread.line, "unread_line", unread.reason, unread.text)
        self.result.army = {
            "name": (self.parsed.name or "Imported list")[:100],
            "faction": faction["slug"] if faction else "",
            "detachment": detachment["slug"] if detachment else "",
            "battle_size": battle_size,
            "units": [entry for _unit, _sheet, entry in units],
        }
        self.result.report.sort(key=lambda problem: problem["line"])
        return self.result


def _all_items(unit: Unit) -> list[Item]:
    return [nested for item in unit.items for nested in (item, *item.children)]


def _model_names(sheet: dict[str, Any]) -> set[str]:
    names = {singular_name(sheet["name"])}
    names |= {singular_name(profile["name"]) for profile in sheet.get("models", [])}
    for size in {entry["models"] for entry in sheet.get("points", [])}:
        names |= {singular_name(name) for name in composition_names(sheet, size)}
    return names


def _item_key(sheet: dict, name: str) -> str:
    resolved = resolve_item(sheet, name)
    return normal_name(resolved[1]) if resolved else normal_name(name)


def _offering(
    sheet: dict, offered: list[dict], name: str, surplus: Counter
) -> tuple[dict, int, int] | None:
    """The option and choice that give the item `name`, and how many of it per model: the first
    whose other items the list also names beyond the loadout ("1 psilencer and 1 close combat
    weapon" for a psilencer listed with a close combat weapon), else the first that gives it."""
    found = []
    for option in offered:
        for number, choice in enumerate(option["choices"]):
            keys = {_item_key(sheet, item["name"]): item["count"] for item in choice["items"]}
            if name in keys:
                complete = all(surplus[key] >= count for key, count in keys.items())
                found.append((not complete, len(found), option, number, max(1, keys[name])))
    if not found:
        return None
    _incomplete, _order, option, number, per_model = min(found, key=lambda f: f[:2])
    return option, number, per_model


def match_list(parsed: ParsedList, bundle: dict[str, Any]) -> Matched:
    """The army this list means in the rules data of `bundle`, and the report of unused lines."""
    return _Matcher(parsed, bundle).run()
