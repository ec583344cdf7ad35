"""Choose the real-row gold rows (run once, before any extraction rule was changed).

    .venv/bin/python data/gold/real_rows/select_rows.py --corpus DIR \
        [--write-locators data/gold/real_rows/locators.jsonl] [--annotation-rows OUT.jsonl]

DIR is the fetched ``mddocs/`` folder of the development corpus (real-ingestion issue);
only the 15 development files listed in DEVELOPMENT_FILES are read. Rows are
class/level-bearing pipe-table lines (rows.py), drawn with a fixed seed: a quota per
guideline, hard rows first for part of it, bullet rows with their stem, every table shape.
Each row is tagged (hard features, table shape) and split once into dev (~2/3) and test
(~1/3), stratified by guideline. The locators (no text) are committed; the annotation rows
(with text) go to a file outside the repository for the annotators.

``--second-blind data/gold/real_rows/locators.jsonl`` chose the second blind split
(``blind2``, 70 rows, 2026-12-02): rows none of the earlier 168 hold, five per guideline,
annotated by two helper sessions that saw only the contract and the rows, reconciled by a
third, committed before the first score. Its locators follow the first 168 in locators.jsonl.
``--third-blind`` chose ``blind3`` the same way (39 rows, three per guideline from the 13
files with new rows left, seventh session), after blind2 had been scored once and joined the
development rows. ``--blind blind4 LOCATORS`` chose ``blind4`` (eighth session, four per
guideline), after blind3 had been scored and while it stayed held out, and ``--blind blind5``
the same session's last split, after blind4 had been scored once; ``--blind blind6`` the
ninth session's, drawn at its start before any rule changed, and ``--blind blind7`` the
tenth session's the same way, and ``--blind blind8`` that session's second, after blind7 had
been scored once, and ``--blind blind9`` its third, after blind8's single score;
``--blind blind10`` the eleventh session's, drawn at its start before any rule changed, and
``--blind blind11`` its second, drawn while the session's first rules were being written
(before blind10 was scored), and ``--blind blind12`` its third, drawn after its last rule
change to give the session's end state one more first score; any later split is one more
entry of BLIND_SPLITS.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rows import (  # noqa: E402
    bullet_items,
    class_level,
    first_cell,
    own_class_level,
    read_lines,
    row_text,
    sha256,
)

from cardio_assets.logic.row_text import split_references  # noqa: E402

DEVELOPMENT_FILES = [
    "Acute_Pulmonary_Embolism_2019.md",
    "Adult_Congenital_Heart_Disease_2020.md",
    "CVD_Prevention_2021.md",
    "CVD_and_Diabetes_2023.md",
    "Cardiac_Pacing_&_CRT_2021.md",
    "Cardio_oncology_2022.md",
    "Cardiovascular_Diseases_during_Pregnancy_2018.md",
    "ESC:EACTS_Myocardial_Revascularization_2018.md",
    "Fourth_Universal_Definition_of_Myocardial_Infarction_2018.md",
    "Non_CardiacSurgery_Cardiovascular_Assessment_and_Management_2022.md",
    "Pericardial_Disease_2018.md",
    "Peripheral_Arterial_&_Aortic_Diseases_2024.md",
    "Sports_Cardiology_and_Exercise_in_Patients_with_CVD_2020.md",
    "Supraventricular_Tachycardia_2019.md",
    "Syncope_2018.md",
]
SEED = 20261201
PER_GUIDELINE = 12
TEST_SHARE = 1 / 3
# A blind split of new rows, every one of them held out: (seed, rows per guideline). blind2
# (2026-12-02) came after the first test split had been scored and the rules tuned on the
# development split; blind3 (2026-12-02, seventh session) after blind2 had been scored once
# and joined the development rows, before that session's extraction rules; blind4 (eighth
# session) after blind3 had been scored, before that session's rules were measured; blind5
# (same session) after blind4 had been scored once and joined the development rows; blind6
# (ninth session) after blind5 had been scored once and joined them, before that session's rules;
# blind7 (tenth session) likewise after blind6's single score, before that session's rules;
# blind8 (same session) after blind7 had been scored once and joined the development rows;
# blind9 (same session) likewise after blind8's single score; blind10 (eleventh session) at
# that session's start, after blind7..blind9 had each been scored once; blind11 (same
# session) during its first batch of rules, before blind10's single score; blind12 (same
# session) after the session's last rule change; blind13 and blind14 (twelfth session) both at
# that session's start, before any rule changed or any unannotated row was listed; blind15 and
# blind16 (thirteenth session) likewise at its start, before any change; blind17 and blind18
# (fourteenth session) likewise at its start, before any change; blind19 (same session) after
# blind17's single score, during that session's rules, to be scored once at its end; blind20
# and blind21 (fifteenth session) at that session's start, before any change; blind22 and
# blind23 (sixteenth session) likewise at its start, before any change; blind24 and blind25
# (seventeenth session) likewise at its start, before any change; blind26 and blind27
# (eighteenth session) likewise at its start, before any change (nine guidelines still have
# rows left that repeat no annotated one); blind28 (same session) after its last rule change,
# to give the session's end state one more first score; blind29 (nineteenth session) at its
# start, before any change to the rules or the span tagger (seven guidelines have rows left);
# blind30 and blind31 (twentieth session) likewise at its start, before any change;
# blind32 and blind33 (same session) after its change to the tagger's training (8d1f757), for
# one more first score of the session's end state (review fixes followed before any score);
# blind34 and blind35 (twenty-first session) at its start, before any change; blind36 and
# blind37 (twenty-second session) likewise at its start, before any change; blind38 and
# blind39 (twenty-third session) likewise at its start, before any change; blind40
# (twenty-fourth session) likewise at its start, before any change (three guidelines have rows
# left); blind41 (same session) after its first ten changes to the rules and the ingestion, to
# give them a first score; blind42 (twenty-fifth session) at its start, before any change;
# blind43 (same session) after its first thirteen changes to the rules, to give them a first
# score; blind44 (same session) after eighteen more, likewise; blind45 (twenty-sixth session)
# at its start, before any change; blind46 (same session) after its first five changes to
# the rules (and the gold's class reading), to give them a first score; blind47 (same
# session) after eleven more, likewise; blind48 (same session) after six more, likewise;
# blind49 (twenty-seventh session) at its start, before any change; blind50 (same session)
# after its first seventeen commits changing the rules and the ingestion, to give them a first
# score; blind51 (same session) after eleven more, likewise; blind52 (twenty-eighth session)
# at its start, before any change; blind53 (same session) after its first five commits changing
# the rules, to give them a first score; blind54 (same session) after four more, likewise;
# blind55 (same session) after eight more and the review's narrowing of them, likewise;
# blind56 (twenty-ninth session) at its start, before any change; blind57 (same session)
# after its first six commits changing the rules and the ingestion, to give them a first score;
# blind58 (same session) after four more and the review's narrowing of them, likewise;
# blind59 (same session) after eight more and a second review's narrowing, likewise; blind60
# (thirtieth session) at its start, before any change; blind61 (same session) after its
# first four rule commits and the review's narrowing of them, to give them a first score;
# blind62 (same session) after four more, a second review's narrowing and a behaviour-free
# split of measurements.py, likewise (the draw commits' messages counted these as five and
# six); blind63 (same session) after one more rule commit, likewise; blind64 (same
# session) after three more, likewise; blind65 (thirty-first session) at its start, before
# any change; blind66 (same session) after its first three rule commits and one ingestion
# commit, to give them a first score; blind67 (same session) after three more, the review's
# narrowing of the rules and the review's narrowing of the ingestion commit, likewise (up to
# 10 rows a guideline: at 4, the near-duplicate filter left 2 rows of the nearly used-up pool);
# blind68 (same session) after two more rule commits and a second review's narrowing, with
# what is left of the pool (up to 20 rows a guideline).
BLIND_SPLITS = {
    "blind2": (20261202, 5),
    "blind3": (20261203, 3),
    "blind4": (20261204, 4),
    "blind5": (20261205, 4),
    "blind6": (20261206, 4),
    "blind7": (20261207, 4),
    "blind8": (20261208, 4),
    "blind9": (20261209, 4),
    "blind10": (20261210, 4),
    "blind11": (20261211, 4),
    "blind12": (20261212, 4),
    "blind13": (20261213, 4),
    "blind14": (20261214, 4),
    "blind15": (20261215, 4),
    "blind16": (20261216, 4),
    "blind17": (20261217, 4),
    "blind18": (20261218, 4),
    "blind19": (20261219, 4),
    "blind20": (20261220, 4),
    "blind21": (20261221, 4),
    "blind22": (20261222, 4),
    "blind23": (20261223, 4),
    "blind24": (20261224, 4),
    "blind25": (20261225, 4),
    "blind26": (20261226, 4),
    "blind27": (20261227, 4),
    "blind28": (20261228, 4),
    "blind29": (20261229, 4),
    "blind30": (20261230, 4),
    "blind31": (20261231, 4),
    "blind32": (20261232, 4),
    "blind33": (20261233, 4),
    "blind34": (20261234, 4),
    "blind35": (20261235, 4),
    "blind36": (20261236, 4),
    "blind37": (20261237, 4),
    "blind38": (20261238, 4),
    "blind39": (20261239, 4),
    "blind40": (20261240, 4),
    "blind41": (20261241, 4),
    "blind42": (20261242, 4),
    "blind43": (20261243, 4),
    "blind44": (20261244, 4),
    "blind45": (20261245, 4),
    "blind46": (20261246, 4),
    "blind47": (20261247, 4),
    "blind48": (20261248, 4),
    "blind49": (20261249, 4),
    "blind50": (20261250, 4),
    "blind51": (20261251, 4),
    "blind52": (20261252, 4),
    "blind53": (20261253, 4),
    "blind54": (20261254, 4),
    "blind55": (20261255, 4),
    "blind56": (20261256, 4),
    "blind57": (20261257, 4),
    "blind58": (20261258, 4),
    "blind59": (20261259, 4),
    "blind60": (20261260, 4),
    "blind61": (20261261, 4),
    "blind62": (20261262, 4),
    "blind63": (20261263, 4),
    "blind64": (20261264, 4),
    "blind65": (20261265, 4),
    "blind66": (20261266, 4),
    "blind67": (20261267, 10),
    "blind68": (20261268, 20),
}
# From this split on, a row whose words nearly repeat a row already taken (the same
# recommendation printed again with another footnote letter or one word changed) is not drawn:
# scoring it would partly re-score a row the rules were already tuned on. Earlier splits keep
# the exact-text rule they were drawn with, so their locators still reproduce.
NEAR_DUPLICATE_FROM = "blind13"
NEAR_DUPLICATE_JACCARD = 0.8
# From this split on, a drawn row whose words nearly repeat a taken row or a row drawn before
# it, once the citation numbers at the rows' ends are left out, is dropped after the draw (its
# id stays unused): a recommendation printed once with its references and once without them
# had slipped through (blind38 and blind39 held such a pair). Dropping after the draw leaves
# the draw itself, and so the earlier splits, as they were.
NEAR_DUPLICATE_WITHOUT_REFERENCES_FROM = "blind39"
SPLITS = ("dev", "test", *BLIND_SPLITS)  # in the order they were chosen

_UNIT = r"(?:%|mmHg|mmol/L|mg/dL|mL/min|ms|kg/m|ng/mL|pg/mL|b\.p\.m\.|bpm|m/s|years?|h\b|hours?|days?|weeks?|months?|mm\b|cm|g/dL|µmol/L|IU)"
HARD_FEATURES = {
    "parameter": re.compile(r"[<>≤≥]\s?_?\s?\d|\d\s?" + _UNIT),
    "range": re.compile(r"\d\s?[-–—]\s?\d|\bbetween\b.+\band\b|\d\s+to\s+\d"),
    "dual_unit": re.compile(
        r"\d\s?(?:mmol/L|mg/dL|µmol/L|kg)\b.{0,25}\d\s?(?:mmol/L|mg/dL|µmol/L|lb)"
    ),
    "exception": re.compile(
        r"\b(?:unless|except|with the exception|other than|without|in the absence)\b", re.I
    ),
    "nested_logic": re.compile(
        r"\bor\b.+\band\b.+\bor\b|\band\b.+\bor\b.+\band\b|\band/or\b", re.I
    ),
    "drug_list": re.compile(
        r"(?:\w+(?:grel|gliflozin|statin|sartan|pril|olol|parin|xaban|gatran|mab|glutide)\b.*){2,}",
        re.I,
    ),
    # a footnote letter glued to an acronym ("HBRc"), after a comma ("HBR,c") or in a run
    # after the full stop ("death.c,d")
    "glued_marker": re.compile(
        r"\b[A-Z]{2,}[a-h]\b|[A-Za-z],[a-h](?:,[a-h])*\b|\.[a-h](?:,[a-h])+\b"
    ),
    "abbreviation": re.compile(r"\b[A-Z][A-Z0-9]{1,}[a-z]?\b.*\b[A-Z][A-Z0-9]{1,}\b"),
}


def _table_shape(lines: list[str], index: int) -> str:
    filled = [c for c in lines[index].strip().strip("|").split("|") if c.strip()]
    next_line = lines[index + 1].strip() if index + 1 < len(lines) else ""
    if re.fullmatch(r"\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*\|?", next_line):
        return "header_row_is_data"
    if len(filled) >= 6:
        return "side_by_side"
    if len(filled) >= 4:
        return "wide"
    return "three_column"


def _stem_line(lines: list[str], index: int) -> int | None:
    """1-based line of the stem a bullet row continues, or None."""
    text = first_cell(lines[index])
    if not re.match(r"^(?:[•·\-–]|[a-z])", text):
        return None
    j = index - 1
    while j >= 0 and lines[j].lstrip().startswith("|"):
        previous = first_cell(lines[j])
        if previous and ":" in previous and not re.match(r"^(?:[•·\-–])", previous):
            return j + 1
        j -= 1
    return None


def candidates(corpus: Path) -> list[dict]:
    found = []
    for file in DEVELOPMENT_FILES:
        path = corpus / file
        if not path.is_file():
            print(f"missing development file: {path}", file=sys.stderr)
            continue
        lines = read_lines(corpus, file)
        seen: set[str] = set()
        # a merged "stem: • a • b" cell that a converter repeated on each class-bearing row it
        # spans: the k-th repetition is the k-th item (when the counts agree)
        repeats: dict[int, tuple[int, int]] = {}
        index = 0
        while index < len(lines):
            cell = first_cell(lines[index]) if lines[index].lstrip().startswith("|") else ""
            end = index
            while (
                end + 1 < len(lines)
                and lines[end + 1].lstrip().startswith("|")
                and first_cell(lines[end + 1]) == cell
            ):
                end += 1
            bearing = [i for i in range(index, end + 1) if class_level(lines[i])]
            if cell and len(bearing) >= 2 and len(bullet_items(cell)[1]) == len(bearing):
                for k, i in enumerate(bearing, 1):
                    repeats[i] = (k, len(bearing))
            index = end + 1
        for index, line in enumerate(lines):
            if not line.lstrip().startswith("|"):
                continue
            pair = own_class_level(line)
            if pair is None:
                continue
            bullet = repeats.get(index, (None, 0))[0]
            stem = None if bullet else _stem_line(lines, index)
            text = row_text(lines, index + 1, stem, bullet)
            if len(text) < 25 or text in seen:
                continue
            seen.add(text)
            tags = [name for name, rx in HARD_FEATURES.items() if rx.search(text)]
            shape = "stem_bullet" if stem or bullet else _table_shape(lines, index)
            found.append(
                {
                    "file": file,
                    "line": index + 1,
                    "stem_line": stem,
                    "bullet": bullet,
                    "sha256": sha256(text),
                    "class": pair[0],
                    "level": pair[1],
                    "shape": shape,
                    "tags": tags,
                    "hard": len(tags) >= 2 or shape in ("stem_bullet", "side_by_side"),
                    "text": text,
                }
            )
    return found


def choose(rows: list[dict]) -> list[dict]:
    rng = random.Random(SEED)
    by_file: dict[str, list[dict]] = {}
    for row in rows:
        by_file.setdefault(row["file"], []).append(row)
    chosen = []
    for file in DEVELOPMENT_FILES:
        pool = by_file.get(file, [])
        rng.shuffle(pool)
        picked: list[dict] = []
        # rare table shapes first (one each when present), then hard rows, then any
        for shape in ("stem_bullet", "side_by_side", "header_row_is_data", "wide"):
            extra = next((r for r in pool if r["shape"] == shape and r not in picked), None)
            if extra is not None:
                picked.append(extra)
        hard = [r for r in pool if r["hard"] and r not in picked]
        picked += hard[: PER_GUIDELINE // 2 - len(picked) + 2]
        rest = [r for r in pool if r not in picked]
        picked += rest[: max(0, PER_GUIDELINE - len(picked))]
        chosen += picked[:PER_GUIDELINE]
    split_rng = random.Random(SEED + 1)
    for file in DEVELOPMENT_FILES:
        group = [r for r in chosen if r["file"] == file]
        split_rng.shuffle(group)
        n_test = round(len(group) * TEST_SHARE)
        for position, row in enumerate(group):
            row["split"] = "test" if position < n_test else "dev"
    for number, row in enumerate(chosen, 1):
        row["id"] = f"real-{number:03d}"
    return chosen


def _words(text: str, without_references: bool = False) -> frozenset[str]:
    if without_references:
        text = split_references(text)[0]
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


def _near_any(words: frozenset[str], others: list[frozenset[str]]) -> bool:
    """True when ``words`` shares at least NEAR_DUPLICATE_JACCARD of its union with one of
    ``others`` (word sets, so footnote letters and reordered clauses barely count)."""
    for other in others:
        union = len(words | other)
        if union and len(words & other) / union >= NEAR_DUPLICATE_JACCARD:
            return True
    return False


def choose_blind(rows: list[dict], taken: list[dict], first_number: int, split: str) -> list[dict]:
    """A fresh blind split: rows of the development files that no earlier gold row holds
    (by text), a few per guideline (one of a rare table shape when there is one, two hard
    ones, the rest drawn at random), all of them in ``split``."""
    seed, per_guideline = BLIND_SPLITS[split]
    rng = random.Random(seed)
    seen = {row["sha256"] for row in taken}
    fresh = [row for row in rows if row["sha256"] not in seen]
    if SPLITS.index(split) >= SPLITS.index(NEAR_DUPLICATE_FROM):
        taken_words = [_words(row["text"]) for row in rows if row["sha256"] in seen]
        fresh = [row for row in fresh if not _near_any(_words(row["text"]), taken_words)]
    by_file: dict[str, list[dict]] = {}
    for row in fresh:
        by_file.setdefault(row["file"], []).append(row)
    chosen = []
    for file in DEVELOPMENT_FILES:
        pool = by_file.get(file, [])
        rng.shuffle(pool)
        rare = [r for r in pool if r["shape"] != "three_column"]
        picked = rare[:1]
        picked += [r for r in pool if r["hard"] and r not in picked][:2]
        picked += [r for r in pool if r not in picked][: max(0, per_guideline - len(picked))]
        chosen += picked[:per_guideline]
    for number, row in enumerate(chosen, first_number):
        row["id"] = f"real-{number:03d}"
        row["split"] = split
    if SPLITS.index(split) >= SPLITS.index(NEAR_DUPLICATE_WITHOUT_REFERENCES_FROM):
        kept_words = [_words(row["text"], True) for row in rows if row["sha256"] in seen]
        kept = []
        for row in chosen:
            words = _words(row["text"], True)
            if not _near_any(words, kept_words):
                kept.append(row)
                kept_words.append(words)
        chosen = kept
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--write-locators", type=Path)
    parser.add_argument(
        "--annotation-rows", type=Path, help="rows WITH text: keep outside the repo"
    )
    parser.add_argument(
        "--second-blind",
        type=Path,
        metavar="LOCATORS",
        help="choose the blind2 split instead: new rows, none of those in LOCATORS",
    )
    parser.add_argument(
        "--third-blind",
        type=Path,
        metavar="LOCATORS",
        help="choose the blind3 split instead: new rows, none of those in LOCATORS",
    )
    parser.add_argument(
        "--blind",
        nargs=2,
        metavar=("SPLIT", "LOCATORS"),
        help="choose that blind split (one of BLIND_SPLITS): new rows, none of those in LOCATORS",
    )
    args = parser.parse_args(argv)
    blind = [(args.second_blind, "blind2"), (args.third_blind, "blind3")]
    if args.blind:
        split, path = args.blind
        if split not in BLIND_SPLITS:
            parser.error(f"--blind {split}: not one of {', '.join(BLIND_SPLITS)}")
        blind.append((Path(path), split))
    given = [(path, split) for path, split in blind if path]
    if given:
        path, split = given[0]
        taken = [json.loads(line) for line in path.read_text().splitlines() if line]
        # each split comes after the earlier ones: rows of those only (the file also holds
        # later ones once they are appended)
        taken = [r for r in taken if SPLITS.index(r["split"]) < SPLITS.index(split)]
        # numbering goes on after the highest id taken: a row dropped after its draw leaves
        # its id unused, so the count of taken rows would reuse one (blind39 left one)
        first_number = 1 + max((int(r["id"].split("-")[1]) for r in taken), default=0)
        chosen = choose_blind(candidates(args.corpus), taken, first_number, split)
    else:
        chosen = choose(candidates(args.corpus))
    keys = (
        "id",
        "file",
        "line",
        "stem_line",
        "bullet",
        "sha256",
        "class",
        "level",
        "shape",
        "tags",
        "hard",
        "split",
    )
    if args.write_locators:
        with args.write_locators.open("w", encoding="utf-8") as fh:
            for row in chosen:
                fh.write(json.dumps({k: row[k] for k in keys}, ensure_ascii=False) + "\n")
    if args.annotation_rows:
        with args.annotation_rows.open("w", encoding="utf-8") as fh:
            for row in chosen:
                fh.write(
                    json.dumps(
                        {
                            "id": row["id"],
                            "class": row["class"],
                            "level": row["level"],
                            "text": row["text"],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
    files = {r["file"] for r in chosen}
    print(
        f"{len(chosen)} rows from {len(files)} guidelines; hard {sum(r['hard'] for r in chosen)}; "
        + ", ".join(f"{split} {sum(r['split'] == split for r in chosen)}" for split in SPLITS)
        + "; "
        "shapes "
        + ", ".join(
            f"{s} {sum(r['shape'] == s for r in chosen)}"
            for s in ("three_column", "header_row_is_data", "wide", "side_by_side", "stem_bullet")
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
