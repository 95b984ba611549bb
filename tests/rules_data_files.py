"""Helpers the rules-data tests share: where the data files and the shared reference texts are,
and how to walk every record of every bundle (see docs/rules-data-format.md)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_ROOT / "rules" / "data"
BUNDLE_KINDS = (
    "rulesets",
    "factions",
    "abilities",
    "detachments",
    "stratagems",
    "enhancements",
    "datasheets",
    "missions",
)


MISSING_SHARED = (
    "the reference texts (shared/rules/CATALOGUE.md, shared/seeds) are not beside this clone: "
    "set STRATEGIUM_SHARED_DIR to the shared/ folder to run this test"
)


def find_shared_dir() -> Path | None:
    """`shared/` sits beside the project (`../shared`); worktrees live one level deeper, so look
    in every ancestor. STRATEGIUM_SHARED_DIR overrides the search."""
    if override := os.environ.get("STRATEGIUM_SHARED_DIR"):
        candidate = Path(override)
        return candidate if (candidate / "rules" / "CATALOGUE.md").is_file() else None
    for ancestor in PROJECT_ROOT.parents:
        candidate = ancestor / "shared"
        if (candidate / "rules" / "CATALOGUE.md").is_file():
            return candidate
    return None


def shared_dir() -> Path:
    """The shared reference texts, or skip the test that needs them with a reason naming
    STRATEGIUM_SHARED_DIR. CI sets STRATEGIUM_REQUIRE_SHARED=1: there a missing folder fails."""
    found = find_shared_dir()
    if found is not None:
        return found
    if os.environ.get("STRATEGIUM_REQUIRE_SHARED") == "1":
        raise FileNotFoundError(MISSING_SHARED + " (STRATEGIUM_REQUIRE_SHARED=1 requires it)")
    pytest.skip(MISSING_SHARED)


@cache
def seed_lines(number: str) -> tuple[str, ...]:
    """The lines of seed `000`, `003` or `004`, as printed (line 1 is index 0)."""
    (path,) = (shared_dir() / "seeds").glob(f"{number}_*.txt")
    return tuple(path.read_text(encoding="utf-8").split("\n"))


def data_files() -> list[Path]:
    return sorted(DATA_DIR.rglob("*.json"))


@cache
def _read(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def bundle(path: Path) -> dict[str, list[dict]]:
    """The file as a bundle; `rulesets.json` may still be the bare list it was before bundles."""
    content = _read(path)
    if isinstance(content, list) and path.name == "rulesets.json":
        return {"rulesets": content}
    return content


def records(kind: str) -> Iterator[tuple[Path, dict]]:
    for path in data_files():
        content = bundle(path)
        if isinstance(content, dict):
            for record in content.get(kind, []):
                yield path, record


def nested_dicts(value: object) -> Iterator[dict]:
    """Every dict inside a record, the record included (datasheet abilities carry IDs too)."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from nested_dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from nested_dicts(item)


def datasheet_named(name: str) -> dict:
    (found,) = [record for _, record in records("datasheets") if record["name"] == name]
    return found
