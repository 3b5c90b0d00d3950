"""The suite's own checks: lint, formatting, strict typing, and the rules core's layering."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "racko"
CORE_MODULES = {
    "actions",
    "errors",
    "events",
    "families",
    "highlow",
    "match",
    "observation",
    "record",
    "round",
    "rules",
    "scoring",
    "table",
}


def _tool(name: str) -> list[str]:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the test extra (pip install -e '.[test]')")
    return [found]


def test_ruff_lint() -> None:
    run = subprocess.run([*_tool("ruff"), "check", "src", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format() -> None:
    run = subprocess.run(
        [*_tool("ruff"), "format", "--check", "src", "tests"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "src/racko"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            if node.module.split(".")[0] == "racko":  # ``from racko import events`` imports racko.events
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_rules_core_imports_only_the_standard_library_and_itself() -> None:
    engine = [PACKAGE / f"{name}.py" for name in [*sorted(CORE_MODULES - {"highlow"}), "__init__"]]
    engine += sorted((PACKAGE / "highlow").glob("*.py"))
    for path in engine:
        for module in _imports(path):
            top = module.split(".")[0]
            if module == "racko":
                continue  # the package itself; what it names is checked as racko.<name>
            if top == "racko":
                inner = module.split(".")[1]
                assert inner in CORE_MODULES, f"core module {path.name} imports {module}, which is not in the core"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", (
                    f"core module {path.name} imports {module}"
                )


def test_importing_racko_loads_no_third_party_module() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import racko\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(','.join(sorted(new - set(sys.stdlib_module_names) - {'racko'})))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == ""
