"""Hook points: where always-on rules (datasheet abilities, detachment rules, enhancements, faction
abilities) plug into the engine's pipelines without those pipelines naming any rule.

A `Hook` is a named point with a call signature and an ordered list of subscribers. A rule
subscribes with the one decorator `implements(kind, *keys, at=HOOK, order=N)`, which also records
that the rule of the data is implemented (`IMPLEMENTED`, walked by `tests/test_rule_coverage.py`
against the rules data). Subscribers run in ascending `order` (ties are refused), never in import
order, so reordering imports cannot change a game; `tests/test_engine_hook_order.py` pins the
order of every hook. Keyed hooks (`KeyedHook`) map a rule's name to the one function that
resolves it.

`implements(kind, *keys)` without `at` only records the claim (the rule is applied by code the
engine calls directly, or through a timing point or a continuation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

RuleKind = Literal["ability", "datasheet-ability", "detachment-rule", "enhancement"]
KINDS: tuple[RuleKind, ...] = ("ability", "datasheet-ability", "detachment-rule", "enhancement")

# (kind, key) -> "module.qualname" of the implementation (the first one registered)
IMPLEMENTED: dict[tuple[str, str], str] = {}

T = TypeVar("T", bound=Callable[..., Any])


def qualified_name(function: Callable[..., Any]) -> str:
    return f"{function.__module__}.{function.__qualname__}"


@dataclass(frozen=True)
class Subscriber:
    order: int
    name: str
    function: Callable[..., Any]


@dataclass
class Hook:
    """A named point in a pipeline, the call signature its subscribers share, and the subscribers
    in ascending order."""

    name: str
    signature: str
    subscribers: list[Subscriber] = field(default_factory=list)

    def subscribe(self, function: Callable[..., Any], order: int) -> None:
        clash = next((s for s in self.subscribers if s.order == order), None)
        if clash is not None and clash.name != qualified_name(function):
            raise ValueError(f"hook {self.name}: order {order} taken by {clash.name}")
        if clash is None:
            self.subscribers.append(Subscriber(order, qualified_name(function), function))
            self.subscribers.sort(key=lambda s: s.order)

    def __iter__(self) -> Iterator[Callable[..., Any]]:
        return iter([s.function for s in self.subscribers])

    def __len__(self) -> int:
        return len(self.subscribers)

    def __getitem__(self, index: Any) -> Any:
        """Subscribers from a position on: a continuation keeps its place in the order."""
        return [s.function for s in self.subscribers][index]

    def order(self) -> list[str]:
        return [f"{s.order} {s.name}" for s in self.subscribers]


@dataclass
class KeyedHook:
    """A named point where the rule answering a key (a choice's rule name) is looked up."""

    name: str
    signature: str
    entries: dict[str, Any] = field(default_factory=dict)

    def add(self, key: str, value: Any) -> None:
        if key in self.entries and self.entries[key] != value:
            raise ValueError(f"hook {self.name}: {key!r} registered twice")
        self.entries[key] = value

    def __getitem__(self, key: str) -> Any:
        return self.entries[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.entries.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.entries


HOOKS: dict[str, Hook | KeyedHook] = {}


def hook(name: str, signature: str) -> Hook:
    """Declare a hook point (once, in the module of the pipeline that calls it)."""
    if name in HOOKS:
        raise ValueError(f"hook {name!r} declared twice")
    declared = HOOKS[name] = Hook(name, signature)
    return declared


def keyed_hook(name: str, signature: str) -> KeyedHook:
    if name in HOOKS:
        raise ValueError(f"hook {name!r} declared twice")
    declared = HOOKS[name] = KeyedHook(name, signature)
    return declared


def slug(name: str) -> str:
    """'Leader: other Leaders' -> 'leader-other-leaders'; apostrophes vanish ('Ancient's')."""
    name = re.sub(r"['\u2019]", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-")


def datasheet_ability_key(datasheet_slug: str, ability_name: str) -> str:
    """A datasheet's own ability is keyed by its datasheet: two sheets may print the same name
    with different texts."""
    return f"{datasheet_slug}/{slug(ability_name)}"


def implements(
    kind: RuleKind, *keys: str, at: Hook | None = None, order: int | None = None
) -> Callable[[T], T]:
    """Record the decorated callable as the implementation of each key (ability slug,
    'datasheet/ability', detachment slug or enhancement slug) and, with `at` and `order`,
    subscribe it to that hook point."""
    if kind not in KINDS:
        raise ValueError(f"unknown rule kind {kind!r}")
    if (at is None) != (order is None):
        raise ValueError("a hook subscription needs both `at` and `order`")

    def register(implementation: T) -> T:
        for key in keys:
            IMPLEMENTED.setdefault((kind, key), qualified_name(implementation))
        if at is not None and order is not None:
            at.subscribe(implementation, order)
        return implementation

    return register


def hook_order() -> dict[str, list[str]]:
    """Every hook point and its subscribers in the order they run (keyed hooks: sorted keys)."""
    found: dict[str, list[str]] = {}
    for name, point in sorted(HOOKS.items()):
        if isinstance(point, Hook):
            found[name] = point.order()
        else:
            found[name] = sorted(point.entries)
    return found
