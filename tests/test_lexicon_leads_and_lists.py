"""A sentence that opens with its aim and names its act as a list ("To evaluate X,
measurement of A, B, and C is recommended"), what trails the act (an open-ended duration,
the role the drug is given in, the watch kept beside it), and a footnote letter glued to a
drug's name; the tests a finding is seen on, listed; "any of the following is the case:" and
"if one of the following is present: A; B; C"; "at least one high-risk feature: A; B";
"at risk of or with X"; a cohort's semicolon list after such a lead with no final "or", or
resumed after the therapy an item resists; the cases after "for the following procedures:";
"at least one of A, B or C" with no "the following". In the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import assert_one_or_group, extract, named


def test_an_aim_lead_ends_before_a_listed_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """The last comma before the verb belongs to the list of what is measured; the aim ends
    where "measurement of" starts the subject, so every item measured is an act."""
    result = extract(
        lexicon,
        "To evaluate for kidney damage, measurement of serum creatinine, urea, potassium, and"
        " uric acid is advised for all adults with hypertension.",
    )
    acts = {a.normalized for a in result.actions}
    assert {"urea", "potassium", "uric acid"} <= {a.split(" measurement")[0] for a in acts}, acts
    assert any("creatinine" in a for a in acts), acts


def test_an_aim_listing_its_own_items_keeps_them(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "To reduce stroke, MI, and death, a statin is advised": the list is the aim's; the act
    after the last comma is the statin alone."""
    result = extract(lexicon, "To reduce stroke, MI, and death, a statin is advised in adults.")
    assert [a.normalized for a in result.actions] == ["statin"], result.actions


def test_an_open_ended_duration_goes_whole(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "for the first 21 days or longer": how long the therapy goes on, open at its end;
    "or longer" is part of the duration, not a state of the patients."""
    found = named(
        extract(lexicon, "DAPT is advised for the first 21 days or longer in adults with stroke.")
    )
    assert not any("longer" in n for n in found), found


def test_what_a_drug_is_given_as_is_no_second_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "amiodarone … as prophylactic therapy", "as maintenance therapy": the role the drug
    plays, like "as first-line therapy"; the drug is the one act."""
    result = extract(
        lexicon, "Amiodarone is advised as prophylactic therapy to prevent AF after valve surgery."
    )
    assert [a.normalized for a in result.actions] == ["amiodarone"], result.actions
    assert not [c for c in result.concepts if "prophylactic" in c.normalized], result.concepts


def test_a_watch_named_in_several_words_is_kept_beside_the_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "drug therapy under careful clinical and echo surveillance": the surveillance
    goes beside the therapy, however many words name it, and never joins the drug's name."""
    result = extract(
        lexicon,
        "Drug therapy under careful clinical and echo surveillance is advised in adults"
        " with a small aortic tear.",
    )
    assert [a.normalized for a in result.actions] == ["drug therapy"], result.actions
    assert any("echo surveillance" in c.normalized for c in result.concepts), result.concepts


def test_a_footnote_letter_glued_to_a_drug_name_is_left_out(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "verapamild", "doxorubicinb": where the table's footnotes were lost, a letter glued
    to a drug's name is its marker, so the drug keeps its name (and its SNOMED CT code);
    words of their own ("requiring", "anticoagulated") keep their last letter."""
    result = extract(
        lexicon, "Verapamild is advised in anticoagulated adults requiring rate control."
    )
    names = [c.normalized for c in result.concepts]
    assert "verapamil" in names, names
    assert not any(n.endswith("anticoagulate") for n in names), names


@pytest.mark.parametrize(
    ("text", "name", "unit"),
    [
        ("A defibrillator is advised in adults with an LVEF below 30%c.", "ejection fraction", "%"),
        ("Drug treatment is advised when systolic BP stays at 150 mmHgb or more.", "blood", "mmHg"),
        (
            "A statin is advised to bring LDL-C under 1.8 mmol/Le in adults with diabetes.",
            "ldl",
            "mmol/L",
        ),
    ],
)
def test_a_footnote_letter_glued_to_a_unit_is_left_out(  # type: ignore[no-untyped-def]
    lexicon, text: str, name: str, unit: str
) -> None:
    """ "30%c", "150 mmHgb": no unit ends in a letter it does not have, so a lower-case
    letter glued to one is a footnote marker even where the table's footnotes were lost.
    Before, the value lost its unit and the letter and unit became a concept of their own."""
    result = extract(lexicon, text)
    value = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert len(value) == 1 and value[0].unit == unit, result.concepts
    assert name in value[0].normalized.replace("low density lipoprotein", "ldl"), value
    others = [c for c in result.concepts if c.role != "ClinicalParameter"]
    assert not [c for c in others if unit.lower() in c.text.lower()], others


def test_a_letter_after_a_unit_inside_a_word_or_a_one_letter_unit_stays(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: the letter is a marker only when it ends the unit's word: "3 meta-analyses" and
    "at 65 he" are a number and a word, not a unit with a marker glued to it."""
    text = "Data from 3 meta-analyses support it; at 65 he was advised to stop."
    assert lexicon.prepared_text(text) == text


def test_the_tests_a_finding_is_seen_on_are_no_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "no frequent or complex ectopy on 24-h Holter monitoring or stress testing":
    the listed tests are how the finding is found; the "or" between them joins no
    alternative of the finding, so neither test joins the negated OR group."""
    result = extract(
        lexicon,
        "Sport may be considered in adults in the absence of frequent or complex ectopy on"
        " 24-h Holter monitoring or stress testing.",
    )
    negated = sorted(c.normalized for c in result.concepts if c.negated)
    assert negated == ["complex ectopy", "frequent ectopy"], negated


def test_any_of_the_following_is_the_case_leads_a_list_of_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if any of the following is the case: • A • B • C" (citation numbers may follow the
    colon): the bullets are alternatives, any one enough, as after "… are present:"."""
    result = extract(
        lexicon,
        "Surgery should be considered in adults with a dilated aorta if any of the following is"
        " the case:70,153 • Age <50 years • Short stature • Family history of dissection.",
    )
    listed = [c for c in result.concepts if c.normalized != "surgery" and c.or_group]
    assert len(listed) == 3 and len({c.or_group for c in listed}) == 1, result.concepts


def test_at_risk_of_or_with_names_two_alternatives(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "adults with gout at risk of or with CKD": the suspended "of" shares the disease with
    "with"; the patients are at risk of it or have it, either one, beside their gout."""
    result = extract(
        lexicon, "Allopurinol is advised in adults with gout at risk of or with kidney disease."
    )
    found = {c.normalized: c.or_group for c in result.concepts if c.role == "Condition"}
    assert "gout" in found, found
    risk = [n for n in found if n.startswith("at risk")]
    assert risk and found.get("kidney disease") and found[risk[0]] == found["kidney disease"], found


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "Valve surgery should be considered if one of the following is present: LVEF <50%;"
            " a peak velocity >5 m/s; or severe valve calcification.",
            {"left ventricular ejection fraction", "peak velocity", "severe valve calcification"},
        ),
        (
            "Pacing is advised when any of the following is present: pauses >3 s; a broad QRS"
            " escape rhythm; a long QT interval.",
            {"pause", "broad qrs escape rhythm", "long qt interval"},
        ),
    ],
)
def test_a_semicolon_list_after_if_any_of_the_following_is_one_or_group(  # type: ignore[no-untyped-def]
    lexicon, text: str, items: set[str]
) -> None:
    """ "if / when any of the following is present: A; B; C": semicolons end the items of
    a clause condition any one of which is enough, one OR group over all of them."""
    found = named(extract(lexicon, text))
    assert items <= set(found), set(found)
    assert len({found[name].or_group for name in items}) == 1, found
    assert found[next(iter(items))].or_group is not None, found


def test_at_least_one_named_feature_leads_its_list_and_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "who have at least one high-risk feature: A; B; or C": the words before the colon
    name the list, no concept, and the first item is named alone."""
    found = named(
        extract(
            lexicon,
            "An early invasive strategy is advised in adults with NSTE-ACS who have at least one"
            " high-risk feature: shock; refractory angina; or acute heart failure.",
        )
    )
    assert "shock" in found and not [n for n in found if "feature" in n], set(found)


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "Admission is advised for adults with fainting who have any of the following:"
            " onset lying flat; new palpitations; complete heart block.",
            {"new palpitation", "complete heart block"},
        ),
        (
            "Early angiography is advised in adults who have at least one high-risk feature:"
            " cardiogenic shock; angina refractory to nitrates; sustained ventricular"
            " tachycardia.",
            {"cardiogenic shock", "sustained ventricular tachycardia"},
        ),
        (
            "Admission is advised for adults with fainting who have any of these: onset lying"
            " flat; new palpitations; complete heart block.",
            {"onset lying flat", "new palpitation", "complete heart block"},
        ),
    ],
)
def test_a_cohort_list_after_an_any_of_lead_needs_no_final_or(  # type: ignore[no-untyped-def]
    lexicon, text: str, items: set[str]
) -> None:
    """A list of a cohort's states after "any of the following:" or "at least one <name>:"
    whose items only semicolons separate is still a list of alternatives: the lead already
    says that one of them is enough, so the last item belongs to the same OR group. "any of
    these:" is the same lead (before, it was read as part of the first item)."""
    found = named(extract(lexicon, text))
    assert items <= set(found), set(found)
    assert len({found[name].or_group for name in items}) == 1, found
    assert found[next(iter(items))].or_group is not None, found


@pytest.mark.parametrize(
    "text",
    [
        "Anticoagulation is advised in adults with any of the following: a history of stroke;"
        " LV thrombus; or LVEF <30%.",
        "Anticoagulation is advised when one of these is present: a history of stroke; LV"
        " thrombus; or LVEF <30%.",
    ],
)
def test_a_head_in_a_semicolon_list_stays_with_its_item(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "any of the following: a history of stroke; LV thrombus; ...": a semicolon ends a
    whole item, so "history of" is the first item's only (a comma list, "a history of
    stroke, LV thrombus or ...", still lends it). Before, the thrombus became "history of
    left ventricular thrombus"."""
    found = named(extract(lexicon, text))
    assert "left ventricular thrombus" in found, found
    assert_one_or_group(found["history of stroke"], found["left ventricular thrombus"])


def test_a_list_resumed_after_a_therapy_keeps_its_or(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A or B; pain refractory to a drug; or C": the semicolon ends the drug the pain
    resists, and the "or" before C still makes C one more alternative of the list."""
    found = named(
        extract(
            lexicon,
            "Early angiography is advised in adults with shock or pulmonary oedema; angina"
            " refractory to nitrates; or sustained ventricular tachycardia.",
        )
    )
    assert {"shock", "sustained ventricular tachycardia"} <= set(found), set(found)
    assert found["shock"].or_group is not None, found
    assert found["shock"].or_group == found["sustained ventricular tachycardia"].or_group, found


def test_a_list_an_alternative_opens_joins_the_one_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "with A or B, or with C or D": the second list only goes on offering alternatives,
    so all four share one OR label; a list nested under an item that is not itself offered
    ("or with C and D or E") is not what this joins."""
    found = named(
        extract(
            lexicon,
            "Statins are advised in adults with diabetes or gout, or with psoriasis or lupus.",
        )
    )
    groups = {found[n].or_group for n in ("diabetes mellitus", "gout", "psoriasis", "lupus")}
    assert len(groups) == 1 and None not in groups, found


@pytest.mark.parametrize(
    "text",
    [
        "Antibiotic prophylaxis is not advised for the following procedures: gastroscopy;"
        " colonoscopy; cystoscopy.",
        "Antibiotic prophylaxis is not advised for the following procedures: gastroscopy,"
        " colonoscopy, cystoscopy.",
    ],
)
def test_the_cases_after_for_the_following_are_alternatives(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "not advised for the following procedures: A; B; C": each listed case is one the
    advice is about, any one of them, and the lead ("the following procedures:") names
    nothing."""
    found = named(extract(lexicon, text))
    assert {"gastroscopy", "colonoscopy", "cystoscopy"} <= set(found), set(found)
    assert_one_or_group(found["gastroscopy"], found["cystoscopy"])
    assert not [n for n in found if "procedures" in n or ":" in n], set(found)


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "A defibrillator should be considered in adults with dilated cardiomyopathy if at"
            " least one of NSVT, LVEF below 45% or AV block is present.",
            {"nsvt", "left ventricular ejection fraction", "av block"},
        ),
        (
            "Admission is advised for patients with fainting who have any of chest pain, a new"
            " murmur and a family history of sudden death.",
            {"chest pain", "new murmur", "family history of sudden death"},
        ),
    ],
)
def test_at_least_one_of_a_list_names_alternatives(lexicon, text: str, items: set[str]) -> None:  # type: ignore[no-untyped-def]
    """ "at least one of A, B or C", "any of A, B and C": with no "the following" before it,
    the list itself is the alternatives, one enough whatever word ends it; the lead is no part
    of the first item's name."""
    result = extract(lexicon, text)
    found = {c.normalized: c.or_group for c in result.concepts}
    assert items <= set(found), found
    assert len({found[i] for i in items}) == 1 and found[next(iter(items))], found


def test_a_list_after_at_least_one_of_ends_at_its_last_item(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if at least one of A, B or C is present and D": D is asked for beside the list, not
    one more of its items; and a comma after the list goes on with the sentence ("… or C,
    an ICD and a loop recorder …"). A first reading of the list ran on to the sentence's
    last "and", putting D (and the acts) into the list's OR group."""
    result = extract(
        lexicon,
        "A defibrillator should be considered in adults with cardiomyopathy if at least one of"
        " NSVT, syncope or AV block is present and LVEF is below 50%.",
    )
    found = named(result)
    assert found["syncope"].or_group, found
    assert found["left ventricular ejection fraction"].or_group is None, found
    result = extract(
        lexicon,
        "In adults with at least one of diabetes, CKD or prior stroke, a defibrillator and a loop"
        " recorder should be considered.",
    )
    assert {a.normalized for a in result.actions} == {"defibrillator", "loop recorder"}, result


def test_any_of_a_whole_named_with_a_determiner_is_no_list(lexicon) -> None:  # type: ignore[no-untyped-def]
    """Guard: "at least one of the risk markers in Table 4 and LVEF below 40%": the markers
    are a whole named with "the", and the "and" after them is the sentence's, so the LVEF
    bound is asked for beside them, in no OR group."""
    found = named(
        extract(
            lexicon,
            "A defibrillator should be considered in adults with at least one of the risk markers"
            " in Table 4 and LVEF below 40%.",
        )
    )
    assert found["left ventricular ejection fraction"].or_group is None, found
