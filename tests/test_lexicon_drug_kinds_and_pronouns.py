"""Words that name a drug or nothing: drug therapies known by their kind (a monoclonal
antibody, iron given, a hormonal system's blockade) when the terminology lacks the name, and
pronouns or bare class words that stand for what the row names elsewhere, a risk class
read as numbers under its own name, drug classes and vascular or rhythm disorders by their
abbreviation (a guideline's own reading first), and a drug added
"if …" after the act.

Every sentence here is the team's own; each names the phrasing it stands for.
"""

from __future__ import annotations

import pytest

from tests.lexicon_fixtures import extract, named


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        (
            "An anti-IL-6 monoclonal antibody may be considered in adults with recurrent "
            "pericarditis.",
            "anti-il-6 monoclonal antibody",
        ),
        (
            "Intravenous ferric derisomaltose should be considered in adults with HFrEF and "
            "low ferritin.",
            "intravenous ferric derisomaltose",
        ),
        ("Intravenous iron may be considered in adults with HFpEF.", "intravenous iron"),
        (
            "Renin-angiotensin system blockade is advised in adults with diabetic kidney disease.",
            "renin-angiotensin system blockade",
        ),
    ],
)
def test_drug_therapies_named_by_their_kind_are_medications(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """A monoclonal antibody, an iron preparation given and a blockade of a hormonal system
    are drugs given (the contract: drug-therapy phrases are Medication), even when the
    terminology does not know the name."""
    found = {name: c.role for name, c in named(extract(lexicon, text)).items()}
    assert found.get(drug) == "Medication", found


def test_what_iron_names_depends_on_its_head(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "iron deficiency" is a state of the patient and "iron overload" too; only iron
    given is a drug."""
    text = "Oral iron is not advised in adults with iron deficiency or iron overload."
    found = {name: c.role for name, c in named(extract(lexicon, text)).items()}
    assert found.get("iron deficiency") == "Condition", found
    assert found.get("iron overload") == "Condition", found


def test_a_pronoun_or_a_bare_class_word_names_nothing(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "they should be given X", "either agent plus Y", "the following drugs are not
    advised: A; B": the pronoun and the bare class word stand for what the row names
    elsewhere, no concept of their own."""
    for text in (
        "In stable adults with a small PE, lysis is not advised; they should be given heparin.",
        "Verapamil plus a beta-blocker, or either agent plus ivabradine, is not advised.",
        "The following drugs are not advised in adults with HFrEF: • dronedarone; • NSAIDs.",
    ):
        names = set(named(extract(lexicon, text)))
        assert not names & {"they", "agent", "drug"}, (text, names)


def test_the_pregnancy_risk_class_is_a_parameter_of_its_own_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "mWHO class III or IV" grades a pregnancy's maternal risk: one parameter named as that
    scale, between its classes, never the WHO functional class of pulmonary hypertension."""
    found = named(extract(lexicon, "Pregnancy is not advised in women in mWHO class III or IV."))
    param = found["modified world health organization class"]
    assert (param.operator, param.threshold) == ("between", [3.0, 4.0])
    assert "world health organization functional class" not in found


@pytest.mark.parametrize(
    "drug",
    [
        "anakinra",
        "rilonacept",
        "etanercept",
        "azathioprine",
        "methotrexate",
        "mycophenolate mofetil",
        "tacrolimus",
        "ciclosporin",
        "hydroxychloroquine",
        "intravenous immunoglobulin",
    ],
)
def test_immunomodulators_are_known_by_their_stems(lexicon, drug: str) -> None:  # type: ignore[no-untyped-def]
    """The immunomodulators of pericarditis, myocarditis and transplant care carry INN
    stems (-kinra, -cept, -thioprine, -limus, -sporin, -quine …) that make them drugs even
    when the terminology lacks them; an amyloidosis named after an immunoglobulin stays a
    disease."""
    found = named(
        extract(lexicon, f"In adults with recurrent pericarditis, {drug} may be considered.")
    )
    assert found[drug].role == "Medication", found
    disease = named(
        extract(lexicon, "In immunoglobulin light chain amyloidosis, ECG screening is advised.")
    )
    assert disease["immunoglobulin light chain amyloidosis"].role == "Condition", disease


def test_monoclonal_names_a_drug_only_as_an_antibody(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "monoclonal gammopathy" is a disorder and "a monoclonal protein" what a test looks
    for; only a monoclonal antibody is a drug given."""
    found = named(
        extract(
            lexicon,
            "Monoclonal gammopathy should be excluded in adults with suspected AL amyloidosis.",
        )
    )
    assert found["monoclonal gammopathy"].role != "Medication", found


@pytest.mark.parametrize(
    "text",
    [
        "Drugs or catheter ablation should be considered for rate control in adults with AF.",
        "Either medication or catheter ablation is advised in symptomatic adults with AVNRT.",
    ],
)
def test_a_class_word_offered_as_an_alternative_stays(lexicon, text: str) -> None:  # type: ignore[no-untyped-def]
    """ "drugs or catheter ablation": the class word is one of two alternatives, a concept
    of its own in their OR group, not a word pointing back ("either agent plus X" is)."""
    result = extract(lexicon, text)
    assert len(result.actions) == 2, result.actions
    groups = {
        c.or_group
        for c in result.concepts
        if c.normalized in {"drug", "medication", "catheter ablation"}
    }
    assert len(groups) == 1 and None not in groups, result.concepts


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("An ERA should be considered in adults with PAH.", "endothelin receptor antagonist"),
        ("A PDE5i is advised in adults with PAH.", "phosphodiesterase 5 inhibitor"),
        (
            "Adding a PCSK9i is advised in adults with familial hypercholesterolaemia.",
            "proprotein convertase subtilisin/kexin type 9 inhibitor",
        ),
        (
            "Troponin measurement is advised in adults starting an ICI.",
            "immune checkpoint inhibitor",
        ),
    ],
)
def test_a_drug_class_abbreviation_is_a_medication(lexicon, text: str, drug: str) -> None:  # type: ignore[no-untyped-def]
    """Guideline tables shorten drug classes to a few capitals ("ERA", "PDE5i"); the class
    is a Medication under its full name, never an unknown act."""
    found = named(extract(lexicon, text))
    assert drug in found and found[drug].role == "Medication", found


@pytest.mark.parametrize(
    ("text", "drug", "when"),
    [
        (
            "A beta-blocker is advised, with digoxin added if the heart rate stays above"
            " 110 b.p.m.",
            "digoxin",
            "heart rate",
        ),
        (
            "An oral ERA should be considered, with a PDE5i given when walking distance falls.",
            "phosphodiesterase 5 inhibitor",
            "walking distance",
        ),
    ],
)
def test_a_drug_added_if_a_clause_holds_is_named_apart_from_the_clause(  # type: ignore[no-untyped-def]
    lexicon, text: str, drug: str, when: str
) -> None:
    """ "…, with Y added if Z": Y is given beside the act, and "added if Z" says when: the
    drug is named alone and Z is a concept of its own."""
    found = named(extract(lexicon, text))
    assert drug in found and found[drug].role == "Medication", found
    assert any(name.startswith(when) for name in found), found
    assert not [name for name in found if " if " in name or " when " in name], found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Walking training is advised in adults with LEAD.", "lower extremity artery disease"),
        ("Imaging after TEVAR is advised every year.", "thoracic endovascular aortic repair"),
        ("An S-ICD may be considered in adults with CPVT.", "catecholaminergic polymorphic"),
    ],
)
def test_a_vascular_or_rhythm_abbreviation_is_expanded(lexicon, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """The capitals guideline tables use for a disease or a procedure ("LEAD", "TEVAR",
    "CPVT") name it in full, as the golds write it."""
    found = named(extract(lexicon, text))
    assert any(n.startswith(name) for n in found), found


def test_a_guidelines_own_reading_of_an_abbreviation_wins(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "BAV" is a bicuspid aortic valve in most tables and a balloon valvuloplasty in
    some: where the guideline's own list spells it out, its reading is the one used."""
    text = "BAV may be considered before urgent surgery in adults with severe AS."
    assert "bicuspid aortic valve" in named(extract(lexicon, text))
    own = named(extract(lexicon, text, abbreviations={"BAV": "balloon aortic valvuloplasty"}))
    assert "balloon aortic valvuloplasty" in own and "bicuspid aortic valve" not in own, own
