"""Build the team-written row gold from its rows and reconciled annotations (by hand).

    .venv/bin/python data/gold/written_rows/build_written_gold.py

The rows (rows.jsonl: id, class, level, text) are recommendation sentences the team wrote
in its own words in the manner of guideline tables, so unlike the real-row gold their text
is committed. annotations.jsonl holds the reconciled annotations of two annotators who
never saw the extraction code (spans as text, the real-row gold's annotation format); this
script turns them into gold.jsonl (offsets into the text, the real-row gold's fields, plus
the text and the split the rows were written for).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # (the annotation-to-gold step both golds share)

from gold_annotations import annotation_fields  # noqa: E402


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def build(rows: list[dict], annotations: list[dict]) -> list[dict]:
    """One gold line per row, in the rows' order: every row annotated once, in a split, and
    every annotation a row's."""
    by_id: dict[str, dict] = {}
    for ann in annotations:
        if ann["id"] in by_id:
            raise ValueError(f"{ann['id']}: annotated twice")
        by_id[ann["id"]] = ann
    missing = [row["id"] for row in rows if row["id"] not in by_id]
    if missing:
        raise ValueError(f"rows without an annotation: {', '.join(missing)}")
    orphans = sorted(set(by_id) - {row["id"] for row in rows})
    if orphans:
        raise ValueError(f"annotations without a row: {', '.join(orphans)}")
    no_split = [row["id"] for row in rows if not row.get("split")]
    if no_split:
        raise ValueError(f"rows without a split: {', '.join(no_split)}")
    return [
        {
            "id": row["id"],
            "split": row["split"],
            "class": row["class"],
            "level": row["level"],
            "text": row["text"],
        }
        | annotation_fields(by_id[row["id"]], row["text"])
        for row in rows
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=Path, default=HERE / "rows.jsonl")
    parser.add_argument("--annotations", type=Path, default=HERE / "annotations.jsonl")
    parser.add_argument("--out", type=Path, default=HERE / "gold.jsonl")
    args = parser.parse_args(argv)
    gold = build(read_jsonl(args.rows), read_jsonl(args.annotations))
    args.out.write_text(
        "".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gold), encoding="utf-8"
    )
    concepts = sum(len(g["concepts"]) for g in gold)
    print(f"{len(gold)} rows, {concepts} concepts -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
