"""Docling DocumentConverter as a Dagster resource.

HTML, Markdown and DOCX need no model weights. Docling's PDF pipeline needs its layout and
TableFormer weights (and torch); they cannot be fetched at run time here, so when it is
asked for without them (docling.pdf_reader: tableformer) PDF input fails up front with a
message saying how to provide them instead of a deep import or download error. Without
weights, ``auto`` reads PDFs from their text layer instead (cardio_assets/logic/pdf_tables.py).
"""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

import dagster as dg

from cardio_assets.logic.markup import declare_utf8, protect_escaped_brackets, table_regions
from cardio_assets.logic.pdf_readers import (  # noqa: F401 - re-exported for callers
    default_artifacts_path,
    pdf_support_problem,
)
from cardio_assets.logic.sources import SourceError

if TYPE_CHECKING:  # Docling loads on the first conversion, not with the definitions
    from docling.datamodel.base_models import DocumentStream
    from docling_core.types.doc import DoclingDocument


@lru_cache(maxsize=4)
def _converter(artifacts_path: str | None, pdf: bool):
    from docling.datamodel.base_models import InputFormat
    from docling.document_converter import DocumentConverter, PdfFormatOption

    formats = [InputFormat.HTML, InputFormat.MD, InputFormat.DOCX]
    if not pdf:
        return DocumentConverter(allowed_formats=formats)
    from docling.datamodel.pipeline_options import PdfPipelineOptions

    options = PdfPipelineOptions(do_ocr=False, do_table_structure=True)
    if artifacts_path:
        options.artifacts_path = artifacts_path
    return DocumentConverter(
        allowed_formats=[*formats, InputFormat.PDF],
        format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=options)},
    )


def convert_path(path: Path, artifacts_path: str | None = None) -> DoclingDocument:
    """HTML/Markdown/DOCX/PDF file -> DoclingDocument (conversion errors raise)."""
    from docling.datamodel.base_models import DocumentStream

    is_pdf = path.suffix.lower() == ".pdf"
    if is_pdf:
        problem = pdf_support_problem(artifacts_path)
        if problem:
            raise SourceError(f"file {path}: {problem}")
    source: Path | DocumentStream = path
    if path.suffix.lower() in (".md", ".markdown"):
        # escaped "<" / ">" must stay text after Docling unescapes them (see clean_text)
        text = table_regions(protect_escaped_brackets(path.read_text(encoding="utf-8")))
        source = DocumentStream(name=path.name, stream=BytesIO(text.encode("utf-8")))
    elif path.suffix.lower() in (".html", ".htm"):
        # an undeclared UTF-8 file is read as UTF-8, not as Docling's guess (see declare_utf8)
        declared = declare_utf8(path.read_bytes())
        if declared is not None:
            source = DocumentStream(name=path.name, stream=BytesIO(declared))
    result = _converter(artifacts_path, is_pdf).convert(source, raises_on_error=True)
    return result.document


class DoclingConverterResource(dg.ConfigurableResource):
    """Converts guideline sources with Docling; one converter per process, reused."""

    artifacts_path: str | None = None  # weights for PDF; see configs/pipeline.yaml docling.*

    def convert(self, path: Path) -> DoclingDocument:
        return convert_path(path, self.artifacts_path)
