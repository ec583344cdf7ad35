"""Load one guideline's extracted rules into Neo4j: idempotent, isolated, failure-safe.

Graph shape (docs/ARCHITECTURE.md, "The graph"):

    (:Guideline)-[:HAS_TABLE]->(:SourceTable)-[:HAS_ROW]->(:SourceRow)
    (:Recommendation)-[:DERIVED_FROM]->(:SourceRow)
    (:Decision {op: AND|OR})-[:LEADS_TO]->(:Decision | :Recommendation)   child -> parent
    (:Decision)-[:CHECKS_FOR {negated}]->(:Concept:Condition)
    (:Decision)-[:EVALUATES {operator, threshold, unit}]->(:Concept:ClinicalParameter)
    (:Recommendation)-[:RECOMMENDS_PROCEDURE | RECOMMENDS_MEDICATION {class, level, polarity}]->(:Concept)
    (:Recommendation)-[:RESULTS_IN]->(:Concept:Outcome)
    (:Recommendation)-[:LOOKS_FOR]->(:Concept)          what a recommended test is meant to find

Grounded concepts are shared: one ``(:Concept {snomed_id})`` per SCTID, merged by its
``key`` ("sct:<id>"), written only ON CREATE so loading guideline A never edits a node that
guideline B also uses. Unmapped concepts belong to their guideline: ``(:Concept:Unmapped)``
keyed by load + guideline + role + normalized term, with ``unmapped: true``.

Why loads are versioned: every guideline-owned node carries the ``load_id`` of the load that
wrote it. A load writes a complete new version beside the current one, then ONE transaction
points ``Guideline.current_load_id`` at it, then the old version is deleted. A load that dies
midway (Neo4j stopped, a rejected batch) therefore leaves the previous version current and
whole; its half-written nodes are recorded in ``Guideline.pending_load_ids`` and removed by
the next load of that guideline. Readers that must never see two versions during the short
switch window filter on ``n.load_id = g.current_load_id``.

Safety: labels and relationship types come only from the allowlists in cypher.py and are validated
before use; every value travels as a query parameter. Managed transactions
(``execute_write``) retry transient errors (deadlocks, lost connections) within the driver's
``max_transaction_retry_time``. Different guidelines load concurrently; loads of the SAME
guideline are serialised by a lease lock node in Neo4j (lock.py), so neither
can delete the other's copy in progress as a leftover.

Modules: ``cypher`` (allowlists, schema, statement texts), ``rows`` (rules -> parameter
maps), ``batches`` (chunks of ready-to-send writes, prepared ahead), ``load`` (the load,
its switch and cleanup, counts), ``lock`` (the per-guideline lease lock).
"""

from __future__ import annotations

from cardio_assets.logic.neo4j_graph.cypher import NODE_LABELS, REL_TYPES, SCHEMA_STATEMENTS
from cardio_assets.logic.neo4j_graph.load import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_WRITERS,
    GraphShrinkRefused,
    LoadResult,
    Neo4jLoadError,
    current_rule_count,
    delete_guideline,
    delete_load,
    ensure_schema,
    graph_counts,
    load_guideline,
    shrink_refusal,
)
from cardio_assets.logic.neo4j_graph.rows import GraphRows, build_graph_rows, validate_rules

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_WRITERS",
    "NODE_LABELS",
    "REL_TYPES",
    "SCHEMA_STATEMENTS",
    "GraphRows",
    "GraphShrinkRefused",
    "LoadResult",
    "Neo4jLoadError",
    "build_graph_rows",
    "current_rule_count",
    "delete_guideline",
    "delete_load",
    "ensure_schema",
    "graph_counts",
    "load_guideline",
    "shrink_refusal",
    "validate_rules",
]
