"""`cardio build` and `cardio load`: the original quickstart, without Dagster.

Real components throughout: the bundled Docling JSON of the revascularization table (two
pieces, pages 62 and 63) read by docling-core, the bundled SNOMED CT sample store, the
assets materialized by Dagster into the DuckDB warehouse for the comparison, the session's
real Neo4j over Bolt for `cardio load`, and for the llm backend the generated BAML client
over HTTP to the replay server (tests/replay_server.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import dagster as dg
import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from docling_core.types.doc import DoclingDocument

from cardio_assets import paths
from cardio_assets.cli import main
from cardio_assets.records import ExtractedRule, GroundingIndexEntry
from tests.replay_server import ReplayServer, ensure_baml_client

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "guidelines" / "ccs-sample" / "ccs-sample-revascularization_62_63.json"
PARTITION = "ccs-sample-docling"  # the registry entry whose only source is SAMPLE
SCHEMA = json.loads((ROOT / "schemas" / "extracted_rule.schema.json").read_text())
WORKED_TITLE = "2024 ESC Guidelines for the management of chronic coronary syndromes"
WORKED_ROW = (
    "In chronic coronary syndrome patients with LVEF <= 35% who are high surgical risk or "
    "not operable, PCI may be considered."
)


def _build(tmp: Path, *args: str, name: str = "run") -> tuple[object, Path, Path]:
    index, rules = tmp / f"{name}_index.json", tmp / f"{name}_rules.jsonl"
    result = CliRunner().invoke(
        main,
        ["build", *args, "--index-path", str(index), "--rules-out-path", str(rules)],
    )
    return result, index, rules


def _rules(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _without(rule: dict, *keys: str) -> dict:
    rule = json.loads(json.dumps(rule))
    for key in keys:
        rule["provenance"].pop(key, None)
    return rule


def _one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert result.exit_code != 0 and len(lines) == 1, result.output
    return lines[0]


@pytest.fixture(scope="module")
def default_build(tmp_path_factory) -> tuple[Path, Path, str]:
    tmp = tmp_path_factory.mktemp("build")
    result, index, rules = _build(
        tmp, "--docling-table-json", str(SAMPLE), "--guideline", PARTITION, "--backend", "lexicon"
    )
    assert result.exit_code == 0, result.output
    return index, rules, result.output


def _split_sample(tmp: Path, *, footnotes_on_second: bool = True) -> tuple[Path, Path]:
    """The sample's two table pieces as two Docling JSON files (page 62, page 63)."""
    first = DoclingDocument.load_from_json(SAMPLE)
    first.delete_items(node_items=[first.tables[1], *first.texts[2:]])
    second = DoclingDocument.load_from_json(SAMPLE)
    drop = [second.tables[0], second.texts[0], second.texts[1]]
    if not footnotes_on_second:
        drop += second.texts[3:]
        second.tables[1].footnotes = []
    second.delete_items(node_items=drop)
    p62, p63 = tmp / "piece_62.json", tmp / "piece_63.json"
    first.save_as_json(p62)
    second.save_as_json(p63)
    assert [len(DoclingDocument.load_from_json(p).tables) for p in (p62, p63)] == [1, 1]
    return p62, p63


# --------------------------------------------------------------------------- cardio build


def test_build_writes_the_two_files(default_build) -> None:
    index_path, rules_path, output = default_build
    assert "table table_000: 2 piece(s), pages 62-63, 11 rows, 4 footnotes" in output
    rules = _rules(rules_path)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for rule in rules:
        validator.validate(rule)
        ExtractedRule.model_validate(rule)
    assert [r["id"] for r in rules] == [f"{PARTITION}:table_000:r{i}" for i in range(11)]
    provenance = rules[0]["provenance"]
    assert provenance["backend"] == "lexicon" and provenance["passes"] == ["MAIN", "POPULATION"]
    assert provenance["source_file"] == str(SAMPLE.relative_to(ROOT))
    assert provenance["source_sha256"] == hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    assert provenance["threshold_overrides"] is None and provenance["run_id"] is None
    assert {p for r in rules for p in r["provenance"]["pages"]} == {62, 63}
    index = json.loads(index_path.read_text())
    assert index
    for key, entry in index.items():
        assert GroundingIndexEntry.model_validate(entry).snomed_id == int(key)
    grounded = {
        leaf["concept"]["grounding"]["snomed_id"]
        for r in rules
        for leaf in _leaves(r["logic"])
        if leaf["concept"]["grounding"]
    } | {
        a["concept"]["grounding"]["snomed_id"]
        for r in rules
        for a in r["actions"]
        if a["concept"]["grounding"]
    }
    assert grounded <= set(index)


def _leaves(node: dict | None) -> list[dict]:
    if node is None:
        return []
    if node.get("kind") in ("condition", "parameter"):
        return [node]
    return [leaf for child in node["children"] for leaf in _leaves(child)]


def _asset_graph_config_hash(config_dir: Path | None = None) -> str:
    """The config hash the extracted_rules asset records, from the definitions' asset graph
    in a fresh interpreter (code versions are computed when the definitions load)."""
    env = {**os.environ}
    if config_dir is not None:
        env["CARDIO_CONFIG_DIR"] = str(config_dir)
    script = (
        "import dagster as dg\n"
        "from cardio_assets.definitions import defs\n"
        "from cardio_assets.assets.extracted_rules import graph_config_hash\n"
        "print(graph_config_hash(defs.resolve_asset_graph(), dg.AssetKey('extracted_rules')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()[-1]


def _materialize_rules(instance) -> tuple[dict, list[dict]]:
    """grounding_index.json and extracted_rules.jsonl as the assets write them."""
    from cardio_assets.definitions import RESOURCES, defs

    if PARTITION not in instance.get_dynamic_partitions("guidelines"):
        instance.add_dynamic_partitions("guidelines", [PARTITION])
    result = dg.materialize(
        [*defs.assets, *(defs.asset_checks or [])],
        instance=instance,
        resources=RESOURCES,
        selection=dg.AssetSelection.assets("extracted_rules").upstream(),
        partition_key=PARTITION,
    )
    assert result.success
    out = paths.guideline_output_dir(PARTITION)
    return (
        json.loads((out / "grounding_index.json").read_text()),
        _rules(out / "extracted_rules.jsonl"),
    )


def test_build_output_equals_what_the_assets_write(default_build, tmp_path, monkeypatch) -> None:
    """One implementation: the same table through the assets gives the same index and the
    same rules, ids, concepts and config hash; only the run id differs. With threshold
    flags, the assets run on a schema file holding those thresholds for every role give
    the same files too (config hash included), apart from the record of the flags."""
    index_path, rules_path, _ = default_build
    with dg.instance_for_test() as instance:
        asset_index, asset_rules = _materialize_rules(instance)
        assert json.loads(index_path.read_text()) == asset_index
        built = _rules(rules_path)
        assert [r["id"] for r in built] == [r["id"] for r in asset_rules]
        assert all(r["provenance"]["run_id"] for r in asset_rules)
        assert [_without(r, "run_id") for r in built] == [
            _without(r, "run_id") for r in asset_rules
        ]
        assert built[0]["provenance"]["config_hash"] == _asset_graph_config_hash()

        # the same thresholds as flags of cardio build and as the schema file of the assets
        flags = ["--no-domain-filter", "--min-match-score", "0.5", "--off-domain-min-score", "0.9"]
        result, flag_index, flag_rules = _build(
            tmp_path,
            "--docling-table-json",
            str(SAMPLE),
            "--guideline",
            PARTITION,
            *flags,
            name="flags",
        )
        assert result.exit_code == 0, result.output
        config_dir = tmp_path / "configs"
        config_dir.mkdir()
        schema = yaml.safe_load((ROOT / "configs" / "guideline_graph_schema.yaml").read_text())
        for rule in schema["roles"].values():
            rule.update(
                allowed_roots=[], semantic_tags=[], min_match_score=0.5, off_domain_min_score=0.9
            )
        (config_dir / "guideline_graph_schema.yaml").write_text(yaml.safe_dump(schema))
        monkeypatch.setenv("CARDIO_CONFIG_DIR", str(config_dir))
        asset_index, asset_rules = _materialize_rules(instance)
    assert json.loads(flag_index.read_text()) == asset_index
    built = _rules(flag_rules)
    drop = ("run_id", "config_hash", "threshold_overrides")
    assert [_without(r, *drop) for r in built] == [_without(r, *drop) for r in asset_rules]
    # the in-process definitions were loaded with the repo's configs: a fresh one reads these
    assert built[0]["provenance"]["config_hash"] == _asset_graph_config_hash(config_dir)
    assert built[0]["provenance"]["threshold_overrides"] == {
        "min_match_score": 0.5,
        "off_domain_min_score": 0.9,
        "domain_filter": False,
    }


def test_threshold_flags_apply_to_every_role_and_are_recorded(default_build, tmp_path) -> None:
    default_index = json.loads(default_build[0].read_text())
    default_hash = _rules(default_build[1])[0]["provenance"]["config_hash"]
    base = ["--docling-table-json", str(SAMPLE), "--guideline", PARTITION]

    result, index_path, rules_path = _build(tmp_path, *base, "--min-match-score", "0.95")
    assert result.exit_code == 0, result.output
    assert "thresholds for every role, this run only: min_match_score 0.95" in result.output
    strict = json.loads(index_path.read_text())
    assert strict and all(e["score"] >= 0.95 for e in strict.values())
    assert set(strict) < set(default_index)  # the 0.75..0.95 winners are gone
    rules = _rules(rules_path)
    assert rules[0]["provenance"]["threshold_overrides"] == {
        "min_match_score": 0.95,
        "off_domain_min_score": None,
        "domain_filter": None,
    }
    assert rules[0]["provenance"]["config_hash"] != default_hash

    result, index_path, rules_path = _build(
        tmp_path, *base, "--no-domain-filter", "--min-match-score", "0.4", name="open"
    )
    assert result.exit_code == 0, result.output
    _, filtered_path, _ = _build(tmp_path, *base, "--min-match-score", "0.4", name="filtered")
    opened, filtered = json.loads(index_path.read_text()), json.loads(filtered_path.read_text())
    # with no domain filter nothing the filter kept is lost and nothing below the score is
    # kept; a candidate that drops a qualifier or leaves out a word of its term stays out
    # whatever the flags (the qualifiers check is the contract, not a threshold: since it
    # drops broader concepts, the sample's loose off-domain matches, such as "heart team
    # discussion" -> Heart disease, are all gone)
    assert set(filtered) <= set(opened)
    assert all(e["score"] >= 0.4 for e in opened.values())
    assert _rules(rules_path)[0]["provenance"]["threshold_overrides"]["domain_filter"] is False


def test_pieces_in_two_files_with_a_footnotes_file(default_build, tmp_path) -> None:
    """Pages 62 and 63 as two files, footnotes from a text file: the same table and rules
    as the one file with its own footnotes, under the given table id."""
    p62, p63 = _split_sample(tmp_path, footnotes_on_second=False)
    notes = tmp_path / "footnotes.txt"
    reference = DoclingDocument.load_from_json(SAMPLE)
    notes.write_text("\n".join(t.text for t in reference.texts[3:]) + "\n\n")
    table_id = "_62_63/table_000.json"
    result, _, rules_path = _build(
        tmp_path,
        "--docling-table-json",
        str(p62),
        "--docling-table-json",
        str(p63),
        "--docling-table-id",
        table_id,
        "--docling-footnotes-path",
        str(notes),
        "--guideline",
        PARTITION,
    )
    assert result.exit_code == 0, result.output
    assert f"table {table_id}: 2 piece(s), pages 62-63, 11 rows, 4 footnotes" in result.output
    split = _rules(rules_path)
    whole = _rules(default_build[1])
    assert [r["id"] for r in split] == [f"{PARTITION}:{table_id}:r{i}" for i in range(11)]
    provenance = split[0]["provenance"]
    assert provenance["source_file"] == f"{p62} + {p63}"
    both = p62.read_bytes() + p63.read_bytes()
    assert provenance["source_sha256"] == hashlib.sha256(both).hexdigest()
    source = ("id", "table_id", "row_id", "source_file", "source_sha256", "cell_sha256")

    def comparable(rule: dict) -> dict:
        rule = _without(rule, *source)
        rule.pop("id")
        return rule

    assert [comparable(r) for r in split] == [comparable(r) for r in whole]


# --------------------------------------------------------------------------- bad input


def test_bad_input_each_one_line_naming_the_file(default_build, tmp_path) -> None:
    base = ["--docling-table-json", str(SAMPLE), "--guideline", PARTITION]

    binary = tmp_path / "footnotes.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result, index, rules = _build(tmp_path, *base, "--docling-footnotes-path", str(binary))
    line = _one_error_line(result)
    assert str(binary) in line and "not text" in line and "one footnote per line" in line
    assert not index.exists() and not rules.exists()

    p62, p63 = _split_sample(tmp_path)
    other = DoclingDocument.load_from_json(p63)
    for cell in other.tables[0].data.table_cells:
        if cell.column_header:
            cell.text = {0: "Drug", 1: "Dose", 2: "Route"}[cell.start_col_offset_idx]
    mismatched = tmp_path / "other_header_63.json"
    other.save_as_json(mismatched)
    args = ["--docling-table-json", str(p62), "--docling-table-json", str(mismatched)]
    result, index, _ = _build(tmp_path, *args, "--guideline", PARTITION)
    line = _one_error_line(result)
    assert str(mismatched) in line and "does not match the header of" in line
    assert "Drug | Dose | Route" in line and "pieces of ONE table" in line
    assert not index.exists()

    result, _, _ = _build(tmp_path, *base, "--min-match-score", "1.5")
    line = _one_error_line(result)
    assert "--min-match-score" in line and "0<=x<=1" in line
    result, _, _ = _build(tmp_path, *base, "--off-domain-min-score", "-0.1")
    assert "--off-domain-min-score" in _one_error_line(result)

    not_docling = tmp_path / "table.json"
    not_docling.write_text('{"cells": []}')
    result, _, _ = _build(tmp_path, "--docling-table-json", str(not_docling))
    line = _one_error_line(result)
    assert str(not_docling) in line and "DoclingDocument" in line

    # an index and a rules file of two different runs
    strict_result, strict_index, _ = _build(
        tmp_path, *base, "--min-match-score", "0.95", name="strict"
    )
    assert strict_result.exit_code == 0, strict_result.output
    _, default_rules, _ = default_build
    load = CliRunner().invoke(
        main, ["load", "--index-path", str(strict_index), "--rules-path", str(default_rules)]
    )
    line = _one_error_line(load)
    assert str(strict_index) in line and str(default_rules) in line
    assert "not from the same run" in line and "one `cardio build`" in line

    broken = tmp_path / "broken_rules.jsonl"
    broken.write_text(default_rules.read_text().splitlines()[0] + "\n{not json\n")
    load = CliRunner().invoke(
        main, ["load", "--index-path", str(default_build[0]), "--rules-path", str(broken)]
    )
    line = _one_error_line(load)
    assert f"{broken}:2: not a JSON line" in line


# --------------------------------------------------------------------------- cardio load


def _expected_counts(rules: list[dict]) -> dict[str, int]:
    """What the graph must hold for these rules, counted from the file itself."""
    leaves = [leaf for r in rules for leaf in _leaves(r["logic"])]
    actions = [a for r in rules for a in r["actions"]]
    return {
        "Recommendation": len(rules),
        "DERIVED_FROM": len(rules),
        "CHECKS_FOR": sum(1 for leaf in leaves if leaf["kind"] == "condition"),
        "EVALUATES": sum(1 for leaf in leaves if leaf["kind"] == "parameter"),
        "RECOMMENDS_PROCEDURE": sum(1 for a in actions if a["concept"]["role"] == "Procedure"),
        "RESULTS_IN": sum(len(r["outcomes"]) for r in rules),
        "LOOKS_FOR": sum(len(r.get("purposes", [])) for r in rules),
    }


@pytest.mark.neo4j
def test_load_puts_the_rules_into_neo4j_and_a_rerun_gives_identical_counts(
    default_build, neo4j_driver
) -> None:
    from cardio_assets.logic.neo4j_graph import graph_counts

    index_path, rules_path, _ = default_build
    args = ["load", "--index-path", str(index_path), "--rules-path", str(rules_path)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    counts = graph_counts(neo4j_driver, PARTITION)
    rules = _rules(rules_path)
    merged = {**counts["nodes"], **counts["relationships"]}
    for key, value in _expected_counts(rules).items():
        assert merged.get(key, 0) == value, key
    assert f"loaded {len(rules)} rules (skipped 0)" in first.output
    total = sum(counts["relationships"].values())
    assert f"relationships {total}:" in first.output

    second = CliRunner().invoke(main, args)
    assert second.exit_code == 0, second.output
    again = graph_counts(neo4j_driver, PARTITION)
    assert again["load_id"] != counts["load_id"]
    assert (again["nodes"], again["relationships"]) == (counts["nodes"], counts["relationships"])
    assert f"replacing {counts['load_id']}" in second.output


# --------------------------------------------------------------------------- llm backend


def _worked_table_json(path: Path) -> Path:
    """A one-row Docling JSON table (our own words) whose tagged rows the replay server has
    recordings for (tests/fixtures/llm_replay/ccs_pci_*.json)."""
    from docling_core.types.doc import TableCell, TableData

    doc = DoclingDocument(name="worked")
    cells = [
        TableCell(
            text=text,
            start_row_offset_idx=0,
            end_row_offset_idx=1,
            start_col_offset_idx=col,
            end_col_offset_idx=col + 1,
            column_header=True,
        )
        for col, text in enumerate(["Recommendations", "Class", "Level"])
    ]
    cells.append(
        TableCell(
            text="Revascularization in CCS",
            col_span=3,
            start_row_offset_idx=1,
            end_row_offset_idx=2,
            start_col_offset_idx=0,
            end_col_offset_idx=3,
            row_section=True,
        )
    )
    cells += [
        TableCell(
            text=text,
            start_row_offset_idx=2,
            end_row_offset_idx=3,
            start_col_offset_idx=col,
            end_col_offset_idx=col + 1,
        )
        for col, text in enumerate([WORKED_ROW, "IIb", "B"])
    ]
    doc.add_table(data=TableData(num_rows=3, num_cols=3, table_cells=cells))
    doc.save_as_json(path)
    return path


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_llm_backend_through_the_replay_server_and_node(tmp_path, monkeypatch) -> None:
    """--model runs both passes over HTTP; the client's host is unreachable until --node
    points it at the replay server: then the worked example comes out as one rule."""
    ensure_baml_client()
    monkeypatch.setenv("CARDIO_LLM_CACHE", str(tmp_path / "cache.duckdb"))
    table = _worked_table_json(tmp_path / "worked_table.json")
    models = tmp_path / "models.yaml"
    with ReplayServer() as replay:
        port = replay.base_url.rsplit(":", 1)[1].split("/")[0]
        models.write_text(
            json.dumps(
                {
                    "default": "replay",
                    "clients": {
                        "replay": {
                            "provider": "openai-generic",
                            "base_url": f"http://127.0.0.1:{_closed_port()}/v1",
                            "model": "replay/model",
                            "max_retries": 0,
                            "timeout_s": 5.0,
                        }
                    },
                }
            )
        )
        args = [
            "--docling-table-json",
            str(table),
            "--guideline",
            "worked",
            "--guideline-title",
            WORKED_TITLE,
            "--model",
            "replay",
            "--models",
            str(models),
        ]
        unreachable, index, rules_path = _build(tmp_path, *args, name="down")
        line = _one_error_line(unreachable)
        assert "rows failed in the MAIN pass" in line and "nothing written" in line
        assert not index.exists() and not rules_path.exists()
        assert replay.calls() == 0

        result, index, rules_path = _build(tmp_path, *args, "--node", f"127.0.0.1:{port}")
        assert result.exit_code == 0, result.output
        assert replay.calls("ccs_pci_main") == 1 and replay.calls("ccs_pci_population") == 1
    (rule,) = _rules(rules_path)
    assert rule["id"] == "worked:table_000:r0"
    assert rule["provenance"]["backend"] == "llm" and rule["provenance"]["model"] == "replay/model"
    leaves = {
        (leaf["concept"]["role"], leaf["concept"]["normalized"]) for leaf in _leaves(rule["logic"])
    }
    assert leaves == {
        ("Condition", "chronic coronary syndrome"),
        ("ClinicalParameter", "left ventricular ejection fraction"),
        ("Condition", "high surgical risk"),
        ("Condition", "not operable"),
    }
    (action,) = rule["actions"]
    assert action["concept"]["normalized"] == "percutaneous coronary intervention"
    assert (action["class"], action["level"]) == ("IIb", "B")
    assert json.loads(index.read_text())  # grounded on the bundled sample


def test_node_needs_a_base_url_and_a_host(tmp_path) -> None:
    from cardio_assets.config import load_models_config
    from cardio_assets.logic.build_inputs import BuildInputError, with_endpoint_host

    models = load_models_config()
    moved = with_endpoint_host(models, "local-vllm", "gpu-node-7")
    assert moved.clients["local-vllm"].effective_base_url() == "http://gpu-node-7:8000/v1"
    moved = with_endpoint_host(models, "local-vllm", "10.0.0.5:9000")
    assert moved.clients["local-vllm"].effective_base_url() == "http://10.0.0.5:9000/v1"
    with pytest.raises(BuildInputError, match="has no base_url"):
        with_endpoint_host(models, "openai", "gpu-node-7")
    with pytest.raises(BuildInputError, match="HOST:PORT"):
        with_endpoint_host(models, "local-vllm", "http://gpu-node-7/v1")
    result, _, _ = _build(
        tmp_path,
        "--docling-table-json",
        str(SAMPLE),
        "--node",
        "gpu-node-7",
        "--backend",
        "lexicon",
    )
    assert "--node picks the LLM endpoint" in result.output and result.exit_code == 2


def test_document_flag_reads_what_cardio_rows_reads(tmp_path) -> None:
    shutil.copy(ROOT / "data" / "guidelines" / "hf-sample" / "hf-sample.md", tmp_path / "hf.md")
    result, index, rules_path = _build(
        tmp_path, "--document", str(tmp_path / "hf.md"), "--guideline", "hf-sample"
    )
    assert result.exit_code == 0, result.output
    rules = _rules(rules_path)
    assert len(rules) == 37 and rules[0]["provenance"]["guideline_title"].startswith(
        "Sample 2023 guideline on heart failure"
    )
    assert json.loads(index.read_text())
