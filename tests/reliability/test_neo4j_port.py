"""`cardio neo4j start --port P` while the server runs on another port says so.

It used to print "Neo4j ready at bolt://127.0.0.1:<old port>" and exit 0, so a script that
then connected to port P found nothing there. Uses the session's real launcher.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardio_assets import neo4j_local
from cardio_assets.cli import main as cli


@pytest.mark.neo4j
def test_start_on_another_port_while_running_says_so(neo4j_server, monkeypatch) -> None:
    monkeypatch.delenv("CARDIO_NEO4J_PORT", raising=False)
    other = neo4j_local.free_port()
    assert other != neo4j_server.port
    result = CliRunner().invoke(cli, ["neo4j", "start", "--port", str(other)])
    assert result.exit_code == 1, result.output
    message = result.output.strip()
    assert message.startswith("Error: Neo4j is already running on port")
    assert str(neo4j_server.port) in message and str(other) in message
    assert "cardio neo4j stop" in message
    assert neo4j_local._port_free(other), "nothing may have been started on the other port"

    # the same port (or none) is still the idempotent "already running" answer
    for args in (["--port", str(neo4j_server.port)], []):
        result = CliRunner().invoke(cli, ["neo4j", "start", *args])
        assert result.exit_code == 0, result.output
        assert f"bolt://127.0.0.1:{neo4j_server.port}" in result.output
