"""Coordination the lexicon reads by rule: two modifiers that share one head ("low- or
iso-osmolar", "severe/complex"), and OR groups nested inside a longer cohort.

Every sentence here is the team's own; each names the phrasing it stands for.
"""

from __future__ import annotations

import pytest

from cardio_assets.logic.logic_split import Expr, Leaf, split_logic
from tests.lexicon_fixtures import assert_one_or_group, extract, named


def alternatives(text: str, lexicon, *names: str) -> None:  # type: ignore[no-untyped-def]
    """Assert the row of ``text`` names every one of ``names``, all in one OR group."""
    found = named(extract(lexicon, text))
    groups = {found[name].or_group for name in names}
    assert len(groups) == 1 and None not in groups, {n: found[n].or_group for n in names}


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        # a suspended hyphen: the first word's ending is printed once, on the second
        ("low-/iso-osmolar contrast agents", "low-osmolar contrast agents", "iso-osmolar"),
        ("second-/third-degree heart block", "second-degree heart block", "third-degree"),
        # two single modifiers joined by a slash
        ("severe/complex carotid plaque", "severe carotid plaque", "complex carotid plaque"),
        ("very high/high bleeding risk", "very high bleeding risk", "high bleeding risk"),
    ],
)
def test_two_modifiers_share_the_head_after_them(text: str, first: str, second: str) -> None:
    """The contract (section 6) distributes a shared head: "single- or double-vessel
    disease" is two concepts with one OR label. The first one's words stay as printed
    ("low-"), its full name borrows the head."""
    tree = split_logic(text)
    assert isinstance(tree, Expr) and tree.op == "OR"
    one, two = tree.children
    assert isinstance(one, Leaf) and isinstance(two, Leaf)
    assert one.full == first
    assert text.startswith(one.text)  # the verbatim span: the words before the slash
    assert two.text.startswith(second)


@pytest.mark.parametrize(
    "text",
    [
        "peri-/epicardial biopsy",  # a prefix, not a word with an ending to share
        "eGFR 30/60 mL/min",  # numbers and units
        "statin/ezetimibe combination",  # one named combination
        "screening for stroke/systemic embolism",  # inside a complement: what one act is for
        "adults with/without diabetes",  # both poles, no alternative
    ],
)
def test_slashes_that_do_not_join_two_alternatives_stay_whole(text: str) -> None:
    """A slash between a prefix and a word, inside a value, in a named combination, inside
    the complement of a head or between "with" and "without" offers no alternatives:
    nothing is split."""
    tree = split_logic(text)
    assert tree == Leaf(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # two nouns: nothing shared
        ("osteopenia/osteoporosis", ["osteopenia", "osteoporosis"]),
        # a head after two nouns is shared
        ("counselling/education programme", ["counselling programme", "education programme"]),
        # words before the pair are shared
        (
            "right ventricular dysfunction/dilatation",
            ["right ventricular dysfunction", "right ventricular dilatation"],
        ),
        # an adjective after the slash opens its own phrase: the noun before stands alone
        ("stroke/systemic embolism", ["stroke", "systemic embolism"]),
    ],
)
def test_two_words_joined_by_a_slash_are_alternatives(text: str, names: list[str]) -> None:
    """The contract (section 6) reads "/" like "or", and distributes what the two words
    share: "RV dysfunction/dilatation" is RV dysfunction or RV dilatation, one OR label."""
    tree = split_logic(text)
    assert isinstance(tree, Expr) and tree.op == "OR", tree
    assert [leaf.full or leaf.text for leaf in tree.children] == names  # type: ignore[union-attr]


def test_two_drugs_joined_by_a_slash_are_one_combination(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "sacubitril/valsartan": two drug names joined by a slash are one fixed-dose
    combination, one Medication; with a head after them ("thiazide/thiazide-like diuretic")
    the two are alternatives again."""
    found = named(extract(lexicon, "Sacubitril/valsartan is advised in adults with heart failure."))
    assert found["sacubitril/valsartan"].role == "Medication"
    found = named(
        extract(lexicon, "A thiazide/thiazide-like diuretic is advised in adults with oedema.")
    )
    assert_one_or_group(found["thiazide diuretic"], found["thiazide-like diuretic"])


def test_a_shared_head_in_a_row_gives_two_alternatives(lexicon) -> None:
    """ "in patients undergoing intermediate- or high-risk surgery": two kinds of surgery,
    either of which the row applies to, each named in full, one OR label, the same role."""
    result = extract(
        lexicon,
        "Measuring troponin is recommended in patients undergoing intermediate- or "
        "high-risk surgery.",
    )
    found = named(result)
    first, second = found["intermediate-risk surgery"], found["high-risk surgery"]
    assert first.or_group is not None and first.or_group == second.or_group
    assert first.role == second.role == "Procedure"
    assert first.text == "intermediate-"


def test_alternatives_nested_in_the_last_branch_of_a_cohort_keep_their_label(lexicon) -> None:
    """ "A, B, or C and D or E": the alternatives D or E sit inside the last branch of the
    outer list; they are still alternatives to each other, so they share a label."""
    result = extract(
        lexicon,
        "Screening is recommended in adults with diabetes and neuropathy, retinopathy, or "
        "renal disease and scheduled for low- or intermediate-risk surgery.",
    )
    found = named(result)
    low, intermediate = found["low-risk surgery"], found["intermediate-risk surgery"]
    assert low.or_group is not None and low.or_group == intermediate.or_group


@pytest.mark.parametrize(
    ("text", "whole", "alone"),
    [
        (
            "Ablation is recommended in patients with symptomatic atrial flutter.",
            "symptomatic atrial flutter",
            None,
        ),
        (
            "Ablation is recommended in symptomatic patients with atrial flutter.",
            "atrial flutter",
            "symptomatic",
        ),
    ],
)
def test_a_state_written_onto_the_disease_stays_in_its_name(
    lexicon, text: str, whole: str, alone: str | None
) -> None:
    """ "symptomatic atrial flutter" is one kind of flutter, a qualifier that changes the
    meaning (contract section 4); "symptomatic patients" describes the people, so there the
    state is a condition of its own."""
    found = named(extract(lexicon, text))
    assert whole in found
    assert (alone in found) if alone else "symptomatic" not in found


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        (
            "Ablation is advised in adults with symptomatic, recurrent atrial tachycardia.",
            "symptomatic recurrent atrial tachycardia",
        ),
        (
            "Pacing is indicated in patients with severe, unpredictable, recurrent syncope.",
            "severe unpredictable recurrent syncope",
        ),
    ],
)
def test_course_words_strung_with_commas_before_a_disease_name_one_disease(
    lexicon, text: str, whole: str
) -> None:
    """ "symptomatic, recurrent flutter": words for a disease's course, strung before the
    noun with commas, describe one disease; they are not a list of conditions."""
    found = named(extract(lexicon, text))
    assert whole in found
    assert not {"symptomatic", "severe", "unpredictable"} & set(found)


@pytest.mark.parametrize(
    ("text", "whole", "not_alone"),
    [
        (
            "Participation in a supervised, structured, home-based walking programme is advised "
            "for adults with claudication.",
            "supervised structured home-based walking programme",
            {"supervised", "structured"},
        ),
        (
            "Use of a formal, validated, frailty score is advised before valve surgery in "
            "older adults.",
            "formal validated frailty score",
            {"formal", "validated"},
        ),
        (
            "A clinically supervised, individualized exercise course is advised after a heart "
            "attack.",
            "clinically supervised individualized exercise course",
            {"clinically supervised"},
        ),
    ],
)
def test_manner_words_strung_with_commas_before_a_programme_qualify_it(
    lexicon, text: str, whole: str, not_alone: set[str]
) -> None:
    """ "a structured, supervised, home-based programme": words for how a programme or a
    score is carried out, strung before it with commas, describe that one thing; alone such
    a word names nothing, so none of them is an act of its own."""
    found = named(extract(lexicon, text))
    assert whole in found
    assert not not_alone & set(found)


def test_a_list_of_risk_factors_is_still_a_list(lexicon) -> None:
    """ "in elderly, previous stroke or renal failure": the comma separates items of a
    list; only words for a disease's course join the noun after them."""
    found = named(
        extract(
            lexicon,
            "Caution is advised in patients with risk factors such as elderly, previous "
            "stroke or renal failure.",
        )
    )
    assert "elderly previous stroke" not in found
    assert "previous stroke" in found


def test_a_finding_with_alternative_causes_is_the_finding_and_either_cause(lexicon) -> None:
    """ "fainting due to atrial or ventricular tachycardia" cannot be one name with two
    causes in it: the finding is one condition, its causes are alternatives of one OR."""
    found = named(
        extract(
            lexicon,
            "Beta-blockers are advised in adults with fainting due to SVT or VT.",
        )
    )
    assert "fainting" in found and found["fainting"].or_group is None
    svt, vt = found["supraventricular tachycardia"], found["ventricular tachycardia"]
    assert svt.or_group is not None and svt.or_group == vt.or_group


def test_a_finding_with_one_cause_keeps_it_in_its_name(lexicon) -> None:
    """ "fainting due to orthostatic hypotension" names one kind of fainting: one concept."""
    found = named(
        extract(lexicon, "Fluid intake should be considered in patients with fainting due to OH.")
    )
    assert "fainting due to orthostatic hypotension" in found


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("Estimating the 10-year fatal and non-fatal stroke risk is recommended.", "fatal and"),
        ("Invasive or non-invasive testing is recommended in adults with angina.", "invasive or"),
    ],
)
def test_a_word_and_its_negated_form_are_both_poles_of_one_concept(
    lexicon, text: str, whole: str
) -> None:
    """ "fatal and non-fatal stroke risk", "invasive or non-invasive testing": a word with
    its own negation covers both poles, one concept, not two alternatives."""
    result = extract(lexicon, text)
    assert any(whole in c.normalized for c in result.concepts)
    assert all(c.or_group is None for c in result.concepts)


def test_a_route_written_short_in_brackets_is_no_concept(lexicon) -> None:
    """ "verapamil (i.v.)": the route says how the drug is given, not another act."""
    found = named(extract(lexicon, "Verapamil (i.v.) should be considered for rate control."))
    assert not any(name.startswith("i.v") for name in found)


def test_a_bracketed_exception_negates_what_it_names(lexicon) -> None:
    """ "(with the possible exception of young athletes)": the row does not apply to them;
    the words "possible exception of" are no part of the concept."""
    found = named(
        extract(
            lexicon,
            "Pacing is advised in adults with sinus pauses (with the possible exception of "
            "young athletes).",
        )
    )
    assert found["young athlete"].negated
    assert not any("exception" in name for name in found)


def test_frequent_or_complex_lends_its_noun(lexicon) -> None:
    """ "frequent or complex ectopy": two kinds of ectopy, each named in full."""
    found = named(
        extract(lexicon, "Sport is discouraged in athletes with frequent or complex ectopy.")
    )
    assert {"frequent ectopy", "complex ectopy"} <= set(found)


def test_a_shared_head_with_very_and_a_name_with_a_plus_sign(lexicon) -> None:
    """ "high- and very high-risk HER2+ breast cancer": the grade "very high" shares the
    head too, and a name with a plus sign ("HER2+") still lets the patients be the cohort."""
    alternatives(
        "Troponin checks are advised in high- and very high-risk HER2+ tumour patients.",
        lexicon,
        "high-risk her2+ tumour",
        "very high-risk her2+ tumour",
    )


def test_two_grades_sharing_a_suffix_without_a_head(lexicon) -> None:
    """ "in high- and very high-risk patients": with "patients" dropped, the two grades
    still name two risk groups."""
    found = named(
        extract(lexicon, "Troponin checks are advised in high- and very high-risk patients.")
    )
    assert {"high-risk", "very high-risk"} <= set(found)


def test_with_a_or_who_are_b_makes_two_alternatives(lexicon) -> None:
    """ "in patients with atrial fibrillation, or who have a mechanical valve": two patient
    groups the row applies to, either of them; the contract makes them one OR group."""
    alternatives(
        "Anticoagulation is recommended in patients with atrial fibrillation, or who have a "
        "mechanical valve.",
        lexicon,
        "atrial fibrillation",
        "mechanical valve",
    )


def test_a_lone_adjective_before_or_borrows_the_head(lexicon) -> None:
    """ "loculated or thick purulent effusion": "loculated" has no noun of its own; it
    names a loculated purulent effusion, the alternative to the thick one."""
    found = named(
        extract(
            lexicon,
            "Drainage should be considered for loculated or thick purulent effusion.",
        )
    )
    assert {"loculated purulent effusion", "thick purulent effusion"} <= set(found)


def test_or_those_at_high_risk_is_another_patient_group(lexicon) -> None:
    """ "in adults aged 70 years or over, or those at high risk of dementia": two groups,
    either of them, one OR label."""
    alternatives(
        "Memory testing is advised in adults aged ≥70 years, or those at high risk of dementia.",
        lexicon,
        "age",
        "high risk of dementia",
    )


def test_for_a_condition_with_another_names_both(lexicon) -> None:
    """ "advised for any bradycardia with fainting spells": the act is for
    patients who have the one and the other, as "in patients with … with …" says; a name
    that holds "with" ("HF with reduced ejection fraction") stays whole."""
    found = named(
        extract(
            lexicon,
            "Urgent pacing is advised for any bradycardia with fainting spells.",
        )
    )
    assert {"bradycardia", "fainting spell"} <= set(found)
    found = named(
        extract(lexicon, "Sacubitril is recommended for HF with reduced ejection fraction.")
    )
    assert "heart failure with reduced ejection fraction" in found


def test_a_lead_ends_before_a_list_of_drugs_or_acts(lexicon) -> None:
    """ "For conversion of stable VT, a beta-blocker, sotalol, flecainide, or pacing should
    be considered": the commas of the action's own list of alternatives are no end of the
    lead clause; every item is recommended, one OR group, and the lead keeps its own
    comma-strung disease ("sustained, haemodynamically stable VT" is one)."""
    result = extract(
        lexicon,
        "For conversion of sustained, haemodynamically stable VT, a beta-blocker, sotalol, "
        "flecainide, or overdrive pacing should be considered.",
    )
    actions = {a.normalized for a in result.actions}
    assert {"beta-blocker", "sotalol", "flecainide", "overdrive pacing"} <= actions
    groups = {c.or_group for c in result.concepts if c.normalized in actions}
    assert len(groups) == 1 and None not in groups


def test_during_and_a_bracketed_duration_word_are_no_part_of_a_concept(lexicon) -> None:
    """ "(with the possible exception of athletes or during sleep)": "during" only says
    when; "(long-standing)" only qualifies the disease before it."""
    found = named(
        extract(
            lexicon,
            "Pacing is advised in adults with established (long-standing) heart block (with the "
            "possible exception of athletes or during sleep).",
        )
    )
    assert "sleep" in found and "during sleep" not in found
    assert "long-standing" not in found


@pytest.mark.parametrize(
    "text",
    [
        "with mild or moderate chronic kidney disease",
        "with preserved or mildly impaired RV systolic function",
        "normal or moderately reduced LV function",
        "with acquired complete or high-degree heart block",
        "at low or moderate risk",
    ],
)
def test_a_severity_range_stays_one_concept_after_a_preposition(text: str) -> None:
    """The contract (section 6) keeps a severity range whole ("moderate or severe mitral
    stenosis"); so after "with", from the unimpaired end of a scale ("preserved or
    mildly impaired function"), and after a word that qualifies the whole range ("acquired
    complete or high-degree block")."""
    tree = split_logic(text)
    assert isinstance(tree, Leaf), tree


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        (
            "with signs or symptoms of fluid overload",
            "signs of fluid overload",
            "symptoms of fluid overload",
        ),
        (
            "with signs/symptoms of RV failure",
            "signs of right ventricular failure",
            "symptoms of right ventricular failure",
        ),
    ],
)
def test_signs_and_symptoms_share_their_complement(
    lexicon, text: str, first: str, second: str
) -> None:  # type: ignore[no-untyped-def]
    """ "signs or symptoms of X" (or "signs/symptoms of X") are signs of X or symptoms of
    X: the shared complement is distributed (the contract, section 6), each named with it,
    one OR label."""
    alternatives(f"Echocardiography is advised in adults {text}.", lexicon, first, second)


def test_symptoms_or_a_history_of_an_event_do_not_share_it(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "symptoms or history of cardiac arrest": the symptoms are not of the arrest, so only
    signs and symptoms, a pair of findings, share a complement."""
    found = named(
        extract(
            lexicon, "Sport is not advised in adults with symptoms or history of cardiac arrest."
        )
    )
    assert "history of cardiac arrest" in found
    assert "symptoms of cardiac arrest" not in found


def test_an_or_inside_an_or_is_one_group(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ECG changes or signs/symptoms of LV dysfunction": three alternatives; the row's
    OR labels are flat (the contract, section 6), so all three share one."""
    alternatives(
        "Echocardiography is advised in adults with ECG changes or signs/symptoms of LV dysfunction.",
        lexicon,
        "electrocardiogram change",
        "signs of left ventricular dysfunction",
        "symptoms of left ventricular dysfunction",
    )


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        (
            "Sport is not advised in adults with a history of sudden cardiac arrest or unexplained fainting.",
            "history of sudden cardiac arrest",
            "history of unexplained fainting",
        ),
        (
            "Telemetry is advised in adults at high risk of tachyarrhythmia and/or lead failure.",
            "high risk of tachyarrhythmia",
            "high risk of lead failure",
        ),
        (
            "A chest X-ray is advised in adults with a suspicion of pericardial effusion or pleural involvement.",
            "suspected pericardial effusion",
            "suspected pleural involvement",
        ),
    ],
)
def test_a_history_risk_or_suspicion_of_is_lent_to_the_next_alternative(  # type: ignore[no-untyped-def]
    lexicon, text: str, first: str, second: str
) -> None:
    """ "a history of A or B" is a history of either; "at high risk of A or B", "a
    suspicion of A or B" likewise (the contract distributes shared heads). A suspicion is
    named as the golds name it, "suspected X"."""
    alternatives(text, lexicon, first, second)


def test_a_lent_head_keeps_the_negation_with_the_items(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "no history of VT or syncope": neither, each named with the history it lacks; the
    "no" negates the items and is no part of the lent head."""
    found = named(
        extract(lexicon, "Sport may be considered in adults with no history of VT or syncope.")
    )
    assert found["history of syncope"].negated
    assert not [n for n in found if n.startswith("no ")]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (
            "Ablation is advised for recurrent narrow-complex tachycardia (AVNRT, AVRT and AT).",
            {
                "atrioventricular nodal re-entrant tachycardia",
                "atrioventricular re-entrant tachycardia",
                "atrial tachycardia",
            },
        ),
        (
            "SGLT2 inhibitors (dapagliflozin, empagliflozin) are advised in adults with T2DM.",
            {"dapagliflozin", "empagliflozin"},
        ),
    ],
)
def test_a_bare_bracketed_list_of_kinds_offers_alternatives(
    lexicon, text: str, kinds: set[str]
) -> None:
    """ "tachycardia (A, B and C)", "SGLT2 inhibitors (X, Y)": the bracket lists kinds of the
    disease or drug class before it; a patient has one of them, a drug of the class is one of
    them, so they share one OR label whatever word ends the list."""
    result = extract(lexicon, text)
    groups = {c.or_group for c in result.concepts if c.normalized in kinds}
    assert {c.normalized for c in result.concepts} >= kinds
    assert len(groups) == 1 and None not in groups


def test_tests_listed_in_a_bracket_are_done_together(lexicon) -> None:
    """ "blood tests (creatinine, troponin)": tests named after a test are all done, no
    alternatives to choose from."""
    result = extract(
        lexicon, "Blood tests (creatinine, troponin) are advised before elective surgery."
    )
    assert all(c.or_group is None for c in result.concepts)


def test_examples_after_a_comma_and_e_g_are_alternatives_apart_from_their_head(lexicon) -> None:
    """ "established CVD, e.g. CAD, HFrEF or AF": the examples share one OR label; the
    disease they illustrate is not one more alternative beside them."""
    result = extract(
        lexicon, "Exercise training is advised in adults with established CVD, e.g. CAD or AF."
    )
    label = {c.normalized: c.or_group for c in result.concepts}
    assert label["coronary artery disease"] == label["atrial fibrillation"] is not None
    assert label["established cardiovascular disease"] is None


def test_an_alternative_group_after_bracketed_examples_pairs_with_the_kind(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with established CVD (e.g. CAD or PAD), or with diabetes": the second patient group
    is an alternative to the kind (CVD), not a third example beside CAD and PAD."""
    result = extract(
        lexicon,
        "Statins are advised in adults with established CVD (e.g. CAD or PAD) or with diabetes.",
    )
    label = {c.normalized: c.or_group for c in result.concepts}
    assert label["coronary artery disease"] == label["peripheral arterial disease"] is not None
    assert label["diabetes mellitus"] == label["established cardiovascular disease"] is not None
    assert label["diabetes mellitus"] != label["coronary artery disease"]


@pytest.mark.parametrize(
    "text",
    [
        "Imaging is advised in cases of chest pain, new murmur, syncope, and dyspnoea.",
        "Sport is not advised in the following circumstances: fever, chest pain, and syncope.",
        "Surgery is advised in adults with any of the following: syncope, angina, and dyspnoea.",
        # the singular "in the case of" before a list of cases says the same
        "Earlier repair may be considered in the case of fast growth, valve leak, and a wish "
        "for pregnancy.",
    ],
)
def test_a_list_of_cases_or_of_any_of_the_following_offers_alternatives(lexicon, text: str) -> None:
    """ "in cases of A, B, and C", "in the following circumstances: A, B and C", "any of the
    following: …", "in the case of A, B, and C": any one of the listed is enough, whatever
    word ends the list."""
    result = extract(lexicon, text)
    listed = [c for c in result.concepts if c.role == "Condition" and c.normalized != "adults"]
    assert len(listed) >= 3
    assert len({c.or_group for c in listed}) == 1 and listed[0].or_group is not None


def test_all_of_the_following_stays_a_conjunction(lexicon) -> None:
    """ "all of the following: A, B and C": every one is required, no alternatives."""
    result = extract(
        lexicon,
        "Surgery is advised in adults with all of the following: syncope, angina, and fever.",
    )
    assert all(c.or_group is None for c in result.concepts)


@pytest.mark.parametrize(
    "text",
    ["a detailed history and physical examination", "a symptom diary and ambulatory monitoring"],
)
def test_a_noun_ending_like_an_adjective_borrows_no_head(text: str) -> None:
    """ "history" ends like "coronary" and "diary" like "ambulatory", but they are nouns: "a
    detailed history and physical examination" is a history and an examination, never a
    "history examination" (while "aortic or mitral regurgitation" still shares its noun)."""
    tree = split_logic(text)
    assert isinstance(tree, Expr)
    assert all(leaf.full is None for leaf in tree.children), tree  # type: ignore[union-attr]


def test_a_slash_pair_is_one_alternative_inside_a_longer_list(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "ARNI/ACE-I" names two drugs either of which is meant; written in a list with "and"
    ("SGLT2 inhibitors, ARNI/ACE-Is, and MRAs") only the two of the slash are alternatives,
    and after "A and/or B and" the pair is an alternative of its own."""
    listed = extract(
        lexicon, "SGLT2 inhibitors, ARNI/ACE-Is, and MRAs are advised in adults with HF."
    )
    groups = {c.normalized: c.or_group for c in listed.concepts}
    pair = {groups["angiotensin receptor neprilysin inhibitor"]}
    assert pair == {groups["angiotensin-converting enzyme inhibitor"]} and pair != {None}
    assert groups["sodium glucose cotransporter 2 inhibitor"] not in pair
    assert groups["mineralocorticoid receptor antagonist"] not in pair
    raised = extract(
        lexicon,
        "In adults with dyspnoea and/or leg oedema and raised NT-proBNP/BNP, echocardiography "
        "is advised.",
    )
    labels = {c.normalized: c.or_group for c in raised.concepts}
    assert labels["dyspnoea"] == labels["leg oedema"] is not None
    peptides = labels["raised b-type natriuretic peptide"]
    assert peptides == labels["raised n-terminal pro-b-type natriuretic peptide"] is not None
    assert peptides != labels["dyspnoea"]


@pytest.mark.parametrize(
    "text",
    [
        "During the second and third trimesters, warfarin is advised.",
        "Warfarin is advised in the second or third trimester.",
    ],
)
def test_an_ordinal_before_what_it_counts_keeps_its_head_and_its_name(
    lexicon,  # type: ignore[no-untyped-def]
    text: str,
) -> None:
    """ "second or third trimester": each ordinal names its own trimester, so the first
    borrows the head after "in the" too, and "second" is no qualifier to drop there, as it
    is in "a second opinion"."""
    names = named(extract(lexicon, text))
    assert {"second trimester", "third trimester"} <= set(names)
    assert "trimester" not in names


def test_two_risk_grades_written_out_are_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "low-risk and intermediate-risk adults": a patient is in one risk grade or the other,
    so the two grades are alternatives (one OR label), however the "and" is written; two
    other modifiers joined by "and" ("pre-operative and post-operative checks") stay both."""
    result = extract(
        lexicon,
        "Stress imaging is advised in low-risk and intermediate-risk adults before surgery.",
    )
    grades = [c for c in result.concepts if "risk" in c.normalized]
    assert len(grades) == 2
    assert_one_or_group(*grades)
    both = extract(
        lexicon, "Pre-operative and post-operative ECG checks are advised in adults with angina."
    )
    assert all(c.or_group is None for c in both.concepts)


def test_numbered_kinds_share_their_head_and_a_numbered_grade_range_stays_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Two numbered kinds written before one noun are two kinds of that thing, so the head
    goes to each and they are alternatives (section 6); two numbers on a grade or stage
    scale are one range of severity, which the contract keeps as one concept."""
    kinds = named(
        extract(lexicon, "Yearly imaging is advised unless a type II or IV leak is seen.")
    )
    assert_one_or_group(kinds["type ii leak"], kinds["type iv leak"])
    assert kinds["type ii leak"].negated and kinds["type iv leak"].negated
    graded = named(
        extract(lexicon, "Drug therapy is advised for adults with grade 1 or 2 obesity.")
    )
    assert "grade 1 or 2 obesity" in graded
    staged = named(
        extract(lexicon, "Statins are advised in adults with stage 2 or 3 liver disease.")
    )
    assert "stage 2 or 3 liver disease" in staged


def test_two_risk_grades_joined_by_and_are_two_groups(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "at high and very high bleeding risk": no one is at both grades, so "and" joins two
    groups of patients (the contract's distributive "and"), each named with the risk, one
    OR label; "moderate or high" stays one range of the scale (the contract's severity
    range)."""
    found = named(
        extract(lexicon, "Statins are advised in adults at high and very high bleeding risk.")
    )
    assert_one_or_group(found["high bleeding risk"], found["very high bleeding risk"])
    ranged = named(
        extract(lexicon, "Statins are advised in adults at moderate or high bleeding risk.")
    )
    assert any(n.endswith("moderate or high bleeding risk") for n in ranged), ranged


def test_two_lists_of_alternatives_joined_by_comma_and_are_one_of_each() -> None:
    """ "A or B, and C or D": the comma before "and" closes the first list, so the phrase
    asks for one of each list, not one of four (before: OR(A, AND(B, C), D), one label)."""
    tree = split_logic("warfarin or phenprocoumon, and aspirin or clopidogrel")
    assert tree == Expr(
        "AND",
        (
            Expr("OR", (Leaf("warfarin"), Leaf("phenprocoumon"))),
            Expr("OR", (Leaf("aspirin"), Leaf("clopidogrel"))),
        ),
    )


@pytest.mark.parametrize(
    "text",
    [
        "syncope, palpitations, and dyspnoea or chest pain",  # no "or" before the joint
        "diabetes or CKD, and hypertension",  # no "or" after it
        "A or B, and C or D, and E or F",  # two joints: left as it was read before
    ],
)
def test_a_comma_and_without_alternatives_on_both_sides_splits_as_before(text: str) -> None:
    """Guard: only a single ", and" with an "or" on each side is the joint of two lists."""
    tree = split_logic(text)
    assert not (
        isinstance(tree, Expr)
        and tree.op == "AND"
        and len(tree.children) == 2
        and all(isinstance(c, Expr) and c.op == "OR" for c in tree.children)
    ), tree


def test_examples_in_two_lists_keep_one_label_each(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "drugs such as A or B, and C or D": the examples are two lists, each
    its own alternatives; before, the examples' shared label joined all four."""
    found = named(
        extract(
            lexicon,
            "Sedating drugs such as benzodiazepines or opioids, and antihistamines or "
            "gabapentin, should not be used in older patients with syncope.",
        )
    )
    assert_one_or_group(found["benzodiazepine"], found["opioid"])
    assert_one_or_group(found["antihistamine"], found["gabapentin"])
    assert found["benzodiazepine"].or_group != found["antihistamine"].or_group, found


@pytest.mark.parametrize(
    "text,kinds",
    [
        (
            "Colchicine is recommended in myocarditis, acute or recurrent, to reduce relapses.",
            ["acute myocarditis", "recurrent myocarditis"],
        ),
        (
            "Tafamidis is recommended in transthyretin amyloid cardiomyopathy, wild-type or "
            "hereditary, to reduce admissions.",
            [
                "wild-type transthyretin amyloid cardiomyopathy",
                "hereditary transthyretin amyloid cardiomyopathy",
            ],
        ),
    ],
)
def test_two_modifiers_after_a_disease_name_its_kinds(lexicon, text: str, kinds: list) -> None:  # type: ignore[no-untyped-def]
    """ "myocarditis, acute or recurrent": the kinds of the disease before the comma, one OR
    label, the disease itself no third alternative; before, "acute" and "recurrent" were
    conditions of their own beside the disease, all three in one group."""
    found = named(extract(lexicon, text))
    alternatives(text, lexicon, *kinds)
    bare = kinds[0].split(" ", 1)[1]
    assert bare not in found, found


def test_nouns_after_a_comma_stay_items_of_their_own() -> None:
    """Guard: "diabetes, obesity or hypertension" lists three conditions."""
    tree = split_logic("diabetes, obesity or hypertension")
    assert tree == Expr("OR", (Leaf("diabetes"), Leaf("obesity"), Leaf("hypertension")))
