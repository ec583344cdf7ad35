"""Build one logic-preserving ExtractedRule per recommendation row.

Inputs are the records of earlier stages: the row (evidence and provenance), its merged
concepts with their AND/OR tree (merged_concepts), the grounding outcome of each
(role, term) (grounding_index) and, optionally, the raw extraction passes (for the prompt
hashes and which passes ran). Output is the contract of records.ExtractedRule, which the
Neo4j loader consumes.

Why the rule keeps unmapped concepts: a condition whose SNOMED CT candidate was filtered
out is still part of the recommendation's logic; dropping it would silently widen the
rule ("PCI for everyone with CCS" instead of "... who are not operable"). It stays with
the reason it is unmapped. Only rows with nothing computable left (no action and no
condition or parameter test) are dropped, and every drop is counted with its reason.

No Dagster imports: the asset and ``cardio audit`` both call this module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from cardio_assets.logic.merged_concepts import logic_from_groups
from cardio_assets.records import (
    ConceptGrounding,
    ConceptRef,
    ConditionTest,
    ExtractedAction,
    ExtractedRule,
    Focus,
    GroundingIndexEntry,
    GroundingOutcome,
    LogicNode,
    MergedConcept,
    MergedRow,
    ParameterTest,
    RowExtraction,
    RowRecord,
    RuleAction,
    RuleNode,
    RuleProvenance,
    ThresholdOverrides,
)

BUILDER_VERSION = "1"
NO_OUTCOME_REASON = "not grounded: grounding_index has no outcome for this term"
ACTION_ROLES = ("Procedure", "Medication")
_NEGATED_OPERATOR = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}

GroundingKey = tuple[str, str]  # (role, normalized term): how grounding_index keys outcomes


@dataclass(frozen=True)
class DroppedRule:
    """A row that produced no rule, and why (shown in asset metadata and the audit)."""

    row_id: str
    reason: str


@dataclass
class RulesBuild:
    """Result of building one guideline's rules: kept rules, drops, and per-leaf notes."""

    rules: list[ExtractedRule] = field(default_factory=list)
    dropped: list[DroppedRule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # leaves skipped, polarity folded, ...

    def dropped_by_reason(self) -> dict[str, int]:
        return dict(Counter(d.reason.split(":")[0] for d in self.dropped).most_common())

    def counts(self) -> dict[str, int]:
        leaves = [leaf for r in self.rules if r.logic for leaf in r.logic.leaves()]
        concepts = [c for r in self.rules for c in r.concepts()]
        return {
            "rules": len(self.rules),
            "dropped": len(self.dropped),
            "actions": sum(len(r.actions) for r in self.rules),
            "outcomes": sum(len(r.outcomes) for r in self.rules),
            "condition_tests": sum(1 for leaf in leaves if leaf.kind == "condition"),
            "parameter_tests": sum(1 for leaf in leaves if leaf.kind == "parameter"),
            "or_nodes": sum(_count_or(r.logic) for r in self.rules if r.logic),
            "negated_conditions": sum(
                1 for leaf in leaves if isinstance(leaf, ConditionTest) and leaf.negated
            ),
            "concept_uses": len(concepts),
            "concept_uses_mapped": sum(1 for c in concepts if c.grounding is not None),
        }


def _count_or(node: RuleNode) -> int:
    return int(node.op == "OR") + sum(
        _count_or(child) for child in node.children if isinstance(child, RuleNode)
    )


def grounding_lookup(outcomes: Iterable[GroundingOutcome]) -> dict[GroundingKey, GroundingOutcome]:
    """(role, term) -> outcome; the first outcome of a term wins (grounding_index is unique)."""
    found: dict[GroundingKey, GroundingOutcome] = {}
    for outcome in outcomes:
        found.setdefault((outcome.role, outcome.term), outcome)
    return found


def concept_grounding(entry: GroundingIndexEntry) -> ConceptGrounding:
    return ConceptGrounding(
        snomed_id=str(entry.snomed_id),
        preferred_term=entry.preferred_term,
        score=min(max(entry.score, 0.0), 1.0),
        target_label=entry.target_label,
        matched_term=entry.matched_term,
        semantic_tag=entry.semantic_tag,
    )


def concept_ref(
    role: str,
    text: str,
    normalized: str,
    groundings: dict[GroundingKey, GroundingOutcome],
    *,
    passes: Sequence[Focus] = (),
    is_population: bool = False,
) -> ConceptRef:
    """A concept with its SNOMED CT grounding, or the reason it stays unmapped."""
    text = (text or normalized).strip()
    normalized = (normalized or text).strip().lower()
    outcome = groundings.get((role, normalized))
    grounding = None
    reason: str | None = NO_OUTCOME_REASON
    if outcome is not None and outcome.entry is not None:
        grounding, reason = concept_grounding(outcome.entry), None
    elif outcome is not None:
        reason = outcome.unmapped_reason or "unmapped (grounding gave no reason)"
    return ConceptRef(
        role=role,  # type: ignore[arg-type]
        text=text,
        normalized=normalized,
        grounding=grounding,
        unmapped_reason=reason,
        passes=list(passes),
        is_population=is_population,
    )


def _leaf(
    concept: MergedConcept, ref: ConceptRef, row_id: str, notes: list[str]
) -> ConditionTest | ParameterTest | None:
    """The test a merged concept stands for inside the logic; None (with a note) if none."""
    if concept.role == "Condition":
        return ConditionTest(concept=ref, negated=concept.negated)
    if concept.role != "ClinicalParameter":
        notes.append(f"{row_id}: {concept.role} {concept.normalized!r} in the logic tree skipped")
        return None
    if concept.operator is None or concept.threshold is None:
        notes.append(
            f"{row_id}: parameter {concept.normalized!r} has no operator/threshold; "
            "not a test, left out of the logic"
        )
        return None
    operator = concept.operator
    if concept.negated:
        if operator not in _NEGATED_OPERATOR:
            notes.append(
                f"{row_id}: negated parameter test {concept.normalized!r} {operator} "
                "cannot be inverted; left out of the logic"
            )
            return None
        operator = _NEGATED_OPERATOR[operator]  # "LVEF not < 35%" == "LVEF >= 35%"
    try:
        return ParameterTest(
            concept=ref, operator=operator, threshold=concept.threshold, unit=concept.unit
        )
    except ValidationError as exc:
        notes.append(
            f"{row_id}: parameter test {concept.normalized!r} invalid "
            f"({exc.errors()[0]['msg']}); left out of the logic"
        )
        return None


def _rule_node(
    node: LogicNode,
    leaf_for: dict[int, ConditionTest | ParameterTest | None],
) -> RuleNode | ConditionTest | ParameterTest | None:
    """LogicNode (indices into concepts) -> rule tree; empty branches vanish, single-child
    AND/OR nodes collapse into their child (same meaning, fewer Decision nodes)."""
    if node.op == "LEAF":
        return leaf_for.get(node.concept) if node.concept is not None else None
    children = [c for c in (_rule_node(child, leaf_for) for child in node.children) if c]
    if not children:
        return None
    if len(children) == 1:
        return children[0]
    return RuleNode(op=node.op, children=children)  # type: ignore[arg-type]


def build_logic(merged: MergedRow, refs: list[ConceptRef], notes: list[str]) -> RuleNode | None:
    """The row's AND/OR tree over condition and parameter tests (None when it has none).

    Uses the merged tree when the merge recorded one; otherwise OR groups become OR nodes
    and everything else is ANDed (logic_from_groups, the merge's own rule).
    """
    tree = merged.logic or logic_from_groups(merged.concepts)
    if tree is None:
        return None
    leaf_for = {
        i: _leaf(c, refs[i], merged.row_id, notes)
        for i, c in enumerate(merged.concepts)
        if c.role in ("Condition", "ClinicalParameter")
    }
    root = _rule_node(tree, leaf_for)
    if root is None or isinstance(root, RuleNode):
        return root
    return RuleNode(op="AND", children=[root])  # the root is always a logic node


def _passes_of(concept: MergedConcept) -> list[Focus]:
    return [p for p in ("MAIN", "POPULATION") if p in concept.sources]


def build_actions(
    merged: MergedRow,
    row: RowRecord,
    groundings: dict[GroundingKey, GroundingOutcome],
    notes: list[str],
) -> list[RuleAction]:
    """Actions with class/level (the row's when the pass gave none) and polarity."""
    actions: list[RuleAction] = []
    for action in merged.actions:
        if action.role not in ACTION_ROLES:
            notes.append(f"{merged.row_id}: action {action.text!r} has role {action.role}; skipped")
            continue
        normalized = _action_term(action)
        same = next(
            (c for c in merged.concepts if c.role == action.role and c.normalized == normalized),
            None,
        )
        ref = concept_ref(
            action.role,
            action.text,
            normalized,
            groundings,
            passes=_passes_of(same) if same else ["MAIN"],
        )
        actions.append(
            RuleAction(
                concept=ref,
                class_=action.class_ or row.class_,
                level=action.level or row.level,
                polarity=action.polarity,
            )
        )
    return actions


def _action_term(action: ExtractedAction) -> str:
    # Same key grounding used for actions (extraction_runs.grounding_terms).
    return action.normalized or action.text.lower()


def _pass_summary(
    row_id: str, extractions: dict[tuple[str, Focus], RowExtraction], merged: MergedRow
) -> tuple[list[Focus], str | None]:
    """Passes that ran without error, and the prompt hash(es) they used."""
    ran = {f: extractions.get((row_id, f)) for f in ("MAIN", "POPULATION")}
    passes: list[Focus] = [f for f, e in ran.items() if e is not None and not e.error]  # type: ignore[misc]
    if not any(ran.values()):  # no raw records given: what the concepts say
        passes = [p for p in ("MAIN", "POPULATION") if any(p in c.sources for c in merged.concepts)]
    hashes = {f: e.prompt_hash for f, e in ran.items() if e is not None and e.prompt_hash}
    if not hashes:
        return passes, None
    if len(set(hashes.values())) == 1:
        return passes, next(iter(hashes.values()))
    return passes, " ".join(f"{f}:{h}" for f, h in hashes.items())


def build_rule(
    row: RowRecord,
    merged: MergedRow,
    groundings: dict[GroundingKey, GroundingOutcome],
    *,
    extractions: dict[tuple[str, Focus], RowExtraction] | None = None,
    config_hash: str,
    run_id: str | None = None,
    notes: list[str] | None = None,
    threshold_overrides: ThresholdOverrides | None = None,
) -> ExtractedRule | DroppedRule:
    """One row -> its rule, or a DroppedRule saying why nothing computable is left."""
    notes = notes if notes is not None else []
    extractions = extractions or {}
    if merged.guideline != row.guideline:
        return DroppedRule(row.id, f"guideline mismatch: merged row of {merged.guideline!r}")
    refs = [
        concept_ref(
            c.role,
            c.text,
            c.normalized,
            groundings,
            passes=_passes_of(c),
            is_population=c.is_population,
        )
        for c in merged.concepts
    ]
    logic = build_logic(merged, refs, notes)
    actions = build_actions(merged, row, groundings, notes)
    outcomes = [ref for ref in refs if ref.role == "Outcome"]
    purposes = [
        ref
        for ref, c in zip(refs, merged.concepts, strict=True)
        if c.function == "purpose" and ref.role != "Outcome"
    ]
    if not actions and logic is None:
        why = "; ".join(merged.errors) if merged.errors else "no action and no condition"
        return DroppedRule(row.id, f"nothing left: {why}")
    passes, prompt_hash = _pass_summary(row.id, extractions, merged)
    backend = merged.backend or next(
        (e.backend for (rid, _), e in extractions.items() if rid == row.id), None
    )
    if backend is None:
        return DroppedRule(row.id, "no provenance: the merged row records no extraction backend")
    polarity = (
        "not recommended"
        if actions and all(a.polarity == "not recommended" for a in actions)
        else "recommended"
    )
    try:
        return ExtractedRule(
            id=row.id,
            guideline=row.guideline,
            text=row.row_text,
            class_=row.class_,
            level=row.level,
            polarity=polarity,
            logic=logic,
            actions=actions,
            outcomes=outcomes,
            purposes=purposes,
            provenance=RuleProvenance(
                guideline=row.guideline,
                guideline_title=row.guideline_title,
                table_id=row.table_id,
                table_title=row.table_title,
                row_id=row.id,
                row_index=row.row_index,
                section=row.section,
                pages=list(row.pages),
                source_file=row.source_file or None,
                source_sha256=row.source_sha256 or None,
                cell_sha256=row.cell_sha256 or None,
                also_at=list(row.also_at),
                passes=passes,
                backend=backend,
                model=merged.model,
                prompt_hash=prompt_hash,
                config_hash=config_hash,
                run_id=run_id,
                threshold_overrides=threshold_overrides,
            ),
        )
    except ValidationError as exc:  # one bad row never sinks the guideline
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return DroppedRule(row.id, f"invalid rule: key '{where}': {first['msg']}")


def build_rules(
    rows: Sequence[RowRecord],
    merged: Sequence[MergedRow],
    outcomes: Sequence[GroundingOutcome],
    extractions: Sequence[RowExtraction] = (),
    *,
    config_hash: str,
    run_id: str | None = None,
    threshold_overrides: ThresholdOverrides | None = None,
) -> RulesBuild:
    """Rules for every row of a guideline, in row order; rows without a merge are dropped.
    ``threshold_overrides``: the grounding thresholds a run set by flag (provenance)."""
    groundings = grounding_lookup(outcomes)
    by_row = {m.row_id: m for m in merged}
    raw = {(e.row_id, e.focus): e for e in extractions}
    out = RulesBuild()
    known = set()
    for row in rows:
        known.add(row.id)
        m = by_row.get(row.id)
        if m is None:
            out.dropped.append(DroppedRule(row.id, "nothing left: row has no merged extraction"))
            continue
        built = build_rule(
            row,
            m,
            groundings,
            extractions=raw,
            config_hash=config_hash,
            run_id=run_id,
            notes=out.notes,
            threshold_overrides=threshold_overrides,
        )
        (out.dropped if isinstance(built, DroppedRule) else out.rules).append(built)
    for m in merged:
        if m.row_id not in known:
            out.dropped.append(DroppedRule(m.row_id, "no row: merged row missing from table_rows"))
    return out


def rule_outline(rule: ExtractedRule) -> str:
    """One-line reading of a rule for previews: IF (...) THEN action [class/level]."""

    def name(ref: ConceptRef) -> str:
        return ref.normalized + ("" if ref.grounding else "?")

    def show(node: RuleNode | ConditionTest | ParameterTest) -> str:
        if isinstance(node, RuleNode):
            inner = f" {node.op} ".join(show(c) for c in node.children)
            return f"({inner})"
        if isinstance(node, ParameterTest):
            value = (
                f"{node.threshold[0]:g}-{node.threshold[1]:g}"
                if isinstance(node.threshold, list)
                else f"{node.threshold:g}"
            )
            return f"{name(node.concept)} {node.operator} {value}{node.unit or ''}"
        return ("NOT " if node.negated else "") + name(node.concept)

    condition = show(rule.logic) if rule.logic else "(all)"
    then = ", ".join(
        ("NOT " if a.polarity == "not recommended" else "") + name(a.concept) for a in rule.actions
    )
    return f"IF {condition} THEN {then or '-'} [{rule.class_ or '?'}/{rule.level or '?'}]"
