"""``cardio audit ID [--json]``: everything a reviewer needs to trust one graph node.

ID is a SNOMED CT id (a grounded concept), a rule id ("<guideline>:<table>:r<n>") or a
Neo4j element id. The report walks the whole chain back to the source: the graph node
and its edges, the rules using it, the merged concept, the raw MAIN and POPULATION pass
outputs (backend, model, prompt hash, cached or live), the grounding candidates with
their scores and filter decisions, the row with header, footnotes, section and pages,
the source file and its sha256, and the Dagster run that produced each step.

Why it reads stored records instead of recomputing: an audit must show what the
pipeline DID, not what today's code would do. It opens the warehouse read-only and works
without Neo4j (the graph section then says why it is missing).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from cardio_assets import paths
from cardio_assets.logic.extracted_rules import rule_outline
from cardio_assets.records import (
    ExtractedRule,
    GroundingCandidate,
    GroundingOutcome,
    MergedRow,
    RowExtraction,
    RowRecord,
)

MAX_EDGES = 40
_SCTID = re.compile(r"^[1-9][0-9]{5,17}$")


class AuditError(click.ClickException):
    """The ID is unknown everywhere the audit looked (says where it looked)."""

    exit_code = 2


# --------------------------------------------------------------------------- warehouse


class Warehouse:
    """Read-only access to the stored records of every stage (one short connection each)."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path

    def read(self, table: str, model: type, guideline: str | None) -> list[Any]:
        from resources.duckdb_io_manager import read_records

        return read_records(self.db_path, table, model, [guideline] if guideline else None)

    def rules(self, guideline: str | None = None) -> list[ExtractedRule]:
        return self.read("extracted_rules", ExtractedRule, guideline)


def _rule_guideline(rule_id: str) -> str | None:
    head = rule_id.split(":", 1)[0]
    return head if ":" in rule_id and head else None


def _uses_concept(rule: ExtractedRule, snomed_id: str) -> bool:
    return any(c.grounding and c.grounding.snomed_id == snomed_id for c in rule.concepts())


def _grounded_terms(rules: list[ExtractedRule], snomed_id: str) -> list[tuple[str, str]] | None:
    """Every (role, term) under which the rules use a SNOMED concept ("HF", "heart failure"
    and an Outcome use may all ground to one id); None when no rule uses it."""
    terms = {
        (c.role, c.normalized): None
        for rule in rules
        for c in rule.concepts()
        if c.grounding and c.grounding.snomed_id == snomed_id
    }
    return list(terms) or None


def _uses_unmapped(rule: ExtractedRule, role: str, normalized: str) -> bool:
    return any(
        c.grounding is None and c.role == role and c.normalized == normalized
        for c in rule.concepts()
    )


# --------------------------------------------------------------------------- graph


def _neo4j_resource():  # type: ignore[no-untyped-def]
    """The same connection settings as the pipeline (environment, else the local launcher)."""
    from resources.neo4j_resource import neo4j_resource_from_env

    return neo4j_resource_from_env(
        resolved=True, connection_timeout_s=3.0, max_transaction_retry_s=3.0
    )


def quiet_neo4j_notifications() -> None:
    """Server hints such as "label does not exist yet" (an empty graph) are not errors
    here; the driver logs them as warnings, which would bury the report."""
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)  # neo4j temporal types


_NODE_QUERY = {
    "element": "MATCH (n) WHERE elementId(n) = $value RETURN n LIMIT 1",
    "snomed": "MATCH (n:Concept {snomed_id: $value}) RETURN n LIMIT 1",
    # the guideline's CURRENT version (an older one may still exist during a switch)
    "rule": (
        "MATCH (n:Recommendation {rule_id: $value}) "
        "OPTIONAL MATCH (g:Guideline {id: n.guideline}) "
        "WITH n, g ORDER BY CASE WHEN n.load_id = g.current_load_id THEN 0 ELSE 1 END "
        "RETURN n LIMIT 1"
    ),
}
_EDGES_QUERY = """
MATCH (n) WHERE elementId(n) = $id
MATCH (n)-[r]-(o)
WITH n, r, o ORDER BY type(r), elementId(o)
RETURN type(r) AS type,
       CASE WHEN startNode(r) = n THEN 'out' ELSE 'in' END AS direction,
       properties(r) AS props, elementId(o) AS other_id, labels(o) AS other_labels,
       coalesce(o.name, o.rule_id, o.table_id, o.id, o.uid) AS other_name
LIMIT $limit
"""
_EDGE_COUNT_QUERY = "MATCH (n)-[r]-() WHERE elementId(n) = $id RETURN count(r) AS n"
_EDGE_KEYS = ("operator", "threshold", "unit", "negated", "class", "level", "polarity",
              "grounding_score", "rule_id", "load_id")  # fmt: skip


def graph_lookup(kind: str, value: str) -> dict[str, Any]:
    """The node (and its edges) for an id; ``available: False`` with the reason if Neo4j
    cannot be reached, so the rest of the audit still prints."""
    from cardio_assets.neo4j_driver import neo4j_module

    neo4j = neo4j_module()

    from resources.neo4j_resource import Neo4jSettingsError

    quiet_neo4j_notifications()
    resource = _neo4j_resource()
    try:
        with resource.driver() as driver:
            db = resource.database
            records = driver.execute_query(_NODE_QUERY[kind], value=value, database_=db).records
            if not records:
                return {"available": True, "found": False, "where": resource.settings().uri}
            node = records[0]["n"]
            edges = driver.execute_query(
                _EDGES_QUERY, id=node.element_id, limit=MAX_EDGES, database_=db
            ).records
            total = driver.execute_query(
                _EDGE_COUNT_QUERY, id=node.element_id, database_=db
            ).records[0]["n"]
            return {
                "available": True,
                "found": True,
                "where": resource.settings().uri,
                "node": {
                    "element_id": node.element_id,
                    "labels": sorted(node.labels),
                    "properties": _jsonable(dict(node)),
                },
                "edges_total": total,
                "edges": [
                    {
                        "type": e["type"],
                        "direction": e["direction"],
                        "other": {
                            "element_id": e["other_id"],
                            "labels": sorted(e["other_labels"]),
                            "name": _jsonable(e["other_name"]),
                        },
                        "properties": {
                            k: _jsonable(v) for k, v in e["props"].items() if k in _EDGE_KEYS
                        },
                    }
                    for e in edges
                ],
            }
    except (Neo4jSettingsError, neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as exc:
        return {"available": False, "error": str(exc)}
    except OSError as exc:
        return {"available": False, "error": f"cannot reach Neo4j: {exc}"}


# --------------------------------------------------------------------------- dagster


def dagster_runs(guideline: str, assets: Iterable[str] | None = None) -> dict[str, Any]:
    """Last materialization (run id, time, code version) of each step for the partition;
    the steps are the Definitions' partitioned assets, upstream first."""
    try:
        from cardio_assets.cli.instance import (
            last_materialization,
            open_instance,
            pipeline_assets,
        )

        if assets is None:
            assets = pipeline_assets()
        with open_instance() as instance:
            home = os.environ["DAGSTER_HOME"]  # open_instance resolved and set it
            steps: dict[str, Any] = {}
            for asset in assets:
                last = last_materialization(instance, asset, guideline)
                steps[asset] = (
                    None
                    if last is None
                    else {
                        "run_id": last.run_id,
                        "timestamp": last.timestamp,
                        "code_version": last.code_version,
                    }
                )
            return {"available": True, "instance": home, "steps": steps}
    except Exception as exc:  # noqa: BLE001 - no instance is a fact to report, not a crash
        return {"available": False, "error": f"{type(exc).__name__}: {exc}"}


# --------------------------------------------------------------------------- chain


def _row_section(row: RowRecord | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "row_id": row.id,
        "row_text": row.row_text,
        "header": row.header,
        "class": row.class_,
        "level": row.level,
        "section": row.section,
        "footnotes": row.footnotes,
        "pages": row.pages or "unknown",
        "table_id": row.table_id,
        "table_title": row.table_title,
        "source_file": row.source_file,
        "source_sha256": row.source_sha256,
        "cell_sha256": row.cell_sha256,
    }


def _pass_section(extraction: RowExtraction | None) -> dict[str, Any] | None:
    if extraction is None:
        return None
    return {
        "backend": extraction.backend,
        "model": extraction.model,
        "prompt_hash": extraction.prompt_hash,
        "input_hash": extraction.input_hash,
        "response": "cached" if extraction.cached else "live",
        "error": extraction.error,
        "concepts": [
            f"{c.role}: {c.normalized or c.text}"
            + (f" {c.operator} {c.threshold}{c.unit or ''}" if c.operator else "")
            + (f" [{c.or_group}]" if c.or_group else "")
            + (" (negated)" if c.negated else "")
            for c in extraction.concepts
        ],
        "actions": [
            f"{a.role}: {a.normalized or a.text} ({a.class_ or '?'}/{a.level or '?'}, {a.polarity})"
            for a in extraction.actions
        ],
        "raw_output": extraction.raw_output,
    }


def _grounding_section(
    role: str,
    term: str,
    outcomes: dict[tuple[str, str], GroundingOutcome],
    candidates: dict[tuple[str, str], list[GroundingCandidate]],
) -> dict[str, Any]:
    outcome = outcomes.get((role, term))
    decisions = {d.concept_id: d for d in outcome.decisions} if outcome else {}
    rows = []
    for cand in sorted(candidates.get((role, term), []), key=lambda c: c.rank):
        decision = decisions.get(cand.concept_id)
        rows.append(
            {
                "rank": cand.rank,
                "concept_id": cand.concept_id,
                "fsn": cand.fsn,
                "matched_term": cand.matched_term,
                "score": cand.score,
                "score_components": cand.score_components,
                "kept": decision.kept if decision else None,
                "selected": decision.selected if decision else False,
                "decision": decision.reason if decision else "no decision recorded",
                "checks": [c.model_dump() for c in decision.checks] if decision else [],
            }
        )
    entry = outcome.entry if outcome else None
    return {
        "role": role,
        "term": term,
        "selected": entry.model_dump(mode="json") if entry else None,
        "unmapped_reason": outcome.unmapped_reason if outcome else "no grounding outcome stored",
        "candidates": rows,
    }


def _merged_concepts(merged: MergedRow | None, focus: set[tuple[str, str]] | None) -> list[dict]:
    if merged is None:
        return []
    return [
        c.model_dump(mode="json")
        for c in merged.concepts
        if focus is None or (c.role, c.normalized) in focus
    ]


def _chain(
    wh: Warehouse,
    guideline: str,
    rules: list[ExtractedRule],
    focus_terms: list[tuple[str, str]] | None,
) -> dict[str, Any]:
    """Per rule: row, passes, merged concepts; per term: grounding candidates."""
    rows = {r.id: r for r in wh.read("table_rows", RowRecord, guideline)}
    main = {e.row_id: e for e in wh.read("main_extractions", RowExtraction, guideline)}
    population = {e.row_id: e for e in wh.read("population_extractions", RowExtraction, guideline)}
    merged = {m.row_id: m for m in wh.read("merged_concepts", MergedRow, guideline)}
    outcomes = {
        (o.role, o.term): o for o in wh.read("grounding_index", GroundingOutcome, guideline)
    }
    candidates: dict[tuple[str, str], list[GroundingCandidate]] = {}
    for cand in wh.read("grounding_candidates", GroundingCandidate, guideline):
        candidates.setdefault((cand.role, cand.term), []).append(cand)

    terms: dict[tuple[str, str], None] = {}
    rule_sections = []
    for rule in rules:
        row_id = rule.provenance.row_id
        concept_terms = [(c.role, c.normalized) for c in rule.concepts()]
        for key in focus_terms or concept_terms:
            terms.setdefault(key, None)
        focus = set(focus_terms) if focus_terms else None
        rule_sections.append(
            {
                "rule_id": rule.id,
                "outline": rule_outline(rule),
                "class": rule.class_,
                "level": rule.level,
                "polarity": rule.polarity,
                "provenance": rule.provenance.model_dump(mode="json"),
                "rule": rule.model_dump(mode="json", by_alias=True),
                "row": _row_section(rows.get(row_id)),
                "merged_concepts": _merged_concepts(merged.get(row_id), focus),
                "merge_errors": merged[row_id].errors if row_id in merged else [],
                "passes": {
                    "MAIN": _pass_section(main.get(row_id)),
                    "POPULATION": _pass_section(population.get(row_id)),
                },
            }
        )
    return {
        "guideline": guideline,
        "rules": rule_sections,
        "grounding": [_grounding_section(r, t, outcomes, candidates) for r, t in terms],
        "dagster": dagster_runs(guideline),
    }


def audit(identifier: str, warehouse: Path | None = None, max_rules: int = 5) -> dict[str, Any]:
    """The audit report of one ID as a JSON-ready dict (``found`` False when unknown)."""
    identifier = identifier.strip()
    wh = Warehouse(warehouse or paths.warehouse_path())
    report: dict[str, Any] = {"id": identifier, "warehouse": str(wh.db_path)}
    if not wh.db_path.exists():
        raise AuditError(
            f"no warehouse at {wh.db_path}: materialize the pipeline first (`make demo`), "
            "or point CARDIO_HOME at the folder that holds warehouse.duckdb"
        )
    kind: str | None = None
    rules: list[ExtractedRule] = []
    focus: list[tuple[str, str]] | None = None
    graph: dict[str, Any] | None = None

    if _SCTID.match(identifier):
        kind = "concept"
        rules = [r for r in wh.rules() if _uses_concept(r, identifier)]
        focus = _grounded_terms(rules, identifier)
        graph = graph_lookup("snomed", identifier)
    else:
        guideline = _rule_guideline(identifier)
        found = [r for r in wh.rules(guideline) if r.id == identifier] if guideline else []
        if found:
            kind, rules = "rule", found
            graph = graph_lookup("rule", identifier)
        else:
            graph = graph_lookup("element", identifier)
            node = graph.get("node") if graph.get("found") else None
            if node is not None:
                kind, rules, focus = _from_node(wh, node)
    report["kind"] = kind or "unknown"
    report["graph"] = graph

    if kind in ("concept", "unmapped concept") and rules and focus:
        report["concept"] = next(
            (c.model_dump(mode="json") for r in rules for c in r.concepts()
             if (c.role, c.normalized) == focus[0]),
            None,
        )  # fmt: skip
    known = bool(rules) or bool(graph and graph.get("found"))
    report["found"] = known
    report["rules_total"] = len(rules)
    by_guideline: dict[str, list[ExtractedRule]] = {}
    for rule in rules[:max_rules]:
        by_guideline.setdefault(rule.guideline, []).append(rule)
    report["rules_shown"] = min(len(rules), max_rules)
    report["chains"] = [_chain(wh, g, rs, focus) for g, rs in by_guideline.items()]
    return report


def _from_node(
    wh: Warehouse, node: dict[str, Any]
) -> tuple[str, list[ExtractedRule], list[tuple[str, str]] | None]:
    """Map a graph node to what the warehouse knows: concept, unmapped concept or rule."""
    props = node["properties"]
    labels = set(node["labels"])
    if "Concept" in labels and props.get("snomed_id"):
        sctid = str(props["snomed_id"])
        rules = [r for r in wh.rules() if _uses_concept(r, sctid)]
        return "concept", rules, _grounded_terms(rules, sctid)
    if "Concept" in labels and props.get("unmapped_key"):
        guideline, role, normalized = str(props["unmapped_key"]).split("|", 2)
        rules = [r for r in wh.rules(guideline) if _uses_unmapped(r, role, normalized)]
        return "unmapped concept", rules, [(role, normalized)]
    rule_id = props.get("rule_id")
    if rule_id:
        guideline = _rule_guideline(str(rule_id))
        return "rule", [r for r in wh.rules(guideline) if r.id == rule_id], None
    guideline = props.get("guideline") or props.get("id")
    table_id = props.get("table_id")
    if guideline and table_id:  # SourceTable: its rules
        return "table", [r for r in wh.rules(guideline) if r.provenance.table_id == table_id], None
    return "node", [], None


# --------------------------------------------------------------------------- text


def _short(value: Any, width: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def render_text(report: dict[str, Any]) -> str:
    out: list[str] = []
    add = out.append
    add(f"AUDIT {report['id']}  ({report['kind']}; warehouse {report['warehouse']})")
    graph = report.get("graph") or {}
    add("\n== Graph (Neo4j)")
    if not graph.get("available"):
        add(f"  Neo4j not reachable: {graph.get('error')} -- showing the warehouse side only")
    elif not graph.get("found"):
        add(f"  no node for this id in {graph.get('where')} (not loaded yet?)")
    else:
        node = graph["node"]
        props = node["properties"]
        add(f"  node {node['element_id']} :{':'.join(node['labels'])}  ({graph['where']})")
        for key in sorted(props):
            add(f"    {key}: {_short(props[key], 160)}")
        add(f"  edges ({graph['edges_total']}, first {len(graph['edges'])}):")
        for e in graph["edges"]:
            arrow = "->" if e["direction"] == "out" else "<-"
            extra = ", ".join(f"{k}={v}" for k, v in e["properties"].items() if k != "load_id")
            add(
                f"    {arrow} [{e['type']}] {arrow} :{':'.join(e['other']['labels'])} "
                f"{_short(e['other']['name'], 80)}" + (f"  {{{extra}}}" if extra else "")
            )
    if report.get("concept"):
        c = report["concept"]
        g = c.get("grounding") or {}
        add("\n== Concept")
        add(f"  {c['role']}: {c['normalized']} (text {c['text']!r})")
        add(
            f"  grounded to {g['snomed_id']} {g['preferred_term']} score {g['score']}"
            if g
            else f"  unmapped: {c.get('unmapped_reason')}"
        )
    add(f"\n== Rules using it: {report['rules_total']} (chain shown for {report['rules_shown']})")
    for chain in report["chains"]:
        add(f"\n-- guideline {chain['guideline']}")
        for r in chain["rules"]:
            p = r["provenance"]
            add(f"\n  RULE {r['rule_id']}  {r['outline']}")
            add(
                f"    provenance: passes {p['passes']}, backend {p['backend']}, model "
                f"{p['model']}, prompt hash {p['prompt_hash']}, config hash {p['config_hash']}, "
                f"run {p['run_id']}"
            )
            row = r["row"]
            if row is None:
                add("    row: not in the warehouse (table_rows not materialized?)")
            else:
                add(f"    ROW {row['row_id']}: {row['row_text']}")
                add(
                    f"      header: {' | '.join(row['header'])}  class {row['class']} level {row['level']}"
                )
                add(f"      section: {row['section']}   pages: {row['pages']}")
                add(f"      table: {row['table_id']} {row['table_title'] or ''}")
                for note in row["footnotes"]:
                    add(f"      footnote: {_short(note, 200)}")
                add(f"      source: {row['source_file']}  sha256 {row['source_sha256']}")
                add(f"      cells sha256 {row['cell_sha256']}")
            add("    MERGED concepts:")
            for c in r["merged_concepts"]:
                measure = (
                    f" {c['operator']} {c['threshold']}{c['unit'] or ''}" if c["operator"] else ""
                )
                flags = [f for f, on in (("population", c["is_population"]),
                                         ("negated", c["negated"])) if on]  # fmt: skip
                group = f" OR-group {c['or_group']}" if c["or_group"] else ""
                add(
                    f"      {c['role']}: {c['normalized']}{measure}{group} "
                    f"from {c['sources']} {' '.join(flags)}".rstrip()
                )
            for focus_name, section in r["passes"].items():
                if section is None:
                    add(f"    {focus_name} pass: no stored output")
                    continue
                add(
                    f"    {focus_name} pass: backend {section['backend']}, model {section['model']}, "
                    f"prompt hash {section['prompt_hash']}, {section['response']}"
                    + (f", ERROR {section['error']}" if section["error"] else "")
                )
                add(f"      concepts: {'; '.join(section['concepts']) or '-'}")
                if section["actions"]:
                    add(f"      actions: {'; '.join(section['actions'])}")
                add(f"      raw: {_short(section['raw_output'] or '', 300)}")
        add("\n  GROUNDING")
        for g in chain["grounding"]:
            sel = g["selected"]
            head = (
                f"{sel['snomed_id']} {sel['preferred_term']} ({sel['score']})"
                if sel
                else f"UNMAPPED: {g['unmapped_reason']}"
            )
            add(f"    {g['role']} '{g['term']}' -> {head}")
            for c in g["candidates"][:8]:
                verdict = "SELECTED" if c["selected"] else ("kept" if c["kept"] else "dropped")
                add(
                    f"      #{c['rank']} {c['concept_id']} {_short(c['fsn'], 70)} "
                    f"score {c['score']:.3f} {verdict}: {_short(c['decision'], 160)}"
                )
            if len(g["candidates"]) > 8:
                add(f"      ... {len(g['candidates']) - 8} more candidates (see --json)")
        runs = chain["dagster"]
        add("\n  DAGSTER runs (last materialization of each step for this partition)")
        if not runs.get("available"):
            add(f"    instance not readable: {runs.get('error')}")
        else:
            for asset, step in runs["steps"].items():
                add(
                    f"    {asset:24s} "
                    + (f"run {step['run_id']}  code {step['code_version']}" if step else "never")
                )
    return "\n".join(out)


@click.command("audit")
@click.argument("identifier")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@click.option("--max-rules", default=5, show_default=True, help="Full chains shown per ID.")
def audit_command(identifier: str, as_json: bool, max_rules: int) -> None:
    """Trace a graph node (SNOMED id, rule id or Neo4j element id) back to its source row."""
    report = audit(identifier, max_rules=max_rules)
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        click.echo(render_text(report))
    if not report["found"]:
        graph = report.get("graph") or {}
        where = "the warehouse" + (
            " and Neo4j" if graph.get("available") else " (Neo4j not reachable)"
        )
        click.echo(
            f"unknown id {identifier!r}: not a rule id, SNOMED id or element id found in {where}",
            err=True,
        )
        sys.exit(2)
