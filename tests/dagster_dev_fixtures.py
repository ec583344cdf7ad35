"""Session fixture: `make ui`'s stack, for real: dagster-webserver + the daemon.

``dagster dev`` runs from the repo root with workspace.yaml, as `make ui` does, on a free
loopback port, against a temporary instance that has the repo's dagster.yaml settings
(QueuedRunCoordinator, concurrency pools, run monitoring) with its storage moved into the
test's folder. The guideline partitions are registered first (`cardio partitions sync`).
Runs launched by the daemon write to the test session's CARDIO_HOME and load into the
session's Neo4j (``neo4j_server``), so the UI, automation and `cardio backfill` tests share
one stack: it starts once per session, which keeps the suite's time down.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from cardio_assets import paths

START_SECONDS = 300  # the code server imports the definitions (Docling, BAML) on 2 cores


@dataclass
class DagsterDev:
    url: str
    dagster_home: Path
    cardio_home: Path
    log: Path
    env: dict[str, str]

    def cardio(self, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
        """Run the `cardio` command against this stack's instance."""
        return subprocess.run(
            [str(Path(sys.executable).with_name("cardio")), *args],
            cwd=paths.PROJECT_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def instance_yaml(home: Path, source: Path | None = None) -> str:
    """A dagster.yaml (the repo's by default) with every relative base_dir moved into
    ``home``, so the test instance has the same settings as `make ui`."""
    config = yaml.safe_load((source or paths.PROJECT_ROOT / "dagster.yaml").read_text())

    def relocate(node):
        if isinstance(node, dict):
            return {
                key: str(home / value)
                if key == "base_dir" and isinstance(value, str) and not Path(value).is_absolute()
                else relocate(value)
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [relocate(item) for item in node]
        return node

    return yaml.safe_dump(relocate(config), sort_keys=False)


def stop_process_group(process: subprocess.Popen) -> None:
    """Stop a process started with start_new_session and its children, politely first."""
    if process.poll() is not None:
        return
    for sig, grace in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def wait_until(what: str, condition: Callable[[], object], timeout: float, every: float = 2.0):
    """Poll ``condition`` until truthy; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f}s")
        time.sleep(every)


def start_dagster_dev(home: Path, env: dict[str, str], log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    dagster = Path(sys.executable).with_name("dagster")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(dagster), "dev", "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
            cwd=paths.PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: the stop reaches daemon + code server
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:]
            pytest.fail(f"dagster dev exited ({process.returncode}):\n{tail}")
        try:
            with urllib.request.urlopen(f"{url}/server_info", timeout=5) as response:
                if response.status == 200:
                    return process, url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            stop_process_group(process)
            pytest.fail(f"no /server_info after {START_SECONDS}s:\n{log.read_text()[-3000:]}")
        time.sleep(1.0)


@pytest.fixture(scope="session")
def dagster_dev(
    _isolated_cardio_home: Path, neo4j_server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DagsterDev]:
    home = tmp_path_factory.mktemp("dagster_dev_home")
    (home / "dagster.yaml").write_text(instance_yaml(home))
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "CARDIO_HOME": str(_isolated_cardio_home),
    }
    for key in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        env.pop(key, None)  # the neo4j resource falls back to the session's local server
    stack = DagsterDev("", home, _isolated_cardio_home, home / "dagster-dev.log", env)
    sync = stack.cardio("partitions", "sync", timeout=300)
    assert sync.returncode == 0, sync.stdout + sync.stderr
    process, url = start_dagster_dev(home, env, stack.log)
    stack.url = url
    try:
        yield stack
    finally:
        stop_process_group(process)
