"""Records that flow between pipeline stages.

These are the data contracts between the stages (docs/ARCHITECTURE.md, "Records"). Every stage reads and writes these models
(never ad-hoc dicts) so a field renamed in one place fails loudly everywhere.
Pure data: no Dagster imports.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from cardio_assets.logic.redaction import safe_error

Role = Literal["Condition", "ClinicalParameter", "Procedure", "Medication", "Outcome"]
ROLES: tuple[str, ...] = ("Condition", "ClinicalParameter", "Procedure", "Medication", "Outcome")
Focus = Literal["MAIN", "POPULATION"]
# A concept's function where it changes how the rule uses it (the annotation contract's
# functions): "purpose" is what a test is meant to find ("to exclude PE"): a concept of the
# row, never a criterion the patient must meet, so it stays out of the logic and population
ConceptFunction = Literal["purpose"]
Operator = Literal["<", "<=", ">", ">=", "=", "between"]
# "140/90": systolic/diastolic written as one threshold (a paired blood pressure)
PairedValue = Annotated[str, StringConstraints(pattern=r"^\d{2,3}/\d{2,3}$")]
Polarity = Literal["recommended", "not recommended"]


class _Record(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")


class PageBox(_Record):
    """Where something is printed: page (1-based) and box in points, top-left origin."""

    page: int
    l: float  # noqa: E741 - the box's left edge, as in every PDF tool
    t: float
    r: float
    b: float


TableReader = Literal["docling", "tableformer", "text-layer"]


class TableRecord(_Record):
    """One recommendation table after Docling conversion (continuation pieces joined)."""

    guideline: str
    table_id: str
    source_file: str
    source_sha256: str
    source_format: str
    pages: list[int] = Field(default_factory=list)  # empty = unknown, never guessed
    caption: str | None = None  # the table's title
    heading: str | None = None  # the nearest section heading above the table
    header: list[str]
    body: list[list[str]]
    footnotes: list[str] = Field(default_factory=list)
    pieces: int = 1  # Docling table items joined into this table
    raw_grid: list[list[str]] = Field(default_factory=list)  # before forward-fill, for audit
    footnote_markers: list[str] = Field(
        default_factory=list
    )  # e.g. ["a", "b"]: stripped from labels
    # the abbreviation list printed under the table ("AF, atrial fibrillation; ...")
    abbreviations: dict[str, str] = Field(default_factory=dict)
    # per body row, where it is printed (a row split by a page break has two boxes); empty
    # when the reader does not know (Docling's converters for HTML, Markdown, DOCX)
    row_boxes: list[list[PageBox]] = Field(default_factory=list)
    # which reader made the table: Docling's converter for the format ("docling"), Docling's
    # full PDF pipeline with TableFormer ("tableformer") or the PDF text layer ("text-layer")
    reader: TableReader | None = None


class RowLocation(_Record):
    """Another place the same recommendation is printed (a summary and a section table)."""

    table_id: str
    table_title: str | None = None
    row_index: int
    section: str | None = None
    pages: list[int] = Field(default_factory=list)
    cell_sha256: str = ""
    printed_text: str = ""  # that printing's text, as printed


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
    row_text: str  # what extraction reads: repaired, references apart, stem + bullet
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    section: str | None = None
    pages: list[int] = Field(default_factory=list)
    source_file: str = ""
    source_sha256: str = ""
    cell_sha256: str = ""  # hash of the row's raw cells, for provenance
    printed_text: str = ""  # the text cell as printed, on one line (audit)
    stem: str | None = None  # the stem a bullet row carries ("In patients with X, CABG:")
    bullet: str | None = None  # the bullet's own text, without its stem
    references: list[str] = Field(default_factory=list)  # citation numbers moved out
    footnote_markers: list[str] = Field(default_factory=list)  # letters the row carries
    # where in row_text those letters are glued (start, end): removed before extraction
    marker_spans: list[tuple[int, int]] = Field(default_factory=list)

    def text_for_extraction(self) -> str:
        """row_text without its glued footnote letters (the footnotes travel with the row)."""
        from cardio_assets.logic.row_text import without_spans

        return (
            without_spans(self.row_text, self.marker_spans) if self.marker_spans else self.row_text
        )

    repairs: list[str] = Field(default_factory=list)  # text repairs applied (audit)
    # the guideline's own definitions of the abbreviations this row uses
    abbreviations: dict[str, str] = Field(default_factory=dict)
    also_at: list[RowLocation] = Field(default_factory=list)  # where else it is printed
    boxes: list[PageBox] = Field(default_factory=list)  # where the row is printed (PDF)


class TaggedRow(_Record):
    """The exact text sent to one extraction pass."""

    row_id: str
    guideline: str
    focus: Focus
    text: str


# A threshold: one number, [low, high] for "between", or a paired blood pressure "140/90"
# (data/gold/ANNOTATION_CONVENTIONS.md, section 5).
# [low, high] when operator == "between"; "140/90" for a paired blood pressure (one
# parameter, as the annotation contract writes it)
Threshold = float | list[float] | PairedValue


class AltValue(_Record):
    """The same value printed in a second unit ("<1.4 mmol/L (55 mg/dL)": 55 mg/dL; a
    range's as a range, "1.7–5.6 mmol/L (150–499 mg/dL)": [150, 499] mg/dL)."""

    threshold: float | list[float]
    unit: str | None = None


class ExtractedConcept(_Record):
    role: Role
    text: str  # minimal verbatim span
    normalized: str | None = None  # lower-case, abbreviations expanded
    operator: Operator | None = None
    threshold: Threshold | None = None  # [low, high] when operator == "between"
    unit: str | None = None
    alt_values: list[AltValue] = Field(default_factory=list)
    or_group: str | None = None
    negated: bool = False
    function: ConceptFunction | None = None


ValidationCheck = Literal[
    "span_not_in_row", "operator", "threshold", "unit", "alt_values", "value_not_in_span"
]


class ValidationIssue(_Record):
    """What a deterministic check of an llm answer changed (cardio_assets/logic/llm_validation.py).

    ``span_not_in_row``: the item was dropped (its span is not in the row). The other
    checks compare the model's value with the one re-parsed from the span; the re-parsed
    one is kept (``value_not_in_span``: the span holds no value, the model's is dropped).
    """

    check: ValidationCheck
    item: Literal["concept", "action"] = "concept"
    role: Role
    text: str  # the span as the model returned it
    model_value: Any = None  # what the model said (None for a span check)
    parsed_value: Any = None  # what the span says, now on the record


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
    # llm backend: what the deterministic checks dropped or corrected (empty = all held)
    validation: list[ValidationIssue] = Field(default_factory=list)

    @field_validator("error")
    @classmethod
    def _safe_error(cls, value: str | None) -> str | None:
        """Stored, logged and shown: never a secret, never more than MAX_ERROR_CHARS."""
        return safe_error(value) if value else value


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
    threshold: Threshold | None = None
    unit: str | None = None
    alt_values: list[AltValue] = Field(default_factory=list)
    or_group: str | None = None  # "g1", "g2", ... unique within the row
    negated: bool = False
    function: ConceptFunction | None = None
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

    @field_validator("errors")
    @classmethod
    def _safe_errors(cls, value: list[str]) -> list[str]:
        """Same guarantee as RowExtraction.error (redacted, bounded)."""
        return [safe_error(e) for e in value]


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
    # the guideline partition it was found for (set by the asset; a single-run backfill
    # stores many partitions in one write); empty outside the pipeline
    guideline: str = ""
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

    filter: Literal[
        "min_match_score", "qualifiers", "domain", "semantic_tag", "off_domain_min_score"
    ]
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
    guideline: str = ""  # the guideline partition (set by the asset), as on GroundingCandidate
    entry: GroundingIndexEntry | None = None
    unmapped_reason: str | None = None
    decisions: list[GroundingDecision] = Field(default_factory=list)


# --- extracted_rules: one logic-preserving rule per recommendation row -------------------
# Contract between the rule builder and the Neo4j loader. The JSON Schema in
# schemas/extracted_rule.schema.json is generated from these models
# (extracted_rule_json_schema) and a test keeps the two identical.

EXTRACTED_RULE_SCHEMA_VERSION = 1
_SHA256 = r"^[0-9a-f]{64}$"


class ConceptGrounding(_Record):
    """The SNOMED CT concept a term was grounded to, copied from its grounding index entry."""

    snomed_id: str = Field(pattern=r"^[1-9][0-9]{5,17}$")  # SCTID as a string (ids reach 18 digits)
    preferred_term: str  # the FSN
    score: float = Field(ge=0.0, le=1.0)  # composite match score of the winning candidate
    target_label: Role  # second Neo4j label of the Concept node
    matched_term: str | None = None
    semantic_tag: str | None = None

    @field_validator("snomed_id", mode="before")
    @classmethod
    def _sctid_as_text(cls, value: Any) -> Any:
        # The grounding index stores SCTIDs as integers; the graph keys on text.
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class ConceptRef(_Record):
    """A concept as a rule uses it: grounded to SNOMED CT, or kept unmapped with the reason."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {
                    "required": ["grounding"],
                    "properties": {
                        "grounding": {"type": "object"},
                        "unmapped_reason": {"type": "null"},
                    },
                },
                {
                    "required": ["unmapped_reason"],
                    "properties": {
                        "grounding": {"type": "null"},
                        "unmapped_reason": {"type": "string"},
                    },
                },
            ]
        }
    )

    role: Role
    text: str = Field(min_length=1)  # span as extracted
    normalized: str = Field(min_length=1)  # lower-case, abbreviations expanded: the unmapped key
    grounding: ConceptGrounding | None = None
    unmapped_reason: str | None = Field(default=None, min_length=1)
    passes: list[Focus] = Field(default_factory=list)  # extraction passes that produced it
    is_population: bool = False

    @model_validator(mode="after")
    def _grounded_xor_unmapped(self) -> ConceptRef:
        if (self.grounding is None) == (self.unmapped_reason is None):
            raise ValueError(
                f"concept {self.text!r} ({self.role}): set exactly one of 'grounding' "
                "or 'unmapped_reason'"
            )
        return self


def _require_role(concept: ConceptRef, allowed: tuple[str, ...], where: str) -> None:
    if concept.role not in allowed:
        raise ValueError(
            f"{where}: concept {concept.text!r} has role {concept.role}, expected {allowed}"
        )


def _role_schema(*roles: str) -> dict[str, Any]:
    """JSON Schema refinement so the schema file states the same role rules as the validators."""
    return {"properties": {"role": {"enum": list(roles)}}}


class ConditionTest(_Record):
    """Leaf: the patient has (or, negated, does not have) a condition."""

    kind: Literal["condition"] = "condition"
    concept: ConceptRef = Field(json_schema_extra=_role_schema("Condition"))
    negated: bool = False

    @model_validator(mode="after")
    def _is_condition(self) -> ConditionTest:
        _require_role(self.concept, ("Condition",), "condition test")
        return self


class ParameterTest(_Record):
    """Leaf: a clinical parameter compared with a threshold, e.g. LVEF <= 35 %."""

    kind: Literal["parameter"] = "parameter"
    concept: ConceptRef = Field(json_schema_extra=_role_schema("ClinicalParameter"))
    operator: Operator
    threshold: float | Annotated[list[float], Field(min_length=2, max_length=2)]  # [low, high]
    unit: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ParameterTest:
        _require_role(self.concept, ("ClinicalParameter",), "parameter test")
        is_range = isinstance(self.threshold, list)
        if (self.operator == "between") != is_range:
            raise ValueError(
                f"parameter test on {self.concept.text!r}: operator 'between' takes "
                "[low, high]; every other operator takes one number"
            )
        if is_range and self.threshold[0] > self.threshold[1]:
            raise ValueError(f"parameter test on {self.concept.text!r}: range low > high")
        return self


def _rule_child_kind(value: Any) -> str | None:
    """Tag of a logic child; inferred from its keys when 'kind' is omitted."""
    if isinstance(value, dict):
        if "kind" in value:
            return value["kind"]
        if "op" in value:
            return "logic"
        return "parameter" if "operator" in value else "condition"
    return getattr(value, "kind", None)


RuleChild = Annotated[
    Annotated["RuleNode", Tag("logic")]
    | Annotated[ConditionTest, Tag("condition")]
    | Annotated[ParameterTest, Tag("parameter")],
    Discriminator(_rule_child_kind),
]


class RuleNode(_Record):
    """AND/OR over condition tests, parameter tests and nested nodes: the row's logic."""

    kind: Literal["logic"] = "logic"
    op: Literal["AND", "OR"]
    children: list[RuleChild] = Field(min_length=1)

    def leaves(self) -> list[ConditionTest | ParameterTest]:
        out: list[ConditionTest | ParameterTest] = []
        for child in self.children:
            out.extend(child.leaves() if isinstance(child, RuleNode) else [child])
        return out


class RuleAction(_Record):
    """What the row recommends (or recommends against), with its class and level of evidence."""

    concept: ConceptRef = Field(json_schema_extra=_role_schema("Procedure", "Medication"))
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: Polarity = "recommended"

    @model_validator(mode="after")
    def _is_action(self) -> RuleAction:
        _require_role(self.concept, ("Procedure", "Medication"), "action")
        return self


class ThresholdOverrides(_Record):
    """Grounding filters a ``cardio build`` run set for every role instead of
    configs/guideline_graph_schema.yaml (that run only); None = the file's value."""

    min_match_score: float | None = Field(default=None, ge=0.0, le=1.0)
    off_domain_min_score: float | None = Field(default=None, ge=0.0, le=1.0)
    domain_filter: bool | None = None  # False: allowed_roots and semantic_tags not applied


class RuleProvenance(_Record):
    """Where the rule came from, down to the row, the extraction passes and the Dagster run."""

    guideline: str
    guideline_title: str | None = None
    table_id: str
    table_title: str | None = None
    row_id: str
    row_index: int | None = None
    section: str | None = None
    pages: list[int] = Field(default_factory=list)  # empty = unknown, never guessed
    source_file: str | None = None
    source_sha256: str | None = Field(default=None, pattern=_SHA256)
    cell_sha256: str | None = Field(default=None, pattern=_SHA256)
    # other places the same recommendation is printed (a summary and a section table):
    # one rule, one SourceRow per printing in the graph
    also_at: list[RowLocation] = Field(default_factory=list)
    passes: list[Focus] = Field(default_factory=list)
    backend: Literal["llm", "lexicon"]
    model: str | None = None
    prompt_hash: str | None = None
    config_hash: str
    run_id: str | None = None
    # set only by a run whose flags replaced the schema's thresholds (config_hash covers them)
    threshold_overrides: ThresholdOverrides | None = None


class ExtractedRule(_Record):
    """One recommendation row as a computable rule: IF logic THEN actions (-> outcomes)."""

    schema_version: Literal[1] = EXTRACTED_RULE_SCHEMA_VERSION
    id: str = Field(min_length=1)  # by convention the row id: "<guideline>:<table_id>:r<row>"
    guideline: str = Field(min_length=1)
    text: str  # the recommendation row text, kept as evidence
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: Polarity = "recommended"
    logic: RuleNode | None = None  # None: applies to the whole guideline population
    actions: list[RuleAction] = Field(default_factory=list)
    outcomes: list[ConceptRef] = Field(default_factory=list)  # role Outcome
    # what a test the row recommends is meant to find ("to rule out PE"): a concept of the
    # row but no criterion of the patient (function "purpose"), so never in the logic
    purposes: list[ConceptRef] = Field(default_factory=list)
    provenance: RuleProvenance

    @model_validator(mode="after")
    def _coherent(self) -> ExtractedRule:
        if self.provenance.guideline != self.guideline:
            raise ValueError(
                f"rule {self.id}: provenance.guideline {self.provenance.guideline!r} "
                f"!= guideline {self.guideline!r}"
            )
        for outcome in self.outcomes:
            _require_role(outcome, ("Outcome",), f"rule {self.id} outcome")
        if self.logic is None and not self.actions and not self.outcomes:
            raise ValueError(f"rule {self.id}: no logic, actions or outcomes left (drop it)")
        return self

    def concepts(self) -> list[ConceptRef]:
        """Every concept the rule mentions, in logic, action, outcome order."""
        leaves = self.logic.leaves() if self.logic else []
        return (
            [leaf.concept for leaf in leaves]
            + [a.concept for a in self.actions]
            + list(self.outcomes)
            + list(self.purposes)
        )


def extracted_rule_json_schema() -> dict[str, Any]:
    """The JSON Schema of one extracted_rules JSONL line (source of schemas/*.schema.json)."""
    schema = ExtractedRule.model_json_schema(by_alias=True, mode="validation")
    # Same role rule as the validator, stated in the file for non-Python consumers.
    schema["properties"]["outcomes"]["items"] = {
        "$ref": "#/$defs/ConceptRef",
        **_role_schema("Outcome"),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://cardio-guidelines-graph.local/schemas/extracted_rule.schema.json",
        **schema,
    }
