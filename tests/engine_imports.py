"""The import graph of `rules/engine`, read from the source (no module is imported): which
engine module imports which, at module level and inside functions."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "rules" / "engine"
# Lowest first: a module may import from its own layer and the layers below it.
LAYERS = (
    "core",
    "battlefield",
    "army",
    "attacks",
    "phases",
    "sequence",
    "stratagems",
    "factions",
    "tools",
)


def module_name(path: Path) -> str:
    parts = ("rules", "engine", *path.relative_to(ENGINE).with_suffix("").parts)
    return ".".join(parts).removesuffix(".__init__")


MODULES = {module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool


def _targets(node: ast.ImportFrom | ast.Import) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    if not node.module or not node.module.startswith("rules.engine"):
        return []
    found = []
    for alias in node.names:
        submodule = f"{node.module}.{alias.name}"
        found.append(submodule if submodule in MODULES else node.module)
    return sorted(set(found))


def imports_of(module: str) -> list[Import]:
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _targets(node):
                found.append(Import(module, target, node.lineno, id(node) in inside))
    return found


def all_imports() -> list[Import]:
    return [i for module in MODULES for i in imports_of(module)]


def layer(module: str) -> str | None:
    """The layer of an engine module; None for the public face `rules.engine` itself."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else None


def cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in imports:
        if i.imported != "rules.engine":
            graph[i.importer].add(i.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)
