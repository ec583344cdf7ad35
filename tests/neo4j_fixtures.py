"""Session fixture: the project's REAL local Neo4j (embedded Community over Bolt).

Built once if needed (Maven), started once per test session on a free loopback port with
its own data under the test session's CARDIO_HOME, stopped at the end. Imported by
tests/conftest.py so any test module can request ``neo4j_server`` / ``neo4j_driver``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import neo4j
import pytest

from cardio_assets import neo4j_local


@dataclass
class LocalNeo4jServer:
    root: Path
    port: int
    uri: str
    user: str
    password: str

    def stop(self) -> None:
        neo4j_local.stop(self.root)

    def start(self) -> None:
        """(Re)start on the same port and data, e.g. after a test interrupted it."""
        neo4j_local.start(self.root, port=self.port, heap="768m", page_cache="256m")


@pytest.fixture(scope="session")
def neo4j_server(_isolated_cardio_home: Path) -> Iterator[LocalNeo4jServer]:
    # The resource must fall back to THIS server, never to a developer's NEO4J_URI.
    for key in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        os.environ.pop(key, None)
    try:
        neo4j_local.ensure_launcher_built()
    except neo4j_local.Neo4jLocalError as exc:
        pytest.fail(f"cannot build the Neo4j launcher: {exc}")
    root = _isolated_cardio_home / "neo4j"
    port = neo4j_local.free_port()
    status = neo4j_local.start(root, port=port, heap="768m", page_cache="256m")
    user_password = neo4j_local.local_connection(root)
    assert status.ready and user_password is not None
    uri, user, password = user_password
    server = LocalNeo4jServer(root=root, port=port, uri=uri, user=user, password=password)
    try:
        yield server
    finally:
        neo4j_local.stop(root)


@pytest.fixture(scope="session")
def neo4j_driver(neo4j_server: LocalNeo4jServer) -> Iterator[neo4j.Driver]:
    # Short retry window: an interrupted load must fail within seconds, not the default 30 s.
    driver = neo4j.GraphDatabase.driver(
        neo4j_server.uri,
        auth=(neo4j_server.user, neo4j_server.password),
        max_transaction_retry_time=3.0,
        connection_timeout=5.0,
        notifications_min_severity="OFF",
    )
    try:
        yield driver
    finally:
        driver.close()
