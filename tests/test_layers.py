"""The tree shows the layers: the engine, the bots, the play layer, the analysis room, the front ends, and the
command on top.

Each layer imports only the layers below it, and front ends never import each other: the terminal app, the tools,
the web server and the RL environments (``envs``).
"""

from __future__ import annotations

import ast
import re
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


WEB = PACKAGE / "web"
WEB_ROOMS = {path.name for path in WEB.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
"""The web server's rooms: a folder each (the table, the lobby, the players, ratings, review, puzzles, learn, the
core they share, the store, operations)."""


def _web_imports(path: Path) -> set[tuple[str, ...]]:
    """The ``racko.web`` modules and names ``path`` imports, as their parts after ``racko.web``."""
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        found |= {tuple(name.split(".")[2:]) for name in names if name.startswith("racko.web.")}
    return found


def test_a_web_room_reaches_another_only_through_that_room_s_public_module() -> None:
    """Each room (``racko/web/<room>/``) is reached from outside it by its package only (``from racko.web.lobby
    import Lobby``), never by one of its modules: what a room exports in its ``__init__`` is all the others may use,
    so that a change inside one room touches no other."""
    assert {"core", "store", "table", "lobby", "players", "ratings", "review", "puzzles", "learn"} <= WEB_ROOMS
    wrong = []
    for path in sorted(WEB.rglob("*.py")):
        relative = path.relative_to(WEB)
        own = relative.parts[0] if len(relative.parts) > 1 else None
        for parts in _web_imports(path):
            if parts and parts[0] in WEB_ROOMS and parts[0] != own and len(parts) > 1:
                wrong.append(f"{relative} imports racko.web.{'.'.join(parts)}")
    assert not wrong, "\n".join(wrong)


def test_the_web_package_is_rooms_and_the_module_that_joins_them() -> None:
    """Nothing but the rooms' folders, the static files they share, and the modules that build the server and its
    command."""
    loose = {path.name for path in WEB.glob("*.py")} - {"__init__.py", "app.py", "command.py"}
    assert not loose, f"modules outside any room: {sorted(loose)}"
    assert sorted(path.name for path in WEB.iterdir() if not path.is_dir()) == ["__init__.py", "app.py", "command.py"]


def test_a_room_s_pages_load_only_its_own_files_and_the_core_s() -> None:
    """A page of ``racko/web/<room>/static/`` loads scripts and styles from ``/static/<room>/`` and ``/static/core/``
    only, and each of them is there: a room's files move with it."""
    wrong = []
    for page in sorted(WEB.glob("*/static/*.html")):
        room = page.parent.parent.name
        for used in re.findall(r'(?:src|href)="/static/([^"]+)"', page.read_text(encoding="utf-8")):
            owner, _, name = used.partition("/")
            if owner not in (room, "core") or not (WEB / owner / "static" / name).is_file():
                wrong.append(f"{room}/{page.name} loads /static/{used}")
    assert not wrong, "\n".join(wrong)
