"""Saves of racko play that survive kills, refuse planted links, and one player at a time per data folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import racko
from racko.cli import app
from racko.play.session import PlaySession, SeatSpec
from racko.record import GameRecord, replay
from racko.terminal import saves
from racko.terminal.saves import CURRENT_SAVE, FileStore, FolderLock

runner = CliRunner()
SEATS = [SeatSpec("You"), SeatSpec("easy", "easy")]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RACKO_DATA_DIR", str(tmp_path))
    return tmp_path


def _session(store: FileStore) -> PlaySession:
    return PlaySession.new(racko.variant("classic").rules(2), SEATS, seed=1, store=store)


def test_a_save_is_flushed_to_the_disk_file_and_folder(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        real_fsync(descriptor)

    monkeypatch.setattr(saves.os, "fsync", fsync)
    _session(FileStore(data / CURRENT_SAVE))
    assert any(path.endswith(".tmp") for path in synced) and str(data) in synced  # the new file, then the folder
    assert GameRecord.load(data / CURRENT_SAVE).action_count == 0


def test_a_link_planted_at_the_temporary_name_is_never_written_through(data: Path) -> None:
    victim = data / "victim.txt"
    victim.write_text("precious")
    (data / f".{CURRENT_SAVE}.{os.getpid()}.tmp").symlink_to(victim)
    session = _session(FileStore(data / CURRENT_SAVE))
    assert session.save_problem is not None and "could not be saved" in session.save_problem
    assert victim.read_text() == "precious"


def test_a_save_that_is_a_symbolic_link_is_not_replaced(data: Path) -> None:
    elsewhere = data / "elsewhere.json"
    elsewhere.write_text("mine")
    (data / CURRENT_SAVE).symlink_to(elsewhere)
    session = _session(FileStore(data / CURRENT_SAVE))
    assert session.save_problem is not None and "symbolic link" in session.save_problem
    assert elsewhere.read_text() == "mine" and (data / CURRENT_SAVE).is_symlink()


def test_a_second_racko_play_on_the_same_folder_is_refused(data: Path) -> None:
    lock = FolderLock(data)
    lock.acquire()
    try:
        result = runner.invoke(app, ["play", "--plain"], input="quit\n")
        assert result.exit_code == 2 and "Another racko play is using" in result.stderr
    finally:
        lock.release()
    assert runner.invoke(app, ["play", "--plain"], input="quit\n").exit_code == 0


def test_temporary_files_left_by_a_killed_write_are_removed_when_play_starts(data: Path) -> None:
    # What kill -9 in the middle of a save leaves: half a record at a temporary name with the dead process's id.
    leftovers = [data / f".{CURRENT_SAVE}.424242.tmp", data / ".settings.json.424243.tmp"]
    for leftover in leftovers:
        leftover.write_text('{"format": "racko-rec')
    victim = data / "victim.txt"
    victim.write_text("precious")
    planted = data / ".planted.tmp"
    planted.symlink_to(victim)  # a link is never followed, nor removed
    assert runner.invoke(app, ["play", "--plain"], input="quit\n").exit_code == 0
    assert not any(leftover.exists() for leftover in leftovers)
    assert planted.is_symlink() and victim.read_text() == "precious"
    assert GameRecord.load(data / CURRENT_SAVE).action_count >= 0  # the game started and was saved


def test_a_finished_game_left_as_the_save_is_filed_not_resumed(data: Path) -> None:
    rules = racko.variant("classic").rules(2, two_player_rule=False, target=75)
    session = PlaySession.new(rules, [SeatSpec("easy", "easy"), SeatSpec("hard", "hard")], seed=2)
    while not session.match.over:
        session.play_bot()
    (data / CURRENT_SAVE).write_text(session.record().dumps())  # as if killed before the move into games/
    out = runner.invoke(app, ["play", "--plain"], input="quit\n").output
    assert "The saved game had ended; its record was filed in" in out
    filed = list((data / "games").glob("*.json"))
    assert len(filed) == 1 and replay(GameRecord.load(filed[0])).over


def test_a_save_that_cannot_be_moved_aside_is_left_alone_with_a_clear_message(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (data / CURRENT_SAVE).write_text('{"format": "racko-record", "version": 1, "rules": 7}')
    before = (data / CURRENT_SAVE).read_text()

    def refuse(self: Path, target: Path) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refuse)
    result = runner.invoke(app, ["play", "--plain"], input="quit\n")
    assert result.exit_code == 2 and "could not be moved aside (Permission denied)" in result.stderr
    assert "Traceback" not in result.output and (data / CURRENT_SAVE).read_text() == before
    result = runner.invoke(app, ["play", "--plain", "--new"], input="quit\n")
    assert result.exit_code == 2 and (data / CURRENT_SAVE).read_text() == before


def test_kill_9_loses_no_move(data: Path) -> None:
    """A real racko play, killed with SIGKILL in the middle of a game: every move it showed is in the save."""
    racko_command = [sys.executable, "-c", "from racko.cli import main; main()"]
    process = subprocess.Popen(
        [*racko_command, "play", "--plain", "--bots", "easy", "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RACKO_DATA_DIR": str(data)},
        text=True,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("draw\nx\ndraw\nx\n")
        process.stdin.flush()
        shown = 0
        deadline = time.monotonic() + 60
        while shown < 2 and time.monotonic() < deadline:
            line = process.stdout.readline()
            shown += line.startswith("You drew from the stock")  # told only after it was saved
        assert shown == 2
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    record = GameRecord.load(data / CURRENT_SAVE)
    ours = [action for action in record.rounds[-1].actions if action.seat == 0]
    assert len(ours) >= 3  # draw, discard, draw: each was on disk before it was shown
    json.loads((data / CURRENT_SAVE).read_text())  # whole, not half-written
    resumed = runner.invoke(app, ["play", "--plain"], input="y\nquit\n")  # the lock died with the process
    assert resumed.exit_code == 0 and "A saved game was found" in resumed.output


def test_games_set_aside_in_the_same_second_are_kept_side_by_side(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saves.time, "strftime", lambda _: "20260101-120000")  # the same second, twice
    kept = []
    for seed in (1, 2):
        PlaySession.new(racko.variant("classic").rules(2), SEATS, seed=seed, store=FileStore(data / CURRENT_SAVE))
        kept.append((data / CURRENT_SAVE).read_bytes())
        saves.set_aside(data / CURRENT_SAVE, "replaced")
    first, second = sorted(data.glob("current-game.replaced-*.json"), key=lambda path: len(path.name))
    assert [first.read_bytes(), second.read_bytes()] == kept and second.name.endswith("-2.json")
