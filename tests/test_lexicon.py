"""The offline lexicon extraction backend: rules, terminology-driven roles, the resource.

Rows here are written for the tests in our own words (none is a sample-guideline row),
and go through the real abbreviation list and the real SNOMED CT sample store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import load_abbreviations
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.lexicon import (
    LexiconExtractor,
    clean_row_text,
    extract_parameters,
    footnote_abbreviations,
    term_lookup_from_searcher,
)
from cardio_assets.logic.merged_concepts import merge_row
from cardio_assets.records import RowRecord

ROOT = Path(__file__).resolve().parent.parent

# The worked example of docs/ARCHITECTURE.md: (role, normalized, operator, threshold, unit)
DESIGN_WORKED_EXAMPLE = {
    ("Condition", "chronic coronary syndrome", None, None, None),
    ("ClinicalParameter", "left ventricular ejection fraction", "<=", 35.0, "%"),
    ("Condition", "high surgical risk", None, None, None),
    ("Condition", "not operable", None, None, None),
    ("Procedure", "percutaneous coronary intervention", None, None, None),
}
WORKED_EXAMPLE_TEXT = (
    "In chronic coronary syndrome patients with LVEF <= 35% who are high surgical risk "
    "or not operable, PCI may be considered."
)


@pytest.fixture(scope="module")
def abbreviations() -> Abbreviations:
    return load_abbreviations(ROOT / "configs" / "abbreviations.txt")


@pytest.fixture(scope="module")
def store():  # type: ignore[no-untyped-def]
    from cardio_assets.terminology.location import open_store

    return open_store()  # the bundled sample, built under the test CARDIO_HOME


@pytest.fixture(scope="module")
def lexicon(abbreviations: Abbreviations, store) -> LexiconExtractor:  # type: ignore[no-untyped-def]
    return LexiconExtractor(abbreviations, term_lookup_from_searcher(store, abbreviations.mapping))


@pytest.fixture(scope="module")
def plain(abbreviations: Abbreviations) -> LexiconExtractor:
    """No terminology: rules and word heuristics only."""
    return LexiconExtractor(abbreviations)


def row(
    text: str, klass: str = "I", level: str = "A", footnotes: list[str] | None = None
) -> RowRecord:
    return RowRecord(
        id="test:table_000:r0",
        guideline="test",
        guideline_title="Test guideline",
        table_id="table_000",
        row_index=0,
        header=["Recommendations", "Class", "Level"],
        row_text=text,
        level=level,
        footnotes=footnotes or [],
        **{"class": klass},
    )


def merged(lx: LexiconExtractor, r: RowRecord, abbreviations: Abbreviations):  # type: ignore[no-untyped-def]
    return merge_row(lx.extract(r, "MAIN"), lx.extract(r, "POPULATION"), abbreviations)


def by_norm(concepts) -> dict:  # type: ignore[no-untyped-def]
    return {c.normalized: c for c in concepts}


# --------------------------------------------------------------------------- worked example


@pytest.mark.parametrize("use_terminology", [True, False])
def test_design_worked_example_gives_exactly_the_listed_set(
    use_terminology: bool, lexicon: LexiconExtractor, plain: LexiconExtractor, abbreviations
) -> None:
    lx = lexicon if use_terminology else plain
    out = merged(lx, row(WORKED_EXAMPLE_TEXT, "IIb", "B"), abbreviations)
    final = {(c.role, c.normalized, c.operator, c.threshold, c.unit) for c in out.concepts}
    assert final == DESIGN_WORKED_EXAMPLE
    c = by_norm(out.concepts)
    assert c["high surgical risk"].or_group == c["not operable"].or_group == "g1"
    assert c["chronic coronary syndrome"].or_group is None
    # the contract's population (section 9) holds every condition, alternatives included
    assert all(c[n].is_population for n in ("chronic coronary syndrome", "high surgical risk"))
    assert not c["left ventricular ejection fraction"].is_population
    assert not any(x.negated for x in out.concepts)
    # contract: a parameter's span holds name and value
    assert c["left ventricular ejection fraction"].text == "LVEF <= 35%"
    (action,) = out.actions
    assert (action.role, action.normalized, action.text) == (
        "Procedure",
        "percutaneous coronary intervention",
        "PCI",
    )
    assert (action.class_, action.level, action.polarity) == ("IIb", "B", "recommended")


def test_population_pass_returns_cohort_conditions_only(lexicon: LexiconExtractor) -> None:
    result = lexicon.extract(row(WORKED_EXAMPLE_TEXT, "IIb", "B"), "POPULATION")
    assert result.focus == "POPULATION" and result.backend == "lexicon"
    assert result.actions == []
    assert [(c.role, c.normalized, c.or_group) for c in result.concepts] == [
        ("Condition", "chronic coronary syndrome", None),
        ("Condition", "high surgical risk", "g1"),
        ("Condition", "not operable", "g1"),
    ]


def test_extraction_record_is_reproducible_and_keyed(lexicon: LexiconExtractor) -> None:
    r = row(WORKED_EXAMPLE_TEXT, "IIb", "B")
    first, second = lexicon.extract(r, "MAIN"), lexicon.extract(r, "MAIN")
    assert first == second  # deterministic, including hashes
    assert first.input_hash != lexicon.extract(r, "POPULATION").input_hash
    assert first.prompt_hash and first.model and first.raw_output and first.error is None


# --------------------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    ("phrase", "name", "operator", "threshold", "unit"),
    [
        ("patients with LVEF <= 35%", "left ventricular ejection fraction", "<=", 35.0, "%"),
        ("patients with LVEF ≤35%", "left ventricular ejection fraction", "<=", 35.0, "%"),
        (
            "patients with LVEF of 35% or less",
            "left ventricular ejection fraction",
            "<=",
            35.0,
            "%",
        ),
        (
            "patients with LVEF of at least 50%",
            "left ventricular ejection fraction",
            ">=",
            50.0,
            "%",
        ),
        (
            "patients with eGFR below 30 mL/min/1.73 m²",
            "estimated glomerular filtration rate",
            "<",
            30.0,
            "mL/min/1.73 m²",
        ),
        (
            "those with LDL-C ≥ 1.8 mmol/L",
            "low density lipoprotein cholesterol",
            ">=",
            1.8,
            "mmol/L",
        ),
        ("patients with systolic BP >140 mmHg", "systolic blood pressure", ">", 140.0, "mmHg"),
        (
            "patients with LVEF 36–49%",
            "left ventricular ejection fraction",
            "between",
            [36.0, 49.0],
            "%",
        ),
        (
            "patients with LVEF between 36 and 49%",
            "left ventricular ejection fraction",
            "between",
            [36.0, 49.0],
            "%",
        ),
        ("a resting heart rate above 70 bpm", "resting heart rate", ">", 70.0, "bpm"),
        ("an FFR of 0.80 or less", "fractional flow reserve", "<=", 0.8, None),
        ("serum potassium that remains >5.0 mmol/L", "serum potassium", ">", 5.0, "mmol/L"),
        ("patients aged ≥75 years", "age", ">=", 75.0, "years"),
    ],
)
def test_parameters_in_words_and_symbols(
    phrase: str,
    name: str,
    operator: str,
    threshold,
    unit,
    abbreviations,  # type: ignore[no-untyped-def]
) -> None:
    masked, params = extract_parameters(phrase, abbreviations)
    (p,) = params
    assert (p.name_normalized, p.operator, p.threshold, p.unit) == (name, operator, threshold, unit)
    assert "⟦P0⟧" in masked


def test_doses_and_durations_are_not_parameters(abbreviations: Abbreviations) -> None:
    text = clean_row_text("Clopidogrel 75 mg once daily for 12 months is recommended after PCI.")
    assert text == "Clopidogrel is recommended after PCI."
    _, params = extract_parameters("Aspirin 75–100 mg daily", abbreviations)
    assert params == []


def test_range_through_the_whole_row(lexicon: LexiconExtractor, abbreviations) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "In patients with HF and an LVEF 36–49%, an SGLT2 inhibitor should be considered.",
            "IIa",
            "B",
        ),
        abbreviations,
    )
    c = by_norm(out.concepts)
    lvef = c["left ventricular ejection fraction"]
    assert (lvef.role, lvef.operator, lvef.threshold, lvef.unit) == (
        "ClinicalParameter",
        "between",
        [36.0, 49.0],
        "%",
    )
    assert c["heart failure"].role == "Condition" and c["heart failure"].is_population


# --------------------------------------------------------------------------- polarity, class


@pytest.mark.parametrize(
    ("text", "klass", "polarity"),
    [
        (
            "Digoxin is not recommended in patients with HFrEF and sinus rhythm.",
            "III",
            "not recommended",
        ),
        (
            "Digoxin should not be used in patients with HFrEF and sinus rhythm.",
            "IIb",
            "not recommended",
        ),
        # every Class III row is a negative recommendation, whatever the verb says
        ("Routine digoxin is advised against in patients with HFrEF.", "III", "not recommended"),
        ("Digoxin may be considered in patients with HFrEF and AF.", "IIb", "recommended"),
    ],
)
def test_polarity(text: str, klass: str, polarity: str, lexicon: LexiconExtractor) -> None:
    result = lexicon.extract(row(text, klass, "C"), "MAIN")
    assert result.actions, result.raw_output
    assert {a.polarity for a in result.actions} == {polarity}
    assert {(a.class_, a.level) for a in result.actions} == {(klass, "C")}


# --------------------------------------------------------------------------- cohort vs action


def test_cohort_after_the_verb_and_outcomes(lexicon: LexiconExtractor, abbreviations) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "An ACE-I, a beta-blocker and an MRA are recommended in patients with HFrEF "
            "to reduce mortality and HF hospitalization."
        ),
        abbreviations,
    )
    c = by_norm(out.concepts)
    drugs = [
        "angiotensin-converting enzyme inhibitor",
        "beta-blocker",
        "mineralocorticoid receptor antagonist",
    ]
    for drug in drugs:
        assert c[drug].role == "Medication" and c[drug].or_group is None  # AND list: no group
    assert sorted(a.normalized for a in out.actions) == sorted(drugs)
    assert c["heart failure with reduced ejection fraction"].role == "Condition"
    assert c["mortality"].role == c["heart failure hospitalization"].role == "Outcome"
    assert c["heart failure hospitalization"].text == "HF hospitalization"


def test_alternatives_share_an_or_group_and_comparators_are_not_actions(
    lexicon: LexiconExtractor, abbreviations
) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "Apixaban or rivaroxaban is recommended in preference to warfarin in patients with AF."
        ),
        abbreviations,
    )
    c = by_norm(out.concepts)
    assert c["apixaban"].or_group == c["rivaroxaban"].or_group == "g1"
    assert {a.normalized for a in out.actions} == {"apixaban", "rivaroxaban"}
    assert c["warfarin"].role == "Medication" and c["warfarin"].or_group is None


@pytest.mark.parametrize(
    ("text", "negated_term"),
    [
        (
            "Anticoagulation is recommended in patients with AF without mechanical valves.",
            "mechanical valve",
        ),
        ("A statin is recommended in adults with no history of stroke.", "history of stroke"),
        (
            "Cardioversion is recommended in the absence of left atrial thrombus.",
            "left atrial thrombus",
        ),
    ],
)
def test_negation_cues(
    text: str, negated_term: str, lexicon: LexiconExtractor, abbreviations
) -> None:  # type: ignore[no-untyped-def]
    out = merged(lexicon, row(text), abbreviations)
    c = by_norm(out.concepts)
    assert c[negated_term].negated, out.concepts
    # the cohort is defined by its absence: the contract (section 9) keeps it in the
    # population, the flag carries the negation
    assert c[negated_term].is_population


@pytest.mark.parametrize("lead", ["without", "with no"])
def test_negated_disjunction_is_not_of_one_or_group(
    lexicon: LexiconExtractor, abbreviations, lead: str
) -> None:  # type: ignore[no-untyped-def]
    """ "without A or B" is NOT(OR(A, B)) (the contract, section 7): both concepts negated
    under one OR label, and the rule's logic reads the negated group by De Morgan as
    NOT A AND NOT B, never OR(NOT A, NOT B). "with no A or B" says the same."""
    out = merged(
        lexicon,
        row(f"Screening is not recommended in individuals {lead} diabetes or CKD.", "III", "C"),
        abbreviations,
    )
    c = by_norm(out.concepts)
    assert c["diabetes mellitus"].negated and c["chronic kidney disease"].negated
    assert c["diabetes mellitus"].or_group is not None
    assert c["diabetes mellitus"].or_group == c["chronic kidney disease"].or_group

    def has_or(node) -> bool:  # type: ignore[no-untyped-def]
        return node is not None and (node.op == "OR" or any(has_or(n) for n in node.children))

    assert out.logic is not None and not has_or(out.logic)


def test_elliptical_alternatives_are_completed_in_normalized(
    lexicon: LexiconExtractor, abbreviations
) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "Rhythm control should be considered in patients with HF and paroxysmal or persistent AF.",
            "IIa",
            "B",
        ),
        abbreviations,
    )
    c = by_norm(out.concepts)
    assert c["paroxysmal atrial fibrillation"].text == "paroxysmal"
    assert c["persistent atrial fibrillation"].text == "persistent AF"
    assert (
        c["paroxysmal atrial fibrillation"].or_group == c["persistent atrial fibrillation"].or_group
    )
    assert c["heart failure"].or_group is None  # the AND-ed condition stays outside


def test_drug_class_with_members(lexicon: LexiconExtractor, abbreviations) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row("A statin (atorvastatin or rosuvastatin) is recommended in all patients with CAD."),
        abbreviations,
    )
    c = by_norm(out.concepts)
    assert c["statin"].or_group is None
    assert c["atorvastatin"].or_group == c["rosuvastatin"].or_group is not None
    assert {a.normalized for a in out.actions} == {"statin", "atorvastatin", "rosuvastatin"}


def test_footnote_abbreviations_fill_gaps_only() -> None:
    notes = [
        "d LBBB = left bundle branch block; HF = hypothetical fever; CHA2DS2-VASc = stroke risk score."
    ]
    found = footnote_abbreviations(notes)
    assert found["LBBB"] == "left bundle branch block"
    assert "CHA2DS2-VASc" not in found  # a description, not an expansion


def test_footnote_expansion_reaches_normalized(lexicon: LexiconExtractor) -> None:
    r = row(
        "CRT should be considered in patients with HF and LBBB morphology.",
        "IIa",
        "B",
        footnotes=["c LBBB = left bundle branch block; HF = a wrong expansion."],
    )
    names = {c.normalized for c in lexicon.extract(r, "MAIN").concepts}
    assert "left bundle branch block morphology" in names
    assert "heart failure" in names  # the shared list wins over a footnote


# --------------------------------------------------------------------------- terminology


def test_terminology_decides_the_role_the_words_cannot(
    lexicon: LexiconExtractor, plain: LexiconExtractor
) -> None:
    text = "Aspirin is recommended in patients after an operation on heart."
    with_terms = {c.normalized: c.role for c in lexicon.extract(row(text), "MAIN").concepts}
    without = {c.normalized: c.role for c in plain.extract(row(text), "MAIN").concepts}
    # "Operation on heart (procedure)" in the SNOMED sample; no word rule knows it.
    assert with_terms["operation on heart"] == "Procedure"
    assert without["operation on heart"] == "Condition"


def test_resource_runs_both_passes_with_the_store(store) -> None:  # type: ignore[no-untyped-def]
    from resources.lexicon_extractor import LexiconExtractorResource as LexiconResource

    resource = LexiconResource()
    rows = [row(WORKED_EXAMPLE_TEXT, "IIb", "B"), row("", "I", "A")]
    main = resource.extract(rows, "MAIN", searcher=store)
    population = resource.extract(rows, "POPULATION", searcher=store)
    assert [r.focus for r in main] == ["MAIN", "MAIN"]
    assert {c.normalized for c in population[0].concepts} == {
        "chronic coronary syndrome", "high surgical risk", "not operable"
    }  # fmt: skip
    assert main[1].concepts == [] and main[1].error is None  # an empty row is no failure
    described = resource.describe(searcher=store)
    extractor = resource.build(searcher=store)
    assert described["backend"] == "lexicon" and described["prompt_hash"] == extractor.prompt_hash()
    # a row's own hash says whether the span tagger read it (its scope decides per guideline)
    read = extractor.tagger_reads(rows[0].guideline)
    assert main[0].prompt_hash == extractor.prompt_hash(read)


def test_that_clause_cohort_and_action(lexicon: LexiconExtractor, abbreviations) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "It is recommended that patients with symptomatic mitral regurgitation receive mitral valve repair."
        ),
        abbreviations,
    )
    assert [a.normalized for a in out.actions] == ["mitral valve repair"]
    c = by_norm(out.concepts)
    # "symptomatic" written onto the disease stays in its name (the contract, section 4:
    # qualifiers that change the meaning stay in the span); "symptomatic patients" would
    # make it a condition of its own
    assert c["symptomatic mitral regurgitation"].is_population
    assert c["symptomatic mitral regurgitation"].role == "Condition"


def test_verb_operators_and_plural_hyphenated_heads(
    lexicon: LexiconExtractor, abbreviations
) -> None:  # type: ignore[no-untyped-def]
    out = merged(
        lexicon,
        row(
            "Beta-blockers should be stopped in patients with HF when the heart rate falls below 50 bpm."
        ),
        abbreviations,
    )
    c = by_norm(out.concepts)
    # stopping a drug is what is recommended, never the drug itself (test_lexicon_sentence_shapes)
    assert c["discontinuation of beta-blocker"].role == "Medication"
    hr = c["heart rate"]
    assert (hr.operator, hr.threshold, hr.unit) == ("<", 50.0, "bpm")


@pytest.mark.parametrize(
    ("text", "klass", "action", "cohort", "polarity"),
    [
        # the patients are the subject; the recommended thing follows the verb
        ("Patients with HFrEF should be offered cardiac rehabilitation.", "I", "cardiac rehabilitation",
         "heart failure with reduced ejection fraction", "recommended"),
        ("All patients with AF should be treated with an oral anticoagulant unless contraindicated.", "I",
         "oral anticoagulant", "atrial fibrillation", "recommended"),
        ("Patients with CCS should receive aspirin.", "I", "aspirin", "chronic coronary syndrome", "recommended"),
        # imperative rows
        ("Consider ivabradine in patients with HFrEF.", "IIb", "ivabradine",
         "heart failure with reduced ejection fraction", "recommended"),
        ("Avoid diltiazem in patients with HFrEF.", "IIb", "diltiazem",
         "heart failure with reduced ejection fraction", "not recommended"),
    ],
)  # fmt: skip
def test_cohort_subject_and_imperative_shapes(
    text: str,
    klass: str,
    action: str,
    cohort: str,
    polarity: str,
    lexicon: LexiconExtractor,
    abbreviations,
) -> None:  # type: ignore[no-untyped-def]
    out = merged(lexicon, row(text, klass, "B"), abbreviations)
    assert [(a.normalized, a.polarity) for a in out.actions] == [(action, polarity)]
    # the cohort; "unless contraindicated" adds a negated contraindication beside it
    assert [c.normalized for c in out.concepts if c.is_population and not c.negated] == [cohort]
    assert "contraindicated" not in {c.normalized for c in out.concepts}
