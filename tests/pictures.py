"""The README's pictures of the table: made by the browser tests' own Chromium from a seeded game at a fixed position,
so that they show the table as it is.

``docs/images/table-desktop.png`` (1280×800) and ``docs/images/table-phone.png`` (390×844, touch) show Ann's turn in
a three-player game of classic Rack-O (seed 7, the fixed position :data:`MOVES` actions in), in English, with motion
reduced.  ``tests/web/table/test_table_pictures_browser.py`` makes them again on every run and compares them with the
files, by what they show (:func:`unlike`: the same size, and nearly every pixel alike once both are shrunk, so that
another machine's font smoothing passes while a part of the page moved by a pixel, or a card changed, fails; a word
changed in small print may pass); the files change only when this is run as a program, the explicit command (after a
change to the table's looks, to keep the README true)::

    PYTHONPATH=src .venv/bin/python tests/pictures.py
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from playwright.sync_api import Browser, expect, sync_playwright

from browsing import DESKTOP, PHONE_UPRIGHT, file_table, launch, link, open_page, played_game, serving, situation

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
SCREENS = {"desktop": DESKTOP, "phone": PHONE_UPRIGHT}
"""Each picture's screen: ``docs/images/table-<screen>.png``."""
NAMES, BOTS, SEED = ["Ann", "Bob", "Cy"], [None, "medium", "hard"], 7
MOVES = 18
"""The pictures' position: the game's first this many actions (three turns each), then Ann's turn begins."""
SHRINK = 4
"""The pictures are compared shrunk by this much (each pixel the mean of a 4×4 block): text stays legible to the
comparison, a font's smoothing on another machine does not."""
UNLIKE_PIXELS = 0.002
"""Two pictures are unlike when more than this share of the shrunk pixels differ by more than :data:`UNLIKE_LEVEL`."""
UNLIKE_LEVEL = 40


LEAVE_OUT = """() => {
  for (const element of document.querySelectorAll(".clock")) element.style.visibility = "hidden";
  for (const element of document.querySelectorAll("*")) element.style.scrollbarWidth = "none";
}"""


def the_table(db: Path) -> dict[str, Any]:
    """The pictures' table, filed at ``db`` as the server keeps one: Ann (a person, seat 0) to play, Bob and Cy
    computer players, the same every time."""
    rules, actions, _ = played_game("classic", NAMES, ["medium", "medium", "hard"], seed=SEED)
    shown = actions[:MOVES]
    assert actions[MOVES]["seat"] == 0 and actions[MOVES - 1]["seat"] != 0, "the pictures' position is Ann's turn"
    return file_table(db, rules, SEED, NAMES, BOTS, shown)


def pictures(browser: Browser, server: str, db: Path) -> dict[str, bytes]:
    """The table at the pictures' position on each screen, as PNG bytes."""
    table = the_table(db)
    made = {}
    for screen, context in SCREENS.items():
        page = open_page(browser, link(server, table, 0), **context, locale="en-GB", reduced_motion="reduce")
        try:
            expect(page.locator("#prompt")).to_have_attribute("data-situation", "pick")
            expect(page.locator("#rack .slot .card")).to_have_count(10)
            assert situation(page) == "pick"
            page.evaluate("document.fonts.ready")
            # How long the turn has lasted counts up in seconds, and a panel's scroll bar fades after it scrolled: the
            # things on the table that a picture would catch at another moment each time, so the pictures leave them
            # out (by the elements' own style: the page's Content-Security-Policy refuses a style sheet put in).
            page.evaluate(LEAVE_OUT)
            shot = page.screenshot(animations="disabled", caret="hide")
            made[screen] = smallest(shot)
        finally:
            page.context.close()
    return made


def smallest(png: bytes) -> bytes:
    """The picture in 256 colours, not dithered (the same picture in, the same bytes out), its PNG compressed as far
    as Pillow can: the files are kept in git, a third of their size in full colour."""
    out = io.BytesIO()
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    picture.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def unlike(made: bytes, kept: Path) -> str | None:
    """How the picture ``made`` differs from the file ``kept`` (None: they show the same)."""
    if not kept.exists():
        return f"{kept} is missing"
    new, old = (Image.open(source).convert("RGB") for source in (io.BytesIO(made), kept))
    if new.size != old.size:
        return f"{kept.name} is {old.size}, the table now {new.size}"
    size = (new.width // SHRINK, new.height // SHRINK)
    difference = ImageChops.difference(new.resize(size, Image.Resampling.BOX), old.resize(size, Image.Resampling.BOX))
    red, green, blue = difference.split()  # a pixel's difference: its most different colour's (a card's tint counts)
    histogram = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    share = sum(histogram[UNLIKE_LEVEL + 1 :]) / (size[0] * size[1])
    if share > UNLIKE_PIXELS:
        return f"{share:.1%} of {kept.name} differs from the table now"
    return None


def main() -> None:
    """Make the pictures and write them to docs/images/."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for screen, png in pictures(browser, server, Path(folder) / "tables.sqlite3").items():
                (IMAGES / f"table-{screen}.png").write_bytes(png)
                print(f"docs/images/table-{screen}.png: {len(png) // 1024} KB")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
