"""Expand the hand-written gold annotation (annotations.yaml) into gold.jsonl.

WHY a build step: the annotation is authored in a compact form that is easy to
review row by row, and this script enforces the rules of ANNOTATION_GUIDELINES.md
mechanically (verbatim spans, operators, ranges, OR groups of two or more, actions
that exist as concepts, SNOMED ids that exist in the bundled sample and sit in the
hierarchy their role allows), so a typo fails loudly instead of skewing the scores.
Row text, caption, section, class and level come from the same content source as the
sample guidelines (data/guidelines/build_samples.py), so they cannot drift apart.

Run from the repo root:  .venv/bin/python data/gold/build_gold.py
Writes data/gold/gold.jsonl and data/gold/missing_concepts.tsv (the unmapped terms, derived
from the same build so it cannot go stale); `--check` only verifies both are up to date.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections import defaultdict
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SNOMED_DIR = ROOT / "data" / "snomed_sample"
sys.path.insert(0, str(ROOT / "data" / "guidelines"))

import build_samples  # noqa: E402  (content source of the sample guidelines)

ROLES = ("Condition", "ClinicalParameter", "Procedure", "Medication", "Outcome")
OPERATORS = ("<", "<=", ">", ">=", "=", "between")
IS_A = "116680003"

# Top-level hierarchies a gold SNOMED id may sit in, per role (checked via is-a closure).
ROLE_ROOTS = {
    "Condition": {"404684003", "243796009"},  # Clinical finding, Situation
    "ClinicalParameter": {"363787002", "254291000"},  # Observable entity, Staging and scales
    "Procedure": {"71388002"},  # Procedure (includes regimes/therapies)
    "Medication": {"105590001", "373873005"},  # Substance, Pharmaceutical/biologic product
    "Outcome": {"404684003", "272379006", "363787002"},  # Clinical finding, Event, Observable
}

# SNOMED CT models a hospital admission as a procedure and has no event concept for it, so an
# Outcome such as "HF hospitalization" may take exactly these admission procedures (listed by
# id: the sample's simplified taxonomy does not place 416683003 under 32485007).
OUTCOME_ADMISSION_PROCEDURES = {
    "32485007",  # Hospital admission (procedure)
    "416683003",  # Emergency hospital admission for heart failure (procedure)
}

# Hierarchy suggested to the terminology owner for unmapped terms (role default, then overrides).
SUGGESTED_HIERARCHY = {
    "Condition": "Clinical finding (finding/disorder)",
    "ClinicalParameter": "Observable entity",
    "Procedure": "Procedure",
    "Medication": "Substance (drug or drug class)",
    "Outcome": "Clinical finding or Event",
}
HIERARCHY_OVERRIDES = {
    "suspected chronic coronary syndrome": "Situation with explicit context",
    "prior revascularization": "Situation with explicit context (history of procedure)",
    "intolerant of aspirin": "Situation with explicit context or Clinical finding",
    "contraindication to long-term oral anticoagulant": "Situation with explicit context",
    "indication for pacing": "Situation with explicit context",
    "not operable": "Situation with explicit context or Clinical finding",
    "suitable for surgery": "Situation with explicit context or Clinical finding",
    "high surgical risk": "Clinical finding (at risk of ...)",
    "high ischaemic risk": "Clinical finding (at risk of ...)",
    "cardiovascular death": "Event (death from cardiovascular cause; Death is broader)",
    "survival": "Observable entity",
    "sinus rhythm": "Clinical finding (sinus rhythm; the sample's Normal sinus rhythm is narrower)",
    "low density lipoprotein cholesterol": (
        "Observable entity (the sample's LDL cholesterol is a substance)"
    ),
    "oral anticoagulant": (
        "Substance (drug class; the sample's anticoagulant product is broader and a product)"
    ),
    "stress cardiac magnetic resonance": "Procedure (Magnetic resonance imaging of heart is broader)",
    "high risk of gastrointestinal bleeding": (
        "Clinical finding (at risk of ...; At risk of hemorrhage is broader)"
    ),
    "syntax score": "Staging and scales (assessment scale)",
    "cha2ds2-vasc score": "Staging and scales (assessment scale)",
    "lipid profile": "Procedure (laboratory test)",
    "fractional flow reserve measurement": (
        "Procedure (measurement; the sample's Fractional flow reserve is the observable)"
    ),
    "heart team discussion": "Procedure (regime/therapy)",
    "optimized medical therapy": "Procedure (regime/therapy) or Substance",
    "antithrombotic therapy": "Substance (drug class) or Procedure (regime/therapy)",
    "mechanical heart valve": "Situation (presence of prosthetic heart valve) or Physical object",
}


def load_snomed() -> tuple[dict[str, str], dict[str, set[str]]]:
    """FSN per active concept and is-a parents per concept from the bundled RF2 sample."""
    concepts = next(SNOMED_DIR.glob("sct2_Concept_Snapshot*.txt"))
    descriptions = next(SNOMED_DIR.glob("sct2_Description_Snapshot*.txt"))
    relationships = next(SNOMED_DIR.glob("sct2_Relationship_Snapshot*.txt"))
    active: set[str] = set()
    with concepts.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["active"] == "1":
                active.add(row["id"])
    fsn: dict[str, str] = {}
    with descriptions.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["active"] == "1" and row["typeId"] == "900000000000003001":
                if row["conceptId"] in active:
                    fsn[row["conceptId"]] = row["term"]
    parents: dict[str, set[str]] = defaultdict(set)
    with relationships.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["active"] == "1" and row["typeId"] == IS_A:
                parents[row["sourceId"]].add(row["destinationId"])
    return fsn, parents


def ancestors(concept: str, parents: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    stack = [concept]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def sample_rows() -> dict[str, dict]:
    """Every recommendation row of the samples, keyed '<guideline>/<table>/<n>'."""
    rows: dict[str, dict] = {}
    for guideline, title, tables in (
        ("ccs-sample", build_samples.CCS_TITLE, build_samples.CCS_TABLES),
        ("hf-sample", build_samples.HF_TITLE, build_samples.HF_TABLES),
    ):
        for table in tables:
            section = None
            n = 0
            for item in table.rows:
                if isinstance(item, build_samples.Section):
                    section = item.text
                    continue
                n += 1
                rows[f"{guideline}/{table.number}/{n}"] = {
                    "guideline": guideline,
                    "guideline_title": title,
                    "table_caption": f"Table {table.number} {table.caption}",
                    "section": section,
                    "row_text": " ".join(item.text.split()),
                    "class": item.cls,
                    "level": item.level,
                }
    return rows


def parse_number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


def parse_concept(line: str, where: str) -> dict:
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 4:
        raise ValueError(f"{where}: concept needs 'Role | text | normalized | snomed': {line!r}")
    role, text, normalized, snomed, *extras = parts
    if role not in ROLES:
        raise ValueError(f"{where}: unknown role {role!r}")
    concept = {
        "role": role,
        "text": text,
        "normalized": text.lower() if normalized == "=" else normalized,
        "operator": None,
        "threshold": None,
        "unit": None,
        "or_group": None,
        "negated": False,
        "snomed_id": None if snomed == "-" else snomed,
        "fsn": None,
        "_purpose": False,
    }
    for extra in extras:
        key, _, value = extra.partition("=")
        if key == "op":
            concept["operator"] = value
        elif key == "thr":
            values = [parse_number(v) for v in value.split(",")]
            concept["threshold"] = values if len(values) > 1 else values[0]
        elif key == "unit":
            concept["unit"] = value
        elif key == "or":
            concept["or_group"] = value
        elif key == "neg":
            concept["negated"] = True
        elif key == "purpose":
            concept["_purpose"] = True
        else:
            raise ValueError(f"{where}: unknown extra {extra!r}")
    if concept["normalized"] != concept["normalized"].lower():
        raise ValueError(f"{where}: normalized must be lower-case: {concept['normalized']!r}")
    op, thr = concept["operator"], concept["threshold"]
    if op is not None:
        if role != "ClinicalParameter":
            raise ValueError(f"{where}: only ClinicalParameter takes an operator ({text!r})")
        if op not in OPERATORS:
            raise ValueError(f"{where}: bad operator {op!r}")
        if op == "between":
            if not (isinstance(thr, list) and len(thr) == 2 and thr[0] < thr[1]):
                raise ValueError(f"{where}: 'between' needs threshold [low, high] ({text!r})")
        elif not isinstance(thr, int | float):
            raise ValueError(f"{where}: operator {op!r} needs one threshold ({text!r})")
    elif thr is not None or concept["unit"] is not None:
        raise ValueError(f"{where}: threshold/unit without operator ({text!r})")
    if concept["negated"] and concept["or_group"]:
        raise ValueError(f"{where}: negated concepts never share an OR group ({text!r})")
    return concept


def build() -> tuple[list[dict], list[tuple[str, str, str, str, int]]]:
    fsn, parents = load_snomed()
    rows = sample_rows()
    spec = yaml.safe_load((HERE / "annotations.yaml").read_text(encoding="utf-8"))
    out: list[dict] = []
    missing: dict[tuple[str, str], list] = {}
    annotated: set[str] = set()
    for entry in spec["rows"]:
        key = entry["row"]
        if key not in rows:
            raise ValueError(f"{key}: no such row in the sample guidelines")
        if key in annotated:
            raise ValueError(f"{key}: annotated twice")
        annotated.add(key)
        row = rows[key]
        concepts = [parse_concept(line, key) for line in entry["concepts"]]
        seen: set[tuple[str, str]] = set()
        for c in concepts:
            if c["text"] not in row["row_text"]:
                raise ValueError(f"{key}: span {c['text']!r} not verbatim in row text")
            ident = (c["role"], c["normalized"])
            if ident in seen:
                raise ValueError(f"{key}: duplicate concept {ident}")
            seen.add(ident)
            if c["snomed_id"] is not None:
                if c["snomed_id"] not in fsn:
                    raise ValueError(f"{key}: {c['snomed_id']} is not in data/snomed_sample")
                roots = ancestors(c["snomed_id"], parents) | {c["snomed_id"]}
                admission = (
                    c["role"] == "Outcome" and c["snomed_id"] in OUTCOME_ADMISSION_PROCEDURES
                )
                if not roots & ROLE_ROOTS[c["role"]] and not admission:
                    raise ValueError(
                        f"{key}: {c['snomed_id']} {fsn[c['snomed_id']]} is outside the "
                        f"hierarchies allowed for {c['role']}"
                    )
                c["fsn"] = fsn[c["snomed_id"]]
            else:
                item = missing.setdefault((c["normalized"], c["role"]), [c["text"], 0])
                item[1] += 1
        groups: dict[str, int] = defaultdict(int)
        for c in concepts:
            if c["or_group"]:
                groups[c["or_group"]] += 1
        for group, size in groups.items():
            if size < 2:
                raise ValueError(f"{key}: OR group {group} has a single member")
        expected = [f"g{i}" for i in range(1, len(groups) + 1)]
        if sorted(groups) != expected:
            raise ValueError(f"{key}: OR groups must be numbered g1, g2, ... in order")
        by_name = {c["normalized"]: c for c in concepts}
        actions = []
        polarity = "not recommended" if row["class"] == "III" else "recommended"
        for name in entry["actions"]:
            if name not in by_name:
                raise ValueError(f"{key}: action {name!r} is not one of the row's concepts")
            c = by_name[name]
            if c["role"] not in ("Procedure", "Medication"):
                raise ValueError(f"{key}: action {name!r} must be a Procedure or Medication")
            actions.append(
                {
                    "text": c["text"],
                    "normalized": c["normalized"],
                    "role": c["role"],
                    "class": row["class"],
                    "level": row["level"],
                    "polarity": polarity,
                }
            )
        if not actions:
            raise ValueError(f"{key}: every recommendation has at least one action")
        population = [
            c["normalized"]
            for c in concepts
            if c["role"] == "Condition" and not c["negated"] and not c["or_group"]
            if not c["_purpose"]
        ]
        for c in concepts:
            del c["_purpose"]
        out.append(
            {
                "id": "",
                **row,
                "concepts": concepts,
                "actions": actions,
                "population": population,
            }
        )
    unannotated = sorted(set(rows) - annotated)
    if unannotated:
        print(f"note: {len(unannotated)} rows not annotated: {', '.join(unannotated)}")
    order = {key: i for i, key in enumerate(rows)}
    keyed = sorted(zip(spec["rows"], out, strict=True), key=lambda p: order[p[0]["row"]])
    missing_rows = [
        (term, role, HIERARCHY_OVERRIDES.get(term, SUGGESTED_HIERARCHY[role]), text, count)
        for (term, role), (text, count) in sorted(missing.items(), key=lambda kv: kv[0][::-1])
    ]
    return [record for _, record in keyed], missing_rows


def render(records: list[dict], missing: list[tuple[str, str, str, str, int]]) -> dict[str, str]:
    """File name -> exact text, so writing and --check compare the same bytes."""
    gold = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow(["term", "role", "suggested_hierarchy", "example_span", "gold_rows"])
    writer.writerows(missing)
    return {"gold.jsonl": gold, "missing_concepts.tsv": buffer.getvalue()}


def main() -> None:
    records, missing = build()
    outputs = render(records, missing)
    if "--check" in sys.argv[1:]:
        # WHY: both files are derived; a stale copy (e.g. after the SNOMED sample or the
        # annotation changed) must fail loudly rather than skew evaluation or mislead.
        stale = [
            name
            for name, text in outputs.items()
            if not (HERE / name).exists() or (HERE / name).read_text(encoding="utf-8") != text
        ]
        if stale:
            sys.exit(
                f"stale: {', '.join(stale)} differ from annotations.yaml + data/snomed_sample; "
                "run .venv/bin/python data/gold/build_gold.py and commit the result"
            )
        print("gold.jsonl and missing_concepts.tsv are up to date")
        return
    for name, text in outputs.items():
        (HERE / name).write_text(text, encoding="utf-8", newline="")
    concepts = sum(len(r["concepts"]) for r in records)
    mapped = sum(1 for r in records for c in r["concepts"] if c["snomed_id"])
    params = sum(1 for r in records for c in r["concepts"] if c["operator"])
    groups = sum(len({c["or_group"] for c in r["concepts"] if c["or_group"]}) for r in records)
    print(
        f"gold.jsonl: {len(records)} rows, {concepts} concepts ({mapped} mapped to the sample, "
        f"{params} parameters with operator), {groups} OR groups; "
        f"missing_concepts.tsv: {len(missing)} terms"
    )


if __name__ == "__main__":
    main()
