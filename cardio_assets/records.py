"""Records that flow between pipeline stages.

These are the data contracts of DESIGN.md. Every stage reads and writes these models
(never ad-hoc dicts) so a field renamed in one place fails loudly everywhere.
Pure data: no Dagster imports.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["Condition", "ClinicalParameter", "Procedure", "Medication", "Outcome"]
ROLES: tuple[str, ...] = ("Condition", "ClinicalParameter", "Procedure", "Medication", "Outcome")
Focus = Literal["MAIN", "POPULATION"]
Operator = Literal["<", "<=", ">", ">=", "=", "between"]
Polarity = Literal["recommended", "not recommended"]


class _Record(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")


class TableRecord(_Record):
    """One recommendation table after Docling conversion (continuation pieces joined)."""

    guideline: str
    table_id: str
    source_file: str
    source_sha256: str
    source_format: str
    pages: list[int] = Field(default_factory=list)  # empty = unknown, never guessed
    caption: str | None = None
    header: list[str]
    body: list[list[str]]
    footnotes: list[str] = Field(default_factory=list)
    pieces: int = 1  # Docling table items joined into this table
    raw_grid: list[list[str]] = Field(default_factory=list)  # before forward-fill, for audit


class RowRecord(_Record):
    """One recommendation row with the context an extractor needs."""

    id: str  # "<guideline>:<table_id>:r<row_index>"
    guideline: str
    guideline_title: str
    table_id: str
    table_title: str | None = None
    row_index: int
    header: list[str]
    footnotes: list[str] = Field(default_factory=list)
    row_text: str
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    section: str | None = None
    pages: list[int] = Field(default_factory=list)
    source_file: str = ""
    source_sha256: str = ""
    cell_sha256: str = ""  # hash of the row's raw cells, for provenance


class TaggedRow(_Record):
    """The exact text sent to one extraction pass."""

    row_id: str
    guideline: str
    focus: Focus
    text: str


class ExtractedConcept(_Record):
    role: Role
    text: str  # minimal verbatim span
    normalized: str | None = None  # lower-case, abbreviations expanded
    operator: Operator | None = None
    threshold: float | list[float] | None = None  # [low, high] when operator == "between"
    unit: str | None = None
    or_group: str | None = None
    negated: bool = False


class ExtractedAction(_Record):
    text: str
    normalized: str | None = None
    role: Role  # usually Procedure or Medication
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: Polarity = "recommended"


class RowExtraction(_Record):
    """Result of one extraction pass on one row (kept even when it failed)."""

    row_id: str
    guideline: str
    focus: Focus
    backend: Literal["llm", "lexicon"]
    model: str | None = None
    prompt_hash: str | None = None
    input_hash: str
    raw_output: str | None = None
    concepts: list[ExtractedConcept] = Field(default_factory=list)
    actions: list[ExtractedAction] = Field(default_factory=list)
    error: str | None = None
    cached: bool = False
