"""The bundled sample guidelines and the gold annotation stay consistent.

Real Docling conversions of every registered sample source: the tables, row counts, class and
level cells and row texts Docling returns must be those of the content source
(data/guidelines/build_samples.py), the registry's expected_rows must hold, the committed
outputs must be what the generator writes, and gold.jsonl must be what build_gold.py derives
and match a Docling row for every gold row (so evaluation can join gold to predictions).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GUIDELINES = ROOT / "data" / "guidelines"
GOLD = ROOT / "data" / "gold"
CLASSES = {"I", "IIa", "IIb", "III"}
SAMPLE_IDS = ["ccs-sample", "ccs-sample-docling", "hf-sample", "hf-sample-docx"]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


build_samples = _load("build_samples", GUIDELINES / "build_samples.py")
build_gold = _load("build_gold", GOLD / "build_gold.py")


def _norm(text: str) -> str:
    """The row-text normalization ANNOTATION_GUIDELINES.md tells evaluation to use."""
    text = text.replace("<br>", " ").replace("–", "-").replace("—", "-")
    return " ".join(text.lower().split())


def _registry() -> dict[str, dict]:
    data = yaml.safe_load((ROOT / "configs" / "guidelines.yaml").read_text(encoding="utf-8"))
    return {g["id"]: g for g in data["guidelines"]}


def _docling_tables(path: Path) -> list[list[list[str]]]:
    """Grids of the tables Docling finds in one source (the JSON is loaded as Docling saved it)."""
    from docling_core.types.doc import DoclingDocument

    if path.suffix == ".json":
        doc = DoclingDocument.load_from_json(path)
    else:
        from docling.document_converter import DocumentConverter

        doc = DocumentConverter().convert(path).document
    return [[[cell.text for cell in row] for row in table.data.grid] for table in doc.tables]


def _recommendation_rows(grid: list[list[str]]) -> list[tuple[str, str, str]]:
    return [(r[0], r[1], r[2]) for r in grid[1:] if len(r) == 3 and r[1] in CLASSES]


@pytest.fixture(scope="module")
def converted() -> dict[str, list[list[list[str]]]]:
    registry = _registry()
    return {
        source: _docling_tables(ROOT / source)
        for guideline in SAMPLE_IDS
        for source in registry[guideline]["sources"]
    }


@pytest.mark.parametrize("guideline", SAMPLE_IDS)
def test_docling_rows_match_content_and_registry(guideline, converted):
    entry = _registry()[guideline]
    tables = build_samples.CCS_TABLES if guideline.startswith("ccs") else build_samples.HF_TABLES
    if guideline == "ccs-sample-docling":
        tables = [t for t in tables if t.page_break_after is not None]
    (source,) = entry["sources"]
    grids = converted[source]
    if source.endswith(".json"):
        # Two pieces, same header row, on pages 62 and 63: joined they are one table.
        assert len(grids) == 2
        assert grids[0][0] == grids[1][0] == ["Recommendations", "Class a", "Level b"]
        grids = [grids[0] + grids[1][1:]]
    assert len(grids) == len(tables)
    for index, (grid, table) in enumerate(zip(grids, tables, strict=True)):
        got = _recommendation_rows(grid)
        want = [(r.text, r.cls, r.level) for r in table.recommendations]
        assert len(got) == entry["expected_rows"][f"table_{index:03d}"] == len(want)
        assert [(_norm(t), c, lv) for t, c, lv in got] == [(_norm(t), c, lv) for t, c, lv in want]
        header = [re.sub(r"\s*[ab]$", "", h) for h in grid[0]]
        assert header == ["Recommendations", "Class", "Level"]


def test_committed_outputs_are_what_the_generator_writes(tmp_path):
    build_samples.write_html(tmp_path / "a.html", build_samples.CCS_TITLE, build_samples.CCS_TABLES)
    build_samples.write_markdown(tmp_path / "a.md", build_samples.HF_TITLE, build_samples.HF_TABLES)
    revasc = next(t for t in build_samples.CCS_TABLES if t.page_break_after is not None)
    build_samples.write_docling_json(tmp_path / "a.json", build_samples.CCS_TITLE, revasc)
    assert (tmp_path / "a.html").read_text() == (
        GUIDELINES / "ccs-sample" / "ccs-sample.html"
    ).read_text()
    assert (tmp_path / "a.md").read_text() == (
        GUIDELINES / "hf-sample" / "hf-sample.md"
    ).read_text()
    assert json.loads((tmp_path / "a.json").read_text()) == json.loads(
        (GUIDELINES / "ccs-sample" / "ccs-sample-revascularization_62_63.json").read_text()
    )
    import docx

    def cells(path: Path) -> list[list[str]]:
        return [[c.text for c in row.cells] for t in docx.Document(path).tables for row in t.rows]

    build_samples.write_docx(tmp_path / "a.docx", build_samples.HF_TITLE, build_samples.HF_TABLES)
    assert cells(tmp_path / "a.docx") == cells(GUIDELINES / "hf-sample" / "hf-sample.docx")


def test_gold_is_built_from_annotations_and_joins_docling_rows(converted):
    records, _missing = build_gold.build()
    committed = [
        json.loads(line)
        for line in (GOLD / "gold.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert committed == json.loads(json.dumps(records, ensure_ascii=False))
    assert len(committed) >= 60
    docling_rows = {
        _norm(text)
        for grids in converted.values()
        for grid in grids
        for text, _, _ in _recommendation_rows(grid)
    }
    for record in committed:
        assert _norm(record["row_text"]) in docling_rows, record["row_text"]
        assert all(a["class"] == record["class"] for a in record["actions"])


def test_missing_concepts_list_is_derived_from_current_gold_and_sample():
    records, missing = build_gold.build()
    expected = build_gold.render(records, missing)["missing_concepts.tsv"]
    assert (GOLD / "missing_concepts.tsv").read_text(encoding="utf-8") == expected


def test_worked_example_row_is_annotated_as_in_design():
    records, _ = build_gold.build()
    (row,) = [r for r in records if "high surgical risk or not operable" in r["row_text"]]
    concepts = {(c["role"], c["normalized"]): c for c in row["concepts"]}
    assert set(concepts) == {
        ("Condition", "chronic coronary syndrome"),
        ("ClinicalParameter", "left ventricular ejection fraction"),
        ("Condition", "high surgical risk"),
        ("Condition", "not operable"),
        ("Procedure", "percutaneous coronary intervention"),
    }
    lvef = concepts[("ClinicalParameter", "left ventricular ejection fraction")]
    assert (lvef["operator"], lvef["threshold"], lvef["unit"]) == ("<=", 35, "%")
    assert lvef["text"] == "LVEF ≤35%"  # ANNOTATION_CONVENTIONS.md §4: name and value
    assert concepts[("Condition", "high surgical risk")]["or_group"] == "g1"
    assert concepts[("Condition", "not operable")]["or_group"] == "g1"
    # §9: every Condition with function condition (OR members too); parameters other than age
    # are not population. §8: AND over the condition side, the OR group folded in.
    assert row["population"] == ["chronic coronary syndrome", "high surgical risk", "not operable"]
    index = {c["normalized"]: i for i, c in enumerate(row["concepts"])}
    assert row["logic"] == {
        "op": "AND",
        "children": [
            index["chronic coronary syndrome"],
            index["left ventricular ejection fraction"],
            {"op": "OR", "children": [index["high surgical risk"], index["not operable"]]},
        ],
    }
    assert concepts[("Procedure", "percutaneous coronary intervention")]["function"] == "action"
    assert [(a["normalized"], a["class"], a["level"], a["polarity"]) for a in row["actions"]] == [
        ("percutaneous coronary intervention", "IIb", "B", "recommended")
    ]


def test_build_gold_applies_the_contract_to_parameters_and_or_groups():
    """The contract rules build_gold.py enforces on a concept line (ANNOTATION_CONVENTIONS.md
    §4-§7), on the team's own phrases rather than on sample rows."""
    parse = build_gold.parse_concept
    bp = parse(
        "ClinicalParameter | BP ≥140/90 mmHg | blood pressure | - | op=>= | thr=140/90 | unit=mmHg",
        "t",
    )
    assert (bp["operator"], bp["threshold"], bp["unit"]) == (">=", "140/90", "mmHg")
    glucose = parse(
        "ClinicalParameter | glucose ≥11.1 mmol/L or ≥200 mg/dL | plasma glucose | - | op=>= "
        "| thr=11.1 | unit=mmol/L | alt=200 mg/dL",
        "t",
    )
    assert glucose["alt_values"] == [{"threshold": 200, "unit": "mg/dL"}]
    nyha = parse(
        "ClinicalParameter | NYHA class III–IV | new york heart association class | - "
        "| op=between | thr=3,4",
        "t",
    )
    assert nyha["threshold"] == [3, 4]
    window = parse(
        "ClinicalParameter | within 24 h | time from symptom onset | - | op=<= | thr=24 | unit=h",
        "t",
    )
    assert (window["operator"], window["threshold"]) == ("<=", 24)
    for bad in (
        "ClinicalParameter | LVEF | left ventricular ejection fraction | - | op=<= | thr=35 | unit=%",
        "ClinicalParameter | BP ≥140/90 mmHg | blood pressure | - | op=between | thr=140/90",
        "ClinicalParameter | NYHA class III | new york heart association class iii | - | op== | thr=3",
        "ClinicalParameter | LDL-C ≥1.4 mmol/L | ldl | - | op=>= | thr=1.4 | unit=mmol/L | alt=1.4 mmol/L",
        "Outcome | stroke | = | - | or=g1",
        "Condition | LVEF ≤35% | left ventricular ejection fraction | - | op=<= | thr=35 | unit=%",
    ):
        with pytest.raises(ValueError):
            parse(bad, "t")
    # "without A or B" is NOT(OR(A, B)): both negated, one label.
    a = parse("Condition | mitral stenosis | = | - | neg | or=g1", "t")
    b = parse("Condition | mechanical heart valve | = | - | neg | or=g1", "t")
    hf = parse("Condition | HF | heart failure | -", "t")
    assert build_gold.derived_logic([hf, a, b], "t") == {
        "op": "AND",
        "children": [0, {"op": "NOT", "children": [{"op": "OR", "children": [1, 2]}]}],
    }
    mixed = [a, parse("Condition | AF | atrial fibrillation | - | or=g1", "t")]
    with pytest.raises(ValueError):
        build_gold.derived_logic(mixed, "t")
