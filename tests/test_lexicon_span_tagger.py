"""The lexicon's learned second look at spans and roles (logic/lexicon/span_tagger.py): the
BIO encoding, how tagged spans revise the rules' drafts, that a model trained on a few
annotated rows of the team's own words learns a boundary the rules miss, and that the
shipped model is wired in by configuration.
"""

from __future__ import annotations

import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardio_assets.config import SHIPPED_SPAN_TAGGER, ExtractionSettings, load_pipeline_settings
from cardio_assets.logic.lexicon.drafts import Draft
from cardio_assets.logic.lexicon.span_tagger import (
    Span,
    SpanTagger,
    decode,
    labels,
    locate,
    provenance_path,
    revise,
    tokens,
    train,
    training_sequence,
)
from resources.lexicon_extractor import LexiconExtractorResource
from tests.lexicon_fixtures import extract, row_of

ROOT = Path(__file__).resolve().parent.parent


def _span(text: str, words: str, role: str) -> Span:
    start = text.index(words)
    return Span(start, start + len(words), role)


def test_spans_survive_the_label_round_trip() -> None:
    """Spans written as BIO labels and read back are the same spans; a second reading of
    words already labelled is left out, since one token carries one label."""
    text = "Rate control is advised in older walkers with ankle swelling after long flights."
    spans = [
        _span(text, "Rate control", "Procedure"),
        _span(text, "older walkers", "Condition"),
        _span(text, "ankle swelling after long flights", "Condition"),
    ]
    toks = tokens(text)
    assert decode(toks, labels(toks, spans)) == spans
    clashing = [*spans, _span(text, "long flights", "Procedure")]
    assert decode(toks, labels(toks, clashing)) == spans


def test_locate_takes_the_next_occurrence_of_a_repeated_surface() -> None:
    """The same words printed twice in a row are two places, not one."""
    text = "Aspirin before surgery and aspirin after surgery."
    assert locate(text, ["aspirin", "Aspirin", "valve repair"]) == [(0, 7), (27, 34), None]


def test_locate_finds_whole_words_only() -> None:
    """A short name printed inside a longer word is not that name: the second of two
    abbreviations where one ends with the other must land on its own word, and a plural of
    a demographic word must not be found inside an unrelated verb."""
    text = "After PTAR or TAR, follow-up is recommended for men."
    assert locate(text, ["PTAR", "TAR", "men"]) == [(6, 10), (14, 17), (48, 51)]
    assert locate("Recommended for all.", ["men"]) == [None]


def test_locate_reads_a_name_across_a_bracketed_aside() -> None:
    """The rules leave a bracketed value out of a name ("narrowing" of stated degree); the
    name still sits on the printed words around it, so the tagger's span over them keeps
    the rules' reading instead of starting a new one. An aside that is itself another
    concept's words is not crossed: those words stay that concept's."""
    text = "Stenting is advised for severe (>80%) narrowing of the left shin artery."
    assert locate(text, ["severe narrowing", "left shin artery"]) == [(24, 47), (55, 71)]
    graded = "Bracing is advised for severe (grade 3) knee laxity."
    assert locate(graded, ["severe knee laxity", "grade 3"]) == [None, (31, 38)]


def test_locate_finds_a_repeated_surface_where_its_occurrences_overlap() -> None:
    """Two drafts with the same words take two places even when those places share words."""
    assert locate("pain pain pain", ["pain pain", "pain pain"]) == [(0, 9), (5, 14)]


def _normalize(surface: str) -> str:
    return surface.lower()


def test_a_tagged_span_keeps_the_rule_draft_it_redraws_with_the_tagged_role() -> None:
    """When the tagger draws nearly the rules' words, the rules' reading (name, negation, OR
    label, slot) is kept and only the role is the tagger's; a span the rules did not draw
    becomes a new draft that takes the OR label of the clause it sits in."""
    text = "Bed rest is advised in hikers with calf pain on walking or with leg cramps."
    drafts = [
        Draft("Procedure", "Bed rest", "bed rest", "action"),
        Draft("Procedure", "hikers", "hiker", "cohort"),
        Draft("Condition", "calf pain", "calf pain", "cohort", or_group="g1"),
        Draft("Condition", "leg cramps", "leg cramp", "cohort", or_group="g1"),
    ]
    tagged = [
        _span(text, "Bed rest", "Procedure"),
        _span(text, "hikers", "Condition"),
        _span(text, "calf pain on walking", "Condition"),
        _span(text, "leg cramps", "Condition"),
    ]
    out = {d.text: d for d in revise(text, drafts, tagged, _normalize)}
    assert out["hikers"].role == "Condition" and out["hikers"].normalized == "hiker"
    redrawn = out["calf pain on walking"]
    assert (redrawn.role, redrawn.normalized, redrawn.negated, redrawn.or_group) == (
        "Condition",
        "calf pain on walking",
        False,
        "g1",
    )
    assert out["leg cramps"].normalized == "leg cramp"  # the rules' name
    assert out["Bed rest"].slot == "action"


def test_parameters_stay_the_rules_and_dropped_words_drop_their_drafts() -> None:
    """Values are read by the measurement grammar only, so a parameter draft is never
    re-drawn (nor a goal the rules read from its "to prevent ..." clause); a rule draft no tagged span keeps is dropped, except the act, which comes
    back when the tagger left its words untouched (a recommendation recommends something)."""
    text = "Diuretics are advised in swimmers with a resting pulse >110 b.p.m. after waking."
    pulse = Draft("ClinicalParameter", "resting pulse >110 b.p.m.", "resting pulse", "cohort")
    pulse.operator, pulse.threshold, pulse.unit = ">", 110.0, "/min"
    drafts = [
        Draft("Medication", "Diuretics", "diuretic", "action"),
        Draft("Condition", "swimmers", "swimmer", "cohort"),
        pulse,
        Draft("Condition", "after waking", "waking", "cohort"),
    ]
    tagged = [
        _span(text, "swimmers", "Condition"),
        _span(text, "resting pulse >110", "Condition"),  # over the parameter: ignored
        _span(text, "after waking", "Outcome"),  # a goal only the rules may name
    ]
    out = revise(text, drafts, tagged, _normalize)
    assert [d.text for d in out] == [
        "resting pulse >110 b.p.m.",
        "swimmers",
        "Diuretics",
    ]
    assert out[0].threshold == 110.0 and out[2].slot == "action"


def test_a_tagged_stretch_over_two_alternatives_keeps_the_rules_split() -> None:
    """The tagger may read "A or B" as one stretch of words; the rules split it into two
    alternatives under one OR label, and both are kept (with the tagged role) rather than
    one of them standing for the pair."""
    text = "Rest is advised in runners with shin pain or heel pain."
    drafts = [
        Draft("Procedure", "Rest", "rest", "action"),
        Draft("Condition", "runners", "runner", "cohort"),
        Draft("Procedure", "shin pain", "shin pain", "cohort", or_group="g1"),
        Draft("Procedure", "heel pain", "heel pain", "cohort", or_group="g1"),
    ]
    tagged = [
        _span(text, "Rest", "Procedure"),
        _span(text, "runners", "Condition"),
        _span(text, "shin pain or heel pain", "Condition"),
    ]
    out = [(d.text, d.role, d.or_group) for d in revise(text, drafts, tagged, _normalize)]
    assert out == [
        ("Rest", "Procedure", None),
        ("runners", "Condition", None),
        ("shin pain", "Condition", "g1"),
        ("heel pain", "Condition", "g1"),
    ]


def test_a_stretch_over_alternatives_still_keeps_the_draft_it_mostly_covers() -> None:
    """Keeping the alternatives inside a tagged stretch takes nothing from the other
    readings of those words: a wider draft the stretch mostly covers is kept as before, and
    two groups of alternatives in one stretch are both kept."""
    text = "Statins are advised in adults with gout or eczema."
    drafts = [
        Draft("Medication", "Statins", "statin", "action"),
        Draft("Condition", "adults with gout", "adult with gout", "cohort"),
        Draft("Condition", "gout", "gout", "cohort", or_group="g1"),
        Draft("Condition", "eczema", "eczema", "cohort", or_group="g1"),
    ]
    tagged = [
        _span(text, "Statins", "Medication"),
        _span(text, "adults with gout or eczema", "Condition"),
    ]
    kept = Counter(d.text for d in revise(text, drafts, tagged, _normalize))
    assert kept == Counter(["Statins", "gout", "eczema", "adults with gout"])
    two = "Braces for men or women with flat feet or bunions."
    groups = [
        Draft("Procedure", "Braces", "brace", "action"),
        Draft("Condition", "men", "man", "cohort", or_group="g1"),
        Draft("Condition", "women", "woman", "cohort", or_group="g1"),
        Draft("Condition", "flat feet", "flat foot", "cohort", or_group="g2"),
        Draft("Condition", "bunions", "bunion", "cohort", or_group="g2"),
    ]
    stretch = [
        _span(two, "Braces", "Procedure"),
        _span(two, "men or women with flat feet or bunions", "Condition"),
    ]
    assert [d.text for d in revise(two, groups, stretch, _normalize)] == [
        "Braces",
        "men",
        "women",
        "flat feet",
        "bunions",
    ]


def test_a_condition_cut_out_of_an_alternative_act_is_no_alternative() -> None:
    """The rules may read "stenting or bypass for angina" as two acts, the second carrying
    the condition; when the tagger cuts the condition out, the act keeps the OR label and
    the condition, what both acts are for, does not take it."""
    text = "After stenting or bypass for angina, rehabilitation is advised."
    drafts = [
        Draft("Procedure", "stenting", "stenting", "context", or_group="g1"),
        Draft("Procedure", "bypass for angina", "bypass for angina", "context", or_group="g1"),
        Draft("Procedure", "rehabilitation", "rehabilitation", "action"),
    ]
    tagged = [
        _span(text, "stenting", "Procedure"),
        _span(text, "bypass", "Procedure"),
        _span(text, "angina", "Condition"),
        _span(text, "rehabilitation", "Procedure"),
    ]
    groups = {d.text: d.or_group for d in revise(text, drafts, tagged, _normalize)}
    assert groups == {"stenting": "g1", "bypass": "g1", "angina": None, "rehabilitation": None}


def test_alternatives_of_different_roles_keep_their_own_roles() -> None:
    """ "a drug or a procedure" read as one tagged stretch cannot give both the one role."""
    text = "Give ibuprofen or physiotherapy for knee pain."
    drafts = [
        Draft("Medication", "ibuprofen", "ibuprofen", "action", or_group="g1"),
        Draft("Procedure", "physiotherapy", "physiotherapy", "action", or_group="g1"),
        Draft("Condition", "knee pain", "knee pain", "cohort"),
    ]
    tagged = [
        _span(text, "ibuprofen or physiotherapy", "Procedure"),
        _span(text, "knee pain", "Condition"),
    ]
    roles = {d.text: d.role for d in revise(text, drafts, tagged, _normalize)}
    assert roles == {
        "ibuprofen": "Medication",
        "physiotherapy": "Procedure",
        "knee pain": "Condition",
    }


def test_an_alternative_named_with_a_shared_head_stays_when_its_partner_is_kept() -> None:
    """In "mild or marked ankle swelling" the bare "mild" is a concept only through the head
    it shares (so is "single-" in "single- or double-vessel disease"); the tagger's few-word
    window may pass over it while keeping its partner. The rules' alternative then stays, OR
    label and all; a lone word the rules did not name with a head is still dropped."""
    text = "Compression is advised in walkers with mild or marked ankle swelling, if tired."
    drafts = [
        Draft("Procedure", "Compression", "compression", "action"),
        Draft("Condition", "walkers", "walker", "cohort"),
        Draft("Condition", "mild", "mild ankle swelling", "cohort", or_group="g1"),
        Draft(
            "Condition", "marked ankle swelling", "marked ankle swelling", "cohort", or_group="g1"
        ),
        Draft("Condition", "tired", "tired", "cohort"),
    ]
    tagged = [
        _span(text, "Compression", "Procedure"),
        _span(text, "walkers", "Condition"),
        _span(text, "marked ankle swelling", "Condition"),
    ]
    out = revise(text, drafts, tagged, _normalize)
    assert Counter(d.text for d in out) == Counter(
        ["Compression", "walkers", "marked ankle swelling", "mild"]
    )
    mild = next(d for d in out if d.text == "mild")
    assert (mild.or_group, mild.normalized) == ("g1", "mild ankle swelling")
    hyphen = "Stenting suits single- or double-vessel disease."
    vessels = [
        Draft("Procedure", "Stenting", "stenting", "action"),
        Draft("Condition", "single-", "single-vessel disease", "cohort", or_group="g1"),
        Draft(
            "Condition", "double-vessel disease", "double-vessel disease", "cohort", or_group="g1"
        ),
    ]
    spans = [
        _span(hyphen, "Stenting", "Procedure"),
        _span(hyphen, "double-vessel disease", "Condition"),
    ]
    assert "single-" in [d.text for d in revise(hyphen, vessels, spans, _normalize)]


def test_only_a_member_the_tagger_kept_brings_back_a_shared_head_alternative() -> None:
    """A negated member is the rules' reading whatever the tagger says, so it is no sign
    that the tagger read the coordination: with no other member kept, the bare word goes."""
    text = "Rest is advised in walkers without mild or marked ankle swelling."
    negated = Draft("Condition", "marked ankle swelling", "marked ankle swelling", "cohort")
    negated.or_group, negated.negated = "g1", True
    drafts = [
        Draft("Procedure", "Rest", "rest", "action"),
        Draft("Condition", "mild", "mild ankle swelling", "cohort", or_group="g1"),
        negated,
    ]
    kept = [d.text for d in revise(text, drafts, [_span(text, "Rest", "Procedure")], _normalize)]
    assert kept == ["marked ankle swelling", "Rest"]


# The rules read "in climbers with breathlessness during ascent" as the group "climbers with
# breathlessness" and a separate condition "ascent" (only a test, sleep or exertion after
# "during" stays with the finding by rule); the contract wants the group alone and the
# symptom with the activity it comes with. A handful of annotated rows teach that.
_TRAINING = [
    ("Exercise testing should be considered", "cyclists", "palpitations", "exertion"),
    ("Holter monitoring is advised", "rowers", "dizziness", "training"),
    ("A loop recorder may be considered", "swimmers", "chest pain", "exertion"),
    ("Echocardiography is advised", "climbers", "breathlessness", "ascent"),
    ("A tilt test may be considered", "skiers", "faintness", "descent"),
    ("Ambulatory monitoring is advised", "boxers", "palpitations", "sparring"),
    ("Stress imaging should be considered", "divers", "chest tightness", "ascent"),
    ("A treadmill test is advised", "jumpers", "dizziness", "landing"),
]


def _sentence(act: str, group: str, symptom: str, activity: str) -> str:
    return f"{act} in {group} with {symptom} during {activity}."


def _tiny_model(lexicon, path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A model trained on the few rows above: symptom and activity are one condition."""
    sequences = []
    for act, group, symptom, activity in _TRAINING:
        text = _sentence(act, group, symptom, activity)
        worker_text, drafts = lexicon.rule_drafts(row_of(text))
        gold = [
            _span(worker_text, act.removeprefix("A "), "Procedure"),
            _span(worker_text, group, "Condition"),
            _span(worker_text, f"{symptom} during {activity}", "Condition"),
        ]
        sequences.append(training_sequence(worker_text, drafts, gold))
    return train(sequences, path)


def test_a_model_trained_on_a_few_rows_learns_a_boundary_the_rules_miss(
    lexicon, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tagger = SpanTagger(_tiny_model(lexicon, tmp_path / "tiny.crfsuite"))

    unseen = _sentence("A patch monitor is advised", "runners", "dizziness", "sprints")
    before = {c.normalized for c in extract(lexicon, unseen).concepts}
    assert "runners with dizziness" in before  # what the rules alone read
    lexicon.span_tagger = tagger
    try:
        after = {c.text for c in extract(lexicon, unseen).concepts}
    finally:
        lexicon.span_tagger = None
    assert {"runners", "dizziness during sprints"} <= after


def test_the_tagger_reads_only_rows_of_the_guidelines_it_learned_unless_told_otherwise(
    lexicon, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Left out of training, a guideline's rows scored no better with the tagger than with
    the rules: by default a model re-draws rows of the guidelines its sidecar says it learned,
    and a new guideline gets the rules alone."""
    import json

    model = _tiny_model(lexicon, tmp_path / "tiny.crfsuite")
    provenance_path(model).write_text(json.dumps({"guidelines": ["walking-clubs"]}))
    text = _sentence("A patch monitor is advised", "runners", "dizziness", "sprints")

    def concepts(scope: str, guideline: str) -> set[str]:
        resource = LexiconExtractorResource(span_tagger=str(model), span_tagger_scope=scope)
        row = row_of(text).model_copy(update={"guideline": guideline})
        result = resource.build().extract(row, "MAIN")
        assert result.error is None, result.error
        # the record names the extractor that read the row
        assert result.model.endswith("+span-tagger-" + SpanTagger(model).fingerprint) == (
            "dizziness during sprints" in {c.text for c in result.concepts}
        )
        return {c.text for c in result.concepts}

    rules_alone = {c.text for c in extract(lexicon, text).concepts}
    assert "dizziness during sprints" not in rules_alone
    assert "dizziness during sprints" in concepts("learned_guidelines", "walking-clubs")
    assert concepts("learned_guidelines", "rowing-clubs") == rules_alone
    assert "dizziness during sprints" in concepts("all_guidelines", "rowing-clubs")
    # a sidecar that does not list them (a model trained by hand): every guideline
    provenance_path(model).write_text(json.dumps({"rules_version": "by hand"}))
    assert "dizziness during sprints" in concepts("learned_guidelines", "rowing-clubs")
    with pytest.raises(ValueError, match=r"span_tagger_scope 'some'.*learned_guidelines"):
        LexiconExtractorResource(span_tagger=str(model), span_tagger_scope="some").build()


def test_the_guidelines_a_model_reads_enter_the_extraction_code_version(tmp_path: Path) -> None:
    """Its sidecar decides which rows it re-draws, so a new list re-runs extraction."""
    from cardio_assets.assets._code_versions import extraction_code_version

    model = tmp_path / "model.crfsuite"
    model.write_bytes(b"a model")
    settings = ExtractionSettings(span_tagger=str(model))
    provenance_path(model).write_text('{"guidelines": ["walking-clubs"]}')
    first = extraction_code_version(settings)
    provenance_path(model).write_text('{"guidelines": ["walking-clubs", "rowing-clubs"]}')
    assert extraction_code_version(settings) != first
    wider = ExtractionSettings(span_tagger=str(model), span_tagger_scope="all_guidelines")
    assert extraction_code_version(wider) != extraction_code_version(settings)


SHIPPED_MODEL = SHIPPED_SPAN_TAGGER


def test_the_shipped_model_runs_by_default_on_its_own_guidelines_and_enters_the_cache_key() -> None:
    """On by default, scoped: on rows of the guidelines it learned it beat the rules in every
    blind split's first score; on a guideline it never saw it did not
    (benchmarks/span_tagger_by_guideline.py), so those rows get the rules alone. Its
    fingerprint is part of the prompt hash, so a retrained model re-runs extraction."""
    settings = load_pipeline_settings().extraction
    assert settings.span_tagger == SHIPPED_MODEL == ExtractionSettings().span_tagger
    assert settings.span_tagger_scope == "learned_guidelines"
    by_default = LexiconExtractorResource().build()
    rules_alone = LexiconExtractorResource(span_tagger="none").build()
    assert rules_alone.span_tagger is None and by_default.span_tagger is not None
    assert by_default.span_tagger.path == ROOT / SHIPPED_MODEL
    assert by_default.prompt_hash() != rules_alone.prompt_hash()
    # the team's sample guidelines and the development guidelines are its own; a new one is not
    assert by_default.tagger_reads("hf-sample") and by_default.tagger_reads("syncope_2018")
    assert not by_default.tagger_reads("a-guideline-it-never-saw")
    assert not rules_alone.tagger_reads("hf-sample")
    # a row the scope keeps from the tagger has the very record the rules alone would give
    new_row = row_of("Rate control is advised for older walkers with ankle swelling.")
    for extractor in (by_default, rules_alone):
        assert extractor.extract(new_row, "MAIN").model == rules_alone.model_name
    assert (
        by_default.extract(new_row, "MAIN").prompt_hash
        == rules_alone.extract(new_row, "MAIN").prompt_hash
    )
    learned_row = new_row.model_copy(update={"guideline": "hf-sample"})
    assert (
        by_default.extract(learned_row, "MAIN").prompt_hash
        != rules_alone.extract(learned_row, "MAIN").prompt_hash
    )


def test_a_missing_model_says_which_file_and_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"absent\.crfsuite.*train_span_tagger"):
        LexiconExtractorResource(span_tagger=str(tmp_path / "absent.crfsuite")).build()


def test_the_training_script_learns_from_the_sample_gold(tmp_path: Path) -> None:
    """The team's own sample gold alone is enough to train a working model (the real-row
    part needs the fetched corpus and is run by hand)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import train_span_tagger

    extractor = LexiconExtractorResource(span_tagger="none").build()
    sequences = train_span_tagger.sample_sequences(extractor)
    assert len(sequences) == 77
    assert all(len(x) == len(y) and any(tag != "O" for tag in y) for x, y in sequences)
    tagger = SpanTagger(train(sequences, tmp_path / "sample.crfsuite"))
    pairs = [(tag, gold) for x, y in sequences for tag, gold in zip(tagger.tag(x), y, strict=True)]
    assert sum(tag == gold for tag, gold in pairs) / len(pairs) > 0.95  # it fits what it saw


def test_retraining_the_model_marks_extraction_stale(tmp_path: Path) -> None:
    """Same path, new bytes: the extraction assets' code version changes."""
    from cardio_assets.assets._code_versions import extraction_code_version

    model = tmp_path / "model.crfsuite"
    settings = ExtractionSettings(span_tagger=str(model))
    model.write_bytes(b"first training")
    first = extraction_code_version(settings)
    model.write_bytes(b"second training")
    assert extraction_code_version(settings) != first
    assert extraction_code_version(ExtractionSettings(span_tagger=None)) != first


def test_a_model_retrained_in_place_is_opened_again_by_a_running_process(
    lexicon, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A long-lived process (a benchmark looping over guidelines, a code server) that
    builds the extractor again after the model file was rewritten must run the new model,
    not the one it opened first under the same path."""

    model = tmp_path / "model.crfsuite"
    text = _sentence("A patch monitor is advised", "runners", "dizziness", "sprints")
    worker_text, drafts = lexicon.rule_drafts(row_of(text))
    gold = [_span(worker_text, "runners", "Condition")]
    train([training_sequence(worker_text, drafts, gold)], model)
    first = LexiconExtractorResource(span_tagger=str(model)).build().span_tagger
    train([training_sequence(worker_text, drafts, [])] * 2, model)
    again = LexiconExtractorResource(span_tagger=str(model)).build().span_tagger
    assert first is not None and again is not None
    assert again.fingerprint != first.fingerprint


def test_each_word_knows_the_last_clause_word_before_it() -> None:
    """Two words either side cannot tell "with" four words back; the last clause-opening
    word ("with", "unless", "to", ...) before a token is a feature of it, reset at a full
    stop."""
    from cardio_assets.logic.lexicon.span_tagger import features

    text = "Rest is advised for walkers with long standing knee pain. Ice helps."
    toks = tokens(text)
    cues = {
        t.word: next(f for f in row if f.startswith("cue="))
        for t, row in zip(toks, features(toks, ["O"] * len(toks)), strict=True)
    }
    assert cues["pain"] == "cue=with" and cues["walkers"] == "cue=for"
    assert cues["Ice"] == "cue=<start>"


def test_a_negated_concept_stays_the_rules_reading() -> None:
    """ "without", "unless" or "no" often opens the clause several words before the concept,
    out of the tagger's sight: a negated rule draft is kept as the rules read it, and a
    tagged span over it is ignored."""
    text = "Stretching is advised for golfers unless a recent shoulder injury is present."
    drafts = [
        Draft("Procedure", "Stretching", "stretching", "action"),
        Draft("Condition", "golfers", "golfer", "cohort"),
        Draft("Condition", "recent shoulder injury", "recent shoulder injury", "cohort"),
    ]
    drafts[2].negated = True
    tagged = [
        _span(text, "Stretching", "Procedure"),
        _span(text, "golfers", "Condition"),
        _span(text, "shoulder injury is present", "Procedure"),
    ]
    out = revise(text, drafts, tagged, _normalize)
    injury = [d for d in out if "injury" in d.text]
    assert [(d.text, d.role, d.negated) for d in injury] == [
        ("recent shoulder injury", "Condition", True)
    ]


def test_a_negated_concept_may_take_the_tagged_role_and_keeps_its_negation() -> None:
    """The words and the "without" are the rules'; which kind of thing they name is what the
    tagger learned, so a tagged span over the same words sets the role only."""
    text = "Cycling is advised for adults without an artificial hip joint."
    joint = Draft("Procedure", "artificial hip joint", "artificial hip joint", "cohort")
    joint.negated = True
    drafts = [Draft("Procedure", "Cycling", "cycling", "action"), joint]
    tagged = [_span(text, "Cycling", "Procedure"), _span(text, "artificial hip joint", "Condition")]
    out = revise(text, drafts, tagged, _normalize)
    assert [(d.text, d.role, d.negated) for d in out if d.negated] == [
        ("artificial hip joint", "Condition", True)
    ]
    assert joint.role == "Procedure"  # the rules' draft itself is left as it was


def test_the_shipped_model_was_trained_with_the_rules_it_runs_beside() -> None:
    """The tagger's features are the rules' own spans: after a rule edit the model reads
    labels it never saw. Retrain it (benchmarks/train_span_tagger.py --corpus DIR/mddocs,
    about 6 s) whenever this fails."""
    from cardio_assets.logic.lexicon.version import RULES_VERSION

    tagger = LexiconExtractorResource(span_tagger=SHIPPED_MODEL).build().span_tagger
    assert tagger is not None
    assert tagger.provenance.get("rules_version") == RULES_VERSION, (
        "the span tagger was trained with other lexicon rules: retrain it"
    )
    assert "test" not in tagger.provenance["real_row_splits"]
    assert "blind3" not in tagger.provenance["real_row_splits"]


def test_cardio_extract_runs_with_the_rules_alone_or_names_a_missing_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from click.testing import CliRunner

    from cardio_assets.cli import main

    rows = tmp_path / "rows.jsonl"
    row = row_of("Rate control is advised for older walkers with ankle swelling.")
    rows.write_text(json.dumps(row.model_dump(mode="json", by_alias=True)) + "\n")
    out = tmp_path / "pred.jsonl"
    args = ["extract", "--rows", str(rows), "--out", str(out), "--backend", "lexicon"]
    done = CliRunner().invoke(main, [*args, "--span-tagger", "none"])
    assert done.exit_code == 0, done.output
    assert json.loads(out.read_text())["concepts"]
    missing = CliRunner().invoke(main, [*args, "--span-tagger", str(tmp_path / "gone.crfsuite")])
    assert missing.exit_code == 2
    assert "gone.crfsuite: no such model file" in missing.output
    # a relative path is read from the directory the command runs in, as the check reads it
    shutil.copy(ROOT / "data/models/lexicon_span_tagger.crfsuite", tmp_path / "mine.crfsuite")
    monkeypatch.chdir(tmp_path)
    relative = CliRunner().invoke(main, [*args, "--span-tagger", "mine.crfsuite"])
    assert relative.exit_code == 0, relative.output


def test_a_sidecar_whose_guidelines_are_not_a_list_of_ids_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "model.crfsuite"
    shutil.copy(ROOT / SHIPPED_MODEL, model)
    provenance_path(model).write_text('{"guidelines": "syncope_2018"}')
    with pytest.raises(ValueError, match=r"model\.json: 'guidelines' must be a list"):
        SpanTagger(model)


def test_the_guidelines_a_model_reads_are_part_of_its_fingerprint(tmp_path: Path) -> None:
    """The prompt hash holds the fingerprint: a new guideline list changes what it reads."""
    model = tmp_path / "model.crfsuite"
    shutil.copy(ROOT / SHIPPED_MODEL, model)
    provenance_path(model).write_text('{"guidelines": ["walking-clubs"]}')
    narrow = SpanTagger(model).fingerprint
    provenance_path(model).write_text('{"guidelines": ["walking-clubs", "rowing-clubs"]}')
    assert SpanTagger(model).fingerprint != narrow


def test_the_ceiling_benchmark_stands_the_gold_where_the_tagger_stands(lexicon) -> None:  # type: ignore[no-untyped-def]
    """benchmarks/extraction_ceiling.py: the gold's spans (or only its roles, on the rules'
    spans) go through the tagger's revise step, for a row of any guideline."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from extraction_ceiling import GoldTagger

    text = _sentence("A patch monitor is advised", "runners", "dizziness", "sprints")
    worker_text, drafts = lexicon.rule_drafts(row_of(text))
    gold = [
        _span(worker_text, "patch monitor", "Procedure"),
        _span(worker_text, "runners", "Condition"),
        _span(worker_text, "dizziness during sprints", "Condition"),
    ]
    rules_alone = {c.text for c in extract(lexicon, text).concepts}
    lexicon.span_tagger = GoldTagger({worker_text: gold}, roles_only=False)
    try:
        spans = {c.text for c in extract(lexicon, text).concepts}
        lexicon.span_tagger = GoldTagger({worker_text: gold}, roles_only=True)
        roles = {c.text for c in extract(lexicon, text).concepts}
    finally:
        lexicon.span_tagger = None
    assert {"patch monitor", "runners", "dizziness during sprints"} <= spans
    assert "dizziness during sprints" not in rules_alone
    assert roles == rules_alone  # gold roles only: the rules' spans stay
