"""Rerun ratio: what a threshold change costs against the full pipeline, per backend.

For each backend it starts from nothing (fresh CARDIO_HOME, Dagster instance and Neo4j),
materializes the whole pipeline for the sample guidelines the way the README says
(`dagster asset materialize -m cardio_assets.definitions --select '*' --partition ID`, one
guideline after another), then raises ``min_match_score`` of every role in a copy of
configs/guideline_graph_schema.yaml (CARDIO_CONFIG_DIR), asks `cardio status --json` what
is stale and runs exactly the selection it prints per guideline. It prints both wall
times, their ratio and the LLM calls each phase made.

``--runner`` says how both phases run: ``cli`` (the README's commands: one `dagster asset
materialize` per guideline, each paying its own process, definitions import and run
worker) or ``status`` (`cardio status --rematerialize` for the benchmark's guidelines: one
process, one in-process run per guideline, the full pipeline for a new guideline and
exactly the stale selection after the change). Both phases always use the same runner.

The llm backend runs against the local replay server (tests/replay_server.py) answering
every request after ``--latency`` seconds (a recorded 1-2 s per call stands in for a
model), with the client's configured concurrency (configs/models.yaml default, 4). Its
answers are the lexicon backend's extractions of the same rows, recorded by this script
from the lexicon run, so both backends build the same rules.

    .venv/bin/python benchmarks/rerun.py [--backend lexicon llm] [--latency 1.5]
        [--runner cli status]
"""

from __future__ import annotations

import argparse
import json
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

from cardio_assets import neo4j_local  # noqa: E402
from cardio_assets.records import RowExtraction, TaggedRow  # noqa: E402
from resources.duckdb_io_manager import read_records  # noqa: E402
from tests.dagster_dev_fixtures import instance_yaml  # noqa: E402
from tests.replay_server import Recording, ReplayServer  # noqa: E402

BIN = Path(sys.executable).parent
SAMPLES = ["ccs-sample", "ccs-sample-docling", "hf-sample", "hf-sample-docx"]
PARTITIONS = list(SAMPLES)  # --partitions narrows it
NEW_MIN_MATCH_SCORE = "0.8"


def _run(cmd: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(
            f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return took


# configs/pipeline.yaml execution.start_method for both phases (--executor)
EXECUTOR = {"start_method": "forkserver"}
RUNNER = {"name": "cli"}


def _materialize(select: str, partition: str, env: dict[str, str]) -> float:
    return _run(
        [
            str(BIN / "dagster"),
            "asset",
            "materialize",
            "-m",
            "cardio_assets.definitions",
            "--select",
            select,
            "--partition",
            partition,
        ],
        env,
    )


def _answer(content: dict) -> dict:
    return {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 0,
        "model": "replay/bench",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": json.dumps(content)},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def recordings_from(warehouse: Path) -> dict[str, Recording]:
    """One recording per tagged row: the lexicon extraction of that row as the LLM answer."""
    tagged = read_records(warehouse, "tagged_rows", TaggedRow, None)
    answers: dict[tuple[str, str], RowExtraction] = {}
    for table in ("main_extractions", "population_extractions"):
        for r in read_records(warehouse, table, RowExtraction, None):
            answers[(r.row_id, r.focus)] = r
    out: dict[str, Recording] = {}
    for i, row in enumerate(tagged):
        extraction = answers.get((row.row_id, row.focus))
        if extraction is None:
            continue
        if row.focus == "MAIN":
            content = {
                "concepts": [c.model_dump(mode="json") for c in extraction.concepts],
                "actions": [a.model_dump(mode="json", by_alias=True) for a in extraction.actions],
            }
        else:
            content = {
                "conditions": [
                    {
                        "text": c.text,
                        "normalized": c.normalized,
                        "or_group": c.or_group,
                        "negated": c.negated,
                    }
                    for c in extraction.concepts
                ]
            }
        out[f"row{i}"] = Recording(f"row{i}", row.text, _answer(content))
    return out


def _status_json(env: dict[str, str]) -> list[dict]:
    """`cardio status --json` for the benchmark's guidelines only: the other registered ones
    were never materialized here, so status names their whole pipeline (a full run, with
    LLM calls, not a rerun)."""
    done = subprocess.run(
        [str(BIN / "cardio"), "status", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return [g for g in json.loads(done.stdout)["guidelines"] if g["guideline"] in PARTITIONS]


def _stale(reports: list[dict]) -> dict[str, list[str]]:
    return {g["guideline"]: g["stale"] for g in reports if g["stale"]}


def _status_run(env: dict[str, str]) -> float:
    """`cardio status --rematerialize` for the benchmark's guidelines: what is stale or never
    materialized, run in one process."""
    guidelines = [arg for p in PARTITIONS for arg in ("--guideline", p)]
    return _run([str(BIN / "cardio"), "status", *guidelines, "--rematerialize"], env)


def bench(backend: str, work: Path, replay: ReplayServer | None) -> dict:
    home, dagster_home, configs = work / "home", work / "dh", work / "configs"
    for folder in (home, dagster_home, configs):
        folder.mkdir(parents=True)
    (dagster_home / "dagster.yaml").write_text(instance_yaml(dagster_home))
    schema = configs / "guideline_graph_schema.yaml"
    shutil.copy(ROOT / "configs" / "guideline_graph_schema.yaml", schema)
    if backend == "llm":
        assert replay is not None
        (configs / "models.yaml").write_text(
            json.dumps(
                {
                    "default": "replay",
                    "clients": {
                        "replay": {
                            "provider": "openai-generic",
                            "base_url": replay.base_url,
                            "model": "replay/bench",
                            "timeout_s": 60,
                        }
                    },
                }
            )
        )
    pipeline = (ROOT / "configs" / "pipeline.yaml").read_text()
    if backend == "llm":
        pipeline = pipeline.replace("  backend: lexicon", "  backend: llm", 1)
    pipeline = re.sub(
        r"(?m)^  start_method: \w+", f"  start_method: {EXECUTOR['start_method']}", pipeline
    )
    (configs / "pipeline.yaml").write_text(pipeline)
    env = {
        **os.environ,
        "CARDIO_HOME": str(home),
        "DAGSTER_HOME": str(dagster_home),
        "CARDIO_CONFIG_DIR": str(configs),
    }
    for key in ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        env.pop(key, None)
    root = home / "neo4j"
    neo4j_local.start(root, port=neo4j_local.free_port(), heap="768m", page_cache="256m")
    try:
        _run([str(BIN / "cardio"), "partitions", "sync"], env)
        # the terminology store is built on first use: once here, outside the timings
        _run([str(BIN / "cardio"), "ground", "heart failure", "--role", "Condition"], env)
        calls0 = replay.calls() if replay else 0
        if RUNNER["name"] == "status":
            full = _status_run(env)
        else:
            full = sum(_materialize("*", p, env) for p in PARTITIONS)
        calls_full = (replay.calls() if replay else 0) - calls0
        text = schema.read_text()
        schema.write_text(
            re.sub(r"min_match_score: [0-9.]+", f"min_match_score: {NEW_MIN_MATCH_SCORE}", text)
        )
        if RUNNER["name"] == "status":
            # what is stale, read before the timed rerun (the rerun command reads it itself)
            stale = _stale(_status_json(env))
            rerun = _status_run(env)
            left = _stale(_status_json(env))
            if left:
                sys.exit(f"still stale after cardio status --rematerialize: {left}")
        else:
            started = time.perf_counter()
            ours = _status_json(env)
            stale = _stale(ours)
            for g in ours:
                if g["rematerialize"]:
                    _materialize(g["rematerialize"]["select"], g["guideline"], env)
            rerun = time.perf_counter() - started
        calls_rerun = (replay.calls() if replay else 0) - calls0 - calls_full
    finally:
        neo4j_local.stop(root)
    return {
        "backend": backend,
        "full_s": full,
        "rerun_s": rerun,
        "ratio": rerun / full,
        "llm_calls_full": calls_full,
        "llm_calls_rerun": calls_rerun,
        "stale": stale,
        "warehouse": home / "warehouse.duckdb",
    }


def main() -> None:
    # a SIGTERM runs the finally blocks (Neo4j stopped, work folder removed) like Ctrl-C
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--backend", nargs="+", default=["lexicon", "llm"], choices=["lexicon", "llm"]
    )
    parser.add_argument("--latency", type=float, default=1.5, help="seconds per LLM answer")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--partitions", nargs="+", default=SAMPLES, choices=SAMPLES)
    parser.add_argument(
        "--runner",
        choices=["cli", "status"],
        default="cli",
        help="how both phases run: dagster asset materialize per guideline, or cardio status "
        "--rematerialize",
    )
    parser.add_argument(
        "--executor",
        choices=["forkserver", "spawn", "in_process"],
        default="forkserver",
        help="configs/pipeline.yaml execution.start_method for the runs",
    )
    args = parser.parse_args()
    PARTITIONS[:] = args.partitions
    EXECUTOR["start_method"] = args.executor
    RUNNER["name"] = args.runner
    work = Path(tempfile.mkdtemp(prefix="cardio-rerun-"))
    results = []
    try:
        lexicon = bench("lexicon", work / "lexicon", None)
        if "lexicon" in args.backend:
            results.append(lexicon)
        if "llm" in args.backend:
            recordings = recordings_from(lexicon["warehouse"])
            with ReplayServer(recordings) as replay:
                for name in recordings:
                    replay.script(name, ["slow"] * 10)
                replay.state.slow_seconds = args.latency
                print(f"llm: {len(recordings)} recorded rows, {args.latency:g} s per answer")
                results.append(bench("llm", work / "llm", replay))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"min_match_score -> {NEW_MIN_MATCH_SCORE} in every role; guidelines "
        f"{', '.join(PARTITIONS)}; runner {args.runner}; executor {args.executor}"
    )
    for r in results:
        print(
            f"{r['backend']:>8}: full {r['full_s']:7.1f} s  rerun {r['rerun_s']:6.1f} s  "
            f"ratio {r['ratio']:.1%}  LLM calls full {r['llm_calls_full']} rerun {r['llm_calls_rerun']}"
        )
        for guideline, assets in r["stale"].items():
            print(f"          stale {guideline}: {', '.join(assets)}")


if __name__ == "__main__":
    main()
