"""The llm backend's deterministic checks (cardio_assets/logic/llm_validation.py).

Pure checks on the team's own sentences first, then the same checks end to end: the
generated BAML client over HTTP to the replay server, a recorded answer written by the team
that fails them (tests/fixtures/llm_replay/validation_mra_main.json), the record, the run
summary, the cache, ``cardio extract``'s output; last, the prompt's few-shot examples, which
must pass the checks and show the annotation contract's hard cases.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardio_assets.logic.llm_validation import (
    fold,
    row_of,
    span_in_row,
    summary_line,
    validate_records,
    validation_summary,
)
from cardio_assets.records import RowExtraction, TaggedRow
from tests.replay_server import ReplayServer, ensure_baml_client, load_recordings

ROOT = Path(__file__).resolve().parent.parent
NAME = "validation_mra_main"


def _concept(role: str, text: str, op=None, thr=None, unit=None, alt=()) -> dict:
    return {
        "role": role,
        "text": text,
        "normalized": text.lower(),
        "operator": op,
        "threshold": thr,
        "unit": unit,
        "alt_values": [dict(v) for v in alt],
        "or_group": None,
        "negated": False,
    }


def _tagged(row: str) -> str:
    return f"GUIDELINE: g\nFOCUS: MAIN\nSECTION: Words that are not in the row\nROW: {row} | I | A"


# --------------------------------------------------------------------------- spans


def test_fold_is_case_dash_and_whitespace_only() -> None:
    assert fold("Moderate–Severe  CKD") == fold("moderate-severe CKD")
    assert fold("LVEF ≤ 35 %") == fold("LVEF ≤35%")
    assert fold("QRS duration 130 — 149 ms") == fold("QRS duration 130-149 ms")
    assert fold("heart rate") != fold("heartrate")  # two words stay two words
    assert fold("LVEF ≤35%") != fold("LVEF <35%")  # an operator is no dash


def test_spans_are_looked_for_in_the_row_line_only() -> None:
    tagged = _tagged("Aspirin is recommended after a stroke.")
    assert row_of(tagged).startswith("Aspirin is recommended")
    assert span_in_row("STROKE", row_of(tagged))
    assert not span_in_row("Words that are not in the row", row_of(tagged))  # SECTION only
    assert not span_in_row("", row_of(tagged))
    checked, issues = validate_records(
        {
            "concepts": [_concept("Condition", "stroke"), _concept("Condition", "the row")],
            "actions": [{"role": "Medication", "text": "acetylsalicylic acid"}],
        },
        tagged,
    )
    assert [c["text"] for c in checked["concepts"]] == ["stroke"] and checked["actions"] == []
    assert [(i.check, i.item, i.text) for i in issues] == [
        ("span_not_in_row", "concept", "the row"),
        ("span_not_in_row", "action", "acetylsalicylic acid"),
    ]


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("span", "model", "parsed", "checks"),
    [
        # the model agrees with the span (spelled differently): nothing recorded
        ("LVEF of 35% or less", ("<=", 35, "%"), ("<=", 35.0, "%"), []),
        ("heart rate ≥70 b.p.m.", (">=", [70], "bpm"), (">=", 70.0, "bpm"), []),
        # a paired blood pressure is one threshold "140/90"
        ("office BP ≥140/90 mmHg", (">=", 140, "mmHg"), (">=", "140/90", "mmHg"), ["threshold"]),
        # a time window is a <= parameter
        ("within 48 h of admission", ("<", 48, "hours"), ("<=", 48.0, "h"), ["operator"]),
        # NYHA classes are numbers
        (
            "NYHA class III–IV",
            ("between", [3, 4], "class"),
            ("between", [3.0, 4.0], None),
            ["unit"],
        ),
        # a range read as its upper bound
        (
            "QRS duration 130–149 ms",
            ("<=", 149, "ms"),
            ("between", [130.0, 149.0], "ms"),
            ["operator", "threshold"],
        ),
    ],
)
def test_values_are_reparsed_from_the_span_and_the_span_wins(
    span: str, model: tuple, parsed: tuple, checks: list[str]
) -> None:
    op, thr, unit = model
    checked, issues = validate_records(
        {"concepts": [_concept("ClinicalParameter", span, op, thr, unit)]}, _tagged(span)
    )
    (concept,) = checked["concepts"]
    assert (concept["operator"], concept["threshold"], concept["unit"]) == parsed
    assert [i.check for i in issues] == checks
    for issue in issues:
        assert (
            issue.text == span
            and issue.model_value
            == {
                "operator": op,
                "threshold": thr,
                "unit": unit,
            }[issue.check]
        )


def test_a_second_unit_is_one_parameter_with_alt_values() -> None:
    span = "LDL-C ≥2.6 mmol/L (100 mg/dL)"
    checked, issues = validate_records(
        {"concepts": [_concept("ClinicalParameter", span, ">=", 2.6, "mmol/L")]}, _tagged(span)
    )
    (concept,) = checked["concepts"]
    assert concept["alt_values"] == [{"threshold": 100.0, "unit": "mg/dL"}]
    ((check, model, parsed),) = [(i.check, i.model_value, i.parsed_value) for i in issues]
    assert (check, model, parsed) == ("alt_values", [], [{"threshold": 100.0, "unit": "mg/dL"}])


def test_a_range_in_a_second_unit_is_kept_as_a_range() -> None:
    """A range printed in two units ("1.7–5.6 mmol/L (150–499 mg/dL)"): the model's schema
    holds one number per second unit, so the re-parse supplies the bracketed range whole,
    and a model's scalar guess is a disagreement, recorded."""
    span = "triglycerides 1.7–5.6 mmol/L (150–499 mg/dL)"
    concept = _concept(
        "ClinicalParameter", span, "between", [1.7, 5.6], "mmol/L", [{"threshold": 150.0}]
    )
    checked, issues = validate_records({"concepts": [concept]}, _tagged(span))
    (concept,) = checked["concepts"]
    assert concept["alt_values"] == [{"threshold": [150.0, 499.0], "unit": "mg/dL"}]
    assert [i.check for i in issues] == ["alt_values"]


def test_a_value_the_span_does_not_hold_is_dropped() -> None:
    row = "Ivabradine may be considered when the heart rate in sinus rhythm stays above 70 bpm."
    checked, issues = validate_records(
        {"concepts": [_concept("ClinicalParameter", "heart rate", ">", 75, "bpm")]}, _tagged(row)
    )
    (concept,) = checked["concepts"]
    assert (concept["operator"], concept["threshold"], concept["unit"]) == (None, None, None)
    ((issue),) = issues
    assert issue.check == "value_not_in_span" and issue.parsed_value is None
    assert issue.model_value["threshold"] == 75
    # a parameter named without any value claims nothing: nothing to reject
    _, none = validate_records(
        {"concepts": [_concept("ClinicalParameter", "heart rate")]}, _tagged(row)
    )
    assert none == []


def test_the_input_answer_is_left_as_the_model_gave_it() -> None:
    """The cached answer must stay the model's (the checks run again on every read)."""
    answer = {"concepts": [_concept("ClinicalParameter", "LVEF ≤35%", "<", 30, "%")]}
    before = json.dumps(answer)
    validate_records(answer, _tagged("An ICD is recommended with LVEF ≤35%."))
    assert json.dumps(answer) == before


# --------------------------------------------------------------------------- replay


@pytest.fixture(scope="module")
def replay():
    ensure_baml_client()
    with ReplayServer() as server:
        yield server


def _models(path: Path, base_url: str) -> Path:
    client = {
        "provider": "openai-generic",
        "base_url": base_url,
        "model": "replay/qwen2.5-7b-instruct",
        "timeout_s": 5.0,
        "max_retries": 0,
    }
    path.write_text(json.dumps({"default": "replay", "clients": {"replay": client}}), "utf-8")
    return path


def _row_text() -> str:
    row = row_of(load_recordings()[NAME].tagged_row)
    return row.rsplit(" | IIb | C", 1)[0]


EXPECTED_ISSUES = [
    ("span_not_in_row", "concept", "chronic kidney disease stage 4", None, None),
    ("threshold", "concept", "LVEF is ≤40%", 35, 40.0),
    ("operator", "concept", "QRS duration is ≥150 ms", ">", ">="),
    ("unit", "concept", "serum potassium is ≤5.0 mmol/L", "mEq/L", "mmol/L"),
    (
        "value_not_in_span",
        "concept",
        "resting heart rate",
        {"operator": ">", "threshold": 70, "unit": "bpm", "alt_values": []},
        None,
    ),
    ("span_not_in_row", "action", "mineralocorticoid receptor antagonist therapy", None, None),
]
EXPECTED_SUMMARY = {
    "spans_checked": 9,  # 7 concepts + 2 actions in the answer
    "spans_dropped": 2,
    "spans_dropped_by_check": {"span_not_in_row": 2},
    "parameters_checked": 4,
    "values_rejected": 4,
    "values_rejected_by_check": {
        "operator": 1,
        "threshold": 1,
        "unit": 1,
        "alt_values": 0,
        "value_not_in_span": 1,
    },
    "rows_with_issues": 1,
}


def _issues(result: RowExtraction) -> list[tuple]:
    return [(i.check, i.item, i.text, i.model_value, i.parsed_value) for i in result.validation]


def test_a_recorded_answer_that_fails_the_checks(tmp_path: Path, replay: ReplayServer) -> None:
    from cardio_assets.logic.llm_extraction import extract_rows

    row = TaggedRow(
        row_id="team:table_000:r0",
        guideline="team",
        focus="MAIN",
        text=load_recordings()[NAME].tagged_row,
    )
    models, cache = _models(tmp_path / "models.yaml", replay.base_url), tmp_path / "c.duckdb"
    first = extract_rows([row], models_config=models, cache_path=cache)
    (result,) = first.results
    assert result.error is None
    assert _issues(result) == EXPECTED_ISSUES
    kept = {c.text: (c.operator, c.threshold, c.unit) for c in result.concepts}
    assert kept == {
        "heart failure": (None, None, None),
        "Moderate-severe  CKD": (None, None, None),  # case, dash and spaces folded: kept
        "LVEF is ≤40%": ("<=", 40.0, "%"),
        "QRS duration is ≥150 ms": (">=", 150.0, "ms"),
        "serum potassium is ≤5.0 mmol/L": ("<=", 5.0, "mmol/L"),
        "resting heart rate": (None, None, None),
    }
    assert [a.text for a in result.actions] == ["MRA"]
    assert first.summary()["validation"] == EXPECTED_SUMMARY
    # the cache holds the model's answer; the checks apply again when it is read
    from cardio_assets.logic.llm_cache import LlmCache

    (entry,) = LlmCache(cache).entries()
    assert len(entry.parsed["concepts"]) == 7 and len(entry.parsed["actions"]) == 2
    again = extract_rows([row], models_config=models, cache_path=cache)
    assert again.results[0].cached and replay.calls(NAME) == 1
    assert _issues(again.results[0]) == EXPECTED_ISSUES


def test_cardio_extract_prints_what_the_checks_rejected(
    tmp_path: Path, replay: ReplayServer, monkeypatch
) -> None:
    from cardio_assets.cli import main

    monkeypatch.setenv("CARDIO_LLM_CACHE", str(tmp_path / "cache.duckdb"))
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps(
            {
                "id": "team:table_000:r0",
                "guideline_title": "Team-written test guideline on heart failure",
                "table_id": "table_000",
                "row_index": 0,
                "header": ["Recommendations", "Class", "Level"],
                "section": "Mineralocorticoid receptor antagonists",
                "footnotes": [],
                "row_text": _row_text(),
                "class": "IIb",
                "level": "C",
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "pred.jsonl"
    models = _models(tmp_path / "models.yaml", replay.base_url)
    args = ["extract", "--rows", str(rows), "--out", str(out), "--backend", "llm"]
    result = CliRunner().invoke(main, [*args, "--models", str(models)])
    assert result.exit_code == 0, result.output
    assert (
        "MAIN checks: 9 spans checked, 2 dropped (span_not_in_row 2); 4 parameters checked, "
        "4 values rejected (operator 1, threshold 1, unit 1, value_not_in_span 1)"
    ) in result.output
    # the POPULATION pass has no recording here: a recorded failure, nothing checked
    assert "POPULATION checks: 0 spans checked, 0 dropped" in result.output
    (line,) = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    texts = {c["text"] for c in line["concepts"]}
    assert "chronic kidney disease stage 4" not in texts
    assert "mineralocorticoid receptor antagonist therapy" not in texts
    lvef = next(c for c in line["concepts"] if c["text"] == "LVEF is ≤40%")
    assert (lvef["operator"], lvef["threshold"], lvef["unit"]) == ("<=", 40.0, "%")


def test_summary_line_names_only_checks_that_fired() -> None:
    assert summary_line(EXPECTED_SUMMARY).endswith(
        "(operator 1, threshold 1, unit 1, value_not_in_span 1)"
    )
    empty = validation_summary([])
    assert summary_line(empty) == (
        "0 spans checked, 0 dropped; 0 parameters checked, 0 values rejected"
    )


# --------------------------------------------------------------------------- prompt


def _examples() -> list[tuple[str, str, dict]]:
    """(function block, tagged input, output) of every few-shot example in the BAML file."""
    baml = (ROOT / "baml_src" / "extraction.baml").read_text("utf-8")
    found = []
    pattern = r"Example input:\n(.*?)\n\s*Example output:\n(\s*\{.*?\n  \})\n"
    for tagged, output in re.findall(pattern, baml, flags=re.S):
        found.append((tagged, json.loads(output)))
    return found


def test_few_shot_examples_pass_the_checks_and_follow_the_contract() -> None:
    examples = _examples()
    assert len(examples) >= 8
    params, negated_groups, roles = [], [], {}
    for tagged, output in examples:
        items = output.get("concepts") or [
            dict(c, role="Condition", operator=None, threshold=None, unit=None, alt_values=[])
            for c in output["conditions"]
        ]
        checked, issues = validate_records(
            {"concepts": items, "actions": output.get("actions", [])}, tagged
        )
        assert issues == [], (row_of(tagged), issues)
        for c in items:
            roles[c["normalized"]] = c["role"]
            if c["role"] == "ClinicalParameter":
                params.append(c)
        groups: dict[str, list[bool]] = {}
        for c in items:
            if c.get("or_group"):
                groups.setdefault(c["or_group"], []).append(bool(c.get("negated")))
        negated_groups += [g for g in groups.values() if len(g) > 1 and all(g)]
        for a in output.get("actions", []):
            roles[a["normalized"]] = a["role"]
    # parameter text holds name and value: every span has a number or a NYHA class
    assert all(re.search(r"\d|\b(?:I|II|III|IV)\b", p["text"]) for p in params)
    assert {"operator": ">=", "threshold": "140/90", "unit": "mmHg"}.items() <= next(
        p for p in params if p["threshold"] == "140/90"
    ).items()
    assert any(p["alt_values"] for p in params)  # dual units: one parameter
    assert any(p["operator"] == "<=" and p["unit"] == "h" for p in params)  # time window
    assert any(p["text"].startswith("NYHA") and p["threshold"] == [2, 3] for p in params)
    assert negated_groups  # "without A or B": NOT(OR(A, B)) with one OR label
    assert {roles[d] for d in ("adult", "woman", "older people")} == {"Condition"}
    assert roles["optimized medical therapy"] == "Medication"
    assert roles["combination blood pressure-lowering treatment"] == "Medication"
    assert roles["fibrinolysis"] == roles["influenza vaccination"] == "Procedure"
