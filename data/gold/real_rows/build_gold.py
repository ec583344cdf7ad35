"""Build the committed real-row gold from the annotators' files (run once, by hand).

    .venv/bin/python data/gold/real_rows/build_gold.py --corpus DIR --annotations FILE \
        [--out data/gold/real_rows/gold.jsonl]

FILE holds the reviewed annotations (one JSON line per row, spans as text, as the
annotation instructions ask); it quotes guideline text and so stays outside the repository.
The committed gold keeps, per row, its locator (locators.jsonl: file, line, stem line or
bullet, sha256 of the row text) and, per concept, character offsets into the row text
instead of the span, plus roles, functions, normalized names, parameter values, OR labels,
negation, logic, population and SNOMED CT ids with their status. The short normalized
names are committed; no row text is.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # (the annotation-to-gold step both golds share)

from gold_annotations import annotation_fields  # noqa: E402
from rows import read_lines, row_text, sha256  # noqa: E402


def build(corpus: Path, annotations: Path) -> list[dict]:
    locators = {
        row["id"]: row
        for row in map(json.loads, (HERE / "locators.jsonl").read_text().splitlines())
    }
    out = []
    cache: dict[str, list[str]] = {}
    for line in annotations.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        ann = json.loads(line)
        loc = locators[ann["id"]]
        lines = cache.setdefault(loc["file"], read_lines(corpus, loc["file"]))
        text = row_text(lines, loc["line"], loc.get("stem_line"), loc.get("bullet"))
        if sha256(text) != loc["sha256"]:
            raise ValueError(f"{ann['id']}: row text changed (sha256 differs): wrong corpus?")
        out.append(
            {
                "id": ann["id"],
                "file": loc["file"],
                "line": loc["line"],
                "stem_line": loc.get("stem_line"),
                "bullet": loc.get("bullet"),
                "sha256": loc["sha256"],
                "split": loc["split"],
                "class": loc["class"],
                "level": loc["level"],
            }
            | annotation_fields(ann, text)
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--annotations", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=HERE / "gold.jsonl")
    args = parser.parse_args(argv)
    rows = build(args.corpus, args.annotations)
    with args.out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    concepts = sum(len(r["concepts"]) for r in rows)
    print(f"{len(rows)} rows, {concepts} concepts -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
