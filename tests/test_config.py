"""cardio_assets/config.py reads every file of the config folder at call time.

The folder used to be fixed when cardio_assets.paths was imported, so a CARDIO_CONFIG_DIR
set afterwards (a test, a user exporting it in a long-lived process) reached pipeline.yaml
but not the abbreviations or the grounding schema. Here the variable is set only after
everything that reads configs/ has been imported, and every file must follow it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import cardio_assets.assets._code_versions as code_versions
import cardio_assets.definitions  # noqa: F401 - imported first on purpose
from cardio_assets import config
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.paths import DEFAULT_CONFIG_DIR
from resources.lexicon_extractor import LexiconExtractorResource


@pytest.fixture
def late_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An edited copy of configs/, pointed at after every module is imported."""
    target = tmp_path / "configs"
    shutil.copytree(DEFAULT_CONFIG_DIR, target)
    with (target / "abbreviations.txt").open("a", encoding="utf-8") as fh:
        fh.write("ZZQ\tzebra quagga syndrome\n")
    schema_file = target / "guideline_graph_schema.yaml"
    schema = yaml.safe_load(schema_file.read_text())
    schema["roles"]["Condition"]["min_match_score"] = 0.99
    schema_file.write_text(yaml.safe_dump(schema))
    pipeline_file = target / "pipeline.yaml"
    pipeline = yaml.safe_load(pipeline_file.read_text()) or {}
    pipeline.setdefault("grounding", {})["top_k"] = 7
    pipeline_file.write_text(yaml.safe_dump(pipeline))
    models_file = target / "models.yaml"
    models = yaml.safe_load(models_file.read_text())
    models["default"] = next(name for name in models["clients"] if name != models.get("default"))
    models_file.write_text(yaml.safe_dump(models))
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(target))
    return target


def test_every_config_file_follows_a_late_config_dir(late_config_dir: Path) -> None:
    assert config.config_dir() == late_config_dir
    assert config.load_pipeline_settings().grounding.top_k == 7
    assert config.load_abbreviations()["ZZQ"] == "zebra quagga syndrome"
    assert config.load_grounding_schema().rule("Condition").min_match_score == 0.99
    default = yaml.safe_load((late_config_dir / "models.yaml").read_text())["default"]
    assert config.load_models_config().client(None)[0] == default
    assert config.load_registry().ids  # the copied registry
    # the lexicon resource reads the same list
    assert "ZZQ" in LexiconExtractorResource().abbreviations()


def test_code_versions_follow_a_late_config_dir(
    late_config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    after = {
        "merged": code_versions.merged_concepts_code_version(),
        "candidates": code_versions.grounding_candidates_code_version(),
        "index": code_versions.grounding_index_code_version(),
    }
    monkeypatch.delenv("CARDIO_CONFIG_DIR")
    before = {
        "merged": code_versions.merged_concepts_code_version(),
        "candidates": code_versions.grounding_candidates_code_version(),
        "index": code_versions.grounding_index_code_version(),
    }
    assert all(before[k] != after[k] for k in before), (before, after)


def test_a_config_dir_holds_only_what_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file missing from CARDIO_CONFIG_DIR is the repo's own: a folder with just an edited
    abbreviation list changes the abbreviations and nothing else."""
    (tmp_path / "abbreviations.txt").write_text("ZZQ\tzebra quagga syndrome\n", encoding="utf-8")
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(tmp_path))
    assert dict(config.load_abbreviations()) == {"ZZQ": "zebra quagga syndrome"}
    assert config.config_path("abbreviations.txt") == tmp_path / "abbreviations.txt"
    assert config.config_path("guideline_graph_schema.yaml").parent == DEFAULT_CONFIG_DIR
    assert config.load_grounding_schema().roles  # the shipped schema
    assert config.load_registry().ids  # the shipped registry


def test_one_expander_two_options() -> None:
    """Extraction keeps to the keys as written; grounding also accepts the capitals of a
    mixed-case key. expand() drops the "X (ABBR)" echo, substitute() reports what it used."""
    abbreviations = Abbreviations(
        {"eGFR": "estimated glomerular filtration rate", "HF": "heart failure"}
    )
    assert abbreviations.expand("EGFR") == "EGFR"
    assert abbreviations.for_search().substitute("EGFR") == (
        "estimated glomerular filtration rate",
        ["EGFR"],
    )
    assert abbreviations.expand("heart failure (HF)") == "heart failure"
    assert abbreviations.substitute("heart failure (HF)") == (
        "heart failure (heart failure)",
        ["HF"],
    )
    assert dict(abbreviations) == {
        "eGFR": "estimated glomerular filtration rate",
        "HF": "heart failure",
    }


@pytest.mark.parametrize(
    ("method", "executor"),
    [
        ("forkserver", "multiprocess_forkserver"),
        ("spawn", "multiprocess"),
        ("in_process", "in_process"),
    ],
)
def test_runs_start_their_steps_as_pipeline_yaml_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str, executor: str
) -> None:
    # A step that starts a fresh interpreter re-imports Dagster, Docling and the pipeline
    # (~10 s on two cores), so runs fork their steps from one preloaded process by default;
    # the setting is read in one place and a wrong value names its key.
    from cardio_assets.definitions import run_executor

    (tmp_path / "pipeline.yaml").write_text(f"execution:\n  start_method: {method}\n")
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(tmp_path))
    chosen = run_executor()
    assert chosen.name == executor
    if method == "forkserver":
        resolved = chosen.apply_config_mapping({}).value["config"]  # what a run gets
        assert resolved["start_method"] == {
            "forkserver": {"preload_modules": ["cardio_assets.definitions"]}
        }


def test_a_wrong_start_method_names_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pipeline.yaml").write_text("execution:\n  start_method: threads\n")
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(tmp_path))
    with pytest.raises(config.ConfigError, match=r"execution\.start_method"):
        config.load_pipeline_settings()


def test_an_abbreviation_marked_yields_gives_way_and_a_bad_third_column_is_named(
    tmp_path: Path,
) -> None:
    """A third column 'yields' marks an entry with another common reading; any other third
    column is an error naming the file and line."""
    good = tmp_path / "abbreviations.txt"
    good.write_text("CHD\tcoronary heart disease\tyields\nHF\theart failure\n", encoding="utf-8")
    loaded = config.load_abbreviations(good)
    assert dict(loaded) == {"CHD": "coronary heart disease", "HF": "heart failure"}
    assert loaded.yields == frozenset({"chd"})
    bad = tmp_path / "bad.txt"
    bad.write_text("HF\theart failure\tmaybe\n", encoding="utf-8")
    with pytest.raises(config.ConfigError, match=r"bad\.txt:1: .*yields"):
        config.load_abbreviations(bad)
