"""Benchmark: `cardio ask` for 1,000 generated patients over all sample guidelines.

Each patient is a small form drawn (fixed seed) from what the rules test: condition SCTIDs
and names (some absent), parameters near their thresholds, in the rule's unit or another
one (% vs 1, ms vs s, LDL-C mmol/L vs mg/dL), a blood pressure pair, an age. Per patient
it times: reading + grounding the facts (shared by both engines), then the Python engine
(extracted_rules from the DuckDB warehouse) and the Cypher engine (Neo4j over Bolt), each
with the answer built. Reports p50 / p95 / max per patient and whether the two engines
gave the same groups for every patient. Targets (issue 13): p95 <= 50 ms (Python) and
<= 200 ms (Cypher) per patient, fact grounding included.

    .venv/bin/python benchmarks/ask.py [--patients 1000] [--seed 13] [--warmup 30]

Needs extracted_rules in $CARDIO_HOME/warehouse.duckdb (`make demo`; run here when missing).
Uses NEO4J_URI when set or a running local launcher; otherwise starts the local one and
stops it at the end; guidelines missing from the graph are loaded from the warehouse.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardio_assets import neo4j_local, paths  # noqa: E402
from cardio_assets.cli.ask import load_rules, warehouse_guidelines  # noqa: E402
from cardio_assets.logic import neo4j_graph as graph  # noqa: E402
from cardio_assets.logic.ask.cypher_engine import CypherEngine  # noqa: E402
from cardio_assets.logic.ask.evaluate import PythonEngine  # noqa: E402
from cardio_assets.logic.ask.facts import PatientTerminology, resolve_patient  # noqa: E402
from cardio_assets.logic.ask.service import answer_for  # noqa: E402
from cardio_assets.logic.patients import parse_form  # noqa: E402
from cardio_assets.records import ConditionTest, ExtractedRule  # noqa: E402

TARGET_PY_MS = 50.0
AS_OF = dt.date(2026, 3, 1)  # ages of generated patients are given directly
TARGET_CYPHER_MS = 200.0
_OTHER_UNITS = {"%": [("1", 0.01)], "ms": [("s", 0.001)], "mmol/L": [("mg/dL", 38.67)]}
_DRUGS = ["bisoprolol", "diltiazem", "aspirin", "ramipril", "atorvastatin", "apixaban"]


def vocabulary(rules: list[ExtractedRule]) -> tuple[list[str], list]:
    conditions: set[str] = set()
    parameters: dict[tuple, object] = {}
    for rule in rules:
        for leaf in rule.logic.leaves() if rule.logic else []:
            c = leaf.concept
            if isinstance(leaf, ConditionTest):
                conditions.add(c.grounding.snomed_id if c.grounding else c.normalized)
            else:
                parameters[(c.normalized, leaf.operator, str(leaf.threshold), leaf.unit)] = leaf
    conditions |= {"703272007", "282825002", "440059007", "CCS", "HFrEF"}
    return sorted(conditions), list(parameters.values())


def random_form(rng: random.Random, conditions: list[str], parameters: list) -> dict:
    present = rng.sample(conditions, rng.randint(0, 6))
    rest = [c for c in conditions if c not in present]
    form: dict = {
        "conditions": present,
        "absent": rng.sample(rest, rng.randint(0, 2)),
        "medications": rng.sample(_DRUGS, rng.randint(0, 2)),
        "parameters": [],
    }
    seen: set[str] = set()
    for test in rng.sample(parameters, rng.randint(0, 4)):
        name = test.concept.normalized
        if name in seen:
            continue
        seen.add(name)
        t = test.threshold
        base = (t[0] + t[1]) / 2 if isinstance(t, list) else t
        value = rng.choice([base, base * 0.8, base * 1.2, base + 1, max(base - 1, 0)])
        options = [(test.unit, 1.0), *_OTHER_UNITS.get(test.unit or "", [])]
        if "low density lipoprotein" not in name:
            options = [o for o in options if o[0] != "mg/dL"]
        unit, factor = rng.choice(options)
        form["parameters"].append({"name": name, "value": round(value * factor, 4), "unit": unit})
    if rng.random() < 0.5:
        bp = f"{rng.randint(100, 170)}/{rng.randint(60, 100)}"
        form["parameters"].append({"name": "blood pressure", "value": bp, "unit": "mmHg"})
    if rng.random() < 0.7:
        form["age"] = rng.randint(30, 95)
    return form


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def show(label: str, values: list[float], target: float | None = None) -> str:
    line = (
        f"{label:<34} p50 {statistics.median(values):7.1f} ms   p95 {pct(values, 0.95):7.1f} ms"
        f"   max {max(values):7.1f} ms"
    )
    if target is not None:
        ok = pct(values, 0.95) <= target
        line += f"   target p95 <= {target:g} ms: {'met' if ok else 'NOT met'}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patients", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--warmup", type=int, default=30)
    args = parser.parse_args()

    warehouse = paths.warehouse_path()
    if not warehouse_guidelines(warehouse):
        print(f"no extracted_rules in {warehouse}: running `cardio demo` first", flush=True)
        subprocess.run([str(Path(sys.executable).parent / "cardio"), "demo"], check=True)  # noqa: S603
    rules = load_rules(None)
    guidelines = sorted({r.guideline for r in rules})
    print(f"rules: {len(rules)} from {', '.join(guidelines)} ({warehouse})")

    from cardio_assets.cli.audit import _neo4j_resource, quiet_neo4j_notifications

    quiet_neo4j_notifications()
    started = False
    if not os.environ.get("NEO4J_URI") and not neo4j_local.status().ready:
        print("starting the local Neo4j ...", flush=True)
        neo4j_local.start()
        started = True
    load1 = os.getloadavg()
    try:
        terms = PatientTerminology.open(hold_connection=True)
        python = PythonEngine(rules, terms.units, terms.config)
        resource = _neo4j_resource()
        with resource.driver() as driver:
            cypher = CypherEngine(driver, terms.units, terms.config, guidelines=guidelines)
            missing = [g for g in guidelines if g not in cypher.loaded]
            for g in missing:
                print(f"loading {g} into Neo4j from the warehouse", flush=True)
                graph.load_guideline(driver, g, [r for r in rules if r.guideline == g])
            if missing:
                cypher = CypherEngine(driver, terms.units, terms.config, guidelines=guidelines)
            conditions, parameters = vocabulary(rules)
            rng = random.Random(args.seed)
            forms = [random_form(rng, conditions, parameters) for _ in range(args.patients)]
            # Rules, terminology index and parsers live as long as the process, as in a
            # server: keep them out of the cyclic collector's scans (gc.freeze) so its
            # pauses do not land on whichever patient happens to trigger them.
            gc.collect()
            gc.freeze()
            for form in forms[: args.warmup]:  # JIT, plan cache, grounding cache
                ctx = resolve_patient(parse_form(form, "warmup", as_of=AS_OF), terms)
                answer_for(ctx, python, terms, guidelines=guidelines)
                answer_for(ctx, cypher, terms, guidelines=guidelines)
            t_resolve, t_py, t_cy, e_py, e_cy, disagree = [], [], [], [], [], 0
            for i, form in enumerate(forms):
                t0 = time.perf_counter()
                ctx = resolve_patient(parse_form(form, f"generated-{i}", as_of=AS_OF), terms)
                t1 = time.perf_counter()
                a_py = answer_for(ctx, python, terms, guidelines=guidelines)
                t2 = time.perf_counter()
                a_cy = answer_for(ctx, cypher, terms, guidelines=guidelines)
                t3 = time.perf_counter()
                t4 = time.perf_counter()
                python.evaluate(ctx)
                t5 = time.perf_counter()
                cypher.evaluate(ctx)
                t6 = time.perf_counter()
                e_py.append((t5 - t4) * 1000)
                e_cy.append((t6 - t5) * 1000)
                t_resolve.append((t1 - t0) * 1000)
                t_py.append((t2 - t1) * 1000)
                t_cy.append((t3 - t2) * 1000)
                disagree += a_py.groups() != a_cy.groups()
    finally:
        if started:
            neo4j_local.stop()
    load2 = os.getloadavg()
    n = len(forms)
    print(f"patients: {n} (seed {args.seed}, {args.warmup} warm-up patients not counted)")
    print(show("reading + grounding the facts", t_resolve))
    print(show("python engine alone (evaluate)", e_py))
    print(show("cypher engine alone (evaluate)", e_cy))
    print(show("python engine + answer", t_py))
    print(show("cypher engine + answer", t_cy))
    both_py = [a + b for a, b in zip(t_resolve, t_py, strict=True)]
    both_cy = [a + b for a, b in zip(t_resolve, t_cy, strict=True)]
    print(show("per patient, python (all of it)", both_py, TARGET_PY_MS))
    print(show("per patient, cypher (all of it)", both_cy, TARGET_CYPHER_MS))
    print(f"engines disagreeing on the groups: {disagree} of {n}")
    print(f"load average before / after: {load1[0]:.2f} / {load2[0]:.2f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
