"""`cardio guideline add`'s registry edit: a validated entry appended, comments kept,
duplicates and broken registries refused with the key named (real-ingestion issue)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import ConfigError, GuidelineEntry, load_registry
from cardio_assets.registry import RegistryEditError, add_guideline

REGISTRY = """# Guideline registry (comment kept)
guidelines:
  # a sample
  - id: first
    title: First guideline
    sources: [a.html]
"""


def test_entry_appended_validated_and_comments_kept(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text(REGISTRY, encoding="utf-8")
    add_guideline(
        GuidelineEntry(
            id="second",
            title="Second: with a colon",
            society="ESC",
            year=2021,
            sources=["docs/second.md"],
        ),
        path,
    )
    text = path.read_text(encoding="utf-8")
    assert text.startswith(REGISTRY)  # the user's file and comments untouched
    registry = load_registry(path)
    assert registry.ids == ["first", "second"]
    second = registry.get("second")
    assert (second.title, second.society, second.year, second.sources) == (
        "Second: with a colon",
        "ESC",
        2021,
        ["docs/second.md"],
    )


def test_duplicate_id_and_broken_registry_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text(REGISTRY, encoding="utf-8")
    with pytest.raises(RegistryEditError, match="id 'first' is already registered"):
        add_guideline(GuidelineEntry(id="first", title="Again", sources=["b.md"]), path)
    assert path.read_text(encoding="utf-8") == REGISTRY
    path.write_text(REGISTRY + "  - id: broken\n    colour: blue\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"guidelines\[broken\]"):
        add_guideline(GuidelineEntry(id="third", title="Third", sources=["c.md"]), path)


def test_empty_registry_gets_its_first_entry(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text("guidelines: []\n", encoding="utf-8")
    add_guideline(GuidelineEntry(id="only", title="Only", sources=["x.md"]), path)
    assert load_registry(path).ids == ["only"]


FIXTURE = Path(__file__).parent / "fixtures" / "real_ingestion" / "converter_made.md"


def _cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private config folder and Dagster instance, so the repo's registry is untouched."""
    config = tmp_path / "configs"
    config.mkdir()
    (config / "guidelines.yaml").write_text(REGISTRY, encoding="utf-8")
    home = tmp_path / "dagster_home"
    home.mkdir()
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(config))
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return config / "guidelines.yaml"


def test_cardio_guideline_add_checks_the_file_then_registers_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user registers a real guideline with one command: the document is read as
    `cardio rows` reads it, the entry lands in the registry and the partition in the
    instance, so the next materialization can use it."""
    import dagster as dg
    from click.testing import CliRunner

    from cardio_assets.cli import main
    from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME

    registry = _cli_env(tmp_path, monkeypatch)
    args = ["guideline", "add", str(FIXTURE), "--id", "converter-made", "--title", "Fixture"]
    result = CliRunner().invoke(main, [*args, "--society", "ESC", "--year", "2021"])
    assert result.exit_code == 0, result.output
    assert "added 'converter-made'" in result.output and "recommendation rows" in result.output
    entry = load_registry(registry).get("converter-made")
    assert (entry.society, entry.year) == ("ESC", 2021)
    assert entry.source_paths() == [FIXTURE.resolve()]
    with dg.DagsterInstance.from_config(str(tmp_path / "dagster_home")) as instance:
        assert "converter-made" in instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME)

    again = CliRunner().invoke(main, args)
    assert again.exit_code == 1
    assert "id 'converter-made' is already registered" in again.output


def test_cardio_guideline_add_refuses_unreadable_and_empty_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is registered that the pipeline would stop on: a file of an unknown type, a
    missing file, a bad id, and a document without a recommendation table (unless --force)."""
    from click.testing import CliRunner

    from cardio_assets.cli import main

    registry = _cli_env(tmp_path, monkeypatch)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a guideline", encoding="utf-8")
    doses = tmp_path / "doses.md"
    doses.write_text("Table 1 Doses\n\n|Drug|Dose|\n|---|---|\n|Metoprolol|25 mg|\n", "utf-8")
    cases = [
        ([str(notes), "--id", "notes"], str(notes)),
        ([str(tmp_path / "absent.md"), "--id", "absent"], "absent.md"),
        ([str(doses), "--id", "Bad Id"], "--id"),
        ([str(doses), "--id", "doses"], "no recommendation row found"),
    ]
    for args, expected in cases:
        result = CliRunner().invoke(main, ["guideline", "add", *args, "--title", "T"])
        assert result.exit_code == 1, (args, result.output)
        assert expected in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert registry.read_text(encoding="utf-8") == REGISTRY
    forced = CliRunner().invoke(
        main, ["guideline", "add", str(doses), "--id", "doses", "--title", "T", "--force"]
    )
    assert forced.exit_code == 0, forced.output
    assert load_registry(registry).get("doses") is not None


def test_cardio_rows_all_tables_shows_other_tables_for_inspection(tmp_path: Path) -> None:
    """Dose and score tables never reach the pipeline, but a user checking a document can
    see their rows, each line naming its table's kind."""
    import json

    from click.testing import CliRunner

    from cardio_assets.cli import main

    out = tmp_path / "rows.jsonl"
    plain = CliRunner().invoke(main, ["rows", str(FIXTURE), "--out", str(out)])
    assert plain.exit_code == 0, plain.output
    recommendations = [json.loads(line) for line in out.read_text().splitlines()]
    assert all("table_kind" not in r for r in recommendations)
    assert "what_is_new" in plain.output  # the tables left out are listed with the reason
    full = CliRunner().invoke(main, ["rows", str(FIXTURE), "--out", str(out), "--all-tables"])
    assert full.exit_code == 0, full.output
    every = [json.loads(line) for line in out.read_text().splitlines()]
    kinds = {r["table_kind"] for r in every}
    assert {"recommendations", "what_is_new", "other"} <= kinds
    assert [r for r in every if r["table_kind"] == "recommendations"] == [
        {**r, "table_kind": "recommendations"} for r in recommendations
    ]
