"""Patient groups said with "both", "and for those recovering from", an alternative clause
whose second state is said with it only ("or who have B plus C"), "neither" before an
article, "as the method of choice" and "as the initial management of". Read by rule, in the
team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import extract, named


def test_both_before_two_diseases_is_either_group(lexicon):
    # "recommended in both HFmrEF and HFpEF": patients with one or the other; "both" only
    # stresses it and is no word of the first name.
    result = named(extract(lexicon, "Finerenone is recommended in both HFmrEF and HFpEF."))
    one = result["heart failure with mid range ejection fraction"]
    assert (
        one.or_group
        and one.or_group == result["heart failure with preserved ejection fraction"].or_group
    )
    assert not any(n.startswith("both") for n in result), result


def test_both_before_two_acts_stays_and(lexicon):
    # "Both aspirin and clopidogrel are recommended": two acts, no alternatives.
    result = named(extract(lexicon, "Both aspirin and clopidogrel are recommended after stenting."))
    assert result["aspirin"].or_group is None and result["clopidogrel"].or_group is None, result


def test_those_recovering_from_an_event_had_it(lexicon):
    # "for those recovering from an ACS": the ACS itself, as the golds name it.
    result = named(
        extract(
            lexicon,
            "Cardiac rehabilitation is recommended for patients with HF and for those recovering "
            "from an ACS.",
        )
    )
    assert "acute coronary syndrome" in result, result
    assert not any(n.startswith("recovering") for n in result), result


def test_a_state_said_with_the_second_alternative_only_takes_no_label(lexicon):
    # "who have A, or who have B plus C": A or B; C is said with B only, which flat labels
    # cannot hold, so C keeps no label of the alternatives.
    result = named(
        extract(
            lexicon,
            "Antihypertensive drugs should be considered in women who have gestational "
            "hypertension, or who have chronic hypertension plus proteinuria.",
        )
    )
    assert result["gestational hypertension"].or_group, result
    assert result["gestational hypertension"].or_group == result["chronic hypertension"].or_group
    assert result["proteinuria"].or_group is None, result


def test_neither_before_an_article_denies_both_as_one_group(lexicon):
    # "has neither a prosthetic valve nor a history of IE": both denied, one OR label.
    result = named(
        extract(
            lexicon,
            "Prophylaxis is not recommended when the patient has neither a prosthetic valve "
            "nor a history of IE.",
        )
    )
    assert result["prosthetic valve"].negated and result["history of ie"].negated, result
    assert result["prosthetic valve"].or_group == result["history of ie"].or_group is not None


def test_the_method_of_choice_is_the_acts_standing(lexicon):
    result = extract(
        lexicon, "Surgical repair is recommended as the method of choice in severe MR."
    )
    assert not any("choice" in c.normalized for c in result.concepts), result


def test_the_initial_management_of_a_state_names_the_state(lexicon):
    # "as the initial management of post-operative AF": the AF is what the act is for (a
    # guard: the code before read it so already; the new standing rules must not undo it).
    result = named(
        extract(
            lexicon,
            "Rate control is reasonable as the initial management of post-operative AF.",
        )
    )
    assert result["post-operative atrial fibrillation"].role == "Condition", result
    assert not any("management" in n for n in result), result
