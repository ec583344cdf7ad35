"""Grounding: normalization, composite score, per-role filters, the worked examples of docs/ARCHITECTURE.md.

Searches run against real stores built from RF2 (the bundled sample, or the sample
plus two test-only concepts for the SYNTAX example), never against stubs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardio_assets.cli import main as cli
from cardio_assets.config import (
    ConfigError,
    RoleFilter,
    load_abbreviations,
    load_grounding_schema,
    load_pipeline_settings,
    parse_grounding_schema,
)
from cardio_assets.logic.grounding import (
    ABBREVIATION_BONUS,
    W_JACCARD,
    W_RATIO,
    W_TOKEN_SET,
    W_TOKEN_SORT,
    composite_score,
    composite_scores,
    decide,
    ground_candidates,
    normalize_term,
    select_grounding,
)
from cardio_assets.paths import DATA_DIR, DEFAULT_CONFIG_DIR
from cardio_assets.terminology.build import load_rf2
from cardio_assets.terminology.store import SnomedStore

SAMPLE = DATA_DIR / "snomed_sample"
OBSERVABLE, PROCEDURE = "363787002", "71388002"

# Test-only concepts for the SYNTAX example of docs/ARCHITECTURE.md: the bundled sample has no
# verified ids for "SYNTAX score" or "Leukocyte alkaline phosphatase score", so these
# ids are made up, valid-looking SCTIDs used only inside this temporary release.
SYNTAX_ID, LAP_ID = "9990001000103", "9990002000104"


@pytest.fixture(scope="module")
def abbreviations() -> dict[str, str]:
    return load_abbreviations()


@pytest.fixture(scope="module")
def schema():
    return load_grounding_schema()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SnomedStore:
    db = tmp_path_factory.mktemp("g") / "sample.duckdb"
    load_rf2(SAMPLE, db)
    return SnomedStore.open(db)


@pytest.fixture(scope="module")
def syntax_store(tmp_path_factory: pytest.TempPathFactory) -> SnomedStore:
    rel = tmp_path_factory.mktemp("syntax_rel")
    for f in SAMPLE.glob("sct2_*.txt"):
        shutil.copy(f, rel / f.name)
    m, et = "900000000000207008", "20250101"
    with open(next(rel.glob("sct2_Concept_*")), "a") as fh:
        for cid in (SYNTAX_ID, LAP_ID):
            fh.write(f"{cid}\t{et}\t1\t{m}\t900000000000074008\n")
    with open(next(rel.glob("sct2_Description_*")), "a") as fh:
        for did, cid, typ, term in [
            ("9990001000110", SYNTAX_ID, "900000000000003001", "SYNTAX score (procedure)"),
            ("9990001000111", SYNTAX_ID, "900000000000013009", "SYNTAX score"),
            ("9990002000110", LAP_ID, "900000000000003001", "Leukocyte alkaline phosphatase score (procedure)"),
            ("9990002000111", LAP_ID, "900000000000013009", "Leukocyte alkaline phosphatase score"),
        ]:  # fmt: skip
            fh.write(f"{did}\t{et}\t1\t{m}\t{cid}\ten\t{typ}\t{term}\t900000000000448009\n")
    with open(next(rel.glob("sct2_Relationship_*")), "a") as fh:
        for rid, cid in [("9990001000120", SYNTAX_ID), ("9990002000120", LAP_ID)]:
            fh.write(
                f"{rid}\t{et}\t1\t{m}\t{cid}\t{PROCEDURE}\t0\t116680003\t900000000000011006\t900000000000451002\n"
            )
    db = tmp_path_factory.mktemp("syntax_db") / "syntax.duckdb"
    load_rf2(rel, db)
    return SnomedStore.open(db)


# --------------------------------------------------------------------------- normalization


@pytest.mark.parametrize(
    ("term", "search", "op", "threshold", "unit"),
    [
        ("LVEF <= 35%", "left ventricular ejection fraction", "<=", 35.0, "%"),
        ("LVEF ≤35 %", "left ventricular ejection fraction", "<=", 35.0, "%"),
        ("eGFR < 30 mL/min/1.73 m2", "estimated glomerular filtration rate", "<", 30.0, "ml/min/1.73 m²"),  # one spelling per unit (measurement_units.UNITS)
        ("LDL-C ≥ 1.8 mmol/L", "low density lipoprotein cholesterol", ">=", 1.8, "mmol/l"),
        ("age at least 75 years", "age", ">=", 75.0, "years"),
        ("LVEF 36-49%", "left ventricular ejection fraction", "between", (36.0, 49.0), "%"),
        ("SYNTAX score > 22", "syntax score", ">", 22.0, None),
        ("HFrEF", "heart failure with reduced ejection fraction", None, None, None),
    ],
)  # fmt: skip
def test_normalize_strips_measurements_and_expands(
    abbreviations: dict[str, str], term, search, op, threshold, unit
) -> None:
    norm = normalize_term(term, abbreviations)
    assert (norm.search_text, norm.operator, norm.threshold, norm.unit) == (
        search,
        op,
        threshold,
        unit,
    )
    assert norm.rejected is None


def test_operator_words_only_before_numbers(abbreviations: dict[str, str]) -> None:
    under = normalize_term("age under 65 years", abbreviations)
    assert (under.search_text, under.operator, under.threshold) == ("age", "<", 65.0)
    plain = normalize_term("heart failure under treatment", abbreviations)
    assert plain.search_text == "heart failure under treatment" and plain.operator is None


def test_standardized_keeps_the_measurement(abbreviations: dict[str, str]) -> None:
    norm = normalize_term("LVEF ≤ 35%", abbreviations)
    assert norm.standardized == "left ventricular ejection fraction <= 35%"
    assert norm.abbreviations_used == ("LVEF",)


def test_abbreviations_are_case_sensitive_whole_words(abbreviations: dict[str, str]) -> None:
    # "as" / "af" in running text are words, not Aortic stenosis / Atrial fibrillation
    assert normalize_term("as tolerated", abbreviations).search_text == "as tolerated"
    assert normalize_term("ARBs", abbreviations).search_text == "angiotensin ii receptor antagonist"
    assert normalize_term("EGFR", abbreviations).abbreviations_used == ("EGFR",)
    needed = ["LVEF", "CCS", "CABG", "PCI", "OAC", "LDL-C", "eGFR", "HF", "HFrEF", "AF", "CKD",
              "ACS", "MI", "ICD", "CRT", "SGLT2", "ACE-I", "ARB", "ARNI", "MRA", "DAPT", "BP"]  # fmt: skip
    assert not [k for k in needed if k not in abbreviations]


def test_abbreviation_file_errors_name_the_line(tmp_path: Path) -> None:
    f = tmp_path / "abbr.txt"
    f.write_text("# comment\nLVEF\tleft ventricular ejection fraction\nBROKEN LINE\n")
    with pytest.raises(ConfigError, match=r"abbr.txt:3:"):
        load_abbreviations(f)


@pytest.mark.parametrize("term", ["", "   ", "!!! ... ;;", "<= 35 %", "of the", "x" * 10_240])
def test_unsearchable_terms_give_no_candidates(
    term: str, store: SnomedStore, abbreviations: dict[str, str], schema
) -> None:
    assert normalize_term(term, abbreviations).rejected
    cands = ground_candidates(term, "Condition", store, abbreviations)
    assert cands == []
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None and "no candidates" in outcome.unmapped_reason


def test_huge_term_of_real_words_gives_no_candidates(store, abbreviations) -> None:
    term = ("heart failure with reduced ejection fraction " * 250)[:10_240]
    assert ground_candidates(term, "Condition", store, abbreviations) == []


# --------------------------------------------------------------------------- score


def test_composite_score_follows_the_documented_formula() -> None:
    score, parts = composite_score(
        "left ventricular function", "Cardiac ejection fraction, function"
    )
    expected = (
        W_TOKEN_SORT * parts["token_sort"]
        + W_RATIO * parts["ratio"]
        + W_TOKEN_SET * parts["token_set"]
        + W_JACCARD * parts["jaccard"]
    )
    assert score == pytest.approx(expected, abs=2e-4)
    # {function} shared; union {left, ventricular, function, cardiac, ejection, fraction}
    assert parts["jaccard"] == pytest.approx(1 / 6, abs=1e-4)
    assert abs(W_TOKEN_SORT + W_RATIO + W_TOKEN_SET + W_JACCARD - 1.0) < 1e-9


def test_composite_score_exact_order_bonus_and_bounds() -> None:
    assert composite_score("heart failure", "Heart failure (disorder)")[0] == 1.0
    assert composite_score("failure heart", "Heart failure")[1]["token_sort"] == 1.0
    plain, _ = composite_score(
        "left ventricular ejection fraction", "LVEF - Left ventricular ejection fraction"
    )
    bonus, parts = composite_score(
        "left ventricular ejection fraction",
        "LVEF - Left ventricular ejection fraction",
        abbreviations_used=["LVEF"],
    )
    assert parts["abbreviation_bonus"] == ABBREVIATION_BONUS
    assert bonus == pytest.approx(plain + ABBREVIATION_BONUS, abs=2e-4)
    for q, d in [("a", "b"), ("x" * 300, "y"), ("heart", "heart")]:
        s, _ = composite_score(q, d)
        assert 0.0 <= s <= 1.0
    batch = composite_scores(
        "heart failure", ["Heart failure", "Left heart failure (disorder)", ""]
    )
    assert list(batch) == [
        composite_score("heart failure", "Heart failure")[0],
        composite_score("heart failure", "Left heart failure (disorder)")[0],
        0.0,
    ]


# --------------------------------------------------------------------------- search


@pytest.mark.parametrize(
    ("term", "role", "concept"),
    [
        ("LVEF", "ClinicalParameter", "250908004"),
        ("LVEF <= 35%", "ClinicalParameter", "250908004"),
        ("heart failure", "Condition", "84114007"),
        ("PCI", "Procedure", "415070008"),
        ("atrial fibrilation", "Condition", "49436004"),  # misspelt
        ("hyperkalaemia", "Outcome", "14140009"),  # British spelling vs US FSN
        ("ischaemic heart disease", "Condition", "414545008"),
        ("Aspirin", "Medication", "387458008"),
    ],
)
def test_top_candidate_and_winner(store, abbreviations, schema, term, role, concept) -> None:
    cands = ground_candidates(term, role, store, abbreviations)
    assert cands[0].concept_id == concept
    assert [c.rank for c in cands] == list(range(1, len(cands) + 1))
    assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)
    outcome = select_grounding(term, role, cands, schema.rule(role))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("previous MI", "399211009"),  # History of myocardial infarction (situation)
        ("prior atrial fibrillation", "312442005"),  # History of atrial fibrillation
        ("history of heart failure", "161505003"),
        ("myocardial infarction", "22298006"),  # no past: the disorder itself
    ],
)
def test_a_past_condition_is_its_history_situation(store, abbreviations, schema, term, concept):
    """ "previous MI" says the patient once had one: the terminology's "History of …"
    situation means exactly that, the disorder does not (the contract, SNOMED CT)."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("ACE inhibitor", "372733002"),  # Substance with ACE inhibitor mechanism of action
        ("angiotensin-converting enzyme inhibitor", "372733002"),
        ("angiotensin II receptor antagonist", "372913009"),
    ],
)
def test_a_drug_class_is_its_substance_not_a_product(store, abbreviations, schema, term, concept):
    """The role schema wants the substance for a drug class; the terminology writes both in
    templates ("Substance with X mechanism of action", "Product containing X") whose own
    words are no part of the name, so both score alike and the substance wins the tie."""
    cands = ground_candidates(term, "Medication", store, abbreviations)
    outcome = select_grounding(term, "Medication", cands, schema.rule("Medication"))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept


@pytest.mark.parametrize(
    "term", ["severe aortic stenosis", "symptomatic atrial fibrillation", "new LBBB"]
)
def test_a_qualified_name_without_its_own_concept_stays_unmapped(
    store, abbreviations, schema, term
):
    """A severity or context qualifier makes a narrower concept (contract section 10): with
    no concept that carries it, the term stays unmapped rather than taking the broader one;
    the decision says which qualifier was lost."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None
    lost = [c for d in outcome.decisions for c in d.checks if c.filter == "qualifiers"]
    assert lost and not lost[0].passed and "qualifier" in lost[0].detail


# --------------------------------------------------------------------------- filters


def _cand(store, abbreviations, term, concept_id, role="ClinicalParameter"):
    cands = ground_candidates(term, role, store, abbreviations, top_k=50)
    return next(c for c in cands if c.concept_id == concept_id)


def test_min_match_score_filter(store, abbreviations) -> None:
    cand = _cand(store, abbreviations, "left ventricular function", "250908004")
    keep = RoleFilter(target_label="ClinicalParameter", min_match_score=cand.score)
    drop = RoleFilter(target_label="ClinicalParameter", min_match_score=min(cand.score + 0.01, 1))
    assert decide(cand, keep).kept
    d = decide(cand, drop)
    assert not d.kept and d.checks[0].filter == "min_match_score" and not d.checks[0].passed
    assert "min_match_score" in d.reason


def test_domain_filter(store, abbreviations) -> None:
    cand = _cand(store, abbreviations, "ventricular ejection fraction", "46258004")
    rule = RoleFilter(
        target_label="ClinicalParameter", allowed_roots=[OBSERVABLE], min_match_score=0.0
    )
    d = decide(cand, rule)
    assert not d.kept
    dom = next(c for c in d.checks if c.filter == "domain")
    assert not dom.passed and OBSERVABLE in dom.detail
    assert decide(cand, rule.model_copy(update={"allowed_roots": [PROCEDURE]})).kept


def test_semantic_tag_filter(store, abbreviations) -> None:
    cand = _cand(store, abbreviations, "heart failure", "84114007", role="Condition")
    rule = RoleFilter(target_label="Condition", semantic_tags=["finding"], min_match_score=0.5)
    d = decide(cand, rule)
    tag = next(c for c in d.checks if c.filter == "semantic_tag")
    assert not d.kept and not tag.passed and "(disorder)" in tag.detail
    assert decide(cand, rule.model_copy(update={"semantic_tags": ["disorder"]})).kept


def test_off_domain_min_score(store, abbreviations) -> None:
    cand = _cand(store, abbreviations, "heart failure", "84114007", role="Condition")
    assert cand.score == 1.0
    base = RoleFilter(
        target_label="ClinicalParameter", allowed_roots=[OBSERVABLE], min_match_score=0.5
    )
    assert not decide(cand, base).kept  # no exception configured
    d = decide(cand, base.model_copy(update={"off_domain_min_score": 0.95}))
    assert d.kept and d.checks[-1].filter == "off_domain_min_score" and d.checks[-1].passed
    weak = _cand(store, abbreviations, "heart failure", "85232009", role="Condition")
    d = decide(weak, base.model_copy(update={"off_domain_min_score": 0.95}))
    assert not d.kept and "off_domain_min_score" in d.reason


# --------------------------------------------------------------------------- worked examples


def test_worked_example_syntax_score(syntax_store, abbreviations, schema) -> None:
    """docs/ARCHITECTURE.md: the SYNTAX concept beats the leukocyte ALP score and is kept at min 0.9."""
    cands = ground_candidates("SYNTAX score", "ClinicalParameter", syntax_store, abbreviations)
    by_id = {c.concept_id: c for c in cands}
    assert cands[0].concept_id == SYNTAX_ID
    assert by_id[SYNTAX_ID].score >= 0.9 > by_id[LAP_ID].score
    strict = RoleFilter(target_label="ClinicalParameter", min_match_score=0.9)
    outcome = select_grounding("SYNTAX score", "ClinicalParameter", cands, strict)
    assert outcome.entry.snomed_id == int(SYNTAX_ID)
    lap = next(d for d in outcome.decisions if d.concept_id == LAP_ID)
    assert not lap.kept and lap.reason.startswith("dropped by min_match_score")
    # with the shipped ClinicalParameter filters: a procedure survives only as a near-exact
    # off-domain match, and the explanation says so
    outcome = select_grounding(
        "SYNTAX score", "ClinicalParameter", cands, schema.rule("ClinicalParameter")
    )
    win = next(d for d in outcome.decisions if d.selected)
    assert win.concept_id == SYNTAX_ID
    assert any(c.filter == "off_domain_min_score" and c.passed for c in win.checks)


def test_worked_example_ejection_fraction_procedure_dropped(store, abbreviations, schema) -> None:
    """docs/ARCHITECTURE.md: 'Determination of ventricular ejection fraction' (a procedure) is no
    ClinicalParameter; the observable entity wins."""
    cands = ground_candidates("LVEF <= 35%", "ClinicalParameter", store, abbreviations)
    assert "46258004" in {c.concept_id for c in cands}
    outcome = select_grounding(
        "LVEF <= 35%", "ClinicalParameter", cands, schema.rule("ClinicalParameter")
    )
    proc = next(d for d in outcome.decisions if d.concept_id == "46258004")
    assert not proc.kept
    dom = next(c for c in proc.checks if c.filter == "domain")
    assert not dom.passed and "Procedure" in " ".join(s.term for s in proc.taxonomy_path)
    # also dropped when its score alone would pass: the domain decides
    loose = schema.rule("ClinicalParameter").model_copy(update={"min_match_score": 0.0})
    proc_cand = next(c for c in cands if c.concept_id == "46258004")
    assert not decide(proc_cand, loose).kept
    entry = outcome.entry.model_dump()
    assert entry["snomed_id"] == 250908004
    assert entry["entity_standardized_candidate"] == "left ventricular ejection fraction <= 35%"
    assert entry["preferred_term"] == "Left ventricular ejection fraction (observable entity)"
    assert entry["target_label"] == "ClinicalParameter"
    assert entry["taxonomy_path"][0] == {"concept_id": "250908004", "term": entry["preferred_term"]}
    assert OBSERVABLE in [s["concept_id"] for s in entry["taxonomy_path"]]
    assert 0.0 <= entry["score"] <= 1.0


# --------------------------------------------------------------------------- config


def test_shipped_schema_has_every_role(schema) -> None:
    assert set(schema.roles) == {
        "Condition",
        "ClinicalParameter",
        "Procedure",
        "Medication",
        "Outcome",
    }
    assert schema.rule("ClinicalParameter").allowed_roots[0] == OBSERVABLE


def _schema_data() -> dict:
    return yaml.safe_load((DEFAULT_CONFIG_DIR / "guideline_graph_schema.yaml").read_text())


@pytest.mark.parametrize(
    ("mutate", "key"),
    [
        (lambda d: d["roles"]["ClinicalParameter"].update(min_match_score=1.5), "roles.ClinicalParameter.min_match_score"),
        (lambda d: d["roles"]["Procedure"].update(allowed_roots=["procedure"]), "roles.Procedure.allowed_roots"),
        (lambda d: d["roles"]["Outcome"].update(min_score=0.5), "roles.Outcome.min_score"),
        (lambda d: d["roles"]["Condition"].update(target_label="Disease"), "roles.Condition.target_label"),
        (lambda d: d["roles"].pop("Medication"), "roles"),
    ],
)  # fmt: skip
def test_schema_errors_name_the_key(mutate, key) -> None:
    data = _schema_data()
    mutate(data)
    with pytest.raises(ConfigError, match=f"key '{key}'"):
        parse_grounding_schema(data)


def test_schema_without_roles_section() -> None:
    with pytest.raises(ConfigError, match="'roles'"):
        parse_grounding_schema({"labels": {}})


# --------------------------------------------------------------------------- CLI


def test_cli_ground_explains(store) -> None:
    runner = CliRunner()
    db = str(store.db_path)
    res = runner.invoke(cli, ["ground", "LVEF", "--role", "ClinicalParameter", "--db", db])
    assert res.exit_code == 0, res.output
    assert "grounding_index entry" in res.output and '"snomed_id": 250908004' in res.output
    assert "dropped by" in res.output and "path:" in res.output
    res = runner.invoke(
        cli,
        [
            "ground",
            "SYNTAX score",
            "--role",
            "ClinicalParameter",
            "--db",
            db,
            "--json",
            "--top",
            "5",
        ],
    )
    assert res.exit_code == 0, res.output
    payload = json.loads(res.output)
    assert payload["outcome"]["entry"] is None  # the sample has no SYNTAX concept
    assert payload["outcome"]["unmapped_reason"]
    assert len(payload["candidates"]) <= 5
    res = runner.invoke(cli, ["ground", "LVEF", "--role", "Nonsense", "--db", db])
    assert res.exit_code != 0


def test_batch_and_single_scores_agree_on_real_descriptions(store) -> None:
    """composite_scores (vectorised, used for ranking) and composite_score (used for the
    explanation) implement one formula: they must agree on every pair."""
    terms = [store.index._text(i) for i in range(0, len(store.index.doc_norm), 7)]
    for query in [
        "left ventricular ejection fraction",
        "heart failure",
        "aspirin",
        "atrial fibrilation",
    ]:
        batch = composite_scores(query, terms, abbreviations_used=["LVEF"])
        single = [composite_score(query, t, abbreviations_used=["LVEF"])[0] for t in terms]
        assert list(batch) == single


@pytest.mark.parametrize(
    ("term", "role", "concept"),
    [
        ("catheter ablation", "Procedure", "18286008"),  # Catheter ablation of tissue of heart
        ("ICD implantation", "Procedure", "233170003"),  # Implantation of automatic cardiac ...
        ("coronary stenting", "Procedure", "36969009"),  # Placement of stent in coronary artery
        ("MRA", "Medication", "372603003"),  # Substance with aldosterone receptor antagonist ...
        # a word the concept leaves out, curated: cardiac arrest is sudden by definition
        ("sudden cardiac arrest", "Condition", "410429000"),
        ("NYHA functional class", "ClinicalParameter", "420816009"),
        # an invasive angiography is the fluoroscopic one (the sample gold's id)
        ("invasive coronary angiography", "Procedure", "419416005"),
    ],
)
def test_an_interface_term_finds_the_concept_its_description_names(
    store, abbreviations, schema, term, role, concept
):
    """Tables write "catheter ablation" where SNOMED CT says "Catheter ablation of tissue of
    heart": the interface terms of configs/pipeline.yaml search the description a short
    name stands for, after the name is normalized the way grounding does (abbreviations
    expanded); without them the short name maps nowhere."""
    interface = load_pipeline_settings().grounding.interface_terms
    with_terms = ground_candidates(term, role, store, abbreviations, interface_terms=interface)
    outcome = select_grounding(term, role, with_terms, schema.rule(role))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept
    without = ground_candidates(term, role, store, abbreviations)
    bare = select_grounding(term, role, without, schema.rule(role))
    assert bare.entry is None or str(bare.entry.snomed_id) != concept


def test_an_interface_term_cannot_drop_a_qualifier(store, abbreviations, schema) -> None:
    """An interface term only adds a wording to search; the filters still judge the name
    as written: one that would map "severe aortic stenosis" to "aortic stenosis" is refused
    for the qualifier it loses (contract section 10)."""
    interface = {"severe aortic stenosis": "aortic stenosis"}
    term = "severe aortic stenosis"
    cands = ground_candidates(term, "Condition", store, abbreviations, interface_terms=interface)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None


@pytest.mark.parametrize(
    ("terms", "key"),
    [({"Catheter Ablation": "catheter ablation of tissue of heart"}, "Catheter Ablation"),
     ({"surgery": " "}, "surgery"), ({"coronary  stenting": "stent"}, "coronary  stenting")],
)  # fmt: skip
def test_a_bad_interface_term_is_named(tmp_path: Path, monkeypatch, terms, key) -> None:
    (tmp_path / "pipeline.yaml").write_text(
        yaml.safe_dump({"grounding": {"interface_terms": terms}})
    )
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(tmp_path))
    with pytest.raises(ConfigError, match=rf"interface_terms.*{key}"):
        load_pipeline_settings()


# ------------------------------------------ guards found reading a real guideline's graph


@pytest.mark.parametrize(
    ("term", "not_this"),
    [
        ("hypotension", "38341003"),  # Hypertensive disorder: one letter apart, the opposite
        ("hyperglycaemia", "302866003"),  # Hypoglycemia
        ("bradycardia", "74615001"),  # Tachycardia-bradycardia names the other one too
    ],
)
def test_a_word_of_opposite_meaning_is_never_a_typo(store, abbreviations, schema, term, not_this):
    """A one-letter typo allowance and close character ratios pair "hypotension" with
    "hypertensive": hyper-/hypo- and tachy-/brady- beginnings say opposite things, so a
    concept naming the other one is never the term's; the decision says why."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None or str(outcome.entry.snomed_id) != not_this
    verdict = next(d for d in outcome.decisions if d.concept_id == not_this)
    assert not verdict.kept and "for" in verdict.reason and "qualifiers" in verdict.reason


@pytest.mark.parametrize(
    ("term", "narrower"),
    [
        ("atrioventricular block", "27885002"),  # Complete atrioventricular block
        ("aortic aneurysm", "233985008"),  # Abdominal aortic aneurysm
    ],
)
def test_a_concept_that_adds_a_qualifier_is_narrower_than_the_term(
    store, abbreviations, schema, term, narrower
):
    """Contract section 10 read from the concept's side: "atrioventricular block" is no
    complete block and an aortic aneurysm no abdominal one; with no concept of the term's
    own it stays unmapped."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    verdicts = {d.concept_id: d for d in outcome.decisions}
    assert narrower in verdicts and not verdicts[narrower].kept
    assert "adds the qualifier" in verdicts[narrower].reason


@pytest.mark.parametrize(
    ("term", "lost_from"),
    [
        ("right bundle branch block", "63467002"),  # Left bundle branch block
        ("family history of left ventricular non-compaction", "447935001"),
    ],
)
def test_a_side_or_a_family_history_is_never_dropped(store, abbreviations, schema, term, lost_from):
    """ "right" is no "left", and a family history of a disease is not the disease: a
    concept without those words is not the term's."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None or str(outcome.entry.snomed_id) != lost_from


@pytest.mark.parametrize(
    ("term", "concept", "role"),
    [
        ("QRS duration", "251208001", "ClinicalParameter"),  # QRS complex duration
        ("ST-elevation myocardial infarction", "401303003", "Condition"),  # Acute STEMI
        ("abdominal aortic aneurysm", "233985008", "Condition"),
        ("Marfan syndrome", "19346006", "Condition"),
    ],
)
def test_words_a_concept_may_add_and_still_mean_the_term(
    store, abbreviations, schema, term, concept, role
):
    """An ST-elevation infarction is always acute and a QRS duration is the QRS complex's:
    those concepts stay the term's (and the added real-row concepts map by name)."""
    cands = ground_candidates(term, role, store, abbreviations)
    outcome = select_grounding(term, role, cands, schema.rule(role))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept


@pytest.mark.parametrize(
    ("term", "role", "not_this"),
    [
        ("tricuspid aortic valve", "Condition", "72352009"),  # Bicuspid aortic valve
        ("transcatheter pulmonary valve implantation", "Procedure", "441873006"),  # aortic
        ("improvement of left ventricular function", "Condition", "275514001"),
        ("renal function", "Condition", "236423003"),  # Renal impairment
        ("coronary heart disease", "Condition", "315016007"),  # At risk of CHD
        ("valve area", "ClinicalParameter", "251011009"),  # Aortic valve area: one valve
    ],
)
def test_a_concept_of_another_count_valve_change_or_state_is_not_the_terms(
    store, abbreviations, schema, term, role, not_this
):
    """A count prefix ("tri-" / "bi-cuspid"), another valve, a change of a measure
    ("improvement of LV function"), an abnormality the term does not name ("renal
    function" is no impairment) or a risk of the disease: each names another thing."""
    cands = ground_candidates(term, role, store, abbreviations)
    outcome = select_grounding(term, role, cands, schema.rule(role))
    assert outcome.entry is None or str(outcome.entry.snomed_id) != not_this


# ------------------------------------- narrowed after a review helper's 817 terms of its own


@pytest.mark.parametrize(
    ("term", "concept"),
    [
        ("abdominal aorta aneurysm", "233985008"),  # "aorta" carries "aortic": one stem
        ("non-sustained ventricular tachycardia", "444658006"),  # Nonsustained VT
    ],
)
def test_a_qualifier_is_carried_by_its_stem(store, abbreviations, schema, term, concept):
    """ "aorta" and "aortic" are one word for the check, and "non-sustained" is written
    "nonsustained" in the terminology: the right concept is kept."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept


@pytest.mark.parametrize(
    ("term", "not_this"),
    [
        ("non-sustained ventricular tachycardia", "426525004"),  # Sustained VT
        ("compensated heart failure", "424404003"),  # Decompensated chronic HF
        ("type A aortic dissection", "308546005"),  # Dissection of aorta: broader
        ("upper gastrointestinal bleeding", "74474003"),  # GI hemorrhage: broader
        ("aortic valve insufficiency", "194987006"),  # stenosis with insufficiency
        ("aortic stenosis and regurgitation", "60234000"),  # regurgitation alone
    ],
)
def test_a_negated_word_a_subtype_or_a_second_lesion_is_another_concept(
    store, abbreviations, schema, term, not_this
):
    """A word negated on one side only ("non-", "de-"), a subtype word the concept lacks
    ("type A", "upper") and a valve lesion one side names and the other does not each make
    another concept."""
    cands = ground_candidates(term, "Condition", store, abbreviations)
    outcome = select_grounding(term, "Condition", cands, schema.rule("Condition"))
    assert outcome.entry is None or str(outcome.entry.snomed_id) != not_this


# --------------------------------------------- a concept that leaves out a word is broader


@pytest.mark.parametrize(
    ("term", "role", "broader", "right"),
    [
        # a CT angiography is no invasive one: the right concept names the CT
        ("CT coronary angiography", "Procedure", "33367005", "419545005"),
        ("polymorphic ventricular tachycardia", "Condition", "25569003", None),
        ("rheumatic mitral stenosis", "Condition", "79619009", None),
        ("dihydropyridine calcium channel blocker", "Medication", "373304005", None),
    ],
)
def test_a_concept_that_leaves_out_a_word_of_the_term_is_broader(
    store, abbreviations, schema, term, role, broader, right
):
    """Contract section 10 for any word, not only a listed qualifier: a concept whose names
    lack a content word of the term ("polymorphic", "computed tomography") names a wider
    thing, so it is never the term's; the decision says which word it lost, and a concept
    that keeps every word wins instead, or the term stays unmapped."""
    cands = ground_candidates(term, role, store, abbreviations)
    outcome = select_grounding(term, role, cands, schema.rule(role))
    verdicts = {d.concept_id: d for d in outcome.decisions}
    assert broader in verdicts and not verdicts[broader].kept
    assert "leaves out" in verdicts[broader].reason
    chosen = str(outcome.entry.snomed_id) if outcome.entry else None
    assert chosen == right


@pytest.mark.parametrize(
    ("term", "role", "concept"),
    [
        ("bicuspid aortic valve disease", "Condition", "72352009"),  # a generic head
        ("mitral valve replacement surgery", "Procedure", "53059001"),
        ("atrioventricular nodal ablation", "Procedure", "428663009"),  # "nodal" is "node"
        ("synchronized direct current cardioversion", "Procedure", "180325003"),
    ],
)
def test_generic_heads_and_plain_synonyms_are_no_lost_words(
    store, abbreviations, schema, term, role, concept
):
    """ "disease", "surgery" add nothing a concept must repeat, "nodal" is SNOMED CT's
    "node", and an electrical cardioversion is synchronized by definition: the concept
    is kept."""
    cands = ground_candidates(term, role, store, abbreviations)
    outcome = select_grounding(term, role, cands, schema.rule(role))
    assert outcome.entry is not None and str(outcome.entry.snomed_id) == concept
