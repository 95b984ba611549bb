"""Transport capacity as data (11e §18.01; 10e Transports): read once from a datasheet's
`Transport` ability text, and which models may embark within which TRANSPORT.

The datasheets print capacity in a few fixed sentences:

    "This model has a transport capacity of 12 Astra Militarum Infantry models. Each Ogryn model
     takes up the space of 3 models. It cannot transport Artillery models."

`read_transport_capacity` turns them into `{"capacity": 12, "eligible": ["ASTRA MILITARUM
INFANTRY"], "space": {"OGRYN": 3}, "excluded": ["ARTILLERY"]}` and refuses any sentence it
does not know, so a datasheet whose text it cannot read stops the muster loudly instead of
carrying nobody (or anybody).

A phrase such as "ASTRA MILITARUM INFANTRY" names keywords one after the other: a model matches it
when the phrase splits into keywords the model has (its datasheet keywords and faction keywords).
Keywords match whatever their case, and a word matches its plural ("INQUISITORIAL AGENT" models are
the INQUISITORIAL AGENTS datasheet's), ruling R-TR-01.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Model, TransportCapacity, Unit
from rules.engine.core.state import State

TRANSPORT_ABILITY = "Transport"
CAPACITY_RULE = "18.01 Transport Capacity"

_CAPACITY = re.compile(r"This model has a transport capacity of (\d+) (.+?) models?\.\s*", re.I)
_SPACE = re.compile(r"Each (.+?) model takes up the space of (\d+) models?\.\s*", re.I)
_CANNOT = re.compile(r"It cannot transport (.+?) models?\.\s*", re.I)


def _phrases(text: str, joiner: str) -> list[str]:
    parts = re.split(rf",\s*(?:{joiner}\s+)?|\s+{joiner}\s+", text.strip())
    return [" ".join(part.upper().split()) for part in parts if part.strip()]


def read_transport_capacity(datasheet: dict[str, Any]) -> TransportCapacity | None:
    """The datasheet's transport capacity, or None when it has no `Transport` ability.

    Raises `Refusal` for a text it cannot read in full."""
    ability = next(
        (a for a in datasheet.get("abilities", []) if a.get("name") == TRANSPORT_ABILITY), None
    )
    if ability is None:
        return None
    text = " ".join(str(ability.get("text") or "").split())
    found = _CAPACITY.match(text)
    if found is None:
        raise Refusal(
            "unreadable_transport_capacity",
            CAPACITY_RULE,
            f"{datasheet.get('name')}: cannot read the transport capacity in {text!r}.",
        )
    capacity: TransportCapacity = {
        "capacity": int(found.group(1)),
        "eligible": _phrases(found.group(2), "and"),
        "space": {},
        "excluded": [],
    }
    rest = text[found.end() :]
    while rest:
        space, cannot = _SPACE.match(rest), _CANNOT.match(rest)
        if space is not None:
            for phrase in _phrases(space.group(1), "or"):
                capacity["space"][phrase] = int(space.group(2))
            rest = rest[space.end() :]
        elif cannot is not None:
            capacity["excluded"].extend(_phrases(cannot.group(1), "or"))
            rest = rest[cannot.end() :]
        else:
            raise Refusal(
                "unreadable_transport_capacity",
                CAPACITY_RULE,
                f"{datasheet.get('name')}: cannot read {rest!r} of its Transport ability.",
            )
    return capacity


def _word(word: str) -> str:
    word = word.upper()
    return word[:-1] if len(word) > 3 and word.endswith("S") else word


@lru_cache(maxsize=4096)  # every keyword of every model, at each question of capacity
def _normal(phrase: str) -> tuple[str, ...]:
    return tuple(_word(w) for w in phrase.split())


def phrase_matches(phrase: str, keywords: set[str] | frozenset[str]) -> bool:
    """The phrase splits into consecutive keywords of the model."""
    return _phrase_matches(phrase, frozenset(keywords))


# Asked for every model of every unit against each TRANSPORT's phrases when the legal actions
# of the Declare Battle Formations step list where each unit could start embarked: the answer
# depends on the phrase and the keywords alone.
@lru_cache(maxsize=4096)
def _phrase_matches(phrase: str, keywords: frozenset[str]) -> bool:
    known = {_normal(k) for k in keywords}
    words = _normal(phrase)

    def split(start: int) -> bool:
        if start == len(words):
            return True
        return any(
            words[start:end] in known and split(end) for end in range(start + 1, len(words) + 1)
        )

    return bool(words) and split(0)


def datasheet_keywords(datasheet: dict[str, Any]) -> frozenset[str]:
    return frozenset(datasheet.get("keywords", [])) | frozenset(
        datasheet.get("faction_keywords", [])
    )


def model_keywords(state: State, unit: Unit, model: Model) -> frozenset:
    part = unit["parts"][model["part"]]
    return datasheet_keywords(state["datasheets"][part["datasheet"]])


@implements("datasheet-ability", "chimera/transport", "rhino/transport")
@implements("datasheet-ability", "inquisitorial-chimera/transport")
def model_refusal(capacity: TransportCapacity, keywords: frozenset[str]) -> str | None:
    """Why a model with these keywords cannot embark (None when it can): the datasheet's
    `Transport` ability names who may embark and who may not."""
    if not any(phrase_matches(phrase, keywords) for phrase in capacity["eligible"]):
        return f"only {' and '.join(capacity['eligible'])} models can embark"
    excluded = [p for p in capacity["excluded"] if phrase_matches(p, keywords)]
    if excluded:
        return f"it cannot transport {excluded[0]} models"
    return None


def model_space(capacity: TransportCapacity, keywords: frozenset[str]) -> int:
    """How many places of the capacity a model takes (1 unless the datasheet says more)."""
    return max(
        [n for phrase, n in capacity["space"].items() if phrase_matches(phrase, keywords)],
        default=1,
    )
