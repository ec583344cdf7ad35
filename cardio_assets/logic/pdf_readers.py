"""Which reader turns a PDF into tables (pure logic, no Dagster).

Docling's full PDF pipeline (layout model + TableFormer) needs model weights and torch,
which hospital networks often cannot download; the text-layer reader
(cardio_assets/logic/pdf_tables.py) needs neither. ``docling.pdf_reader`` in
configs/pipeline.yaml chooses: ``auto`` (the weights when they are present, else the text
layer), ``tableformer`` (always Docling; a clear error without the weights) or
``text-layer`` (always the text layer).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Literal

from cardio_assets.logic.sources import SourceError
from cardio_assets.records import TableRecord

PdfReaderSetting = Literal["auto", "tableformer", "text-layer"]
PdfReader = Literal["tableformer", "text-layer"]


def default_artifacts_path() -> Path:
    from docling.datamodel.settings import settings

    return Path(settings.cache_dir) / "models"


def pdf_support_problem(artifacts_path: str | None) -> str | None:
    """Why Docling's PDF pipeline cannot run here, or None when weights and torch are present."""
    folder = Path(artifacts_path).expanduser() if artifacts_path else default_artifacts_path()
    fix = (
        "Download them on a machine with network access with "
        f"`docling-tools models download -o {folder}` (copy the folder here if needed), "
        "then set docling.artifacts_path in configs/pipeline.yaml to that folder; "
        "or set docling.pdf_reader to text-layer (or auto) to read the PDF's text layer "
        "without weights, or convert the PDF elsewhere and register its Docling JSON export."
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


def choose_pdf_reader(setting: str, artifacts_path: str | None) -> PdfReader:
    """The reader a PDF gets: ``auto`` picks TableFormer only when it can run here."""
    if setting == "text-layer":
        return "text-layer"
    if setting == "tableformer":
        return "tableformer"
    return "tableformer" if pdf_support_problem(artifacts_path) is None else "text-layer"


class NoTextLayerError(ValueError):
    """A PDF whose pages carry no text at all (a scan): nothing to read without OCR."""


def text_layer_tables(
    path: Path, guideline: str, shown: str, sha256: str, first: int, words: list[str]
) -> list[TableRecord]:
    """A PDF's tables from its text layer; a PDF that cannot be read is named with why
    (password, damage, no text layer) and what to do."""
    from cardio_assets.logic.pdf_tables import read_pdf_tables

    where = f"guideline '{guideline}': file {path}"
    try:
        return read_pdf_tables(
            path,
            guideline=guideline,
            source_file=shown,
            source_sha256=sha256,
            first_index=first,
            continuation_words=words,
        )
    except SourceError:
        raise
    except NoTextLayerError as exc:
        raise SourceError(
            f"{where}: {exc}: it is a scan or an image-only PDF. Run OCR on it first "
            "(e.g. `ocrmypdf in.pdf out.pdf`) and register the OCR'd copy, or register "
            "the guideline's HTML, DOCX or Markdown instead."
        ) from exc
    except Exception as exc:  # docling-parse raises RuntimeError/ValueError on broken files
        raise SourceError(f"{where}: {unreadable_pdf_reason(path, exc)}") from exc


def unreadable_pdf_reason(path: Path, exc: Exception) -> str:
    """Why docling-parse could not open a PDF, asked of PDFium (installed with Docling),
    whose errors say password or damage, with what to do."""
    try:
        import pypdfium2

        pypdfium2.PdfDocument(str(path)).close()
    except Exception as pdfium_error:  # PdfiumError: "Incorrect password error", ...
        detail = str(pdfium_error)
        if "password" in detail.lower():
            return (
                "the PDF is password-protected (encrypted), so its text cannot be read. "
                "Save a copy without the password (e.g. `qpdf --decrypt --password=PASSWORD "
                "in.pdf out.pdf`) and register that copy."
            )
        return (
            f"not a readable PDF ({detail}): the file is damaged or incomplete. "
            "Download or export it again and replace the file."
        )
    return f"its PDF text layer could not be read: {exc}"
