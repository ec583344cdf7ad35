"""Synthetic ExtractedRule partitions for the Neo4j loader's tests and benchmark.

Deterministic for a seed, no clinical text: concept ids are made-up SCTID-shaped numbers
(9xxxxxxxx) that never collide with real SNOMED CT content of the sample. A typical rule is
IF condition AND parameter test THEN procedure, i.e. 6 relationships with its evidence
(HAS_ROW, DERIVED_FROM, LEADS_TO, CHECKS_FOR, EVALUATES, RECOMMENDS_PROCEDURE); every
fifth rule adds an OR group with an unmapped condition, every seventh an outcome.
"""

from __future__ import annotations

import random

from cardio_assets.records import (
    ConceptGrounding,
    ConceptRef,
    ConditionTest,
    ExtractedRule,
    ParameterTest,
    RuleAction,
    RuleNode,
    RuleProvenance,
)

SYNTHETIC_SCTID_BASE = 900_000_000


def synthetic_concept(role: str, index: int, *, mapped: bool = True) -> ConceptRef:
    """Concept number ``index`` of a role; the same (role, index) always maps the same way."""
    offset = {"Condition": 0, "ClinicalParameter": 1, "Procedure": 2, "Medication": 3}.get(role, 4)
    name = f"synthetic {role.lower()} {index}"
    if not mapped:
        return ConceptRef(
            role=role,
            text=name,
            normalized=name,
            unmapped_reason="synthetic: no candidate above min_match_score",
            passes=["MAIN"],
        )
    return ConceptRef(
        role=role,
        text=name,
        normalized=name,
        grounding=ConceptGrounding(
            snomed_id=str(SYNTHETIC_SCTID_BASE + offset * 1_000_000 + index),
            preferred_term=f"Synthetic {role} {index} (synthetic)",
            score=0.9,
            target_label=role,
        ),
        passes=["MAIN"],
    )


def synthetic_rules(
    guideline: str,
    n_rules: int,
    *,
    seed: int = 0,
    concept_pool: int = 200,
    rules_per_table: int = 50,
    revision: int = 0,
) -> list[ExtractedRule]:
    """``n_rules`` valid rules for one guideline; ``revision`` changes wording, class and
    thresholds (a re-extracted guideline) while keeping the same row ids."""
    rng = random.Random(f"{seed}:{revision}")
    rules: list[ExtractedRule] = []
    for i in range(n_rules):
        table = f"t{i // rules_per_table + 1}"
        row_id = f"{guideline}:{table}:r{i % rules_per_table + 1}"
        children: list = [
            ConditionTest(concept=synthetic_concept("Condition", rng.randrange(concept_pool))),
            ParameterTest(
                concept=synthetic_concept("ClinicalParameter", rng.randrange(concept_pool)),
                operator=rng.choice(["<", "<=", ">", ">="]),
                threshold=float(rng.randrange(10, 90) + revision),
                unit="%",
            ),
        ]
        if i % 5 == 4:
            children[0] = RuleNode(
                op="OR",
                children=[
                    children[0],
                    ConditionTest(
                        concept=synthetic_concept(
                            "Condition", rng.randrange(concept_pool), mapped=False
                        )
                    ),
                ],
            )
        outcomes = [synthetic_concept("Outcome", rng.randrange(concept_pool))] if i % 7 == 6 else []
        klass = rng.choice(["I", "IIa", "IIb", "III"])
        rules.append(
            ExtractedRule(
                id=row_id,
                guideline=guideline,
                text=f"Synthetic recommendation {i} (revision {revision}).",
                **{"class": klass},
                level=rng.choice(["A", "B", "C"]),
                polarity="not recommended" if klass == "III" else "recommended",
                logic=RuleNode(op="AND", children=children),
                actions=[
                    RuleAction(
                        concept=synthetic_concept(
                            "Procedure" if i % 3 else "Medication", rng.randrange(concept_pool)
                        ),
                        **{"class": klass},
                    )
                ],
                outcomes=outcomes,
                provenance=RuleProvenance(
                    guideline=guideline,
                    guideline_title=f"Synthetic guideline {guideline}",
                    table_id=table,
                    row_id=row_id,
                    row_index=i % rules_per_table + 1,
                    pages=[i // rules_per_table + 1],
                    source_file=f"synthetic/{guideline}.md",
                    source_sha256=f"{seed:064x}",
                    passes=["MAIN", "POPULATION"],
                    backend="lexicon",
                    config_hash=f"synthetic-{revision}",
                    run_id=f"synthetic-run-{revision}",
                ),
            )
        )
    return rules
