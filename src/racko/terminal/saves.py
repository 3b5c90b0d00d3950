"""Where ``racko play`` keeps games: a save file for the game in progress, and the finished games beside it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from racko.play.session import PlaySession
from racko.record import GameRecord

CURRENT_SAVE = "current-game.json"


def data_dir() -> Path:
    """Where saves and finished games go: ``RACKO_DATA_DIR`` if set, else the user's data directory."""
    override = os.environ.get("RACKO_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # only the apps need it

    return Path(platformdirs.user_data_dir("racko", appauthor=False))


class FileStore:
    """A game kept in a save file (a record), rewritten after every action; finished, it moves to ``games/``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, record: GameRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        record.save(self.path)

    def finish(self, record: GameRecord) -> str:
        games = self.path.parent / "games"
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        target = games / f"game-{stamp}.json"
        suffix = 1
        while target.exists():
            suffix += 1
            target = games / f"game-{stamp}-{suffix}.json"
        games.mkdir(parents=True, exist_ok=True)
        record.save(target)
        self.path.unlink(missing_ok=True)
        return str(target)


def load_save(path: Path) -> PlaySession:
    """Resume the game saved at ``path``; a damaged save raises :class:`~racko.errors.RecordError` with the reason."""
    return PlaySession.from_record(GameRecord.load(path), FileStore(path))


def set_aside(path: Path, why: str) -> Path:
    """Move a save out of the way (never deleted), ``why`` in its new name: returns where it went."""
    target = path.with_name(f"{path.stem}.{why}-{time.strftime('%Y%m%d-%H%M%S')}{path.suffix}")
    path.replace(target)
    return target
