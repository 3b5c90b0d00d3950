"""The golden playthroughs replay byte for byte (see tests/golden.py; regenerate only by running that file)."""

from __future__ import annotations

import difflib

import pytest

from golden import CASES, path_of, playthrough


@pytest.mark.parametrize("case", list(CASES))
def test_the_game_replays_as_written_down(case: str) -> None:
    expected = path_of(case).read_text(encoding="utf-8")
    actual = playthrough(case)
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "now", n=1, lineterm="")
        pytest.fail(f"{case} differs from tests/golden/{case}.txt:\n" + "\n".join(list(diff)[:40]))
