"""Recommendation tables rebuilt from a PDF's text layer, no model weights (issue 16).

The fixtures in tests/fixtures/pdf/ are PDFs the team made from its own HTML with headless
Chromium (tests/fixtures/pdf/make_fixtures.py; invented text, not clinical advice). Each
reproduces one layout feature of published guideline PDFs; each test names the feature
and asserts the rows real docling-parse and the shared row building recover from it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardio_assets.cli import main as cardio
from cardio_assets.config import ConfigError, load_pipeline_settings
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.pdf_readers import choose_pdf_reader, pdf_support_problem
from cardio_assets.logic.sources import SourceError
from cardio_assets.logic.table_rows import RowsResult, guideline_rows
from resources.docling_converter import convert_path

FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
SETTINGS = load_pipeline_settings()
FURNITURE = ("Team Sample Guidelines", "Downloaded from", "not clinical advice")
FILLER = "running text of the sample guideline"


def _read(name: str, reader: str = "text-layer") -> tuple[list, RowsResult]:
    tables = guideline_tables(
        name,
        [FIXTURES / f"{name}.pdf"],
        convert_path,
        footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
        continuation_words=SETTINGS.docling.continuation_words,
        pdf_reader=reader,
    )
    return tables, guideline_rows(tables, guideline_title="Team sample")


def _grades(result: RowsResult) -> list[tuple[str, str | None, str | None, str | None]]:
    return [(r.row_text, r.class_, r.level, r.section) for r in result.rows]


def _no_leaks(tables: list, result: RowsResult) -> None:
    """Running header, footer, page number, margin notice and body text never in a row."""
    for row in result.rows:
        assert not any(mark in row.row_text for mark in FURNITURE), row.row_text
        assert FILLER not in row.row_text
    for table in tables:
        assert not any(mark in note for note in table.footnotes for mark in FURNITURE)


@pytest.fixture(scope="module")
def one_column() -> tuple[list, RowsResult]:
    return _read("one_column")


def test_one_column_page_rows_sections_stem_and_bullets(one_column):
    """A full-width table: a row ends at its class/level pair, wrapped lines stay in their
    row, bold section rows set the section, a stem ending in ':' is carried onto each of
    its graded bullets."""
    tables, result = one_column
    assert len(tables) == 1 and tables[0].reader == "text-layer"
    assert tables[0].header == ["Recommendations", "Class^a", "Level^b"]
    assert tables[0].caption == "Recommendations for care on the sample ward"
    assert tables[0].heading == "3 Care on the sample ward"
    assert [(r.class_, r.level, r.section) for r in result.rows] == [
        ("I", "C", "Assessment on admission"),
        ("IIa", "C", "Assessment on admission"),
        ("I", "B", "Assessment on admission"),
        ("IIa", "B", "Assessment on admission"),
        ("III", "C", "Discharge"),
    ]
    first = result.rows[0]
    assert first.row_text == (
        "Daily weighing is recommended in patients with heart failure who receive loop "
        "diuretics on the ward."
    )
    assert first.references == ["12", "14-16"]
    stemmed = result.rows[2:4]
    assert {r.stem for r in stemmed} == {"In patients admitted with dizziness on standing:"}
    assert [r.bullet for r in stemmed] == [
        "lying and standing blood pressure is recommended on the first day;",
        "a review of antihypertensive drugs should be considered.",
    ]
    assert stemmed[0].row_text.startswith(
        "In patients admitted with dizziness on standing: lying and standing"
    )
    _no_leaks(tables, result)


def test_footnotes_under_the_table_and_markers_in_rows(one_column):
    """The notes printed under the table are its footnotes (every row carries them); a
    raised letter in a row is its footnote marker and leaves the row text."""
    tables, result = one_column
    assert tables[0].footnotes == [
        "a Class of recommendation.",
        "b Level of evidence.",
        "c Weighed daily with the same scales.",
    ]
    marked = result.rows[1]
    assert marked.footnote_markers == ["c"]
    assert marked.text_for_extraction().endswith("worsening breathlessness and peripheral oedema.")
    assert all(r.footnotes == tables[0].footnotes for r in result.rows)


def test_every_row_has_its_page_and_a_box_inside_the_page(one_column):
    """Page numbers and bounding boxes per row (points, top-left origin, A4 page)."""
    _, result = one_column
    previous_bottom = 0.0
    for row in result.rows:
        assert row.pages == [1]
        (box,) = row.boxes
        assert box.page == 1 and 0 < box.l < box.r < 596 and 0 < box.t < box.b < 842
        assert box.t >= previous_bottom - 1  # rows top to bottom, never overlapping
        previous_bottom = box.b


def test_two_column_page_class_and_level_together_rotated_table_left_out():
    """Two text columns with a table in each: each table keeps to its column; the right
    one prints class and level in one column ("IIa C"); a table printed rotated in the
    margin and the vertical download notice never become rows."""
    tables, result = _read("two_column")
    assert [t.caption for t in tables] == [
        "Recommendations for blood pressure readings",
        "Recommendations for exercise training",
    ]
    assert tables[1].header == ["Recommendations", "Class^a and level^b"]
    assert [(r.class_, r.level, r.section) for r in result.rows] == [
        ("I", "B", "4 Blood pressure at home"),
        ("IIb", "C", "4 Blood pressure at home"),
        ("IIa", "C", "5 Exercise"),
        ("I", "A", "5 Exercise"),
    ]
    assert result.rows[1].row_text == (
        "Ambulatory monitoring may be considered when home readings and clinic readings disagree."
    )
    assert all("rotated row" not in r.row_text for r in result.rows)
    left, right = tables[0].row_boxes, tables[1].row_boxes
    assert (
        max(b.r for boxes in left for b in boxes) < 298 < min(b.l for boxes in right for b in boxes)
    )
    _no_leaks(tables, result)


def test_table_split_over_two_pages_is_one_table():
    """A table cut by a page break, its header printed once: one table of two pieces, rows
    on their own pages, a section row on page 2, the footnotes after its last row."""
    tables, result = _read("split_table")
    assert len(tables) == 1
    table = tables[0]
    assert (table.pieces, table.pages) == (2, [1, 2])
    assert table.footnotes == ["a Class of recommendation.", "b Level of evidence."]
    assert [(r.class_, r.level, r.section, r.pages) for r in result.rows] == [
        ("I", "C", "Before the procedure", [1]),
        ("IIa", "B", "Before the procedure", [1]),
        ("III", "B", "Before the procedure", [1]),
        ("I", "C", "Before the procedure", [2]),
        ("IIb", "C", "After the procedure", [2]),
        ("IIa", "C", "After the procedure", [2]),
    ]
    assert result.rows[3].row_text.startswith("A check of the puncture site")
    _no_leaks(tables, result)


def test_table_continued_in_the_next_column():
    """A table at the foot of the left column goes on at the top of the right one without
    its header: one table, the right column's rows after the left's."""
    tables, result = _read("column_break")
    assert len(tables) == 1 and tables[0].pieces == 2
    assert [(r.class_, r.level) for r in result.rows] == [
        ("I", "C"),
        ("IIa", "C"),
        ("III", "B"),
        ("IIb", "C"),
    ]
    assert result.rows[2].row_text.startswith("Routine home visits by a nurse")
    assert result.rows[2].boxes[0].l > 298 > result.rows[1].boxes[0].r
    assert tables[0].footnotes == ["a Class of recommendation.", "b Level of evidence."]
    _no_leaks(tables, result)


# --------------------------------------------------------------------------- readers


def test_auto_reads_the_text_layer_without_weights_and_tableformer_says_how(tmp_path):
    """``auto`` uses Docling's TableFormer only when its weights (and torch) are here, else
    the text layer; ``tableformer`` without them fails naming the download command."""
    empty = str(tmp_path / "no_weights")
    assert pdf_support_problem(empty) is not None
    assert choose_pdf_reader("auto", empty) == "text-layer"
    assert choose_pdf_reader("text-layer", empty) == "text-layer"
    assert choose_pdf_reader("tableformer", empty) == "tableformer"
    tables = guideline_tables(
        "auto",
        [FIXTURES / "one_column.pdf"],
        lambda path: convert_path(path, artifacts_path=empty),
        footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
        continuation_words=SETTINGS.docling.continuation_words,
        pdf_reader="auto",
        artifacts_path=empty,
    )
    assert [t.reader for t in tables] == ["text-layer"]
    with pytest.raises(SourceError, match="docling-tools models download"):
        guideline_tables(
            "tf",
            [FIXTURES / "one_column.pdf"],
            lambda path: convert_path(path, artifacts_path=empty),
            footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
            continuation_words=SETTINGS.docling.continuation_words,
            pdf_reader="tableformer",
            artifacts_path=empty,
        )


def test_weights_folder_without_torch_is_not_enough_for_auto(tmp_path):
    """Weights present but torch missing (this environment): auto still reads the text
    layer, and the problem names torch."""
    weights = tmp_path / "weights"
    (weights / "layout").mkdir(parents=True)
    (weights / "layout" / "model.safetensors").write_bytes(b"not a model")
    problem = pdf_support_problem(str(weights))
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed here: the weights would be used")
    assert problem is not None and "torch" in problem
    assert choose_pdf_reader("auto", str(weights)) == "text-layer"


def test_pdf_reader_setting_is_validated_naming_the_key(tmp_path):
    config = tmp_path / "pipeline.yaml"
    config.write_text("docling:\n  pdf_reader: ocr\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="pdf_reader"):
        load_pipeline_settings(config)
    config.write_text("docling:\n  pdf_reader: text-layer\n", encoding="utf-8")
    assert load_pipeline_settings(config).docling.pdf_reader == "text-layer"


# --------------------------------------------------------------------------- bad PDFs


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("encrypted", "password-protected"),
        ("scanned", "has a text layer: it is a scan"),
    ],
)
def test_unreadable_pdfs_are_named_with_what_to_do(name, says):
    with pytest.raises(SourceError) as caught:
        _read(name)
    message = str(caught.value)
    assert f"guideline '{name}'" in message and f"{name}.pdf" in message
    assert says in message
    assert "\n" not in message


def test_damaged_pdf_is_named(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes((FIXTURES / "one_column.pdf").read_bytes()[:3000])
    with pytest.raises(SourceError, match=r"broken\.pdf: not a readable PDF .*damaged"):
        guideline_tables(
            "broken",
            [broken],
            convert_path,
            footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
            continuation_words=SETTINGS.docling.continuation_words,
            pdf_reader="text-layer",
        )


def test_cardio_rows_on_a_pdf_writes_pages_and_boxes(tmp_path, monkeypatch):
    """`cardio rows` on a PDF (the default auto reader, no weights here) writes each row
    with its pages and boxes."""
    monkeypatch.setenv("CARDIO_HOME", str(tmp_path / "home"))
    out = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(
        cardio, ["rows", str(FIXTURES / "split_table.pdf"), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 6
    assert [r["pages"] for r in rows] == [[1], [1], [1], [2], [2], [2]]
    assert all(r["boxes"] and r["boxes"][0]["page"] == r["pages"][0] for r in rows)


def test_sample_pdf_guideline_gives_the_html_rows():
    """The ``ccs-sample-pdf`` partition (the CCS sample typeset by Chromium,
    data/guidelines/render_pdf.py) yields the rows of the same guideline's HTML edition:
    text, class, level, section and footnote markers, with the registry's row counts."""
    from cardio_assets.config import load_registry

    root = Path(__file__).resolve().parent.parent
    entry = load_registry().get("ccs-sample-pdf")

    def rows(path: Path) -> tuple[list, RowsResult]:
        tables = guideline_tables(
            "ccs",
            [path],
            convert_path,
            footnote_marker_pattern=SETTINGS.docling.footnote_marker_pattern,
            continuation_words=SETTINGS.docling.continuation_words,
        )
        return tables, guideline_rows(tables, guideline_title="CCS sample")

    pdf_tables, from_pdf = rows(root / entry.sources[0])
    _, from_html = rows(root / "data/guidelines/ccs-sample/ccs-sample.html")
    assert {t.reader for t in pdf_tables} == {"text-layer"}
    counts = {t.table_id: 0 for t in pdf_tables}
    for row in from_pdf.rows + [a for r in from_pdf.rows for a in r.also_at]:
        counts[row.table_id] += 1
    assert counts == entry.expected_rows
    assert pdf_tables[3].pages == [2, 3] and pdf_tables[3].pieces == 2

    def key(row):
        return (row.row_text, row.class_, row.level, row.section, row.footnote_markers)

    assert [key(r) for r in from_pdf.rows] == [key(r) for r in from_html.rows]
    assert all(r.pages and r.boxes for r in from_pdf.rows)
