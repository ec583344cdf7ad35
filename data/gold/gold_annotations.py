"""An annotator's line (spans as text, concepts numbered) as gold fields: offsets into the
row text, list positions for the concept numbers. Shared by the real-row gold's builder
(real_rows/build_gold.py) and the team-written rows' (written_rows/build_written_gold.py):
both golds keep the same fields.
"""

from __future__ import annotations

CONCEPT_KEYS = (
    "role",
    "function",
    "normalized",
    "operator",
    "threshold",
    "unit",
    "alt_values",
    "or_group",
    "negated",
    "snomed_id",
    "snomed_status",
)


def _offset(text: str, span: str, occurrence: int, where: str) -> int:
    start = -1
    for _ in range(max(1, occurrence)):
        start = text.find(span, start + 1)
        if start < 0:
            raise ValueError(f"{where}: span {span!r} occurrence {occurrence} not in the row text")
    return start


def annotation_fields(ann: dict, text: str) -> dict:
    """An annotator's line (spans as text, concepts numbered) as gold fields: offsets into
    ``text`` for the spans, list positions for the numbers."""
    number_to_index: dict[int, int] = {}
    concepts = []
    for index, concept in enumerate(ann["concepts"]):
        where = f"{ann['id']} concept {concept['n']}"
        start = _offset(text, concept["text"], concept.get("occurrence", 1), where)
        number_to_index[concept["n"]] = index
        concepts.append(
            {"start": start, "end": start + len(concept["text"])}
            | {k: concept.get(k) for k in CONCEPT_KEYS}
        )

    def logic(node):  # type: ignore[no-untyped-def]
        if node is None:
            return None
        if isinstance(node, int):
            return number_to_index[node]
        return {"op": node["op"], "children": [logic(c) for c in node["children"]]}

    return {
        # the contract spells it "not recommended"; the blind3 instructions asked for
        # "not_recommended": one spelling in the gold
        "polarity": (ann.get("polarity") or "").replace("_", " ") or None,
        "concepts": concepts,
        "actions": [number_to_index[n] for n in ann.get("actions", [])],
        "logic": logic(ann.get("logic")),
        "population": [number_to_index[n] for n in ann.get("population", [])],
    }
