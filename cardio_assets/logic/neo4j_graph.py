"""Load one guideline's extracted rules into Neo4j: idempotent, isolated, failure-safe.

Graph shape (DESIGN.md "Neo4j mapping"):

    (:Guideline)-[:HAS_TABLE]->(:SourceTable)-[:HAS_ROW]->(:SourceRow)
    (:Recommendation)-[:DERIVED_FROM]->(:SourceRow)
    (:Decision {op: AND|OR})-[:LEADS_TO]->(:Decision | :Recommendation)   child -> parent
    (:Decision)-[:CHECKS_FOR {negated}]->(:Concept:Condition)
    (:Decision)-[:EVALUATES {operator, threshold, unit}]->(:Concept:ClinicalParameter)
    (:Recommendation)-[:RECOMMENDS_PROCEDURE | RECOMMENDS_MEDICATION {class, level, polarity}]->(:Concept)
    (:Recommendation)-[:RESULTS_IN]->(:Concept:Outcome)

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

Safety: labels and relationship types come only from the allowlists below and are validated
before use; every value travels as a query parameter. Managed transactions
(``execute_write``) retry transient errors (deadlocks, lost connections) within the driver's
``max_transaction_retry_time``. Different guidelines load concurrently; loads of the SAME
guideline are serialised by a lease lock node in Neo4j (neo4j_load_lock.py), so neither
can delete the other's copy in progress as a leftover.
"""

from __future__ import annotations

import itertools
import queue
import re
import threading
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, TypeVar

import neo4j
from pydantic import ValidationError

from cardio_assets.logic.neo4j_load_lock import (
    DEFAULT_LEASE_SECONDS,
    DEFAULT_WAIT_SECONDS,
    LOCK_SCHEMA_STATEMENTS,
    Grant,
    LoadLock,
    LoadLockLost,
)
from cardio_assets.records import (
    ConceptRef,
    ConditionTest,
    ExtractedRule,
    ParameterTest,
    RuleNode,
)

# --- allowlists -----------------------------------------------------------------------
ROLE_LABELS: tuple[str, ...] = (
    "Condition",
    "ClinicalParameter",
    "Procedure",
    "Medication",
    "Outcome",
)
NODE_LABELS: frozenset[str] = frozenset(
    {"Guideline", "SourceTable", "SourceRow", "Recommendation", "Decision", "Concept", "Unmapped"}
    | set(ROLE_LABELS)
)
REL_TYPES: frozenset[str] = frozenset(
    {
        "HAS_TABLE",
        "HAS_ROW",
        "DERIVED_FROM",
        "LEADS_TO",
        "CHECKS_FOR",
        "EVALUATES",
        "RESULTS_IN",
        "RECOMMENDS_PROCEDURE",
        "RECOMMENDS_MEDICATION",
    }
)
ACTION_REL: dict[str, str] = {
    "Procedure": "RECOMMENDS_PROCEDURE",
    "Medication": "RECOMMENDS_MEDICATION",
}
# Guideline-owned labels, deleted per load (children first keeps DETACH DELETE cheap).
VERSIONED_LABELS: tuple[str, ...] = ("Decision", "Recommendation", "SourceRow", "SourceTable")

DEFAULT_BATCH_SIZE = 2000
# Chunks written at once: one Bolt worker thread per transaction in Neo4j, so a second
# writer uses a core the first leaves idle (benchmarks/neo4j_load.py, README Speed).
DEFAULT_WRITERS = 2
DELETE_BATCH_SIZE = 5000


class Neo4jLoadError(RuntimeError):
    """A load could not complete; the message names guideline, step, batch and what to do."""


class GraphShrinkRefused(Neo4jLoadError):
    """The new version would drop too many of the loaded version's rules (nothing written)."""


def current_rule_count(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> int:
    """Recommendations in the guideline's current (switched-to) version; 0 when none."""
    records = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) WHERE g.current_load_id IS NOT NULL "
        "MATCH (r:Recommendation {load_id: g.current_load_id}) RETURN count(r) AS n",
        guideline=guideline,
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    ).records
    return records[0]["n"] if records else 0


def shrink_refusal(guideline: str, loaded: int, new: int, min_share: float) -> str | None:
    """Why a version of ``new`` rules may not replace one of ``loaded`` rules, or None.

    A failed extraction or an empty document gives few or no rules; replacing a good graph
    with that would lose recommendations silently, so it takes an explicit override."""
    if loaded == 0 or new >= min_share * loaded:
        return None
    return (
        f"guideline '{guideline}': not replacing the loaded version ({loaded} rules) with one "
        f"of {new} rules (fewer than {min_share:.0%} of them; graph.min_rule_share in "
        "configs/pipeline.yaml). The loaded version stays. If the smaller version is right, "
        "materialize neo4j_graph with run config "
        "{ops: {neo4j_graph: {config: {allow_shrink: true}}}}."
    )


def _label(name: str) -> str:
    if name not in NODE_LABELS:
        raise ValueError(f"label {name!r} is not in the graph allowlist {sorted(NODE_LABELS)}")
    return name


def _rel(name: str) -> str:
    if name not in REL_TYPES:
        raise ValueError(f"relationship type {name!r} is not in the allowlist {sorted(REL_TYPES)}")
    return name


# --- schema -----------------------------------------------------------------------------
SCHEMA_STATEMENTS: tuple[str, ...] = (
    "CREATE CONSTRAINT concept_snomed_id IF NOT EXISTS "
    "FOR (c:Concept) REQUIRE c.snomed_id IS UNIQUE",
    "CREATE CONSTRAINT concept_key IF NOT EXISTS FOR (c:Concept) REQUIRE c.key IS UNIQUE",
    "CREATE CONSTRAINT guideline_id IF NOT EXISTS FOR (g:Guideline) REQUIRE g.id IS UNIQUE",
    # One Recommendation per rule per load: two versions coexist during the switch.
    "CREATE CONSTRAINT recommendation_uid IF NOT EXISTS "
    "FOR (r:Recommendation) REQUIRE r.uid IS UNIQUE",
    "CREATE CONSTRAINT decision_uid IF NOT EXISTS FOR (d:Decision) REQUIRE d.uid IS UNIQUE",
    "CREATE CONSTRAINT source_table_uid IF NOT EXISTS FOR (t:SourceTable) REQUIRE t.uid IS UNIQUE",
    "CREATE CONSTRAINT source_row_uid IF NOT EXISTS FOR (s:SourceRow) REQUIRE s.uid IS UNIQUE",
    "CREATE INDEX recommendation_rule_id IF NOT EXISTS FOR (r:Recommendation) ON (r.rule_id)",
    "CREATE INDEX recommendation_load IF NOT EXISTS FOR (r:Recommendation) ON (r.load_id)",
    "CREATE INDEX decision_load IF NOT EXISTS FOR (d:Decision) ON (d.load_id)",
    "CREATE INDEX source_table_load IF NOT EXISTS FOR (t:SourceTable) ON (t.load_id)",
    "CREATE INDEX source_row_load IF NOT EXISTS FOR (s:SourceRow) ON (s.load_id)",
    "CREATE INDEX concept_load IF NOT EXISTS FOR (c:Concept) ON (c.load_id)",
    "CREATE INDEX concept_unmapped_key IF NOT EXISTS FOR (c:Concept) ON (c.unmapped_key)",
    "CREATE INDEX concept_created_load IF NOT EXISTS FOR (c:Concept) ON (c.created_load_id)",
)


def ensure_schema(driver: neo4j.Driver, database: str = "neo4j") -> None:
    """Create missing constraints and indexes, each in its own transaction (Neo4j refuses
    schema and data changes in one transaction); a no-op when all exist."""
    existing = {
        record["name"]
        for query in ("SHOW CONSTRAINTS YIELD name", "SHOW INDEXES YIELD name")
        for record in driver.execute_query(query, database_=database).records
    }
    wanted = (*SCHEMA_STATEMENTS, *LOCK_SCHEMA_STATEMENTS)
    missing = [s for s in wanted if s.split()[2] not in existing]
    for statement in missing:
        try:
            driver.execute_query(statement, database_=database)
        except neo4j.exceptions.ClientError as exc:
            # two partitions loading at once may race to create the same constraint
            if "already exists" not in str(exc).lower() and "equivalent" not in str(exc).lower():
                raise
    if missing:
        driver.execute_query("CALL db.awaitIndexes(300)", database_=database)


# --- rows: pure transformation of rules into parameter maps -------------------------------
@dataclass
class GraphRows:
    """Everything one load writes, as parameter maps for ``UNWIND $rows`` queries.

    Values repeated across thousands of rows travel once per batch instead of once per row
    (Bolt encoding dominated load time): ``common`` (guideline, load id, run) and
    ``profiles`` (distinct rule-level provenance: source, passes, backend, model, prompt
    hash, config hash, run) are query parameters; rows point at a profile with ``pi``.
    Concept node definitions are keyed by ``ckey`` and sent per batch for the concepts that
    batch uses.
    """

    common: dict[str, Any] = field(default_factory=dict)
    profiles: list[dict[str, Any]] = field(default_factory=list)
    concepts: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: list[dict[str, Any]] = field(default_factory=list)
    # one row per rule: its SourceRow, Recommendation and root Decision, written together
    rule_rows: list[dict[str, Any]] = field(default_factory=list)
    nested_decisions: list[list[dict[str, Any]]] = field(default_factory=list)  # by depth
    decision_concept_edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    recommendation_concept_edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def expected_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """(nodes by versioned label, relationships by type) these rows write. Unmapped
        concept nodes are not counted here: chunks of one load share them (``unmapped_keys``)."""
        roots = sum(len(r["roots"]) for r in self.rule_rows)
        nodes = {
            "SourceTable": len(self.tables),
            "SourceRow": len(self.rule_rows),
            "Recommendation": len(self.rule_rows),
            "Decision": roots + sum(len(level) for level in self.nested_decisions),
        }
        rels: Counter[str] = Counter(
            HAS_TABLE=len(self.tables),
            HAS_ROW=len(self.rule_rows),
            DERIVED_FROM=len(self.rule_rows),
            LEADS_TO=nodes["Decision"],
        )
        for edges in (self.decision_concept_edges, self.recommendation_concept_edges):
            for rel, edge_rows in edges.items():
                rels[rel] += len(edge_rows)
        return nodes, {k: v for k, v in sorted(rels.items()) if v}

    def unmapped_keys(self) -> set[str]:
        return {key for key, c in self.concepts.items() if c["props"].get("unmapped")}


def _clean(props: dict[str, Any]) -> dict[str, Any]:
    """Drop None (Neo4j stores no nulls; absent means unknown, never a guessed value)."""
    return {k: v for k, v in props.items() if v is not None}


def _profile(rule: ExtractedRule) -> dict[str, Any]:
    """Rule-level provenance that many rules of a guideline share."""
    p = rule.provenance
    return _clean(
        {
            "source_file": p.source_file,
            "source_sha256": p.source_sha256,
            "passes": list(p.passes),
            "backend": p.backend,
            "model": p.model,
            "prompt_hash": p.prompt_hash,
            "config_hash": p.config_hash,
            "run_id": p.run_id,
        }
    )


def _rule_keys(rule: ExtractedRule) -> dict[str, Any]:
    """Provenance unique to the rule: which rule, table, row and pages."""
    p = rule.provenance
    return {"rule_id": rule.id, "table_id": p.table_id, "row_id": p.row_id, "pages": list(p.pages)}


def _concept_key(concept: ConceptRef, guideline: str, load_id: str) -> str:
    """Node key: shared ``sct:<id>`` when grounded, else owned by this load and guideline."""
    if concept.grounding is not None:
        return f"sct:{concept.grounding.snomed_id}"
    return f"unmapped|{load_id}|{guideline}|{concept.role}|{concept.normalized}"


def _concept_labels(concept: ConceptRef) -> list[str]:
    labels = [_label(concept.role)]
    if concept.grounding is None:
        labels.append("Unmapped")
    elif concept.grounding.target_label != concept.role:
        labels.append(_label(concept.grounding.target_label))
    return labels


def _concept_node(
    concept: ConceptRef, key: str, guideline: str, load_id: str, load_run_id: str | None
) -> dict[str, Any]:
    """Node definition {key, labels, props}; props are written only when the node is new."""
    g = concept.grounding
    if g is not None:
        props = {
            "key": key,
            "snomed_id": g.snomed_id,
            "name": g.preferred_term,
            "preferred_term": g.preferred_term,
            "semantic_tag": g.semantic_tag,
            "target_label": g.target_label,
            "unmapped": False,
            "created_by_guideline": guideline,
            "created_load_id": load_id,
            "created_run_id": load_run_id,
        }
    else:
        props = {
            "key": key,
            "unmapped_key": f"{guideline}|{concept.role}|{concept.normalized}",
            "unmapped": True,
            "unmapped_reason": concept.unmapped_reason,
            "name": concept.normalized,
            "normalized": concept.normalized,
            "role": concept.role,
            "guideline": guideline,
            "load_id": load_id,
            "load_run_id": load_run_id,
        }
    return {"key": key, "labels": _concept_labels(concept), "props": _clean(props)}


def _concept_usage(concept: ConceptRef) -> dict[str, Any]:
    """Per-use edge properties: how this rule worded the concept and how it was grounded."""
    usage = {
        "term": concept.text,
        "normalized": concept.normalized,
        "concept_passes": list(concept.passes),
        "is_population": concept.is_population,
    }
    g = concept.grounding
    if g is not None:
        usage.update(snomed_id=g.snomed_id, grounding_score=g.score, matched_term=g.matched_term)
    else:
        usage["unmapped_reason"] = concept.unmapped_reason
    return _clean(usage)


def build_graph_rows(
    rules: Sequence[ExtractedRule],
    guideline: str,
    load_id: str,
    load_run_id: str | None = None,
    *,
    known_tables: dict[str, list[int]],
) -> GraphRows:
    """Flatten validated rules of one guideline into the parameter rows of every query.

    A load prepares its rules in chunks; ``known_tables`` (table uid -> pages so far) is
    shared by the chunks of one load, so each SourceTable is written by the first chunk that
    has it, and pages found later are collected there (see ``_table_page_updates``).
    """
    out = GraphRows(
        common=_clean({"guideline": guideline, "load_id": load_id, "load_run_id": load_run_id})
    )
    profile_index: dict[str, int] = {}
    tables: dict[str, dict[str, Any]] = {}
    nested: dict[int, list[dict[str, Any]]] = {}

    def profile_of(rule: ExtractedRule) -> int:
        profile = _profile(rule)
        token = repr(sorted(profile.items()))
        if token not in profile_index:
            profile_index[token] = len(out.profiles)
            out.profiles.append(profile)
        return profile_index[token]

    def concept_edge(
        bucket: dict[str, list[dict[str, Any]]],
        rel: str,
        src: str,
        concept: ConceptRef,
        base: dict[str, Any],
        extra: dict[str, Any],
    ) -> None:
        key = _concept_key(concept, guideline, load_id)
        known = out.concepts.get(key)
        if known is None:
            out.concepts[key] = _concept_node(concept, key, guideline, load_id, load_run_id)
        else:
            # one SNOMED concept can play several roles (condition here, outcome there):
            # every role it plays in this load becomes a label, not only the first one seen
            labels = known["labels"]
            labels += [label for label in _concept_labels(concept) if label not in labels]
        props = {**_concept_usage(concept), **_clean(extra)}
        if not props.keys() <= _CONCEPT_EDGE_KEY_SET:  # the query writes only listed keys
            raise ValueError(
                f"edge properties {sorted(props.keys() - _CONCEPT_EDGE_KEY_SET)} "
                "are missing from CONCEPT_EDGE_KEYS"
            )
        bucket.setdefault(_rel(rel), []).append({**base, "src": src, "ckey": key, "props": props})

    def walk(
        node: RuleNode,
        path: str,
        depth: int,
        parent: dict[str, Any],
        rec_uid: str,
        base: dict[str, Any],
    ) -> None:
        uid = f"{rec_uid}|d{path}"
        decision: dict[str, Any] = {"uid": uid}
        decision["props"] = {"op": node.op, "path": path, "depth": depth}
        if depth == 0:
            parent["roots"].append(decision)  # written with its rule
        else:
            nested.setdefault(depth, []).append({**base, **decision, "parent": parent["uid"]})
        for j, child in enumerate(node.children):
            if isinstance(child, RuleNode):
                walk(child, f"{path}.{j}", depth + 1, decision, rec_uid, base)
            elif isinstance(child, ParameterTest):
                threshold = child.threshold
                extra: dict[str, Any] = {"operator": child.operator, "unit": child.unit}
                if isinstance(threshold, list):
                    extra.update(
                        threshold=[float(t) for t in threshold],
                        threshold_low=float(threshold[0]),
                        threshold_high=float(threshold[1]),
                    )
                else:
                    extra["threshold"] = float(threshold)
                concept_edge(
                    out.decision_concept_edges,
                    "EVALUATES",
                    uid,
                    child.concept,
                    base,
                    extra,
                )
            elif isinstance(child, ConditionTest):
                concept_edge(
                    out.decision_concept_edges,
                    "CHECKS_FOR",
                    uid,
                    child.concept,
                    base,
                    {"negated": child.negated},
                )

    for rule in rules:
        p = rule.provenance
        base = {"pi": profile_of(rule), "rule": _rule_keys(rule)}
        table_uid = f"{load_id}|{guideline}|{p.table_id}"
        if table_uid not in tables and table_uid not in known_tables:
            tables[table_uid] = {
                "uid": table_uid,
                "pi": base["pi"],
                "props": _clean({"table_id": p.table_id, "title": p.table_title, "pages": []}),
            }
        pages = known_tables.setdefault(table_uid, [])
        pages.extend(page for page in p.pages if page not in pages)

        row_uid = f"{load_id}|{p.row_id}"
        rec_uid = f"{load_id}|{rule.id}"
        rule_row = {
            **base,
            "table_uid": table_uid,
            "row_uid": row_uid,
            "row_props": _clean(
                {
                    "text": rule.text,
                    "row_index": p.row_index,
                    "section": p.section,
                    "cell_sha256": p.cell_sha256,
                }
            ),
            "uid": rec_uid,
            "rec_props": _clean(
                {
                    "text": rule.text,
                    "class": rule.class_,
                    "level": rule.level,
                    "polarity": rule.polarity,
                    "section": p.section,
                }
            ),
            "roots": [],
        }
        out.rule_rows.append(rule_row)
        for action in rule.actions:
            concept_edge(
                out.recommendation_concept_edges,
                ACTION_REL[action.concept.role],
                rec_uid,
                action.concept,
                base,
                {
                    "class": action.class_ or rule.class_,
                    "level": action.level or rule.level,
                    "polarity": action.polarity,
                },
            )
        for outcome in rule.outcomes:
            concept_edge(
                out.recommendation_concept_edges,
                "RESULTS_IN",
                rec_uid,
                outcome,
                base,
                {},
            )
        if rule.logic is not None:
            walk(rule.logic, "0", 0, rule_row, rec_uid, base)

    for uid, table in tables.items():
        table["props"]["pages"] = list(known_tables[uid])  # a copy: later chunks may add pages
    out.tables = list(tables.values())
    out.nested_decisions = [nested[d] for d in sorted(nested)]
    return out


def validate_rules(
    rules: Iterable[Any], guideline: str, *, seen: set[str] | None = None, first_position: int = 0
) -> tuple[list[ExtractedRule], list[tuple[str, str]]]:
    """Re-validate every rule; bad ones are skipped with a reason (one bad row never sinks
    a guideline). Returns (valid rules, [(rule id, reason)]). ``seen`` carries the rule ids
    of earlier chunks of the same load, so duplicates are caught across chunks."""
    valid: list[ExtractedRule] = []
    skipped: list[tuple[str, str]] = []
    seen = set() if seen is None else seen
    for position, rule in enumerate(rules, start=first_position):
        rule_id = str(getattr(rule, "id", None) or f"#{position}")
        try:
            data = rule.model_dump(by_alias=True) if hasattr(rule, "model_dump") else rule
            checked = ExtractedRule.model_validate(data)
        except (ValidationError, TypeError, ValueError, AttributeError) as exc:
            first = str(exc).splitlines()
            reason = " ".join(first[:3]) if first else type(exc).__name__
            skipped.append((rule_id, f"invalid rule: {reason}"))
            continue
        if checked.guideline != guideline:
            skipped.append(
                (rule_id, f"belongs to guideline {checked.guideline!r}, not {guideline!r}")
            )
            continue
        if checked.id in seen:
            skipped.append((rule_id, "duplicate rule id (the first one was loaded)"))
            continue
        seen.add(checked.id)
        valid.append(checked)
    return valid, skipped


# --- Cypher (constant text; labels/types fixed; values in $rows) ---------------------------
_Q_BEGIN = """
MERGE (g:Guideline {id: $guideline})
ON CREATE SET g.created_at = datetime(), g.pending_load_ids = []
WITH g, [x IN coalesce(g.pending_load_ids, [])
         WHERE g.current_load_id IS NULL OR x <> g.current_load_id] AS stale
SET g.pending_load_ids = coalesce(g.pending_load_ids, []) + $load_id
RETURN g.current_load_id AS current, stale
"""
# Every node and edge gets: $common (guideline, load), its profile, its rule keys, own props.
# Guideline-owned nodes and edges are CREATEd: they belong to a brand-new load id, a failed
# transaction is rolled back before the driver retries it, and the counts check before the
# switch catches anything else (duplicates or gaps fail the load, the old version stays).
#
# Why the properties are spelled out as literal maps inside CREATE rather than a chain of
# ``SET x += map``: every ``+=`` of a map whose keys the planner cannot see forced an Eager
# barrier (PROFILE showed ~15 per statement) and a separate write pass per map; one CREATE
# with constant keys writes each entity once. Absent (null) values are simply not stored.
COMMON_KEYS: tuple[str, ...] = ("guideline", "load_id", "load_run_id")
PROFILE_KEYS: tuple[str, ...] = (
    "source_file",
    "source_sha256",
    "passes",
    "backend",
    "model",
    "prompt_hash",
    "config_hash",
    "run_id",
)
RULE_KEYS: tuple[str, ...] = ("rule_id", "table_id", "row_id", "pages")
TABLE_KEYS: tuple[str, ...] = ("table_id", "title", "pages")
ROW_KEYS: tuple[str, ...] = ("text", "row_index", "section", "cell_sha256")
RECOMMENDATION_KEYS: tuple[str, ...] = ("text", "class", "level", "polarity", "section")
DECISION_KEYS: tuple[str, ...] = ("op", "path", "depth")
# per-use properties of a concept edge (usage of the concept + the test or action details)
CONCEPT_EDGE_KEYS: tuple[str, ...] = (
    "term",
    "normalized",
    "concept_passes",
    "is_population",
    "snomed_id",
    "grounding_score",
    "matched_term",
    "unmapped_reason",
    "operator",
    "unit",
    "threshold",
    "threshold_low",
    "threshold_high",
    "negated",
    "class",
    "level",
    "polarity",
)
_CONCEPT_EDGE_KEY_SET = frozenset(CONCEPT_EDGE_KEYS)
_KEY = re.compile(r"[a-z][a-z0-9_]*")


def _map(*groups: tuple[str, tuple[str, ...]], uid: str | None = None) -> str:
    """Cypher map literal ``{k: source.k, ...}`` over constant keys (never user data);
    ``uid`` is the expression of the node's ``uid`` property."""
    items: dict[str, str] = {} if uid is None else {"uid": uid}
    for source, keys in groups:
        for key in keys:
            if not _KEY.fullmatch(key) or key in items:
                raise ValueError(f"bad or duplicate property key {key!r}")
            items[key] = f"{source}.`{key}`"
    return "{" + ", ".join(f"`{k}`: {v}" for k, v in items.items()) + "}"


_PROV = (("$common", COMMON_KEYS), ("prof", PROFILE_KEYS))
_PROV_RULE = (*_PROV, ("row.rule", RULE_KEYS))
_Q_TABLES = f"""
UNWIND $rows AS row
MATCH (g:Guideline {{id: $common.guideline}})
WITH g, row, $profiles[row.pi] AS prof
CREATE (g)-[:HAS_TABLE {_map(*_PROV, ("row.props", ("table_id",)))}]->
       (:SourceTable {_map(("row.props", TABLE_KEYS), *_PROV, uid="row.uid")})
RETURN count(*) AS n
"""
_Q_RULES = f"""
UNWIND $rows AS row
MATCH (t:SourceTable {{uid: row.table_uid}})
WITH t, row, $profiles[row.pi] AS prof
CREATE (t)-[:HAS_ROW {_map(*_PROV_RULE)}]->
       (s:SourceRow {_map(("row.row_props", ROW_KEYS), *_PROV_RULE, uid="row.row_uid")})
       <-[:DERIVED_FROM {_map(*_PROV_RULE)}]-
       (rec:Recommendation {_map(("row.rec_props", RECOMMENDATION_KEYS), *_PROV_RULE, uid="row.uid")})
FOREACH (root IN row.roots |
    CREATE (:Decision {_map(("root.props", DECISION_KEYS), *_PROV_RULE, uid="root.uid")})
           -[:LEADS_TO {_map(*_PROV_RULE)}]->(rec))
RETURN count(*) AS n
"""
_Q_NESTED_DECISIONS = f"""
UNWIND $rows AS row
MATCH (parent:Decision {{uid: row.parent}})
WITH parent, row, $profiles[row.pi] AS prof
CREATE (:Decision {_map(("row.props", DECISION_KEYS), *_PROV_RULE, uid="row.uid")})
       -[:LEADS_TO {_map(*_PROV_RULE)}]->(parent)
RETURN count(*) AS n
"""
# Concept MERGE and the edge in one statement: a concurrent load of another guideline that
# sweeps an orphaned shared concept cannot slip in between creating the node and linking it.


def _concept_edge_query(src: str, rel: str) -> str:
    return f"""
UNWIND $rows AS row
MATCH (s:{_label(src)} {{uid: row.src}})
WITH s, row, $concepts[row.ci] AS cdef, $profiles[row.pi] AS prof
MERGE (c:Concept {{key: cdef.key}})
ON CREATE SET c += cdef.props
WITH s, c, row, prof, [x IN cdef.labels WHERE NOT x IN labels(c)] AS missing
FOREACH (_ IN CASE WHEN size(missing) > 0 THEN [1] ELSE [] END | SET c:$(missing))
CREATE (s)-[:{_rel(rel)} {_map(*_PROV_RULE, ("row.props", CONCEPT_EDGE_KEYS))}]->(c)
RETURN count(*) AS n
"""


# A chunk's concepts not seen earlier in the load, merged before its edges are written
# concurrently with other chunks' (the edge query still MERGEs: a concept swept by another
# guideline's cleanup in between is simply created again).
_Q_CONCEPTS = """
UNWIND $concepts AS cdef
MERGE (c:Concept {key: cdef.key})
ON CREATE SET c += cdef.props
WITH c, [x IN cdef.labels WHERE NOT x IN labels(c)] AS missing
FOREACH (_ IN CASE WHEN size(missing) > 0 THEN [1] ELSE [] END | SET c:$(missing))
RETURN count(*) AS n
"""

_Q_CONCEPT_EDGES: dict[tuple[str, str], str] = {
    (src, rel): _concept_edge_query(src, rel)
    for src, rels in (
        ("Decision", ("CHECKS_FOR", "EVALUATES")),
        ("Recommendation", ("RESULTS_IN", "RECOMMENDS_PROCEDURE", "RECOMMENDS_MEDICATION")),
    )
    for rel in rels
}
# only while this load holds the guideline's load lock (a load whose lease was taken over
# gets no row back and fails instead of switching)
_Q_SWITCH = """
MATCH (:LoadLock {guideline: $guideline, holder: $load_id})
MATCH (g:Guideline {id: $guideline})
WITH g, g.current_load_id AS previous
SET g += $props,
    g.current_load_id = $load_id,
    g.previous_load_id = previous,
    g.pending_load_ids = [x IN coalesce(g.pending_load_ids, []) WHERE x <> $load_id]
        + CASE WHEN previous IS NULL THEN [] ELSE [previous] END
RETURN previous
"""
_Q_FORGET_LOAD = """
MATCH (g:Guideline {id: $guideline})
SET g.pending_load_ids = [x IN coalesce(g.pending_load_ids, []) WHERE x <> $load_id]
"""
_Q_LOAD_CONCEPT_KEYS = {
    src: f"""
MATCH (n:{_label(src)} {{load_id: $load_id}})-->(c:Concept)
WHERE c.snomed_id IS NOT NULL
RETURN collect(DISTINCT c.key) AS keys
"""
    for src in ("Decision", "Recommendation")
}
_Q_DELETE_BATCH = {
    label: f"""
MATCH (n:{_label(label)} {{load_id: $load_id}})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS n
"""
    for label in (*VERSIONED_LABELS, "Concept")
}
_Q_DELETE_ORPHAN_CONCEPTS = """
UNWIND $keys AS key
MATCH (c:Concept {key: key})
WHERE c.snomed_id IS NOT NULL AND NOT (c)--()
DELETE c
RETURN count(*) AS n
"""
# concepts a failed load merged but never linked (its edges were not written)
_Q_DELETE_UNLINKED_CONCEPTS = """
MATCH (c:Concept {created_load_id: $load_id})
WHERE NOT (c)--()
DELETE c
RETURN count(*) AS n
"""


# --- load -------------------------------------------------------------------------------
@dataclass
class LoadResult:
    guideline: str
    load_id: str
    previous_load_id: str | None
    rules_loaded: int
    rules_skipped: list[tuple[str, str]]
    nodes_written: int  # guideline-owned nodes (shared grounded concepts not counted)
    relationships_written: int
    write_seconds: float
    total_seconds: float
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase
    stale_loads_removed: list[str] = field(default_factory=list)
    cleanup_error: str | None = None  # old version not fully deleted (retried next load)
    lock_taken_over: str | None = None  # a dead load whose expired lock this load took


ProgressCallback = Callable[[str, int, int], None]  # (step, done, total)


def new_load_id() -> str:
    return f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{uuid.uuid4().hex[:12]}"


def _write(session: neo4j.Session, query: str, params: dict[str, Any]) -> int:
    def work(tx: neo4j.ManagedTransaction) -> int:
        record = tx.run(query, params).single()
        return int(record["n"]) if record is not None else 0

    return session.execute_write(work)


def _batches(rows: list[dict[str, Any]], size: int) -> Iterable[tuple[int, list[dict[str, Any]]]]:
    for start in range(0, len(rows), size):
        yield start, rows[start : start + size]


def _rule_ids(batch: list[dict[str, Any]]) -> str:
    ids = sorted({str(r.get("rule", {}).get("rule_id", "?")) for r in batch})
    shown = ", ".join(ids[:3])
    return f"{shown} (+{len(ids) - 3} more)" if len(ids) > 3 else shown


Step = tuple[str, str, list[dict[str, Any]], bool]  # name, query, rows, rows point at concepts


def _steps(rows: GraphRows) -> list[Step]:
    steps: list[Step] = [
        ("SourceTable+HAS_TABLE", _Q_TABLES, rows.tables, False),
        ("SourceRow+Recommendation+root Decision", _Q_RULES, rows.rule_rows, False),
    ]
    for depth, level in enumerate(rows.nested_decisions, start=1):
        steps.append((f"Decision+LEADS_TO (depth {depth})", _Q_NESTED_DECISIONS, level, False))
    for rel, edge_rows in sorted(rows.decision_concept_edges.items()):
        steps.append((rel, _Q_CONCEPT_EDGES[("Decision", rel)], edge_rows, True))
    for rel, edge_rows in sorted(rows.recommendation_concept_edges.items()):
        steps.append((rel, _Q_CONCEPT_EDGES[("Recommendation", rel)], edge_rows, True))
    return steps


def _batch_params(
    rows: GraphRows, batch: list[dict[str, Any]], uses_concepts: bool
) -> dict[str, Any]:
    """Query parameters of one batch: its rows plus the shared maps they index into."""
    params: dict[str, Any] = {"common": rows.common, "profiles": rows.profiles}
    if not uses_concepts:
        params["rows"] = batch
        return params
    index: dict[str, int] = {}
    concepts: list[dict[str, Any]] = []
    sent = []
    for row in batch:
        key = row["ckey"]
        if key not in index:
            index[key] = len(concepts)
            concepts.append(rows.concepts[key])
        sent.append({k: v for k, v in row.items() if k != "ckey"} | {"ci": index[key]})
    params["rows"] = sent
    params["concepts"] = concepts
    return params


_Q_TABLE_PAGES = """
UNWIND $rows AS row
MATCH (t:SourceTable {uid: row.uid})
SET t.pages = row.pages
RETURN count(*) AS n
"""


@dataclass
class WriteBatch:
    """One ready-to-send query: prepared off the writer thread, described for errors."""

    step: str
    query: str
    params: dict[str, Any]
    rows: int
    where: str  # "rules 201-300, rows 1-100 of 100 of this step; rules a, b, c (+97 more)"


@dataclass
class PreparedChunk:
    """The writes of one chunk of input rules, and what they must leave in the graph.

    ``ordered`` (its new SourceTables and Concepts) is committed before the chunk is handed
    to a writer, because later chunks, written concurrently, link to those nodes;
    ``batches`` touch only this chunk's own nodes plus existing tables and concepts.
    """

    ordered: list[WriteBatch]
    batches: list[WriteBatch]
    rows: GraphRows
    rules: list[ExtractedRule]
    input_rules: int  # rules read from the input so far, valid or not
    skipped: list[tuple[str, str]]
    prepare_seconds: float  # worker-thread time spent on this chunk (overlaps writes)


def prepare_chunks(
    rules: Iterable[Any],
    guideline: str,
    load_id: str,
    load_run_id: str | None,
    *,
    chunk_size: int,
    known_tables: dict[str, list[int]],
) -> Iterator[PreparedChunk]:
    """Validate, flatten and parameterize the rules ``chunk_size`` at a time, so writing can
    start after the first chunk instead of after the whole guideline."""
    seen: set[str] = set()
    known_concepts: set[str] = set()
    read = 0
    written = 0  # valid rules in earlier chunks: positions in error messages are load-wide
    iterator = iter(rules)
    while True:
        began = time.perf_counter()
        chunk = list(itertools.islice(iterator, chunk_size))
        if not chunk:
            return
        valid, skipped = validate_rules(chunk, guideline, seen=seen, first_position=read)
        read += len(chunk)
        rows = build_graph_rows(valid, guideline, load_id, load_run_id, known_tables=known_tables)
        span = f"valid rules {written + 1}-{written + len(valid)}" if valid else "no valid rules"
        written += len(valid)
        ordered: list[WriteBatch] = []
        new_concepts = sorted(rows.concepts.keys() - known_concepts)
        known_concepts.update(new_concepts)
        for start in range(0, len(new_concepts), chunk_size):
            keys = new_concepts[start : start + chunk_size]
            params = {"concepts": [rows.concepts[key] for key in keys]}
            where = f"{span}: {len(keys)} concepts new to this load"
            ordered.append(WriteBatch("Concept", _Q_CONCEPTS, params, len(keys), where))
        batches: list[WriteBatch] = []
        for step, query, step_rows, uses_concepts in _steps(rows):
            if uses_concepts:
                # concurrent writers lock shared concepts in one global order: no deadlocks
                step_rows = sorted(step_rows, key=lambda row: row["ckey"])
            target = ordered if query is _Q_TABLES else batches
            for start, batch in _batches(step_rows, chunk_size):
                where = f"{span}: rows {start + 1}-{start + len(batch)} of {len(step_rows)}"
                if "rule" in batch[0]:
                    where += f"; rule ids {_rule_ids(batch)}"
                params = _batch_params(rows, batch, uses_concepts)
                target.append(WriteBatch(step, query, params, len(batch), where))
        yield PreparedChunk(
            ordered, batches, rows, valid, read, skipped, time.perf_counter() - began
        )


_T = TypeVar("_T")


def read_ahead(items: Iterable[_T], depth: int = 2) -> Iterator[_T]:
    """Produce ``items`` in a worker thread, up to ``depth`` ahead of the consumer.

    Why: the writer spends most of a load waiting for Neo4j; preparing the next chunk in
    the meantime hides the Python side (validation, flattening) instead of paying it first.
    The producer's exception is re-raised in the consumer; a consumer that stops early (a
    failed write) stops the producer.
    """
    handoff: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                handoff.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((False, item)):
                    return
            put((True, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, re-raised there
            put((True, exc))

    worker = threading.Thread(target=produce, name="neo4j-load-prepare", daemon=True)
    worker.start()
    try:
        while True:
            done, item = handoff.get()
            if done:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        worker.join()


@dataclass
class _LoadTally:
    """What the chunks written so far must have left in the graph, and their provenance."""

    nodes: Counter[str] = field(default_factory=Counter)
    rels: Counter[str] = field(default_factory=Counter)
    unmapped: set[str] = field(default_factory=set)
    rules: list[ExtractedRule] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    written_pages: dict[str, list[int]] = field(default_factory=dict)
    prepare_seconds: float = 0.0

    def add(self, chunk: PreparedChunk) -> None:
        nodes, rels = chunk.rows.expected_counts()
        self.nodes.update(nodes)
        self.rels.update(rels)
        self.unmapped |= chunk.rows.unmapped_keys()
        self.rules += chunk.rules
        self.skipped += chunk.skipped
        self.written_pages.update((t["uid"], t["props"]["pages"]) for t in chunk.rows.tables)
        self.prepare_seconds += chunk.prepare_seconds

    def expected_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        nodes = {label: self.nodes[label] for label in VERSIONED_LABELS}
        nodes["Unmapped"] = len(self.unmapped)  # chunks share unmapped concept nodes
        return nodes, {k: v for k, v in sorted(self.rels.items()) if v}

    def guideline_props(self, title: str | None, load_run_id: str | None) -> dict[str, Any]:
        provenance = [r.provenance for r in self.rules]
        return _clean(
            {
                "title": title,
                "loaded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "load_run_id": load_run_id,
                "rules": len(self.rules),
                "rules_skipped": len(self.skipped),
                "source_files": sorted({p.source_file for p in provenance} - {None}),
                "source_sha256s": sorted({p.source_sha256 for p in provenance} - {None}),
                "config_hashes": sorted({p.config_hash for p in provenance}),
                "run_ids": sorted({p.run_id for p in provenance} - {None}),
            }
        )


def _table_page_updates(
    known_tables: dict[str, list[int]], written: dict[str, list[int]]
) -> list[dict[str, Any]]:
    """Tables whose rules in later chunks cited pages the table was first written without."""
    return [
        {"uid": uid, "pages": pages}
        for uid, pages in known_tables.items()
        if uid in written and pages != written[uid]
    ]


class _BatchError(Exception):
    """A batch failed; carries the batch so the load's error can name step, rows and rules."""

    def __init__(self, batch: WriteBatch, cause: Exception) -> None:
        super().__init__(str(cause))
        self.batch, self.cause = batch, cause


def _write_batches(driver: neo4j.Driver, database: str, batches: list[WriteBatch]) -> None:
    """Write batches in order, each in its own managed (retried) transaction; own session,
    so writer threads never share one."""
    if not batches:
        return
    with driver.session(database=database) as session:
        for batch in batches:
            try:
                written = _write(session, batch.query, batch.params)
            except Exception as exc:
                raise _BatchError(batch, exc) from exc
            if written != batch.rows:
                missing = Neo4jLoadError(
                    f"{written} of {batch.rows} rows linked (a referenced node is missing)"
                )
                raise _BatchError(batch, missing)


def load_guideline(
    driver: neo4j.Driver,
    guideline: str,
    rules: Iterable[Any],
    *,
    guideline_title: str | None = None,
    load_run_id: str | None = None,
    database: str = "neo4j",
    batch_size: int = DEFAULT_BATCH_SIZE,
    writers: int = DEFAULT_WRITERS,
    on_progress: ProgressCallback | None = None,
    min_rule_share: float | None = None,
    lock_lease_seconds: float = DEFAULT_LEASE_SECONDS,
    lock_wait_seconds: float = DEFAULT_WAIT_SECONDS,
    on_lock_wait: Callable[[str], None] | None = None,
) -> LoadResult:
    """Replace guideline's subgraph with these rules; other guidelines are never touched.

    With ``min_rule_share``, a version holding fewer than that share of the loaded
    version's rules raises GraphShrinkRefused before anything is written.

    Rules are prepared ``batch_size`` at a time in a worker thread while earlier chunks are
    written, ``writers`` chunks at once (each chunk in its own session, its batches in
    order). Another load of the same guideline is waited for (``on_lock_wait`` says so),
    up to ``lock_wait_seconds``; one whose process died holds it for at most
    ``lock_lease_seconds``. Raises Neo4jLoadError when the new version could not be
    written; the previously loaded version then stays current and complete.
    """
    started = time.perf_counter()
    phases: dict[str, float] = {}

    def lap(name: str, since: float) -> float:
        now = time.perf_counter()
        phases[name] = round(now - since, 3)
        return now

    load_id = new_load_id()
    if min_rule_share is not None:
        rules = list(rules)
    total = len(rules) if isinstance(rules, Sized) else None
    known_tables: dict[str, list[int]] = {}
    tally = _LoadTally()
    previous: str | None = None
    registered = False
    removed: list[str] = []
    step_name, batch_note = "schema", ""
    mark = started
    lock = LoadLock(
        driver,
        guideline,
        load_id,
        run_id=load_run_id,
        database=database,
        lease_seconds=lock_lease_seconds,
    )
    grant: Grant | None = None
    try:
        try:
            ensure_schema(driver, database)
            mark = lap("schema", mark)
            step_name = "take the guideline's load lock"
            grant = lock.acquire(lock_wait_seconds, on_lock_wait)
            mark = lap("wait for lock", mark)
            if min_rule_share is not None:  # under the lock: the version it compares to stays
                refusal = shrink_refusal(
                    guideline,
                    current_rule_count(driver, guideline, database=database),
                    len(rules),  # type: ignore[arg-type] - a list since min_rule_share is set
                    min_rule_share,
                )
                if refusal:
                    raise GraphShrinkRefused(refusal)
            step_name = "register load"
            with driver.session(database=database) as session:
                begin = session.execute_write(
                    lambda tx: tx.run(_Q_BEGIN, guideline=guideline, load_id=load_id).single()
                )
            registered = True
            previous = begin["current"]
            step_name = "remove leftovers of failed loads"
            for stale_id in begin["stale"]:
                delete_load(driver, guideline, stale_id, database=database)
                removed.append(stale_id)
            mark = lap("begin", mark)

            chunks = prepare_chunks(
                rules,
                guideline,
                load_id,
                load_run_id,
                chunk_size=batch_size,
                known_tables=known_tables,
            )
            step_name, batch_note = "prepare rules", ""
            in_flight: deque[tuple[Future[None], PreparedChunk]] = deque()

            def settle(keep: int) -> None:
                """Wait for the oldest chunks until at most ``keep`` are still being written."""
                while len(in_flight) > keep:
                    future, chunk = in_flight.popleft()
                    future.result()
                    lock.check()  # no use writing on once another load took over
                    tally.add(chunk)
                    if on_progress is not None:
                        on_progress("rules", chunk.input_rules, total or chunk.input_rules)

            writers = max(1, writers)
            pool = ThreadPoolExecutor(writers, thread_name_prefix="neo4j-load-write")
            try:
                with closing(read_ahead(chunks)) as ahead:
                    for chunk in ahead:
                        settle(writers - 1)
                        _write_batches(driver, database, chunk.ordered)
                        in_flight.append(
                            (pool.submit(_write_batches, driver, database, chunk.batches), chunk)
                        )
                settle(0)
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
            updates = _table_page_updates(known_tables, tally.written_pages)
            if updates:
                pages = WriteBatch(
                    "SourceTable pages", _Q_TABLE_PAGES, {"rows": updates}, len(updates), ""
                )
                _write_batches(driver, database, [pages])
            mark = lap("write", mark)
            phases["prepare (overlapped with write)"] = round(tally.prepare_seconds, 3)
            step_name, batch_note = "verify counts", ""
            with driver.session(database=database) as session:
                found = _load_counts(session, guideline, load_id, with_concepts=False)
            if found != tally.expected_counts():
                raise Neo4jLoadError(
                    f"the written load does not match the rules: expected {tally.expected_counts()}, "
                    f"found {found}"
                )
            mark = lap("verify", mark)
            step_name = "switch current load"
            props = tally.guideline_props(guideline_title, load_run_id)
            with driver.session(database=database) as session:
                switched = session.execute_write(
                    lambda tx: tx.run(
                        _Q_SWITCH, guideline=guideline, load_id=load_id, props=props
                    ).single()
                )
            if switched is None:
                lock.check()
                raise LoadLockLost("the load lock was no longer this load's at the switch")
            previous = switched["previous"]
            mark = lap("switch", mark)
        except GraphShrinkRefused:
            raise  # nothing was written: the message says what to do
        except Exception as exc:
            if isinstance(exc, _BatchError):
                step_name, batch_note, exc = exc.batch.step, exc.batch.where, exc.cause
            note = (
                _abandon(driver, guideline, load_id, database)
                if registered
                else "nothing was written."
            )
            kept = f"load {previous}" if previous else "none loaded yet"
            where = f"{step_name} ({batch_note})" if batch_note else step_name
            raise Neo4jLoadError(
                f"loading guideline {guideline!r} into Neo4j failed at step {where}: "
                f"{type(exc).__name__}: {exc}. The current version ({kept}) is unchanged; {note} "
                "Fix the cause (is Neo4j up? `cardio neo4j status`) and re-materialize the "
                "partition."
            ) from exc

        cleanup_error = None
        if previous is not None:
            try:
                delete_load(driver, guideline, previous, database=database)
            except Exception as exc:  # noqa: BLE001 - the new version is live; retried next load
                cleanup_error = f"old load {previous} not fully deleted ({exc}); removed next load"
            lap("delete previous", mark)
    finally:
        if grant is not None:
            lock.release()
    nodes, rels = tally.expected_counts()
    return LoadResult(
        guideline=guideline,
        load_id=load_id,
        previous_load_id=previous,
        rules_loaded=len(tally.rules),
        rules_skipped=tally.skipped,
        nodes_written=sum(nodes.values()),
        relationships_written=sum(rels.values()),
        write_seconds=phases["write"],
        total_seconds=time.perf_counter() - started,
        phases=phases,
        stale_loads_removed=removed,
        cleanup_error=cleanup_error,
        lock_taken_over=grant.taken_over if grant else None,
    )


def _abandon(driver: neo4j.Driver, guideline: str, load_id: str, database: str) -> str:
    """Best-effort removal of a failed load's partial nodes; if Neo4j is down they stay
    listed in pending_load_ids and the next load removes them."""
    try:
        delete_load(driver, guideline, load_id, database=database)
        return f"the partial load {load_id} was removed."
    except Exception:  # noqa: BLE001 - the original error is what the user needs
        return f"the partial load {load_id} will be removed by the next load."


def delete_load(
    driver: neo4j.Driver, guideline: str, load_id: str, *, database: str = "neo4j"
) -> int:
    """Delete every node of one load, then shared concepts it left without any edge."""
    deleted = 0
    with driver.session(database=database) as session:
        keys: set[str] = set()
        for query in _Q_LOAD_CONCEPT_KEYS.values():
            record = session.execute_read(lambda tx, q=query: tx.run(q, load_id=load_id).single())
            keys.update(record["keys"] if record else [])
        for label in (*VERSIONED_LABELS, "Concept"):
            while True:
                n = _write(
                    session,
                    _Q_DELETE_BATCH[label],
                    {"load_id": load_id, "limit": DELETE_BATCH_SIZE},
                )
                deleted += n
                if n < DELETE_BATCH_SIZE:
                    break
        ordered = sorted(keys)
        for start in range(0, len(ordered), DELETE_BATCH_SIZE):
            deleted += _write(
                session,
                _Q_DELETE_ORPHAN_CONCEPTS,
                {"keys": ordered[start : start + DELETE_BATCH_SIZE]},
            )
        deleted += _write(session, _Q_DELETE_UNLINKED_CONCEPTS, {"load_id": load_id})
        session.execute_write(
            lambda tx: tx.run(_Q_FORGET_LOAD, guideline=guideline, load_id=load_id).consume()
        )
    return deleted


def delete_guideline(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> None:
    """Remove a guideline entirely (all its loads and its Guideline node)."""
    record = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) "
        "RETURN [g.current_load_id] + coalesce(g.pending_load_ids, []) AS loads",
        guideline=guideline,
        database_=database,
    ).records
    for load_id in record[0]["loads"] if record else []:
        if load_id:
            delete_load(driver, guideline, load_id, database=database)
    driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) DETACH DELETE g",
        guideline=guideline,
        database_=database,
    )


# --- counts -----------------------------------------------------------------------------
def _load_counts(
    session: neo4j.Session, guideline: str, load_id: str, *, with_concepts: bool = True
) -> tuple[dict[str, int], dict[str, int]]:
    """(nodes by label, relationships by type) written by one load."""

    def one(query: str, **params: Any) -> Any:
        return session.execute_read(lambda tx: tx.run(query, params).single())

    nodes: dict[str, int] = {}
    rels: Counter[str] = Counter()
    for label in VERSIONED_LABELS:
        nodes[label] = one(
            f"MATCH (n:{_label(label)} {{load_id: $load_id}}) RETURN count(n) AS n",
            load_id=load_id,
        )["n"]
        for row in session.execute_read(
            lambda tx, lbl=label: tx.run(
                f"MATCH (n:{_label(lbl)} {{load_id: $load_id}})-[r]->() "
                "RETURN type(r) AS type, count(r) AS n",
                load_id=load_id,
            ).data()
        ):
            rels[row["type"]] += row["n"]
    nodes["Unmapped"] = one(
        "MATCH (c:Concept {load_id: $load_id}) RETURN count(c) AS n", load_id=load_id
    )["n"]
    if with_concepts:
        keys: set[str] = set()
        for query in _Q_LOAD_CONCEPT_KEYS.values():
            keys.update(one(query, load_id=load_id)["keys"])
        nodes["Concept"] = len(keys)
    rels["HAS_TABLE"] = one(
        "MATCH (:Guideline {id: $guideline})-[r:HAS_TABLE]->(t:SourceTable {load_id: $load_id}) "
        "RETURN count(r) AS n",
        guideline=guideline,
        load_id=load_id,
    )["n"]
    return nodes, {k: v for k, v in sorted(rels.items()) if v}


def graph_counts(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> dict:
    """Nodes by label and relationships by type of the guideline's CURRENT version.

    ``Concept`` counts the distinct shared (grounded) concepts it links to; ``Unmapped``
    its own unmapped concept nodes.
    """
    records = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) RETURN g.current_load_id AS load_id",
        guideline=guideline,
        database_=database,
    ).records
    load_id = records[0]["load_id"] if records else None
    if load_id is None:
        return {"load_id": None, "nodes": {}, "relationships": {}}
    with driver.session(database=database) as session:
        nodes, rels = _load_counts(session, guideline, load_id)
    return {"load_id": load_id, "nodes": nodes, "relationships": rels}
