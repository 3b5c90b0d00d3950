"""The arena's Ray backend: the same seed gives the same figures as local processes, on a local Ray instance.

One Ray instance (2 CPUs) serves the module: it starts in a few seconds, so it is shared, and it is shut down at the
end, with a check that none of its processes is left.  It listens on the loopback address only (checked too): Ray
picks the machine's own address unless told that this is no cluster (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, the
setting Ray uses on a laptop), and its temporary files go to a folder of their own, removed afterwards.
"""

from __future__ import annotations

import _thread
import ipaddress
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpers import arena_app
from racko.errors import RackoError
from racko.tools import backends
from racko.tools.arena import ArenaReport, run_arena, run_solo

RAY_ENVIRONMENT = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # a single machine: every Ray process on 127.0.0.1, not the LAN address
    "RAY_USAGE_STATS_ENABLED": "0",  # no usage report
    "RAY_AUTH_MODE": "disabled",  # no token file written to ~/.ray (nothing but this machine can reach the instance)
}
NO_RULE = {"two_player_rule": False}


# --- Processes and sockets, from /proc ---------------------------------------------------------


def _parents() -> dict[int, int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def _descendants(pid: int) -> set[int]:
    parents = _parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _command_line(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _socket_inodes(pids: set[int]) -> set[int]:
    inodes = set()
    for pid in pids:
        try:
            links = [os.readlink(fd) for fd in (Path("/proc") / str(pid) / "fd").iterdir()]
        except OSError:
            continue
        inodes |= {int(link[8:-1]) for link in links if link.startswith("socket:[")}
    return inodes


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    raw = bytes.fromhex(hex_address)  # /proc/net/tcp6 keeps the address as four 32-bit words in host order
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    return ipaddress.ip_address(words)


def _bound_addresses(inodes: set[int]) -> list[str]:
    """The addresses the sockets with these inodes listen on (TCP) or are bound to (UDP)."""
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in (Path("/proc/net") / table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], int(fields[9])
            if inode in inodes and (state == "0A" or table.startswith("udp")):  # 0A: LISTEN
                found.append(f"{_address(local.split(':')[0])} ({table})")
    return found


def _ray_processes(among: set[int], temp: str) -> set[int]:
    """The processes of Ray among these: its workers (``ray::…``), its programs and scripts, or its temporary folder."""
    return {
        pid
        for pid in among
        if (line := _command_line(pid)).startswith("ray::") or "-packages/ray/" in line or temp in line
    }


def _loopback(text: str) -> bool:
    address = ipaddress.ip_address(text.split()[0])
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


# --- The shared Ray instance -------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[dict[str, Any]]:
    """A local Ray instance with 2 CPUs for the module; gone, every process of it, afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in RAY_ENVIRONMENT.items():
            patch.setenv(name, value)
        import ray
        from ray._private import ray_constants

        patch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)  # in case ray was imported before the variable
        assert not ray.is_initialized()
        before = _descendants(os.getpid())
        sigterm = signal.getsignal(signal.SIGTERM)  # ray.init installs its own
        temp = tempfile.mkdtemp(prefix="racko-ray-")
        try:
            context = ray.init(
                num_cpus=2,
                include_dashboard=False,
                object_store_memory=80 * 1024 * 1024,  # the least Ray takes: the arena sends little
                log_to_driver=False,
                logging_level=logging.WARNING,
                _temp_dir=temp,
            )
            yield {"address": context.address_info["gcs_address"], "temp": temp}
        finally:
            ours = _ray_processes(_descendants(os.getpid()) - before, temp)
            ray.shutdown()
            signal.signal(signal.SIGTERM, sigterm)
            deadline = time.monotonic() + 20
            while any(_running(pid) for pid in ours) and time.monotonic() < deadline:
                time.sleep(0.2)
            left = {pid: _command_line(pid)[:120] for pid in ours if _running(pid)}
            shutil.rmtree(temp, ignore_errors=True)
        assert ours, "no Ray process was seen"
        assert not left, f"Ray processes left behind: {left}"


def comparable(report: ArenaReport) -> dict[str, Any]:
    """Everything a run found except how long it took, where, and how long the bots took to decide."""
    data = report.to_json()
    del data["seconds"], data["backend"]
    for row in data["results"]:
        del row["decision_ms"]
    data["seat_counts"] = [row.seat_counts for row in report.results]
    data["score_counts"] = [row.score_counts for row in report.results]
    data["totals"] = [(row.score_total, row.rounds, row.turns_total) for row in report.results]
    return data


def command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``racko ARGS`` as a real process (a Ray driver of its own)."""
    return subprocess.run(
        [sys.executable, "-c", "from racko.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **RAY_ENVIRONMENT},
    )


def assert_one_line_error(stderr: str, text: str) -> None:
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("racko: "), stderr
    assert text in lines[0], lines[0]


# --- Without Ray or without a cluster (before the instance starts) -----------------------------


def test_without_ray_installed_the_commands_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if it were not installed
    for args in (["arena", "--rounds", "4"], ["solo", "--rounds", "4"]):
        result = CliRunner().invoke(arena_app(), [*args, "--backend", "ray"])
        assert result.exit_code == 2, result.output
        assert_one_line_error(result.stderr, "pip install 'racko[ray]'")
    with pytest.raises(RackoError, match=r"racko\[ray\]"):
        run_solo("easy", rounds=4, backend="ray")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("what", ["arena", "solo"])
def test_an_address_nobody_answers_is_a_one_line_error(what: str) -> None:
    address = f"127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    done = command(what, "--rounds", "10", "--backend", "ray", "--address", address, "--json")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert_one_line_error(done.stderr, f"Cannot reach a Ray cluster at {address}")
    assert time.monotonic() - started < 30  # not Ray's own minutes of retrying


RUN_ON_ITS_OWN_INSTANCE = [
    "arena",
    "--bots",
    "easy,random",
    "--rounds",
    "3000",
    "--backend",
    "ray",
    "--jobs",
    "2",
    "--json",
]


def test_an_instance_the_command_starts_for_itself_listens_on_the_loopback_address_only(tmp_path: Path) -> None:
    # No setting from the caller: racko itself keeps the instance it starts for one run off the network.
    environment = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    environment.update(RAY_AUTH_MODE="disabled", HOME=str(tmp_path))  # Ray's own files land in the test's folder
    with subprocess.Popen(
        [sys.executable, "-c", "from racko.cli import main; main()", *RUN_ON_ITS_OWN_INSTANCE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    ) as run:
        bound: set[str] = set()
        while run.poll() is None:
            bound |= set(_bound_addresses(_socket_inodes(_descendants(run.pid))))
            time.sleep(0.2)
        output, errors = run.communicate()
    assert run.returncode == 0, errors
    assert json.loads(output)["backend"] == "ray"
    assert len(bound) >= 2, "the run ended before its instance was seen"
    assert [text for text in bound if not _loopback(text)] == []


def test_backend_options_are_checked() -> None:
    app = arena_app()
    for args, text in [
        (["--backend", "spark"], "--backend must be one of local, ray"),
        (["--address", "127.0.0.1:6379"], "--address"),
        (["--backend", "ray", "--address", "no-port"], "host:port"),
    ]:
        result = CliRunner().invoke(app, ["arena", "--rounds", "2", *args])
        assert result.exit_code == 2, result.output
        assert_one_line_error(result.stderr, text)
    with pytest.raises(RackoError, match="ray backend"):
        run_arena(["easy", "random"], rounds=2, address="127.0.0.1:6379")


def test_a_node_with_another_racko_refuses_the_chunk() -> None:
    with pytest.raises(RackoError, match="same version on every node"):
        backends._on_ray(lambda job, start, stop: None, None, 0, 1, "0.0.0-other")


# --- On the instance ---------------------------------------------------------------------------


def test_the_instance_listens_on_the_loopback_address_only(ray_instance: dict[str, Any]) -> None:
    assert ray_instance["address"].startswith("127.0.0.1:")
    pids = _ray_processes(_descendants(os.getpid()), ray_instance["temp"])
    assert len(pids) >= 3  # at least its control store, its node manager and a worker
    bound = _bound_addresses(_socket_inodes(pids | {os.getpid()}))
    assert bound, "no listening socket found"
    assert [text for text in bound if not _loopback(text)] == []


def test_rounds_on_ray_are_the_rounds_played_locally(ray_instance: dict[str, Any]) -> None:
    bots = ["medium", "easy", "random"]
    local = run_arena(bots, "classic", 3, rounds=300, seed=11, jobs=1)
    calls: list[tuple[int, int]] = []
    on_ray = run_arena(bots, "classic", 3, rounds=300, seed=11, backend="ray", progress=lambda *a: calls.append(a))
    assert comparable(on_ray) == comparable(local)
    assert on_ray.backend == "ray" and on_ray.to_json()["backend"] == "ray" and local.backend == "local"
    assert on_ray.jobs == 2  # by default as many tasks at a time as the cluster has CPUs
    assert calls[0] == (0, 300) and calls[-1] == (300, 300)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls) and len(calls) > 10
    assert local.capped == on_ray.capped and sum(row.wins for row in local.results) > 0


def test_games_on_ray_are_the_games_played_locally(ray_instance: dict[str, Any]) -> None:
    bots = ["easy", "random", "easy", "random"]  # Partners: the teams easy+easy and random+random
    local = run_arena(bots, "partners", 4, games=4, seed=5, jobs=1, options={"target": 300})
    on_ray = run_arena(bots, "partners", 4, games=4, seed=5, jobs=1, options={"target": 300}, backend="ray")
    assert comparable(on_ray) == comparable(local)
    assert on_ray.mode == "games" and on_ray.jobs == 1  # --jobs 1: one task at a time
    assert [row.bot for row in on_ray.results] == ["easy+easy", "random+random"]


def test_solo_on_ray_is_solo_played_locally(ray_instance: dict[str, Any]) -> None:
    local = run_solo("medium", rounds=400, seed=4, jobs=1)
    on_ray = run_solo("medium", rounds=400, seed=4, backend="ray", jobs=2)
    first, second = local.to_json(), on_ray.to_json()
    for data in (first, second):
        del data["decision_ms"], data["backend"]
    assert first == second
    assert local.turn_counts == on_ray.turn_counts
    assert on_ray.backend == "ray" and sum(on_ray.decision_times.values()) == sum(local.decision_times.values())


def test_the_command_with_the_cluster_address_prints_the_local_figures(ray_instance: dict[str, Any]) -> None:
    args = ["--bots", "easy,medium", "--rounds", "200", "--seed", "3", "--no-two-player-rule", "--json"]
    done = command("arena", *args, "--backend", "ray", "--address", ray_instance["address"])
    assert done.returncode == 0, done.stderr
    on_ray = json.loads(done.stdout)
    local = run_arena(["easy", "medium"], rounds=200, seed=3, jobs=1, options=NO_RULE).to_json()
    assert on_ray.pop("backend") == "ray" and local.pop("backend") == "local"
    for data in (on_ray, local):
        del data["seconds"]
        for row in data["results"]:
            del row["decision_ms"]
    assert on_ray == local
    assert "Traceback" not in done.stderr


def test_the_table_says_the_deals_ran_on_ray(ray_instance: dict[str, Any]) -> None:
    result = CliRunner().invoke(arena_app(), ["solo", "--rounds", "40", "--backend", "ray", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "with Ray, 2 tasks at a time." in result.stdout


def test_a_chunk_error_on_ray_is_raised_as_it_is_locally(
    ray_instance: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from helpers import register_classic_only_bot

    # A bot registered at run time exists in this process only: the Ray workers import racko afresh.
    bot = register_classic_only_bot(monkeypatch)
    with pytest.raises(RackoError, match=f"Unknown bot '{bot}'") as raised:
        run_arena([bot, "easy"], rounds=6, backend="ray")
    assert "\n" not in str(raised.value)


def test_ctrl_c_cancels_the_tasks_under_way(ray_instance: dict[str, Any]) -> None:
    import ray

    def sleepy(job: None, start: int, stop: int) -> int:  # defined here: Ray sends it by value
        time.sleep(120)
        return stop - start

    interrupt = threading.Timer(4.0, _thread.interrupt_main)  # Ctrl-C once both tasks are running
    interrupt.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            backends.run_chunks(sleepy, None, 8, 1, backend="ray", jobs=2)
    finally:
        interrupt.cancel()
    deadline = time.monotonic() + 20
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2  # both CPUs free again: the tasks did not sleep on
    assert time.monotonic() - started < 60
