"""Where `cardio demo` says the Dagster runs are: the folder the instance's own dagster.yaml
names, not a guess under DAGSTER_HOME."""

from __future__ import annotations

from pathlib import Path

from cardio_assets import paths
from cardio_assets.cli.instance import instance_storage_dir


def test_the_projects_instance_keeps_its_runs_under_var_dagster() -> None:
    """The repo's dagster.yaml: relative paths, read from the repo root."""
    assert instance_storage_dir(paths.PROJECT_ROOT) == paths.PROJECT_ROOT / "var" / "dagster"


def test_an_instance_of_ones_own_is_followed_where_its_file_says(tmp_path: Path) -> None:
    """A DAGSTER_HOME with its own dagster.yaml, storage given as an absolute folder (and,
    in a second home, relative to that home)."""
    elsewhere = tmp_path / "runs" / "storage"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "dagster.yaml").write_text(
        f"storage:\n  sqlite:\n    base_dir: {elsewhere}\n", encoding="utf-8"
    )
    assert instance_storage_dir(tmp_path / "a") == tmp_path / "runs"
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "dagster.yaml").write_text(
        "storage:\n  sqlite:\n    base_dir: history\n", encoding="utf-8"
    )
    assert instance_storage_dir(tmp_path / "b") == tmp_path / "b" / "history"


def test_a_home_without_such_a_file_is_named_itself(tmp_path: Path) -> None:
    """No dagster.yaml, or one without sqlite storage (PostgreSQL): the home is all we know."""
    assert instance_storage_dir(tmp_path) == tmp_path
    (tmp_path / "dagster.yaml").write_text("storage:\n  postgres: {}\n", encoding="utf-8")
    assert instance_storage_dir(tmp_path) == tmp_path
