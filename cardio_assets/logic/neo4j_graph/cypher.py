"""The Cypher side of a load: the graph's fixed vocabulary and every statement's text.

Labels and relationship types come only from the allowlists below and are validated
before use (``_label``, ``_rel``); statement texts are constants built from constant keys,
and every value travels as a query parameter (``$rows``, ``$common``, ``$profiles``,
``$concepts``), so no rule's text can ever become Cypher.
"""

from __future__ import annotations

import re

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
        "LOOKS_FOR",
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
# another printing of a rule already written (a summary table and its section table): one
# Recommendation, one more SourceRow
_Q_REPRINTED_ROWS = f"""
UNWIND $rows AS row
MATCH (t:SourceTable {{uid: row.table_uid}}), (rec:Recommendation {{uid: row.uid}})
WITH t, rec, row, $profiles[row.pi] AS prof
CREATE (t)-[:HAS_ROW {_map(*_PROV_RULE)}]->
       (s:SourceRow {_map(("row.row_props", ROW_KEYS), *_PROV_RULE, uid="row.row_uid")})
       <-[:DERIVED_FROM {_map(*_PROV_RULE)}]-(rec)
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
        (
            "Recommendation",
            ("RESULTS_IN", "LOOKS_FOR", "RECOMMENDS_PROCEDURE", "RECOMMENDS_MEDICATION"),
        ),
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


_Q_TABLE_PAGES = """
UNWIND $rows AS row
MATCH (t:SourceTable {uid: row.uid})
SET t.pages = row.pages
RETURN count(*) AS n
"""
