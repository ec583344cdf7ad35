"""Shared pytest fixtures. Areas add their session fixtures below."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Real local Neo4j (session-scoped, started on first use): neo4j_server, neo4j_driver.
from tests.neo4j_fixtures import neo4j_driver, neo4j_server  # noqa: E402, F401

# The whole pipeline on one sample into that Neo4j (session-scoped): loaded_sample.
from tests.pipeline_fixtures import loaded_sample  # noqa: E402, F401


@pytest.fixture(scope="session", autouse=True)
def _isolated_cardio_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keep test state out of the developer's var/ folder."""
    home = tmp_path_factory.mktemp("cardio_home")
    os.environ["CARDIO_HOME"] = str(home)
    os.environ.setdefault("TMPDIR", tempfile.gettempdir())
    return home
