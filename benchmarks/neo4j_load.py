"""Benchmark: load a synthetic 10,000-rule guideline (~65,000 relationships) into Neo4j.

Prints, per round and as the median over rounds, relationships/s of the first load (end to
end: validation, flattening, writing, verifying, switching) and the re-load/first-load time
ratio. Targets (issue 5): >= 5,000 relationships/s; a full re-load <= 2x the first load.

    .venv/bin/python benchmarks/neo4j_load.py [--rounds 3] [--rules 10000] [--batch-size 2000]

JVM throughput is measured the way JMH does it: a warm-up iteration first (by default a
load of another guideline of the same size, deleted again), then the measured rounds on
the same server. The warm-up load is itself reported: on a freshly started local JVM it is
the cold-start figure (JIT compilation competes with the load for the CPU).

Uses NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD when set, or a local launcher that is already
running, as they are; otherwise starts a fresh local JVM and stops it at the end. The
benchmark guidelines are deleted before and after; other data is untouched. Shared
machines are noisy: compare medians, and runs made minutes apart.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardio_assets import neo4j_local  # noqa: E402
from cardio_assets.logic import neo4j_graph as graph  # noqa: E402
from cardio_assets.logic.synthetic_rules import synthetic_rules  # noqa: E402
from resources.neo4j_resource import Neo4jResource, neo4j_resource_from_env  # noqa: E402

GUIDELINE = "bench-synthetic"
WARMUP = "bench-warmup"
TARGET_RATE = 5000
TARGET_RELOAD_RATIO = 2.0


@dataclass
class Round:
    first: graph.LoadResult
    again: graph.LoadResult
    in_graph: int

    @property
    def rate(self) -> float:
        return self.first.relationships_written / self.first.total_seconds

    @property
    def write_rate(self) -> float:
        return self.first.relationships_written / self.first.write_seconds

    @property
    def ratio(self) -> float:
        return self.again.total_seconds / self.first.total_seconds


def measured_round(resource: Neo4jResource, rules: list, options: dict) -> Round:
    with resource.driver() as driver:
        graph.delete_guideline(driver, GUIDELINE)
        first = graph.load_guideline(driver, GUIDELINE, rules, **options)
        again = graph.load_guideline(driver, GUIDELINE, rules, **options)
        counts = graph.graph_counts(driver, GUIDELINE)
        graph.delete_guideline(driver, GUIDELINE)
    return Round(first, again, sum(counts["relationships"].values()))


def warm_up(resource: Neo4jResource, rules: list, options: dict) -> graph.LoadResult | None:
    """Load and delete another guideline of the same shape: JMH-style warm-up iteration."""
    if not rules:
        return None
    with resource.driver() as driver:
        graph.delete_guideline(driver, WARMUP)
        graph.ensure_schema(driver)
        result = graph.load_guideline(driver, WARMUP, rules, **options)
        graph.delete_guideline(driver, WARMUP)
    return result


def rate(result: graph.LoadResult) -> float:
    return result.relationships_written / result.total_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--batch-size", type=int, default=graph.DEFAULT_BATCH_SIZE)
    parser.add_argument("--rounds", type=int, default=3, help="report the median of N rounds")
    parser.add_argument(
        "--writers", type=int, default=graph.DEFAULT_WRITERS, help="chunks written at once"
    )
    parser.add_argument(
        "--warmup-rules",
        type=int,
        default=None,
        help="rules of the warm-up guideline (default: as many as --rules; 0: none)",
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    warmup_rules = args.rules if args.warmup_rules is None else args.warmup_rules
    options = {"batch_size": args.batch_size, "writers": args.writers}

    # A server already running (NEO4J_URI, or a local launcher someone started) is used as
    # it is and left running; otherwise a fresh local JVM is started here and stopped again.
    external = bool(os.environ.get("NEO4J_URI")) or neo4j_local.status().ready
    resource = neo4j_resource_from_env(resolved=True)  # NEO4J_DATABASE too
    t0 = time.perf_counter()
    # the same generator for both: the warm-up load does exactly the measured load's work
    rules = synthetic_rules(GUIDELINE, args.rules, seed=42, concept_pool=500)
    warm = synthetic_rules(WARMUP, warmup_rules, seed=42, concept_pool=500)
    print(f"generated {len(rules)} synthetic rules in {time.perf_counter() - t0:.1f}s")
    print(
        f"server: {'already running, used as it is' if external else 'local launcher, fresh JVM'}"
        f"; warm-up {warmup_rules:,} rules; {args.rounds} measured rounds; "
        f"batch size {args.batch_size}; {args.writers} writers",
        flush=True,
    )
    if not external:
        neo4j_local.start()
    try:
        warm_result = warm_up(resource, warm, options)
        if warm_result is not None:
            print(
                f"warm-up load{' (fresh JVM)' if not external else ''}: "
                f"{warm_result.total_seconds:.2f}s = {rate(warm_result):,.0f} rel/s; "
                f"phases {warm_result.phases}",
                flush=True,
            )
        rounds: list[Round] = []
        for number in range(1, args.rounds + 1):
            r = measured_round(resource, rules, options)
            rounds.append(r)
            print(
                f"round {number}: first load {r.first.total_seconds:.2f}s = {r.rate:,.0f} rel/s "
                f"(write {r.write_rate:,.0f}/s), re-load {r.again.total_seconds:.2f}s = "
                f"{r.ratio:.2f}x; phases {r.first.phases}; re-load phases {r.again.phases}",
                flush=True,
            )
    finally:
        if not external:
            neo4j_local.stop()

    first = rounds[0].first
    median_rate = statistics.median(r.rate for r in rounds)
    ratio = statistics.median(r.ratio for r in rounds)
    print(f"rules loaded:                {first.rules_loaded}")
    print(
        f"relationships written:       {first.relationships_written} "
        f"(in graph after re-load: {rounds[0].in_graph})"
    )
    print(f"nodes written:               {first.nodes_written} (+ shared concepts)")
    if warm_result is not None and not external:
        print(f"fresh JVM, first load:       {rate(warm_result):,.0f} rel/s (the warm-up load)")
    print(
        f"first load, rel/s (total):   median {median_rate:,.0f}  "
        f"(min {min(r.rate for r in rounds):,.0f}, max {max(r.rate for r in rounds):,.0f})"
    )
    print(
        "first load, rel/s (write):   median "
        f"{statistics.median(r.write_rate for r in rounds):,.0f}"
    )
    print(f"re-load / first load:        median {ratio:.2f}x (target <= {TARGET_RELOAD_RATIO:g}x)")
    print(
        f"target >= {TARGET_RATE:,} rel/s:       "
        f"{'met' if median_rate >= TARGET_RATE else 'NOT met'} (median of {len(rounds)} rounds "
        f"after a {warmup_rules:,}-rule warm-up)"
    )


if __name__ == "__main__":
    main()
