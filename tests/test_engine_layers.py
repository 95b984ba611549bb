"""The layer contract of the rules engine (docs/architecture.md, "The engine's layers"):

    core < battlefield < army < attacks < phases < sequence < stratagems < factions < tools

A module imports from its own layer and the layers below; nothing outside `factions/` imports a
faction package; `games/` and the rules-data app import only the public face `rules.engine`; no
import cycles; no imports inside functions. The lists of known breaches below are empty and stay
so: any new breach fails.
"""

import ast

from tests.engine_imports import LAYERS, MODULES, ROOT, all_imports, cycles, layer

IMPORTS = all_imports()
RANK = {name: rank for rank, name in enumerate(LAYERS)}
E = "rules.engine."

# (importer, imported) that point up the layers today
KNOWN_UPWARD: set[tuple[str, str]] = set()
# modules in import cycles today, one set per cycle
KNOWN_CYCLES: list[set[str]] = []
# (importer, imported) imported inside a function today
KNOWN_IN_FUNCTION: set[tuple[str, str]] = set()


def _short(name: str) -> str:
    return name.removeprefix(E)


def test_no_engine_module_imports_from_a_layer_above_its_own():
    upward = {
        (_short(i.importer), _short(i.imported))
        for i in IMPORTS
        if layer(i.importer) and layer(i.imported)
        if RANK[layer(i.imported)] > RANK[layer(i.importer)]
    }
    assert sorted(upward - KNOWN_UPWARD) == [], "new imports up the layers"
    assert sorted(KNOWN_UPWARD - upward) == [], "gone: remove them from KNOWN_UPWARD"


def test_only_faction_packages_import_a_faction_package():
    outside = sorted(
        f"{_short(i.importer)} -> {_short(i.imported)}"
        for i in IMPORTS
        if layer(i.imported) == "factions" and layer(i.importer) != "factions"
        if (_short(i.importer), _short(i.imported)) not in KNOWN_UPWARD
    )
    assert outside == []


def test_no_faction_package_imports_another_faction_package():
    def faction(module: str) -> str:
        return module.split(".")[3]

    crossing = sorted(
        f"{_short(i.importer)} -> {_short(i.imported)}"
        for i in IMPORTS
        if layer(i.imported) == "factions" and layer(i.importer) == "factions"
        if faction(i.imported) != faction(i.importer)
    )
    assert crossing == []


def test_the_engine_has_no_import_cycles():
    found = [set(_short(m) for m in cycle) for cycle in cycles(IMPORTS)]
    assert [sorted(c) for c in found if c not in KNOWN_CYCLES] == [], "new import cycles"
    assert [sorted(c) for c in KNOWN_CYCLES if c not in found] == [], "gone: update KNOWN_CYCLES"


def test_no_engine_module_imports_inside_a_function():
    inside = {(_short(i.importer), _short(i.imported)) for i in IMPORTS if i.in_function}
    assert sorted(inside - KNOWN_IN_FUNCTION) == [], "new imports inside functions"
    assert sorted(KNOWN_IN_FUNCTION - inside) == [], "gone: remove them from KNOWN_IN_FUNCTION"


def test_the_apps_import_only_the_engines_public_face():
    outside = []
    for folder in ("games", "rules", "tabletop"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if (ROOT / "rules" / "engine") in path.parents:
                continue
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                outside += [
                    f"{path.relative_to(ROOT)}: {name}" for name in names if name.startswith(E)
                ]
    assert outside == []


def test_every_engine_module_is_in_a_layer():
    assert sorted(m for m in MODULES if layer(m) and layer(m) not in RANK) == []
