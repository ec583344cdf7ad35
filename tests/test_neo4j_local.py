"""`cardio neo4j start|stop|status` and the launcher's error reporting (real processes)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardio_assets import neo4j_local
from cardio_assets.cli import main

pytestmark = pytest.mark.neo4j


def test_status_command_reports_the_running_server(neo4j_server) -> None:
    # the session server lives in $CARDIO_HOME/neo4j, which is where the CLI looks
    result = CliRunner().invoke(main, ["neo4j", "status", "--json"])
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    assert status["uri"] == neo4j_server.uri and status["ready"] and status["pid"]
    assert neo4j_server.password not in result.output


def test_start_is_idempotent_when_running(neo4j_server) -> None:
    result = CliRunner().invoke(main, ["neo4j", "start", "--port", str(neo4j_server.port)])
    assert result.exit_code == 0, result.output
    assert f"Neo4j ready at {neo4j_server.uri}" in result.output
    assert neo4j_server.password not in result.output


def test_port_in_use_is_refused_with_the_fix(neo4j_server, tmp_path) -> None:
    with pytest.raises(neo4j_local.Neo4jLocalError, match="already in use.*--port"):
        neo4j_local.start(tmp_path / "other", port=neo4j_server.port)


def test_start_failure_shows_the_launcher_log(tmp_path) -> None:
    root = tmp_path / "broken"
    with pytest.raises(neo4j_local.Neo4jLocalError) as failure:
        neo4j_local.start(root, port=neo4j_local.free_port(), page_cache="lots", timeout_s=60)
    message = str(failure.value)
    assert "exited during start-up" in message and "launcher.log" in message
    assert "NumberFormatException" in message  # the tail of the log, not a generic error
    status = neo4j_local.status(root)
    assert not status.running and not status.ready


def test_stop_when_nothing_runs(tmp_path) -> None:
    assert neo4j_local.stop(tmp_path / "never-started") is False
    result = CliRunner().invoke(main, ["neo4j", "status"], env={"CARDIO_HOME": str(tmp_path)})
    assert result.exit_code == 1 and "running: no" in result.output


def test_a_server_started_from_a_process_that_ignores_sigterm_still_stops_on_it() -> None:
    """A caller that ignores SIGTERM (run under nohup, or a library that set it) passes the
    ignored disposition to every child; a JVM started so never runs its shutdown hooks and
    `cardio neo4j stop` could only kill it. The launcher's child gets the defaults back.
    Shown with a short-lived child started the same way (a JVM start takes too long here)."""
    import signal
    import subprocess
    import sys

    from cardio_assets.neo4j_local import default_stop_signals

    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(30)"],
            start_new_session=True,
            preexec_fn=default_stop_signals,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=10) == -signal.SIGTERM
