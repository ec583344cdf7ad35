"""The Python engine: three-valued evaluation of extracted_rules against one patient.

Semantics (the Cypher engine implements the same, tests/test_ask_engines.py holds them to it):

- condition test on concept C: TRUE when a present fact meets C (facts.py: is-a or name),
  FALSE when an absent fact contradicts C, UNKNOWN when neither or both; negated = NOT.
- parameter test: the latest matching measurement, converted to the rule's unit (or the
  threshold the row gives in the patient's own unit), compared; UNKNOWN when there is no
  such measurement or its unit cannot be converted. A blood pressure threshold given as one
  number compares the systolic value; a pair (140/90) compares both: at or above a pair
  when either component is, below it when both are.
- AND = min, OR = max over TRUE=2 / UNKNOWN=1 / FALSE=0 (Kleene); a row with no logic is
  UNKNOWN (it applies to the guideline's population, which the patient may not be in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardio_assets.logic.ask.config import AskConfig
from cardio_assets.logic.ask.facts import PatientContext, ResolvedMeasurement, value_in
from cardio_assets.logic.ask.model import (
    ABOVE,
    FALSE,
    TRUE,
    UNKNOWN,
    ActionInfo,
    DecisionResult,
    Evidence,
    LeafResult,
    RuleInfo,
    RuleResult,
)
from cardio_assets.logic.ask.units import (
    Reading,
    UnitError,
    Units,
    compare,
    read_threshold,
    rounded,
)
from cardio_assets.records import ConceptRef, ConditionTest, ExtractedRule, ParameterTest, RuleNode


def rule_info(rule: ExtractedRule) -> RuleInfo:
    """Metadata and evidence of one rule, as the answer shows them."""
    p = rule.provenance
    return RuleInfo(
        rule_id=rule.id,
        guideline=rule.guideline,
        class_=rule.class_,
        level=rule.level,
        polarity=rule.polarity,
        actions=[
            ActionInfo(
                role=a.concept.role,
                text=a.concept.text,
                normalized=a.concept.normalized,
                snomed_id=a.concept.grounding.snomed_id if a.concept.grounding else None,
                preferred_term=a.concept.grounding.preferred_term if a.concept.grounding else None,
                class_=a.class_ or rule.class_,
                level=a.level or rule.level,
                polarity=a.polarity,
            )
            for a in rule.actions
        ],
        evidence=Evidence(
            guideline=rule.guideline,
            guideline_title=p.guideline_title,
            table_id=p.table_id,
            table_title=p.table_title,
            row_id=p.row_id,
            row_index=p.row_index,
            pages=list(p.pages),
            section=p.section,
            text=rule.text,
        ),
    )


@dataclass
class _Index:
    """Per-patient lookup sets (built once per question)."""

    present: list[tuple[int, frozenset[str], frozenset[str]]]
    absent: list[tuple[int, frozenset[str], frozenset[str]]]
    measurements: list[tuple[ResolvedMeasurement, frozenset[str], frozenset[str]]]

    @classmethod
    def of(cls, ctx: PatientContext) -> _Index:
        present, absent = [], []
        for f in ctx.facts:
            entry = (f.index, frozenset(f.ids), frozenset(f.names))
            (present if f.status == "present" else absent).append(entry)
        ms = [(m, frozenset(m.ids), frozenset(m.names)) for m in ctx.measurements]
        return cls(present, absent, ms)


def _concept_keys(concept: ConceptRef) -> tuple[str | None, str]:
    return (concept.grounding.snomed_id if concept.grounding else None), concept.normalized


def _first(entries: list, sid: str | None, name: str) -> int | None:
    for index, ids, names in entries:
        if (sid is not None and sid in ids) or name in names:
            return index
    return None


class PythonEngine:
    """Evaluates ExtractedRules (read from the DuckDB warehouse) for one patient at a time."""

    engine = "python"

    def __init__(self, rules: Sequence[ExtractedRule], units: Units, config: AskConfig) -> None:
        self.rules = list(rules)
        self.infos = [rule_info(r) for r in self.rules]
        self.units = units
        self.config = config
        self._readings: dict[int, Reading] = {}  # id(ParameterTest) -> its reading, once
        for rule in self.rules:
            for leaf in rule.logic.leaves() if rule.logic else []:
                if isinstance(leaf, ParameterTest):
                    self._readings[id(leaf)] = read_threshold(
                        leaf.concept.text,
                        leaf.concept.normalized,
                        leaf.concept.grounding.snomed_id if leaf.concept.grounding else None,
                        leaf.operator,
                        leaf.threshold,
                        leaf.unit,
                        units,
                    )

    def evaluate(self, ctx: PatientContext) -> list[RuleResult]:
        index = _Index.of(ctx)
        out = []
        for rule, info in zip(self.rules, self.infos, strict=True):
            if rule.logic is None:
                out.append(RuleResult(rule=info, value=UNKNOWN, has_logic=False, engine="python"))
                continue
            decisions: list[DecisionResult] = []
            leaves: list[LeafResult] = []
            value = self._node(rule.logic, "0", index, decisions, leaves)
            leaves.sort(key=LeafResult.sort_key)
            decisions.sort(key=lambda d: d.path)
            out.append(
                RuleResult(
                    rule=info, value=value, decisions=decisions, leaves=leaves, engine="python"
                )
            )
        return out

    # --- tree ------------------------------------------------------------------------------
    def _node(
        self,
        node: RuleNode,
        path: str,
        index: _Index,
        decisions: list[DecisionResult],
        leaves: list[LeafResult],
    ) -> int:
        values = []
        for j, child in enumerate(node.children):
            if isinstance(child, RuleNode):
                values.append(self._node(child, f"{path}.{j}", index, decisions, leaves))
            else:
                leaf = self._leaf(child, path, index)
                leaves.append(leaf)
                values.append(leaf.value)
        value = min(values) if node.op == "AND" else max(values)
        decisions.append(DecisionResult(path=path, op=node.op, value=value))
        return value

    def _leaf(self, test: ConditionTest | ParameterTest, path: str, index: _Index) -> LeafResult:
        sid, name = _concept_keys(test.concept)
        g = test.concept.grounding
        base = {
            "decision": path,
            "text": test.concept.text,
            "normalized": name,
            "snomed_id": sid,
            "preferred_term": g.preferred_term if g else None,
        }
        if isinstance(test, ConditionTest):
            fact = _first(index.present, sid, name)
            against = _first(index.absent, sid, name)
            has = UNKNOWN
            if fact is not None and against is None:
                has = TRUE
            elif against is not None and fact is None:
                has = FALSE
            value = 2 - has if test.negated else has
            return LeafResult(
                kind="condition",
                negated=test.negated,
                value=value,
                fact=fact,
                against=against,
                **base,
            )
        return self._parameter(test, base, index)

    def _parameter(self, test: ParameterTest, base: dict, index: _Index) -> LeafResult:
        sid, name = base["snomed_id"], base["normalized"]
        reading = self._readings[id(test)]
        result = LeafResult(
            kind="parameter",
            operator=test.operator,
            threshold=test.threshold,
            unit=test.unit,
            value=UNKNOWN,
            **base,
        )
        if reading.mode == "value":
            m = next(
                (
                    m
                    for m, ids, names in index.measurements
                    if (sid and sid in ids) or name in names
                ),
                None,
            )
            if m is not None:
                result.measurement = m.index
                result.value, result.alternative = self._compare(
                    m, test.operator, test.threshold, test.unit, reading.alternatives
                )
            return result
        systolic = next((m for m, _, _ in index.measurements if m.component == "systolic"), None)
        v_sys = UNKNOWN
        if systolic is not None:
            result.systolic = systolic.index
            v_sys, _ = self._compare(systolic, test.operator, test.threshold, test.unit, ())
        if reading.mode == "systolic":
            result.value = v_sys
            return result
        diastolic = next((m for m, _, _ in index.measurements if m.component == "diastolic"), None)
        v_dia = UNKNOWN
        if diastolic is not None:
            result.diastolic = diastolic.index
            v_dia, _ = self._compare(diastolic, test.operator, reading.second, test.unit, ())  # type: ignore[arg-type]
        result.value = max(v_sys, v_dia) if test.operator in ABOVE else min(v_sys, v_dia)
        return result

    def _compare(
        self,
        m: ResolvedMeasurement,
        operator: str,
        threshold: float | list[float],
        unit: str | None,
        alternatives: tuple,
    ) -> tuple[int, bool]:
        for code, alt in alternatives:
            if m.ucum == code:
                return (TRUE if compare(rounded(m.value), operator, alt) else FALSE), True
        try:
            value = value_in(m, unit, self.units, self.config)
        except UnitError:
            return UNKNOWN, False
        return (TRUE if compare(value, operator, threshold) else FALSE), False
