"""Where a converter's line and paragraph breaks fall: a suspended hyphen at a cell's line
end, and the abbreviation list and footnotes under a table run together into one paragraph.
In the team's own words; real Docling."""

from __future__ import annotations

from pathlib import Path

from cardio_assets.logic.row_text import Vocabulary, repair_row_text
from tests.ingestion_helpers import tables_and_rows

# the list and the notes in one paragraph, wrapped over lines as a PDF converter leaves it
_LIST_THEN_NOTES = """Recommendation Table 4 — Recommendations for valve follow-up

|Recommendations|Classa|Levelb|
|---|---|---|
|Yearly TTE is recommended in adults with moderate MRc.|I|C|
|Surgery should be considered in adults with severe MR and a dilated LVd.|IIa|B|


TTE, transthoracic echocardiography; MR, mitral regurgitation; LVEF, left
ventricular ejection fraction; LV, left ventricle.
a Strength of the advice.
b Weight of the data behind it.
c Moderate as graded on two views.
d End-systolic diameter above the upper limit of normal.
"""


def _rows(tmp_path: Path, text: str):
    doc = tmp_path / "valves.md"
    doc.write_text(text, encoding="utf-8")
    return tables_and_rows("valves", doc, title="Valves")


def test_notes_run_into_the_abbreviation_list_are_the_tables_footnotes(tmp_path: Path) -> None:
    """A converter that drops the blank line between the abbreviation list and the notes
    makes them one paragraph; the list is still the table's abbreviations, and the notes
    from "a <Capitalised word>" on are its footnotes, so their letters glued to the
    rows' words are markers."""
    tables, result = _rows(tmp_path, _LIST_THEN_NOTES)
    (table,) = tables
    assert [note[:1] for note in table.footnotes] == ["a", "b", "c", "d"], table.footnotes
    assert table.abbreviations["MR"] == "mitral regurgitation"
    assert table.abbreviations["LV"] == "left ventricle"
    follow_up, surgery = result.rows
    assert follow_up.footnote_markers == ["c"]
    assert surgery.footnote_markers == ["d"]
    assert surgery.text_for_extraction().endswith("and a dilated LV.")


def test_a_list_that_only_mentions_a_letter_keeps_its_entries(tmp_path: Path) -> None:
    """An abbreviation list with no notes after it stays whole: only a full stop followed by
    "a" and a capitalised word starts the notes."""
    text = _LIST_THEN_NOTES.split("a Strength of the advice.")[0]
    tables, _ = _rows(tmp_path, text)
    (table,) = tables
    assert table.footnotes == []
    assert table.abbreviations["LVEF"] == "left ventricular ejection fraction"


def test_a_suspended_hyphen_at_a_line_end_stays_suspended() -> None:
    """ "low-" ending a cell's line with "and intermediate-risk" on the next is a suspended
    hyphen, as printed on one line; joining it made a word no one writes ("lowand"). A
    word the document writes whole ("into") is still joined."""
    vocabulary = Vocabulary.from_texts(["Put into practice in low-risk care."])
    fixed = repair_row_text(
        "Avoid stenting before low-\nand intermediate-risk surgery.", vocabulary
    )
    assert fixed.text == "Avoid stenting before low- and intermediate-risk surgery."
    assert repair_row_text("Put in-\nto practice.", vocabulary).text == "Put into practice."


def test_a_compound_broken_at_its_own_hyphen_stays_one_word() -> None:
    """ "moderate-" ending a line and "to-severe" on the next: the hyphen after "to" says the
    three words are one compound, not a suspended hyphen; "do-" + "nor" is a word broken in
    two where the document writes no compound starting "do-"."""
    vocabulary = Vocabulary.from_texts(["A low-risk group. Moderate-to-severe disease."])
    fixed = repair_row_text("Surgery in moderate-\nto-severe stenosis.", vocabulary)
    assert fixed.text == "Surgery in moderate-to-severe stenosis."
    assert repair_row_text("Screen each do-\nnor heart.", vocabulary).text == (
        "Screen each donor heart."
    )
