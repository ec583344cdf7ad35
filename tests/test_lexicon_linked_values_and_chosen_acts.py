"""Values linked to their names by a verb and an adverb, acts named as a reasonable addition,
patients named by the drug that treats them, and what a decision rests on: each case in the
team's own words.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        # "is also lower than": the adverb between the verb and the comparison is no barrier
        # between a quantity and its value.
        (
            "IV iron may be considered in HF when ferritin is 100–299 ng/mL and the TSAT is "
            "also lower than 20%.",
            "transferrin saturation",
        ),
        # "persist at" links the quantity to its value as "remain at" does.
        (
            "Fibrate therapy may be considered in patients whose triglycerides persist at 2.3 "
            "to 5.6 mmol/L on a statin.",
            "triglyceride",
        ),
    ],
)
def test_a_verb_or_adverb_before_the_value_is_no_part_of_the_name(lexicon, sentence, name):
    result = named(extract(lexicon, sentence))
    assert name in result and result[name].role == "ClinicalParameter", result


def test_a_reasonable_addition_is_recommended(lexicon):
    # "X is a reasonable addition for Y": the act is X, said as one to add.
    result = extract(
        lexicon, "Ezetimibe is a reasonable addition for patients above their LDL-C goal."
    )
    assert [a.normalized for a in result.actions] == ["ezetimibe"], result.actions


def test_not_an_option_with_no_kind_stays_a_state(lexicon):
    # "when CABG is not an option" is a state of the patient, not advice against CABG (a
    # guard).
    result = extract(lexicon, "PCI is recommended in left main disease when CABG is not an option.")
    assert [(a.normalized, a.polarity) for a in result.actions] == [
        ("percutaneous coronary intervention", "recommended")
    ], result.actions


def test_patients_named_by_the_drug_treating_them_are_on_it(lexicon):
    # "anthracycline-treated patients": patients on the drug, the drug a concept of its own.
    result = named(
        extract(
            lexicon,
            "Echocardiography should be considered in anthracycline-treated patients with new "
            "dyspnoea.",
        )
    )
    assert "anthracycline" in result and result["anthracycline"].role == "Medication", result
    assert not any("treated" in name for name in result), result


def test_what_the_decision_rests_on_is_no_criterion(lexicon):
    # ", the decision resting on age and frailty": what the choice weighs, not who it is for.
    result = named(
        extract(
            lexicon,
            "Short-term circulatory support may be considered in refractory shock, the decision "
            "resting on age, frailty and neurological status.",
        )
    )
    assert not any("decision" in name or "frailty" in name for name in result), result
