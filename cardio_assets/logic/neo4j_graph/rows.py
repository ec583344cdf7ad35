"""Rules -> graph rows: the pure transformation of ExtractedRules into the parameter maps
the load statements write (``build_graph_rows``), after re-validating each rule
(``validate_rules``). No driver here: what a load will write is computed and counted
before anything is sent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from cardio_assets.logic.neo4j_graph.cypher import _CONCEPT_EDGE_KEY_SET, ACTION_REL, _label, _rel
from cardio_assets.records import ConceptRef, ConditionTest, ExtractedRule, ParameterTest, RuleNode


# --- rows: pure transformation of rules into parameter maps -------------------------------
@dataclass
class GraphRows:
    """Everything one load writes, as parameter maps for ``UNWIND $rows`` queries.

    Values repeated across thousands of rows travel once per batch instead of once per row
    (Bolt encoding dominated load time): ``common`` (guideline, load id, run) and
    ``profiles`` (distinct rule-level provenance: source, passes, backend, model, prompt
    hash, config hash, run) are query parameters; rows point at a profile with ``pi``.
    Concept node definitions are keyed by ``ckey`` and sent per batch for the concepts that
    batch uses.
    """

    common: dict[str, Any] = field(default_factory=dict)
    profiles: list[dict[str, Any]] = field(default_factory=list)
    concepts: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: list[dict[str, Any]] = field(default_factory=list)
    # one row per rule: its SourceRow, Recommendation and root Decision, written together
    rule_rows: list[dict[str, Any]] = field(default_factory=list)
    # a further SourceRow for each other printing of a rule (provenance.also_at)
    reprinted_rows: list[dict[str, Any]] = field(default_factory=list)
    nested_decisions: list[list[dict[str, Any]]] = field(default_factory=list)  # by depth
    decision_concept_edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    recommendation_concept_edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def expected_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """(nodes by versioned label, relationships by type) these rows write. Unmapped
        concept nodes are not counted here: chunks of one load share them (``unmapped_keys``)."""
        roots = sum(len(r["roots"]) for r in self.rule_rows)
        nodes = {
            "SourceTable": len(self.tables),
            "SourceRow": len(self.rule_rows) + len(self.reprinted_rows),
            "Recommendation": len(self.rule_rows),
            "Decision": roots + sum(len(level) for level in self.nested_decisions),
        }
        rels: Counter[str] = Counter(
            HAS_TABLE=len(self.tables),
            HAS_ROW=len(self.rule_rows) + len(self.reprinted_rows),
            DERIVED_FROM=len(self.rule_rows) + len(self.reprinted_rows),
            LEADS_TO=nodes["Decision"],
        )
        for edges in (self.decision_concept_edges, self.recommendation_concept_edges):
            for rel, edge_rows in edges.items():
                rels[rel] += len(edge_rows)
        return nodes, {k: v for k, v in sorted(rels.items()) if v}

    def unmapped_keys(self) -> set[str]:
        return {key for key, c in self.concepts.items() if c["props"].get("unmapped")}


def _clean(props: dict[str, Any]) -> dict[str, Any]:
    """Drop None (Neo4j stores no nulls; absent means unknown, never a guessed value)."""
    return {k: v for k, v in props.items() if v is not None}


def _profile(rule: ExtractedRule) -> dict[str, Any]:
    """Rule-level provenance that many rules of a guideline share."""
    p = rule.provenance
    return _clean(
        {
            "source_file": p.source_file,
            "source_sha256": p.source_sha256,
            "passes": list(p.passes),
            "backend": p.backend,
            "model": p.model,
            "prompt_hash": p.prompt_hash,
            "config_hash": p.config_hash,
            "run_id": p.run_id,
        }
    )


def _rule_keys(rule: ExtractedRule) -> dict[str, Any]:
    """Provenance unique to the rule: which rule, table, row and pages."""
    p = rule.provenance
    return {"rule_id": rule.id, "table_id": p.table_id, "row_id": p.row_id, "pages": list(p.pages)}


def _concept_key(concept: ConceptRef, guideline: str, load_id: str) -> str:
    """Node key: shared ``sct:<id>`` when grounded, else owned by this load and guideline."""
    if concept.grounding is not None:
        return f"sct:{concept.grounding.snomed_id}"
    return f"unmapped|{load_id}|{guideline}|{concept.role}|{concept.normalized}"


def _concept_labels(concept: ConceptRef) -> list[str]:
    labels = [_label(concept.role)]
    if concept.grounding is None:
        labels.append("Unmapped")
    elif concept.grounding.target_label != concept.role:
        labels.append(_label(concept.grounding.target_label))
    return labels


def _concept_node(
    concept: ConceptRef, key: str, guideline: str, load_id: str, load_run_id: str | None
) -> dict[str, Any]:
    """Node definition {key, labels, props}; props are written only when the node is new."""
    g = concept.grounding
    if g is not None:
        props = {
            "key": key,
            "snomed_id": g.snomed_id,
            "name": g.preferred_term,
            "preferred_term": g.preferred_term,
            "semantic_tag": g.semantic_tag,
            "target_label": g.target_label,
            "unmapped": False,
            "created_by_guideline": guideline,
            "created_load_id": load_id,
            "created_run_id": load_run_id,
        }
    else:
        props = {
            "key": key,
            "unmapped_key": f"{guideline}|{concept.role}|{concept.normalized}",
            "unmapped": True,
            "unmapped_reason": concept.unmapped_reason,
            "name": concept.normalized,
            "normalized": concept.normalized,
            "role": concept.role,
            "guideline": guideline,
            "load_id": load_id,
            "load_run_id": load_run_id,
        }
    return {"key": key, "labels": _concept_labels(concept), "props": _clean(props)}


def _concept_usage(concept: ConceptRef) -> dict[str, Any]:
    """Per-use edge properties: how this rule worded the concept and how it was grounded."""
    usage = {
        "term": concept.text,
        "normalized": concept.normalized,
        "concept_passes": list(concept.passes),
        "is_population": concept.is_population,
    }
    g = concept.grounding
    if g is not None:
        usage.update(snomed_id=g.snomed_id, grounding_score=g.score, matched_term=g.matched_term)
    else:
        usage["unmapped_reason"] = concept.unmapped_reason
    return _clean(usage)


def build_graph_rows(
    rules: Sequence[ExtractedRule],
    guideline: str,
    load_id: str,
    load_run_id: str | None = None,
    *,
    known_tables: dict[str, list[int]],
) -> GraphRows:
    """Flatten validated rules of one guideline into the parameter rows of every query.

    A load prepares its rules in chunks; ``known_tables`` (table uid -> pages so far) is
    shared by the chunks of one load, so each SourceTable is written by the first chunk that
    has it, and pages found later are collected there (see ``_table_page_updates``).
    """
    out = GraphRows(
        common=_clean({"guideline": guideline, "load_id": load_id, "load_run_id": load_run_id})
    )
    profile_index: dict[str, int] = {}
    tables: dict[str, dict[str, Any]] = {}
    nested: dict[int, list[dict[str, Any]]] = {}

    def profile_of(rule: ExtractedRule) -> int:
        profile = _profile(rule)
        token = repr(sorted(profile.items()))
        if token not in profile_index:
            profile_index[token] = len(out.profiles)
            out.profiles.append(profile)
        return profile_index[token]

    def concept_edge(
        bucket: dict[str, list[dict[str, Any]]],
        rel: str,
        src: str,
        concept: ConceptRef,
        base: dict[str, Any],
        extra: dict[str, Any],
    ) -> None:
        key = _concept_key(concept, guideline, load_id)
        known = out.concepts.get(key)
        if known is None:
            out.concepts[key] = _concept_node(concept, key, guideline, load_id, load_run_id)
        else:
            # one SNOMED concept can play several roles (condition here, outcome there):
            # every role it plays in this load becomes a label, not only the first one seen
            labels = known["labels"]
            labels += [label for label in _concept_labels(concept) if label not in labels]
        props = {**_concept_usage(concept), **_clean(extra)}
        if not props.keys() <= _CONCEPT_EDGE_KEY_SET:  # the query writes only listed keys
            raise ValueError(
                f"edge properties {sorted(props.keys() - _CONCEPT_EDGE_KEY_SET)} "
                "are missing from CONCEPT_EDGE_KEYS"
            )
        bucket.setdefault(_rel(rel), []).append({**base, "src": src, "ckey": key, "props": props})

    def walk(
        node: RuleNode,
        path: str,
        depth: int,
        parent: dict[str, Any],
        rec_uid: str,
        base: dict[str, Any],
    ) -> None:
        uid = f"{rec_uid}|d{path}"
        decision: dict[str, Any] = {"uid": uid}
        decision["props"] = {"op": node.op, "path": path, "depth": depth}
        if depth == 0:
            parent["roots"].append(decision)  # written with its rule
        else:
            nested.setdefault(depth, []).append({**base, **decision, "parent": parent["uid"]})
        for j, child in enumerate(node.children):
            if isinstance(child, RuleNode):
                walk(child, f"{path}.{j}", depth + 1, decision, rec_uid, base)
            elif isinstance(child, ParameterTest):
                threshold = child.threshold
                extra: dict[str, Any] = {"operator": child.operator, "unit": child.unit}
                if isinstance(threshold, list):
                    extra.update(
                        threshold=[float(t) for t in threshold],
                        threshold_low=float(threshold[0]),
                        threshold_high=float(threshold[1]),
                    )
                else:
                    extra["threshold"] = float(threshold)
                concept_edge(
                    out.decision_concept_edges,
                    "EVALUATES",
                    uid,
                    child.concept,
                    base,
                    extra,
                )
            elif isinstance(child, ConditionTest):
                concept_edge(
                    out.decision_concept_edges,
                    "CHECKS_FOR",
                    uid,
                    child.concept,
                    base,
                    {"negated": child.negated},
                )

    def table_of(table_id: str, title: str | None, table_pages: list[int], pi: int) -> str:
        table_uid = f"{load_id}|{guideline}|{table_id}"
        if table_uid not in tables and table_uid not in known_tables:
            tables[table_uid] = {
                "uid": table_uid,
                "pi": pi,
                "props": _clean({"table_id": table_id, "title": title, "pages": []}),
            }
        pages = known_tables.setdefault(table_uid, [])
        pages.extend(page for page in table_pages if page not in pages)
        return table_uid

    for rule in rules:
        p = rule.provenance
        base = {"pi": profile_of(rule), "rule": _rule_keys(rule)}
        table_uid = table_of(p.table_id, p.table_title, p.pages, base["pi"])

        row_uid = f"{load_id}|{p.row_id}"
        rec_uid = f"{load_id}|{rule.id}"
        rule_row = {
            **base,
            "table_uid": table_uid,
            "row_uid": row_uid,
            "row_props": _clean(
                {
                    "text": rule.text,
                    "row_index": p.row_index,
                    "section": p.section,
                    "cell_sha256": p.cell_sha256,
                }
            ),
            "uid": rec_uid,
            "rec_props": _clean(
                {
                    "text": rule.text,
                    "class": rule.class_,
                    "level": rule.level,
                    "polarity": rule.polarity,
                    "section": p.section,
                }
            ),
            "roots": [],
        }
        out.rule_rows.append(rule_row)
        for place in p.also_at:
            out.reprinted_rows.append(
                {
                    "pi": base["pi"],
                    # the same rule and row identity, printed in another table on other pages
                    "rule": {**base["rule"], "table_id": place.table_id, "pages": place.pages},
                    "table_uid": table_of(
                        place.table_id, place.table_title, place.pages, base["pi"]
                    ),
                    "uid": rec_uid,
                    "row_uid": f"{row_uid}|{place.table_id}:r{place.row_index}",
                    "row_props": _clean(
                        {
                            "text": place.printed_text or rule.text,
                            "row_index": place.row_index,
                            "section": place.section,
                            "cell_sha256": place.cell_sha256 or None,
                        }
                    ),
                }
            )
        for action in rule.actions:
            concept_edge(
                out.recommendation_concept_edges,
                ACTION_REL[action.concept.role],
                rec_uid,
                action.concept,
                base,
                {
                    "class": action.class_ or rule.class_,
                    "level": action.level or rule.level,
                    "polarity": action.polarity,
                },
            )
        for outcome in rule.outcomes:
            concept_edge(
                out.recommendation_concept_edges,
                "RESULTS_IN",
                rec_uid,
                outcome,
                base,
                {},
            )
        for looked_for in rule.purposes:
            concept_edge(
                out.recommendation_concept_edges, "LOOKS_FOR", rec_uid, looked_for, base, {}
            )
        if rule.logic is not None:
            walk(rule.logic, "0", 0, rule_row, rec_uid, base)

    for uid, table in tables.items():
        table["props"]["pages"] = list(known_tables[uid])  # a copy: later chunks may add pages
    out.tables = list(tables.values())
    out.nested_decisions = [nested[d] for d in sorted(nested)]
    return out


def validate_rules(
    rules: Iterable[Any], guideline: str, *, seen: set[str] | None = None, first_position: int = 0
) -> tuple[list[ExtractedRule], list[tuple[str, str]]]:
    """Re-validate every rule; bad ones are skipped with a reason (one bad row never sinks
    a guideline). Returns (valid rules, [(rule id, reason)]). ``seen`` carries the rule ids
    of earlier chunks of the same load, so duplicates are caught across chunks."""
    valid: list[ExtractedRule] = []
    skipped: list[tuple[str, str]] = []
    seen = set() if seen is None else seen
    for position, rule in enumerate(rules, start=first_position):
        rule_id = str(getattr(rule, "id", None) or f"#{position}")
        try:
            data = rule.model_dump(by_alias=True) if hasattr(rule, "model_dump") else rule
            checked = ExtractedRule.model_validate(data)
        except (ValidationError, TypeError, ValueError, AttributeError) as exc:
            first = str(exc).splitlines()
            reason = " ".join(first[:3]) if first else type(exc).__name__
            skipped.append((rule_id, f"invalid rule: {reason}"))
            continue
        if checked.guideline != guideline:
            skipped.append(
                (rule_id, f"belongs to guideline {checked.guideline!r}, not {guideline!r}")
            )
            continue
        if checked.id in seen:
            skipped.append((rule_id, "duplicate rule id (the first one was loaded)"))
            continue
        seen.add(checked.id)
        valid.append(checked)
    return valid, skipped
