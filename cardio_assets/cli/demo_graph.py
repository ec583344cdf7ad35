"""The graph half of ``cardio demo``: start the local Neo4j, summarize what was loaded and
run the example Cypher queries of the README.

Why a module of its own: demo.py drives Dagster; this part only talks to Neo4j, and
tests/test_readme_queries.py checks that the queries here are the README's, word for word.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

import click

# --------------------------------------------------------------------------- queries


@dataclass(frozen=True)
class ExampleQuery:
    title: str
    params: dict[str, str]
    cypher: str

    def readme_block(self) -> str:
        """The README code block (cypher-shell / Browser: run the :param line first)."""
        values = ", ".join(f"{k}: '{v}'" for k, v in self.params.items())
        return f":param {{{values}}}\n{self.cypher}"


# Only the current version of each guideline (r.load_id = g.current_load_id): a reload
# briefly keeps two versions side by side. The role of a concept is the edge that uses it
# (CHECKS_FOR = condition, EVALUATES = parameter): one SNOMED concept can play several roles.
EXAMPLE_QUERIES: tuple[ExampleQuery, ...] = (
    ExampleQuery(
        "Class I recommendations for a condition, with the evidence row of each",
        {"condition": "heart failure", "class": "I"},
        """MATCH (g:Guideline)
MATCH (c:Concept)<-[e:CHECKS_FOR]-(:Decision)-[:LEADS_TO*1..]->(r:Recommendation)
WHERE r.guideline = g.id AND r.load_id = g.current_load_id AND r.class = $class
  AND NOT e.negated AND toLower(c.name) CONTAINS toLower($condition)
MATCH (r)-[:DERIVED_FROM]->(row:SourceRow)
RETURN DISTINCT g.id AS guideline, r.rule_id AS rule, r.class AS class, r.level AS level,
       row.text AS evidence, row.section AS section, row.pages AS pages
ORDER BY guideline, rule""",
    ),
    ExampleQuery(
        "Thresholds: recommendations that test a clinical parameter, and against what",
        {"parameter": "ejection fraction"},
        """MATCH (g:Guideline)
MATCH (p:Concept)<-[e:EVALUATES]-(:Decision)-[:LEADS_TO*1..]->(r:Recommendation)
WHERE r.guideline = g.id AND r.load_id = g.current_load_id
  AND toLower(p.name) CONTAINS toLower($parameter)
OPTIONAL MATCH (r)-[:RECOMMENDS_PROCEDURE|RECOMMENDS_MEDICATION]->(a:Concept)
RETURN r.rule_id AS rule, p.name AS parameter, e.operator AS operator,
       e.threshold AS threshold, e.unit AS unit, collect(DISTINCT a.name) AS actions,
       r.class AS class
ORDER BY rule, operator""",
    ),
    ExampleQuery(
        "What is recommended against, when, and its SNOMED CT id",
        {"polarity": "not recommended"},
        """MATCH (g:Guideline)
MATCH (r:Recommendation)-[a:RECOMMENDS_PROCEDURE|RECOMMENDS_MEDICATION]->(x:Concept)
WHERE r.guideline = g.id AND r.load_id = g.current_load_id AND a.polarity = $polarity
OPTIONAL MATCH (c:Concept)<-[:CHECKS_FOR|EVALUATES]-(:Decision)-[:LEADS_TO*1..]->(r)
RETURN r.rule_id AS rule, r.class AS class, x.name AS action, x.snomed_id AS snomed_id,
       collect(DISTINCT c.name) AS conditions
ORDER BY rule, action""",
    ),
)

_PARAM_LINE = re.compile(r"^:param\s*\{(?P<body>.*)\}\s*$")
_PARAM_ITEM = re.compile(r"(\w+)\s*:\s*'((?:[^'\\]|\\.)*)'")


def parse_readme_queries(markdown: str) -> list[ExampleQuery]:
    """The ```cypher blocks of a README that start with a ``:param {...}`` line."""
    found = []
    for title, block in re.findall(
        r"^#{3,4} (.+?)\n+```cypher\n(.*?)\n```", markdown, flags=re.M | re.S
    ):
        first, _, cypher = block.partition("\n")
        match = _PARAM_LINE.match(first.strip())
        if match is None:
            continue
        params = dict(_PARAM_ITEM.findall(match.group("body")))
        found.append(ExampleQuery(title.strip(), params, cypher.strip()))
    return found


def run_query(driver: Any, query: ExampleQuery, database: str = "neo4j") -> list[dict[str, Any]]:
    return [
        r.data()
        for r in driver.execute_query(query.cypher, query.params, database_=database).records
    ]


# --------------------------------------------------------------------------- neo4j


def ensure_neo4j(echo=click.echo) -> str | None:  # type: ignore[no-untyped-def]
    """Use NEO4J_URI when set; otherwise start (or reuse) the local launcher. Returns an
    error message instead of raising, so the demo still runs the rest of the pipeline."""
    if os.environ.get("NEO4J_URI"):
        echo(f"Neo4j: using NEO4J_URI={os.environ['NEO4J_URI']}")
        return None
    from cardio_assets import neo4j_local

    try:
        status = neo4j_local.start()
    except neo4j_local.Neo4jLocalError as exc:
        return f"local Neo4j could not start: {exc}"
    echo(f"Neo4j: local launcher ready at {status.uri} (pid {status.pid})")
    return None


_TOTALS = """
MATCH (g:Guideline)
WITH collect(g.current_load_id) AS loads, count(g) AS guidelines
CALL (loads) { MATCH (n) WHERE n.load_id IN loads RETURN count(n) AS owned }
CALL (loads) {
  MATCH ()-[r]->(c:Concept) WHERE r.load_id IN loads AND c.snomed_id IS NOT NULL
  RETURN count(DISTINCT c) AS shared
}
CALL (loads) { MATCH ()-[r]->() WHERE r.load_id IN loads RETURN count(r) AS rels }
RETURN guidelines, guidelines + owned + shared AS nodes, shared AS snomed_concepts,
       rels AS relationships
"""
_BY_TYPE = """
MATCH (g:Guideline)
WITH collect(g.current_load_id) AS loads
MATCH ()-[r]->() WHERE r.load_id IN loads
RETURN type(r) AS type, count(r) AS n ORDER BY type
"""


def _meta(metadata: dict[str, Any], key: str) -> Any:
    value = metadata.get(key)
    return getattr(value, "value", value)


def pipeline_summary(by_guideline: dict[str, dict[str, dict[str, Any]]], echo=click.echo) -> None:  # type: ignore[no-untyped-def]
    """Rules, concepts and mapped share per guideline from the materialization metadata."""
    echo("\nguideline               rows  rules  dropped  concepts  mapped  share  graph rels")
    totals = {"rows": 0, "rules": 0, "dropped": 0, "terms": 0, "mapped": 0, "rels": 0}
    for guideline, assets in by_guideline.items():
        rules = assets.get("extracted_rules", {})
        grounding = assets.get("grounding_index", {})
        graph = assets.get("neo4j_graph", {})
        values = {
            "rows": _meta(rules, "rows") or 0,
            "rules": _meta(rules, "rules") or 0,
            "dropped": _meta(rules, "dropped") or 0,
            "terms": _meta(grounding, "terms") or 0,
            "mapped": _meta(grounding, "mapped") or 0,
            "rels": _meta(graph, "relationships_total") or 0,
        }
        for key, value in values.items():
            totals[key] += value
        share = values["mapped"] / values["terms"] if values["terms"] else 0.0
        echo(
            f"{guideline:22s} {values['rows']:5d} {values['rules']:6d} {values['dropped']:8d} "
            f"{values['terms']:9d} {values['mapped']:7d} {share:6.0%} {values['rels']:10d}"
        )
    share = totals["mapped"] / totals["terms"] if totals["terms"] else 0.0
    echo(
        f"{'total':22s} {totals['rows']:5d} {totals['rules']:6d} {totals['dropped']:8d} "
        f"{totals['terms']:9d} {totals['mapped']:7d} {share:6.0%} {totals['rels']:10d}"
    )
    echo(
        "(concepts = distinct role+term pairs grounded per guideline; share = mapped to SNOMED CT)"
    )


def graph_summary(echo=click.echo) -> bool:  # type: ignore[no-untyped-def]
    """Print what is loaded, how to connect, and the example queries with first results."""
    from cardio_assets.cli.audit import _neo4j_resource, quiet_neo4j_notifications

    quiet_neo4j_notifications()
    resource = _neo4j_resource()
    try:
        with resource.driver() as driver:
            settings = resource.settings()
            db = settings.database
            totals = driver.execute_query(_TOTALS, database_=db).records
            rels = driver.execute_query(_BY_TYPE, database_=db).records
            t = totals[0]
            echo(
                f"\nNeo4j {settings.uri} (database {db}): {t['guidelines']} guidelines, "
                f"{t['nodes']} nodes ({t['snomed_concepts']} SNOMED CT concepts), "
                f"{t['relationships']} relationships loaded"
            )
            echo("  by type: " + ", ".join(f"{r['type']}={r['n']}" for r in rels))
            _connect_help(settings, echo)
            for number, query in enumerate(EXAMPLE_QUERIES, 1):
                rows = run_query(driver, query, db)
                echo(f"\n[{number}] {query.title}  ({len(rows)} rows)")
                echo("    " + query.readme_block().replace("\n", "\n    "))
                for row in rows[:3]:
                    echo("  -> " + _one_line(row))
    except Exception as exc:  # noqa: BLE001 - the demo reports, never hides, the failure
        echo(f"\nNeo4j summary unavailable: {type(exc).__name__}: {exc}")
        return False
    return True


def _connect_help(settings: Any, echo) -> None:  # type: ignore[no-untyped-def]
    from cardio_assets import neo4j_local

    echo(f"  bolt address: {settings.uri}   user: {settings.user}")
    if settings.source == "local launcher":
        echo(f"  password: in {neo4j_local.local_paths().password_file} (0600, never printed)")
    echo(
        "  connect: cypher-shell -a "
        f'{settings.uri} -u {settings.user} -p "$(cat <password file>)"  or Neo4j Browser / '
        "Desktop: 'Connect to a remote DBMS' with that bolt:// URL"
    )
    echo("  trace any node back to its source row: cardio audit <snomed_id | rule id | element id>")


def _one_line(row: dict[str, Any], width: int = 200) -> str:
    text = "  ".join(f"{k}={v}" for k, v in row.items())
    return text if len(text) <= width else text[: width - 1] + "…"
