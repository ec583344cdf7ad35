"""neo4j_graph loads against the REAL local Neo4j over Bolt (started once per session).

Expected counts are derived here by walking the rules themselves, not by asking the
loader, so a loader bug cannot agree with itself.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import dagster as dg
import neo4j
import pytest

from cardio_assets import neo4j_local
from cardio_assets.assets.neo4j_graph import neo4j_graph
from cardio_assets.logic import neo4j_graph as graph
from cardio_assets.logic.neo4j_graph import batches, cypher
from cardio_assets.logic.neo4j_graph import load as graph_load
from cardio_assets.logic.synthetic_rules import synthetic_concept, synthetic_rules
from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME, guideline_partitions
from cardio_assets.records import (
    ConceptRef,
    ConditionTest,
    ExtractedRule,
    ParameterTest,
    RuleAction,
    RuleNode,
    RuleProvenance,
)
from resources.neo4j_resource import Neo4jResource, Neo4jSettingsError

pytestmark = pytest.mark.neo4j


# --- helpers -----------------------------------------------------------------------------
def expected_counts(rules: list[ExtractedRule]) -> dict[str, Counter]:
    """Nodes and relationships a correct load must produce, from the rules alone."""
    nodes: Counter = Counter()
    rels: Counter = Counter()
    nodes["SourceTable"] = len({r.provenance.table_id for r in rules})
    rels["HAS_TABLE"] = nodes["SourceTable"]
    grounded: set[str] = set()
    unmapped: set[tuple[str, str]] = set()

    def note(concept: ConceptRef) -> None:
        if concept.grounding:
            grounded.add(concept.grounding.snomed_id)
        else:
            unmapped.add((concept.role, concept.normalized))

    def walk(node: RuleNode) -> None:
        nodes["Decision"] += 1
        rels["LEADS_TO"] += 1
        for child in node.children:
            if isinstance(child, RuleNode):
                walk(child)
            else:
                rels["EVALUATES" if isinstance(child, ParameterTest) else "CHECKS_FOR"] += 1
                note(child.concept)

    for rule in rules:
        nodes["Recommendation"] += 1
        nodes["SourceRow"] += 1
        rels["HAS_ROW"] += 1
        rels["DERIVED_FROM"] += 1
        if rule.logic:
            walk(rule.logic)
        for action in rule.actions:
            rels[f"RECOMMENDS_{action.concept.role.upper()}"] += 1
            note(action.concept)
        for outcome in rule.outcomes:
            rels["RESULTS_IN"] += 1
            note(outcome)
        for looked_for in rule.purposes:
            rels["LOOKS_FOR"] += 1
            note(looked_for)
    nodes["Concept"] = len(grounded)
    nodes["Unmapped"] = len(unmapped)
    return {"nodes": nodes, "relationships": rels}


def totals(driver: neo4j.Driver) -> tuple[int, int]:
    n = driver.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    r = driver.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0]["n"]
    return n, r


def subgraph_snapshot(driver: neo4j.Driver, guideline: str) -> dict[str, Any]:
    """Every node and edge the guideline's current load owns or touches, with properties."""
    records = driver.execute_query(
        """
        MATCH (g:Guideline {id: $g})
        MATCH (n {load_id: g.current_load_id})
        OPTIONAL MATCH (n)-[r]->(m)
        RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props,
               collect([type(r), properties(r), elementId(m), labels(m), properties(m)]) AS out
        """,
        g=guideline,
    ).records
    guideline_node = driver.execute_query(
        "MATCH (g:Guideline {id: $g}) RETURN properties(g) AS p", g=guideline
    ).records[0]["p"]
    guideline_node.pop("pending_load_ids")  # bookkeeping of in-flight loads, not content

    def canon(value: Any) -> Any:
        return repr(sorted(value.items())) if isinstance(value, dict) else repr(value)

    return {
        "guideline": canon(guideline_node),
        "nodes": sorted(
            (rec["id"], sorted(rec["labels"]), canon(rec["props"]), sorted(map(canon, rec["out"])))
            for rec in records
        ),
    }


def rule(
    guideline: str,
    index: int,
    condition: ConceptRef,
    action: ConceptRef,
    text: str = "Synthetic rule.",
) -> ExtractedRule:
    row_id = f"{guideline}:t1:r{index}"
    return ExtractedRule(
        id=row_id,
        guideline=guideline,
        text=text,
        **{"class": "I"},
        level="A",
        logic=RuleNode(op="AND", children=[ConditionTest(concept=condition)]),
        actions=[RuleAction(concept=action)],
        provenance=RuleProvenance(
            guideline=guideline,
            table_id="t1",
            row_id=row_id,
            pages=[1],
            backend="lexicon",
            config_hash="test",
        ),
    )


def assert_counts(driver: neo4j.Driver, guideline: str, rules: list[ExtractedRule]) -> dict:
    counts = graph.graph_counts(driver, guideline)
    expected = expected_counts(rules)
    assert counts["nodes"] == {
        label: expected["nodes"][label]
        for label in (
            "Decision",
            "Recommendation",
            "SourceRow",
            "SourceTable",
            "Unmapped",
            "Concept",
        )
    }
    assert counts["relationships"] == dict(sorted(expected["relationships"].items()))
    return counts


# --- tests -------------------------------------------------------------------------------
def test_counts_after_one_load_and_after_reload(neo4j_driver) -> None:
    rules = synthetic_rules("g-counts", 160, seed=1, concept_pool=40, rules_per_table=30)
    before = totals(neo4j_driver)

    first = graph.load_guideline(neo4j_driver, "g-counts", rules, load_run_id="run-1")
    assert first.rules_loaded == 160 and not first.rules_skipped
    counts_1 = assert_counts(neo4j_driver, "g-counts", rules)
    totals_1 = totals(neo4j_driver)
    assert totals_1[1] - before[1] == sum(counts_1["relationships"].values())

    second = graph.load_guideline(neo4j_driver, "g-counts", rules, load_run_id="run-2")
    assert second.previous_load_id == first.load_id
    counts_2 = assert_counts(neo4j_driver, "g-counts", rules)
    assert counts_2["nodes"] == counts_1["nodes"]
    assert counts_2["relationships"] == counts_1["relationships"]
    assert totals(neo4j_driver) == totals_1, "a reload left nodes or edges behind"
    leftovers = neo4j_driver.execute_query(
        "MATCH (n {load_id: $old}) RETURN count(n) AS n", old=first.load_id
    ).records[0]["n"]
    assert leftovers == 0

    # provenance on every node and edge the load wrote
    missing = neo4j_driver.execute_query(
        """
        MATCH (n {load_id: $load})
        OPTIONAL MATCH (n)-[r]->()
        WITH n, r
        WHERE n.guideline IS NULL OR n.load_run_id IS NULL
           OR (r IS NOT NULL AND (r.guideline IS NULL OR r.load_id IS NULL OR r.config_hash IS NULL))
        RETURN count(*) AS n
        """,
        load=second.load_id,
    ).records[0]["n"]
    assert missing == 0
    evaluates = neo4j_driver.execute_query(
        """
        MATCH (d:Decision {load_id: $load})-[e:EVALUATES]->(c:Concept:ClinicalParameter)
        RETURN e.operator AS op, e.threshold AS t, e.unit AS unit, e.rule_id AS rule,
               e.row_id AS row, e.grounding_score AS score, c.snomed_id AS sctid
        LIMIT 1
        """,
        load=second.load_id,
    ).records[0]
    assert evaluates["op"] in {"<", "<=", ">", ">="} and evaluates["unit"] == "%"
    assert isinstance(evaluates["t"], float) and evaluates["score"] == 0.9
    assert evaluates["rule"] == evaluates["row"] and evaluates["sctid"].startswith("9")


def test_shared_concepts_and_isolated_reload(neo4j_driver) -> None:
    rules_a = synthetic_rules("g-a", 120, seed=2, concept_pool=15)
    rules_b = synthetic_rules("g-b", 90, seed=3, concept_pool=15)
    graph.load_guideline(neo4j_driver, "g-a", rules_a)
    graph.load_guideline(neo4j_driver, "g-b", rules_b)
    shared = neo4j_driver.execute_query(
        """
        MATCH (c:Concept) WHERE c.snomed_id IS NOT NULL
          AND EXISTS { (c)<--(n {guideline: 'g-a'}) } AND EXISTS { (c)<--(m {guideline: 'g-b'}) }
        RETURN count(c) AS n
        """
    ).records[0]["n"]
    assert shared > 0, "the two synthetic guidelines should share grounded concepts"
    b_before = subgraph_snapshot(neo4j_driver, "g-b")

    # A is re-extracted: fewer rules, new wording, classes and thresholds
    changed_a = synthetic_rules("g-a", 70, seed=2, concept_pool=15, revision=1)
    graph.load_guideline(neo4j_driver, "g-a", changed_a)
    assert_counts(neo4j_driver, "g-a", changed_a)
    texts = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: 'g-a'}) MATCH (r:Recommendation {load_id: g.current_load_id}) "
        "RETURN collect(DISTINCT r.text) AS texts"
    ).records[0]["texts"]
    assert len(texts) == 70 and all("(revision 1)" in t for t in texts)
    assert subgraph_snapshot(neo4j_driver, "g-b") == b_before, "reloading A changed B"
    assert_counts(neo4j_driver, "g-b", rules_b)

    # Concepts survive while any guideline uses them; orphans go with their last user.
    graph.delete_guideline(neo4j_driver, "g-a")
    assert subgraph_snapshot(neo4j_driver, "g-b") == b_before
    orphans = neo4j_driver.execute_query(
        "MATCH (c:Concept) WHERE NOT (c)--() RETURN count(c) AS n"
    ).records[0]["n"]
    assert orphans == 0
    only_a = neo4j_driver.execute_query(
        "MATCH (n {guideline: 'g-a'}) RETURN count(n) AS n"
    ).records[0]["n"]
    assert only_a == 0
    graph.delete_guideline(neo4j_driver, "g-b")


def test_load_interrupted_by_stopping_neo4j_keeps_previous_version(
    neo4j_server, neo4j_driver
) -> None:
    v0 = synthetic_rules("g-stop", 600, seed=4, concept_pool=50)
    graph.load_guideline(neo4j_driver, "g-stop", v0)
    before = subgraph_snapshot(neo4j_driver, "g-stop")
    counts_before = graph.graph_counts(neo4j_driver, "g-stop")

    v1 = synthetic_rules("g-stop", 600, seed=4, concept_pool=50, revision=1)
    stopped: list[str] = []

    def stop_midway(step: str, done: int, total: int) -> None:
        if done < total and not stopped:  # the first of three chunks is written
            stopped.append(f"{step} {done}/{total}")
            neo4j_server.stop()

    try:
        with pytest.raises(graph.Neo4jLoadError) as failure:
            graph.load_guideline(
                neo4j_driver, "g-stop", v1, batch_size=200, on_progress=stop_midway
            )
    finally:
        neo4j_server.start()
    message = str(failure.value)
    assert "g-stop" in message and "failed at step" in message
    assert "unchanged" in message and "re-materialize" in message
    assert stopped, "the load finished before Neo4j could be stopped"

    # previous version intact and current; the partial load is remembered for cleanup
    assert subgraph_snapshot(neo4j_driver, "g-stop") == before
    assert graph.graph_counts(neo4j_driver, "g-stop") == counts_before
    pending = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: 'g-stop'}) RETURN g.pending_load_ids AS p"
    ).records[0]["p"]
    assert len(pending) == 1
    partial = neo4j_driver.execute_query(
        "MATCH (n {load_id: $p}) RETURN count(n) AS n", p=pending[0]
    ).records[0]["n"]
    assert partial > 0, "expected half-written nodes of the interrupted load"

    rerun = graph.load_guideline(neo4j_driver, "g-stop", v1)
    assert rerun.stale_loads_removed == pending
    assert_counts(neo4j_driver, "g-stop", v1)
    gone = neo4j_driver.execute_query(
        "MATCH (n) WHERE n.load_id IN $ids RETURN count(n) AS n",
        ids=[pending[0], counts_before["load_id"]],
    ).records[0]["n"]
    assert gone == 0
    graph.delete_guideline(neo4j_driver, "g-stop")


def test_bad_rule_is_skipped_and_named_the_rest_loads(neo4j_driver) -> None:
    good = synthetic_rules("g-bad", 12, seed=5)
    broken = good[3].model_copy(deep=True)
    # a buggy upstream bypassing validation: 'between' with one number, wrong role
    broken.logic.children[1] = ParameterTest.model_construct(
        kind="parameter",
        concept=synthetic_concept("Condition", 1),
        operator="between",
        threshold=5.0,
        unit=None,
    )
    broken.id = "g-bad:t1:broken"
    foreign = good[5].model_copy(update={"guideline": "other"})
    rules = [*good, broken, foreign, good[0]]
    result = graph.load_guideline(neo4j_driver, "g-bad", rules)
    assert result.rules_loaded == 12
    reasons = dict(result.rules_skipped)
    assert set(reasons) == {"g-bad:t1:broken", good[5].id, good[0].id}
    assert "invalid rule" in reasons["g-bad:t1:broken"]
    assert "duplicate" in reasons[good[0].id]
    assert_counts(neo4j_driver, "g-bad", good)
    graph.delete_guideline(neo4j_driver, "g-bad")


INJECTIONS = [
    'it\'s "quoted"',
    "`backtick` label",
    "}) DETACH DELETE n //",
    "x'}) MATCH (m) DETACH DELETE m RETURN 1 //",
    "$param {curly} \\ back\\slash",
    "naïve — ünïcödé ✓",
]


def load_content(driver: neo4j.Driver, guideline: str) -> Counter:
    """Every edge of the current load with both ends, load ids masked: the load's content."""
    load_id = graph.graph_counts(driver, guideline)["load_id"]
    records = driver.execute_query(
        """
        MATCH (g:Guideline {id: $g})
        MATCH (n {load_id: g.current_load_id})-[r]->(m)
        RETURN labels(n) AS ln, properties(n) AS pn, type(r) AS t, properties(r) AS pr,
               labels(m) AS lm, properties(m) AS pm
        """,
        g=guideline,
    ).records
    return Counter(
        repr(
            [
                sorted(rec["ln"]),
                sorted(rec["pn"].items()),
                rec["t"],
                sorted(rec["pr"].items()),
                sorted(rec["lm"]),
                sorted(
                    (k, v)
                    for k, v in rec["pm"].items()
                    if k not in ("created_load_id", "created_run_id")
                ),
            ]
        ).replace(load_id, "<load>")
        for rec in records
    )


def test_chunked_load_writes_the_same_graph_as_one_chunk(neo4j_driver) -> None:
    """Rules are prepared and written batch_size at a time, in a worker thread: a table
    spanning chunks gets every page, a duplicate in a later chunk is caught, unmapped
    concepts shared by chunks are one node, and the content equals a one-chunk load."""
    rules = synthetic_rules("g-chunks", 130, seed=11, concept_pool=30, rules_per_table=1000)
    rules = [
        r.model_copy(
            update={"provenance": r.provenance.model_copy(update={"pages": [i // 50 + 1]})}
        )
        for i, r in enumerate(rules)
    ]
    whole = graph.load_guideline(neo4j_driver, "g-chunks", [*rules, rules[3]], batch_size=2000)
    one_chunk = load_content(neo4j_driver, "g-chunks")
    chunked = graph.load_guideline(neo4j_driver, "g-chunks", [*rules, rules[3]], batch_size=40)
    assert chunked.rules_loaded == whole.rules_loaded == 130
    assert [r for r, _ in chunked.rules_skipped] == [rules[3].id]  # duplicate, 4th chunk
    assert chunked.relationships_written == whole.relationships_written
    assert_counts(neo4j_driver, "g-chunks", rules)
    pages = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: 'g-chunks'})-[:HAS_TABLE]->(t:SourceTable) RETURN t.pages AS p"
    ).records
    assert [r["p"] for r in pages] == [[1, 2, 3]]
    assert load_content(neo4j_driver, "g-chunks") == one_chunk
    one_writer = graph.load_guideline(neo4j_driver, "g-chunks", rules, batch_size=40, writers=1)
    assert one_writer.relationships_written == whole.relationships_written
    assert load_content(neo4j_driver, "g-chunks") == one_chunk
    graph.delete_guideline(neo4j_driver, "g-chunks")


def test_concepts_merged_by_a_failed_load_but_never_linked_are_removed(neo4j_driver) -> None:
    """A chunk's new concepts are committed before its edges; if the load dies in between,
    the next load's cleanup of that failed load removes them (no orphan shared concepts)."""
    neo4j_driver.execute_query(
        """
        CREATE (:Guideline {id: 'g-unlinked', pending_load_ids: ['died-load']})
        CREATE (:Concept:Condition {key: 'sct:999999001', snomed_id: '999999001',
                                    created_load_id: 'died-load'})
        CREATE (:Concept:Condition {key: 'sct:999999002', snomed_id: '999999002',
                                    created_load_id: 'died-load'})-[:PLANTED]->(:Planted)
        """
    )
    result = graph.load_guideline(neo4j_driver, "g-unlinked", synthetic_rules("g-unlinked", 5))
    assert result.stale_loads_removed == ["died-load"]
    left = neo4j_driver.execute_query(
        "MATCH (c:Concept) WHERE c.snomed_id IN ['999999001', '999999002'] RETURN c.snomed_id AS id"
    ).records
    assert [r["id"] for r in left] == ["999999002"]  # still linked: kept
    neo4j_driver.execute_query(
        "MATCH (c:Concept {snomed_id: '999999002'})-->(p) DETACH DELETE c, p"
    )
    graph.delete_guideline(neo4j_driver, "g-unlinked")


def test_read_ahead_hands_over_items_errors_and_stops_with_its_consumer() -> None:
    assert list(batches.read_ahead(iter(range(50)), depth=2)) == list(range(50))

    def failing():
        yield 1
        raise ValueError("bad chunk")

    ahead = batches.read_ahead(failing())
    assert next(ahead) == 1
    with pytest.raises(ValueError, match="bad chunk"):
        next(ahead)

    produced: list[int] = []

    def endless():
        n = 0
        while True:
            produced.append(n)
            yield n
            n += 1

    ahead = batches.read_ahead(endless(), depth=2)
    assert next(ahead) == 0
    ahead.close()  # the consumer failed: the producer thread must stop, not run forever
    stopped_at = len(produced)
    assert stopped_at <= 5
    assert not [t for t in threading.enumerate() if t.name == "neo4j-load-prepare"]


def test_injection_attempts_are_stored_verbatim_and_harmless(neo4j_driver) -> None:
    bystander = synthetic_rules("g-bystander", 20, seed=6)
    graph.load_guideline(neo4j_driver, "g-bystander", bystander)
    snapshot = subgraph_snapshot(neo4j_driver, "g-bystander")
    totals_before = totals(neo4j_driver)

    guideline = "g-inj'`}) DETACH DELETE n //"
    rules = []
    for i, text in enumerate(INJECTIONS):
        mapped = synthetic_concept("Procedure", 700 + i)
        mapped = mapped.model_copy(update={"text": text})
        unmapped = ConceptRef(
            role="Condition", text=text, normalized=text, unmapped_reason=text, passes=["MAIN"]
        )
        rules.append(rule(guideline, i, unmapped, mapped, text=text))
    result = graph.load_guideline(neo4j_driver, guideline, rules)
    assert result.rules_loaded == len(INJECTIONS)

    stored = neo4j_driver.execute_query(
        """
        MATCH (g:Guideline {id: $g})
        MATCH (r:Recommendation {load_id: g.current_load_id})-[:DERIVED_FROM]->(row:SourceRow)
        MATCH (d:Decision)-[:LEADS_TO]->(r)
        MATCH (d)-[c:CHECKS_FOR]->(u:Concept:Unmapped)
        MATCH (r)-[a:RECOMMENDS_PROCEDURE]->(p:Concept:Procedure)
        RETURN r.text AS rec, row.text AS row, c.term AS term, u.normalized AS normalized,
               u.unmapped_reason AS reason, a.term AS action, r.guideline AS guideline
        ORDER BY r.rule_id
        """,
        g=guideline,
    ).records
    assert [rec["rec"] for rec in stored] == INJECTIONS
    for rec, text in zip(stored, INJECTIONS, strict=True):
        assert rec["row"] == rec["term"] == rec["normalized"] == rec["reason"] == text
        assert rec["action"] == text and rec["guideline"] == guideline
    assert subgraph_snapshot(neo4j_driver, "g-bystander") == snapshot
    nodes_after, rels_after = totals(neo4j_driver)
    assert nodes_after > totals_before[0] and rels_after > totals_before[1]
    graph.delete_guideline(neo4j_driver, guideline)
    assert totals(neo4j_driver) == totals_before
    graph.delete_guideline(neo4j_driver, "g-bystander")


def test_labels_and_types_only_from_allowlist() -> None:
    with pytest.raises(ValueError, match="allowlist"):
        cypher._label("Concept:Evil")
    with pytest.raises(ValueError, match="allowlist"):
        cypher._rel("LEADS_TO]->() DETACH DELETE n //")
    for query in (*cypher._Q_CONCEPT_EDGES.values(), cypher._Q_TABLES, cypher._Q_RULES):
        assert "$rows" in query and "'" not in query


def test_neo4j_graph_asset_materializes_with_counts_check(neo4j_server, neo4j_driver) -> None:
    """The Dagster asset end to end: resource falls back to the local launcher's settings."""
    rules = synthetic_rules("g-asset", 40, seed=7)

    @dg.asset(name="extracted_rules", partitions_def=guideline_partitions)
    def extracted_rules_stub() -> list[ExtractedRule]:
        return rules

    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, ["g-asset"])
    result = dg.materialize(
        [extracted_rules_stub, neo4j_graph],
        partition_key="g-asset",
        instance=instance,
        resources={"neo4j": Neo4jResource()},
    )
    assert result.success
    materialization = result.asset_materializations_for_node("neo4j_graph")[0]
    metadata = materialization.metadata
    assert metadata["rules_loaded"].value == 40
    assert "local launcher" in metadata["neo4j"].value
    assert neo4j_server.password not in repr(metadata)
    checks = result.get_asset_check_evaluations()
    assert [c.passed for c in checks] == [True]
    assert_counts(neo4j_driver, "g-asset", rules)
    graph.delete_guideline(neo4j_driver, "g-asset")


def test_resource_errors_name_the_fix(neo4j_server, monkeypatch, tmp_path) -> None:
    with pytest.raises(Neo4jSettingsError, match="NEO4J_PASSWORD"):
        Neo4jResource(uri="bolt://127.0.0.1:1").settings()
    settings = Neo4jResource().settings()
    assert settings.uri == neo4j_server.uri and settings.source == "local launcher"
    assert neo4j_server.password not in repr(settings)
    with pytest.raises(Neo4jSettingsError, match="rejected the credentials"):
        with Neo4jResource(uri=neo4j_server.uri, password="wrong").driver():
            pass
    monkeypatch.setenv("CARDIO_HOME", str(tmp_path))
    with pytest.raises(Neo4jSettingsError, match="cardio neo4j start"):
        Neo4jResource().settings()


def test_status_reports_running_server(neo4j_server) -> None:
    status = neo4j_local.status(neo4j_server.root)
    assert status.running and status.ready and status.uri == neo4j_server.uri
    assert status.pid is not None
    mode = (neo4j_server.root / "password").stat().st_mode & 0o777
    assert mode == 0o600


def test_two_guidelines_loading_at_once_share_concepts_safely(neo4j_driver) -> None:
    """A Dagster backfill may load partitions concurrently; shared concepts must not clash."""
    from concurrent.futures import ThreadPoolExecutor

    rules = {
        g: synthetic_rules(g, 300, seed=i, concept_pool=20, revision=i)
        for i, g in enumerate(["g-par-1", "g-par-2"], start=10)
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [
            pool.submit(graph.load_guideline, neo4j_driver, g, r, batch_size=100)
            for g, r in rules.items()
        ]
        results = [f.result() for f in futures]
    assert [r.rules_loaded for r in results] == [300, 300]
    for g, r in rules.items():
        assert_counts(neo4j_driver, g, r)
    duplicates = neo4j_driver.execute_query(
        "MATCH (c:Concept) WHERE c.snomed_id IS NOT NULL "
        "WITH c.snomed_id AS id, count(*) AS n WHERE n > 1 RETURN count(id) AS n"
    ).records[0]["n"]
    assert duplicates == 0
    for g in rules:
        graph.delete_guideline(neo4j_driver, g)


def test_batch_rejected_by_neo4j_midway_keeps_previous_version(neo4j_driver, monkeypatch) -> None:
    """A row Neo4j refuses (here: a uniqueness clash) fails the load cleanly after earlier
    batches were committed: the old version stays current and the partial load is removed."""
    v0 = synthetic_rules("g-reject", 300, seed=8)
    graph.load_guideline(neo4j_driver, "g-reject", v0)
    before = subgraph_snapshot(neo4j_driver, "g-reject")
    totals_before = totals(neo4j_driver)

    v1 = synthetic_rules("g-reject", 300, seed=8, revision=1)
    load_id = "test-reject-load"
    monkeypatch.setattr(graph_load, "new_load_id", lambda: load_id)
    clash = f"{load_id}|{v1[250].provenance.row_id}"  # the SourceRow uid rule 251 will need
    neo4j_driver.execute_query("CREATE (:SourceRow {uid: $uid, planted: true})", uid=clash)
    try:
        with pytest.raises(graph.Neo4jLoadError) as failure:
            graph.load_guideline(neo4j_driver, "g-reject", v1, batch_size=100)
    finally:
        neo4j_driver.execute_query("MATCH (n:SourceRow {planted: true}) DELETE n")
    message = str(failure.value)
    assert (
        "SourceRow+Recommendation+root Decision (valid rules 201-300: rows 1-100 of 100; "
        "rule ids g-reject:" in message
    )
    assert "ConstraintValidationFailed" in message or "already exists" in message
    assert "partial load test-reject-load was removed" in message
    assert subgraph_snapshot(neo4j_driver, "g-reject") == before
    assert totals(neo4j_driver) == totals_before
    pending = neo4j_driver.execute_query(
        "MATCH (g:Guideline {id: 'g-reject'}) RETURN g.pending_load_ids AS p"
    ).records[0]["p"]
    assert pending == []
    graph.delete_guideline(neo4j_driver, "g-reject")


def test_leftovers_of_a_failed_first_load_are_removed_by_the_next(neo4j_driver) -> None:
    """A first load that died with Neo4j (so it could not clean up) has no current version;
    its half-written nodes must still be removed by the next load."""
    neo4j_driver.execute_query(
        """
        CREATE (g:Guideline {id: 'g-ghost', pending_load_ids: ['ghost-load']})
        CREATE (g)-[:HAS_TABLE]->(t:SourceTable {uid: 'ghost-load|t1', load_id: 'ghost-load'})
        CREATE (t)-[:HAS_ROW]->(:SourceRow {uid: 'ghost-load|r1', load_id: 'ghost-load'})
        """
    )
    rules = synthetic_rules("g-ghost", 30, seed=9)
    result = graph.load_guideline(neo4j_driver, "g-ghost", rules)
    assert result.stale_loads_removed == ["ghost-load"] and result.previous_load_id is None
    left = neo4j_driver.execute_query(
        "MATCH (n {load_id: 'ghost-load'}) RETURN count(n) AS n"
    ).records[0]["n"]
    assert left == 0
    assert_counts(neo4j_driver, "g-ghost", rules)
    graph.delete_guideline(neo4j_driver, "g-ghost")


def test_a_recommendation_printed_twice_is_one_rule_with_two_source_rows(neo4j_driver) -> None:
    """A guideline that restates a section's recommendation in its summary table gives one
    Recommendation, derived from both printings: an auditor finds either page, and a patient
    question never counts the recommendation twice."""
    from cardio_assets.records import RowLocation

    (rule,) = synthetic_rules("g-twice", 1, seed=5, concept_pool=3)
    summary = RowLocation(
        table_id="table_009",
        table_title="Summary of recommendations",
        row_index=4,
        section="Summary",
        pages=[88],
        printed_text=rule.text,
    )
    rule = rule.model_copy(
        update={"provenance": rule.provenance.model_copy(update={"also_at": [summary]})}
    )
    loaded = graph.load_guideline(neo4j_driver, "g-twice", [rule], load_run_id="run-twice")
    assert loaded.rules_loaded == 1
    records = neo4j_driver.execute_query(
        """
        MATCH (rec:Recommendation {load_id: $load})-[d:DERIVED_FROM]->(s:SourceRow)
              <-[:HAS_ROW]-(t:SourceTable)
        RETURN count(DISTINCT rec) AS recs, collect([t.table_id, s.row_index, s.pages]) AS rows
        """,
        load=loaded.load_id,
    ).records[0]
    assert records["recs"] == 1
    places = sorted(tuple(map(str, place)) for place in records["rows"])
    assert places == sorted(
        [
            (rule.provenance.table_id, str(rule.provenance.row_index), str(rule.provenance.pages)),
            ("table_009", "4", "[88]"),
        ]
    )
    titles = neo4j_driver.execute_query(
        "MATCH (:Guideline {id: 'g-twice'})-[:HAS_TABLE]->(t:SourceTable {load_id: $load}) "
        "RETURN collect(t.title) AS titles",
        load=loaded.load_id,
    ).records[0]["titles"]
    assert "Summary of recommendations" in titles
