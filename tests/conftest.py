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


# `make ui`'s stack (dagster dev: webserver + daemon), once per session: dagster_dev.
from tests.dagster_dev_fixtures import dagster_dev  # noqa: E402, F401

# `make test` deals the tests out to two pytest-xdist workers (`--dist loadgroup`). Each
# module is one group, so its module fixtures are built once; the modules that share `make
# ui`'s stack are one group, so the stack starts once, and they go first because together
# they are the longest stretch of the suite: the other worker takes the rest meanwhile.
SHARED_STACK_MODULES = ("test_ui.py", "test_automation.py")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        shared = item.path.name in SHARED_STACK_MODULES
        group = "dagster_dev" if shared else str(item.path.relative_to(config.rootpath))
        item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: item.path.name not in SHARED_STACK_MODULES)  # stable
