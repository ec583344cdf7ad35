"""The README's example Cypher queries, run as written against the real Neo4j after the
whole pipeline loaded a sample guideline; each answer is checked against the rules the
pipeline extracted (computed here independently of Cypher)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.cli.demo_graph import EXAMPLE_QUERIES, parse_readme_queries, run_query
from cardio_assets.records import ConceptRef, ConditionTest, ExtractedRule, ParameterTest

README = Path(__file__).resolve().parent.parent / "README.md"


def value(threshold: float | list[float]) -> float | tuple[float, ...]:
    """Thresholds comparable across Python and Cypher (a range is a [low, high] list)."""
    return tuple(float(t) for t in threshold) if isinstance(threshold, list) else float(threshold)


def name(ref: ConceptRef) -> str:
    """The Concept node's ``name``: the FSN when grounded, else the normalized term."""
    return ref.grounding.preferred_term if ref.grounding else ref.normalized


@pytest.fixture(scope="module")
def readme_queries():
    queries = parse_readme_queries(README.read_text(encoding="utf-8"))
    assert len(queries) == 3, "README must hold three ```cypher blocks with a :param line"
    return queries


def test_readme_and_demo_print_the_same_queries(readme_queries) -> None:
    assert [(q.params, q.cypher) for q in readme_queries] == [
        (q.params, q.cypher) for q in EXAMPLE_QUERIES
    ]


def _mine(rows: list[dict], guideline: str) -> list[dict]:
    """Other tests load other guidelines into the same server: keep the sample's rows."""
    return [r for r in rows if str(r["rule"]).startswith(f"{guideline}:")]


def test_class_i_recommendations_for_a_condition(readme_queries, loaded_sample, neo4j_driver):
    query = readme_queries[0]
    term, wanted_class = query.params["condition"].lower(), query.params["class"]
    rows = _mine(run_query(neo4j_driver, query), loaded_sample.guideline)
    by_id = {r.id: r for r in loaded_sample.rules}
    expected = {
        r.id
        for r in loaded_sample.rules
        if r.class_ == wanted_class
        and r.logic
        and any(
            isinstance(leaf, ConditionTest)
            and not leaf.negated
            and term in name(leaf.concept).lower()
            for leaf in r.logic.leaves()
        )
    }
    assert expected, "the sample should hold class I rules for this condition"
    assert {row["rule"] for row in rows} == expected
    for row in rows:
        rule: ExtractedRule = by_id[row["rule"]]
        assert row["guideline"] == loaded_sample.guideline
        assert (row["class"], row["level"]) == (rule.class_, rule.level)
        assert row["evidence"] == rule.text  # the SourceRow carries the row text
        assert row["section"] == rule.provenance.section


def test_parameter_thresholds(readme_queries, loaded_sample, neo4j_driver):
    query = readme_queries[1]
    term = query.params["parameter"].lower()
    rows = _mine(run_query(neo4j_driver, query), loaded_sample.guideline)
    expected = {
        (r.id, leaf.operator, value(leaf.threshold), leaf.unit)
        for r in loaded_sample.rules
        if r.logic
        for leaf in r.logic.leaves()
        if isinstance(leaf, ParameterTest) and term in name(leaf.concept).lower()
    }
    assert expected, "the sample should test an ejection fraction threshold"
    assert {
        (row["rule"], row["operator"], value(row["threshold"]), row["unit"]) for row in rows
    } == expected
    by_id = {r.id: r for r in loaded_sample.rules}
    for row in rows:
        rule = by_id[row["rule"]]
        assert sorted(row["actions"]) == sorted({name(a.concept) for a in rule.actions})


def test_recommended_against(readme_queries, loaded_sample, neo4j_driver):
    query = readme_queries[2]
    rows = _mine(run_query(neo4j_driver, query), loaded_sample.guideline)
    expected = {
        (r.id, name(a.concept), a.concept.grounding.snomed_id if a.concept.grounding else None)
        for r in loaded_sample.rules
        for a in r.actions
        if a.polarity == query.params["polarity"]
    }
    assert expected, "the sample should hold class III rows"
    assert {(row["rule"], row["action"], row["snomed_id"]) for row in rows} == expected
    by_id = {r.id: r for r in loaded_sample.rules}
    for row in rows:
        rule = by_id[row["rule"]]
        leaves = rule.logic.leaves() if rule.logic else []
        assert sorted(row["conditions"]) == sorted({name(leaf.concept) for leaf in leaves})


ROLE_OF_EDGE = {
    "CHECKS_FOR": "Condition",
    "EVALUATES": "ClinicalParameter",
    "RECOMMENDS_PROCEDURE": "Procedure",
    "RECOMMENDS_MEDICATION": "Medication",
    "RESULTS_IN": "Outcome",
    "LOOKS_FOR": "Condition",  # what a recommended test is meant to find (lexicon: a Condition)
}


def test_concepts_carry_a_label_for_every_role_they_play(loaded_sample, neo4j_driver):
    """Browser users write (c:Condition): a concept used as a condition in one row and as
    an outcome in another must carry both labels."""
    rows = neo4j_driver.execute_query(
        """
        MATCH (g:Guideline {id: $g})
        MATCH (r:Recommendation {guideline: $g}) WHERE r.load_id = g.current_load_id
        MATCH (r)<-[:LEADS_TO*0..]-(s)-[e]->(c:Concept)
        RETURN DISTINCT type(e) AS rel, labels(c) AS labels, c.name AS name
        """,
        g=loaded_sample.guideline,
    ).records
    assert rows
    missing = [(r["name"], r["rel"]) for r in rows if ROLE_OF_EDGE[r["rel"]] not in r["labels"]]
    assert not missing, f"concepts without the label of a role they play: {missing[:5]}"
