"""SNOMED CT store at International-release scale: load time, size, memory, search latency.

Generates a synthetic RF2 Snapshot (~370k concepts, ~1.6M descriptions, is-a depth up
to ~16 with ~1.5 parents per concept) in a temp dir, with the bundled sample's real
concepts embedded in it, then in separate child processes (so each peak RSS is its own):

1. loads it with ``cardio_assets.terminology.build.load_rf2`` (time, peak RSS, store size);
2. opens the store and grounds 1,000 realistic terms (p50/p95 per term, peak RSS);
3. grounds the same sample-derived terms against the small bundled store and reports
   how often the top candidate agrees (ranking sanity at scale).

Targets on the 2-core dev machine: load <= 5 min, peak <= 4 GB, p95 <= 10 ms.
Usage: .venv/bin/python benchmarks/snomed_scale.py [--concepts 370000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "data" / "snomed_sample"
CONCEPT_HEADER = "id\teffectiveTime\tactive\tmoduleId\tdefinitionStatusId"
DESC_HEADER = (
    "id\teffectiveTime\tactive\tmoduleId\tconceptId\tlanguageCode\ttypeId\tterm\tcaseSignificanceId"
)
REL_HEADER = "id\teffectiveTime\tactive\tmoduleId\tsourceId\tdestinationId\trelationshipGroup\ttypeId\tcharacteristicTypeId\tmodifierId"
MODULE, FSN, SYN = "900000000000207008", "900000000000003001", "900000000000013009"
TOPS = {  # real top-level concepts of the sample with the tags their descendants get
    "404684003": ["disorder", "finding"],
    "71388002": ["procedure", "regime/therapy"],
    "363787002": ["observable entity"],
    "105590001": ["substance"],
    "373873005": ["product"],
    "123037004": ["body structure", "morphologic abnormality"],
    "362981000": ["qualifier value"],
    "243796009": ["situation"],
    "254291000": ["assessment scale"],
    "260787004": ["physical object"],
}
TOP_SHARE = [0.30, 0.15, 0.05, 0.07, 0.07, 0.15, 0.05, 0.04, 0.02, 0.10]


def _words(rng: random.Random) -> list[str]:
    """Vocabulary: real words of the sample plus synthetic medical-looking stems."""
    real = set()
    for line in (
        (SAMPLE / "sct2_Description_Snapshot-en_INT_20250101.txt").read_text().splitlines()[1:]
    ):
        for w in line.split("\t")[7].lower().replace("(", " ").replace(")", " ").split():
            if w.isalpha() and len(w) > 2:
                real.add(w)
    stems = ["cardi", "hepat", "nephr", "neur", "oste", "derm", "gastr", "pulmon", "angi", "arthr",
             "my", "cyt", "hem", "lymph", "thyr", "aden", "chol", "col", "encephal", "mening"]  # fmt: skip
    suffixes = ["itis", "osis", "oma", "algia", "ectomy", "otomy", "plasty", "pathy", "emia", "uria",
                "scopy", "graphy", "ic", "al", "ous", "ase", "ine", "ide", "ate", "one"]  # fmt: skip
    mids = ["", "o", "a", "i", "ero", "ala", "ino", "ula", "emo", "oto"]
    synth = {s + m + x for s in stems for m in mids for x in suffixes}
    while len(synth) < 30000:
        synth.add(
            "".join(
                rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou")
                for _ in range(rng.randint(2, 4))
            )
        )
    return sorted(real) + sorted(synth)


def generate(out: Path, n_concepts: int, seed: int = 7) -> dict[str, int]:
    rng = random.Random(seed)
    words = _words(rng)
    # Zipf-like word frequencies: common anatomical/clinical words dominate
    weights = [1.0 / (i + 10) ** 0.9 for i in range(len(words))]
    cum = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)
    out.mkdir(parents=True, exist_ok=True)
    sample_c = (SAMPLE / "sct2_Concept_Snapshot_INT_20250101.txt").read_text().splitlines()[1:]
    sample_d = (
        (SAMPLE / "sct2_Description_Snapshot-en_INT_20250101.txt").read_text().splitlines()[1:]
    )
    sample_r = (SAMPLE / "sct2_Relationship_Snapshot_INT_20250101.txt").read_text().splitlines()[1:]
    cf = open(out / "sct2_Concept_Snapshot_INT_20990101.txt", "w")
    df = open(out / "sct2_Description_Snapshot-en_INT_20990101.txt", "w")
    rf = open(out / "sct2_Relationship_Snapshot_INT_20990101.txt", "w")
    cf.write(CONCEPT_HEADER + "\r\n")  # real releases use CRLF
    df.write(DESC_HEADER + "\r\n")
    rf.write(REL_HEADER + "\r\n")
    for line in sample_c:
        cf.write(line + "\r\n")
    for line in sample_d:
        df.write(line + "\r\n")
    for line in sample_r:
        rf.write(line + "\r\n")
    n_desc = len(sample_d)
    n_rel = len(sample_r)
    cid_next, did_next, rid_next = 800000000, 800000000, 800000000
    tops = list(TOPS)
    # level-wise tree under each top-level concept: level sizes grow ~1.9x until the
    # budget is spent, giving depths of 10-16 like the real release
    remaining = n_concepts - len(sample_c)
    by_level: dict[str, list[list[str]]] = {t: [[t]] for t in tops}
    budgets = [int(remaining * s) for s in TOP_SHARE]
    for top, budget in zip(tops, budgets, strict=True):
        levels = by_level[top]
        size = 6
        made = 0
        while made < budget:
            size = min(int(size * 1.9) + 1, budget - made)
            level = []
            prev = levels[-1]
            for _ in range(size):
                cid = str(cid_next)
                cid_next += 1
                level.append(cid)
                parents = {rng.choice(prev)}
                if len(levels) > 1 and rng.random() < 0.45:  # multiple parents
                    parents.add(rng.choice(levels[-1] if rng.random() < 0.6 else levels[-2]))
                cf.write(f"{cid}\t20990101\t1\t{MODULE}\t900000000000074008\r\n")
                n_words = rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 5, 6])
                name_words = rng.choices(words, cum_weights=cum, k=n_words)
                name = " ".join(name_words).capitalize()
                tag = rng.choice(TOPS[top])
                df.write(
                    f"{did_next}\t20990101\t1\t{MODULE}\t{cid}\ten\t{FSN}\t{name} ({tag})\t900000000000448009\r\n"
                )
                did_next += 1
                n_desc += 1
                syns = {name}
                for _ in range(rng.choice([1, 2, 3, 3, 4, 4, 5])):
                    variant = list(name_words)
                    op = rng.random()
                    if op < 0.3 and len(variant) > 1:
                        variant.pop(rng.randrange(len(variant)))
                    elif op < 0.6:
                        variant.insert(
                            rng.randrange(len(variant) + 1), rng.choices(words, cum_weights=cum)[0]
                        )
                    elif op < 0.8:
                        rng.shuffle(variant)
                    else:
                        variant.append(rng.choice(["of", "with", "due to", "in", "finding"]))
                        variant.append(rng.choices(words, cum_weights=cum)[0])
                    syns.add(" ".join(variant).capitalize())
                for syn in syns:
                    df.write(
                        f"{did_next}\t20990101\t1\t{MODULE}\t{cid}\ten\t{SYN}\t{syn}\t900000000000448009\r\n"
                    )
                    did_next += 1
                    n_desc += 1
                for p in parents:
                    rf.write(
                        f"{rid_next}\t20990101\t1\t{MODULE}\t{cid}\t{p}\t0\t116680003\t900000000000011006\t900000000000451002\r\n"
                    )
                    rid_next += 1
                    n_rel += 1
            levels.append(level)
            made += size
    for f in (cf, df, rf):
        f.close()
    depth = max(len(v) for v in by_level.values())
    return {
        "concepts": cid_next - 800000000 + len(sample_c),
        "descriptions": n_desc,
        "is_a": n_rel,
        "max_depth": depth + 1,
    }


def query_terms(n: int, seed: int = 11) -> list[tuple[str, str]]:
    """Realistic (term, role) pairs from the sample: names, abbreviations, thresholds, typos."""
    rng = random.Random(seed)
    lines = (SAMPLE / "sct2_Description_Snapshot-en_INT_20250101.txt").read_text().splitlines()[1:]
    syns = [ln.split("\t")[7] for ln in lines if ln.split("\t")[6] == SYN]
    extra = ["LVEF <= 35%", "LVEF ≤ 40 %", "eGFR < 30 mL/min/1.73 m2", "SBP >= 140 mmHg", "HFrEF",
             "CABG", "PCI", "AF", "ACS", "DAPT", "OAC", "LDL-C ≥ 1.8 mmol/L", "CKD", "NYHA class III",
             "ICD", "CRT", "MRA", "SGLT2 inhibitor", "ACE-I", "ARB", "BP", "HF", "MI", "CCS"]  # fmt: skip
    out = []
    roles = ["Condition", "ClinicalParameter", "Procedure", "Medication"]
    for i in range(n):
        if i % 5 == 0:
            term = rng.choice(extra)
        else:
            term = rng.choice(syns)
            r = rng.random()
            if r < 0.2:
                term = term.lower()
            elif r < 0.35 and len(term) > 6:  # one typo
                k = rng.randrange(1, len(term) - 1)
                term = term[:k] + term[k + 1] + term[k] + term[k + 2 :]
            elif r < 0.45:
                term = "history of " + term.lower()
        out.append((term, rng.choice(roles)))
    return out


def _child(phase: str, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--phase", phase, *args], capture_output=True, text=True
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"{phase} failed")
    sys.stderr.write(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def phase_load(rf2: str, db: str) -> dict:
    from cardio_assets.terminology.build import load_rf2

    t0 = time.monotonic()
    last = [t0]

    def progress(msg: str) -> None:
        now = time.monotonic()
        print(f"  [{now - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)
        last[0] = now

    report = load_rf2(Path(rf2), Path(db), progress=progress)
    return {
        "load_s": round(time.monotonic() - t0, 1),
        "peak_rss_mb": round(_peak_mb()),
        "db_mb": round(report.size_bytes / 1e6, 1),
        "index_mb": round(report.index_bytes / 1e6, 1),
        "counts": report.counts,
        "skips": {k: v["count"] for k, v in report.skips.items()},
    }


def phase_search(db: str, n: str) -> dict:
    from cardio_assets.config import load_abbreviations
    from cardio_assets.logic.grounding import ground_candidates
    from cardio_assets.terminology.store import SnomedStore

    t0 = time.monotonic()
    store = SnomedStore.open(Path(db))
    open_s = time.monotonic() - t0
    abbreviations = load_abbreviations()
    terms = query_terms(int(n))
    for term, role in terms[:20]:  # warm-up
        ground_candidates(term, role, store, abbreviations)
    lat = []
    cpu = []
    top1 = {}
    for term, role in terms:
        t, c = time.perf_counter(), time.thread_time()
        cands = ground_candidates(term, role, store, abbreviations)
        lat.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
        top1[term] = cands[0].concept_id if cands else None
    lat.sort()
    cpu.sort()
    return {
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_p95_ms": round(cpu[int(len(cpu) * 0.95) - 1], 2),
        "open_s": round(open_s, 2),
        "p50_ms": round(statistics.median(lat), 2),
        "p95_ms": round(lat[int(len(lat) * 0.95) - 1], 2),
        "max_ms": round(lat[-1], 2),
        "peak_rss_mb": round(_peak_mb()),
        "top1": top1,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--concepts", type=int, default=370_000)
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--keep", type=Path, default=None, help="keep the generated release here")
    ap.add_argument("--phase", default=None)
    ap.add_argument("args", nargs="*")
    opts = ap.parse_args()
    if opts.phase == "load":
        print(json.dumps(phase_load(*opts.args)))
        return
    if opts.phase == "search":
        print(json.dumps(phase_search(*opts.args)))
        return

    from cardio_assets.terminology.build import load_rf2

    work = Path(tempfile.mkdtemp(prefix="snomed-scale-"))
    try:
        rf2 = opts.keep or work / "rf2"
        t0 = time.monotonic()
        gen = generate(rf2, opts.concepts)
        print(f"generated {gen} in {time.monotonic() - t0:.0f} s at {rf2}", flush=True)
        big = work / "big.duckdb"
        small = work / "small.duckdb"
        load_rf2(SAMPLE, small)
        load = _child("load", str(rf2), str(big))
        search_big = _child("search", str(big), str(opts.queries))
        search_small = _child("search", str(small), str(opts.queries))
        agree = [
            t
            for t, c in search_small["top1"].items()
            if c is not None and search_big["top1"].get(t) == c
        ]
        grounded_small = sum(1 for c in search_small["top1"].values() if c is not None)
        print()
        print("| metric | value | target |")
        print("|---|---|---|")
        print(
            f"| synthetic release | {load['counts']['concepts']:,} concepts, {load['counts']['descriptions']:,} descriptions, {load['counts']['is_a_edges']:,} is-a, max depth {gen['max_depth']} | ~370k / ~1.6M |"
        )
        print(f"| load time | {load['load_s']} s | <= 300 s |")
        print(f"| peak RSS during load | {load['peak_rss_mb']:,} MB | <= 4,096 MB |")
        print(f"| store size | {load['db_mb']} MB DuckDB + {load['index_mb']} MB index | |")
        print(f"| store open (index load) | {search_big['open_s']} s | |")
        print(
            f"| search p50 / p95 / max ({opts.queries} terms) | {search_big['p50_ms']} / {search_big['p95_ms']} / {search_big['max_ms']} ms | p95 <= 10 ms |"
        )
        print(
            f"| search CPU time p50 / p95 (this thread only) | {search_big['cpu_p50_ms']} / {search_big['cpu_p95_ms']} ms | |"
        )
        print(f"| peak RSS while searching | {search_big['peak_rss_mb']:,} MB | <= 4,096 MB |")
        print(
            f"| same top-1 as the small store | {len(agree)}/{grounded_small} terms ({100 * len(agree) / max(grounded_small, 1):.1f} %) | same ranking |"
        )
        print(
            f"| small store p50 / p95 | {search_small['p50_ms']} / {search_small['p95_ms']} ms | |"
        )
        print(f"\nload skips: {load['skips']}")
        print(f"machine load average (1/5/15 min) at the end: {os.getloadavg()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
