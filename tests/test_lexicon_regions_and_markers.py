"""Footnote letters printed one after another ("QTcc,d"), the QT abbreviations, what a
treated region takes in ("radiotherapy to a volume including the heart"), an act named
with where it is aimed ("referral to a centre"), a talk about a listed topic, and a second
act with its own modal verb.
In the team's own sentences.
"""

from __future__ import annotations

from cardio_assets.logic.row_text import without_spans
from tests.lexicon_fixtures import extract


def test_a_chain_of_footnote_letters_goes_with_its_comma() -> None:
    """ "QTcc,d monitoring": the letters c and d are one chain glued to "QTc"; the comma
    between them is the chain's own, so the word stays whole. A list comma before a letter
    ("digoxin,e ivabradine") is kept, chain or not."""
    assert without_spans("QTcc,d monitoring is advised", [(3, 4), (4, 6)]) == (
        "QTc monitoring is advised"
    )
    assert without_spans("digoxin,e,f ivabradine", [(7, 9), (9, 11)]) == "digoxin, ivabradine"
    assert without_spans("digoxin,e ivabradine", [(7, 9)]) == "digoxin, ivabradine"


def test_the_qt_abbreviations_are_expanded(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "QTc" is the corrected QT interval and "QTcF" the one corrected by Fridericia's
    formula; both are named in full like any other abbreviation."""
    result = extract(
        lexicon, "QTc monitoring is advised in adults on ribociclib with QTcF >480 ms."
    )
    names = {c.normalized for c in result.concepts}
    assert "corrected qt interval monitoring" in names, names
    assert any(n.startswith("fridericia-corrected qt interval") for n in names), names


def test_what_a_region_takes_in_is_part_of_its_name(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "radiotherapy to a volume including the heart": the heart is inside the treated
    volume, not an example of radiotherapy; the whole is one procedure the patients had."""
    result = extract(
        lexicon,
        "Yearly echocardiography is advised in adults after radiotherapy to a volume"
        " including the heart.",
    )
    treated = [c for c in result.concepts if "radiotherapy" in c.normalized]
    assert [(c.role, c.text) for c in treated] == [
        ("Procedure", "radiotherapy to a volume including the heart")
    ], result.concepts


def test_an_act_aimed_somewhere_keeps_its_role(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "a graft to the LAD", "radiotherapy to the chest": where the act is aimed does not
    change what it is; "access to the torso" is no act at all."""
    result = extract(
        lexicon, "Echocardiography is advised in adults after radiotherapy to the chest."
    )
    assert ("Procedure", "radiotherapy to the chest") in {
        (c.role, c.text) for c in result.concepts
    }, result.concepts
    hard = extract(
        lexicon, "Pacing pads are advised in adults with ICDs if access to the torso is hard."
    )
    assert not [c for c in hard.concepts if c.role == "Procedure" and "access" in c.text], (
        hard.concepts
    )


def test_a_talk_about_a_list_is_one_act(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "informed about its benefits and risks": what is talked about is the talk's topic,
    listed; the list is not a set of acts. An act named after it ("and provision of a written
    plan") is one of its own."""
    result = extract(
        lexicon,
        "It is recommended that adults undergoing ablation are informed about its benefits and"
        " risks beforehand.",
    )
    assert len(result.actions) == 1 and "risks" in result.actions[0].normalized, result.actions
    both = extract(
        lexicon,
        "A discussion about diet and exercise and provision of a written plan is advised in"
        " adults with obesity.",
    )
    acts = [a.normalized for a in both.actions]
    assert acts[0] == "discussion about diet and exercise" and len(acts) == 2, acts


def test_a_second_act_with_its_own_modal_verb_is_recommended_too(lexicon) -> None:  # type: ignore[no-untyped-def]
    """ "… is recommended in adults who develop X and a tracing should be taken every 12 h":
    the second clause has its own subject and modal verb, a second recommendation; the ECG
    is an act, not a state of the patients, and "every 12 h" is its schedule. A relative
    clause ("and those who should be treated") is no second recommendation."""
    result = extract(
        lexicon,
        "Stopping sotalol is recommended in adults who develop a QTc above 500 ms and a 12-lead"
        " ECG should be taken every 12 h until it normalizes.",
    )
    assert "12-lead electrocardiogram" in {a.normalized for a in result.actions}, result.actions
    assert not [c for c in result.concepts if "12 h" in c.text], result.concepts
