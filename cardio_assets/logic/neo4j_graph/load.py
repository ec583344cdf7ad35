"""Load one guideline's rules into Neo4j: versioned, isolated, failure-safe.

See the package docstring for the shape and the guarantees. This module drives a load:
take the guideline's load lock, write a complete new version under a fresh ``load_id``
(chunks from batches.py, two writers at once), check its counts against the rules, switch
``Guideline.current_load_id`` in one transaction, then delete the previous version.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sized
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the driver is imported where a load runs, not by every run's process
    import neo4j

from cardio_assets.logic.neo4j_graph.batches import (
    PreparedChunk,
    WriteBatch,
    prepare_chunks,
    read_ahead,
)
from cardio_assets.logic.neo4j_graph.cypher import (
    _Q_BEGIN,
    _Q_DELETE_BATCH,
    _Q_DELETE_ORPHAN_CONCEPTS,
    _Q_DELETE_UNLINKED_CONCEPTS,
    _Q_FORGET_LOAD,
    _Q_LOAD_CONCEPT_KEYS,
    _Q_SWITCH,
    _Q_TABLE_PAGES,
    SCHEMA_STATEMENTS,
    VERSIONED_LABELS,
    _label,
)
from cardio_assets.logic.neo4j_graph.lock import (
    DEFAULT_LEASE_SECONDS,
    DEFAULT_WAIT_SECONDS,
    LOCK_SCHEMA_STATEMENTS,
    Grant,
    LoadLock,
    LoadLockLost,
)
from cardio_assets.logic.neo4j_graph.rows import _clean
from cardio_assets.records import ExtractedRule

DEFAULT_BATCH_SIZE = 2000
# Chunks written at once: one Bolt worker thread per transaction in Neo4j, so a second
# writer uses a core the first leaves idle (benchmarks/neo4j_load.py, README Speed).
DEFAULT_WRITERS = 2
DELETE_BATCH_SIZE = 5000


class Neo4jLoadError(RuntimeError):
    """A load could not complete; the message names guideline, step, batch and what to do."""


class GraphShrinkRefused(Neo4jLoadError):
    """The new version would drop too many of the loaded version's rules (nothing written)."""


def current_rule_count(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> int:
    """Recommendations in the guideline's current (switched-to) version; 0 when none."""
    import neo4j

    records = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) WHERE g.current_load_id IS NOT NULL "
        "MATCH (r:Recommendation {load_id: g.current_load_id}) RETURN count(r) AS n",
        guideline=guideline,
        database_=database,
        routing_=neo4j.RoutingControl.READ,
    ).records
    return records[0]["n"] if records else 0


def shrink_refusal(guideline: str, loaded: int, new: int, min_share: float) -> str | None:
    """Why a version of ``new`` rules may not replace one of ``loaded`` rules, or None.

    A failed extraction or an empty document gives few or no rules; replacing a good graph
    with that would lose recommendations silently, so it takes an explicit override."""
    if loaded == 0 or new >= min_share * loaded:
        return None
    return (
        f"guideline '{guideline}': not replacing the loaded version ({loaded} rules) with one "
        f"of {new} rules (fewer than {min_share:.0%} of them; graph.min_rule_share in "
        "configs/pipeline.yaml). The loaded version stays. If the smaller version is right, "
        "materialize neo4j_graph with run config "
        "{ops: {neo4j_graph: {config: {allow_shrink: true}}}}."
    )


def ensure_schema(driver: neo4j.Driver, database: str = "neo4j") -> None:
    """Create missing constraints and indexes, each in its own transaction (Neo4j refuses
    schema and data changes in one transaction); a no-op when all exist."""
    import neo4j

    existing = {
        record["name"]
        for query in ("SHOW CONSTRAINTS YIELD name", "SHOW INDEXES YIELD name")
        for record in driver.execute_query(query, database_=database).records
    }
    wanted = (*SCHEMA_STATEMENTS, *LOCK_SCHEMA_STATEMENTS)
    missing = [s for s in wanted if s.split()[2] not in existing]
    for statement in missing:
        try:
            driver.execute_query(statement, database_=database)
        except neo4j.exceptions.ClientError as exc:
            # two partitions loading at once may race to create the same constraint
            if "already exists" not in str(exc).lower() and "equivalent" not in str(exc).lower():
                raise
    if missing:
        driver.execute_query("CALL db.awaitIndexes(300)", database_=database)


# --- load -------------------------------------------------------------------------------
@dataclass
class LoadResult:
    guideline: str
    load_id: str
    previous_load_id: str | None
    rules_loaded: int
    rules_skipped: list[tuple[str, str]]
    nodes_written: int  # guideline-owned nodes (shared grounded concepts not counted)
    relationships_written: int
    write_seconds: float
    total_seconds: float
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase
    stale_loads_removed: list[str] = field(default_factory=list)
    cleanup_error: str | None = None  # old version not fully deleted (retried next load)
    lock_taken_over: str | None = None  # a dead load whose expired lock this load took


ProgressCallback = Callable[[str, int, int], None]  # (step, done, total)


def new_load_id() -> str:
    return f"{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{uuid.uuid4().hex[:12]}"


def _write(session: neo4j.Session, query: str, params: dict[str, Any]) -> int:
    def work(tx: neo4j.ManagedTransaction) -> int:
        record = tx.run(query, params).single()
        return int(record["n"]) if record is not None else 0

    return session.execute_write(work)


@dataclass
class _LoadTally:
    """What the chunks written so far must have left in the graph, and their provenance."""

    nodes: Counter[str] = field(default_factory=Counter)
    rels: Counter[str] = field(default_factory=Counter)
    unmapped: set[str] = field(default_factory=set)
    rules: list[ExtractedRule] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    written_pages: dict[str, list[int]] = field(default_factory=dict)
    prepare_seconds: float = 0.0

    def add(self, chunk: PreparedChunk) -> None:
        nodes, rels = chunk.rows.expected_counts()
        self.nodes.update(nodes)
        self.rels.update(rels)
        self.unmapped |= chunk.rows.unmapped_keys()
        self.rules += chunk.rules
        self.skipped += chunk.skipped
        self.written_pages.update((t["uid"], t["props"]["pages"]) for t in chunk.rows.tables)
        self.prepare_seconds += chunk.prepare_seconds

    def expected_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        nodes = {label: self.nodes[label] for label in VERSIONED_LABELS}
        nodes["Unmapped"] = len(self.unmapped)  # chunks share unmapped concept nodes
        return nodes, {k: v for k, v in sorted(self.rels.items()) if v}

    def guideline_props(self, title: str | None, load_run_id: str | None) -> dict[str, Any]:
        provenance = [r.provenance for r in self.rules]
        return _clean(
            {
                "title": title,
                "loaded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "load_run_id": load_run_id,
                "rules": len(self.rules),
                "rules_skipped": len(self.skipped),
                "source_files": sorted({p.source_file for p in provenance} - {None}),
                "source_sha256s": sorted({p.source_sha256 for p in provenance} - {None}),
                "config_hashes": sorted({p.config_hash for p in provenance}),
                "run_ids": sorted({p.run_id for p in provenance} - {None}),
            }
        )


def _table_page_updates(
    known_tables: dict[str, list[int]], written: dict[str, list[int]]
) -> list[dict[str, Any]]:
    """Tables whose rules in later chunks cited pages the table was first written without."""
    return [
        {"uid": uid, "pages": pages}
        for uid, pages in known_tables.items()
        if uid in written and pages != written[uid]
    ]


class _BatchError(Exception):
    """A batch failed; carries the batch so the load's error can name step, rows and rules."""

    def __init__(self, batch: WriteBatch, cause: Exception) -> None:
        super().__init__(str(cause))
        self.batch, self.cause = batch, cause


def _write_batches(driver: neo4j.Driver, database: str, batches: list[WriteBatch]) -> None:
    """Write batches in order, each in its own managed (retried) transaction; own session,
    so writer threads never share one."""
    if not batches:
        return
    with driver.session(database=database) as session:
        for batch in batches:
            try:
                written = _write(session, batch.query, batch.params)
            except Exception as exc:
                raise _BatchError(batch, exc) from exc
            if written != batch.rows:
                missing = Neo4jLoadError(
                    f"{written} of {batch.rows} rows linked (a referenced node is missing)"
                )
                raise _BatchError(batch, missing)


def load_guideline(
    driver: neo4j.Driver,
    guideline: str,
    rules: Iterable[Any],
    *,
    guideline_title: str | None = None,
    load_run_id: str | None = None,
    database: str = "neo4j",
    batch_size: int = DEFAULT_BATCH_SIZE,
    writers: int = DEFAULT_WRITERS,
    on_progress: ProgressCallback | None = None,
    min_rule_share: float | None = None,
    lock_lease_seconds: float = DEFAULT_LEASE_SECONDS,
    lock_wait_seconds: float = DEFAULT_WAIT_SECONDS,
    on_lock_wait: Callable[[str], None] | None = None,
) -> LoadResult:
    """Replace guideline's subgraph with these rules; other guidelines are never touched.

    With ``min_rule_share``, a version holding fewer than that share of the loaded
    version's rules raises GraphShrinkRefused before anything is written.

    Rules are prepared ``batch_size`` at a time in a worker thread while earlier chunks are
    written, ``writers`` chunks at once (each chunk in its own session, its batches in
    order). Another load of the same guideline is waited for (``on_lock_wait`` says so),
    up to ``lock_wait_seconds``; one whose process died holds it for at most
    ``lock_lease_seconds``. Raises Neo4jLoadError when the new version could not be
    written; the previously loaded version then stays current and complete.
    """
    started = time.perf_counter()
    phases: dict[str, float] = {}

    def lap(name: str, since: float) -> float:
        now = time.perf_counter()
        phases[name] = round(now - since, 3)
        return now

    load_id = new_load_id()
    if min_rule_share is not None:
        rules = list(rules)
    total = len(rules) if isinstance(rules, Sized) else None
    known_tables: dict[str, list[int]] = {}
    tally = _LoadTally()
    previous: str | None = None
    registered = False
    removed: list[str] = []
    step_name, batch_note = "schema", ""
    mark = started
    lock = LoadLock(
        driver,
        guideline,
        load_id,
        run_id=load_run_id,
        database=database,
        lease_seconds=lock_lease_seconds,
    )
    grant: Grant | None = None
    try:
        try:
            ensure_schema(driver, database)
            mark = lap("schema", mark)
            step_name = "take the guideline's load lock"
            grant = lock.acquire(lock_wait_seconds, on_lock_wait)
            mark = lap("wait for lock", mark)
            if min_rule_share is not None:  # under the lock: the version it compares to stays
                refusal = shrink_refusal(
                    guideline,
                    current_rule_count(driver, guideline, database=database),
                    len(rules),  # type: ignore[arg-type] - a list since min_rule_share is set
                    min_rule_share,
                )
                if refusal:
                    raise GraphShrinkRefused(refusal)
            step_name = "register load"
            with driver.session(database=database) as session:
                begin = session.execute_write(
                    lambda tx: tx.run(_Q_BEGIN, guideline=guideline, load_id=load_id).single()
                )
            registered = True
            previous = begin["current"]
            step_name = "remove leftovers of failed loads"
            for stale_id in begin["stale"]:
                delete_load(driver, guideline, stale_id, database=database)
                removed.append(stale_id)
            mark = lap("begin", mark)

            chunks = prepare_chunks(
                rules,
                guideline,
                load_id,
                load_run_id,
                chunk_size=batch_size,
                known_tables=known_tables,
            )
            step_name, batch_note = "prepare rules", ""
            in_flight: deque[tuple[Future[None], PreparedChunk]] = deque()

            def settle(keep: int) -> None:
                """Wait for the oldest chunks until at most ``keep`` are still being written."""
                while len(in_flight) > keep:
                    future, chunk = in_flight.popleft()
                    future.result()
                    lock.check()  # no use writing on once another load took over
                    tally.add(chunk)
                    if on_progress is not None:
                        on_progress("rules", chunk.input_rules, total or chunk.input_rules)

            writers = max(1, writers)
            pool = ThreadPoolExecutor(writers, thread_name_prefix="neo4j-load-write")
            try:
                with closing(read_ahead(chunks)) as ahead:
                    for chunk in ahead:
                        settle(writers - 1)
                        _write_batches(driver, database, chunk.ordered)
                        in_flight.append(
                            (pool.submit(_write_batches, driver, database, chunk.batches), chunk)
                        )
                settle(0)
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
            updates = _table_page_updates(known_tables, tally.written_pages)
            if updates:
                pages = WriteBatch(
                    "SourceTable pages", _Q_TABLE_PAGES, {"rows": updates}, len(updates), ""
                )
                _write_batches(driver, database, [pages])
            mark = lap("write", mark)
            phases["prepare (overlapped with write)"] = round(tally.prepare_seconds, 3)
            step_name, batch_note = "verify counts", ""
            with driver.session(database=database) as session:
                found = _load_counts(session, guideline, load_id, with_concepts=False)
            if found != tally.expected_counts():
                raise Neo4jLoadError(
                    f"the written load does not match the rules: expected {tally.expected_counts()}, "
                    f"found {found}"
                )
            mark = lap("verify", mark)
            step_name = "switch current load"
            props = tally.guideline_props(guideline_title, load_run_id)
            with driver.session(database=database) as session:
                switched = session.execute_write(
                    lambda tx: tx.run(
                        _Q_SWITCH, guideline=guideline, load_id=load_id, props=props
                    ).single()
                )
            if switched is None:
                lock.check()
                raise LoadLockLost("the load lock was no longer this load's at the switch")
            previous = switched["previous"]
            mark = lap("switch", mark)
        except GraphShrinkRefused:
            raise  # nothing was written: the message says what to do
        except Exception as exc:
            if isinstance(exc, _BatchError):
                step_name, batch_note, exc = exc.batch.step, exc.batch.where, exc.cause
            note = (
                _abandon(driver, guideline, load_id, database)
                if registered
                else "nothing was written."
            )
            kept = f"load {previous}" if previous else "none loaded yet"
            where = f"{step_name} ({batch_note})" if batch_note else step_name
            raise Neo4jLoadError(
                f"loading guideline {guideline!r} into Neo4j failed at step {where}: "
                f"{type(exc).__name__}: {exc}. The current version ({kept}) is unchanged; {note} "
                "Fix the cause (is Neo4j up? `cardio neo4j status`) and re-materialize the "
                "partition."
            ) from exc

        cleanup_error = None
        if previous is not None:
            try:
                delete_load(driver, guideline, previous, database=database)
            except Exception as exc:  # noqa: BLE001 - the new version is live; retried next load
                cleanup_error = f"old load {previous} not fully deleted ({exc}); removed next load"
            lap("delete previous", mark)
    finally:
        if grant is not None:
            lock.release()
    nodes, rels = tally.expected_counts()
    return LoadResult(
        guideline=guideline,
        load_id=load_id,
        previous_load_id=previous,
        rules_loaded=len(tally.rules),
        rules_skipped=tally.skipped,
        nodes_written=sum(nodes.values()),
        relationships_written=sum(rels.values()),
        write_seconds=phases["write"],
        total_seconds=time.perf_counter() - started,
        phases=phases,
        stale_loads_removed=removed,
        cleanup_error=cleanup_error,
        lock_taken_over=grant.taken_over if grant else None,
    )


def _abandon(driver: neo4j.Driver, guideline: str, load_id: str, database: str) -> str:
    """Best-effort removal of a failed load's partial nodes; if Neo4j is down they stay
    listed in pending_load_ids and the next load removes them."""
    try:
        delete_load(driver, guideline, load_id, database=database)
        return f"the partial load {load_id} was removed."
    except Exception:  # noqa: BLE001 - the original error is what the user needs
        return f"the partial load {load_id} will be removed by the next load."


def delete_load(
    driver: neo4j.Driver, guideline: str, load_id: str, *, database: str = "neo4j"
) -> int:
    """Delete every node of one load, then shared concepts it left without any edge."""
    deleted = 0
    with driver.session(database=database) as session:
        keys: set[str] = set()
        for query in _Q_LOAD_CONCEPT_KEYS.values():
            record = session.execute_read(lambda tx, q=query: tx.run(q, load_id=load_id).single())
            keys.update(record["keys"] if record else [])
        for label in (*VERSIONED_LABELS, "Concept"):
            while True:
                n = _write(
                    session,
                    _Q_DELETE_BATCH[label],
                    {"load_id": load_id, "limit": DELETE_BATCH_SIZE},
                )
                deleted += n
                if n < DELETE_BATCH_SIZE:
                    break
        ordered = sorted(keys)
        for start in range(0, len(ordered), DELETE_BATCH_SIZE):
            deleted += _write(
                session,
                _Q_DELETE_ORPHAN_CONCEPTS,
                {"keys": ordered[start : start + DELETE_BATCH_SIZE]},
            )
        deleted += _write(session, _Q_DELETE_UNLINKED_CONCEPTS, {"load_id": load_id})
        session.execute_write(
            lambda tx: tx.run(_Q_FORGET_LOAD, guideline=guideline, load_id=load_id).consume()
        )
    return deleted


def delete_guideline(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> None:
    """Remove a guideline entirely (all its loads and its Guideline node)."""
    record = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) "
        "RETURN [g.current_load_id] + coalesce(g.pending_load_ids, []) AS loads",
        guideline=guideline,
        database_=database,
    ).records
    for load_id in record[0]["loads"] if record else []:
        if load_id:
            delete_load(driver, guideline, load_id, database=database)
    driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) DETACH DELETE g",
        guideline=guideline,
        database_=database,
    )
    driver.execute_query(  # its released load lock; a lock some load still holds stays
        "MATCH (l:LoadLock {guideline: $guideline}) WHERE l.holder IS NULL DELETE l",
        guideline=guideline,
        database_=database,
    )


# --- counts -----------------------------------------------------------------------------
def _load_counts(
    session: neo4j.Session, guideline: str, load_id: str, *, with_concepts: bool = True
) -> tuple[dict[str, int], dict[str, int]]:
    """(nodes by label, relationships by type) written by one load."""

    def one(query: str, **params: Any) -> Any:
        return session.execute_read(lambda tx: tx.run(query, params).single())

    nodes: dict[str, int] = {}
    rels: Counter[str] = Counter()
    for label in VERSIONED_LABELS:
        nodes[label] = one(
            f"MATCH (n:{_label(label)} {{load_id: $load_id}}) RETURN count(n) AS n",
            load_id=load_id,
        )["n"]
        for row in session.execute_read(
            lambda tx, lbl=label: tx.run(
                f"MATCH (n:{_label(lbl)} {{load_id: $load_id}})-[r]->() "
                "RETURN type(r) AS type, count(r) AS n",
                load_id=load_id,
            ).data()
        ):
            rels[row["type"]] += row["n"]
    nodes["Unmapped"] = one(
        "MATCH (c:Concept {load_id: $load_id}) RETURN count(c) AS n", load_id=load_id
    )["n"]
    if with_concepts:
        keys: set[str] = set()
        for query in _Q_LOAD_CONCEPT_KEYS.values():
            keys.update(one(query, load_id=load_id)["keys"])
        nodes["Concept"] = len(keys)
    rels["HAS_TABLE"] = one(
        "MATCH (:Guideline {id: $guideline})-[r:HAS_TABLE]->(t:SourceTable {load_id: $load_id}) "
        "RETURN count(r) AS n",
        guideline=guideline,
        load_id=load_id,
    )["n"]
    return nodes, {k: v for k, v in sorted(rels.items()) if v}


def graph_counts(driver: neo4j.Driver, guideline: str, *, database: str = "neo4j") -> dict:
    """Nodes by label and relationships by type of the guideline's CURRENT version.

    ``Concept`` counts the distinct shared (grounded) concepts it links to; ``Unmapped``
    its own unmapped concept nodes.
    """
    records = driver.execute_query(
        "MATCH (g:Guideline {id: $guideline}) RETURN g.current_load_id AS load_id",
        guideline=guideline,
        database_=database,
    ).records
    load_id = records[0]["load_id"] if records else None
    if load_id is None:
        return {"load_id": None, "nodes": {}, "relationships": {}}
    with driver.session(database=database) as session:
        nodes, rels = _load_counts(session, guideline, load_id)
    return {"load_id": load_id, "nodes": nodes, "relationships": rels}
