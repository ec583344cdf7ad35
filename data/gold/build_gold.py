"""Expand the hand-written gold annotation (annotations.yaml) into gold.jsonl.

WHY a build step: the annotation is authored in a compact form that is easy to
review row by row, and this script enforces the rules of ANNOTATION_CONVENTIONS.md (the
contract) as ANNOTATION_GUIDELINES.md applies them, mechanically: verbatim spans, a
parameter span that holds its value, operators, ranges, paired BP thresholds, alt_values,
NYHA classes as numbers, functions allowed per role, OR groups of two or more (negated
only as NOT(OR(...))), Outcomes never OR-grouped, actions that exist as concepts, the
logic tree, SNOMED ids that exist in the bundled sample and sit in the hierarchy their
role allows, so a typo fails loudly instead of skewing the scores.
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
import re
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

# What a concept does in its row (ANNOTATION_CONVENTIONS.md §2-§3), allowed per role. "purpose"
# is this gold's name for the target of a test's or a decision's purpose clause ("to detect
# diabetes", "before choosing between PCI and CABG"): kept, but outside logic and population.
ROLE_FUNCTIONS = {
    "Condition": ("condition", "purpose"),
    "ClinicalParameter": ("condition", "target"),
    "Procedure": ("action", "background", "co-therapy", "comparator", "purpose"),
    "Medication": ("action", "background", "co-therapy", "comparator", "purpose"),
    "Outcome": ("outcome",),
}
DEFAULT_FUNCTION = {
    "Condition": "condition",
    "ClinicalParameter": "condition",
    "Outcome": "outcome",
}
CONDITION_SIDE = ("condition", "background")  # the functions the rule's logic is built from

NYHA = "new york heart association class"
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}
PAIRED = re.compile(r"^\d+(?:\.\d+)?/\d+(?:\.\d+)?$")  # a paired BP threshold "140/90"
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
# Outcome may take exactly these admission procedures (listed by id: the sample's simplified
# taxonomy does not place 416683003 under 32485007). The gold uses 32485007 for
# "hospitalization"; "HF hospitalization" stays unmapped, 416683003 being narrower (emergency).
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
    "known coronary artery disease": (
        "Situation with explicit context (known diagnosis; Coronary arteriosclerosis is broader)"
    ),
    "chest pain of suspected coronary origin": "Clinical finding (Chest pain is broader)",
    "prior revascularization": (
        "Situation with explicit context (history of procedure; Myocardial revascularization "
        "is the procedure itself)"
    ),
    "intolerant of aspirin": "Situation with explicit context or Clinical finding",
    "contraindication to long-term oral anticoagulant": "Situation with explicit context",
    "indication for pacing": "Situation with explicit context",
    "not operable": "Situation with explicit context or Clinical finding",
    "suitable for surgery": "Situation with explicit context or Clinical finding",
    "high surgical risk": "Clinical finding (at risk of ...)",
    "high ischaemic risk": "Clinical finding (at risk of ...)",
    "high bleeding risk": "Clinical finding (at risk of ...; At risk of hemorrhage is broader)",
    "extensive coronary calcification": (
        "Clinical finding (Calcification of coronary artery is broader)"
    ),
    "significant left main stenosis": (
        "Clinical finding (Left main coronary artery disease is broader)"
    ),
    "moderate-to-severe mitral stenosis": "Clinical finding (Mitral valve stenosis is broader)",
    "stable heart failure with reduced ejection fraction": (
        "Clinical finding (Heart failure with reduced ejection fraction is broader)"
    ),
    "symptomatic heart failure with reduced ejection fraction": (
        "Clinical finding (Heart failure with reduced ejection fraction is broader)"
    ),
    "heart failure hospitalization": (
        "Procedure (admission for heart failure; the sample's Emergency hospital admission for "
        "heart failure is narrower)"
    ),
    "cardiovascular death": "Event (death from cardiovascular cause; Death is broader)",
    "survival": "Observable entity",
    "rate control": "Observable entity or Procedure (therapeutic goal)",
    "rhythm control": "Observable entity or Procedure (therapeutic goal)",
    "sinus rhythm": "Clinical finding (sinus rhythm; the sample's Normal sinus rhythm is narrower)",
    "low density lipoprotein cholesterol": (
        "Observable entity (the sample's LDL cholesterol is a substance)"
    ),
    "resting heart rate": "Observable entity (Heart rate is broader)",
    "resting ventricular rate": "Observable entity (Heart rate is broader)",
    "oral anticoagulant": (
        "Substance (drug class; the sample's anticoagulant product is broader and a product)"
    ),
    "high-intensity statin": "Substance (drug class; Statin is broader)",
    "maximally tolerated statin": "Substance (drug class; Statin is broader)",
    "low-dose colchicine": "Substance (Colchicine is broader)",
    "stress cardiac magnetic resonance": "Procedure (Magnetic resonance imaging of heart is broader)",
    "high risk of gastrointestinal bleeding": (
        "Clinical finding (at risk of ...; At risk of hemorrhage is broader)"
    ),
    "syntax score": "Staging and scales (assessment scale)",
    "cha2ds2-vasc score": "Staging and scales (assessment scale)",
    "lipid profile": "Procedure (laboratory test)",
    "invasive fractional flow reserve measurement": (
        "Procedure (measurement; the sample's Fractional flow reserve is the observable)"
    ),
    "elective percutaneous coronary intervention": (
        "Procedure (Percutaneous coronary intervention is broader)"
    ),
    "high-risk elective percutaneous coronary intervention": (
        "Procedure (Percutaneous coronary intervention is broader)"
    ),
    "heart team discussion": "Procedure (regime/therapy)",
    "optimized medical therapy": "Substance (drug-therapy phrase) or Procedure (regime/therapy)",
    "combined antithrombotic therapy": (
        "Substance (drug-therapy phrase) or Procedure (regime/therapy)"
    ),
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


def parse_threshold(value: str, where: str) -> int | float | str | list:
    """thr=35, thr=0.80, thr=41,49 (a range) or thr=140/90 (a paired BP value, kept a string)."""
    if "/" in value:
        if not PAIRED.match(value):
            raise ValueError(f"{where}: a paired threshold is written like 140/90, not {value!r}")
        return value
    values = [parse_number(v) for v in value.split(",")]
    return values if len(values) > 1 else values[0]


def span_numbers(text: str) -> list[float]:
    """The numbers written in a span, Roman NYHA classes included ("class II or III" -> 2, 3)."""
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]
    if "NYHA" in text or "New York Heart Association" in text:
        numbers += [float(ROMAN[r]) for r in re.findall(r"\b(IV|III|II|I)\b", text)]
    return numbers


def threshold_numbers(threshold: int | float | str | list) -> list[float]:
    if isinstance(threshold, str):
        return [float(v) for v in threshold.split("/")]
    if isinstance(threshold, list):
        return [float(v) for v in threshold]
    return [float(threshold)]


def parse_concept(line: str, where: str) -> dict:
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 4:
        raise ValueError(f"{where}: concept needs 'Role | text | normalized | snomed': {line!r}")
    role, text, normalized, snomed, *extras = parts
    if role not in ROLES:
        raise ValueError(f"{where}: unknown role {role!r}")
    concept = {
        "role": role,
        "function": None,
        "text": text,
        "normalized": text.lower() if normalized == "=" else normalized,
        "operator": None,
        "threshold": None,
        "unit": None,
        "alt_values": [],
        "or_group": None,
        "negated": False,
        "snomed_id": None if snomed == "-" else snomed,
        "fsn": None,
    }
    for extra in extras:
        key, _, value = extra.partition("=")
        if key == "op":
            concept["operator"] = value
        elif key == "thr":
            concept["threshold"] = parse_threshold(value, where)
        elif key == "unit":
            concept["unit"] = value
        elif key == "alt":
            # alt=200 mg/dL (or alt=2.5,3.5 mmol/L for a range): the same value in another unit
            number, _, unit = value.partition(" ")
            if not unit:
                raise ValueError(f"{where}: alt needs 'VALUE UNIT' ({extra!r})")
            concept["alt_values"].append(
                {"threshold": parse_threshold(number, where), "unit": unit}
            )
        elif key == "or":
            concept["or_group"] = value
        elif key == "neg":
            concept["negated"] = True
        elif key == "fn":
            if value == "action":
                raise ValueError(
                    f"{where}: function 'action' comes from the actions list ({text!r})"
                )
            concept["function"] = value
        else:
            raise ValueError(f"{where}: unknown extra {extra!r}")
    if concept["normalized"] != concept["normalized"].lower():
        raise ValueError(f"{where}: normalized must be lower-case: {concept['normalized']!r}")
    if concept["function"] is None:
        concept["function"] = DEFAULT_FUNCTION.get(role)
    op, thr, unit = concept["operator"], concept["threshold"], concept["unit"]
    if op is not None:
        if role != "ClinicalParameter":
            raise ValueError(f"{where}: only ClinicalParameter takes an operator ({text!r})")
        if op not in OPERATORS:
            raise ValueError(f"{where}: bad operator {op!r}")
        for value in [thr] + [alt["threshold"] for alt in concept["alt_values"]]:
            check_threshold(op, value, where, text)
        if isinstance(thr, str) and unit != "mmHg":
            raise ValueError(f"{where}: a paired threshold is a blood pressure in mmHg ({text!r})")
        for alt in concept["alt_values"]:
            if alt["unit"] == unit:
                raise ValueError(f"{where}: alt_values repeat the unit {unit!r} ({text!r})")
        # The span holds name and value (or only the value): every threshold number is in it.
        written = span_numbers(text)
        for value in [thr] + [alt["threshold"] for alt in concept["alt_values"]]:
            if not set(threshold_numbers(value)) <= set(written):
                raise ValueError(
                    f"{where}: parameter span {text!r} does not hold the value {value}"
                )
    elif thr is not None or unit is not None or concept["alt_values"]:
        raise ValueError(f"{where}: threshold/unit/alt without operator ({text!r})")
    elif role == "ClinicalParameter":
        raise ValueError(f"{where}: a ClinicalParameter needs a comparison ({text!r})")
    if concept["normalized"].startswith(NYHA):
        if concept["normalized"] != NYHA or role != "ClinicalParameter" or unit is not None:
            raise ValueError(f"{where}: NYHA classes are a unit-less parameter {NYHA!r} ({text!r})")
        if not all(n in (1, 2, 3, 4) for n in threshold_numbers(thr)):
            raise ValueError(f"{where}: NYHA classes are the numbers 1-4 ({text!r})")
    if role == "Outcome" and concept["or_group"]:
        raise ValueError(f"{where}: Outcomes are never OR-grouped ({text!r})")
    return concept


def check_threshold(op: str, thr, where: str, text: str) -> None:
    if op == "between":
        if not (isinstance(thr, list) and len(thr) == 2 and thr[0] < thr[1]):
            raise ValueError(f"{where}: 'between' needs threshold [low, high] ({text!r})")
    elif not isinstance(thr, int | float | str):
        raise ValueError(f"{where}: operator {op!r} needs one threshold ({text!r})")


def derived_logic(concepts: list[dict], where: str) -> dict | None:
    """ANNOTATION_CONVENTIONS.md §8: AND over the condition-side concepts (function condition
    or background) in row order, each OR group folded in where its first member stands, negated
    concepts under NOT; a group whose members are all negated is NOT(OR(...)) ("without A or
    B"). Concepts are referred to by their index in the row's concept list."""
    children: list = []
    done: set[str] = set()
    for i, c in enumerate(concepts):
        group = c["or_group"]
        side = c["function"] in CONDITION_SIDE
        if group is None:
            if side:
                children.append({"op": "NOT", "children": [i]} if c["negated"] else i)
            continue
        if group in done:
            continue
        done.add(group)
        members = [j for j, m in enumerate(concepts) if m["or_group"] == group]
        sides = {concepts[j]["function"] in CONDITION_SIDE for j in members}
        if len(sides) > 1:
            raise ValueError(f"{where}: OR group {group} mixes condition-side and other concepts")
        if not side:
            continue
        negated = [concepts[j]["negated"] for j in members]
        if all(negated):
            children.append({"op": "NOT", "children": [{"op": "OR", "children": members}]})
        elif any(negated):
            raise ValueError(
                f"{where}: OR group {group} mixes negated and plain members; write its logic"
            )
        else:
            children.append({"op": "OR", "children": members})
    return {"op": "AND", "children": children} if children else None


def written_logic(node, concepts: list[dict], where: str):
    """An explicit `logic:` for nested text: {AND|OR|NOT: [normalized name | node, ...]}."""
    if isinstance(node, str):
        matches = [i for i, c in enumerate(concepts) if c["normalized"] == node]
        if len(matches) != 1:
            raise ValueError(f"{where}: logic names {node!r}, which is not one concept of the row")
        return matches[0]
    if not (isinstance(node, dict) and len(node) == 1):
        raise ValueError(f"{where}: a logic node is {{AND|OR|NOT: [...]}}, not {node!r}")
    ((op, children),) = node.items()
    if op not in ("AND", "OR", "NOT") or not children or (op == "NOT" and len(children) != 1):
        raise ValueError(f"{where}: bad logic node {node!r}")
    return {"op": op, "children": [written_logic(c, concepts, where) for c in children]}


def check_logic(logic, concepts: list[dict], where: str) -> None:
    """Every condition-side concept is a leaf exactly once, under NOT exactly when negated."""
    leaves: list[tuple[int, int]] = []

    def walk(node, nots: int) -> None:
        if isinstance(node, int):
            leaves.append((node, nots))
            return
        for child in node["children"]:
            walk(child, nots + (node["op"] == "NOT"))

    if logic is not None:
        walk(logic, 0)
    side = [i for i, c in enumerate(concepts) if c["function"] in CONDITION_SIDE]
    if sorted(i for i, _ in leaves) != side:
        raise ValueError(f"{where}: logic must hold each condition/background concept once")
    for i, nots in leaves:
        if (nots % 2 == 1) != concepts[i]["negated"]:
            raise ValueError(f"{where}: {concepts[i]['normalized']!r} negation differs in logic")


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
            if c["role"] in ("Procedure", "Medication"):
                if c["function"] is not None:
                    raise ValueError(f"{key}: action {name!r} cannot have function {c['function']}")
                c["function"] = "action"
            elif not (c["role"] == "ClinicalParameter" and c["function"] == "target"):
                # the contract's one exception: a recommendation that is the target itself
                raise ValueError(
                    f"{key}: action {name!r} must be a Procedure, Medication or target parameter"
                )
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
        for c in concepts:
            if c["function"] is None:
                raise ValueError(
                    f"{key}: {c['text']!r} is no action; give its fn= (background, co-therapy, "
                    "comparator or purpose)"
                )
            if c["function"] not in ROLE_FUNCTIONS[c["role"]]:
                raise ValueError(f"{key}: a {c['role']} cannot have function {c['function']!r}")
        if "logic" in entry:
            logic = written_logic(entry["logic"], concepts, key)
        else:
            logic = derived_logic(concepts, key)
        check_logic(logic, concepts, key)
        # ANNOTATION_CONVENTIONS.md §9: Conditions with function condition, background
        # Procedures and Medications, age parameters.
        population = [
            c["normalized"]
            for c in concepts
            if (c["role"] == "Condition" and c["function"] == "condition")
            or (c["role"] in ("Procedure", "Medication") and c["function"] == "background")
            or (c["role"] == "ClinicalParameter" and c["normalized"] == "age")
        ]
        out.append(
            {
                "id": "",
                **row,
                "concepts": concepts,
                "actions": actions,
                "logic": logic,
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
    unused = set(HIERARCHY_OVERRIDES) - {term for term, _ in missing}
    if unused:
        raise ValueError(f"HIERARCHY_OVERRIDES name terms no longer unmapped: {sorted(unused)}")
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
