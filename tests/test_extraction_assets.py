"""Extraction and grounding assets and `cardio extract` (the scorer has tests/test_evaluation.py).

Real components throughout: Docling conversions of the sample guideline, the DuckDB IO
manager, the bundled SNOMED CT sample store, and for the llm backend the generated BAML
client over HTTP to the replay server on 127.0.0.1 (tests/replay_server.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
import yaml
from click.testing import CliRunner

from cardio_assets import paths
from cardio_assets.records import (
    GroundingCandidate,
    GroundingOutcome,
    MergedRow,
    RowExtraction,
    RowRecord,
)
from resources.duckdb_io_manager import read_records
from tests.replay_server import ReplayServer, ensure_baml_client

ROOT = Path(__file__).resolve().parent.parent
LEXICON_PARTITION = "hf-sample"
EXTRACTION_ASSETS = [
    "main_extractions",
    "population_extractions",
    "merged_concepts",
    "grounding_candidates",
    "grounding_index",
]
# The worked example of docs/ARCHITECTURE.md: the specification, so its concept set is written out here.
WORKED_TITLE = "2024 ESC Guidelines for the management of chronic coronary syndromes"
WORKED_ROW = (
    "In chronic coronary syndrome patients with LVEF <= 35% who are high surgical risk or "
    "not operable, PCI may be considered."
)
WORKED_CONCEPTS = {
    ("Condition", "chronic coronary syndrome", None, None, None),
    ("ClinicalParameter", "left ventricular ejection fraction", "<=", 35.0, "%"),
    ("Condition", "high surgical risk", None, None, None),
    ("Condition", "not operable", None, None, None),
    ("Procedure", "percutaneous coronary intervention", None, None, None),
}


def _concept_set(concepts) -> set[tuple]:
    out = set()
    for c in concepts:
        get = c.get if isinstance(c, dict) else lambda k, c=c: getattr(c, k)
        threshold = get("threshold")
        out.add(
            (
                get("role"),
                get("normalized"),
                get("operator"),
                float(threshold) if threshold is not None else None,
                get("unit"),
            )
        )
    return out


def _or_members(concepts) -> dict[str, set[str]]:
    groups: dict[str, set[str]] = {}
    for c in concepts:
        get = c.get if isinstance(c, dict) else lambda k, c=c: getattr(c, k)
        if get("or_group"):
            groups.setdefault(get("or_group"), set()).add(get("normalized"))
    return groups


# --------------------------------------------------------------------------- fixtures


STAGES = ["docling_tables", "table_rows", "tagged_rows", *EXTRACTION_ASSETS]


@pytest.fixture(scope="module")
def defs():
    """The stage assets as the definitions collect them (module cardio_assets.assets.<name>),
    imported one by one so another stage's unfinished module cannot break these tests."""
    import importlib

    from resources.docling_converter import DoclingConverterResource
    from resources.duckdb_io_manager import DuckDBRecordIOManager
    from resources.lexicon_extractor import LexiconExtractorResource as LexiconExtractor
    from resources.llm_extractor import LlmExtractorResource as LlmExtractor
    from resources.terminology import SnomedTerminologyResource as SnomedTerminology

    assets = [getattr(importlib.import_module(f"cardio_assets.assets.{n}"), n) for n in STAGES]
    resources = {
        "io_manager": DuckDBRecordIOManager(),
        "docling": DoclingConverterResource(),
        "terminology": SnomedTerminology(),
        "llm": LlmExtractor(),
        "lexicon": LexiconExtractor(),
    }
    return assets, resources


@pytest.fixture(scope="module")
def instance():
    with dg.instance_for_test() as inst:
        yield inst


def _materialize(defs, instance, partition: str, selection: list[str], **kwargs):
    assets, resources = defs
    if partition not in instance.get_dynamic_partitions("guidelines"):
        instance.add_dynamic_partitions("guidelines", [partition])
    return dg.materialize(
        assets,
        selection=selection,
        partition_key=partition,
        instance=instance,
        resources={**resources, **kwargs.pop("resources", {})},
        raise_on_error=kwargs.pop("raise_on_error", True),
        **kwargs,
    )


def _checks(result) -> dict[str, bool]:
    return {e.check_name: e.passed for e in result.get_asset_check_evaluations()}


@pytest.fixture(scope="module")
def lexicon_run(defs, instance):
    """docling_tables -> grounding_index for one sample partition, lexicon backend."""
    return _materialize(defs, instance, LEXICON_PARTITION, STAGES)


def _stored(table: str, model, partition: str):
    return read_records(paths.warehouse_path(), table, model, [partition])


# --------------------------------------------------------------------------- lexicon


def test_lexicon_partition_materializes_through_grounding_index(lexicon_run) -> None:
    assert lexicon_run.success
    rows = _stored("table_rows", RowRecord, LEXICON_PARTITION)
    main = _stored("main_extractions", RowExtraction, LEXICON_PARTITION)
    population = _stored("population_extractions", RowExtraction, LEXICON_PARTITION)
    assert len(main) == len(population) == len(rows) > 0
    assert {r.focus for r in main} == {"MAIN"} and {r.focus for r in population} == {"POPULATION"}
    assert all(r.backend == "lexicon" and r.prompt_hash and r.raw_output for r in main)
    assert not [r for r in main + population if r.error]
    # POPULATION returns cohort conditions only, never actions
    assert all(not r.actions for r in population)
    # the contract's population: conditions and the therapy a cohort is defined by
    assert all(c.role != "ClinicalParameter" for r in population for c in r.concepts)

    merged = _stored("merged_concepts", MergedRow, LEXICON_PARTITION)
    assert [m.row_id for m in merged] == [r.row_id for r in main]
    # every action's own concept is among the row's concepts
    for m in merged:
        keys = {(c.role, c.normalized) for c in m.concepts}
        assert all((a.role, a.normalized) in keys for a in m.actions), m.row_id

    candidates = _stored("grounding_candidates", GroundingCandidate, LEXICON_PARTITION)
    outcomes = _stored("grounding_index", GroundingOutcome, LEXICON_PARTITION)
    terms = {(c.role, c.normalized) for m in merged for c in m.concepts}
    # one outcome per distinct term: mapped with an entry, or unmapped with its reason
    assert {(o.role, o.term) for o in outcomes} == terms
    assert all((o.entry is None) != (o.unmapped_reason is None) for o in outcomes)
    # candidates are threshold-free: some fall below every role's min_match_score
    assert min(c.score for c in candidates) < 0.7
    # dropped candidates carry their explanation
    dropped = [d for o in outcomes for d in o.decisions if not d.kept]
    assert dropped and all(d.reason.startswith("dropped by ") for d in dropped)

    exported = json.loads(
        (paths.guideline_output_dir(LEXICON_PARTITION) / "grounding_index.json").read_text()
    )
    mapped = {str(o.entry.snomed_id) for o in outcomes if o.entry}
    assert set(exported) == mapped
    entry = next(iter(exported.values()))
    assert set(entry) >= {
        "entity_standardized_candidate",
        "snomed_id",
        "preferred_term",
        "score",
        "taxonomy_path",
        "target_label",
    }
    assert all(str(v["snomed_id"]) == k for k, v in exported.items())

    checks = _checks(lexicon_run)
    assert checks["extraction_failures"] is True
    assert checks["grounding_coverage"] is True
    assert "grounding_score_distribution" in checks


def test_lexicon_partition_metadata(lexicon_run) -> None:
    materializations = {
        m.asset_key.to_user_string(): m.metadata
        for m in lexicon_run.get_asset_materialization_events()
        for m in [m.event_specific_data.materialization]
    }
    assert materializations["main_extractions"]["backend"].value == "lexicon"
    assert materializations["main_extractions"]["failures"].value == 0
    assert "|" in materializations["merged_concepts"]["preview"].value
    assert materializations["grounding_index"]["grounding_index_json"].value.endswith(
        f"{LEXICON_PARTITION}/grounding_index.json"
    )
    assert "score" in materializations["grounding_index"]["score_histogram"].value


# --------------------------------------------------------------------------- selective rematerialization


def _code_versions(config_dir: Path | None, **extra_env: str) -> dict[str, str]:
    """Code versions as the definitions compute them, in a fresh interpreter."""
    env = {**os.environ, **extra_env}
    if config_dir is not None:
        env["CARDIO_CONFIG_DIR"] = str(config_dir)
    script = (
        "import importlib, json\n"
        f"names = {STAGES!r}\n"
        "defs = [getattr(importlib.import_module('cardio_assets.assets.' + n), n) for n in names]\n"
        "print(json.dumps({k.to_user_string(): v for d in defs "
        "for k, v in d.code_versions_by_key.items()}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _configs_with_threshold(tmp_path: Path, role: str, value: float) -> Path:
    target = tmp_path / "configs"
    shutil.copytree(ROOT / "configs", target)
    schema_file = target / "guideline_graph_schema.yaml"
    schema = yaml.safe_load(schema_file.read_text())
    assert schema["roles"][role]["min_match_score"] != value
    schema["roles"][role]["min_match_score"] = value
    schema_file.write_text(yaml.safe_dump(schema))
    return target


def test_threshold_change_only_changes_grounding_index_code_version(tmp_path: Path) -> None:
    before = _code_versions(None)
    after = _code_versions(_configs_with_threshold(tmp_path, "Condition", 0.99))
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"grounding_index"}
    for key in ["main_extractions", "population_extractions", "grounding_candidates"]:
        assert before[key] == after[key]


def test_another_terminology_release_re_searches_but_never_re_extracts(tmp_path: Path) -> None:
    from cardio_assets.terminology.build import load_rf2

    release = tmp_path / "release"
    shutil.copytree(ROOT / "data" / "snomed_sample", release)
    descriptions = next(release.glob("sct2_Description_Snapshot-en_*.txt"))
    lines = descriptions.read_text(encoding="utf-8").splitlines(keepends=True)
    edited = tmp_path / "edited"
    shutil.copytree(release, edited)
    (edited / descriptions.name).write_text("".join(lines[:-1]), encoding="utf-8")
    first, again, other = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "c.duckdb"
    load_rf2(release, first)
    load_rf2(release, again)
    load_rf2(edited, other)

    v_first = _code_versions(None, CARDIO_SNOMED_STORE=str(first))
    v_again = _code_versions(None, CARDIO_SNOMED_STORE=str(again))
    v_other = _code_versions(None, CARDIO_SNOMED_STORE=str(other))
    assert v_first == v_again  # rebuilding the same release changes nothing
    changed = {k for k in v_first if v_first[k] != v_other[k]}
    assert "grounding_candidates" in changed
    assert not changed & {"main_extractions", "population_extractions", "merged_concepts"}


def test_grounding_index_alone_rematerializes_from_stored_upstream(
    defs, instance, lexicon_run, tmp_path: Path, monkeypatch
) -> None:
    def last(key: str):
        return instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey(key), asset_partitions=[LEXICON_PARTITION]),
            limit=1,
        ).records[0]

    candidates_before = last("grounding_candidates")
    outcomes_before = _stored("grounding_index", GroundingOutcome, LEXICON_PARTITION)
    mapped_before = sum(1 for o in outcomes_before if o.entry)

    # A stricter Condition threshold, read at run time from another config folder.
    strict = _configs_with_threshold(tmp_path, "Condition", 0.99)
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(strict))
    result = _materialize(defs, instance, LEXICON_PARTITION, ["grounding_index"])
    assert result.success
    assert [e.asset_key.to_user_string() for e in result.get_asset_materialization_events()] == [
        "grounding_index"
    ]
    # upstream untouched: no new candidate materialization, same stored candidates
    assert last("grounding_candidates").storage_id == candidates_before.storage_id
    outcomes_after = _stored("grounding_index", GroundingOutcome, LEXICON_PARTITION)
    assert {(o.role, o.term) for o in outcomes_after} == {(o.role, o.term) for o in outcomes_before}
    conditions_before = [o for o in outcomes_before if o.role == "Condition" and o.entry]
    conditions_after = [o for o in outcomes_after if o.role == "Condition" and o.entry]
    assert all(o.entry.score >= 0.99 for o in conditions_after)
    if any(o.entry.score < 0.99 for o in conditions_before):
        assert sum(1 for o in outcomes_after if o.entry) < mapped_before


# --------------------------------------------------------------------------- llm backend


@pytest.fixture(scope="module")
def baml_client() -> Path:
    return ensure_baml_client()


@pytest.fixture(scope="module")
def replay():
    with ReplayServer() as server:
        yield server


def test_llm_backend_through_the_assets(
    defs, instance, baml_client, replay, tmp_path_factory
) -> None:
    """A guideline dropped in the inbox, extracted by the llm backend against the replay
    server: the recorded row parses into docs/ARCHITECTURE.md's worked example, the row without a
    recording is a recorded failure (asset succeeds, check fails), a re-run pays only
    for the failed row."""
    from resources.llm_extractor import LlmExtractorResource as LlmExtractor

    inbox = paths.var_dir() / "inbox"
    inbox.mkdir(parents=True, exist_ok=True)
    doc = inbox / f"{WORKED_TITLE}.md"
    other_row = (
        "Invasive coronary angiography is recommended in patients with suspected chronic "
        "coronary syndrome and a high clinical likelihood."
    )
    doc.write_text(
        "# Test guideline\n\n| Recommendations | Class | Level |\n|---|---|---|\n"
        "| **Revascularization in CCS** |  |  |\n"
        f"| {WORKED_ROW} | IIb | B |\n| {other_row} | I | B |\n",
        encoding="utf-8",
    )
    from cardio_assets.partitions import inbox_guideline_id

    partition = inbox_guideline_id(doc)
    work = tmp_path_factory.mktemp("llm")
    models = work / "models.yaml"
    models.write_text(
        json.dumps(
            {
                "default": "replay",
                "clients": {
                    "replay": {
                        "provider": "openai-generic",
                        "base_url": replay.base_url,
                        "model": "replay/qwen2.5-7b-instruct",
                        "timeout_s": 5.0,
                        "max_retries": 1,
                        "backoff_initial_s": 0.01,
                        "backoff_max_s": 0.02,
                    }
                },
            }
        )
    )
    llm = LlmExtractor(models_config=str(models), cache_path=str(work / "cache.duckdb"))
    run_config = {
        "ops": {
            "main_extractions": {"config": {"backend": "llm"}},
            "population_extractions": {"config": {"backend": "llm"}},
        }
    }
    selection = STAGES
    try:
        first = _materialize(
            defs,
            instance,
            partition,
            selection,
            resources={"llm": llm},
            run_config=run_config,
            raise_on_error=False,
        )
        # half the rows fail: the blocking extraction_failures check stops the run after
        # both passes are stored, so nothing downstream is built from them in this run
        assert not first.success
        main = _stored("main_extractions", RowExtraction, partition)
        population = _stored("population_extractions", RowExtraction, partition)
        assert len(main) == len(population) == 2
        assert all(r.backend == "llm" and r.model == "replay/qwen2.5-7b-instruct" for r in main)
        ok = [r for r in main + population if not r.error]
        failed = [r for r in main + population if r.error]
        assert len(ok) == 2 and all(r.row_id.endswith("r0") for r in ok)
        assert len(failed) == 2 and all(r.row_id.endswith("r1") for r in failed)
        assert all(r.prompt_hash and r.raw_output for r in ok)
        assert _checks(first)["extraction_failures"] is False  # 50% > max_failure_share
        # what the checks of the llm answers did, per pass (the failed row is not counted)
        meta = {
            e.asset_key.to_user_string(): e.step_materialization_data.materialization.metadata
            for e in first.get_asset_materialization_events()
        }
        checks = meta["main_extractions"]["llm_validation"].value
        assert (checks["spans_checked"], checks["spans_dropped"]) == (5, 0)  # 4 concepts + PCI
        assert (checks["parameters_checked"], checks["values_rejected"]) == (1, 0)  # LVEF
        assert set(checks["values_rejected_by_check"]) == {
            "operator", "threshold", "unit", "alt_values", "value_not_in_span"
        }  # fmt: skip
        assert meta["population_extractions"]["llm_validation"].value["spans_checked"] == 3
        assert "merged_concepts" not in {
            e.asset_key.to_user_string() for e in first.get_asset_materialization_events()
        }

        # merged and grounded on their own, the failures travel with their rows
        rest = ["merged_concepts", "grounding_candidates", "grounding_index"]
        assert _materialize(defs, instance, partition, rest).success
        merged = {m.row_id: m for m in _stored("merged_concepts", MergedRow, partition)}
        worked = merged[f"{partition}:table_000:r0"]
        assert _concept_set(worked.concepts) == WORKED_CONCEPTS
        assert _or_members(worked.concepts) == {"g1": {"high surgical risk", "not operable"}}
        (action,) = worked.actions
        assert (action.normalized, action.class_, action.level, action.polarity) == (
            "percutaneous coronary intervention",
            "IIb",
            "B",
            "recommended",
        )
        population_only = [c for c in worked.concepts if c.is_population and not c.or_group]
        assert [c.normalized for c in population_only] == ["chronic coronary syndrome"]
        assert merged[f"{partition}:table_000:r1"].errors  # failures travel with the row
        assert _stored("grounding_index", GroundingOutcome, partition)

        calls_before = dict(replay.state.calls)
        second = _materialize(
            defs,
            instance,
            partition,
            ["main_extractions", "population_extractions"],
            resources={"llm": llm},
            run_config=run_config,
            raise_on_error=False,
        )
        assert _checks(second)["extraction_failures"] is False  # the same row fails again
        assert {
            e.asset_key.to_user_string() for e in second.get_asset_materialization_events()
        } == {"main_extractions", "population_extractions"}
        calls = {k: v - calls_before.get(k, 0) for k, v in replay.state.calls.items()}
        # recorded rows come from the cache; only the failed row is asked again (per pass)
        assert calls.get("ccs_pci_main", 0) == 0 and calls.get("ccs_pci_population", 0) == 0
        assert calls.get("<unmatched>", 0) >= 2
        again = _stored("main_extractions", RowExtraction, partition)
        assert [r.cached for r in again] == [True, False]
    finally:
        doc.unlink()


# --------------------------------------------------------------------------- cardio extract


def _row_line(row_id: str, text: str, klass: str, level: str) -> dict:
    return {
        "id": row_id,
        "guideline_title": WORKED_TITLE,
        "table_title": "Table 9",
        "header": ["Recommendations", "Class", "Level"],
        "footnotes": [],
        "row_text": text,
        "class": klass,
        "level": level,
        "section": "Revascularization in CCS",
        "table_id": "table_000",
        "row_index": int(row_id.rsplit("r", 1)[1]),
        "pages": [],
    }


def test_cardio_extract_writes_the_issue_format(tmp_path: Path) -> None:
    from cardio_assets.cli import main

    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps(_row_line("demo:table_000:r0", WORKED_ROW, "IIb", "B"))
        + "\n"
        + json.dumps(
            _row_line(
                "demo:table_000:r1",
                "Diltiazem or verapamil is not recommended in patients with heart failure "
                "with reduced ejection fraction.",
                "III",
                "C",
            )
        )
        + "\n"
    )
    out = tmp_path / "pred.jsonl"
    result = CliRunner().invoke(
        main, ["extract", "--rows", str(rows), "--out", str(out), "--backend", "lexicon"]
    )
    assert result.exit_code == 0, result.output
    assert "rows 2" in result.output and "mapped" in result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in lines] == ["demo:table_000:r0", "demo:table_000:r1"]
    first, second = lines
    assert set(first) >= {"id", "class", "level", "concepts", "actions", "population"}
    # alt_values: the same value in a second unit, as the contract and the gold files carry it
    assert set(first["concepts"][0]) == {
        "role", "text", "normalized", "operator", "threshold", "unit", "alt_values",
        "or_group", "negated", "snomed_id", "fsn",
    }  # fmt: skip
    assert _concept_set(first["concepts"]) == WORKED_CONCEPTS
    assert _or_members(first["concepts"]) == {"g1": {"high surgical risk", "not operable"}}
    assert first["population"] == [  # every condition, alternatives included (contract §9)
        "chronic coronary syndrome", "high surgical risk", "not operable"
    ]  # fmt: skip
    assert [(a["normalized"], a["class"], a["level"]) for a in first["actions"]] == [
        ("percutaneous coronary intervention", "IIb", "B")
    ]
    # grounded through the same selection as grounding_index: ids and FSNs together
    for c in first["concepts"]:
        assert (c["snomed_id"] is None) == (c["fsn"] is None)
    lvef = next(c for c in first["concepts"] if c["role"] == "ClinicalParameter")
    assert lvef["snomed_id"] and "ejection fraction" in lvef["fsn"].lower()
    # every Class III action is "not recommended"
    assert second["actions"] and {a["polarity"] for a in second["actions"]} == {"not recommended"}
    meds = {c["normalized"] for c in second["concepts"] if c["role"] == "Medication"}
    assert meds == {"diltiazem", "verapamil"}


def test_cardio_extract_llm_backend_against_replay_server(
    tmp_path: Path, baml_client, replay, monkeypatch
) -> None:
    from cardio_assets.cli import main

    monkeypatch.setenv("CARDIO_LLM_CACHE", str(tmp_path / "cache.duckdb"))
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(_row_line("demo:table_000:r0", WORKED_ROW, "IIb", "B")) + "\n")
    models = tmp_path / "models.yaml"
    models.write_text(
        json.dumps(
            {
                "default": "replay",
                "clients": {
                    "replay": {
                        "provider": "openai-generic",
                        "base_url": replay.base_url,
                        "model": "replay/model",
                        "max_retries": 0,
                    }
                },
            }
        )
    )
    out = tmp_path / "pred.jsonl"
    args = ["extract", "--rows", str(rows), "--out", str(out), "--backend", "llm"]
    result = CliRunner().invoke(main, [*args, "--models", str(models)])
    assert result.exit_code == 0, result.output
    assert "failed rows 0" in result.output
    (line,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert _concept_set(line["concepts"]) == WORKED_CONCEPTS
    assert _or_members(line["concepts"]) == {"g1": {"high surgical risk", "not operable"}}
    assert line["population"] == [
        "chronic coronary syndrome", "high surgical risk", "not operable"
    ]  # fmt: skip


def test_cardio_extract_names_bad_input(tmp_path: Path) -> None:
    from cardio_assets.cli import main

    missing = CliRunner().invoke(
        main, ["extract", "--rows", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")]
    )
    assert missing.exit_code != 0 and "nope.jsonl: rows file not found" in missing.output

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_row_line("demo:table_000:r0", WORKED_ROW, "I", "A")) + "\n{oops\n")
    result = CliRunner().invoke(main, ["extract", "--rows", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code != 0
    assert f"{bad}:2: not a JSON line" in result.output

    incomplete = tmp_path / "incomplete.jsonl"
    incomplete.write_text(json.dumps({"id": "demo:t:r0", "row_text": "x"}) + "\n")
    result = CliRunner().invoke(
        main, ["extract", "--rows", str(incomplete), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code != 0
    assert f"{incomplete}:1: not a row record" in result.output and "'header'" in result.output
    assert not (tmp_path / "o").exists()
