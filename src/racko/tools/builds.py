"""Bots of another build of racko, seated beside this build's: ``NAME@DIR`` names the bot ``NAME`` as the racko
source tree at ``DIR`` builds it (a git worktree of an older commit, say), so that a change to the bots can be
measured against the build before it on the same deals (``racko arena --bots hard,hard@../racko-before``).

The other tree's ``src/racko/bots`` package is loaded under a name of its own (its compiled kernel too, when it was
built there: ``pip install -e DIR`` builds it in place), with its imports of ``racko.bots`` pointed at that copy; it
plays on this build's rules engine, so the two builds must agree on the engine (observations, actions, rules).
Nothing of the other build is copied into this package.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import CodeType, ModuleType

from racko.bots import base
from racko.errors import RackoError

SEPARATOR = "@"

_loaded: dict[Path, str] = {}
"""Bots packages loaded so far: source tree -> the name of its package here."""


def is_other_build(name: str) -> bool:
    """Whether a bot's name names another build's bot (``NAME@DIR``)."""
    return SEPARATOR in name


def register_other_builds(names: Sequence[str]) -> None:
    """Make every ``NAME@DIR`` of ``names`` known to :func:`racko.bots.create` (for this process, and worker
    processes forked after it); other names are left alone.  A clear error when a tree or a bot is not there."""
    for name in names:
        if is_other_build(name) and name not in base.available():
            bot_name, _, tree = name.partition(SEPARATOR)
            registry = _bots_of(Path(tree).expanduser().resolve())
            if bot_name not in registry:
                raise RackoError(f"{tree} has no bot {bot_name!r}; it has: {', '.join(sorted(registry))}.")
            cls = registry[bot_name]
            base.register(type(cls.__name__, (cls,), {"name": name, "__module__": cls.__module__}))


def other_bots_module(tree: str, name: str) -> ModuleType:
    """The module ``racko.bots.<name>`` as the source tree ``tree`` has it (``gaps``, say)."""
    package = _package_of(Path(tree).expanduser().resolve())
    try:
        return importlib.import_module(f"{package}.bots.{name}")
    except ImportError:
        raise RackoError(f"{tree} has no module racko.bots.{name}.") from None


def _bots_of(tree: Path) -> dict[str, type[base.Bot]]:
    """The registry of the bots package of the source tree ``tree``."""
    other_base = sys.modules[f"{_package_of(tree)}.bots.base"]
    registry: dict[str, type[base.Bot]] = other_base._REGISTRY
    return registry


def _package_of(tree: Path) -> str:
    """The name here of the bots package of the source tree ``tree``, loaded once."""
    package = _loaded.get(tree)
    if package is None:
        folder = tree / "src" / "racko" / "bots"
        if not (folder / "__init__.py").is_file():
            raise RackoError(f"{tree} is not a racko source tree (no src/racko/bots/__init__.py there).")
        package = f"racko_build_{len(_loaded) + 1}"
        sys.meta_path.insert(0, _OtherBuildFinder(package, folder))
        top = ModuleType(package)
        top.__path__ = []
        sys.modules[package] = top
        try:
            importlib.import_module(f"{package}.bots")
        except Exception as error:  # the other build's code, whatever it raises
            raise RackoError(f"the bots of {tree} do not load on this build: {error}") from None
        _loaded[tree] = package
    return package


class _OtherBuildFinder(importlib.abc.MetaPathFinder):
    """Finds ``<package>.bots`` and its modules in another tree's bots folder."""

    def __init__(self, package: str, folder: Path) -> None:
        self.package = package
        self.folder = folder

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = f"{self.package}.bots"
        if fullname == prefix:
            init = self.folder / "__init__.py"
            loader = _RenamingLoader(fullname, str(init), self.package)
            return importlib.util.spec_from_file_location(
                fullname, init, loader=loader, submodule_search_locations=[str(self.folder)]
            )
        if not fullname.startswith(prefix + "."):
            return None
        leaf = fullname[len(prefix) + 1 :]
        source = self.folder / f"{leaf}.py"
        if source.is_file():
            return importlib.util.spec_from_file_location(
                fullname, source, loader=_RenamingLoader(fullname, str(source), self.package)
            )
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            compiled = self.folder / f"{leaf}{suffix}"
            if compiled.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, compiled, loader=importlib.machinery.ExtensionFileLoader(fullname, str(compiled))
                )
        return None


class _RenamingLoader(importlib.machinery.SourceFileLoader):
    """Loads a module of the other build with its imports of ``racko.bots`` pointed at the other build's copy."""

    def __init__(self, fullname: str, path: str, package: str) -> None:
        super().__init__(fullname, path)
        self.package = package

    def get_code(self, fullname: str) -> CodeType:  # no bytecode cache: the source is rewritten
        source = self.get_data(self.get_filename(fullname)).decode("utf-8")
        source = re.sub(r"\bfrom racko import bots\b", f"from {self.package} import bots", source)
        source = re.sub(r"\bracko\.bots\b", f"{self.package}.bots", source)
        return compile(source, self.get_filename(fullname), "exec", dont_inherit=True)
