"""Recommendation rows out of converter-made guideline Markdown (real-ingestion issue).

The fixture tests/fixtures/real_ingestion/converter_made.md is written by the team in its
own words; each part reproduces one feature seen in real PDF-to-Markdown conversions of
guidelines. Each test names the feature and the reason the rule exists. Real Docling.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.row_text import (
    Vocabulary,
    footnote_marker_spans,
    repair_row_text,
    split_references,
    without_spans,
)
from cardio_assets.logic.table_rows import RowsResult, guideline_rows
from cardio_assets.logic.table_shapes import read_grade
from resources.docling_converter import convert_path
from tests.ingestion_helpers import tables_and_rows

FIXTURE = Path(__file__).parent / "fixtures" / "real_ingestion" / "converter_made.md"
SETTINGS = load_pipeline_settings()


def _tables_and_rows(guideline: str, source: Path) -> tuple[list, RowsResult]:
    """A fixture document read as the docling_tables and table_rows assets read it."""
    return tables_and_rows(guideline, source)


@pytest.fixture(scope="module")
def converted() -> tuple[list, RowsResult]:
    return _tables_and_rows("converter-made", FIXTURE)


def _row(result: RowsResult, starts: str):
    (row,) = [r for r in result.rows if r.row_text.startswith(starts)]
    return row


def test_header_row_that_is_a_recommendation_becomes_the_first_row(converted):
    """Converters make a table's first line its header; when that line is a recommendation
    ("text | I | B"), it is the first row, and the labels printed above the table do not
    become a title or heading."""
    tables, result = converted
    row = _row(result, "Rate control with a beta-blocker")
    assert (row.table_id, row.row_index, row.class_, row.level) == ("table_001", 0, "I", "B")
    assert tables[1].header == ["Recommendations", "Class", "Level"]


def test_title_over_several_lines_and_section_heading_above(converted):
    """A table's title is the "Recommendation Table N" line (and the short lines that
    continue it); the section of its rows is the nearest document heading above."""
    tables, result = converted
    assert tables[1].caption == (
        "Recommendation Table 4 — Recommendations for the care of atrial flutter"
    )
    row = _row(result, "Rate control with a beta-blocker")
    assert row.table_title == tables[1].caption
    assert row.section == "5 Atrial flutter"
    assert _row(result, "Transthoracic echocardiography").section == "6 Valve imaging"


def test_citation_numbers_move_to_references_and_sentence_numbers_stay(converted):
    """Citation numbers glued after the full stop are not part of the sentence; the numbers
    of the sentence itself ("<_40 years", ">_3 months") are."""
    _, result = converted
    assert _row(result, "Rate control with").references == ["12", "15"]
    assert _row(result, "Isthmus ablation").references == ["131–137"]
    amiodarone = _row(result, "Amiodarone")
    assert amiodarone.row_text.endswith("in patients ≤40 years.")
    assert amiodarone.references == ["44"]
    assert _row(result, "An ECG is recommended").row_text == (
        "An ECG is recommended ≥3 months after ablation to confirm isthmus block."
    )
    text, refs = split_references("Weight loss is advised when BMI is ≥40 kg/m2.")
    assert (text, refs) == ("Weight loss is advised when BMI is ≥40 kg/m2.", [])
    assert split_references("Treatment is started within 24 h.") == (
        "Treatment is started within 24 h.",
        [],
    )


def test_citation_numbers_glued_to_a_word_inside_the_sentence_move_to_references():
    """Converters also glue citation numbers to a word in the middle of a sentence; a long
    lower-case word never carries digits of its own, while units, scores and receptor
    names do ("m2", "SCORE2", "P2Y12", "HbA1c") and keep them."""
    assert split_references("Echocardiography is advised for staging312,315 and follow-up.") == (
        "Echocardiography is advised for staging and follow-up.",
        ["312", "315"],
    )
    assert split_references("Ablation is recommended27 before a second drug is tried.") == (
        "Ablation is recommended before a second drug is tried.",
        ["27"],
    )
    for kept in (
        "Risk is estimated with SCORE2 in adults aged 40 to 69.",
        "A P2Y12 inhibitor is advised when BMI is ≥35 kg/m2 and HbA1c is ≥8%.",
    ):
        assert split_references(kept) == (kept, [])


def test_a_citation_added_later_with_a_letter_stays_in_the_reference_list() -> None:
    """A guideline revision may add a reference numbered after an existing one ("402a"); at
    the end of a row it is one more citation, not a word of the sentence."""
    assert split_references("Surgery is advised with a large shunt (>10%).38,41,41a") == (
        "Surgery is advised with a large shunt (>10%).",
        ["38", "41", "41a"],
    )


def test_glued_footnote_letters_stay_and_are_listed(converted):
    """A footnote letter glued to a word stays in the text as printed (extraction removes
    it knowing the footnotes); the row lists the letters it carries, only those the table's
    footnotes define, and only where they can be told from the word."""
    _, result = converted
    row = _row(result, "In patients at high bleeding risk")
    assert row.row_text.endswith("may be considered.d,e")
    assert row.footnote_markers == ["c", "d", "e"]
    assert _row(result, "Anticoagulation is recommended").footnote_markers == ["c"]
    # what extraction reads: the letters removed, the original kept for audit
    assert row.text_for_extraction() == (
        "In patients at high bleeding risk (HBR), appendage occlusion may be considered."
    )
    assert (
        _row(result, "Anticoagulation is recommended")
        .text_for_extraction()
        .endswith("a high stroke risk.")
    )
    assert "c Only in" not in " ".join(row.footnotes)
    assert any(f.startswith("c A stroke score") for f in row.footnotes)


def test_a_marker_after_a_list_comma_leaves_the_comma():
    """In a drug list the superscript letter sits after the list comma ("digoxin,e
    ivabradine"): extraction must still see a list, so only the letter goes; before a
    bracket or at the end the comma served the letter alone and goes with it."""
    text = "Digoxin,e ivabradine,f or a beta-blocker may be considered (HFrEF,e)."
    vocabulary = Vocabulary.from_texts([text])
    spans = footnote_marker_spans(text, ["e", "f"], vocabulary)
    assert without_spans(text, [(start, end) for _, start, end in spans]) == (
        "Digoxin, ivabradine, or a beta-blocker may be considered (HFrEF)."
    )


def test_line_breaks_hyphenation_and_font_artifacts_repaired(converted):
    """Cells come with "<br>" line breaks, words hyphenated across them, the guideline
    font's "<_" / ">_" for ≤ / ≥ and a control character for the range dash."""
    _, result = converted
    row = _row(result, "Isthmus ablation")
    assert (
        row.row_text
        == "Isthmus ablation should be considered after a first episode of typical flutter."
    )
    assert row.printed_text.startswith("Isthmus ablation") and "flut- ter" in row.printed_text
    assert "line-break hyphenation joined" in row.repairs
    assert _row(result, "A follow-up scan").row_text == (
        "A follow-up scan every 1–2 years should be considered in moderate valve stenosis."
    )
    vocabulary = Vocabulary.from_texts(["non-ST elevation", "non-ST elevation"])
    assert (
        repair_row_text("In non-\nST elevation ACS", vocabulary).text == "In non-ST elevation ACS"
    )


def test_a_word_broken_with_a_hyphen_and_a_space_is_joined_as_the_document_writes_it() -> None:
    """Some converters print a line-end hyphenation as a hyphen and a space
    ("ultrafiltra- tion"). The document's own words decide: joined where it writes the word
    whole, hyphen kept where it writes the hyphen; a number keeps its hyphen ("24- hour"); a
    suspended hyphen before "and / or / to" is printed so and stays."""
    vocabulary = Vocabulary.from_texts(
        ["Ultrafiltration was studied. Statins at low-dose. It was suggested."]
    )
    fixed = repair_row_text(
        "Ultrafiltra- tion with low- dose drugs is sug- gested over 24- hour watching.", vocabulary
    )
    assert fixed.text == "Ultrafiltration with low-dose drugs is suggested over 24-hour watching."
    assert "spaced hyphenation joined" in fixed.repairs
    kept = "Low- and high-risk adults, and moder- ate forms"
    assert repair_row_text(kept, vocabulary).text == kept  # "moderate" unknown here: left


def test_a_supplement_pointer_after_the_citation_numbers_goes_with_them() -> None:
    """Some rows end their citation numbers with a pointer to the online supplement
    ("….12,15, Supplementary Data Table 4"): both are the row's citations, not its words,
    and a number the sentence itself ends on is no citation."""
    vocabulary = Vocabulary.from_texts([])
    fixed = repair_row_text(
        "A loop recorder is advised after falls.31–33, Supplementary Data Tables 4 and 5",
        vocabulary,
    )
    assert fixed.text == "A loop recorder is advised after falls."
    assert fixed.references == ["31–33", "Supplementary Data Tables 4 and 5"]
    kept = "Grade the score as in stage 2, Supplementary Data Table 3"
    assert repair_row_text(kept, vocabulary).text == kept


def test_a_glued_letter_right_after_the_rows_sure_letter_is_the_next_footnote() -> None:
    """A row's footnote letters run in order. With "e" surely glued to a common word
    ("warfarine", far rarer than "warfarin"), an "f" glued to the next word ("heparinf")
    is footnote f even where the tables print "heparin" only as often as the row is
    printed; alone, that evidence would not do."""
    row = "Warfarine or heparinf is advised in adults with gout."
    vocabulary = Vocabulary.from_texts([row, row, "warfarin " * 12, "heparin heparin"])
    spans = footnote_marker_spans(row, list("abcdefgh"), vocabulary)
    assert [letter for letter, _, _ in spans] == ["e", "f"]
    alone = "Heparinf is advised in adults with gout."
    vocabulary = Vocabulary.from_texts([alone, alone, "heparin heparin"])
    assert footnote_marker_spans(alone, list("abcdefgh"), vocabulary) == []
    # only a letter the table's footnotes define: with d and e alone defined, no "f"
    spans = footnote_marker_spans(
        row, ["d", "e"], Vocabulary.from_texts([row, row, "warfarin " * 12, "heparin heparin"])
    )
    assert [letter for letter, _, _ in spans] == ["e"]


def test_symbol_glyphs_read_as_control_characters_are_repaired() -> None:
    """Older guideline fonts print the multiplication sign and the degree sign as control
    characters in the text layer; a reader needs the symbols back ("2 x 2 g/day", "< 36 °C"),
    while the same character opening a list line stays the bullet it is there."""
    vocabulary = Vocabulary.from_texts([])
    fixed = repair_row_text(
        "Give 1 \x05 2 g daily unless the body temperature is <35\x05C.", vocabulary
    )
    assert fixed.text == "Give 1 × 2 g daily unless the body temperature is <35°C."
    assert repair_row_text("a cut-off of age \x04 10 units", vocabulary).text == (
        "a cut-off of age × 10 units"
    )
    assert repair_row_text("up to 8\x04 the usual exposure", vocabulary).text == (
        "up to 8× the usual exposure"
    )
    assert repair_row_text("one of:\n\x04 marked dyspnoea", vocabulary).text == (
        "one of: • marked dyspnoea"
    )


def test_a_comma_or_stop_glued_to_a_number_is_the_fonts_less_or_greater_sign() -> None:
    """Some guideline fonts draw "<" and ">" with glyphs the text layer reads as a comma and
    a full stop: "ejection fraction,35%", "a ratio ,2", "aged .75 years". A comma in a list
    is followed by a space and a thousands separator has a digit before it, so neither is
    touched."""
    vocabulary = Vocabulary.from_texts([])
    assert repair_row_text("Pacing if ejection fraction,35%.", vocabulary).text == (
        "Pacing if ejection fraction <35%."
    )
    assert repair_row_text("with expected survival,6 months", vocabulary).text == (
        "with expected survival <6 months"
    )
    assert repair_row_text("a protein ratio ,2, and", vocabulary).text == "a protein ratio <2, and"
    assert repair_row_text("adults aged .75 years", vocabulary).text == "adults aged >75 years"
    for untouched in ("in 1,000 adults", "Tables 5,6", "diabetes, 40% of them"):
        assert repair_row_text(untouched, vocabulary).text == untouched


@pytest.mark.parametrize(
    ("printed", "meant"),
    [
        ("avoid it if the cell count,40 000/µL", "avoid it if the cell count <40 000/µL"),
        ("avoid it if the cell count,40000/µL", "avoid it if the cell count <40000/µL"),
        ("a drop of >20% or,55–65 mmHg", "a drop of >20% or <55–65 mmHg"),
    ],
)
def test_the_fonts_less_sign_before_a_count_or_a_range(printed: str, meant: str) -> None:
    """The same "<" read as a comma, before a count in thousands per microlitre (written with
    or without a space between the thousands) and before a range of values: the count and
    the range carry a unit like any other value."""
    vocabulary = Vocabulary.from_texts([])
    assert repair_row_text(printed, vocabulary).text == meant
    for untouched in ("in 2019,40 000 adults", "doses of 5,10 and 20 mg"):
        assert repair_row_text(untouched, vocabulary).text == untouched


def test_names_whose_subscripts_the_text_layer_split_off_are_put_back() -> None:
    """A subscript comes out of the PDF text layer as a separate token ("P2Y 12"), moved
    further along the line or lost, so "P2Y inhibitor" and "CHA DS-VASc" name nothing. The
    few names printed with subscripts in cardiology are put back whole; a digit that landed
    elsewhere stays where it is (it may be a real number of the sentence)."""
    vocabulary = Vocabulary.from_texts([])
    fixed = repair_row_text(
        "Add a P2Y 12 inhibitor when the CHA 2 DS 2 -VASc score is 2", vocabulary
    )
    assert fixed.text == "Add a P2Y12 inhibitor when the CHA2DS2-VASc score is 2"
    assert fixed.repairs == ["subscripted name restored"]
    moved = repair_row_text(
        "A P2Y inhibitor for 12 months in P2Y -inhibitor naive adults", vocabulary
    )
    assert moved.text == "A P2Y12 inhibitor for 12 months in P2Y12-inhibitor naive adults"
    assert repair_row_text("CHADS -VASc of 1 or SpO 2 below 90%", vocabulary).text == (
        "CHA2DS2-VASc of 1 or SpO2 below 90%"
    )
    assert repair_row_text("P2Y12 inhibitors", vocabulary).repairs == []


def test_a_subscript_printed_on_a_line_of_its_own_is_removed_where_its_name_lost_it() -> None:
    """The text layer can set a subscript on a line of its own further down the cell, in the
    middle of a hyphenated word or between two words ("P2Y inhibi-" / "12" / "tor"). While
    the cell holds the name that lost those digits, such a line is the subscript: it goes,
    and the word around it is joined. A lone number in a cell without such a name stays."""
    vocabulary = Vocabulary.from_texts(["resumed"])
    fixed = repair_row_text(
        "After bypass surgery a P2Y inhibitor is re-\n12\nsumed once bleeding\n12\nsettles",
        vocabulary,
    )
    assert fixed.text == "After bypass surgery a P2Y12 inhibitor is resumed once bleeding settles"
    assert "subscript printed on a line of its own removed" in fixed.repairs
    kept = repair_row_text("Aspirin is continued for\n12\nmonths", vocabulary)
    assert kept.text == "Aspirin is continued for 12 months"
    # both subscripts of one score on one line of their own ("2 2")
    both = repair_row_text(
        "Adults with a CHADS -VASc\n2 2\nscore of 1 may need no drug", vocabulary
    )
    assert both.text == "Adults with a CHA2DS2-VASc score of 1 may need no drug"


def test_the_guidelines_own_glossary_defines_the_abbreviations_its_rows_use(converted):
    """Guidelines open with a glossary ("Abbreviations and acronyms") that the converter
    prints as "ABBR Expansion" entries run together. It is kept when the Markdown is reduced
    to its tables, and each table carries the entries its cells use, so a row is expanded
    the guideline's way where no shared list knows the abbreviation; a trial's name is not
    an expansion."""
    tables, result = converted
    row = _row(result, "In patients at high bleeding risk (HBR,c)")
    assert row.abbreviations == {"HBR": "high bleeding risk"}
    assert not any("SAMPLE" in t.abbreviations for t in tables)


def test_split_ligature_rejoined_when_the_joined_word_is_the_guidelines(converted):
    """An older text layer breaks the "fi" ligature ("fni dings"); it is rejoined when the
    joined word is one the guideline uses and the split form is not. A term that neither
    the guideline nor English knows whole stays as printed."""
    _, result = converted
    row = _row(result, "Cardioversion may be considered")
    assert "echocardiographic findings exclude" in row.row_text
    assert "split ligature rejoined" in row.repairs
    unknown = Vocabulary.from_texts(["nothing relevant here"])
    assert repair_row_text("echocardiographic fni brogenesis", unknown).text == (
        "echocardiographic fni brogenesis"
    )


def test_a_ligature_broken_throughout_the_guideline_is_rejoined_by_english() -> None:
    """Some guidelines print a word broken at its ligature everywhere ("frist", "benefti"),
    so their own vocabulary never shows it whole. An English word list vouches for the
    joined form when the printed one is no English word; it vouches for the first part
    alone only when the word after it is a word ("ffith year"), never for a broken medical
    term it does not know ("fbi romuscular" stays as printed)."""
    unknown = Vocabulary.from_texts(["frist frist benefti"])
    cases = {
        "A frist-line drug with a clear benefti was confrimed.": (
            "A first-line drug with a clear benefit was confirmed."
        ),
        "Risk was identifei d in the ffith year of follow-up.": (
            "Risk was identified in the fifth year of follow-up."
        ),
        "Stenosis caused by fbi romuscular dysplasia.": "Stenosis caused by fbi romuscular dysplasia.",
        "The first finding.": "The first finding.",
    }
    for printed, repaired in cases.items():
        assert repair_row_text(printed, unknown).text == repaired


def test_a_drug_name_broken_at_its_ligature_is_rejoined_by_its_stem() -> None:
    """Drug names are no English words and a guideline may print one broken in every row
    ("dapaglifol zin"): the INN stems that hold a ligature ("-gliflozin", "-floxacin",
    "-fibrate") vouch for the joined name; other words keep the document's and English's
    say."""
    unknown = Vocabulary.from_texts(["dapaglifol zin dapaglifol zin"])
    cases = {
        "Dapaglifol zin or sotaglifol zin is advised.": "Dapagliflozin or sotagliflozin is advised.",
        "The official dose of tirofiban was given.": "The official dose of tirofiban was given.",
    }
    for printed, repaired in cases.items():
        assert repair_row_text(printed, unknown).text == repaired


def test_continued_table_after_a_page_break_is_one_table(converted):
    """A table continued after a page break comes out as a new pipe table of the same shape
    under a "Continued" line and the page's running header: one table, rows numbered on."""
    tables, result = converted
    assert tables[1].pieces == 2
    row = _row(result, "Amiodarone")
    assert (row.table_id, row.row_index, row.class_, row.level) == ("table_001", 5, "III", "C")


def test_empty_leading_column_and_class_level_in_one_cell(converted):
    """A blank first column ("Col1") and class and level printed in one cell ("IIa C")."""
    _, result = converted
    row = _row(result, "Transthoracic echocardiography")
    assert (row.class_, row.level) == ("I", "C")
    assert (_row(result, "A follow-up scan").class_, _row(result, "A follow-up scan").level) == (
        "IIa",
        "C",
    )


def test_a_class_cell_that_is_not_a_class_keeps_the_row_and_warns(converted):
    """ "Ia" is no class of the ESC scheme: the row is kept with class null, and a warning
    names the guideline, file, table and row."""
    _, result = converted
    row = _row(result, "Stress imaging")
    assert (row.class_, row.level) == (None, None)
    warning = next(w for w in result.warnings if "'Ia'" in w)
    assert "converter_made.md" in warning and "table table_002" in warning and "row 2" in warning
    assert read_grade("Ia", ["a", "b"]).invalid == "Ia"
    assert read_grade("IIbd", ["d"]).klass == "IIb"


def test_stem_and_bullets_carry_their_stem(converted):
    """A bullet says nothing without its stem: the row text is stem + bullet, and the row
    keeps both parts. The stem comes from a row of its own or from a merged cell that a
    converter repeated on every row it spans (the k-th row gets the k-th item)."""
    _, result = converted
    row = _row(result, "In patients with a confirmed device infection: complete")
    assert row.stem == "In patients with a confirmed device infection:"
    assert row.bullet == "complete device removal is recommended;"
    assert (row.class_, row.level) == ("I", "B")
    second = _row(result, "In patients with a confirmed device infection: antibiotic")
    assert (second.class_, second.level) == ("III", "C")
    merged = [r for r in result.rows if r.row_text.startswith("In patients scheduled for device")]
    assert [(r.bullet, r.class_, r.level) for r in merged] == [
        ("carotid imaging is recommended before the procedure.", "I", "B"),
        ("carotid repair is not recommended in mild stenosis.", "III", "C"),
    ]
    assert all(r.section == "Device infection" for r in merged)


def test_two_recommendations_side_by_side_are_two_rows(converted):
    """Six columns: text, class, level, text, class, level."""
    _, result = converted
    pairs = [(r.row_text, r.class_, r.level) for r in result.rows if r.table_id == "table_004"]
    assert pairs == [
        ("Remote monitoring is recommended for all device carriers.", "I", "A"),
        ("Yearly device clinic visits should be considered.", "IIa", "C"),
        ("Battery checks are recommended before elective surgery.", "I", "C"),
        ("Magnet tests may be considered in device clinics.", "IIb", "C"),
    ]


def test_tables_that_are_not_recommendations_are_kept_out_with_the_reason(converted):
    """Doses and risk scores are tables too; only tables whose rows carry classes and levels
    give rows. "What is new" tables restate rows found elsewhere and are counted apart."""
    tables, result = converted
    kinds = {t.table_id: (t.kind, t.reason) for t in result.tables}
    assert kinds["table_000"][0] == "what_is_new"
    assert kinds["table_005"] == ("other", "no column of classes (I, IIa, IIb, III)")
    assert kinds["table_006"][0] == "other"
    assert result.count("what_is_new") == 1 and result.count("other") == 2
    assert not [r for r in result.rows if r.table_id in ("table_000", "table_005", "table_006")]
    assert {r.table_id for r in result.other_rows} == {"table_000", "table_005", "table_006"}


def test_a_recommendation_printed_twice_is_one_row_with_both_places(converted):
    """A summary table restates a section's recommendation in the same words, class and
    level: one row identity, both source locations."""
    _, result = converted
    row = _row(result, "Anticoagulation is recommended")
    assert row.table_id == "table_001"
    assert [(p.table_id, p.row_index) for p in row.also_at] == [("table_007", 0)]
    assert result.duplicates == 1
    assert not [r for r in result.rows if r.table_id == "table_007"]


def test_no_recommendation_table_gives_zero_rows_and_says_what_was_seen(tmp_path: Path):
    doc = tmp_path / "doses.md"
    doc.write_text(
        "Table 1 Doses\n\n|Drug|Dose|\n|---|---|\n|Metoprolol|25 mg|\n\n"
        "Table 2 Scores\n\n|Item|Points|\n|---|---|\n|Age|1|\n",
        encoding="utf-8",
    )
    tables = guideline_tables(
        "doses",
        [doc],
        convert_path,
        footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
        continuation_words=SETTINGS.docling.continuation_words,
    )
    result = guideline_rows(tables, guideline_title="Doses")
    assert result.rows == []
    (warning,) = result.warnings
    assert "no recommendation table found among 2 table(s)" in warning
    assert "table table_000 (Table 1 Doses): no column of classes" in warning
    assert "table table_001 (Table 2 Scores)" in warning


ELSEWHERE = Path(__file__).parent / "fixtures" / "real_ingestion" / "footnotes_elsewhere.md"


@pytest.fixture(scope="module")
def footnotes_elsewhere() -> tuple[list, RowsResult]:
    return _tables_and_rows("footnotes-elsewhere", ELSEWHERE)


def test_lettered_header_makes_glued_letters_markers_when_the_footnotes_are_elsewhere(
    footnotes_elsewhere,
):
    """Converters often print a table's footnotes far from it. A header whose labels carry
    letters ("Classa", "Levelb", "Ref.c") still says the table's footnote letters run on
    through its rows, so a letter glued to a word the guideline uses without it ("factord")
    is a marker, removed before extraction; the header labels lose their letters."""
    tables, result = footnotes_elsewhere
    assert tables[0].footnotes == []
    row = _row(result, "Surgery is recommended")
    assert row.header == ["Recommendations", "Class", "Level", "Ref."]
    assert row.footnote_markers == ["d"]
    assert row.text_for_extraction() == (
        "Surgery is recommended in patients with severe stenosis and one risk factor."
    )
    # a letter after the closing full stop is a marker too
    imaging = _row(result, "Imaging")
    assert imaging.footnote_markers == ["e"]
    assert imaging.text_for_extraction().endswith("in patients with a murmur.")


def test_words_and_abbreviations_are_never_read_as_glued_letters(footnotes_elsewhere):
    """Letters that only look like markers stay: the letters of "e.g." and "o.d." sit between
    stops, "desired" is a past participle (not "desire" + d) and "off" is no "of" + f."""
    _, result = footnotes_elsewhere
    assert "(e.g. echocardiography)" in _row(result, "Imaging").text_for_extraction()
    for starts in ("A second opinion", "Warfarin", "Follow-up"):
        row = _row(result, starts)
        assert row.footnote_markers == [], starts
        assert row.text_for_extraction() == row.row_text, starts


def test_without_footnotes_or_a_lettered_header_no_letter_is_guessed(footnotes_elsewhere):
    """A table that neither prints its footnotes nor letters its header gives no sign that
    its rows carry footnote letters: the text is left as printed."""
    _, result = footnotes_elsewhere
    row = _row(result, "Rate control is recommended")
    assert row.footnote_markers == []
    assert row.text_for_extraction() == row.row_text


def test_a_letter_glued_to_a_unit_or_to_a_word_of_a_row_printed_twice_is_a_marker() -> None:
    """ "A root diameter ≥45 mmc": the letter after the unit is a footnote marker. A letter
    whose footnote is printed under the table is trusted on a word the guideline uses only
    twice as often without it, and on a row printed up to three times (summary tables)."""
    from cardio_assets.logic.row_text import Vocabulary, footnote_marker_spans

    row = "Surgery is advised for a root diameter ≥45 mmc and high-risk featuresd."
    words = ["features"] * 6 + ["featuresd"] * 3 + ["feature"]
    vocabulary = Vocabulary.from_texts([" ".join(words)])
    letters = list("abcdefgh")
    assert [s[0] for s in footnote_marker_spans(row, letters, vocabulary, printed=["d"])] == [
        "c",
        "d",
    ]
    # the same counts without the printed footnote are not enough to call "d" a marker
    assert [s[0] for s in footnote_marker_spans(row, letters, vocabulary)] == ["c"]


def test_a_letter_glued_to_the_same_word_in_many_rows_is_a_marker_when_printed_below() -> None:
    """One footnote ("what the assessment includes") can sit on the same word in every row
    of several tables, so the glued form is printed many times. When that footnote is
    printed under the table and the word alone is still at least twice as common, the
    letter is the marker; without the printed footnote the counts are not enough."""
    from cardio_assets.logic.row_text import Vocabulary, footnote_marker_spans

    row = "A yearly review of renal functiong is advised in adults on diuretics."
    words = ["function"] * 20 + ["functiong"] * 8
    vocabulary = Vocabulary.from_texts([" ".join(words)])
    letters = list("abcdefgh")
    assert [s[0] for s in footnote_marker_spans(row, letters, vocabulary, printed=["g"])] == ["g"]
    assert footnote_marker_spans(row, letters, vocabulary) == []


SPANNED = Path(__file__).parent / "fixtures" / "real_ingestion" / "spanned_cells.md"


@pytest.fixture(scope="module")
def spanned() -> tuple[list, RowsResult]:
    return _tables_and_rows("spanned-cells", SPANNED)


def test_a_text_cell_spanning_two_columns_is_read_once(spanned):
    """A converter writes a merged cell into every column it covers; a recommendation whose
    cell covers the label column and the text column must not read as itself twice."""
    _, result = spanned
    row = _row(result, "Yearly echocardiography")
    assert row.row_text == "Yearly echocardiography is recommended in moderate aortic stenosis."
    assert row.section != row.row_text


def test_a_column_of_group_labels_becomes_the_section_of_its_rows(spanned):
    """A short label repeated down the first column ("what this group of rows is for") heads
    its rows like a section, even when other rows of the same table span that column."""
    _, result = spanned
    survival = [r for r in result.rows if r.section == "For survival"]
    assert [r.row_text for r in survival] == [
        "Severe aortic stenosis with symptoms.",
        "Severe mitral regurgitation with LVEF ≤60%.",
    ]
    assert _row(result, "Moderate aortic stenosis").section == "For relief of symptoms"


def test_a_level_column_printed_twice_and_a_lettered_class(spanned):
    """Some converters print the level column twice; the class may carry a footnote letter.
    The row keeps its class and level."""
    _, result = spanned
    row = _row(result, "Warfarin is recommended")
    assert (row.class_, row.level) == ("I", "B")
    low_dose = _row(result, "Low-dose aspirin")
    assert (low_dose.class_, low_dose.level) == ("IIb", "C")


def test_a_grade_spanning_a_text_column_makes_no_row(spanned):
    """When one side of a two-recommendation line is empty, the converter may spread the
    other side's level over it ("C | C | C"); a lone grade is not a recommendation."""
    _, result = spanned
    assert not [r for r in result.rows if r.row_text.strip() in {"C", "IIb C"}]
    assert _row(result, "Bridging with heparin").table_id == "table_002"
    assert [r.class_ for r in result.rows if r.table_id == "table_002"] == ["IIa", "I", "IIb"]


def test_a_footnote_letter_glued_to_a_common_word_in_every_row_is_still_a_marker() -> None:
    """One footnote tied to "assessment" in each row of a table makes "assessmentc" appear
    several times; it is still far rarer than "assessment" itself. A short stem ("area" is
    no "are" + a) never counts: a three-letter word is too likely a word of its own."""
    vocabulary = Vocabulary.from_texts(
        ["a risk assessment before each visit"] * 40
        + ["baseline assessmentc of the heart"] * 3
        + ["patients are seen in the same area"] * 3
        + ["they are"] * 60
    )
    spans = footnote_marker_spans(
        "Baseline assessmentc in the carotid area", ["c", "a"], vocabulary
    )
    assert [(letter, start) for letter, start, _ in spans] == [("c", len("Baseline assessment"))]


def test_a_glued_letter_is_a_marker_where_the_table_lost_its_footnotes() -> None:
    """A converter may drop a table's footnotes while the letters stay glued to words
    ("patientsd"). With no letters known, only a word printed once whose stem the guideline
    uses far more often counts; names ending in their own letter ("CHA2DS2-VASc") and short
    stems (a broken "…glifo zin" beside "zinc") never do."""
    vocabulary = Vocabulary.from_texts(
        ["patients with a high CHA2DS2-VASc score"] * 12 + ["dapaglifo zin"] * 6 + ["zinc"]
    )
    text = "In patientsd with a CHA2DS2-VASc of 3, zinc is not advised"
    spans = footnote_marker_spans(text, [], vocabulary)
    assert [(letter, text[start - 8 : end]) for letter, start, end in spans] == [("d", "patientsd")]


def test_an_acronym_carrying_its_footnote_in_every_row_is_a_marker_without_footnotes() -> None:
    """A table whose footnotes the converter lost may tie one footnote to an acronym in each
    of its rows ("LVDDc" three times): printed more than once, it is still far rarer than
    the acronym alone, so the letter is a marker. A lower-case word printed that often keeps
    its last letter (it is more likely a word of its own)."""
    vocabulary = Vocabulary.from_texts(
        ["patients with LVDD and dyspnoea"] * 30
        + ["moderate LVDDc with symptoms"] * 3
        + ["a zinc tablet"] * 3
        + ["zin"] * 20
    )
    text = "In moderate LVDDc a zinc tablet is not advised"
    spans = footnote_marker_spans(text, [], vocabulary)
    assert [(letter, text[start - 4 : end]) for letter, start, end in spans] == [("c", "LVDDc")]
    # a Roman numeral and its letter is a name ("glycoprotein IIb/IIIa"), however often
    roman = Vocabulary.from_texts(["class III"] * 40 + ["GP IIb/IIIa inhibitors"] * 3)
    assert footnote_marker_spans("GP IIb/IIIa inhibitors", [], roman) == []


def test_a_word_glued_to_a_lost_footnote_in_a_few_rows_is_a_marker_beside_a_common_stem() -> None:
    """The same lost footnote may sit on a common word in a few rows ("patientsc" three
    times): where the word without its letter is printed thirty times as often for each, the
    letter is a marker (only for a plural stem: "plane" beside many "plan" keeps its e)."""
    vocabulary = Vocabulary.from_texts(
        ["in patients with heart failure"] * 100
        + ["high-risk patientsc on therapy"] * 3
        + ["the care plane"] * 2
        + ["a care plan"] * 70
    )
    text = "In high-risk patientsc the care plane is advised"
    spans = footnote_marker_spans(text, [], vocabulary)
    assert [(letter, text[start - 8 : end]) for letter, start, end in spans] == [("c", "patientsc")]
