"""The tree shows the layers: the engine, the bots, the play layer, the analysis room, the front ends, and the
command on top.

Each layer imports only the layers below it, and front ends never import each other: the terminal app, the tools,
the web server and the RL environments (``envs``).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "racko"
FRONT_ENDS = {"terminal", "tools", "web", "envs"}
ABOVE_THE_ENGINE = {"bots", "play", "analysis", "cli", *FRONT_ENDS}


def _racko_imports(path: Path) -> set[str]:
    """The racko modules ``path`` imports, as their second name part (``racko.play.loop`` -> ``play``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "racko" and len(parts) > 1:
                found.add(parts[1])
    return found


def _layer_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    if len(relative.parts) > 1:
        return relative.parts[0] if relative.parts[0] in ABOVE_THE_ENGINE else "engine"
    return "cli" if relative.stem == "cli" else "engine"


ALLOWED = {
    "engine": set(),
    "bots": {"bots"},
    "play": {"bots", "play"},
    # Learning from the computer players (review, explained hints, the lesson, puzzles): below every front end.
    "analysis": {"bots", "play", "analysis"},
    **{front_end: {"bots", "play", "analysis", front_end} for front_end in FRONT_ENDS},
    "cli": ABOVE_THE_ENGINE - {"cli"},
}


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer_of(path)
        for imported in _racko_imports(path) & ABOVE_THE_ENGINE:
            if imported not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(PACKAGE)} ({layer}) imports racko.{imported}")
    assert not wrong, "\n".join(wrong)


def test_front_ends_do_not_import_each_other() -> None:
    for front_end in FRONT_ENDS:
        for path in (PACKAGE / front_end).rglob("*.py"):
            others = _racko_imports(path) & (FRONT_ENDS - {front_end})
            assert not others, f"{path.relative_to(PACKAGE)} imports the front end(s) {others}"


def test_every_module_of_the_package_is_in_a_known_layer() -> None:
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and not path.name.startswith("__")}
    assert folders <= ABOVE_THE_ENGINE | {"highlow"}, folders
