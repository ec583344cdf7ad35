"""Pure table logic on DoclingDocuments built with docling-core (the PDF-like cases the
samples do not cover: lost row spans, page gaps, distinct tables with equal headers) and on
real Docling conversions of small HTML/Markdown written for these tests."""

from pathlib import Path

from docling_core.types.doc import (
    BoundingBox,
    DocItemLabel,
    DoclingDocument,
    ProvenanceItem,
    TableCell,
    TableData,
)

from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic.docling_tables import tables_from_document
from cardio_assets.logic.guideline_tables import guideline_tables
from cardio_assets.logic.markup import clean_text
from cardio_assets.logic.table_rows import guideline_rows, strip_marker
from cardio_assets.logic.tagged_rows import tag_text
from resources.docling_converter import convert_path

SETTINGS = load_pipeline_settings()
OPTS = {
    "footnote_marker_pattern": SETTINGS.docling.footnote_marker_pattern,
    "continuation_words": SETTINGS.docling.continuation_words,
}
ROW_OPTS = {"class_labels": SETTINGS.rows.class_labels, "level_labels": SETTINGS.rows.level_labels}
BOX = BoundingBox(l=0, t=0, r=10, b=10)


def _table(
    doc: DoclingDocument,
    rows: list[list[str | None]],
    page: int,
    caption: str | None = None,
    header=True,
):
    cells = []
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if text is None:
                continue  # slot covered by a span
            cells.append(
                TableCell(
                    text=text,
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + 1,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + 1,
                    column_header=header and r == 0,
                )
            )
    prov = ProvenanceItem(page_no=page, bbox=BOX, charspan=(0, 0))
    cap = doc.add_text(label=DocItemLabel.CAPTION, text=caption, prov=prov) if caption else None
    doc.add_table(
        data=TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells),
        caption=cap,
        prov=prov,
    )


HEADER = ["Recommendations", "Class a", "Level b"]


def _tables(doc: DoclingDocument):
    return tables_from_document(
        doc,
        guideline="g",
        source_file="x.json",
        source_sha256="0",
        source_format="docling_json",
        **OPTS,
    )


def test_lost_row_span_is_forward_filled_and_raw_grid_kept():
    doc = DoclingDocument(name="t")
    _table(
        doc,
        [HEADER, ["Section A", "", ""], ["First text", "I", "A"], ["", "IIa", "B"]],
        page=5,
        caption="Table 1 X",
    )
    doc.add_text(label=DocItemLabel.TEXT, text="a Class of recommendation.")
    doc.add_text(label=DocItemLabel.TEXT, text="Ordinary prose ends the footnotes.")
    (table,) = _tables(doc)
    assert table.body[-1] == ["First text", "IIa", "B"]
    assert table.raw_grid[-1] == ["", "IIa", "B"]
    assert table.footnotes == ["a Class of recommendation."]
    rows = guideline_rows([table], guideline_title="G", **ROW_OPTS).rows
    assert [(r.row_text, r.class_, r.section) for r in rows] == [
        ("First text", "I", "Section A"),
        ("First text", "IIa", "Section A"),
    ]


def test_continuation_rules():
    doc = DoclingDocument(name="t")
    _table(doc, [HEADER, ["One", "I", "A"]], page=10, caption="Table 1 Recommendations for X")
    _table(doc, [HEADER, ["Two", "I", "B"]], page=11)  # same header, no title, next page: joined
    _table(doc, [HEADER, ["Three", "I", "C"]], page=11, caption="Table 2 Recommendations for Y")
    _table(doc, [["Four", "III", "C"]], page=12, caption="Table 2 (continued)", header=False)
    _table(doc, [HEADER, ["Five", "I", "A"]], page=20)  # same header but a page gap: new table
    tables = _tables(doc)
    assert [(t.table_id, t.pages, t.pieces) for t in tables] == [
        ("table_000", [10, 11], 2),
        ("table_001", [11, 12], 2),
        ("table_002", [20], 1),
    ]
    assert tables[1].caption == "Table 2 Recommendations for Y"
    assert [row[0] for row in tables[1].body] == ["Three", "Four"]


def test_markers_stripped_only_where_they_are_markers():
    assert strip_marker("Class^a", []) == "Class"
    assert strip_marker("Class a", ["a", "b"]) == "Class"
    # raw <sup> only reaches a label from Markdown, whose text is cleaned as markup first
    assert strip_marker(clean_text("Level<sup>b</sup>", inline_html=True), []) == "Level"
    assert strip_marker("Recommendations", ["s"]) == "Recommendations"
    assert strip_marker("Patients with CKD*", ["*"]) == "Patients with CKD"
    assert strip_marker("Vitamin a", []) == "Vitamin a"  # 'a' is not a marker of this table


def test_real_docling_html_and_markdown_superscripts_rowspan_and_multiline(tmp_path: Path):
    html = tmp_path / "t.html"
    html.write_text(
        "<html><body><table><caption>Table 7 Gizmo care</caption>"
        "<tr><th>Level<sup>b</sup></th><th>Recommendations</th><th>Class<sup>a</sup></th></tr>"
        '<tr><td colspan="3"><b>Gizmo basics</b><sup>c</sup></td></tr>'
        '<tr><td>B</td><td rowspan="2">Gizmos are<br/>recommended<sup>d</sup>.</td><td>I</td></tr>'
        "<tr><td>C</td><td>IIa</td></tr></table>"
        "<p><sup>a</sup>Class.</p><p><sup>b</sup>Level.</p><p><sup>c</sup>Note.</p>"
        "<p>Unrelated paragraph.</p></body></html>",
        encoding="utf-8",
    )
    md = tmp_path / "t.md"
    md.write_text(
        "Table 8 Gadget care\n\n| Recommendations | Class<sup>a</sup> | Level<sup>b</sup> |\n|---|---|---|\n"
        "| **Gadget section** | | |\n| Gadgets at eGFR <30 mL/min/1.73 m<sup>2</sup>,<br>second line. | III | C |\n\n"
        "a Class. b Level.\n",
        encoding="utf-8",
    )
    tables = guideline_tables("g", [html, md], convert_path, **OPTS)
    rows = guideline_rows(tables, guideline_title="G", **ROW_OPTS).rows
    assert [(r.table_id, r.row_text, r.class_, r.level, r.section) for r in rows] == [
        ("table_000", "Gizmos are recommended.", "I", "B", "Gizmo basics"),
        ("table_000", "Gizmos are recommended.", "IIa", "C", "Gizmo basics"),
        (
            "table_001",
            "Gadgets at eGFR <30 mL/min/1.73 m², second line.",
            "III",
            "C",
            "Gadget section",
        ),
    ]
    assert tables[0].header == ["Level^b", "Recommendations", "Class^a"]
    assert tables[0].footnotes == ["a Class.", "b Level.", "c Note."]
    assert tables[1].footnotes == ["a Class.", "b Level."]
    assert rows[0].header == ["Level", "Recommendations", "Class"]
    assert tag_text(rows[2], "POPULATION").splitlines()[-1] == (
        "ROW: Gadgets at eGFR <30 mL/min/1.73 m², second line. | III | C"
    )
