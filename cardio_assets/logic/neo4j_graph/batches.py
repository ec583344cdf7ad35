"""Graph rows -> ready-to-send write batches, prepared chunk by chunk in a worker thread.

A load validates, flattens and parameterizes its rules ``chunk_size`` at a time
(``prepare_chunks``) while earlier chunks are being written (``read_ahead``), so writing
starts after the first chunk instead of after the whole guideline.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from cardio_assets.logic.neo4j_graph.cypher import (
    _Q_CONCEPT_EDGES,
    _Q_CONCEPTS,
    _Q_NESTED_DECISIONS,
    _Q_REPRINTED_ROWS,
    _Q_RULES,
    _Q_TABLES,
)
from cardio_assets.logic.neo4j_graph.rows import GraphRows, build_graph_rows, validate_rules
from cardio_assets.records import ExtractedRule


def _batches(rows: list[dict[str, Any]], size: int) -> Iterable[tuple[int, list[dict[str, Any]]]]:
    for start in range(0, len(rows), size):
        yield start, rows[start : start + size]


def _rule_ids(batch: list[dict[str, Any]]) -> str:
    ids = sorted({str(r.get("rule", {}).get("rule_id", "?")) for r in batch})
    shown = ", ".join(ids[:3])
    return f"{shown} (+{len(ids) - 3} more)" if len(ids) > 3 else shown


Step = tuple[str, str, list[dict[str, Any]], bool]  # name, query, rows, rows point at concepts


def _steps(rows: GraphRows) -> list[Step]:
    steps: list[Step] = [
        ("SourceTable+HAS_TABLE", _Q_TABLES, rows.tables, False),
        ("SourceRow+Recommendation+root Decision", _Q_RULES, rows.rule_rows, False),
        ("SourceRow of another printing", _Q_REPRINTED_ROWS, rows.reprinted_rows, False),
    ]
    for depth, level in enumerate(rows.nested_decisions, start=1):
        steps.append((f"Decision+LEADS_TO (depth {depth})", _Q_NESTED_DECISIONS, level, False))
    for rel, edge_rows in sorted(rows.decision_concept_edges.items()):
        steps.append((rel, _Q_CONCEPT_EDGES[("Decision", rel)], edge_rows, True))
    for rel, edge_rows in sorted(rows.recommendation_concept_edges.items()):
        steps.append((rel, _Q_CONCEPT_EDGES[("Recommendation", rel)], edge_rows, True))
    return steps


def _batch_params(
    rows: GraphRows, batch: list[dict[str, Any]], uses_concepts: bool
) -> dict[str, Any]:
    """Query parameters of one batch: its rows plus the shared maps they index into."""
    params: dict[str, Any] = {"common": rows.common, "profiles": rows.profiles}
    if not uses_concepts:
        params["rows"] = batch
        return params
    index: dict[str, int] = {}
    concepts: list[dict[str, Any]] = []
    sent = []
    for row in batch:
        key = row["ckey"]
        if key not in index:
            index[key] = len(concepts)
            concepts.append(rows.concepts[key])
        sent.append({k: v for k, v in row.items() if k != "ckey"} | {"ci": index[key]})
    params["rows"] = sent
    params["concepts"] = concepts
    return params


@dataclass
class WriteBatch:
    """One ready-to-send query: prepared off the writer thread, described for errors."""

    step: str
    query: str
    params: dict[str, Any]
    rows: int
    where: str  # "rules 201-300, rows 1-100 of 100 of this step; rules a, b, c (+97 more)"


@dataclass
class PreparedChunk:
    """The writes of one chunk of input rules, and what they must leave in the graph.

    ``ordered`` (its new SourceTables and Concepts) is committed before the chunk is handed
    to a writer, because later chunks, written concurrently, link to those nodes;
    ``batches`` touch only this chunk's own nodes plus existing tables and concepts.
    """

    ordered: list[WriteBatch]
    batches: list[WriteBatch]
    rows: GraphRows
    rules: list[ExtractedRule]
    input_rules: int  # rules read from the input so far, valid or not
    skipped: list[tuple[str, str]]
    prepare_seconds: float  # worker-thread time spent on this chunk (overlaps writes)


def prepare_chunks(
    rules: Iterable[Any],
    guideline: str,
    load_id: str,
    load_run_id: str | None,
    *,
    chunk_size: int,
    known_tables: dict[str, list[int]],
) -> Iterator[PreparedChunk]:
    """Validate, flatten and parameterize the rules ``chunk_size`` at a time, so writing can
    start after the first chunk instead of after the whole guideline."""
    seen: set[str] = set()
    known_concepts: set[str] = set()
    read = 0
    written = 0  # valid rules in earlier chunks: positions in error messages are load-wide
    iterator = iter(rules)
    while True:
        began = time.perf_counter()
        chunk = list(itertools.islice(iterator, chunk_size))
        if not chunk:
            return
        valid, skipped = validate_rules(chunk, guideline, seen=seen, first_position=read)
        read += len(chunk)
        rows = build_graph_rows(valid, guideline, load_id, load_run_id, known_tables=known_tables)
        span = f"valid rules {written + 1}-{written + len(valid)}" if valid else "no valid rules"
        written += len(valid)
        ordered: list[WriteBatch] = []
        new_concepts = sorted(rows.concepts.keys() - known_concepts)
        known_concepts.update(new_concepts)
        for start in range(0, len(new_concepts), chunk_size):
            keys = new_concepts[start : start + chunk_size]
            params = {"concepts": [rows.concepts[key] for key in keys]}
            where = f"{span}: {len(keys)} concepts new to this load"
            ordered.append(WriteBatch("Concept", _Q_CONCEPTS, params, len(keys), where))
        batches: list[WriteBatch] = []
        for step, query, step_rows, uses_concepts in _steps(rows):
            if uses_concepts:
                # concurrent writers lock shared concepts in one global order: no deadlocks
                step_rows = sorted(step_rows, key=lambda row: row["ckey"])
            target = ordered if query is _Q_TABLES else batches
            for start, batch in _batches(step_rows, chunk_size):
                where = f"{span}: rows {start + 1}-{start + len(batch)} of {len(step_rows)}"
                if "rule" in batch[0]:
                    where += f"; rule ids {_rule_ids(batch)}"
                params = _batch_params(rows, batch, uses_concepts)
                target.append(WriteBatch(step, query, params, len(batch), where))
        yield PreparedChunk(
            ordered, batches, rows, valid, read, skipped, time.perf_counter() - began
        )


_T = TypeVar("_T")


def read_ahead(items: Iterable[_T], depth: int = 2) -> Iterator[_T]:
    """Produce ``items`` in a worker thread, up to ``depth`` ahead of the consumer.

    Why: the writer spends most of a load waiting for Neo4j; preparing the next chunk in
    the meantime hides the Python side (validation, flattening) instead of paying it first.
    The producer's exception is re-raised in the consumer; a consumer that stops early (a
    failed write) stops the producer.
    """
    handoff: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                handoff.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put((False, item)):
                    return
            put((True, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, re-raised there
            put((True, exc))

    worker = threading.Thread(target=produce, name="neo4j-load-prepare", daemon=True)
    worker.start()
    try:
        while True:
            done, item = handoff.get()
            if done:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        worker.join()
