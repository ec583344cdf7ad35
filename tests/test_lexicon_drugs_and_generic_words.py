"""Drugs the terminology does not know, named beside drugs it does, drug-therapy phrases,
and lone adverbs or generic words that are no concept: read by rule, in the team's own
sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_an_unknown_single_word_listed_with_drugs_is_a_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "Aspirin, cilostazol and pentoxifylline": names nothing identifies, listed with a
    drug, are drugs too (the terminology lacks many; the contract makes them Medication).
    An act listed with them keeps its own role."""
    found = named(
        extract(
            lexicon,
            "Aspirin, cilostazol and pentoxifylline, as well as supervised walking, "
            "should be considered in patients with claudication.",
        )
    )
    assert found["cilostazol"].role == "Medication"
    assert found["pentoxifylline"].role == "Medication"
    assert found["aspirin"].role == "Medication"
    assert found["supervised walking"].role != "Medication"


@pytest.mark.parametrize(
    "text",
    [
        "Aspirin and biventricular or conventional pacing are recommended.",
        "Aspirin and moderate or vigorous exercise are recommended.",
    ],
)
def test_a_word_lent_a_head_or_shaped_like_an_adjective_stays_what_it_is(
    lexicon, text: str
) -> None:  # type: ignore[no-untyped-def]
    """ "biventricular or conventional pacing", "moderate or vigorous exercise": the first
    word is printed alone but names the pacing or the exercise; it is no drug."""
    result = extract(lexicon, text)
    drugs = {c.normalized for c in result.concepts if c.role == "Medication"}
    assert drugs == {"aspirin"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Nicotine replacement therapy is recommended in smokers.", "nicotine replacement therapy"),
        ("Combination therapy should be considered in patients with PAH.", "combination therapy"),
        (
            "Second-line immunosuppressive therapy should be considered in patients with myocarditis.",
            "second-line immunosuppressive therapy",
        ),
    ],
)
def test_drug_therapy_phrases_are_medication(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """The contract: drug-therapy phrases are Medication, whatever their function."""
    assert named(extract(lexicon, text))[name].role == "Medication"


@pytest.mark.parametrize(
    "text",
    [
        "Echocardiography is recommended at baseline and subsequently every year.",
        "Aspirin and clopidogrel, respectively, are recommended after the procedure.",
        "Troponin should be measured before each cycle and, if normal, less often.",
        "Cardiac rehabilitation should be considered in people with heart failure in NYHA "
        "functional class II status.",
        "Pre-participation screening is recommended in young people who participate in "
        "competitive sport.",
        "Knee bracing with dose adjustment is advised in runners with loose knees.",
        "Avoidance of crowds and situations is advised in adults with vertigo.",
        "Referral to a centre with a specialist team and expertise in gout patients is advised "
        "in adults with tophi.",
        "Pacing is advised in patients who develop further prolongation of QRS or PR >20 ms.",
        "Allopurinol alone (range 100–300 mg o.d.) is advised in adults with gout.",
        "Knee surgery may be considered in patients with growth of the knee effusion >2 mm per "
        "month.",
        "It is advised to watch for gout flares after surgery and treat (colchicine).",
        "Echocardiography is advised in adults developing breathlessness.",
    ],
)
def test_a_lone_adverb_or_generic_word_is_no_concept(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "subsequently", "respectively", "if normal", "the procedure", a "status" or
    "participate" left over from the words around it: how, when or which, never a disease, a
    test or a drug (the contract: generic words are no concepts); so are an "adjustment" left
    once its dose is gone, "situations" named by no example, a centre's "expertise", the
    "further" of "who develop further X", the "range" a dose bracket leaves, the "growth"
    of a measurement whose change per month is the parameter, a bare "treat" whose act is
    named in brackets, and the "developing" of "adults developing X"."""
    names = {c.normalized for c in extract(lexicon, text).concepts}
    assert not names & {
        "subsequently",
        "respectively",
        "normal",
        "procedure",
        "status",
        "participate",
        "adjustment",
        "situation",
        "expertise",
        "further",
        "range",
        "growth",
        "treat",
        "developing breathlessness",
    }


@pytest.mark.parametrize(
    ("text", "act"),
    [
        (
            "Serial troponin measurement is recommended in patients with myocarditis.",
            "troponin measurement",
        ),
        ("Treatment of the presence of atrial flutter is recommended.", None),
    ],
)
def test_serial_and_presence_of_are_no_part_of_a_name(lexicon, text: str, act: str | None) -> None:  # type: ignore[no-untyped-def]
    """ "serial troponin measurement" is the troponin measurement, repeated (how often is
    a schedule); "the presence of X" names X."""
    result = extract(lexicon, text)
    assert not any(c.normalized.startswith(("serial", "presence of")) for c in result.concepts)
    if act:
        assert act in {a.normalized for a in result.actions}


def test_an_aside_saying_what_else_patients_receive_names_co_therapies(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(patients should also receive a statin and aspirin)": drugs given beside the act,
    each its own Medication, not one concept carrying "patients should also receive"."""
    found = named(
        extract(
            lexicon,
            "Ivabradine should be considered in patients with angina (patients should also "
            "receive a statin and aspirin).",
        )
    )
    assert found["statin"].role == "Medication" and found["aspirin"].role == "Medication"
    assert not any("should" in name for name in found)


def test_an_abbreviation_spelled_like_a_small_word_is_a_name(lexicon) -> None:
    """ "AT" in capitals is atrial tachycardia, not the preposition "at": a leaf that is a
    listed abbreviation as written is a name even when its lower case is a function word."""
    found = named(extract(lexicon, "Ablation should be considered in adults with AT."))
    assert "atrial tachycardia" in found


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("Midodrine may be considered in adults with orthostatic hypotension.", "midodrine"),
        ("Oxytocin is advised after delivery in women with heart disease.", "oxytocin"),
        ("Fondaparinux may be considered in adults with HIT.", "fondaparinux"),
        ("Rosiglitazone is not advised in adults with heart failure.", "rosiglitazone"),
        ("Tranexamic acid should be considered in adults with major bleeding.", "tranexamic acid"),
        ("Analgesics are advised after pericardiotomy.", "analgesic"),
        ("HF therapy is advised in adults who develop LV dysfunction.", "heart failure therapy"),
        (
            "Tricyclic antidepressants are not advised in adults with HF.",
            "tricyclic antidepressant",
        ),
        ("Antipsychotics should be reviewed in older adults with falls.", "antipsychotics"),
        ("Opioids are not advised in adults with low blood pressure.", "opioid"),
    ],
)
def test_drug_names_and_drug_words_the_terminology_lacks(lexicon, text: str, drug: str) -> None:
    """Drug stems (-odrine, -ephrine, -metrine, -tocin, -parinux, -glitazone), "tranexamic
        acid", "analgesics", "bile acid sequestrants", the classes of drugs that act on the mind
    or on pain ("antidepressants", "antipsychotics", "opioids") and a therapy named after the disease it
        treats ("HF therapy": the drugs for heart failure) are Medication, as the contract makes
        drug therapies."""
    result = extract(lexicon, text)
    assert {c.normalized: c.role for c in result.concepts}.get(drug) == "Medication"


def test_history_or_presence_cut_from_its_disease_is_no_concept(lexicon) -> None:
    """ "with (or a history of) stroke", "in the presence, or with a history, of X": the
    words "history" and "presence" left alone by the bracket or commas name nothing; the
    disease they were said of is the concept."""
    found = named(extract(lexicon, "Surgery is not advised in adults with (or history of) stroke."))
    assert "stroke" in found
    assert not {"history", "presence"} & set(found)


def test_an_unknown_origin_stays_and_a_supplementary_table_goes(lexicon) -> None:
    """ "palpitations of unknown origin" is another finding than palpitations (the contract
    keeps meaning-changing qualifiers); "Supplementary Data Table 4" printed into the row
    points elsewhere and names nothing."""
    result = extract(
        lexicon,
        "Holter monitoring is advised in adults with palpitations of unknown origin. "
        "Supplementary Data Table 4",
    )
    names = {c.normalized for c in result.concepts}
    assert "palpitations of unknown origin" in names
    assert not any("table" in name for name in names)


def test_two_drugs_used_together_are_both_named(lexicon) -> None:
    """ "Combined use of an ACE-I with an ARB": two drugs given together, both concepts; only
    a regimen named by its items ("DAPT with aspirin and clopidogrel") gives way to them."""
    result = extract(lexicon, "Combined use of an ACE-I with an ARB is not advised.")
    names = {c.normalized for c in result.concepts if c.role == "Medication"}
    assert {
        "angiotensin ii receptor antagonist",
        "angiotensin-converting enzyme inhibitor",
    } <= names


def test_a_combination_of_drugs_names_each_drug_not_the_combination(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a combination of A and B" is a generic head over its items (the contract: a generic
    head names only its item), like "the use of A": each drug is a concept of its own, and
    no concept is called "combination of A"."""
    found = named(
        extract(
            lexicon,
            "Treatment with a combination of edoxaban and clopidogrel may be considered in "
            "adults with PAD.",
        )
    )
    assert found["edoxaban"].role == "Medication", found
    assert found["clopidogrel"].role == "Medication", found
    assert not [name for name in found if "combination" in name], found


@pytest.mark.parametrize(
    ("text", "named_acts"),
    [
        (
            "Regular walking (brisk walking or cycling or a combination thereof) is advised "
            "in adults with claudication.",
            {"brisk walking", "cycling"},
        ),
        (
            "A low-salt diet or daily exercise or a combination of these is advised in adults "
            "with hypertension.",
            {"low-salt diet", "daily exercise"},
        ),
    ],
)
def test_a_combination_of_the_named_alternatives_is_no_concept_of_its_own(
    lexicon, text: str, named_acts: set[str]
) -> None:
    """ "A or B or a combination thereof": the combination is the two acts already named,
    done together; it names nothing new, so it is no concept."""
    found = named(extract(lexicon, text))
    assert named_acts <= set(found), found
    assert not [name for name in found if "combination" in name], found


def test_patients_as_a_generic_head_are_dropped_from_a_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "frail patients" in a list of examples, or "monitoring of patients" as the act:
    "patients" is the generic head the contract drops, so the concept is what names them
    ("frail") or what is done ("monitoring"); a state after "of" keeps its patients."""
    found = named(
        extract(
            lexicon,
            "In adults at high risk (e.g. frail patients or dialysis patients), a geriatric "
            "review should be considered.",
        )
    )
    assert not [name for name in found if name.endswith("patient")], found
    found = named(
        extract(
            lexicon, "Close monitoring of patients with severe PH is recommended after surgery."
        )
    )
    assert "close monitoring" in found, found


def test_a_footnote_letter_glued_to_a_known_abbreviation_is_left_out(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A table whose footnotes were printed far away leaves its letters glued to the words
    ("LMWHc"): an abbreviation known without the letter and not with it names the drug, and
    one known only as printed ("QTc", or "PCIs" read as a plural) keeps its letter."""
    names = named(extract(lexicon, "Adjusted-dose LMWHc is advised in adults with PCIs."))
    assert any("low-molecular-weight heparin" in name for name in names)
    assert not any("lmwhc" in name for name in names)
    qt = extract(lexicon, "A drug is not advised in adults with a QTc above 500 ms.")
    assert any(c.text.startswith("QTc") for c in qt.concepts)


def test_three_drugs_joined_by_slashes_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "diuretics/beta-blockers/prednisone": three drugs (known by name or morphology) in a
    slash list are alternatives (one OR label), not a fixed-dose pair; a pair of two names
    ("sacubitril/valsartan") stays one."""
    result = extract(
        lexicon, "Diuretics/beta-blockers/prednisone are advised in adults with angina."
    )
    drugs = [c for c in result.concepts if c.role == "Medication"]
    assert {d.normalized for d in drugs} == {"diuretic", "beta-blocker", "prednisone"}
    assert len({d.or_group for d in drugs}) == 1 and drugs[0].or_group is not None
    pair = extract(lexicon, "Sacubitril/valsartan is advised in adults with heart failure.")
    assert [a.normalized for a in pair.actions] == ["sacubitril/valsartan"]


def test_the_watch_kept_under_an_act_is_its_co_therapy(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "drug therapy under close surveillance": the act is the therapy; the surveillance kept
    beside it is a procedure given with it (co-therapy), not part of its name."""
    result = extract(
        lexicon,
        "In adults with a type A haematoma, initial drug therapy under close surveillance is advised.",
    )
    assert [a.normalized for a in result.actions] == ["initial drug therapy"]
    watch = next(c for c in result.concepts if "surveillance" in c.normalized)
    assert watch.role == "Procedure" and watch.normalized == "close surveillance"


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "In adults with angina, pre-operative initiation of ivabradine may be considered.",
            "ivabradine",
        ),
        ("In adults with angina, peri-operative continuation of statins is advised.", "statin"),
        (
            "In women with a prolactinoma, cabergoline treatment may be considered.",
            "cabergoline treatment",
        ),
    ],
)
def test_when_a_drug_is_started_is_no_part_of_its_name(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """ "pre-operative initiation of X", "peri-operative continuation of X": the act is the
    drug, named alone; an ergot drug the terminology lacks is known by its stem (-goline)."""
    result = extract(lexicon, text)
    assert [(a.role, a.normalized) for a in result.actions] == [("Medication", drug)]


def test_a_footnote_letter_glued_to_a_plural_is_left_out(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "nitratesd": a letter glued to a plural where no English word ends so is a footnote
    marker, also when the table printed no footnote for it; the drug keeps its name."""
    result = extract(lexicon, "Long-acting nitratesd are advised in adults with angina.")
    assert [(a.role, a.normalized) for a in result.actions] == [
        ("Medication", "long-acting nitrate")
    ]


def test_a_named_drugs_proven_benefit_is_no_part_of_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a GLP-1 receptor agonist with proven renal benefit": the benefit of a drug named by
    its class is a reason, not a kind of it; "agents with proven benefit" names which agents
    and keeps it."""
    result = extract(
        lexicon,
        "In adults with CKD, a GLP-1 receptor agonist with proven renal benefit is advised.",
    )
    assert [a.normalized for a in result.actions] == ["glp-1 receptor agonist"]
    kept = extract(
        lexicon, "It is advised to prioritize lipid-lowering agents with proven renal benefit."
    )
    assert [a.normalized for a in kept.actions] == [
        "lipid-lowering agents with proven renal benefit"
    ]


def test_either_or_both_and_a_lone_bracket_between_commas(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "treatment with either A or B, at the highest tolerated doses (if not contraindicated),
    is recommended": "either" / "both" lead in to the drugs, and the bracket left alone
    between commas once the dose goes is an aside of the drugs, so the lead clause still ends
    before the act."""
    result = extract(
        lexicon,
        "In adults with Loeys-Dietz syndrome, treatment with either a beta-blocker or losartan, "
        "at the highest tolerated doses (if not contraindicated), is advised.",
    )
    assert [a.normalized for a in result.actions] == ["beta-blocker", "losartan"]
    both = extract(
        lexicon,
        "In adults with angina, the use of both a nitrate and ranolazine may be considered.",
    )
    assert [a.normalized for a in both.actions] == ["nitrate", "ranolazine"]


def test_an_infusion_rate_and_how_long_after_the_procedure_are_no_concept(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "(2 mg/kg bolus, followed by 1.5 mg/kg/h for up to 6 h after the procedure)": a dose
    per hour is a dose, and how long it runs after the procedure is a duration; neither is
    an act or a criterion."""
    result = extract(
        lexicon,
        "Argatroban (2 mg/kg bolus, followed by 1.5 mg/kg/h for up to 6 h after the procedure) "
        "is advised in adults with heparin-induced thrombocytopenia.",
    )
    assert [a.normalized for a in result.actions] == ["argatroban"]
    assert not any("procedure" in c.normalized or "mg" in c.normalized for c in result.concepts)


def test_drugs_given_to_patients_undergoing_an_act_and_a_calculated_score(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "that heparin and ticagrelor are administered to patients undergoing stenting": the
    patients after "to" are the cohort, both drugs the acts; "Calculation of the X score"
    names the score."""
    result = extract(
        lexicon,
        "It is advised that heparin and ticagrelor are administered to adults undergoing stenting.",
    )
    assert [a.normalized for a in result.actions] == ["heparin", "ticagrelor"]
    score = extract(lexicon, "Calculation of the STS score may be considered before valve surgery.")
    assert [a.normalized for a in score.actions] == ["society of thoracic surgeons score"]


@pytest.mark.parametrize("hedge", ["usually", "typically", "generally"])
def test_a_hedge_before_a_named_drug_is_no_part_of_it(lexicon, hedge: str) -> None:  # type: ignore[no-untyped-def]
    """ "single antiplatelet therapy, usually aspirin": how often the choice falls on the drug
    says nothing about the drug; the name is the drug alone."""
    result = extract(lexicon, f"Lifelong uric acid lowering, {hedge} allopurinol, is advised.")
    assert "allopurinol" in named(result)
    assert not [c for c in result.concepts if hedge in c.normalized]


@pytest.mark.parametrize("lead", ["Intake of", "Use of"])
def test_taking_a_drug_is_the_drug(lexicon, lead: str) -> None:  # type: ignore[no-untyped-def]
    """ "Intake of allopurinol during a flare" says what "Use of allopurinol" says: the act
    is the drug itself."""
    result = extract(lexicon, f"{lead} allopurinol during a gout flare is not advised.")
    assert [a.normalized for a in result.actions] == ["allopurinol"]


@pytest.mark.parametrize(
    "pointer", ["as in Figure 2", "as shown in Table 5", "according to Figure 7"]
)
def test_a_pointer_to_a_figure_without_brackets_names_nothing(lexicon, pointer: str) -> None:  # type: ignore[no-untyped-def]
    """ "Knee triage is advised as in Figure 2": the figure shows the steps; it is no state of
    the patients and no part of the act."""
    result = extract(lexicon, f"Knee triage is advised in runners with gout {pointer}.")
    names = {c.normalized for c in result.concepts}
    assert not any(word in name for name in names for word in ("figure", "table"))


@pytest.mark.parametrize(
    "written", ["The calcium channel blocker amlodipine", "The beta-blocker nebivolol"]
)
def test_a_class_written_before_a_named_drug_is_no_part_of_it(lexicon, written: str) -> None:  # type: ignore[no-untyped-def]
    """ "the beta-blocker nebivolol": the class says what kind of drug follows; the drug,
    named by its own name, is the concept."""
    drug = written.split()[-1]
    result = extract(lexicon, f"{written} is advised in adults with gout and angina.")
    assert [a.normalized for a in result.actions] == [drug]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("A Nordic or similar diet is advised in adults with obesity.", "nordic diet"),
        ("Fibrates or comparable drugs are advised in adults with obesity.", "fibrate"),
        ("Risk scoring with QRISK3 or an equivalent is advised in adults with obesity.", "qrisk3"),
    ],
)
def test_or_similar_is_no_alternative(lexicon, text: str, kept: str) -> None:  # type: ignore[no-untyped-def]
    """ "A or similar B", "A or an equivalent": the words stand for anything like A, so
    the row names A (with the head it shares) and no second concept, nor an OR group."""
    found = named(extract(lexicon, text))
    assert kept in found and found[kept].or_group is None, found
    assert not any(w in n for n in found for w in ("similar", "comparable", "equivalent"))


def test_a_dash_bullet_and_a_daily_dose_abbreviation_are_no_part_of_a_drug(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A row printed as a list item opens with a dash ("– Drug …"), and a dose may end in
    "q.d." (once a day) like "b.i.d.": neither is part of the drug's name."""
    found = named(extract(lexicon, "– Edoxaban 30 mg q.d. is advised in adults with frailty."))
    assert "edoxaban" in found and found["edoxaban"].text == "Edoxaban", found


def test_a_feasibility_hedge_inside_a_bracket_leaves_the_bracket_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "X (and Y if indicated)": the hedge goes, but the bracket it sits in must still
    close, so the second act in it is read; only a bracket that holds the hedge alone goes."""
    acts = {
        a.normalized
        for a in extract(
            lexicon,
            "Early echocardiography (and ablation if needed) is advised in adults with syncope.",
        ).actions
    }
    assert {"early echocardiography", "ablation"} <= acts, acts


def test_markers_glued_to_an_abbreviation_or_a_comma_and_a_leading_then_go(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A citation number glued to an abbreviation ("NOAC512"), a footnote letter glued
    after a comma ("for CKD,d statins") and the "then" that opens the recommendation after
    an "if" clause are printing, not words of any concept."""
    found = named(
        extract(lexicon, "If renal function falls, then NOAC512 dosing review is advised.")
    )
    assert not any("then" in n or "512" in n for n in found), found
    found = named(extract(lexicon, "In adults with gout and CKD,d statins are advised."))
    assert "statin" in found and not any(n.startswith("d ") for n in found), found


def test_a_generic_last_word_leaves_the_role_to_the_words_before_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "over a new PCI attempt", "a balloon approach": "attempt", "approach" only frame
    the act; its role is what the words before them name (a procedure), not a guess."""
    result = extract(lexicon, "Surgery is advised over a new PCI attempt in adults with gout.")
    compared = [c for c in result.concepts if "attempt" in c.normalized]
    assert compared and compared[0].role == "Procedure", result.concepts


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("Naloxone is advised in adults with opioid use disorder.", "opioid use disorder"),
        (
            "ECG monitoring is advised in adults with antipsychotic-induced QT prolongation.",
            "antipsychotic-induced qt prolongation",
        ),
    ],
)
def test_a_drug_class_word_modifying_a_state_leaves_it_a_condition(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
    state: str,
) -> None:
    """A drug class named as a modifier ("opioid use disorder", "antipsychotic-induced QT
    prolongation") says where a state comes from; the state is still a Condition."""
    found = {c.normalized.lower(): c.role for c in extract(lexicon, text).concepts}
    assert found[state] == "Condition"


@pytest.mark.parametrize(
    ("text", "members", "grouped"),
    [
        (
            "Long-acting nitrates (isosorbide mononitrate and nicorandil) may be considered "
            "for angina relief.",
            ("isosorbide mononitrate", "nicorandil"),
            True,
        ),
        (
            "Dual antiplatelet therapy (aspirin and prasugrel) is advised after stenting.",
            ("aspirin", "prasugrel"),
            False,
        ),
    ],
)
def test_members_of_a_plural_drug_class_joined_by_and_are_alternatives(  # type: ignore[no-untyped-def]
    lexicon, text: str, members: tuple[str, str], grouped: bool
) -> None:
    """A drug class in the plural with two drugs in its bracket names its members, any one
    of which is meant even when "and" joins them (as a comma list already was); a
    combination therapy's bracket names drugs given together, no alternatives."""
    found = named(extract(lexicon, text))
    first, second = (found[name] for name in members)
    if grouped:
        assert first.or_group is not None and first.or_group == second.or_group, found
    else:
        assert first.or_group is None and second.or_group is None, found
