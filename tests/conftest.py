"""Shared pytest fixtures. Areas add their session fixtures below."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Importing cardio_assets.definitions must not add partitions to the developer's instance
# (DAGSTER_HOME exported by the Makefile); tests use their own temporary instances.
os.environ["CARDIO_SYNC_ON_LOAD"] = "0"


@pytest.fixture(scope="session", autouse=True)
def _isolated_cardio_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keep test state out of the developer's var/ folder."""
    home = tmp_path_factory.mktemp("cardio_home")
    os.environ["CARDIO_HOME"] = str(home)
    os.environ.setdefault("TMPDIR", tempfile.gettempdir())
    return home
