"""A proviso written ", assuming X"; a target "brought under" a value; the items of an act
"consisting of" or "comprising" them; patients "facing" or "awaiting" an act; and an event
named first with the patients it happened to ("after PCI in patients with AF"). Read by
rule, in the team's own sentences.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


def test_assuming_after_a_comma_is_a_proviso(lexicon):
    # ", assuming X" sets a condition the way ", provided X" does: the value after it is a
    # criterion and the word itself names nothing.
    result = named(
        extract(
            lexicon,
            "Eplerenone may be added in resistant hypertension, assuming an eGFR of 40 or more "
            "mL/min/1.73 m².",
        )
    )
    assert "assuming" not in " ".join(result), result
    egfr = result["estimated glomerular filtration rate"]
    assert (egfr.operator, egfr.threshold, egfr.unit) == (">=", 40.0, "mL/min/1.73 m²"), result


def test_a_quantity_brought_under_a_value_is_its_target(lexicon):
    # "LDL-C should be brought under N" says what "lowered to below N" says: the quantity is
    # the parameter, the verb names nothing.
    result = named(
        extract(lexicon, "In patients at very high risk, LDL-C should be brought under 1.4 mmol/L.")
    )
    ldl = result["low density lipoprotein cholesterol"]
    assert (ldl.role, ldl.operator, ldl.threshold) == ("ClinicalParameter", "<", 1.4), result
    assert "brought" not in result, result


@pytest.mark.parametrize("joiner", ["consisting of", "comprising", "made up of"])
def test_an_act_made_of_named_items_names_the_items(lexicon, joiner):
    # "DAPT consisting of A and B" names the two drugs; the generic head adds nothing, as in
    # "revascularisation with CABG".
    result = named(
        extract(
            lexicon,
            f"After stenting for stable angina, DAPT {joiner} prasugrel and aspirin is "
            "recommended for 6 months.",
        )
    )
    assert {"prasugrel", "aspirin"} <= set(result), result
    assert not any(joiner.split()[0] in name for name in result), result


@pytest.mark.parametrize("verb", ["facing", "awaiting"])
def test_patients_facing_an_act_are_those_who_will_have_it(lexicon, verb):
    # "patients facing / awaiting cardiac surgery" are like those "scheduled for" it: the
    # act ahead of them is named alone, without the verb.
    result = named(
        extract(lexicon, f"Patients {verb} cardiac surgery should be screened for anaemia.")
    )
    assert result["cardiac surgery"].role == "Procedure", result
    assert not any(verb in name for name in result), result


@pytest.mark.parametrize("article", ["patients", "a patient", "the patient"])
def test_an_event_named_with_the_patients_it_happened_to(lexicon, article):
    # "Following TAVI in patients with AF, ...": the procedure is what the patients went
    # through, AF what they have; neither swallows the other.
    result = named(
        extract(
            lexicon,
            f"Following TAVI in {article} with AF, antiplatelet therapy should be stopped.",
        )
    )
    assert result["transcatheter aortic valve implantation"].role == "Procedure", result
    assert result["atrial fibrillation"].role == "Condition", result
