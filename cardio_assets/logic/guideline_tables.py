"""One guideline's sources -> its TableRecords, and the per-table JSON files (pure logic).

Each source is checked (logic/sources.py), converted by the Docling resource (or loaded as
Docling JSON, or read from a PDF's text layer by logic/pdf_readers.py when no layout weights
are there), and its tables built by logic/docling_tables.py; tables are numbered across the
sources in the listed order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from docling_core.types.doc import DoclingDocument

from cardio_assets.exports import write_json
from cardio_assets.files import display_path, private_dir
from cardio_assets.logic.docling_tables import tables_from_document
from cardio_assets.logic.pdf_readers import choose_pdf_reader, text_layer_tables
from cardio_assets.logic.sources import SourceError, check_source, load_docling_json
from cardio_assets.records import TableRecord

Converter = Callable[[Path], DoclingDocument]


def guideline_tables(
    guideline: str,
    sources: list[Path],
    convert: Converter,
    *,
    footnote_marker_pattern: str,
    continuation_words: list[str],
    display_root: Path | None = None,
    pdf_reader: str = "auto",
    artifacts_path: str | None = None,
) -> list[TableRecord]:
    """All tables of one guideline's sources, numbered across sources in the listed order.

    ``convert`` turns an HTML/Markdown/DOCX/PDF path into a DoclingDocument (the Docling
    resource); Docling JSON is loaded here with docling-core. A PDF goes to Docling's full
    pipeline or to the text-layer reader as ``pdf_reader`` says (``auto``: Docling when its
    weights are in ``artifacts_path`` or the default cache; cardio_assets/logic/pdf_readers.py)."""
    records: list[TableRecord] = []
    for path in sources:
        fmt, data = check_source(path, guideline)
        shown = display_path(path, display_root)
        sha256 = hashlib.sha256(data).hexdigest()
        reader = choose_pdf_reader(pdf_reader, artifacts_path) if fmt == "pdf" else "docling"
        if reader == "text-layer":
            records += text_layer_tables(
                path, guideline, str(shown), sha256, len(records), continuation_words
            )
            continue
        if fmt == "docling_json":
            doc = load_docling_json(path, guideline)
        else:
            try:
                doc = convert(path)
            except SourceError:
                raise
            except Exception as exc:  # Docling raises many types; name the file either way
                raise SourceError(
                    f"guideline '{guideline}': file {path}: Docling could not convert it "
                    f"as {fmt}: {exc}"
                ) from exc
        for record in tables_from_document(
            doc,
            guideline=guideline,
            source_file=str(shown),
            source_sha256=sha256,
            source_format=fmt,
            first_index=len(records),
            footnote_marker_pattern=footnote_marker_pattern,
            continuation_words=continuation_words,
        ):
            record.reader = reader
            records.append(record)
    return records


def write_table_json(records: list[TableRecord], out_dir: Path) -> list[Path]:
    """One JSON file per table (<table_id>.json); stale files of this guideline are removed."""
    private_dir(out_dir)
    for old in out_dir.glob("table_*.json"):
        old.unlink()
    written = []
    for record in records:
        target = out_dir / f"{record.table_id}.json"
        write_json(target, record.model_dump(mode="json", by_alias=True))
        written.append(target)
    return written
