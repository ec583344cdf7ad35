"""`cardio audit` on nodes of a sample loaded by the real pipeline into the real Neo4j
reaches the source row (text, header, section, file, sha256) and the runs behind it.

The warehouse and the Neo4j are the test worker's, shared with the other modules it runs
(the UI stack loads guidelines into them too): a concept the sample shares with another
guideline is audited over every guideline that uses it, so the assertions look at all the
rules the warehouse holds and pick the sample's chain by guideline."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardio_assets.cli import main
from cardio_assets.cli.instance import pipeline_assets
from cardio_assets.neo4j_local import free_port
from cardio_assets.records import ConditionTest, ExtractedRule, RowRecord

ALL_RULES = "1000"  # --max-rules: every rule's chain, whatever else the warehouse holds


def run_audit(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["audit", *args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def grounded_condition(loaded_sample):
    """(rule, concept) of a grounded condition used in a rule's logic."""
    for rule in loaded_sample.rules:
        for leaf in rule.logic.leaves() if rule.logic else []:
            if isinstance(leaf, ConditionTest) and leaf.concept.grounding:
                return rule, leaf.concept
    pytest.fail("the sample has no grounded condition")


@pytest.fixture(scope="module")
def rows(loaded_sample) -> dict[str, RowRecord]:
    from cardio_assets import paths
    from resources.duckdb_io_manager import read_records

    found = read_records(paths.warehouse_path(), "table_rows", RowRecord, [loaded_sample.guideline])
    return {r.id: r for r in found}


def test_audit_snomed_id_reaches_the_source_row(loaded_sample, grounded_condition, rows):
    rule, concept = grounded_condition
    sctid = concept.grounding.snomed_id
    code, out = run_audit(sctid, "--json", "--max-rules", ALL_RULES)
    assert code == 0, out
    report = json.loads(out)
    assert (report["kind"], report["found"]) == ("concept", True)

    graph = report["graph"]
    assert graph["available"] and graph["found"]
    assert "Concept" in graph["node"]["labels"]
    assert graph["node"]["properties"]["snomed_id"] == sctid
    assert any(e["type"] == "CHECKS_FOR" and e["direction"] == "in" for e in graph["edges"])

    from cardio_assets import paths
    from resources.duckdb_io_manager import read_records

    every_rule = read_records(paths.warehouse_path(), "extracted_rules", ExtractedRule, None)
    users = [r.id for r in every_rule if any(
        c.grounding and c.grounding.snomed_id == sctid for c in r.concepts())]  # fmt: skip
    assert report["rules_total"] == len(users)
    assert rule.id in users
    [chain] = [c for c in report["chains"] if c["guideline"] == loaded_sample.guideline]
    shown = {r["rule_id"]: r for r in chain["rules"]}
    assert rule.id in shown
    audited = shown[rule.id]
    source = rows[rule.provenance.row_id]
    row = audited["row"]
    assert row["row_text"] == source.row_text == rule.text
    assert row["header"] == source.header and row["section"] == source.section
    assert row["footnotes"] == source.footnotes
    assert row["source_file"] == source.source_file and row["source_sha256"] == source.source_sha256
    assert len(row["source_sha256"]) == 64

    main_pass = audited["passes"]["MAIN"]
    assert main_pass["backend"] == "lexicon" and main_pass["prompt_hash"]
    assert main_pass["response"] in {"cached", "live"} and main_pass["raw_output"]
    assert audited["passes"]["POPULATION"] is not None
    assert concept.normalized in [c["normalized"] for c in audited["merged_concepts"]]

    [grounding] = [g for g in chain["grounding"] if g["term"] == concept.normalized]
    assert grounding["selected"]["snomed_id"] == int(sctid)
    selected = [c for c in grounding["candidates"] if c["selected"]]
    assert [c["concept_id"] for c in selected] == [sctid]
    assert all(c["decision"] and c["checks"] for c in grounding["candidates"])

    steps = chain["dagster"]["steps"]
    assert set(steps) == set(pipeline_assets())
    assert {s["run_id"] for s in steps.values()} == {loaded_sample.run_id}
    assert audited["provenance"]["run_id"] == loaded_sample.run_id


def test_audit_rule_id_and_element_id(loaded_sample, grounded_condition, neo4j_driver):
    rule, _ = grounded_condition
    code, out = run_audit(rule.id)
    assert code == 0, out
    assert f"ROW {rule.id}: {rule.text}" in out
    assert f"sha256 {rule.provenance.source_sha256}" in out
    assert "[DERIVED_FROM]" in out and "MAIN pass: backend lexicon" in out

    records = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: $g})<-[:HAS_TABLE]-(:SourceTable) RETURN 1 LIMIT 1",
        g=loaded_sample.guideline,
    ).records
    del records  # the Guideline node exists; now the element id of the rule's row node
    element_id = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: $g}) "
        "MATCH (s:SourceRow {row_id: $row, load_id: g.current_load_id}) RETURN elementId(s) AS id",
        g=loaded_sample.guideline,
        row=rule.provenance.row_id,
    ).records[0]["id"]
    code, out = run_audit(element_id, "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["kind"] == "rule"
    assert report["graph"]["node"]["element_id"] == element_id
    assert [r["rule_id"] for r in report["chains"][0]["rules"]] == [rule.id]
    assert report["chains"][0]["rules"][0]["row"]["row_text"] == rule.text


def test_audit_unmapped_concept_node(loaded_sample, neo4j_driver):
    record = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: $g}) "
        "MATCH (c:Concept:Unmapped {load_id: g.current_load_id}) "
        "RETURN elementId(c) AS id, c.normalized AS term, c.unmapped_reason AS reason LIMIT 1",
        g=loaded_sample.guideline,
    ).records
    if not record:
        pytest.skip("every concept of the sample is mapped")
    code, out = run_audit(record[0]["id"], "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["kind"] == "unmapped concept"
    assert report["concept"]["normalized"] == record[0]["term"]
    assert report["concept"]["unmapped_reason"] == record[0]["reason"]
    assert report["rules_total"] >= 1
    [grounding] = report["chains"][0]["grounding"]
    assert grounding["selected"] is None and grounding["unmapped_reason"]


def test_unknown_id_is_a_clear_error(loaded_sample):
    code, out = run_audit("999999999999")
    assert code == 2
    assert "unknown id '999999999999'" in out


def test_neo4j_down_still_prints_the_warehouse_side(loaded_sample, grounded_condition, monkeypatch):
    rule, concept = grounded_condition
    monkeypatch.setenv("NEO4J_URI", f"bolt://127.0.0.1:{free_port()}")  # nothing listens there
    monkeypatch.setenv("NEO4J_PASSWORD", "unused")
    code, out = run_audit(concept.grounding.snomed_id, "--max-rules", ALL_RULES)
    assert code == 0, out
    assert "Neo4j not reachable" in out
    assert f"ROW {rule.id}: {rule.text}" in out
