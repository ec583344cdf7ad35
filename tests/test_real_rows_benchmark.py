"""The real-row benchmark's gold reader, on a corpus the team writes itself: the
per-guideline filters that let a span tagger be scored on a guideline it never saw."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_rows  # noqa: E402

# Two made-up guidelines, one recommendation table each (the team's own sentences).
CORPUS = {
    "Walking_Clubs_2031.md": [
        "|Recommendations|Class|Level|",
        "|---|---|---|",
        "|Brisk walking is advised for members with stiff knees.|I|B|",
        "|Hill routes are not advised after ankle surgery.|III|C|",
    ],
    "Rowing_Crews_2032.md": [
        "|Recommendations|Class|Level|",
        "|---|---|---|",
        "|Rowers with sore wrists may use padded grips.|IIb|C|",
    ],
}


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mddocs"
    folder.mkdir()
    gold = []
    for file, lines in CORPUS.items():
        (folder / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
        for number in range(3, len(lines) + 1):
            text = lines[number - 1].split("|")[1]
            gold.append(
                {
                    "id": f"{file}:{number}",
                    "split": "dev",
                    "file": file,
                    "line": number,
                    "sha256": hashlib.sha256(text.encode()).hexdigest(),
                }
            )
    gold_file = tmp_path / "gold.jsonl"
    gold_file.write_text("".join(json.dumps(g) + "\n" for g in gold), encoding="utf-8")
    monkeypatch.setattr(real_rows, "GOLD", gold_file)
    return folder


def _files(rows: list[tuple[dict, str]]) -> list[str]:
    return [gold["file"] for gold, _ in rows]


def test_gold_rows_of_one_guideline_or_all_but_one(corpus: Path) -> None:
    """Scoring a model on a guideline it never saw needs that guideline's rows alone, and
    training it needs every other guideline's rows; a name works with or without .md."""
    assert len(real_rows.load_gold(corpus, "dev")) == 3
    only = real_rows.load_gold(corpus, "dev", guidelines="Walking_Clubs_2031")
    assert _files(only) == ["Walking_Clubs_2031.md"] * 2
    assert only[0][1] == "Brisk walking is advised for members with stiff knees."
    without = real_rows.load_gold(corpus, "dev", leave_out_guidelines="Walking_Clubs_2031.md")
    assert _files(without) == ["Rowing_Crews_2032.md"]
    # a name with no gold rows is an error, not an empty or unfiltered set: a typo in a
    # left-out guideline would otherwise train on the rows meant to stay unseen
    with pytest.raises(SystemExit, match="no gold rows for guideline Walking_Clubs"):
        real_rows.load_gold(corpus, "dev", leave_out_guidelines="Walking_Clubs")


def test_the_benchmark_refuses_a_split_without_rows_of_the_guideline(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        real_rows.main(
            ["--corpus", str(corpus), "--split", "test", "--guideline", "Rowing_Crews_2032"]
        )
    assert refused.value.code == 2  # argparse's usage error
    assert "no gold rows in split test for --guideline Rowing_Crews_2032" in capsys.readouterr().err


def test_a_gold_row_printed_beside_another_takes_its_own_class_and_level() -> None:
    """A converter can print two recommendations on one line, each followed by its own class
    and level; the gold text is the first cell, so its class is the pair right after it, not
    the pair the line ends with. A line of one text and a class per therapy column keeps the
    last pair, as the gold was drawn."""
    from rows import class_level, own_class_level

    side_by_side = "|Hill routes may suit fit members.|IIb|C|Flat routes suit everyone.|I|A|"
    assert class_level(side_by_side) == ("I", "A")  # the line bears a class
    assert own_class_level(side_by_side) == ("IIb", "C")
    per_column = "|Members with two bad knees|I|A|III|B|"
    assert own_class_level(per_column) == ("III", "B")
    plain = "|Brisk walking is advised for members with stiff knees.|I|B|"
    assert own_class_level(plain) == ("I", "B")
    assert own_class_level("|Walking clubs|Class|Level|") is None
