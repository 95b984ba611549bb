"""Every decision kind the engine can push has its options in words in the browser.

The kinds are collected from the engine's source (each `push_decision(ctx, player, KIND, ...)`
call, its kind a string or a module constant), so a new kind without an entry in
`static/js/describe.js`'s `DECISION_WORDS` fails here instead of reaching players as raw JSON.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rules" / "engine"
DESCRIBE = ROOT / "static" / "js" / "describe.js"


def _constants(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def pushed_decision_kinds() -> dict[str, str]:
    """kind -> where it is pushed (file:line), for every push_decision call in rules/engine."""
    kinds = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name != "push_decision":
                continue
            argument = next((k.value for k in node.keywords if k.arg == "kind"), None)
            if argument is None and len(node.args) > 2:
                argument = node.args[2]
            if isinstance(argument, ast.Constant):
                kind = argument.value
            elif isinstance(argument, ast.Name) and argument.id in constants:
                kind = constants[argument.id]
            else:
                raise AssertionError(
                    f"{path.relative_to(ROOT)}:{node.lineno}: push_decision with a kind this "
                    "scan cannot read; name it with a string or a module constant"
                )
            kinds[kind] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return kinds


def labelled_kinds() -> set[str]:
    text = DESCRIBE.read_text()
    block = text[text.index("export const DECISION_WORDS = {") :]
    block = block[: block.index("\n};")]
    return set(re.findall(r"^  ([a-z_]+):", block, flags=re.MULTILINE))


def test_the_scan_finds_the_engine_decisions():
    kinds = pushed_decision_kinds()
    for kind in ("issue_order", "select_units", "ability_choice", "normal_move", "redeploy_unit"):
        assert kind in kinds


def test_every_decision_kind_the_engine_pushes_has_words_in_describe_js():
    missing = {
        k: where for k, where in pushed_decision_kinds().items() if k not in labelled_kinds()
    }
    assert not missing, f"decision kinds without words in static/js/describe.js: {missing}"
