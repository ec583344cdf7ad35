"""The extraction scorer (cardio_assets/evaluation.py): concept, OR-pair, parameter and
class/level metrics on hand-made gold/prediction pairs, and `cardio eval`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardio_assets.evaluation import evaluate


def _gold_row(text: str, concepts: list[dict], actions: list[dict], population=()) -> dict:
    return {
        "guideline": "g",
        "row_text": text,
        "concepts": concepts,
        "actions": actions,
        "population": list(population),
    }


def _c(role, norm, op=None, thr=None, unit=None, group=None, neg=False, sid=None) -> dict:
    return {
        "role": role, "text": norm, "normalized": norm, "operator": op, "threshold": thr,
        "unit": unit, "or_group": group, "negated": neg, "snomed_id": sid, "fsn": None,
    }  # fmt: skip


def test_evaluation_metrics_on_hand_made_pairs() -> None:
    gold = [
        _gold_row(
            "Row  One – text",
            [
                _c("Condition", "a", group="g1", sid="1"),
                _c("Condition", "b", group="g1", sid="2"),
                _c("Condition", "c", group="g1"),
                _c("ClinicalParameter", "lvef", "<=", 35, "%", sid="3"),
                _c("Procedure", "pci", sid="4"),
            ],
            [
                {
                    "role": "Procedure",
                    "normalized": "pci",
                    "class": "IIb",
                    "level": "B",
                    "polarity": "recommended",
                }
            ],  # fmt: skip
            ["a"],
        ),
        _gold_row("row two", [_c("Medication", "x")], []),
    ]
    pred = [
        {
            **_gold_row(
                "row one - text",  # matched after normalization (case, dash, spaces)
                [
                    _c("Condition", "a", group="g7", sid="1"),
                    _c("Condition", "b", group="g7", sid="9"),  # wrong id
                    _c("Condition", "c"),  # lost its group
                    _c("ClinicalParameter", "lvef", "<", 35, "%", sid="3"),  # wrong operator
                    _c("Procedure", "pci", sid="4"),
                    _c("Outcome", "death"),  # extra
                ],
                [
                    {
                        "role": "Procedure",
                        "normalized": "pci",
                        "class": "IIb",
                        "level": "A",
                        "polarity": "recommended",
                    }
                ],  # fmt: skip
                ["a"],
            )
        }
    ]  # "row two" missing entirely
    report = evaluate(gold, pred)
    s = report.summary()
    assert (s["rows_gold"], s["rows_matched"]) == (2, 1)
    # concepts: tp 5, fp 1 (death), fn 1 (x)
    assert s["concepts"] == {
        "precision": round(5 / 6, 4),
        "recall": round(5 / 6, 4),
        "f1": round(5 / 6, 4),
    }
    assert s["concepts_by_role"]["Medication"]["recall"] == 0.0
    assert s["concepts_by_role"]["Outcome"]["precision"] == 0.0
    # OR pairs: gold {ab, ac, bc}, predicted {ab}
    assert s["or_group_pairs"] == {"precision": 1.0, "recall": round(1 / 3, 4), "f1": 0.5}
    assert s["parameter_exactness"] == 0.0 and s["parameters_scored"] == 1
    assert s["class_level_accuracy"] == 0.0 and s["polarity_accuracy"] == 1.0
    # SNOMED: 5 found gold concepts, 4 with the right id (null == null counts)
    assert s["snomed_id_accuracy"] == 0.8
    assert s["population"]["f1"] == 1.0


def test_evaluation_perfect_prediction_scores_one() -> None:
    gold = [
        _gold_row("r", [_c("Condition", "a", group="g1"), _c("Condition", "b", group="g1")], [])
    ]
    s = evaluate(gold, json.loads(json.dumps(gold))).summary()
    assert s["concepts"]["f1"] == 1.0 and s["or_group_pairs"]["f1"] == 1.0


def test_a_range_of_paired_blood_pressures_is_scored_as_one() -> None:
    """A gold parameter "between 140/90 and 159/99 mmHg" holds a range of paired values;
    the scorer compares it like any range (it raised on the strings)."""
    bp = _c("ClinicalParameter", "blood pressure", "between", ["140/90", "159/99"], "mmHg")
    gold = [_gold_row("r", [bp], [])]
    assert evaluate(gold, json.loads(json.dumps(gold))).summary()["parameter_exactness"] == 1.0
    other = _c("ClinicalParameter", "blood pressure", "between", ["130/80", "139/89"], "mmHg")
    assert evaluate(gold, [_gold_row("r", [other], [])]).summary()["parameter_exactness"] == 0.0


def test_relaxed_or_pairs_count_predictions_under_the_gold_names_they_agree_with() -> None:
    """Relaxed matching takes "beta-blockers" for the gold "beta-blocker"; an OR pair of
    such concepts is then the gold pair too. Scoring pairs by the predictions' own names
    would count every relaxed concept match as a wrong pair."""
    gold = [
        _gold_row(
            "r",
            [
                _c("Medication", "beta-blocker", group="g1"),
                _c("Medication", "ivabradine", group="g1"),
            ],
            [],
        )
    ]
    pred = [
        _gold_row(
            "r",
            [
                _c("Medication", "beta-blockers", group="g4"),
                _c("Medication", "ivabradine", group="g4"),
            ],
            [],
        )
    ]
    assert evaluate(gold, pred, relaxed=True).summary()["or_group_pairs"]["f1"] == 1.0
    assert evaluate(gold, pred).summary()["or_group_pairs"]["f1"] == 0.0  # strict: other names


def test_cardio_eval_prints_the_table_and_checks_targets(tmp_path: Path) -> None:
    from cardio_assets.cli import main

    gold_rows = [
        _gold_row(
            "r",
            [_c("Condition", "a", group="g1"), _c("Condition", "b", group="g1")],
            [{"role": "Condition", "normalized": "a", "class": "I", "level": "A"}],
        )
    ]
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in gold_rows))
    perfect = tmp_path / "perfect.jsonl"
    perfect.write_text(gold.read_text())
    result = CliRunner().invoke(
        main, ["eval", "--pred", str(perfect), "--gold", str(gold), "--check"]
    )
    assert result.exit_code == 0, result.output
    assert "| concept F1 | 1.000 | 0.85 | ok |" in result.output

    half = tmp_path / "half.jsonl"
    half.write_text(json.dumps(_gold_row("r", [_c("Condition", "a")], [])) + "\n")
    result = CliRunner().invoke(main, ["eval", "--pred", str(half), "--gold", str(gold), "--check"])
    assert result.exit_code == 1
    assert "MISSED" in result.output and "Condition 1 missed / 0 spurious" in result.output

    broken = tmp_path / "broken.jsonl"
    broken.write_text(perfect.read_text() + "not json\n")
    result = CliRunner().invoke(main, ["eval", "--pred", str(broken), "--gold", str(gold)])
    assert result.exit_code != 0 and f"{broken}:2: not a JSON line" in result.output


def _at(concept: dict, start: int) -> dict:
    return {**concept, "start": start, "end": start + len(concept["text"])}


def test_a_name_printed_twice_in_a_row_is_scored_twice() -> None:
    """A row can bound one measurement twice ("LVEF 36-49%" as two thresholds, a lower and
    an upper one): both are gold concepts with the same role and name. Keyed by (role, name)
    alone the second overwrote the first, so finding one of them scored as finding both and
    its parameter values were compared with the wrong occurrence."""
    lower = _at(_c("ClinicalParameter", "lvef", ">=", 36, "%"), 10)
    upper = _at(_c("ClinicalParameter", "lvef", "<=", 49, "%"), 30)
    gold = [_gold_row("r", [lower, upper], [])]
    only_upper = [_gold_row("r", [json.loads(json.dumps(upper))], [])]
    for relaxed in (False, True):
        s = evaluate(gold, only_upper, relaxed=relaxed).summary()
        assert s["concepts"]["recall"] == 0.5 and s["concepts"]["precision"] == 1.0
    # relaxed matching pairs it with the occurrence its span overlaps: its values are right
    relaxed = evaluate(gold, only_upper, relaxed=True).summary()
    assert relaxed["parameter_exactness"] == 1.0 and relaxed["parameters_scored"] == 1
    both = evaluate(gold, json.loads(json.dumps(gold)), relaxed=True).summary()
    assert both["concepts"]["f1"] == 1.0 and both["parameters_scored"] == 2


def test_a_repeated_prediction_beyond_the_gold_counts_as_an_extra() -> None:
    """Two predicted concepts with the gold's one name: one is right, the other an extra,
    whichever of them the relaxed matcher pairs with the gold."""
    gold = [_gold_row("r", [_at(_c("Condition", "syncope"), 0)], [])]
    pred = [
        _gold_row(
            "r", [_at(_c("Condition", "syncope"), 20), _at(_c("Condition", "syncope"), 0)], []
        )
    ]
    for relaxed in (False, True):
        s = evaluate(gold, pred, relaxed=relaxed).summary()
        assert s["concepts"]["recall"] == 1.0 and s["concepts"]["precision"] == 0.5
