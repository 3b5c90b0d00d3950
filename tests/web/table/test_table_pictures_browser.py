"""The README's pictures of the table (docs/images/table-desktop.png, table-phone.png) show the table as it is: this
test makes them again in Chromium from the same seeded game at the same position (tests/pictures.py) and compares
them with the files by what they show.  It never writes them: after a change to the table's looks it fails, saying
which picture differs, until the pictures are made again by the explicit command
``PYTHONPATH=src .venv/bin/python tests/pictures.py`` (the new pictures go to the screenshots folder too, to look
at first)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Browser

import pictures
from browsing import serving


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, chromium: Browser) -> Iterator[dict[str, bytes]]:
    folder = tmp_path_factory.mktemp("pictures")
    with serving(folder) as server:
        yield pictures.pictures(chromium, server, folder / "tables.sqlite3")


def test_the_readme_s_pictures_show_the_table_as_it_is(made: dict[str, bytes], shots: Path) -> None:
    readme = (Path(pictures.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    unlike = {}
    for screen, png in made.items():
        (shots / f"table-{screen}.png").write_bytes(png)
        kept = pictures.IMAGES / f"table-{screen}.png"
        assert f"(docs/images/table-{screen}.png)" in readme
        assert kept.stat().st_size < 300_000, kept  # small enough to keep in git
        found = pictures.unlike(png, kept)
        if found:
            unlike[screen] = found
    assert unlike == {}, "the table looks different now: PYTHONPATH=src .venv/bin/python tests/pictures.py"


def test_the_pictures_are_made_the_same_every_time_and_the_comparison_sees_a_change(
    made: dict[str, bytes], chromium: Browser, tmp_path: Path
) -> None:
    with serving(tmp_path) as server:
        again = pictures.pictures(chromium, server, tmp_path / "tables.sqlite3")
    assert again == made  # byte for byte: nothing in them depends on the moment or the run
    desktop = tmp_path / "desktop.png"
    desktop.write_bytes(made["desktop"])
    assert pictures.unlike(made["desktop"], desktop) is None
    picture = Image.open(io.BytesIO(made["desktop"])).convert("RGB")
    moved = io.BytesIO()
    ImageChops.offset(picture, 0, 12).save(moved, "PNG")  # the whole table a little lower
    assert pictures.unlike(moved.getvalue(), desktop) is not None
    changed = picture.copy()
    rack = changed.crop((160, 640, 290, 730))  # two of Ann's cards swapped: a change of a few cards' size
    changed.paste(rack.crop((65, 0, 130, 90)), (160, 640))
    changed.paste(rack.crop((0, 0, 65, 90)), (225, 640))
    swapped = io.BytesIO()
    changed.save(swapped, "PNG")
    assert pictures.unlike(swapped.getvalue(), desktop) is not None
    phone = tmp_path / "phone.png"
    phone.write_bytes(made["phone"])
    assert pictures.unlike(made["desktop"], phone) is not None  # another size
