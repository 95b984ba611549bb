"""Wargear: what each model of a unit carries (11e 02.06 Unit Composition, 02.07 Wargear Options,
22.04 Wargear Abilities; 10e Datasheets, Wargear Options, Wargear Abilities).

A datasheet prints a default `loadout` ("Every model is equipped with: storm bolter; Nemesis force
weapon.") and free-text `wargear_options` ("This model's chainsword can be replaced with one of the
following: ..."). This module reads both into structured data and equips every model of a unit
from the loadout plus the options an army list chose (`{"option", "choice", "models"}` entries,
docs/engine.md). Texts of a shape it does not know are refused loudly (`WargearTextError`): a new
datasheet with a new wording fails its test instead of being silently ignored.

The structured form of an option (docs/rules-data-format.md "Wargear options"):

    {"index": 0, "text": "...", "who": {"kind": "this_model" | "any" | "up_to" | "per" | "named"
       | "unit", "model": "shock trooper" | None, "count": 2, "per": 10, "counted": None},
     "replaces": ["lasgun"], "requires": [], "locks": [], "distinct": False, "marker": "*",
     "choices": [{"items": [{"name": "flamer", "count": 1}], "marker": ""}, ...]}

and a note (a footnote line): `{"index": 4, "text": "...", "note": "not_replaceable" |
"same_choice_limit" | "one_per_model", "marker": "*", ...}`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import WARGEAR_KEYWORDS


class WargearTextError(ValueError):
    """A loadout or wargear option text of a shape the parser does not know."""


def _clean(text: str) -> str:
    return " ".join(text.replace("’", "'").replace("‘", "'").split())


def normal_name(name: str) -> str:
    """A model or item name for comparison: lower case, plain apostrophes, no footnote stars,
    no parenthesised suffix ("Nuncio Aquila (Aura)")."""
    name = _clean(name).lower().strip(" .*")
    return re.sub(r"\s*\([^)]*\)$", "", name).strip()


def singular(name: str) -> str:
    """A model name in the singular ("Navis Armsmen" -> "navis armsman", "Grey Knights" ->
    "grey knight", "Boyz" -> "boy"); composition entries and options print both numbers."""
    name = normal_name(name)
    if name.endswith("men"):
        return name[:-3] + "man"
    if name.endswith("yz"):  # Ork plurals: "Boyz" are "Boy"s, "Burna Boyz" "Burna Boy"s
        return name[:-1]
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


# ---------------------------------------------------------------- options

_WHO_PATTERNS: list[tuple[str, str]] = [
    (
        r"^If this model is equipped with (?P<req>.+?), its (?P<replaced>.+?) "
        r"can be replaced with ",
        "this_model",
    ),
    (r"^This model's (?P<replaced>.+?) can be replaced with ", "this_model"),
    (r"^This model can be equipped with ", "this_model"),
    (
        r"^For every (?P<per>\d+) models in this unit, up to (?P<n>\d+) (?P<model>.+?) "
        r"can each have their (?P<replaced>.+?) replaced with ",
        "per",
    ),
    (
        r"^For every (?P<per>\d+) models in this unit, (?P<n>\d+) (?P<model>.+?) equipped with an? "
        r"(?P<req>.+?) can be equipped with ",
        "per",
    ),
    (
        r"^For every (?P<per>\d+) models in this unit, (?P<n>\d+) (?P<model>.+?)'s? "
        r"(?P<replaced>.+?) can be replaced with ",
        "per",
    ),
    (r"^For every (?P<per>\d+) (?P<counted>.+?) in this unit, it can be equipped with ", "unit"),
    (
        r"^For every (?P<per>\d+) (?P<counted>.+?) in this unit, (?P<n>\d+) (?P<model>.+?) can be "
        r"equipped with ",
        "per",
    ),
    (r"^Any number of (?P<model>.+?) can each have their (?P<replaced>.+?) replaced with ", "any"),
    (
        r"^Up to (?P<n>\d+) (?P<model>.+?) can each have their (?P<replaced>.+?) replaced with ",
        "up_to",
    ),
    (r"^(?P<n>\d+) (?P<model>.+?) can have its (?P<replaced>.+?) replaced with ", "up_to"),
    (r"^(?P<n>\d+) (?P<model>.+?)'s (?P<replaced>.+?) can be replaced with ", "up_to"),
    (r"^(?P<n>\d+) (?P<model>.+?) can be equipped with ", "up_to"),
    (r"^The (?P<model>.+?)'s? (?P<replaced>.+?) can be replaced with ", "named"),
    (r"^The (?P<model>.+?) can be equipped with ", "named"),
]

_NOTE_PATTERNS: list[tuple[str, str]] = [
    (
        r"^(?P<marker>\**) ?(?:This weapon|That model's .+?) cannot be replaced\.?$",
        "not_replaceable",
    ),
    (
        r"^(?P<marker>\*+) ?You cannot select the same weapon more than once per unit unless it "
        r"contains (?P<large>\d+) models, in which case you cannot select the same weapon "
        r"more than twice per unit\.?$",
        "same_choice_limit",
    ),
    (
        r"^(?P<marker>\*+) ?The (?:some|same) model cannot be equipped with more than one of these "
        r"wargear options\.?$",
        "one_per_model",
    ),
]

_BULLET = re.compile(r"^\s*[•\-]\s*")
_ITEM = re.compile(r"^(?P<count>\d+) (?:additional )?(?P<name>.+?)$")


def _items(text: str) -> list[dict[str, Any]]:
    items = []
    for part in re.split(r" and (?=\d+ )", text.strip()):
        match = _ITEM.match(part.strip())
        if not match:
            raise WargearTextError(f"Not a wargear item {part!r} (expected '1 flamer').")
        items.append({"name": normal_name(match["name"]), "count": int(match["count"])})
    return items


def _choice(text: str) -> dict[str, Any]:
    text = _clean(text).rstrip(".")
    found = re.search(r"(\**)$", text)
    assert found is not None  # the pattern matches every string (zero or more stars)
    marker = found[1]
    return {"items": _items(text[: len(text) - len(marker)]), "marker": marker}


def parse_option(text: str, index: int = 0) -> dict[str, Any]:
    """One printed wargear option (or footnote) in its structured form; refuses unknown shapes."""
    lines = [line for line in text.replace("\r", "").split("\n") if line.strip()]
    if not lines:
        raise WargearTextError("An empty wargear option.")
    head = _clean(lines[0])
    bullets = [_BULLET.sub("", line) for line in lines[1:]]
    if len(lines) > 1 and not all(_BULLET.match(line) for line in lines[1:]):
        raise WargearTextError(f"Choices must be bullet lines: {text!r}")
    for pattern, note in _NOTE_PATTERNS:
        match = re.match(pattern, head, flags=re.IGNORECASE)
        if match and not bullets:
            found = {"index": index, "text": text, "note": note, "marker": match["marker"] or "*"}
            if note == "same_choice_limit":
                found.update(limit=1, large_unit=int(match["large"]), large_limit=2)
            return found
    for pattern, kind in _WHO_PATTERNS:  # noqa: B007 (the matching pattern's kind is used)
        match = re.match(pattern, head, flags=re.IGNORECASE)
        if match:
            break
    else:
        raise WargearTextError(f"Unknown wargear option shape: {head!r}")
    groups = match.groupdict()
    rest = head[match.end() :]
    locks: list[str] = []
    paren = re.search(r"\s*\(that model's (?P<locked>.+?) cannot be replaced\)\.?$", rest)
    if paren:
        locks = [normal_name(paren["locked"])]
        rest = rest[: paren.start()]
    distinct = False
    following = re.match(
        r"^one of the following(?P<distinct> \(duplicates are not allowed\))?(?P<marker>\**):$",
        rest,
    )
    if following:
        if not bullets:
            raise WargearTextError(f"'one of the following' without choices: {text!r}")
        distinct = bool(following["distinct"])
        marker = following["marker"]
        choices = [_choice(bullet) for bullet in bullets]
    else:
        if bullets:
            raise WargearTextError(f"Choices without 'one of the following': {text!r}")
        single = _choice(rest)
        marker, single["marker"] = single["marker"], ""
        choices = [single]
    who = {
        "kind": kind,
        "model": singular(groups["model"]) if groups.get("model") else None,
        "count": int(groups["n"]) if groups.get("n") else (1 if kind == "named" else None),
        "per": int(groups["per"]) if groups.get("per") else None,
        "counted": singular(groups["counted"]) if groups.get("counted") else None,
    }
    requires = [normal_name(n) for n in re.split(r" and ", groups.get("req") or "") if n.strip()]
    requires = [re.sub(r"^\d+ ", "", name) for name in requires]
    replaced = [normal_name(n) for n in re.split(r" and ", groups.get("replaced") or "") if n]
    return {
        "index": index,
        "text": text,
        "who": who,
        "replaces": replaced,
        "requires": requires,
        "locks": locks,
        "distinct": distinct,
        "marker": marker,
        "choices": choices,
    }


def parse_options(datasheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Every printed wargear option and footnote of a datasheet, in order (index = position in
    `wargear_options`)."""
    return [
        parse_option(text, index)
        for index, text in enumerate(datasheet.get("wargear_options") or [])
    ]


def options(datasheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The datasheet's options a player can choose (footnotes left out)."""
    return [option for option in parse_options(datasheet) if "note" not in option]


# ---------------------------------------------------------------- composition and loadout


def composition_names(datasheet: dict[str, Any], size: int) -> list[str]:
    """The composition name of each model of a unit of `size` models ("shock trooper sergeant",
    then "shock trooper" x9), in the order `army._profiles_for` fills the model profiles: for
    each printed alternative ("... OR ..."), each entry's minimum, then up to its maximum."""
    lines = [_clean(line) for line in datasheet.get("composition") or []]
    alternatives: list[list[str]] = [[]]
    for line in lines:
        if line.upper() == "OR":
            alternatives.append([])
        else:
            alternatives[-1].extend(part for part in re.split(r" and (?=\d)", line))
    fallback = [singular(datasheet.get("name", ""))] * size
    for entries in alternatives:
        parsed: list[tuple[str, int, int]] = []
        for entry in entries:
            match = re.match(r"^(?P<min>\d+)(?:-(?P<max>\d+))? (?P<name>.+)$", entry)
            if not match:
                break
            name = re.sub(r"\s+[–-]\s+EPIC HERO$", "", match["name"])
            low = int(match["min"])
            parsed.append((singular(name), low, int(match["max"] or low)))
        else:
            if not parsed or not sum(p[1] for p in parsed) <= size <= sum(p[2] for p in parsed):
                continue
            counts = [p[1] for p in parsed]
            remaining = size - sum(counts)
            for number, (_, low, high) in enumerate(parsed):
                extra = min(remaining, high - low)
                counts[number] += extra
                remaining -= extra
            return [
                name
                for (name, _, _), count in zip(parsed, counts, strict=True)
                for _ in range(count)
            ]
    return fallback


_LOADOUT = re.compile(r"^(?P<subject>.+?) (?:is|are) equipped with: (?P<items>.+?)\.?$")


def parse_loadout(datasheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The loadout's "X is equipped with: a; b." sentences: `{"who", "models", "items"}` where
    `who` is `every` (every model named in `models`, or all when empty), `one` (one further
    model named in `models`), or `other` (every model no sentence gave a loadout yet)."""
    sentences = []
    for line in str(datasheet.get("loadout") or "").split("\n"):
        line = _clean(line)
        if "equipped with:" not in line:
            continue
        match = _LOADOUT.match(line)
        if not match:
            raise WargearTextError(f"Unknown loadout sentence: {line!r}")
        subject = match["subject"].lower()
        items = []
        for item in match["items"].split(";"):
            counted = re.match(r"^\s*(?:(?P<count>\d+) )?(?P<name>.+?)\s*$", item.strip(" ."))
            if counted and counted["name"]:
                items += [normal_name(counted["name"])] * int(counted["count"] or 1)
        if subject in ("this model", "every model", "each model", "all models"):
            sentences.append({"who": "every", "models": [], "items": items})
        elif subject in ("every other model", "all other models"):
            sentences.append({"who": "other", "models": [], "items": items})
        elif m := re.match(r"^(?:every|each|the) (?P<names>.+)$", subject):
            names = [singular(n) for n in re.split(r" and |, ", m["names"])]
            sentences.append({"who": "every", "models": names, "items": items})
        elif m := re.match(r"^one (?:other )?(?P<name>.+)$", subject):
            sentences.append({"who": "one", "models": [singular(m["name"])], "items": items})
        else:
            raise WargearTextError(f"Unknown loadout subject: {match['subject']!r}")
    return sentences


def default_loadouts(datasheet: dict[str, Any], names: list[str]) -> list[list[str]]:
    """The items each model (by composition name) starts with."""
    loadouts: list[list[str] | None] = [None] * len(names)
    for sentence in parse_loadout(datasheet):
        if sentence["who"] == "every":
            for number, name in enumerate(names):
                if not sentence["models"] or name in sentence["models"]:
                    loadouts[number] = list(sentence["items"])
        elif sentence["who"] == "one":
            for number, name in enumerate(names):
                if loadouts[number] is None and name in sentence["models"]:
                    loadouts[number] = list(sentence["items"])
                    break
        else:
            loadouts = [list(sentence["items"]) if lo is None else lo for lo in loadouts]
    return [lo or [] for lo in loadouts]


# ---------------------------------------------------------------- items on the datasheet


def item_names(datasheet: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """normal name -> (kind, printed name): the datasheet's weapons (without their profile
    suffix, "plasma gun - supercharge" is "plasma gun") and its wargear abilities."""
    found: dict[str, tuple[str, str]] = {}
    for weapon in datasheet.get("weapons", []):
        base = base_weapon_name(weapon["name"])
        found.setdefault(normal_name(base), ("weapon", base))
    for ability in datasheet.get("abilities", []):
        if ability.get("kind") == "wargear":
            found.setdefault(normal_name(ability["name"]), ("ability", ability["name"]))
    return found


@lru_cache(maxsize=4096)  # asked for every profile of every model at each weapon question
def base_weapon_name(weapon_name: str) -> str:
    """A profile's weapon name without its profile suffix ("Plasma gun – supercharge")."""
    return re.split(r" [–-] ", weapon_name)[0].strip()


def resolve_item(datasheet: dict[str, Any], name: str) -> tuple[str, str] | None:
    """(kind, printed name) of an item an option or the loadout names, or None when the
    datasheet has no such weapon or wargear ability (plurals: "2 heavy bolters")."""
    known = item_names(datasheet)
    name = normal_name(name)
    return known.get(name) or known.get(name[:-1] if name.endswith("s") else name)


# ---------------------------------------------------------------- limits and equipping


@dataclass
class Equipment:
    """What each model of one unit carries, and every problem of the choices."""

    names: list[str]
    loadouts: list[Counter]
    unit_items: Counter = field(default_factory=Counter)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, message)


def option_limit(option: dict[str, Any], names: list[str]) -> int:
    """How many models (or, for unit wargear, items) may take the option in a unit whose models
    have these composition names."""
    who = option["who"]
    kind = who["kind"]
    of_name = sum(1 for n in names if n == who["model"]) if who["model"] else len(names)
    if kind == "this_model":
        return len(names)
    if kind == "any":
        return of_name
    if kind in ("up_to", "named"):
        return min(who["count"], of_name)
    counted = sum(1 for n in names if n == who["counted"]) if who["counted"] else len(names)
    allowed = who["count"] or 1
    if kind == "unit":
        return allowed * (counted // who["per"])
    return min(of_name, allowed * (counted // who["per"]))


def _notes(parsed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item for item in parsed if "note" in item]


def equip(datasheet: dict[str, Any], size: int, chosen: list[Any]) -> Equipment:
    """Equip a unit of `size` models: the default loadout, then each chosen option in the
    printed order, taken by the first models that may take it (R-WG-03)."""
    names = composition_names(datasheet, size)
    # Options are read only when some are chosen: a unit with its default loadout needs none.
    parsed = parse_options(datasheet) if chosen else []
    notes = _notes(parsed)
    equipment = Equipment(
        names,
        [
            Counter(_canonical(datasheet, i) for i in lo)
            for lo in default_loadouts(datasheet, names)
        ],
    )
    locked: list[Counter] = [Counter() for _ in names]
    exclusive_used: dict[str, set[int]] = {}
    taken = _read_choices(datasheet, parsed, chosen, equipment)
    for option, choice_counts in taken:
        limit = option_limit(option, names)
        total = sum(choice_counts.values())
        if total > limit:
            equipment.problems.append(
                (
                    "too_many_wargear",
                    f"{total} models take {_short(option)}; {datasheet['name']} allows {limit} "
                    f"with {size} models.",
                )
            )
            continue
        _check_same_choice(datasheet, option, choice_counts, notes, size, equipment)
        exclusive = next(
            (
                n["marker"]
                for n in notes
                if n["note"] == "one_per_model" and option["marker"] == n["marker"]
            ),
            None,
        )
        for choice_index, count in sorted(choice_counts.items()):
            choice = option["choices"][choice_index]
            if option["who"]["kind"] == "unit":
                for item in choice["items"]:
                    name = _canonical(datasheet, item["name"])
                    equipment.unit_items[name] += item["count"] * count
                continue
            for _ in range(count):
                bearer = _first_eligible(
                    option, equipment, locked, exclusive_used.get(cast(str, exclusive))
                )
                if bearer is None:
                    equipment.problems.append(
                        (
                            "wargear_not_eligible",
                            f"No model of {datasheet['name']} can take {_short(option)} "
                            f"({count} asked).",
                        )
                    )
                    break
                _apply(datasheet, option, choice, notes, equipment.loadouts[bearer], locked[bearer])
                if exclusive is not None:
                    exclusive_used.setdefault(exclusive, set()).add(bearer)
    return equipment


def _short(option: dict[str, Any]) -> str:
    return f'option {option["index"] + 1} ("{_clean(option["text"])[:60]}...")'


def _read_choices(
    datasheet: dict[str, Any], parsed: list[dict[str, Any]], chosen: list[Any], equipment: Equipment
) -> list[tuple[dict[str, Any], Counter]]:
    """The chosen entries grouped per option in printed order; malformed or unknown ones are
    problems."""
    per_option: dict[int, Counter] = {}
    known = item_names(datasheet)
    for entry in chosen or []:
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), int) and not isinstance(entry.get(k), bool)
            for k in ("option", "choice", "models")
        ):
            equipment.problems.append(
                ("invalid_wargear", f"A wargear choice is {{option, choice, models}}: {entry!r}.")
            )
            continue
        index, choice, models = entry["option"], entry["choice"], entry["models"]
        option = parsed[index] if 0 <= index < len(parsed) else None
        if option is None or "note" in option:
            equipment.problems.append(
                ("unknown_wargear_option", f"{datasheet['name']} has no wargear option {index}.")
            )
            continue
        if not 0 <= choice < len(option["choices"]):
            equipment.problems.append(
                (
                    "unknown_wargear_choice",
                    f"{_short(option)} of {datasheet['name']} has no choice {choice}.",
                )
            )
            continue
        missing = [
            item["name"]
            for item in option["choices"][choice]["items"]
            if resolve_item(datasheet, item["name"]) is None
        ]
        if missing and known:
            equipment.problems.append(
                (
                    "wargear_not_on_datasheet",
                    f"{datasheet['name']} has no {', '.join(missing)} on its datasheet.",
                )
            )
            continue
        if models < 1:
            equipment.problems.append(
                ("invalid_wargear", f"A wargear choice is taken by at least 1 model: {entry!r}.")
            )
            continue
        per_option.setdefault(index, Counter())[choice] += models
    return [(parsed[index], counts) for index, counts in sorted(per_option.items())]


def _check_same_choice(datasheet, option, choice_counts, notes, size, equipment) -> None:
    limit = None
    if option["distinct"]:
        limit = 1
    for note in notes:
        if note["note"] == "same_choice_limit" and note["marker"] == option["marker"]:
            limit = note["large_limit"] if size >= note["large_unit"] else note["limit"]
    if limit is None:
        return
    for choice_index, count in choice_counts.items():
        if count > limit:
            items = " and ".join(i["name"] for i in option["choices"][choice_index]["items"])
            equipment.problems.append(
                (
                    "wargear_duplicate",
                    f"{datasheet['name']} takes {items} {count} times; at most {limit} with "
                    f"{size} models.",
                )
            )


def _first_eligible(option, equipment: Equipment, locked, excluded) -> int | None:
    who = option["who"]
    for number, (name, carried) in enumerate(zip(equipment.names, equipment.loadouts, strict=True)):
        if who["model"] and name != who["model"]:
            continue
        if excluded and number in excluded:
            continue
        free = carried - locked[number]
        if any(free[item] < 1 for item in option["replaces"]):
            continue
        if any(carried[item] < 1 for item in option["requires"]):
            continue
        return number
    return None


def _canonical(datasheet: dict[str, Any], name: str) -> str:
    """The normal form of the datasheet's own name for an item ("heavy bolters" -> "heavy
    bolter")."""
    found = resolve_item(datasheet, name)
    return normal_name(found[1]) if found else normal_name(name)


def _apply(datasheet, option, choice, notes, carried: Counter, locked: Counter) -> None:
    for item in option["replaces"]:
        carried[item] -= 1
        if carried[item] <= 0:
            del carried[item]
    marked = {n["marker"] for n in notes if n["note"] == "not_replaceable"}
    lock_all = choice["marker"] in marked or (option["marker"] in marked and option["marker"])
    for item in choice["items"]:
        name = _canonical(datasheet, item["name"])
        carried[name] += item["count"]
        if lock_all:
            locked[name] += item["count"]
    for item in option["locks"]:
        locked[item] += 1


def bearing(datasheet: dict[str, Any], carried: Counter) -> dict[str, list[str]]:
    """A model's items as the datasheet prints them: `weapons` (base weapon names, once per
    weapon carried) and `wargear_abilities` (the wargear abilities it bears)."""
    weapons: list[str] = []
    abilities: list[str] = []
    for name, count in sorted(carried.items()):
        found = resolve_item(datasheet, name)
        if found is None:
            continue
        kind, printed = found
        if kind == "weapon":
            weapons.extend([printed] * count)
        else:
            abilities.extend([printed] * count)
    return {"weapons": weapons, "wargear_abilities": abilities}


def choices_offered(datasheet: dict[str, Any]) -> list[dict[str, Any]]:
    """What an army builder offers for this datasheet: each option (`option` is the index an army
    list names) with its printed text, its choices (`choice` index and a label) and how many
    models may take it at each unit size the datasheet is priced for."""
    sizes = sorted({entry["models"] for entry in datasheet.get("points", [])}) or [1]
    offered = []
    for option in options(datasheet):
        offered.append(
            {
                "option": option["index"],
                "text": _clean(option["text"].split("\n")[0]),
                "choices": [
                    {
                        "choice": number,
                        "label": " and ".join(
                            f"{item['count']} {item['name']}" for item in choice["items"]
                        ),
                    }
                    for number, choice in enumerate(option["choices"])
                ],
                "limits": {
                    str(size): option_limit(option, composition_names(datasheet, size))
                    for size in sizes
                },
            }
        )
    return offered


def bears(model: Model, ability: str) -> bool:
    """The model carries the wargear with this wargear ability (alive or not)."""
    wanted = normal_name(ability)
    return any(normal_name(name) == wanted for name in model.get("wargear_abilities", []))


def bearers(unit: Unit, ability: str) -> list[Model]:
    """The living models of a unit in play that bear the wargear with this wargear ability
    (11e 22.04: "that model is the 'bearer' ... until that model is destroyed")."""
    return [model for model in unit["models"] if model["wounds_left"] > 0 and bears(model, ability)]


def unit_wargear_count(unit: Unit, ability: str) -> int:
    """How many items with this wargear ability the unit itself is equipped with ("for each
    Tome-skull this unit is equipped with")."""
    wanted = normal_name(ability)
    return sum(
        normal_name(name) == wanted
        for part in unit["parts"]
        for name in part.get("unit_wargear", [])
    )


def abilities_with_wargear(datasheet: dict[str, Any], borne: set[str]) -> set[str]:
    """The datasheet's abilities the unit has: every one but the wargear abilities of wargear no
    model (nor the unit) has, e.g. Blessed Wardings given up for psychic gifts (R-WG-05)."""
    return {
        ability["name"]
        for ability in datasheet.get("abilities", [])
        if ability.get("kind") != "wargear" or ability["name"] in borne
    }


def wargear_keywords(borne: set[str]) -> set[str]:
    """The keywords the wargear abilities a unit bears give it (`WARGEAR_KEYWORDS`: Psychic
    Gifts, PSYKER), so its unit has them for every rule that checks them (an attached unit has
    every part's keywords)."""
    return {word for name in sorted(borne) for word in WARGEAR_KEYWORDS.get(name, ())}
