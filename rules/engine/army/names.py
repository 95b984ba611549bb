"""The names players see, given once when the armies are mustered (issue 15).

Two units of one datasheet in a game would read alike in every message, prompt and log line, so
each unit whose name another unit shares gets a letter ("Cadian Shock Troops A", "... B") in the
order of the unit ids, and keeps it for the whole battle: the engine's refusals, prompts and
events and the table all read `unit["name"]`. Each model gets a `label` a player can find on the
table: its composition name ("Shock Trooper Sergeant"), numbered when its unit has several.
Refusals that still name a model or unit by id are worded with these names by `worded`.
"""

from __future__ import annotations

import re
import string
from collections import Counter

from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import State

_MODEL_ID = re.compile(r"\b(?:model )?(p[12]-u\d+-m\d+)\b")
_UNIT_ID = re.compile(r"\b(p[12]-u\d+)\b")


def _letter(index: int) -> str:
    letters = string.ascii_uppercase
    return letters[index] if index < len(letters) else f"{index + 1}"


def _model_word(model: Model) -> str:
    words = str(model.get("composition_name") or model.get("name") or "model").split()
    return " ".join(word[:1].upper() + word[1:] for word in words)


def name_units(units: dict[str, Unit]) -> None:
    """Distinct unit names across both armies and a label for each model (in place)."""
    ordered = sorted(units.values(), key=lambda u: (u["player"], _number(u["id"])))
    shared = Counter(unit["name"] for unit in ordered)
    seen: Counter[str] = Counter()
    for unit in ordered:
        base = unit["name"]
        if shared[base] > 1:
            unit["name"] = f"{base} {_letter(seen[base])}"
            seen[base] += 1
        words = Counter(_model_word(model) for model in unit["models"])
        numbered: Counter[str] = Counter()
        for model in unit["models"]:
            word = _model_word(model)
            numbered[word] += 1
            model["label"] = f"{word} {numbered[word]}" if words[word] > 1 else word


def _number(unit_id: str) -> int:
    digits = unit_id.rsplit("u", 1)[-1]
    return int(digits) if digits.isdigit() else 0


def model_label(state: State, model_id: str) -> str | None:
    """ "Strike Squad: Justicar" for a model id, None when there is no such model; a model named
    as its unit is ("Chimera" of the Chimera) is named once."""
    unit = state.get("units", {}).get(model_id.rsplit("-m", 1)[0])
    if unit is None:
        return None
    for model in unit["models"]:
        if model["id"] == model_id:
            label = model.get("label") or _model_word(model)
            return unit["name"] if label == unit["name"] else f"{unit['name']}: {label}"
    return None


def worded(refusal: Refusal, state: State) -> Refusal:
    """The refusal with every model or unit id in its message replaced by the names a player
    sees; the details (for programs) keep the ids."""

    def model(match: re.Match[str]) -> str:
        return model_label(state, match.group(1)) or match.group(0)

    def unit(match: re.Match[str]) -> str:
        found = state.get("units", {}).get(match.group(1))
        return found["name"] if found else match.group(0)

    message = _UNIT_ID.sub(unit, _MODEL_ID.sub(model, refusal.message))
    if message == refusal.message:
        return refusal
    return Refusal(refusal.code, refusal.rule, message, refusal.details)
