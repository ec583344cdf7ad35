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
