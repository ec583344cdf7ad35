"""Several states of one therapy said in one clause ("when X is ineffective, poorly
tolerated, or contraindicated"), a verb inside a trailing "when / if" clause that is not
the row's own, what an act is about ("regarding the decision to stop X"), what a test
grades ("to assess the severity of X"), the test a value is measured by, and a need that
names no act ("if further lowering of X is needed").
In the team's own sentences.
"""

from __future__ import annotations

from tests.lexicon_fixtures import assert_one_act_and_no_word, extract


def _conditions(result) -> dict[str, str | None]:  # type: ignore[no-untyped-def]
    return {c.normalized: c.or_group for c in result.concepts if c.role == "Condition"}


def test_each_state_of_one_therapy_is_an_alternative_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when nitrates are ineffective, poorly tolerated, or are contraindicated": three ways
    the first choice can be ruled out, any one enough; each is a condition naming the drug,
    and none of them is a drug the patients take."""
    result = extract(
        lexicon,
        "Ranolazine may be considered in adults with stable angina when nitrates are"
        " ineffective, poorly tolerated, or are contraindicated.",
    )
    conditions = _conditions(result)
    states = {n for n in conditions if "nitrate" in n}
    assert states == {
        "ineffective nitrate",
        "nitrate intolerance",
        "contraindication to nitrate",
    }, conditions
    assert len({conditions[n] for n in states}) == 1 and None not in {
        conditions[n] for n in states
    }, conditions
    assert not [c for c in result.concepts if c.role == "Medication" and "nitrate" in c.text]


def test_states_of_two_alternative_therapies_keep_both_named(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "when enoxaparin or dalteparin is not available or is contraindicated": the two
    heparins stay named as the alternatives they are, and the two states are alternatives
    of their own."""
    result = extract(
        lexicon,
        "Fondaparinux is advised in adults with leg vein thrombosis when enoxaparin or"
        " dalteparin is not available or is contraindicated.",
    )
    drugs = {c.normalized: c.or_group for c in result.concepts if c.role == "Medication"}
    assert {"enoxaparin", "dalteparin"} <= set(drugs), drugs
    assert not any(
        c.negated for c in result.concepts if c.normalized in {"enoxaparin", "dalteparin"}
    )
    conditions = _conditions(result)
    states = [n for n in conditions if "not available" in n or "contraindication" in n]
    assert len(states) == 2 and len({conditions[n] for n in states}) == 1, conditions


def test_a_failed_or_declined_procedure_gives_two_states(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if catheter ablation has failed or is declined by the patient": either rules the
    ablation out; the patient's refusal is a state, not a word dropped."""
    result = extract(
        lexicon,
        "Surgical ablation may be considered in adults with recurrent flutter if catheter"
        " ablation has failed or is declined by the patient.",
    )
    conditions = _conditions(result)
    assert {"failure of catheter ablation", "catheter ablation declined"} <= set(conditions), (
        conditions
    )


def test_a_verb_inside_a_trailing_clause_is_not_the_rows_verb(lexicon) -> None:  # type: ignore[no-untyped-def]
    """A bullet under its stem ("Fondaparinux, only when the heparins are contraindicated")
    has no verb of its own; "are contraindicated" belongs to its "when" clause, so the drug
    before it stays the act and the heparins are what is ruled out."""
    result = extract(
        lexicon,
        "Fondaparinux, only when enoxaparin or dalteparin are not available or are"
        " contraindicated.",
    )
    assert [a.normalized for a in result.actions] == ["fondaparinux"], result.actions
    assert "contraindication to enoxaparin or dalteparin" in _conditions(result), result.concepts


def test_a_state_clause_with_no_therapy_named_reads_as_before(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "if those are unavailable or are contraindicated" names no therapy of its own (the
    pronoun points back); no condition is made up from the pronoun."""
    result = extract(
        lexicon,
        "Warfarin, or a heparin if those are unavailable or are contraindicated, is advised"
        " in adults with a mechanical valve.",
    )
    assert not [
        c
        for c in result.concepts
        if c.normalized.startswith(("these", "contraindication to these"))
    ]


def test_what_an_act_is_about_is_no_part_of_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "A team approach regarding interruption vs. continuation of trastuzumab": the act is
    the team approach; the drug the choice is about is one the patients are on, and the
    words that frame the choice are no concept."""
    result = extract(
        lexicon,
        "A team approach regarding interruption vs. continuation of trastuzumab is advised in"
        " adults who develop mild heart failure.",
    )
    assert [a.normalized for a in result.actions] == ["team approach"], result.actions
    drugs = [c for c in result.concepts if c.role == "Medication"]
    assert [d.normalized for d in drugs] == ["trastuzumab"], drugs
    assert not [c for c in result.concepts if "continuation" in c.text], result.concepts


def test_when_to_asks_a_question_and_sets_no_condition(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "the decision when to resume": "when to" opens a question the team answers, not a
    condition the patients meet; nothing is made of "to resume"."""
    assert_one_act_and_no_word(
        lexicon,
        "A team approach regarding the decision when to resume is advised in all adults"
        " with moderate heart failure.",
        "team approach",
        "resume",
    )


def test_a_topic_naming_no_therapy_gives_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a heart team discussion regarding the decision to proceed": the choice names no
    therapy the patients are on, so the topic gives no concept; the discussion is the act."""
    assert_one_act_and_no_word(
        lexicon,
        "A heart team discussion regarding the decision to proceed is advised in adults with"
        " severe aortic stenosis.",
        "heart team discussion",
        "proceed",
    )


def test_what_a_test_grades_is_a_condition_the_patients_have(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "to assess the severity of borderline left main narrowing": the test grades a
    narrowing already found, so the narrowing is a condition of the row; "to assess the
    presence of X" still only says why the test is done."""
    graded = extract(
        lexicon,
        "Pressure wire testing should be considered to assess the severity of borderline left"
        " main narrowing.",
    )
    assert any(c.role == "Condition" and "narrowing" in c.normalized for c in graded.concepts), (
        graded.concepts
    )
    sought = extract(
        lexicon, "Pressure wire testing should be considered to assess the presence of narrowing."
    )
    assert not [c for c in sought.concepts if c.role == "Condition"], sought.concepts


def test_the_test_a_value_is_measured_by_is_no_alternative(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a root diameter >45 mm or a growth of >3 mm per year measured by echocardiography":
    the echo is how both values are taken, done whichever is found; it is named alone and
    stands outside the two values' OR group."""
    result = extract(
        lexicon,
        "Yearly imaging is advised in the case of an aortic root diameter >45 mm or a growth"
        " of >3 mm per year measured by echocardiography.",
    )
    echo = [c for c in result.concepts if "echocardiography" in c.normalized]
    assert [(c.text, c.or_group) for c in echo] == [("echocardiography", None)], result.concepts
    values = [c for c in result.concepts if c.role == "ClinicalParameter"]
    assert len(values) == 2 and len({c.or_group for c in values}) == 1, values


def test_a_need_that_names_no_act_is_the_patients_state(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "If further lowering of LDL cholesterol is needed": nothing is indicated that could
    be done; the need itself is the state the patients are in, said by the whole clause."""
    result = extract(
        lexicon,
        "If further lowering of LDL cholesterol is needed, ezetimibe should be considered in"
        " adults with diabetes.",
    )
    needs = [c for c in result.concepts if c.normalized.startswith("need for")]
    assert [(n.role, n.text) for n in needs] == [
        ("Condition", "further lowering of LDL cholesterol is needed")
    ], result.concepts
