"""The project's own Neo4j: an embedded Neo4j Community started from neo4j_launcher/.

Why: no Neo4j package or Docker exists on the target machines, but the Community jars
are on Maven Central, so the launcher is built once with Maven and then run with plain
``java``. Everything it writes lives under ``$CARDIO_HOME/neo4j``: the DBMS home
(data, transaction logs, debug.log), the generated password (mode 0600), the pid file,
the launcher's log and a small state file with the Bolt URI the other commands read; all of
it owner-only (0700 folders, 0600 files).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from cardio_assets.files import open_private, private_dir, write_private_text
from cardio_assets.paths import PROJECT_ROOT, var_dir

LAUNCHER_DIR = PROJECT_ROOT / "neo4j_launcher"
LAUNCHER_MAIN = "org.cardio.neo4j.Launcher"
DEFAULT_PORT = 7687
DEFAULT_USER = "neo4j"
READY_MARKER = "CARDIO-NEO4J READY"
FAILED_MARKER = "CARDIO-NEO4J FAILED"
NEO4J_UMASK = 0o077  # the launcher JVM and every file Neo4j creates: owner-only

# Flags Neo4j's own start script passes on Java 17 (netty and the page cache need them),
# except the collector: on this 2-core machine bulk loads are throughput-bound and the
# parallel collector's cheaper write barriers beat G1 (benchmarks/neo4j_load.py, README Speed).
JVM_FLAGS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-XX:+UseParallelGC",
)


class Neo4jLocalError(RuntimeError):
    """The local Neo4j could not be built, started, reached or stopped."""


@dataclass(frozen=True)
class LocalNeo4jPaths:
    root: Path
    home: Path  # DBMS home: data/, logs/
    password_file: Path
    pid_file: Path
    log_file: Path
    state_file: Path


@dataclass(frozen=True)
class LocalNeo4jStatus:
    uri: str | None
    pid: int | None
    running: bool  # the launcher process is alive
    ready: bool  # a Bolt session with the stored password works
    home: str
    log_file: str
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def local_paths(root: Path | None = None) -> LocalNeo4jPaths:
    root = (root or var_dir() / "neo4j").resolve()
    return LocalNeo4jPaths(
        root=root,
        home=root / "dbms",
        password_file=root / "password",
        pid_file=root / "launcher.pid",
        log_file=root / "launcher.log",
        state_file=root / "launcher.json",
    )


def launcher_built() -> bool:
    return (LAUNCHER_DIR / "target" / ".built").exists() and (
        LAUNCHER_DIR / "target" / "lib"
    ).is_dir()


def ensure_launcher_built() -> None:
    """Build the launcher once (``make -C neo4j_launcher build``; a no-op when up to date)."""
    if shutil.which("java") is None:
        raise Neo4jLocalError(
            "java not found: install OpenJDK 17 (e.g. apt-get install openjdk-17-jdk)"
        )
    if launcher_built() and shutil.which("mvn") is None:
        return
    if shutil.which("mvn") is None:
        raise Neo4jLocalError(
            "the Neo4j launcher is not built and Maven is missing: install maven, then run "
            "`make -C neo4j_launcher build` (or set NEO4J_URI to use your own Neo4j)"
        )
    result = subprocess.run(
        ["make", "-C", str(LAUNCHER_DIR), "build"], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-20:])
        raise Neo4jLocalError(f"building neo4j_launcher failed:\n{tail}")


def read_password(paths: LocalNeo4jPaths) -> str | None:
    try:
        return paths.password_file.read_text(encoding="utf-8").strip() or None
    except FileNotFoundError:
        return None


def read_state(paths: LocalNeo4jPaths) -> dict[str, object]:
    try:
        return json.loads(paths.state_file.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def local_connection(root: Path | None = None) -> tuple[str, str, str] | None:
    """(uri, user, password) of the local launcher when it has been started, else None."""
    paths = local_paths(root)
    state = read_state(paths)
    password = read_password(paths)
    if not state.get("uri") or password is None:
        return None
    return str(state["uri"]), DEFAULT_USER, password


def _pid_alive(pid: int, paths: LocalNeo4jPaths) -> bool:
    """True when ``pid`` is OUR launcher for this home (guards against recycled pids)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    args = [a.decode(errors="replace") for a in cmdline]
    return LAUNCHER_MAIN in args and str(paths.home) in args


def _read_pid(paths: LocalNeo4jPaths) -> int | None:
    try:
        return int(paths.pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bolt_ready(uri: str, user: str, password: str, timeout_s: float = 3.0) -> str | None:
    """None when a Bolt session can run a query; otherwise the reason it cannot."""
    from cardio_assets.neo4j_driver import neo4j_module

    neo4j = neo4j_module()  # local import: `cardio --help` must not pay for the driver

    try:
        with neo4j.GraphDatabase.driver(
            uri, auth=(user, password), connection_timeout=timeout_s, max_connection_pool_size=1
        ) as driver:
            driver.verify_connectivity()
            driver.execute_query("RETURN 1", database_="neo4j")
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready", reported as text
        return f"{type(exc).__name__}: {exc}"


def log_tail(paths: LocalNeo4jPaths, lines: int = 25, since: int = 0) -> str:
    try:
        with paths.log_file.open("rb") as fh:
            fh.seek(since)
            text = fh.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.strip().splitlines()[-lines:])


def status(root: Path | None = None, *, check_bolt: bool = True) -> LocalNeo4jStatus:
    paths = local_paths(root)
    state = read_state(paths)
    pid = _read_pid(paths)
    running = pid is not None and _pid_alive(pid, paths)
    uri = str(state["uri"]) if state.get("uri") else None
    ready, detail = False, "not running"
    if running and uri:
        password = read_password(paths)
        problem = (
            bolt_ready(uri, DEFAULT_USER, password) if password and check_bolt else "not checked"
        )
        ready = problem is None
        detail = "ready" if ready else (problem or "")
    return LocalNeo4jStatus(
        uri=uri,
        pid=pid if running else None,
        running=running,
        ready=ready,
        home=str(paths.home),
        log_file=str(paths.log_file),
        detail=detail,
    )


def _env_port() -> int | None:
    raw = os.environ.get("CARDIO_NEO4J_PORT", "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise Neo4jLocalError(f"CARDIO_NEO4J_PORT={raw!r} is not a port number") from None


def refuse_other_port(
    current: LocalNeo4jStatus, running_port: object, requested: int | None
) -> None:
    """A start asking for another port than the running server's must say so: silently
    returning the running server would leave the caller on the wrong address."""
    if requested is None or running_port is None or int(str(running_port)) == requested:
        return
    raise Neo4jLocalError(
        f"Neo4j is already running on port {running_port} ({current.uri}, pid {current.pid}), "
        f"not on {requested}: use {current.uri}, or run `cardio neo4j stop` and start again "
        f"with --port {requested}"
    )


def start(
    root: Path | None = None,
    *,
    port: int | None = None,
    heap: str = "2g",
    page_cache: str = "512m",
    timeout_s: float = 180.0,
) -> LocalNeo4jStatus:
    """Start the launcher in the background and return once Bolt answers (idempotent)."""
    paths = local_paths(root)
    requested = port or _env_port()
    current = status(root)
    if current.running:
        refuse_other_port(current, read_state(paths).get("port"), requested)
        if current.ready:
            return current
        raise Neo4jLocalError(
            f"a launcher (pid {current.pid}) is running but Bolt is not usable: {current.detail}; "
            f"see {paths.log_file} or run `cardio neo4j stop`"
        )
    ensure_launcher_built()
    port = requested or DEFAULT_PORT
    if not _port_free(port):
        raise Neo4jLocalError(
            f"port {port} on 127.0.0.1 is already in use: pass --port or set CARDIO_NEO4J_PORT"
        )
    private_dir(paths.root)
    uri = f"bolt://127.0.0.1:{port}"
    command = [
        "java",
        f"-Xmx{heap}",
        *JVM_FLAGS,
        "-cp",
        f"{LAUNCHER_DIR / 'target' / 'classes'}:{LAUNCHER_DIR / 'target' / 'lib' / '*'}",
        LAUNCHER_MAIN,
        "--home",
        str(paths.home),
        "--port",
        str(port),
        "--password-file",
        str(paths.password_file),
        "--page-cache",
        page_cache,
    ]
    log_offset = paths.log_file.stat().st_size if paths.log_file.exists() else 0
    with open_private(paths.log_file, "ab") as log:
        # Own session: the DBMS outlives this command and ignores the terminal's Ctrl-C.
        # umask 077: every file Neo4j writes (store, transaction logs, debug.log) is owner-only.
        process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=default_stop_signals,
            cwd=paths.root,
            umask=NEO4J_UMASK,
        )
    write_private_text(paths.pid_file, f"{process.pid}\n")
    write_private_text(
        paths.state_file,
        json.dumps({"uri": uri, "port": port, "pid": process.pid, "started_at": time.time()}),
    )

    deadline = time.monotonic() + timeout_s
    problem = "launcher did not print its ready line"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            paths.pid_file.unlink(missing_ok=True)
            raise Neo4jLocalError(
                f"Neo4j exited during start-up (code {process.returncode}); "
                f"last lines of {paths.log_file}:\n{log_tail(paths, since=log_offset)}"
            )
        # Wait for the launcher's own line first: before it, the password may not be set yet
        # and repeated failed logins would lock the account for a few seconds.
        if READY_MARKER in log_tail(paths, lines=200, since=log_offset):
            password = read_password(paths) or ""
            problem = bolt_ready(uri, DEFAULT_USER, password) or ""
            if not problem:
                return status(root)
        time.sleep(0.5)
    raise Neo4jLocalError(
        f"Neo4j did not become ready on {uri} within {timeout_s:.0f}s ({problem}); "
        f"it is still running as pid {process.pid} (stop it with `cardio neo4j stop`); "
        f"last lines of {paths.log_file}:\n{log_tail(paths, since=log_offset)}"
    )


def default_stop_signals() -> None:
    """In the child before it runs Java: SIGTERM and SIGHUP back to their defaults, unblocked.
    A JVM started with SIGTERM ignored (inherited from a caller run under nohup, or from a
    library that ignores it) never runs its shutdown hooks, so ``stop`` could only kill it;
    found when a test process had ignored SIGTERM before restarting the server."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGHUP})


def stop(root: Path | None = None, *, timeout_s: float = 60.0) -> bool:
    """Terminate the launcher gracefully (SIGTERM runs Neo4j's clean shutdown).

    Returns False when nothing was running. Falls back to SIGKILL only after timeout_s.
    """
    paths = local_paths(root)
    pid = _read_pid(paths)
    if pid is None or not _pid_alive(pid, paths):
        paths.pid_file.unlink(missing_ok=True)
        return False
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not _pid_alive(pid, paths):
            break
        _reap(pid)
        time.sleep(0.2)
    else:
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        _reap(pid)
        paths.pid_file.unlink(missing_ok=True)
        raise Neo4jLocalError(
            f"Neo4j (pid {pid}) did not stop within {timeout_s:.0f}s and was killed; "
            f"see {paths.log_file}"
        )
    paths.pid_file.unlink(missing_ok=True)
    return True


def _reap(pid: int) -> None:
    """Collect the exit status when the launcher is our own child (avoids a zombie pid)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
