"""What an engine returns: rule metadata, leaf and decision values, in one shape for both.

Three-valued logic is Kleene's, with TRUE=2, UNKNOWN=1, FALSE=0 so that AND is min, OR is
max and NOT is 2-x: the Cypher engine computes exactly the same arithmetic in the graph.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TRUE, UNKNOWN, FALSE = 2, 1, 0
Truth = Literal["true", "unknown", "false"]
TRUTH_NAME: dict[int, Truth] = {TRUE: "true", UNKNOWN: "unknown", FALSE: "false"}
ABOVE = (">", ">=")  # a paired threshold above which either component counts


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ActionInfo(_Record):
    role: str
    text: str
    normalized: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: str = "recommended"


class Evidence(_Record):
    guideline: str
    guideline_title: str | None = None
    table_id: str
    table_title: str | None = None
    row_id: str
    row_index: int | None = None
    pages: list[int] = Field(default_factory=list)
    section: str | None = None
    text: str


class RuleInfo(_Record):
    rule_id: str
    guideline: str
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: str = "recommended"
    actions: list[ActionInfo] = Field(default_factory=list)
    evidence: Evidence


class LeafResult(_Record):
    """One test of the rule and what the patient's facts made of it."""

    decision: str  # path of the Decision it hangs from ("0", "0.1", ...)
    kind: Literal["condition", "parameter"]
    text: str  # the span as the row wrote it
    normalized: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    negated: bool = False
    operator: str | None = None
    threshold: float | list[float] | None = None
    unit: str | None = None
    value: int
    fact: int | None = None  # ResolvedFact.index that is present and matches
    against: int | None = None  # ResolvedFact.index that is absent and matches
    measurement: int | None = None  # ResolvedMeasurement.index compared (value mode)
    systolic: int | None = None
    diastolic: int | None = None
    alternative: bool = False  # compared with the threshold stated in the patient's unit

    def sort_key(self) -> tuple:
        return (
            self.decision,
            self.kind,
            self.normalized,
            self.negated,
            self.operator or "",
            str(self.threshold),
            self.unit or "",
        )


class DecisionResult(_Record):
    path: str
    op: Literal["AND", "OR"]
    value: int


class RuleResult(_Record):
    rule: RuleInfo
    value: int
    has_logic: bool = True
    decisions: list[DecisionResult] = Field(default_factory=list)
    leaves: list[LeafResult] = Field(default_factory=list)
    engine: Literal["python", "cypher"]


def class_rank(class_: str | None) -> int:
    """III first (warnings), then I, IIa, IIb, then no class."""
    order = {"III": 0, "I": 1, "IIa": 2, "IIb": 3}
    return order.get((class_ or "").strip(), 4)
