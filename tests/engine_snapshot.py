"""What the engine's order and saved vocabulary are today, as one JSON document: every hook point
and timing point with its subscribers in the order they run, the reactions at the set-up and
move timing points, the continuation names and the decision kinds (both stored in saved games),
and the stratagem implementations.

`tests/test_engine_snapshot.py` compares it with `tests/data/snapshots/engine.json`. After a
change meant to alter it, write the file again and review the diff:

    .venv/bin/python -m tests.engine_snapshot
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import rules.engine  # noqa: F401  (loads every rule package: core/plugins.py)
from rules.engine.core.hooks import hook_order
from rules.engine.core.reactions import REACTIONS
from rules.engine.core.sequencing import CONTINUATIONS
from rules.engine.core.timing import timing_order
from rules.engine.stratagems.effects import IMPLEMENTATIONS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "rules" / "engine"
SNAPSHOT = ROOT / "tests" / "data" / "snapshots" / "engine.json"


def _module_strings(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def decision_kinds() -> list[str]:
    """The `kind` of every `push_decision(ctx, player, kind, ...)` call in the engine: a string,
    or a module-level string constant (of the module, or imported by name from another engine
    module). Anything else fails: kinds are stored in saved games."""
    kinds = set()
    paths = sorted(ENGINE.rglob("*.py"))
    trees = {path: ast.parse(path.read_text("utf-8")) for path in paths}
    strings = {_module_name(path): _module_strings(tree) for path, tree in trees.items()}
    for path, tree in trees.items():
        constants = dict(strings[_module_name(path)])
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module in strings:
                for alias in node.names:
                    if alias.name in strings[node.module]:
                        constants[alias.asname or alias.name] = strings[node.module][alias.name]
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "push_decision"
            ):
                continue
            kind = node.args[2] if len(node.args) > 2 else None
            if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                kinds.add(kind.value)
            elif isinstance(kind, ast.Name) and kind.id in constants:
                kinds.add(constants[kind.id])
            else:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                raise ValueError(f"{where}: a decision kind must be a string constant")
    return sorted(kinds)


def event_kinds() -> list[str]:
    """The `type` of every event the engine emits (each `ctx.emit(TYPE, ...)` call, its type a
    string), `new_game`'s first event (written out, not emitted) and the one the site adds to a
    game's log (a concession: `games.results.CONCEDED`). Anything else fails: the browser words
    each type (`static/js/describe.js`)."""
    kinds = {"game_created", "game_conceded"}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "emit"):
                continue
            kind = node.args[0] if node.args else None
            if not (isinstance(kind, ast.Constant) and isinstance(kind.value, str)):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                raise ValueError(f"{where}: an event type must be a string constant")
            kinds.add(kind.value)
    return sorted(kinds)


def snapshot() -> dict[str, Any]:
    return {
        "hooks": hook_order(),
        "timing_points": timing_order(),
        "reactions": {
            name: sorted(reaction.moments)
            for name, reaction in sorted(REACTIONS.items())
            if reaction.react.__module__.startswith("rules.engine.")
        },
        # the engine's own: a test module may register a continuation of its own
        "continuations": sorted(
            name
            for name, function in CONTINUATIONS.items()
            if function.__module__.startswith("rules.engine.")
        ),
        "decision_kinds": decision_kinds(),
        "stratagem_implementations": sorted(IMPLEMENTATIONS),
    }


def write() -> None:
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    SNAPSHOT.write_text(json.dumps(snapshot(), indent=1, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {SNAPSHOT.relative_to(ROOT)}")
