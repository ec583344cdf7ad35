"""The team-written row gold (data/gold/written_rows/): built from its own rows and
annotations, every span and reference sound, and the benchmark that scores it runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "gold" / "written_rows"
sys.path.insert(0, str(FOLDER))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_rows  # noqa: E402
import written_rows  # noqa: E402
from build_written_gold import build, read_jsonl  # noqa: E402


def _gold() -> list[dict]:
    return read_jsonl(FOLDER / "gold.jsonl")


def test_the_committed_gold_is_the_build_of_its_rows_and_annotations() -> None:
    """A hand edit of gold.jsonl, or annotations changed without a rebuild, would score
    against something no annotator wrote."""
    rows = read_jsonl(FOLDER / "rows.jsonl")
    built = build(rows, read_jsonl(FOLDER / "annotations.jsonl"))
    assert built == _gold()


def test_every_span_lies_in_its_row_and_every_reference_resolves() -> None:
    gold = _gold()
    assert len({g["id"] for g in gold}) == len(gold)
    for g in gold:
        for c in g["concepts"]:
            assert 0 <= c["start"] < c["end"] <= len(g["text"]), (g["id"], c)
        refs = [*g["actions"], *g["population"]]
        assert all(0 <= i < len(g["concepts"]) for i in refs), g["id"]
        assert g["actions"], f"{g['id']}: a recommendation recommends something"
        want = "not recommended" if g["class"] == "III" else "recommended"
        assert g["polarity"] == want, g["id"]


def test_the_gold_scored_as_a_prediction_is_perfect() -> None:
    """The benchmark's scoring reads the gold the way it is written: the gold itself as the
    prediction matches every concept, action and OR pair."""
    gold_rows = written_rows.load_written("all")
    inputs = [written_rows.input_row(g, t, "written-rows", "t") for g, t in gold_rows]
    pred = json.loads(json.dumps(real_rows.gold_lines(gold_rows, inputs)))
    report, strict, _ = written_rows.score(gold_rows, inputs, pred)
    summary = report.summary()
    assert summary["concepts"]["f1"] == 1.0 and summary["actions"]["f1"] == 1.0
    assert summary["or_group_pairs"]["f1"] == 1.0
    assert strict.summary()["concepts"]["f1"] == 1.0


def test_the_benchmark_scores_a_split_through_cardio_extract() -> None:
    """`benchmarks/written_rows.py` runs `cardio extract` on the split's rows and matches
    every one of them to its gold row."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "written_rows.py"),
            "--split",
            "written1-dev",
            "--span-tagger",
            "none",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)
    dev = [g for g in _gold() if g["split"] == "written1-dev"]
    assert summary["rows"] == len(dev) and summary["rows_matched"] == len(dev)
    assert 0.0 < summary["concepts"]["f1"] <= 1.0


def test_the_builder_refuses_a_doubled_or_orphan_annotation() -> None:
    """A row annotated twice (the later one would win unseen) or an annotation of no row
    is an error, never a silent choice."""
    rows = [{"id": "r1", "split": "s", "class": "I", "level": "C", "text": "Do x."}]
    ann = {"id": "r1", "concepts": [], "actions": [], "population": []}
    with pytest.raises(ValueError, match="annotated twice"):
        build(rows, [ann, ann])
    with pytest.raises(ValueError, match="without a row"):
        build(rows, [ann, {**ann, "id": "r2"}])


def test_an_unknown_split_is_refused_with_the_known_ones() -> None:
    """A typo in one part of a list of splits would score the others alone, unseen."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "written_rows.py"),
            "--split",
            "written1-dev,nope",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "written1-dev" in done.stderr
