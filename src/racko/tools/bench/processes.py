"""Real processes on this machine, for the benchmarks and the tests: a throw-away PostgreSQL server, ``racko serve``
processes, and HAProxy in front of them (with the configuration ``racko proxy-config`` prints).

Each is started as an operator would start it, by its own command, so that what is measured is the server as it is
deployed and this module needs nothing of the server's code.  Every process listens on 127.0.0.1 only, on a free
port, with its files in a folder of the caller's; each is stopped (and waited for) by its ``stop``, and told by
Linux to die with the process that started it, so that none is left behind.  PostgreSQL refuses to run as root: as
root, it runs as the unprivileged user ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

HOST = "127.0.0.1"
START_SECONDS = 60.0
UNPRIVILEGED = "nobody"
RACKO = "import sys; sys.argv[0] = 'racko'; from racko.cli import main; main()"
"""The ``racko`` command run by this very Python (``python -c RACKO ARGS``, the environment inherited): the racko
the caller runs, a copy on ``PYTHONPATH`` too, with or without the ``racko`` script installed beside it."""


def racko_command(*arguments: str) -> list[str]:
    """The command line of ``racko ARGUMENTS`` (see :data:`RACKO`)."""
    return [sys.executable, "-c", RACKO, *arguments]


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now (another process may take it before it is used)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def port_is_free(port: int) -> bool:
    """Whether nothing listens on ``port`` of 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
        return True


def die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: the child gets SIGTERM if the process that started it dies without stopping it.  (Linux ties this to
    the starting *thread*: start these processes from a thread that lives as long as they should.)"""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def postgres_program(name: str) -> str:
    """A PostgreSQL server program (``initdb``, ``pg_ctl``): on the PATH, or where Debian's package puts it."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda path: int(path.split("/")[4]))
    if versions:
        return versions[-1]
    raise RuntimeError(f"PostgreSQL's {name} is not installed (Debian: apt-get install postgresql)")


class TemporaryPostgres:
    """A PostgreSQL server of its own (initdb into a new folder of the system's temporary folder, which the
    unprivileged user can reach, removed by :meth:`stop`), on 127.0.0.1 and a free port, with a database ``racko``
    its user ``racko`` may use without a password from this machine."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="racko-postgres-"))
        self.data = self.folder / "pgdata"
        self.port = free_port()
        self.log = self.folder / "postgres.log"
        self.url = f"postgresql://racko@{HOST}:{self.port}/racko"
        self._user = pwd.getpwnam(UNPRIVILEGED) if os.geteuid() == 0 else None

    def _run(self, *command: str) -> None:
        user = self._user
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            cwd=self.folder,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": str(self.folder)},
            timeout=START_SECONDS,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {(done.stderr or done.stdout).strip()[-2000:]}")

    def start(self) -> str:
        """Start it; returns its URL."""
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self._run(postgres_program("initdb"), "-D", str(self.data), "-U", "racko", "--auth=trust", "-E", "UTF8")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses={HOST} -c max_connections=200"
        self._run(postgres_program("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        self._run(
            postgres_program("psql"),
            "-h",
            HOST,
            "-p",
            str(self.port),
            "-U",
            "racko",
            "-d",
            "postgres",
            "-c",
            "CREATE DATABASE racko",
        )
        return self.url

    def cpu_seconds(self) -> float | None:
        """User + system CPU time the server's processes (the postmaster and every process it started that still
        runs) have used so far; None where there is no /proc."""
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(stat.parent.name) == postmaster or int(fields[1]) == postmaster:
                    total += (int(fields[11]) + int(fields[12])) / ticks
        return total

    def stop(self) -> None:
        """Stop it (if it runs) and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run(postgres_program("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


class _Process:
    """A process this module started: where it listens, what it logs, what it costs, and how to end it."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:].strip() or "(no output)"
        except OSError:
            return "(no output)"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def rss_kb(self) -> int | None:
        """Resident memory (VmRSS of /proc/PID/status), in KiB; None where there is no /proc."""
        with contextlib.suppress(OSError, ValueError, AssertionError):
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return None

    def cpu_seconds(self) -> float | None:
        """User + system CPU time used so far; None where there is no /proc."""
        with contextlib.suppress(OSError, ValueError, IndexError, AssertionError):
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return None

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write; then wait for it to be gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=30)

    def stop(self, seconds: float = 20.0) -> None:
        """SIGTERM (a clean stop), SIGKILL if it has not ended in ``seconds``."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()


class ServeProcess(_Process):
    """One ``racko serve`` in a process of its own, on 127.0.0.1 and a free port."""

    def __init__(self, folder: Path, db: str, node: str, *options: str, port: int = 0) -> None:
        super().__init__(folder / f"serve-{node}.log")
        self.db = db
        self.node = node
        self.options = options
        self.port = port
        self.chosen = port
        """The port the caller chose (0: any free one)."""

    def start(self, seconds: float = START_SECONDS) -> None:
        """Start it (again: on the port it had) and wait until it answers (``seconds`` at most: it opens its tables
        before it listens)."""
        fixed = self.chosen or self.port  # started again: on its port, where the proxy looks for it
        for _ in range(1 if fixed else 3):  # a free port may be taken before it is bound: try another
            self.port = fixed or free_port()
            command = racko_command("serve", "--host", HOST, "--port", str(self.port))
            command += ["--db", self.db, "--node", self.node, *self.options]
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # Ctrl+C reaches the caller only, which then stops the server
                    preexec_fn=die_with_parent if sys.platform == "linux" else None,
                )
            if wait_until_healthy(self.url, self.process, seconds):
                return
            self.kill()
            self.port = 0
        raise RuntimeError(f"racko serve did not start: {self.log_tail()}")


def wait_until_healthy(url: str, process: subprocess.Popen[bytes] | None, seconds: float = START_SECONDS) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            time.sleep(0.05)
    return False


class Proxy(_Process):
    """HAProxy (Debian's ``haproxy``) in front of ``servers``, with the configuration ``racko proxy-config`` prints
    for them; ``check_seconds`` shortens its health checks (the tests see a stopped process sooner)."""

    def __init__(
        self, folder: Path, servers: Sequence[ServeProcess], *, check_seconds: float = 1.0, port: int = 0
    ) -> None:
        super().__init__(folder / "haproxy.log")
        self.port = port or free_port()
        self.config = folder / "haproxy.cfg"
        self.servers = list(servers)
        self.check_seconds = check_seconds

    def configuration(self) -> str:
        """What ``racko proxy-config`` prints for these servers and this port, health checks every
        ``check_seconds``."""
        command = racko_command(
            "proxy-config", "--listen", f"{HOST}:{self.port}", "--check-seconds", str(self.check_seconds)
        )
        for server in self.servers:
            command += ["--server", f"{server.node}={HOST}:{server.port}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=START_SECONDS)
        if done.returncode != 0:
            raise RuntimeError(f"racko proxy-config failed: {(done.stderr or done.stdout).strip()[-2000:]}")
        return done.stdout

    def start(self) -> None:
        program = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(program).exists():
            raise RuntimeError("HAProxy is not installed (Debian: apt-get install haproxy)")
        self.config.write_text(self.configuration())
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [program, "-db", "-f", str(self.config)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=die_with_parent if sys.platform == "linux" else None,
            )
        if not wait_until_healthy(self.url, self.process):
            self.stop()
            raise RuntimeError(f"HAProxy did not start: {self.log_tail()}")
