"""racko installed as a newcomer installs it, not as the tests' own set-up does (which installs every extra, and would
hide a default dependency that is missing): the README's Quick start run as written in a copy of the checkout, then
every everyday command a person types, from a folder outside the source; the distributions (the sdist, a wheel built
from it with and without a C compiler, pipx); and the rules engine with nothing but the standard library.

The installs reuse pip's cache, so that they cost about half a minute each rather than a download of everything."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from browsing import free_port

ROOT = Path(__file__).resolve().parent.parent
INSTALL_SECONDS = 600
"""An install that takes longer than this is stuck (a cold pip cache takes about two minutes here)."""


def quick_start_commands() -> tuple[str, str]:
    """The README's Quick start: the command that sets up and plays, and the one that runs every test."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)\n```", section, flags=re.S)
    assert len(blocks) == 2, f"the Quick start has {len(blocks)} commands, not two"
    return blocks[0].strip(), blocks[1].strip()


def checkout_copy(folder: Path) -> Path:
    """The checkout's files as a fresh clone has them (tracked and new ones, not what .gitignore leaves out)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    copy = folder / "racko"
    for name in filter(None, listed):
        source = ROOT / name.decode()
        if source.is_file():
            target = copy / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return copy


def bare_environment(home: Path) -> dict[str, str]:
    """A newcomer's shell: no virtual environment active, racko's data in a folder of its own, no colour codes in what
    the tests read, and pip quiet about its version but using its cache."""
    keep = ("PATH", "LANG", "LC_ALL", "PIP_CACHE_DIR", "XDG_CACHE_HOME", "TMPDIR", "PIP_CONFIG_FILE")
    environment = {key: os.environ[key] for key in keep if key in os.environ}
    environment["PATH"] = os.pathsep.join(
        part
        for part in environment.get("PATH", os.defpath).split(os.pathsep)
        if Path(sys.executable).parent != Path(part)
    )
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    environment.update(
        HOME=str(home),
        XDG_CACHE_HOME=cache,  # pip's cache is the one the tests' own install filled
        RACKO_DATA_DIR=str(home / "racko-data"),
        NO_COLOR="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    if Path("/etc/pip.conf").exists() or os.environ.get("PIP_CONFIG_FILE"):
        pass  # the machine's pip configuration (its indexes) applies as it would to a person
    return environment


def run(command: list[str], environment: dict[str, str], cwd: Path, stdin: str = "", seconds: float = 120) -> str:
    """A command as a person runs it; its output, or the test fails with what it said."""
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=environment, cwd=cwd, timeout=seconds, check=False
    )
    assert done.returncode == 0, (
        f"{' '.join(command)} ended {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


class Terminal:
    """A program in a pseudo-terminal of 100 × 30, read as a person reads the screen (the escape codes left out)."""

    ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]")

    def __init__(self, command: list[str], environment: dict[str, str], cwd: Path) -> None:
        self.output = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the terminal's size, then the command
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            os.chdir(cwd)
            os.execvpe(command[0], command, {**environment, "TERM": "xterm-256color"})
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))

    def text(self) -> str:
        return self.ESCAPES.sub(b"", self.output).decode(errors="replace")

    def wait_for(self, words: str, seconds: float) -> None:
        """Read until ``words`` are on the screen (the output since the last wait), or fail saying what was there."""
        start = len(self.text())
        deadline = time.monotonic() + seconds
        while words not in self.text()[start:]:
            left = deadline - time.monotonic()
            assert left > 0, f"{words!r} never showed; the screen's last output: {self.text()[-2500:]!r}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:  # the program ended
                    assert words in self.text()[start:], f"it ended before {words!r}: {self.text()[-2500:]!r}"
                    return

    def press(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def close(self) -> int:
        """Wait for the program to end by itself (a few seconds), else end it; its exit status."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            finished, status = os.waitpid(self.pid, os.WNOHANG)
            if finished:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):
                if select.select([self.fd], [], [], 0.1)[0]:
                    self.output += os.read(self.fd, 65536)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -9


@pytest.fixture(scope="module")
def newcomer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str], Path]]:
    """The Quick start's first command run as written, in a pseudo-terminal, in a fresh copy of the checkout with no
    virtual environment active: it installs racko with no extra and opens `racko play`, whose start screen begins a
    game on Enter; a first move is made, and the game is left with q once it is the person's turn again. Yields the
    copy, the shell's environment and a folder outside the source to run commands from."""
    folder = tmp_path_factory.mktemp("newcomer")
    copy = checkout_copy(folder)
    environment = bare_environment(folder / "home")
    play, _ = quick_start_commands()
    assert play.endswith("racko play") and " -e ." in play and "[" not in play, play  # no extra
    terminal = Terminal(["bash", "-c", play], environment, copy)
    try:
        terminal.wait_for("Start", INSTALL_SECONDS)  # the start screen's footer: ⏎ Start  q Quit
        terminal.press(b"\r")
        terminal.wait_for("Your turn", 60)
        terminal.press(b"d")
        terminal.wait_for("You drew from the stock", 30)
        terminal.press(b"1")
        terminal.wait_for("You put", 30)
        terminal.wait_for("Your turn", 60)  # the computer has moved: the save is at the person's turn
        terminal.press(b"q")
    finally:
        status = terminal.close()
    assert status == 0, f"racko play ended {status}: {terminal.text()[-2000:]!r}"
    assert "Traceback" not in terminal.text() and "ModuleNotFoundError" not in terminal.text()
    outside = folder / "elsewhere"
    outside.mkdir()
    yield copy, environment, outside


def racko_of(copy: Path) -> str:
    return str(copy / ".venv" / "bin" / "racko")


def test_the_quick_start_installs_no_extra_and_no_research_library(newcomer: tuple[Path, dict[str, str], Path]) -> None:
    """The default install has what a player needs and nothing only research needs: numpy, numba, PettingZoo,
    Gymnasium, OpenSpiel, Ray, matplotlib and psycopg stay in their extras."""
    copy, environment, outside = newcomer
    listed = run([str(copy / ".venv/bin/python"), "-m", "pip", "list", "--format", "json"], environment, outside)
    installed = {package["name"].lower() for package in json.loads(listed)}
    assert {"racko", "typer", "textual", "starlette", "uvicorn", "openskill", "pywebpush"} <= installed
    research = {"numpy", "numba", "pettingzoo", "gymnasium", "open-spiel", "open_spiel", "ray", "matplotlib", "psycopg"}
    assert not installed & research, installed & research


def test_every_everyday_command_works_from_outside_the_source(newcomer: tuple[Path, dict[str, str], Path]) -> None:
    copy, environment, outside = newcomer
    racko = racko_of(copy)
    assert "Watch computer players" in run([racko, "--help"], environment, outside)
    for group in ("bot", "admin", "puzzles", "bench"):
        assert "Usage" in run([racko, group, "--help"], environment, outside)
    assert "went Rack-O" in run([racko, "demo", "--fast", "--seed", "1", "--players", "3"], environment, outside)
    assert "High-Low" in run([racko, "variants"], environment, outside)
    arena = json.loads(run([racko, "arena", "--bots", "easy,random", "--rounds", "20", "--json"], environment, outside))
    assert sum(result["played"] for result in arena["results"]) == 40, arena
    solo = run([racko, "solo", "--bot", "easy", "--rounds", "5"], environment, outside)
    assert "Mean turns to Rack-O" in solo
    lesson = run([racko, "learn"], environment, outside, stdin="\n" * 3 + "q\n")
    assert "Rack-O" in lesson
    puzzle = run([racko, "puzzle", "--number", "1"], environment, outside, stdin="help\nq\n")
    assert "puzzle" in puzzle.lower()

    # The game `racko play` saved (the fixture's first move): a hint for its one person, without --reveal.
    saved = sorted((Path(environment["RACKO_DATA_DIR"])).rglob("*.json"))
    assert saved, "racko play saved nothing"
    hint = json.loads(run([racko, "hint", str(saved[0]), "--json"], environment, outside))
    assert hint["choices"], hint

    # A whole short game of computer players, as a record: replayed, advised and reviewed.
    record = outside / "game.json"
    record.write_text(short_game_record())
    assert "Winner" in run([racko, "replay", str(record)], environment, outside)
    assert "Best" in run([racko, "hint", str(record)], environment, outside)
    review = json.loads(run([racko, "review", str(record), "--json"], environment, outside, seconds=180))
    assert review["seats"] and all(seat["decisions"] for seat in review["seats"]), review.keys()

    # An extra that is missing is named, never a traceback.
    for command in (["arena", "--bots", "easy,random", "--rounds", "4", "--plot", "x.png"], ["bench", "batch"]):
        done = subprocess.run(
            [racko, *command], capture_output=True, text=True, env=environment, cwd=outside, timeout=120, check=False
        )
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert "pip install 'racko[" in done.stderr, done.stderr


def short_game_record() -> str:
    """A finished 2-player game to 100 of two computer players (made by the checkout under test)."""
    from browsing import played_game

    _, _, record = played_game("classic", ["easy", "medium"], ["easy", "medium"], seed=5, target=100)
    return record


@contextlib.contextmanager
def serving(racko: str, environment: dict[str, str], folder: Path, *options: str) -> Iterator[str]:
    """`racko serve` of the newcomer's install on 127.0.0.1, stopped afterwards."""
    port = free_port()
    log = folder / "serve.log"
    command = [racko, "serve", "--port", str(port), "--db", str(folder / "racko.sqlite3"), "--pace", "0", *options]
    with log.open("wb") as written:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=written, env=environment, cwd=folder)
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(address + "/api/options", timeout=2).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
                time.sleep(0.1)
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")[-3000:]


def call(address: str, path: str, body: Any = None, cookie: str | None = None) -> tuple[int, Any, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(address + path, data=data, headers={"Content-Type": "application/json"})
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
            is_json = answer.headers.get_content_type() == "application/json"
            return answer.status, json.loads(raw) if is_json else raw, answer
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error


def frames_until(ws: Any, kind: str | tuple[str, ...], limit: int = 200) -> dict[str, Any]:
    """The next frame of this ``kind`` (or of these kinds); the frames passed over meanwhile are said if none
    comes."""
    passed: list[str] = []
    kinds = (kind,) if isinstance(kind, str) else kind
    for _ in range(limit):
        try:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
        except TimeoutError:
            raise AssertionError(f"no {kind} frame in 30 s; passed over: {passed[-5:]}") from None
        if frame["type"] in kinds:
            return frame
        passed.append(json.dumps(frame)[:600])
    raise AssertionError(f"no {kind} frame in {limit}; the last passed over: {passed[-5:]}")


def play_until_the_round_ends(ws: Any, token: str | None) -> dict[str, Any]:
    """Play the person's seat (its link's ``token``, or the player's cookie) with a plain sorting policy until the
    first round is over; the last state.  The table is made without the two-player rule: the sorting policy makes
    no run of three, and the round would wait for the computer to go out."""
    import random

    from racko.tools.bench.server import sorting_move

    rng = random.Random(1)
    ws.send(json.dumps({"type": "hello", "token": token, "version": 0}))
    state = frames_until(ws, "state")
    for _ in range(2000):
        view = state["view"]
        if view["results"]:
            return state
        if view["to_act"] == view["you"] and view["legal"]:
            legal = [{key: value for key, value in action.items() if key != "seat"} for action in view["legal"]]
            act = json.dumps({"type": "act", "version": state["version"], "action": sorting_move(view, legal, 40, rng)})
            ws.send(act)
            answer = frames_until(ws, ("state", "error"))
            while answer["type"] == "error":
                if answer["code"] == "slow-down":  # a program outpaces the 15 frames a second a person may send
                    time.sleep(1)
                    ws.send(act)
                answer = frames_until(ws, ("state", "error"))  # stale …: the table as it is now comes next
            state = answer
            continue
        state = frames_until(ws, "state")
    view = state["view"]
    raise AssertionError(f"the round never ended: version {state['version']}, {view['turns']} turns, {view}")


def test_racko_serve_plays_a_person_against_a_computer_with_a_hint_and_a_review(
    newcomer: tuple[Path, dict[str, str], Path], tmp_path: Path
) -> None:
    copy, environment, _ = newcomer
    with serving(racko_of(copy), environment, tmp_path) as address:
        status, lobby, _ = call(address, "/")
        assert status == 200 and b"Rack-O" in lobby
        status, made, _ = call(
            address,
            "/api/tables",
            {"variant": "classic", "players": 2, "seats": ["person", "easy"], "target": 100, "two_player_rule": False},
        )
        assert status == 200, made
        token = made["seats"][0]["token"]
        table = made["table"]
        with connect(address.replace("http", "ws") + f"/ws/{table}", origin=Origin(address)) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "version": 0}))
            assert frames_until(ws, "welcome")["you"] == 0
            ws.send(json.dumps({"type": "name", "name": "Ann"}))  # a seat's person names themselves before moving
            state = frames_until(ws, "state")
            assert state["view"]["rack"] and all(isinstance(card, int) for card in state["view"]["rack"])
            while state["view"]["to_act"] != 0:
                state = frames_until(ws, "state")
            ws.send(json.dumps({"type": "hint"}))
            hint = frames_until(ws, "hint")
            assert hint["choices"] and hint["choices"][0]["text"], hint
        with connect(address.replace("http", "ws") + f"/ws/{table}", origin=Origin(address)) as ws:
            ended = play_until_the_round_ends(ws, token)
        assert ended["view"]["results"], ended["view"]
        deadline = time.monotonic() + 120
        while True:
            status, review, _ = call(address, f"/api/tables/{table}/review", {"round": 1, "token": token})
            assert status == 200, review
            if review["state"] == "done":
                break
            assert time.monotonic() < deadline, review
            time.sleep(0.5)
        assert review["review"]["seats"][0]["decisions"], review["review"]


def test_a_bot_account_plays_a_person_through_racko_bot_connect(
    newcomer: tuple[Path, dict[str, str], Path], tmp_path: Path
) -> None:
    """`racko admin bot add` and `racko bot connect --policy racko:easy` of the default install: a person challenges
    the bot, which accepts and plays its seat."""
    copy, environment, _ = newcomer
    racko = racko_of(copy)
    database = tmp_path / "racko.sqlite3"
    token = run([racko, "admin", "bot", "add", "Robo", "--db", str(database)], environment, tmp_path).split()[-1]
    assert token.startswith("rb_"), token
    with serving(racko, environment, tmp_path) as address:
        log = tmp_path / "bot.log"
        with log.open("wb") as written:
            bot = subprocess.Popen(
                [racko, "bot", "connect", address, "--token", token, "--policy", "racko:easy", "--games", "1"],
                stdout=written,
                stderr=subprocess.STDOUT,
                env=environment,
                cwd=tmp_path,
            )
        try:
            _, _, answer = call(address, "/api/me", {"name": "Ann"})
            cookie = answer.headers["Set-Cookie"].split(";")[0]
            deadline = time.monotonic() + 60
            while True:  # the bot is challenged once its event stream is open
                status, challenge, _ = call(
                    address,
                    "/api/challenges",
                    {
                        "bot": "Robo",
                        "variant": "classic",
                        "players": 2,
                        "clock": "none",
                        "target": 50,
                        "two_player_rule": False,
                    },
                    cookie,
                )
                if status == 200:
                    break
                assert challenge.get("code") == "bot-offline" and time.monotonic() < deadline, challenge
                time.sleep(0.3)
            while challenge["state"] == "open":
                time.sleep(0.2)
                _, challenge, _ = call(address, f"/api/challenges/{challenge['id']}", cookie=cookie)
            assert challenge["state"] == "accepted" and challenge["table"], challenge
            socket = address.replace("http", "ws") + f"/ws/{challenge['table']}"
            with connect(socket, origin=Origin(address), additional_headers={"Cookie": cookie}) as ws:
                ended = play_until_the_round_ends(ws, None)
            assert ended["view"]["results"]
            bot_moves = [entry for entry in ended.get("log", []) if entry.get("seat") == 1]
            assert ended["view"]["turns"] > 0 and (bot_moves or ended["view"]["results"])
        except (AssertionError, TimeoutError) as failure:  # what the bot's process said is the failure's first clue
            bot.terminate()
            bot.wait(timeout=15)
            said = log.read_text(errors="replace")
            raise AssertionError(f"{failure!r}; the bot's process said:\n{said}") from failure
        finally:
            bot.terminate()
            bot.wait(timeout=15)
        assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")


def test_racko_admin_works_on_the_default_install(newcomer: tuple[Path, dict[str, str], Path], tmp_path: Path) -> None:
    copy, environment, _ = newcomer
    racko = racko_of(copy)
    database = tmp_path / "racko.sqlite3"
    run([racko, "admin", "bot", "add", "Zed", "--db", str(database)], environment, tmp_path)
    assert "Usage" in run([racko, "admin", "bot", "revoke", "--help"], environment, tmp_path)


# --- The distributions: an sdist, a wheel built from it (with and without a C compiler), pipx ---------------------


def package_files() -> set[str]:
    """Every file of the package a person's install needs, as a path inside it (racko/...): the checkout's files
    under src/racko but the tests' leftovers (compiled kernels, caches)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "src/racko"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {name.removeprefix("src/") for name in listed if (ROOT / name).is_file()}


@pytest.fixture(scope="module")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """`python -m build` on a fresh copy of the checkout: the sdist, then a wheel built from that sdist (so that
    the sdist is known to hold everything a build needs)."""
    folder = tmp_path_factory.mktemp("distributions")
    copy = checkout_copy(folder)
    environment = bare_environment(folder / "home")
    run(
        [sys.executable, "-m", "build", "--outdir", str(folder / "dist"), str(copy)],
        environment,
        folder,
        seconds=INSTALL_SECONDS,
    )
    (sdist,) = (folder / "dist").glob("racko-*.tar.gz")
    (wheel,) = (folder / "dist").glob("racko-*.whl")
    return sdist, wheel, environment


def test_the_sdist_and_the_wheel_hold_every_file_of_the_package(
    distributions: tuple[Path, Path, dict[str, str]],
) -> None:
    import tarfile

    sdist, wheel, _ = distributions
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/src/", 1)[1] for name in archive.getnames() if "/src/racko/" in name}
    wanted = package_files()
    assert "racko/bots/_rollout.c" in wanted and "racko/analysis/data/puzzles.json" in wanted
    assert not wanted - in_sdist, sorted(wanted - in_sdist)
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    data = {name for name in wanted if not name.endswith((".py", ".c"))}
    assert {"racko/analysis/data/game_chances.json", "racko/analysis/words/hints.json"} <= data
    assert not data - in_wheel, sorted(data - in_wheel)  # words, puzzles, game chances, pages, SQL, ratings' data
    assert not {name for name in wanted if name.endswith(".py")} - in_wheel
    assert any(re.fullmatch(r"racko/bots/_rollout\..*\.so", name) for name in in_wheel), "no compiled kernel"


def test_without_a_c_compiler_the_sdist_installs_with_pipx_and_plays(
    distributions: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    """A machine with no C compiler: pipx installs racko from the sdist (the kernel's build fails and is left out,
    as setup.py promises), and racko plays from anywhere, its computer players on the pure-Python kernel."""
    sdist, _, environment = distributions
    environment = {
        **environment,
        "CC": "/bin/false",  # every compiler call fails, as on a machine without one
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
    }
    pipx = str(Path(sys.executable).with_name("pipx"))
    run([pipx, "install", str(sdist)], environment, tmp_path, seconds=INSTALL_SECONDS)
    racko = str(tmp_path / "bin" / "racko")
    python = str(tmp_path / "pipx" / "venvs" / "racko" / "bin" / "python")
    kernel = run(
        [python, "-c", "import importlib.util as u; print(u.find_spec('racko.bots._rollout'))"], environment, tmp_path
    )
    assert kernel.strip() == "None", kernel
    assert "went Rack-O" in run([racko, "demo", "--fast", "--seed", "2"], environment, tmp_path)
    arena = json.loads(run([racko, "arena", "--bots", "expert,easy", "--rounds", "2", "--json"], environment, tmp_path))
    assert sum(result["played"] for result in arena["results"]) == 4
    puzzle = run([racko, "puzzle", "--number", "3"], environment, tmp_path, stdin="q\n")
    assert "puzzle" in puzzle.lower()


def test_the_rules_engine_needs_nothing_but_the_standard_library(
    distributions: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    """README: the rules engine is standard library only. The wheel alone (no dependency installed) imports
    ``racko`` and plays a round of every variant through the engine, its records too, importing nothing outside
    the standard library and racko."""
    _, wheel, environment = distributions
    venv = tmp_path / "bare"
    run([sys.executable, "-m", "venv", str(venv)], environment, tmp_path)
    python = str(venv / "bin" / "python")
    run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], environment, tmp_path, seconds=INSTALL_SECONDS)
    script = (ROOT / "tests" / "engine_alone.py").read_text()
    said = run([python, "-c", script], environment, tmp_path)
    assert said.strip().endswith("standard library only"), said
