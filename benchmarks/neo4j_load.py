"""Benchmark: load a synthetic 10,000-rule guideline (~65,000 relationships) into Neo4j.

Prints relationships/s of the first load and the re-load/first-load time ratio.
Targets (issue 5): >= 5,000 relationships/s; a full re-load <= 2x the first load.

    .venv/bin/python benchmarks/neo4j_load.py [--rules 10000] [--batch-size 2000]

Uses NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD when set, else the project's local launcher
(started here if it is not running, and stopped again at the end). The benchmark
guideline ``bench-synthetic`` is deleted before and after, so other data is untouched.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardio_assets import neo4j_local  # noqa: E402
from cardio_assets.logic import neo4j_graph as graph  # noqa: E402
from cardio_assets.logic.synthetic_rules import synthetic_rules  # noqa: E402
from resources.neo4j_resource import Neo4jResource  # noqa: E402

GUIDELINE = "bench-synthetic"
WARMUP = "bench-warmup"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--batch-size", type=int, default=graph.DEFAULT_BATCH_SIZE)
    parser.add_argument(
        "--warmup-rules",
        type=int,
        default=1000,
        help="rules of another guideline loaded and deleted first, so JIT compilation and "
        "query planning of a freshly started JVM are not billed to the measured load",
    )
    parser.add_argument("--no-warmup", action="store_true", help="same as --warmup-rules 0")
    args = parser.parse_args()

    started_here = False
    warmup_rules = 0
    if not os.environ.get("NEO4J_URI") and not neo4j_local.status().ready:
        print("starting the local Neo4j launcher ...", flush=True)
        neo4j_local.start()
        started_here = True
    resource = Neo4jResource(
        uri=os.environ.get("NEO4J_URI") or None,
        user=os.environ.get("NEO4J_USER", "neo4j"),
        password=os.environ.get("NEO4J_PASSWORD") or None,
    )
    try:
        t0 = time.perf_counter()
        rules = synthetic_rules(GUIDELINE, args.rules, seed=42, concept_pool=500)
        print(f"generated {len(rules)} synthetic rules in {time.perf_counter() - t0:.1f}s")
        print(f"neo4j: {resource.settings().describe()}")
        with resource.driver() as driver:
            graph.delete_guideline(driver, GUIDELINE)
            graph.ensure_schema(driver)
            warmup_rules = 0 if args.no_warmup else args.warmup_rules
            if warmup_rules:
                warm = synthetic_rules(WARMUP, warmup_rules, seed=7, concept_pool=100)
                graph.load_guideline(driver, WARMUP, warm, batch_size=args.batch_size)
                graph.delete_guideline(driver, WARMUP)
            first = graph.load_guideline(driver, GUIDELINE, rules, batch_size=args.batch_size)
            again = graph.load_guideline(driver, GUIDELINE, rules, batch_size=args.batch_size)
            counts = graph.graph_counts(driver, GUIDELINE)
            graph.delete_guideline(driver, GUIDELINE)
    finally:
        if started_here:
            neo4j_local.stop()

    rels = first.relationships_written
    in_graph = sum(counts["relationships"].values())
    print(f"JVM warm-up:               {warmup_rules:,} rules of another guideline")
    print(f"batch size:                {args.batch_size}")
    print(f"rules loaded:              {first.rules_loaded}")
    print(f"relationships written:     {rels} (in graph after re-load: {in_graph})")
    print(f"nodes written:             {first.nodes_written} (+ shared concepts)")
    print(f"first load, total:         {first.total_seconds:.2f}s  phases {first.phases}")
    print(f"first load, rel/s (total): {rels / first.total_seconds:,.0f}")
    print(f"first load, rel/s (write): {rels / first.write_seconds:,.0f}")
    print(f"re-load, total:            {again.total_seconds:.2f}s  phases {again.phases}")
    ratio = again.total_seconds / first.total_seconds
    print(f"re-load / first load:      {ratio:.2f}x (target <= 2x)")
    print(
        f"target >= 5,000 rel/s:     {'met' if rels / first.total_seconds >= 5000 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
