"""The rooms' own tables (issue 36): each room that keeps rows in the store writes their SQL in its own
``tables.sql``, package data, which :meth:`SchemaPart.of_room` reads."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import racko
from racko.web.app import schema_parts

PACKAGE = Path(racko.__file__).parent


def test_every_room_with_tables_reads_its_own_sql() -> None:
    parts = schema_parts()
    assert sorted(part.room for part in parts) == sorted(
        path.parent.name for path in (PACKAGE / "web").glob("*/tables.sql")
    )
    for part in parts:
        assert part.tables == (PACKAGE / "web" / part.room / "tables.sql").read_text(encoding="utf-8")
        assert "CREATE TABLE IF NOT EXISTS" in part.tables
        assert set(part.kept_by_table) <= {word.strip("(") for word in part.tables.split()}


def test_the_tables_are_package_data() -> None:
    config = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["racko"]
    for path in (PACKAGE / "web").glob("*/tables.sql"):
        inside = path.relative_to(PACKAGE).as_posix()
        assert any(fnmatch(inside, pattern) for pattern in patterns), inside
