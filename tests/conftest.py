"""Fixtures more than one test module uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests write their screenshots, for a person to look at: ``$RACKO_SCREENSHOTS``, or else a
    temporary folder."""
    folder = Path(os.environ.get("RACKO_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
