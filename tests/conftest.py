"""Shared pytest fixtures. Areas add their session fixtures below."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# The lexicon extractor on the real abbreviation list and SNOMED CT sample (module-scoped).
from tests.lexicon_fixtures import lexicon  # noqa: E402, F401

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

# `make test` deals the tests out to two pytest-xdist workers by module (`--dist loadfile`),
# so a module's fixtures are built once. The modules that share `make ui`'s stack count as
# one module, so the stack starts once, and they go first because together they are the
# longest stretch of the suite: the other worker takes the rest meanwhile. (A custom
# scheduler, not `--dist loadgroup`: xdist_group marks are ignored with pytest 9.2,
# pytest-dev/pytest-xdist#1386.)
SHARED_STACK_MODULES = ("test_ui.py", "test_automation.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in SHARED_STACK_MODULES)  # stable


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getvalue("dist") != "loadfile":
        return None  # another --dist asked for on the command line: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return "make-ui-stack" if Path(module).name in SHARED_STACK_MODULES else module

    return ModuleScheduling(config, log)
