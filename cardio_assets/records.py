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
    footnote_markers: list[str] = Field(default_factory=list)  # e.g. ["a", "b"]: stripped from labels


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


class LogicNode(_Record):
    """Boolean structure of a row's conditions: AND/OR over leaves (indices into concepts).

    Kept beside the flat ``or_group`` ids because a flat id cannot say "A or (B and C)".
    """

    op: Literal["AND", "OR", "LEAF"]
    concept: int | None = None  # index into MergedRow.concepts when op == "LEAF"
    children: list[LogicNode] = Field(default_factory=list)


class MergedConcept(_Record):
    """One concept of a row after merging the MAIN and POPULATION passes."""

    role: Role
    text: str
    normalized: str
    operator: Operator | None = None
    threshold: float | list[float] | None = None
    unit: str | None = None
    or_group: str | None = None  # "g1", "g2", ... unique within the row
    negated: bool = False
    is_population: bool = False
    sources: list[Focus] = Field(default_factory=list)  # passes that produced it


class MergedRow(_Record):
    """Merged extraction of one row: the unit grounding and rule building consume."""

    row_id: str
    guideline: str
    backend: Literal["llm", "lexicon"] | None = None
    model: str | None = None
    concepts: list[MergedConcept] = Field(default_factory=list)
    actions: list[ExtractedAction] = Field(default_factory=list)
    logic: LogicNode | None = None  # AND/OR tree over the non-action concepts
    errors: list[str] = Field(default_factory=list)  # per-pass errors carried forward


class TaxonomyStep(_Record):
    """One concept on a taxonomy path (concept first, then is-a parents up to the root)."""

    concept_id: str
    term: str  # FSN


class GroundingCandidate(_Record):
    """One SNOMED CT concept proposed for a term, before any filter (threshold-free).

    Carries everything the filters need (tag, ancestors, path) so changing a threshold
    re-runs only the selection, never the terminology search.
    """

    term: str  # the term as extracted
    role: Role
    query: str  # normalized search text (abbreviations expanded, thresholds stripped)
    rank: int  # 1 = best score
    concept_id: str
    fsn: str
    semantic_tag: str
    matched_term: str  # the description (FSN or synonym) that scored best
    matched_is_fsn: bool = False
    score: float  # composite similarity in [0, 1]
    score_components: dict[str, float] = Field(default_factory=dict)
    taxonomy_path: list[TaxonomyStep] = Field(default_factory=list)
    ancestor_ids: list[str] = Field(default_factory=list)  # full is-a closure, for root filters


class FilterCheck(_Record):
    """The verdict of one filter on one candidate, in words a reviewer can audit."""

    filter: Literal["min_match_score", "domain", "semantic_tag", "off_domain_min_score"]
    passed: bool
    detail: str


class GroundingDecision(_Record):
    """Why a candidate was kept or dropped for its role."""

    concept_id: str
    fsn: str
    score: float
    kept: bool
    selected: bool = False  # the kept candidate with the best score
    checks: list[FilterCheck] = Field(default_factory=list)
    reason: str  # one-line summary of the deciding check(s)
    taxonomy_path: list[TaxonomyStep] = Field(default_factory=list)


class GroundingIndexEntry(_Record):
    """One grounding_index JSON entry (keyed by ``snomed_id`` in the exported file)."""

    entity_standardized_candidate: str
    snomed_id: int
    preferred_term: str  # the FSN
    score: float
    taxonomy_path: list[TaxonomyStep] = Field(default_factory=list)
    target_label: Role
    term: str | None = None  # the extracted term it grounds
    role: Role | None = None
    matched_term: str | None = None
    semantic_tag: str | None = None


class GroundingOutcome(_Record):
    """Selection result for one (term, role): the entry, or why the term stays unmapped."""

    term: str
    role: Role
    entry: GroundingIndexEntry | None = None
    unmapped_reason: str | None = None
    decisions: list[GroundingDecision] = Field(default_factory=list)
