"""Where a converter's line and paragraph breaks fall: a suspended hyphen at a cell's line
end, and the abbreviation list and footnotes under a table run together into one paragraph.
In the team's own words; real Docling."""

from __future__ import annotations

from pathlib import Path

import pytest

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


# a table whose lower part the converter printed first (its header row a recommendation),
# then its upper part with the real header, nothing but blank lines between; then a piece
# whose header row is one title over its rows; the notes under the last piece
_TOP_AFTER_BOTTOM = """
Recommendation Table 9 — Recommendations for valve surveillance

|Repeat TTE should be considered in adults with a bioprosthesis older than 10 yearsc.|IIa|C|
|---|---|---|
|A single dose of diureticd may be considered in unstablee adults with valve regurgitation.|IIb|C|



|Recommendations|Classa|Levelb|
|---|---|---|
|Baseline TTE is recommended after valve replacement.|I|B|


|Follow-up of mechanical valves|Col2|Col3|
|---|---|---|
|Yearly clinical review is recommended in adults with a mechanical valve.|I|C|


TTE, transthoracic echocardiography; MR, mitral regurgitation.
a Strength of the advice.
b Weight of the data behind it.
c Counted in years from the operation, not in years of age or years of follow-up.
d Given intravenously; the diuretic dose follows kidney function, one diuretic at a time.
e With breathlessness at rest; an unstable rhythm counts as unstable too, as does an
unstable blood pressure.
"""


def test_a_tables_top_printed_after_its_bottom_is_still_one_table(tmp_path: Path) -> None:
    """A converter can print the lower rows of a recommendation table first (their first
    row taken for the header) and the rows under the real header after them, with nothing
    but blank lines between: one table, so every row gets the title above and the notes
    below, and the letters glued to the first rows' words are markers. A later piece whose
    header row is one title over its rows makes that title their section."""
    tables, result = _rows(tmp_path, _TOP_AFTER_BOTTOM)
    (table,) = tables
    assert table.pieces == 3
    assert [note[:1] for note in table.footnotes] == ["a", "b", "c", "d", "e"]
    by_start = {row.row_text.split()[0]: row for row in result.rows}
    assert by_start["Repeat"].table_title.startswith("Recommendation Table 9")
    assert by_start["Repeat"].footnote_markers == ["c"]
    assert by_start["A"].footnote_markers == ["d", "e"]
    assert "unstable adults" in by_start["A"].text_for_extraction()
    assert by_start["Baseline"].table_title.startswith("Recommendation Table 9")
    assert by_start["Yearly"].section == "Follow-up of mechanical valves"


_PIECES_THAT_STAY_APART = {
    # the notes printed under the first table end it: the next table's title line is missing
    "notes between": """Recommendation Table 12 — Recommendations for rate control

|Recommendations|Classa|Levelb|
|---|---|---|
|Beta-blockers are recommended for rate control in adults with AF.|I|B|

|Digoxin may be considered when beta-blockers fail.|IIb|B|
|---|---|---|
|Amiodarone is not recommended for long-term rate control.|III|B|

a Strength of the advice.
b Weight of the data behind it.

|Recommendations|Classa|Levelb|
|---|---|---|
|Anticoagulation is recommended before cardioversion in adults with flutter.|I|B|
""",
    # a table that already had its header: a second real header starts another table
    "second header": """Recommendation Table 13 — Recommendations for flutter

|Recommendations|Classa|Levelb|
|---|---|---|
|Isthmus ablation is recommended after a first flutter episode.|I|A|

|Rate control may be considered while awaiting ablation.|IIb|C|
|---|---|---|
|Class IC drugs alone are not recommended in flutter.|III|C|

|Recommendations|Classa|Levelb|
|---|---|---|
|Pacing should be considered in adults with flutter and pauses.|IIa|C|
""",
    # a header naming a table of its own, as a real header or as one title over the rows
    "named header": """Recommendation Table 14 — Recommendations for flutter

|Rate control may be considered while awaiting ablation.|IIb|C|
|---|---|---|
|Class IC drugs alone are not recommended in flutter.|III|C|

|Recommendations for cardioversion of flutter|Classa|Levelb|
|---|---|---|
|Electrical cardioversion is recommended in unstable flutter.|I|B|
""",
    "what is new": """Recommendation Table 15 — Recommendations for flutter

|Recommendations|Classa|Levelb|
|---|---|---|
|Isthmus ablation is recommended after a first flutter episode.|I|A|


|New recommendations|Col2|Col3|
|---|---|---|
|Electrical cardioversion is recommended in unstable flutter.|I|B|
""",
}


@pytest.mark.parametrize("layout", sorted(_PIECES_THAT_STAY_APART))
def test_pieces_of_the_same_shape_that_are_two_tables_stay_apart(
    tmp_path: Path, layout: str
) -> None:
    """Two pieces are only joined by their shape when nothing at all is printed between
    them (notes under the first end it), when the first table has no real header yet (a
    table has one header row), and when the later header does not name a table of its own
    ("Recommendations for …", "New recommendations"): the rows of the last piece keep no
    title rather than take the wrong one."""
    tables, result = _rows(tmp_path, _PIECES_THAT_STAY_APART[layout])
    assert len(tables) == 2, [t.pieces for t in tables]
    last = result.rows[-1]
    assert last.table_id == tables[-1].table_id
    assert not (last.table_title or "").startswith("Recommendation Table")
