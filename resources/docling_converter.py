"""Docling DocumentConverter as a Dagster resource.

HTML, Markdown and DOCX need no model weights. PDF needs Docling's layout and TableFormer
weights (and torch); they cannot be fetched at run time here, so PDF input fails up front
with a message saying how to provide them instead of a deep import or download error.
"""

import importlib.util
from functools import lru_cache
from io import BytesIO
from pathlib import Path

import dagster as dg
from docling.datamodel.base_models import DocumentStream
from docling_core.types.doc import DoclingDocument

from cardio_assets.logic.markup import protect_escaped_brackets, table_regions
from cardio_assets.logic.sources import SourceError


def default_artifacts_path() -> Path:
    from docling.datamodel.settings import settings

    return Path(settings.cache_dir) / "models"


def pdf_support_problem(artifacts_path: str | None) -> str | None:
    """Why PDF conversion cannot run here, or None when weights and torch are present."""
    folder = Path(artifacts_path).expanduser() if artifacts_path else default_artifacts_path()
    fix = (
        "Download them on a machine with network access with "
        f"`docling-tools models download -o {folder}` (copy the folder here if needed), "
        "then set docling.artifacts_path in configs/pipeline.yaml to that folder; "
        "or convert the PDF elsewhere and register its Docling JSON export instead."
    )
    if not folder.is_dir() or not any(folder.iterdir()):
        return f"PDF needs Docling's layout and TableFormer weights, not found in {folder}. {fix}"
    if importlib.util.find_spec("torch") is None:
        return (
            f"PDF needs Docling's layout and TableFormer models, which need torch (not "
            f"installed; weights folder {folder}). Install torch (`uv add torch`) to convert PDF. "
            + fix
        )
    return None


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
    result = _converter(artifacts_path, is_pdf).convert(source, raises_on_error=True)
    return result.document


class DoclingConverterResource(dg.ConfigurableResource):
    """Converts guideline sources with Docling; one converter per process, reused."""

    artifacts_path: str | None = None  # weights for PDF; see configs/pipeline.yaml docling.*

    def convert(self, path: Path) -> DoclingDocument:
        return convert_path(path, self.artifacts_path)
