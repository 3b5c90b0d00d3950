"""Where ``racko play`` keeps games: a save file for the game in progress, and the finished games beside it.

Every write is atomic and durable: the record goes to a new temporary file (never through a link planted in its
place), is flushed to the disk, then renamed over the save, and the folder is flushed too; a kill at any moment
leaves the old save or the new one, whole.  A save that is a symbolic link is never replaced.  One ``racko play``
at a time may use a data folder: a second one is refused while the first holds its lock.  A finished game is
moved into ``games/`` by one rename, so it is never both the current save and a finished record.
"""

from __future__ import annotations

import errno
import os
import shlex
import time
from pathlib import Path

from racko.errors import RackoError
from racko.play.locks import lock_exclusively
from racko.play.session import PlaySession
from racko.record import GameRecord, replay

CURRENT_SAVE = "current-game.json"
LOCK_FILE = "racko-play.lock"


class FolderInUseError(RackoError):
    """Another ``racko play`` holds the data folder's lock."""


class FolderLock:
    """The data folder's lock, held while a game is played (the operating system drops it if the process dies)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_FILE
        self._descriptor: int | None = None

    def acquire(self) -> None:
        descriptor = lock_exclusively(self.path)
        if descriptor is None:
            raise FolderInUseError(
                f"Another racko play is using {self.path.parent} right now: finish or quit that game first "
                "(or set RACKO_DATA_DIR to another folder to play a separate game)."
            ) from None
        self._descriptor = descriptor
        self._remove_leftovers()

    def _remove_leftovers(self) -> None:
        """A write killed halfway (kill -9, a power cut) leaves its temporary file behind: with the lock held,
        nobody else writes here, so every one left is such a leftover."""
        for leftover in self.path.parent.glob(".*.tmp"):
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink(missing_ok=True)

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file drops the lock
            self._descriptor = None


def write_durably(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``, atomically and durably; raises :class:`OSError` when it cannot."""
    if path.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link, which racko does not replace", str(path))
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if temporary.is_file() and not temporary.is_symlink():
        temporary.unlink()  # left by an earlier run of this process id that was killed mid-write
    # O_EXCL and O_NOFOLLOW: a file or link planted at the temporary name is refused, never written through.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    # A rename is durable only once the folder holding it is flushed.
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class FileStore:
    """A game kept in a save file (a record), rewritten after every action; finished, it moves to ``games/``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, record: GameRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_durably(self.path, record.dumps() + "\n")

    def finish(self, record: GameRecord) -> str:
        self.save(record)
        games = self.path.parent / "games"
        games.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        target = games / f"game-{stamp}.json"
        suffix = 1
        while target.exists():
            suffix += 1
            target = games / f"game-{stamp}-{suffix}.json"
        os.replace(self.path, target)  # one rename: the save and the finished record are never both there
        _sync_folder(games)
        _sync_folder(self.path.parent)
        return str(target)


def load_save(path: Path) -> PlaySession:
    """Resume the game saved at ``path``; a damaged save raises :class:`~racko.errors.RecordError` with the reason."""
    return PlaySession.from_record(GameRecord.load(path), FileStore(path))


def file_if_finished(path: Path) -> str | None:
    """If the save holds a game that is already over (the program was stopped as it filed it), file it now.

    Returns where it went, or ``None`` when the save holds a game in progress (or cannot be read: the caller's
    load reports that).
    """
    try:
        record = GameRecord.load(path)
        over = replay(record).over
    except RackoError:
        return None
    if not over:
        return None
    return FileStore(path).finish(record)


def set_aside(path: Path, why: str) -> Path:
    """Move a save out of the way (never deleted), ``why`` in its new name: returns where it went.

    Raises :class:`RackoError` saying so when it cannot be moved (a folder that cannot be written).
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.{why}-{stamp}{path.suffix}")
    suffix = 1
    while target.exists() or target.is_symlink():  # two set aside in one second: never one over the other
        suffix += 1
        target = path.with_name(f"{path.stem}.{why}-{stamp}-{suffix}{path.suffix}")
    try:
        path.replace(target)
    except OSError as error:
        raise RackoError(
            f"The saved game {path} could not be moved aside ({error.strerror or error}): move or delete it "
            "yourself, or set RACKO_DATA_DIR to another folder."
        ) from None
    return target


def aside_note(moved: Path, what: str = "The saved game") -> str:
    """What a player is told when a game was set aside in ``moved``: where it is, and how to play it again."""
    return f"{what} was set aside. To play it again:\n  racko play --resume {shlex.quote(str(moved))}"


def bring_back(path: Path, record: GameRecord, save_path: Path) -> bool:
    """Make the game of ``path`` (already read: ``record``) the game in progress, kept at ``save_path``; returns
    whether the file was moved (else copied).

    A file set aside in the data folder is moved back into place, so that the game is never in two files that could
    go separate ways; a file from elsewhere (or a link) is the player's own, and is copied.
    Raises :class:`OSError` when it cannot.
    """
    if path.parent.resolve() == save_path.parent.resolve() and not path.is_symlink():
        path.replace(save_path)
        _sync_folder(save_path.parent)
        return True
    FileStore(save_path).save(record)
    return False
