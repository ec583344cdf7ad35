"""Merge the MAIN and POPULATION passes of one row into one concept set.

Why a separate stage: the two passes see the same row and overlap (the cohort disease is
in both), LLMs sometimes return "A or B" as one concept, and the rule builder needs one
deduplicated list with stable, row-local OR group ids. Both extraction backends go
through this same merge, so their outputs are comparable.

Rules:
- dedupe by normalized term + role (+ negation and parameter values); a concept found by
  the POPULATION pass is kept once and flagged ``is_population``;
- actions come from MAIN only (POPULATION is not asked for them); every action's own
  concept is present among the concepts;
- a concept whose text is an OR phrase is split into concepts sharing one OR group;
- OR group ids are renumbered "g1", "g2", ... per row in reading order;
- ``normalized`` always has abbreviations expanded and is lower-case.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.logic_split import Expr, Leaf, Node, leaves, split_logic
from cardio_assets.logic.source_version import source_fingerprint
from cardio_assets.records import (
    ExtractedAction,
    ExtractedConcept,
    Focus,
    LogicNode,
    MergedConcept,
    MergedRow,
    RowExtraction,
)

__all__ = ["MERGE_LOGIC_VERSION", "merge_row", "split_logic", "Leaf", "Expr", "logic_from_groups"]


# Changes with any edit of the merge, split or normalization code (for code_version).
_HERE = Path(__file__).resolve().parent
MERGE_LOGIC_VERSION = "merge-" + source_fingerprint(
    _HERE / name
    for name in (
        "merged_concepts.py",
        "logic_split.py",
        "coordination.py",
        "ellipsis.py",
        "abbreviations.py",
    )
)

_LOGIC_ROLES = frozenset({"Condition", "ClinicalParameter"})
_AGE_NAMES = frozenset({"age", "patient age", "age at diagnosis"})
_OR_WORD = re.compile(r"\s(?:or|and/or|nor)\s|^neither\s", re.IGNORECASE)


def _normalized(concept: ExtractedConcept | ExtractedAction, abbreviations: Abbreviations) -> str:
    """Expand abbreviations in whatever the pass gave (an LLM may have left "LVEF")."""
    base = concept.normalized or concept.text
    return abbreviations.normalize(base)


def _key(c: MergedConcept) -> tuple:
    return (c.role, c.normalized, c.negated)


def _same_measurement(a: MergedConcept, b: MergedConcept) -> bool:
    """Parameters merge only when their values agree (a missing value agrees with any)."""
    if a.role != "ClinicalParameter":
        return True
    for left, right in ((a.operator, b.operator), (a.unit, b.unit)):
        if left is not None and right is not None and left != right:
            return False
    if a.threshold is not None and b.threshold is not None:
        return json.dumps(a.threshold) == json.dumps(b.threshold)
    return True


def _split_or_concept(
    concept: ExtractedConcept,
    abbreviations: Abbreviations,
    keep_together: Callable[[str], bool] | None,
) -> tuple[list[ExtractedConcept], Node | None]:
    """ "high surgical risk or not operable" -> two concepts and their tree; else as is."""
    if concept.role not in _LOGIC_ROLES or concept.operator is not None or concept.or_group:
        return [concept], None
    if not _OR_WORD.search(concept.text):
        return [concept], None
    tree = split_logic(concept.text, keep_together=keep_together)
    parts = leaves(tree)
    if len(parts) < 2:
        return [concept], None
    out = [
        ExtractedConcept(
            role=concept.role,
            text=leaf.text,
            normalized=abbreviations.normalize(leaf.full or leaf.text),
            negated=concept.negated != leaf.negated,
            function=concept.function,
        )
        for leaf in parts
    ]
    return out, tree


def merge_row(
    main: RowExtraction | None,
    population: RowExtraction | None,
    abbreviations: Abbreviations | None = None,
    *,
    keep_together: Callable[[str], bool] | None = None,
) -> MergedRow:
    """Merge both passes of one row (either may be missing or failed)."""
    abbreviations = abbreviations or Abbreviations({})
    first = main or population
    if first is None:
        raise ValueError("merge_row needs at least one pass (MAIN or POPULATION)")
    if main is not None and population is not None and main.row_id != population.row_id:
        raise ValueError(
            f"merge_row got passes of different rows: MAIN {main.row_id!r}, "
            f"POPULATION {population.row_id!r}"
        )

    merged: list[MergedConcept] = []
    group_ids: dict[tuple[str, str], str] = {}  # (pass, pass-local id) -> row id
    subtrees: dict[str, Node] = {}  # row group id -> exact tree when a split was nested
    leaf_index: dict[int, int] = {}  # id(Leaf) -> index in merged
    errors: list[str] = []

    def next_group() -> str:
        return f"g{len(set(group_ids.values()) | set(subtrees)) + 1}"

    def add(concept: MergedConcept, focus: Focus) -> int:
        for i, existing in enumerate(merged):
            if _key(existing) == _key(concept) and _same_measurement(existing, concept):
                if focus not in existing.sources:
                    existing.sources.append(focus)
                existing.is_population = existing.is_population or concept.is_population
                for attr in ("operator", "threshold", "unit", "or_group", "function"):
                    if getattr(existing, attr) is None and getattr(concept, attr) is not None:
                        setattr(existing, attr, getattr(concept, attr))
                if not existing.alt_values and concept.alt_values:
                    existing.alt_values = list(concept.alt_values)
                return i
        merged.append(concept)
        return len(merged) - 1

    for focus, extraction in (("MAIN", main), ("POPULATION", population)):
        if extraction is None:
            continue
        if extraction.error:
            errors.append(f"{focus}: {extraction.error}")
        for concept in extraction.concepts:
            pieces, tree = _split_or_concept(concept, abbreviations, keep_together)
            split_group = None
            if tree is not None:
                key = next_group()
                subtrees[key] = tree
                # Only a disjunction makes a group ("neither A nor B" is an AND).
                split_group = key if _has_or(tree) else None
            for piece, leaf in zip(
                pieces, leaves(tree) if tree is not None else [None] * len(pieces), strict=True
            ):
                group = split_group if not piece.negated else None
                if tree is None and piece.or_group:
                    local = (focus, piece.or_group)
                    if local not in group_ids:
                        group_ids[local] = next_group()
                    group = group_ids[local]
                candidate = MergedConcept(
                    role=piece.role,
                    text=piece.text.strip(),
                    normalized=_normalized(piece, abbreviations),
                    operator=piece.operator,
                    threshold=piece.threshold,
                    unit=piece.unit,
                    alt_values=list(piece.alt_values),
                    or_group=group,
                    negated=piece.negated,
                    function=piece.function,
                    is_population=focus == "POPULATION" or _is_age_threshold(piece),
                    sources=[focus],
                )
                index = add(candidate, focus)
                if leaf is not None:
                    leaf_index[id(leaf)] = index

    actions: list[ExtractedAction] = []
    seen_actions: set[tuple[str, str]] = set()
    for action in main.actions if main is not None else []:
        normalized = _normalized(action, abbreviations)
        key = (action.role, normalized)
        if key in seen_actions:
            continue
        seen_actions.add(key)
        actions.append(action.model_copy(update={"normalized": normalized}))
        # The recommended procedure/medication is a concept of the row too.
        add(
            MergedConcept(
                role=action.role,
                text=action.text,
                normalized=normalized,
                sources=["MAIN"],
            ),
            "MAIN",
        )

    _renumber_groups(merged)
    logic = logic_from_groups(merged, subtrees, leaf_index)
    return MergedRow(
        row_id=first.row_id,
        guideline=first.guideline,
        backend=first.backend,
        model=first.model,
        concepts=merged,
        actions=actions,
        logic=logic,
        errors=errors,
    )


def _is_age_threshold(concept: ExtractedConcept) -> bool:
    """An age threshold selects patients like a condition does: the contract (section 9)
    puts it in the population whichever pass found it."""
    return (
        concept.role == "ClinicalParameter"
        and concept.operator is not None
        and ((concept.normalized or concept.text).strip().lower() in _AGE_NAMES)
    )


def _has_or(node: Node) -> bool:
    return isinstance(node, Expr) and (node.op == "OR" or any(_has_or(c) for c in node.children))


def _renumber_groups(concepts: list[MergedConcept]) -> None:
    """Row-local ids in reading order; a group left with one member is no group."""
    counts: dict[str, int] = {}
    for c in concepts:
        if c.or_group:
            counts[c.or_group] = counts.get(c.or_group, 0) + 1
    mapping: dict[str, str] = {}
    for c in concepts:
        if not c.or_group:
            continue
        if counts[c.or_group] < 2:
            c.or_group = None
            continue
        if c.or_group not in mapping:
            mapping[c.or_group] = f"g{len(mapping) + 1}"
        c.or_group = mapping[c.or_group]


def logic_from_groups(
    concepts: list[MergedConcept],
    subtrees: dict[str, Node] | None = None,
    leaf_index: dict[int, int] | None = None,
) -> LogicNode | None:
    """AND over the row's conditions and parameters, each OR group one OR node.

    Where a split produced a nested tree ("A or B and C") that exact tree is used for its
    group, so the flat group id loses nothing downstream.
    """
    subtrees = subtrees or {}
    leaf_index = leaf_index or {}
    children: list[LogicNode] = []
    done_groups: set[str] = set()
    used_by_tree: set[int] = set()
    subtrees = {k: t for k, t in subtrees.items() if _has_or(t)}  # AND-only: plain leaves
    for tree in subtrees.values():
        for leaf in leaves(tree):
            if id(leaf) in leaf_index:
                used_by_tree.add(leaf_index[id(leaf)])
    for i, c in enumerate(concepts):
        if c.role not in _LOGIC_ROLES or c.function == "purpose":
            continue  # what a test looks for is no criterion of the patient
        if c.or_group is None:
            if i in used_by_tree:
                continue
            children.append(LogicNode(op="LEAF", concept=i))
            continue
        if c.or_group in done_groups:
            continue
        done_groups.add(c.or_group)
        members = [j for j, other in enumerate(concepts) if other.or_group == c.or_group]
        tree = next(
            (
                t
                for t in subtrees.values()
                if {leaf_index.get(id(x)) for x in leaves(t)} == set(members)
            ),
            None,
        )
        if tree is not None:
            children.append(_tree_to_logic(tree, leaf_index))
        elif all(concepts[j].negated for j in members):
            # "without A or B" is NOT(A OR B) under one OR label (the contract); the leaves
            # carry the negation, so by De Morgan it is NOT A AND NOT B, never OR(NOT A, NOT B)
            children.extend(LogicNode(op="LEAF", concept=j) for j in members)
        else:
            children.append(
                LogicNode(op="OR", children=[LogicNode(op="LEAF", concept=j) for j in members])
            )
    if not children:
        return None
    if len(children) == 1:
        return children[0]
    return LogicNode(op="AND", children=children)


def _tree_to_logic(node: Node, leaf_index: dict[int, int]) -> LogicNode:
    if isinstance(node, Leaf):
        return LogicNode(op="LEAF", concept=leaf_index[id(node)])
    return LogicNode(op=node.op, children=[_tree_to_logic(c, leaf_index) for c in node.children])


def prediction_line(
    row_text: str,
    guideline: str,
    merged: MergedRow,
    *,
    row_id: str = "",
    class_: str | None = None,
    level: str | None = None,
    groundings: dict[tuple[str, str], tuple[str | None, str | None]] | None = None,
    table_caption: str | None = None,
) -> dict:
    """One line of the ``cardio extract`` output for a merged row.

    ``groundings`` maps (role, normalized) to (snomed_id, fsn); absent = unmapped (null).
    Population is every non-negated, ungrouped Condition the POPULATION pass (or the
    merge) flagged.
    """
    groundings = groundings or {}
    concepts = []
    for c in merged.concepts:
        snomed_id, fsn = groundings.get((c.role, c.normalized), (None, None))
        concepts.append(
            {
                "role": c.role,
                "text": c.text,
                "normalized": c.normalized,
                "operator": c.operator,
                "threshold": c.threshold,
                "unit": c.unit,
                "alt_values": [v.model_dump(mode="json") for v in c.alt_values],
                "or_group": c.or_group,
                "negated": c.negated,
                "snomed_id": snomed_id,
                "fsn": fsn,
            }
        )
    actions = [
        {
            "text": a.text,
            "normalized": a.normalized,
            "role": a.role,
            "class": a.class_,
            "level": a.level,
            "polarity": a.polarity,
        }
        for a in merged.actions
    ]
    population = [c.normalized for c in merged.concepts if c.is_population]
    return {
        "id": row_id or merged.row_id,
        "guideline": guideline,
        "table_caption": table_caption,
        "row_text": row_text,
        "class": class_,
        "level": level,
        "concepts": concepts,
        "actions": actions,
        "population": population,
    }
