"""From engine results to the answer a cardiologist checks: groups, reasons, evidence.

Engine-independent on purpose: both engines return leaf values and the facts they used
(model.py); everything said about them (which fact met a test and how, what value would
decide a missing one, whether the patient already takes a recommended drug) is worked out
here once, so the two engines' answers read the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cardio_assets.logic.ask.config import AskConfig
from cardio_assets.logic.ask.facts import (
    PatientContext,
    ResolvedFact,
    ResolvedMeasurement,
    value_in,
)
from cardio_assets.logic.ask.model import (
    ABOVE,
    FALSE,
    TRUE,
    TRUTH_NAME,
    UNKNOWN,
    Evidence,
    LeafResult,
    RuleResult,
    Truth,
    class_rank,
)
from cardio_assets.logic.ask.units import UnitError, Units, read_threshold
from cardio_assets.logic.patients import InputProblem

Group = Literal["applicable", "possibly applicable", "excluded"]
GROUP_OF: dict[int, Group] = {TRUE: "applicable", UNKNOWN: "possibly applicable", FALSE: "excluded"}
_NEGATE_OP = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!="}


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class FactView(_Record):
    kind: str
    status: str
    label: str
    source: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    grounded_by: str  # code | grounded text | ungrounded
    score: float | None = None
    note: str | None = None


class LeafView(_Record):
    test: str  # "left ventricular ejection fraction <= 35 %", "NOT diabetes"
    concept: str  # "SNOMED CT 250908004 |...|" or "unmapped in the rules"
    row_text: str  # the span as the row wrote it
    value: Truth
    because: str
    match: Literal["code", "is-a", "name"] | None = None
    decide: str | None = None  # for an unknown test: what would make it true / false


class BranchView(_Record):
    op: Literal["AND", "OR"]
    value: Truth
    tests: list[LeafView] = Field(default_factory=list)
    branches: list[BranchView] = Field(default_factory=list)


class ActionView(_Record):
    name: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    polarity: str
    patient_has: str | None = None  # the patient already takes / had it


class AnswerItem(_Record):
    rule_id: str
    group: Group
    class_: str | None = Field(default=None, alias="class")
    level: str | None = None
    polarity: str
    warning: bool  # Class III / not recommended
    actions: list[ActionView]
    logic: BranchView | None = None
    satisfied: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    contradicted: list[str] = Field(default_factory=list)
    weaker_matches: list[str] = Field(default_factory=list)
    evidence: Evidence


class PatientView(_Record):
    source_file: str
    format: str
    patient_id: str | None = None
    sex: str | None = None
    age: float | None = None
    birth_date: str | None = None
    as_of: str


class Answer(_Record):
    patient: PatientView
    engine: str
    guidelines: list[str]
    facts: list[FactView]
    measurements: list[FactView]
    problems: list[InputProblem]
    not_counted: list[str]
    applicable: list[AnswerItem] = Field(default_factory=list)
    possibly_applicable: list[AnswerItem] = Field(default_factory=list)
    excluded: list[AnswerItem] = Field(default_factory=list)

    def groups(self) -> dict[str, str]:
        """rule id -> group, the thing both engines must agree on."""
        return {
            item.rule_id: item.group
            for item in (*self.applicable, *self.possibly_applicable, *self.excluded)
        }


# --- the tree with what-ifs ---------------------------------------------------------------
# A rule's structure: ((decision path, op), ...) and each leaf's decision path, in order
_Shape = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]


@lru_cache(maxsize=20_000)
def _structure(shape: _Shape) -> tuple[dict, dict, dict]:
    """Op per decision path, sub-paths per path, leaf indices per path."""
    decisions, leaf_paths = shape
    ops = dict(decisions)
    subs: dict[str, list[str]] = {p: [] for p in ops}
    for p in ops:
        parent = p.rsplit(".", 1)[0]
        if p != parent and parent in subs:
            subs[parent].append(p)
    leaves: dict[str, list[int]] = {p: [] for p in ops}
    for i, path in enumerate(leaf_paths):
        leaves[path].append(i)
    return ops, subs, leaves


@lru_cache(maxsize=200_000)
def _outcome(shape: _Shape, values: tuple[int, ...], leaf: int, forced: int) -> int:
    """The rule's value with leaf ``leaf`` set to ``forced``, the others as in ``values``."""
    ops, subs, leaves = _structure(shape)

    def walk(path: str) -> int:
        vals = [forced if i == leaf else values[i] for i in leaves[path]]
        vals += [walk(p) for p in subs[path]]
        return min(vals) if ops[path] == "AND" else max(vals)

    return walk("0")


class _WhatIf:
    """The rule's AND/OR structure (from the Decision paths), to recompute its value with
    one leaf changed: which missing fact would decide it, which fact contradicts it.

    The structure is the same for every patient and the leaf values repeat a lot (most
    rules meet most patients with every test unknown), so both are memoised across
    patients (``_structure``, ``_outcome``), keyed by the structure itself: answers for
    many patients in one process (a service, the benchmark) stop recomputing them."""

    def __init__(self, result: RuleResult) -> None:
        self.result = result
        self.shape: _Shape = (
            tuple((d.path, d.op) for d in result.decisions),
            tuple(leaf.decision for leaf in result.leaves),
        )
        self.ops, self.subs, self.leaves = _structure(self.shape)
        self.values = {d.path: d.value for d in result.decisions}
        self._leaf_values = tuple(leaf.value for leaf in result.leaves)

    def on_failing_path(self, leaf: int) -> bool:
        """Every Decision from this leaf up to the root is false: it is part of why."""
        path = self.result.leaves[leaf].decision
        while True:
            if self.values[path] != FALSE:
                return False
            parent = path.rsplit(".", 1)[0]
            if parent == path:
                return True
            path = parent

    def value(self, leaf: int | None = None, forced: int = UNKNOWN) -> int:
        if not self.result.has_logic:
            return UNKNOWN
        if leaf is None:
            return self.result.value
        return _outcome(self.shape, self._leaf_values, leaf, forced)


# --- words -------------------------------------------------------------------------------
def _num(x: float) -> str:
    return f"{x:g}"


def _threshold(leaf: LeafResult, second: float | None = None) -> str:
    unit = f" {leaf.unit}" if leaf.unit else ""
    if isinstance(leaf.threshold, list):
        return f"between {_num(leaf.threshold[0])} and {_num(leaf.threshold[1])}{unit}"
    if second is not None:
        return f"{leaf.operator} {_num(leaf.threshold)}/{_num(second)}{unit}"  # type: ignore[arg-type]
    return f"{leaf.operator} {_num(leaf.threshold)}{unit}"  # type: ignore[arg-type]


def _concept(leaf: LeafResult) -> str:
    if leaf.snomed_id:
        return f"SNOMED CT {leaf.snomed_id} |{leaf.preferred_term}|"
    return "unmapped in the rules (matched by name only)"


def _match_kind(
    sid: str | None, item: ResolvedFact | ResolvedMeasurement
) -> Literal["code", "is-a", "name"]:
    if sid and sid == item.snomed_id:
        return "code"
    if sid and sid in item.ids:
        return "is-a"
    return "name"


def _fact_words(
    f: ResolvedFact | ResolvedMeasurement, kind: str, sid: str | None, rule_name: str
) -> str:
    code = f" [SNOMED CT {f.snomed_id}]" if f.snomed_id else ""
    if kind == "code":
        how = "same concept"
    elif kind == "is-a":
        how = f"is-a {rule_name} (SNOMED CT closure)"
    else:
        how = f"same name '{rule_name}' (weaker match)"
    return f"{f.label}{code} from {f.source}: {how}"


# (leaf words) -> the values that make it true / false: the same for every patient
_DECIDE_WORDS: dict[tuple, tuple[str, str]] = {}


class Explainer:
    def __init__(self, ctx: PatientContext, units: Units, config: AskConfig) -> None:
        self.ctx = ctx
        self.units = units
        self.config = config
        self._decide_words = _DECIDE_WORDS
        self._views: dict[tuple, LeafView] = {}
        self._decided: dict[tuple, LeafView] = {}

    def leaf(self, whatif: _WhatIf, i: int) -> LeafView:
        result = whatif.result
        leaf = result.leaves[i]
        # many rows share a test (CCS, HFrEF, LVEF <= 35 %): word it once per patient
        key = (
            leaf.kind, leaf.text, leaf.normalized, leaf.snomed_id, leaf.negated, leaf.operator,
            str(leaf.threshold), leaf.unit, leaf.value, leaf.fact, leaf.against,
            leaf.measurement, leaf.systolic, leaf.diastolic, leaf.alternative,
        )  # fmt: skip
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = (
                self._condition(leaf) if leaf.kind == "condition" else self._parameter(leaf)
            )
        if leaf.value == UNKNOWN:  # the same few what-if sentences recur across rules
            decide = self._decide(whatif, i, leaf)
            decided = self._decided.get((key, decide))
            if decided is None:
                decided = self._decided[(key, decide)] = view.model_copy(update={"decide": decide})
            view = decided
        return view

    def _condition(self, leaf: LeafResult) -> LeafView:
        test = ("NOT " if leaf.negated else "") + leaf.normalized
        base = {"test": test, "concept": _concept(leaf), "row_text": leaf.text}
        value = TRUTH_NAME[leaf.value]
        if leaf.fact is not None and leaf.against is not None:
            f, a = self.ctx.facts[leaf.fact], self.ctx.facts[leaf.against]
            return LeafView(
                value=value,
                because=f"conflicting facts: {f.label} ({f.source}) present, {a.label} "
                f"({a.source}) absent",
                **base,
            )
        if leaf.fact is not None:
            f = self.ctx.facts[leaf.fact]
            kind = _match_kind(leaf.snomed_id, f)
            verb = "present, so the negated test fails" if leaf.negated else "present"
            return LeafView(
                value=value,
                because=f"{verb}: {_fact_words(f, kind, leaf.snomed_id, leaf.normalized)}",
                match=kind,
                **base,
            )
        if leaf.against is not None:
            f = self.ctx.facts[leaf.against]
            kind = (
                "code"
                if leaf.snomed_id and leaf.snomed_id == f.snomed_id
                else ("is-a" if leaf.snomed_id and leaf.snomed_id in f.ids else "name")
            )
            how = {
                "code": "same concept",
                "is-a": f"{leaf.normalized} is-a {f.label} (SNOMED CT closure)",
                "name": "same name (weaker match)",
            }[kind]
            verb = "absent, as the negated test requires" if leaf.negated else "absent"
            return LeafView(
                value=value,
                because=f"{verb}: {f.label} ruled out in {f.source} ({how})",
                match=kind,  # type: ignore[arg-type]
                **base,
            )
        return LeafView(value=value, because="no fact about it in the patient", **base)

    def _measurement_words(
        self, m: ResolvedMeasurement, unit: str | None, alternative: bool
    ) -> str:
        when = f", {m.date}" if m.date else ""
        words = f"{m.label} ({m.source}{when})"
        if alternative:
            return words + ", compared with the row's own threshold in that unit"
        try:
            converted = value_in(m, unit, self.units, self.config)
        except UnitError as exc:
            return f"{words}: {exc}"
        target = self.units.ucum(unit)
        if m.ucum != target and not (m.ucum is None and target == "1"):
            words += f" = {_num(converted)} {unit or ''}".rstrip()
            if m.analyte:
                mm = self.config.analytes[m.analyte].molar_mass_g_per_mol
                words += f" (molar mass {mm:g} g/mol)"
        return words

    def _parameter(self, leaf: LeafResult) -> LeafView:
        reading = read_threshold(
            leaf.text, leaf.normalized, leaf.snomed_id, leaf.operator or "=",
            leaf.threshold if leaf.threshold is not None else 0.0, leaf.unit, self.units,
        )  # fmt: skip
        second = reading.second if reading.mode == "paired" else None
        name = leaf.normalized
        if reading.mode == "systolic":
            name += " (read as systolic)"
        base = {
            "test": f"{name} {_threshold(leaf, second)}",
            "concept": _concept(leaf),
            "row_text": leaf.text,
            "value": TRUTH_NAME[leaf.value],
        }
        parts: list[str] = []
        match = None
        if reading.mode == "value":
            if leaf.measurement is None:
                return LeafView(because="no measurement of it in the patient", **base)
            m = self.ctx.measurements[leaf.measurement]
            match = _match_kind(leaf.snomed_id, m)
            parts.append(self._measurement_words(m, leaf.unit, leaf.alternative))
            if match != "code":
                parts.append(
                    "is-a match (SNOMED CT closure)"
                    if match == "is-a"
                    else "matched by name (weaker)"
                )
        else:
            for label, idx in (("systolic", leaf.systolic), ("diastolic", leaf.diastolic)):
                if reading.mode == "systolic" and label == "diastolic":
                    continue
                if idx is None:
                    parts.append(f"no {label} blood pressure")
                else:
                    parts.append(
                        self._measurement_words(self.ctx.measurements[idx], leaf.unit, False)
                    )
            if reading.mode == "paired":
                parts.append(
                    "either component at or above the pair counts"
                    if leaf.operator in ABOVE
                    else "both components must be below the pair"
                )
        return LeafView(because="; ".join(parts), match=match, **base)

    def _decide(self, whatif: _WhatIf, i: int, leaf: LeafResult) -> str:
        """What value of this one missing fact would decide the rule, others unchanged."""
        if_true = GROUP_OF[whatif.value(i, TRUE)]
        if_false = GROUP_OF[whatif.value(i, FALSE)]
        if if_true == if_false:
            if if_true == "possibly applicable":
                return "decides only together with the other missing facts"
            return f"not needed: {if_true} either way"
        key = (leaf.kind, leaf.negated, leaf.text, leaf.normalized, leaf.snomed_id,
               leaf.operator, str(leaf.threshold), leaf.unit)  # fmt: skip
        words = self._decide_words.get(key)
        if words is None:
            words = self._decide_words[key] = self._values_that_decide(leaf)
        met, unmet = words
        return f"{met} -> {if_true}; {unmet} -> {if_false}"

    def _values_that_decide(self, leaf: LeafResult) -> tuple[str, str]:
        if leaf.kind == "condition":
            return ("absent", "present") if leaf.negated else ("present", "absent")
        reading = read_threshold(
            leaf.text, leaf.normalized, leaf.snomed_id, leaf.operator or "=",
            leaf.threshold if leaf.threshold is not None else 0.0, leaf.unit, self.units,
        )  # fmt: skip
        second = reading.second if reading.mode == "paired" else None
        met = _threshold(leaf, second)
        if isinstance(leaf.threshold, list):
            return met, "outside that range"
        return met, f"{_NEGATE_OP.get(leaf.operator or '', 'not')} " + met.split(" ", 1)[1]

    def branch(self, whatif: _WhatIf, views: list[LeafView], path: str = "0") -> BranchView:
        subpaths = sorted(whatif.subs[path], key=lambda p: [int(x) for x in p.split(".")])
        return BranchView(
            op=whatif.ops[path],
            value=TRUTH_NAME[whatif.values[path]],
            tests=[views[i] for i in whatif.leaves[path]],
            branches=[self.branch(whatif, views, p) for p in subpaths],
        )

    def patient_has(self, name: str, sid: str | None) -> str | None:
        for f in self.ctx.facts:
            if f.status != "present" or f.kind == "condition":
                continue
            if (sid and sid in f.ids) or name in f.names:
                kind = _match_kind(sid, f)
                how = "" if kind == "code" else (" (is-a)" if kind == "is-a" else " (by name)")
                verb = "takes" if f.kind == "medication" else "had"
                return f"the patient {verb} {f.label}{how}, {f.source}"
        return None


def _item(result: RuleResult, ex: Explainer) -> AnswerItem:
    info = result.rule
    group = GROUP_OF[result.value]
    whatif = _WhatIf(result)
    views = [ex.leaf(whatif, i) for i in range(len(result.leaves))]
    satisfied, missing, contradicted, weaker = [], [], [], []
    for i, (leaf, view) in enumerate(zip(result.leaves, views, strict=True)):
        line = f"{view.test}: {view.because}"
        if view.match == "name":
            weaker.append(line)
        if leaf.value == TRUE:
            satisfied.append(line)
        elif leaf.value == UNKNOWN:
            if group == "possibly applicable":
                missing.append(f"{view.test} ({view.decide})")
        elif group == "excluded" and whatif.on_failing_path(i):
            alone = whatif.value(i, TRUE) != FALSE  # this fact alone keeps the rule out
            contradicted.append(line if alone else line + " (one of several)")
    if not result.has_logic:
        missing.append(
            "the row names no patient condition: it applies to the guideline's whole "
            "population, which the patient file cannot confirm"
        )
    actions = [
        ActionView(
            name=a.normalized,
            snomed_id=a.snomed_id,
            preferred_term=a.preferred_term,
            polarity=a.polarity,
            patient_has=ex.patient_has(a.normalized, a.snomed_id),
        )
        for a in info.actions
    ]
    warning = (info.class_ or "").strip() == "III" or info.polarity == "not recommended"
    return AnswerItem(
        rule_id=info.rule_id,
        group=group,
        class_=info.class_,
        level=info.level,
        polarity=info.polarity,
        warning=warning,
        actions=actions,
        logic=ex.branch(whatif, views) if result.has_logic else None,
        satisfied=satisfied,
        missing=missing,
        contradicted=contradicted,
        weaker_matches=weaker,
        evidence=info.evidence,
    )


def _order(item: AnswerItem) -> tuple:
    rank = 0 if item.warning else class_rank(item.class_)
    ev = item.evidence
    return (
        rank,
        ev.guideline,
        ev.table_id,
        ev.row_index if ev.row_index is not None else 1 << 30,
        item.rule_id,
    )


def _fact_view(f: ResolvedFact | ResolvedMeasurement) -> FactView:
    is_fact = isinstance(f, ResolvedFact)
    return FactView(
        kind=f.kind if is_fact else "measurement",  # type: ignore[union-attr]
        status=f.status if is_fact else "measured",  # type: ignore[union-attr]
        label=f.label + (f" ({f.date})" if not is_fact and f.date else ""),  # type: ignore[union-attr]
        source=f.source,
        snomed_id=f.snomed_id,
        preferred_term=f.preferred_term,
        grounded_by=f.how,
        score=f.score if is_fact else None,  # type: ignore[union-attr]
        note=f.note if is_fact else f.unit_problem,  # type: ignore[union-attr]
    )


def build_answer(
    ctx: PatientContext,
    results: Sequence[RuleResult],
    units: Units,
    config: AskConfig,
    *,
    engine: str,
    guidelines: Sequence[str],
) -> Answer:
    ex = Explainer(ctx, units, config)
    p = ctx.patient
    answer = Answer(
        patient=PatientView(
            source_file=p.source_file,
            format=p.format,
            patient_id=p.patient_id,
            sex=p.sex,
            age=p.age,
            birth_date=p.birth_date,
            as_of=p.as_of,
        ),
        engine=engine,
        guidelines=list(guidelines),
        facts=[_fact_view(f) for f in ctx.facts],
        measurements=[_fact_view(m) for m in ctx.measurements],
        problems=ctx.problems,
        not_counted=p.not_counted,
    )
    items = sorted((_item(r, ex) for r in results), key=_order)
    for item in items:
        {
            "applicable": answer.applicable,
            "possibly applicable": answer.possibly_applicable,
            "excluded": answer.excluded,
        }[item.group].append(item)
    return answer
