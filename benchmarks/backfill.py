"""Backfill wall time: one run for all sample guidelines (single-run policy) against one run
per guideline, through the real daemon.

For each mode it starts from nothing (fresh CARDIO_HOME and Dagster instance with the
repo's dagster.yaml settings: QueuedRunCoordinator, at most 2 runs at once), starts
`dagster-daemon run -w workspace.yaml`, and times `cardio backfill` of every stage but
neo4j_graph (which loads one guideline per run in both modes, so it is left out) for the
sample guidelines, from submission to the backfill's end. The mode is
configs/pipeline.yaml ``backfill.single_run``, set in a CARDIO_CONFIG_DIR copy.

    .venv/bin/python benchmarks/backfill.py [--rounds 1] [--partitions ID ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.dagster_dev_fixtures import instance_yaml  # noqa: E402

BIN = Path(sys.executable).parent
SAMPLES = ["ccs-sample", "ccs-sample-docling", "ccs-sample-pdf", "hf-sample", "hf-sample-docx"]
STAGES = [
    "docling_tables",
    "table_rows",
    "tagged_rows",
    "main_extractions",
    "population_extractions",
    "merged_concepts",
    "grounding_candidates",
    "grounding_index",
    "extracted_rules",
]


def one(single_run: bool, work: Path) -> tuple[float, int]:
    home, dagster_home, configs = work / "home", work / "dh", work / "configs"
    for folder in (home, dagster_home, configs):
        folder.mkdir(parents=True)
    (dagster_home / "dagster.yaml").write_text(instance_yaml(dagster_home))
    pipeline = (ROOT / "configs" / "pipeline.yaml").read_text()
    (configs / "pipeline.yaml").write_text(
        re.sub(r"single_run: \w+", f"single_run: {'true' if single_run else 'false'}", pipeline)
    )
    env = {
        **os.environ,
        "CARDIO_HOME": str(home),
        "DAGSTER_HOME": str(dagster_home),
        "CARDIO_CONFIG_DIR": str(configs),
    }
    cardio = str(BIN / "cardio")
    # the terminology store is built on first use: once here, outside the timing
    subprocess.run(
        [cardio, "ground", "heart failure", "--role", "Condition"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    log = (work / "daemon.log").open("wb")
    daemon = subprocess.Popen(
        [str(BIN / "dagster-daemon"), "run", "-w", "workspace.yaml"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        time.sleep(20)  # the daemon's threads and code server come up
        started = time.perf_counter()
        done = subprocess.run(
            [
                cardio,
                "backfill",
                *(a for g in SAMPLES for a in ("--guideline", g)),
                "--select",
                ",".join(STAGES),
                "--timeout",
                "3600",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - started
        print(done.stdout.rstrip())
        if done.returncode != 0:
            sys.exit(f"backfill failed:\n{done.stderr[-3000:]}")
        import dagster as dg

        backfill_id = done.stdout.split()[1].rstrip(":")
        with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
            runs = len(instance.get_runs(dg.RunsFilter(tags={"dagster/backfill": backfill_id})))
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(daemon.pid, sig)
                daemon.wait(timeout=30)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
    return took, runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--partitions", nargs="+", default=SAMPLES, choices=SAMPLES)
    args = parser.parse_args()
    SAMPLES[:] = args.partitions
    work = Path(tempfile.mkdtemp(prefix="cardio-backfill-"))
    rows = []
    try:
        for round_ in range(args.rounds):
            for single in (True, False):
                took, runs = one(single, work / f"r{round_}-{'single' if single else 'per'}")
                rows.append((single, took, runs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"backfill of {len(STAGES)} stages x {len(SAMPLES)} guidelines ({', '.join(SAMPLES)})")
    for single, took, runs in rows:
        mode = "single run   " if single else "run per guideline"
        print(f"  {mode:>17}: {took:7.1f} s wall, {runs} run(s)")


if __name__ == "__main__":
    main()
