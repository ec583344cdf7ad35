"""Guideline source files: which formats, and a clear error before Docling sees a bad one
(pure logic, no Dagster). Every message names the guideline and the file."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

if TYPE_CHECKING:  # docling-core loads when a document is read, not on import
    from docling_core.types.doc import DoclingDocument

SUPPORTED_FORMATS: dict[str, str] = {
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".docx": "docx",
    ".json": "docling_json",
    ".pdf": "pdf",
}


class SourceError(ValueError):
    """A guideline source cannot be turned into tables; the message names guideline and file."""


# --------------------------------------------------------------------------- input checks


def source_format(path: Path, guideline: str) -> str:
    fmt = SUPPORTED_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise SourceError(
            f"guideline '{guideline}': file {path}: unsupported extension '{path.suffix}' "
            f"(supported: {', '.join(sorted(SUPPORTED_FORMATS))})"
        )
    return fmt


DOCX_MAIN_PART = "word/document.xml"


def docx_container_problem(data: bytes) -> str | None:
    """Why a ZIP file named .docx is not a Word document (None when it is one).

    Any ZIP passes the magic-number test (an .xlsx, a zipped folder), and Docling then fails
    deep inside with a message that names neither the file nor the cause.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError):
        return "is not a readable DOCX file (damaged or truncated ZIP container)"
    if DOCX_MAIN_PART not in names:
        return f"is a ZIP archive but not a Word document (no {DOCX_MAIN_PART})"
    return None


def check_source(path: Path, guideline: str) -> tuple[str, bytes]:
    """Fail early and clearly on missing, unreadable, empty or mislabelled files."""
    fmt = source_format(path, guideline)
    where = f"guideline '{guideline}': file {path}"
    if not path.exists():
        raise SourceError(
            f"{where}: does not exist (check the path; registered guidelines list theirs in configs/guidelines.yaml)"
        )
    if not path.is_file():
        raise SourceError(f"{where}: is not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{where}: cannot be read ({exc.strerror or exc})") from exc
    if not data.strip():
        raise SourceError(f"{where}: is empty")
    head = data[:2048].lstrip()
    mismatch = None
    if fmt == "docx" and not data.startswith(b"PK\x03\x04"):
        mismatch = "is not a DOCX file (no ZIP container)"
    elif fmt == "docx":
        mismatch = docx_container_problem(data)
    elif fmt == "pdf" and not data.startswith(b"%PDF"):
        mismatch = "is not a PDF file (no %PDF header)"
    elif fmt in ("html", "md", "docling_json"):
        if b"\x00" in data[:4096] or data.startswith((b"PK\x03\x04", b"%PDF")):
            mismatch = f"is binary, not {fmt.replace('_', ' ')} text"
        elif fmt == "html" and b"<" not in head:
            mismatch = "is not HTML (no markup found)"
        elif fmt == "docling_json" and not head.startswith(b"{"):
            mismatch = "is not a JSON object (expected a Docling JSON export)"
    if mismatch:
        fix = "; save the guideline from Word as .docx" if fmt == "docx" else ""
        raise SourceError(f"{where}: {mismatch}; its extension says {path.suffix}{fix}")
    return fmt, data


def load_docling_json(path: Path, guideline: str) -> DoclingDocument:
    """Load a DoclingDocument JSON export (what ``DoclingDocument.save_as_json`` writes)."""
    where = f"guideline '{guideline}': file {path}"
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{where}: malformed Docling JSON: {exc}") from exc
    if not isinstance(payload, dict) or payload.get("schema_name") != "DoclingDocument":
        raise SourceError(
            f"{where}: malformed Docling JSON: top-level 'schema_name' must be 'DoclingDocument'"
        )
    try:
        from docling_core.types.doc import DoclingDocument

        return DoclingDocument.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        raise SourceError(
            f"{where}: malformed Docling JSON at key '{key}': {first['msg']} "
            f"({exc.error_count()} problem(s))"
        ) from None
