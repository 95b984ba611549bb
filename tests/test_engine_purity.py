"""The rules engine is a pure Python core: no module of rules/engine imports Django."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "rules" / "engine"
MODULES = sorted(
    ".".join(("rules", "engine", *p.relative_to(ENGINE).with_suffix("").parts)).removesuffix(
        ".__init__"
    )
    for p in ENGINE.rglob("*.py")
)


def test_no_engine_module_names_django_or_the_apps_in_an_import():
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in {"django", "rest_framework", "channels", "games", "tabletop"}, (
                    f"{path.name} imports {name}"
                )
                assert not name.startswith("rules.") or name.startswith("rules.engine"), (
                    f"{path.name} imports {name}"
                )


def test_every_engine_module_imports_with_django_unimportable():
    program = (
        "import sys\n"
        "sys.modules['django'] = None\n"
        "import importlib\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "assert 'django' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "print('pure')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ENGINE.parent.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "pure"
    assert len(MODULES) > 20
