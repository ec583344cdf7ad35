"""LLM backend overhead and concurrency, measured against the local replay server.

Each recorded row is sent under many distinct inputs (a suffix makes each one a cache
miss) while the server waits `--delay` seconds per answer, standing in for model latency.
Prints wall time and rows/s per concurrency, then the time of a fully cached re-run.

    .venv/bin/python benchmarks/llm_replay.py --rows 80 --delay 0.2 --concurrency 1 4 8
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardio_assets.logic.llm_extraction import extract_rows  # noqa: E402
from cardio_assets.records import TaggedRow  # noqa: E402
from tests.replay_server import Recording, ReplayServer, load_recordings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=80)
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per answer")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    args = parser.parse_args()

    base = load_recordings()
    recordings: dict[str, Recording] = {}
    rows: list[TaggedRow] = []
    names = sorted(base)
    for i in range(args.rows):
        source = base[names[i % len(names)]]
        text = f"{source.tagged_row} [bench {i}]"
        recordings[f"bench{i}"] = Recording(f"bench{i}", text, source.response)
        focus = "POPULATION" if "FOCUS: POPULATION" in text else "MAIN"
        rows.append(TaggedRow(row_id=f"bench:{i}", guideline="bench", focus=focus, text=text))

    with tempfile.TemporaryDirectory() as tmp, ReplayServer(recordings) as server:
        for name in recordings:
            server.script(name, ["slow"] * 100)
        server.state.slow_seconds = args.delay
        print(f"{args.rows} rows, {args.delay:g} s simulated model latency per answer")
        for concurrency in args.concurrency:
            models = Path(tmp) / "models.yaml"
            client = {
                "provider": "openai-generic",
                "base_url": server.base_url,
                "model": f"bench-c{concurrency}",  # own cache key per concurrency level
                "timeout_s": 30,
                "max_concurrency": concurrency,
            }
            models.write_text(json.dumps({"default": "bench", "clients": {"bench": client}}))
            cache = Path(tmp) / "cache.duckdb"
            started = time.perf_counter()
            report = extract_rows(rows, models_config=models, cache_path=cache)
            took = time.perf_counter() - started
            print(
                f"concurrency {concurrency:>3}: {took:7.2f} s  {args.rows / took:7.1f} rows/s  "
                f"calls {report.http_calls}  failures {report.failures}  "
                f"max in flight {server.state.max_in_flight}"
            )
            server.state.max_in_flight = 0
        calls_before = server.calls()
        started = time.perf_counter()
        report = extract_rows(rows, models_config=models, cache_path=cache)
        took = time.perf_counter() - started
        print(
            f"cached re-run   : {took:7.2f} s  {args.rows / took:7.1f} rows/s  "
            f"cache hits {report.cache_hits}  new calls {server.calls() - calls_before}"
        )


if __name__ == "__main__":
    main()
