"""Two loads of the same guideline at once must not delete each other's copy in progress.

A load begins by removing the half-written copies of earlier failed loads (the ids in
``Guideline.pending_load_ids`` that are not current). A second load of the same guideline
started while the first one is writing used to take the first one's copy for such a
leftover and delete it, so the first load failed. Loads of one guideline now take a lease
lock node in Neo4j: the second waits, a killed holder blocks the next load only until its
lease ends, and a load whose lock was taken over cannot switch to its copy.

All against the session's real Neo4j over Bolt (tests/neo4j_fixtures.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import neo4j
import pytest

from cardio_assets.logic import neo4j_graph as graph
from cardio_assets.logic.neo4j_graph.lock import LoadLock
from cardio_assets.logic.synthetic_rules import synthetic_rules
from tests.test_neo4j_graph import assert_counts, subgraph_snapshot

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[2]
PAUSE_SECONDS = 4.0  # how long the first load stays paused midway for the second to act


def _one(driver: neo4j.Driver, query: str, **params: object) -> object:
    return driver.execute_query(query, params).records[0][0]


def _lock_nodes(driver: neo4j.Driver, guideline: str) -> list[dict]:
    return [
        r["l"]
        for r in driver.execute_query(
            "MATCH (l:LoadLock {guideline: $g}) RETURN properties(l) AS l", g=guideline
        ).records
    ]


def _held(driver: neo4j.Driver, guideline: str) -> list[str | None]:
    """Holders of the guideline's lock node (None: released; the node itself stays)."""
    return [lock.get("holder") for lock in _lock_nodes(driver, guideline)]


def _owned(driver: neo4j.Driver, load_id: str) -> int:
    return _one(driver, "MATCH (n {load_id: $id}) RETURN count(n)", id=load_id)


def test_two_loads_of_one_guideline_at_once_both_finish_with_one_whole_version(
    neo4j_driver,
) -> None:
    guideline = "g-twice"
    first_rules = synthetic_rules(guideline, 150, seed=21, rules_per_table=150)
    second_rules = synthetic_rules(guideline, 150, seed=21, rules_per_table=150, revision=1)
    midway, second_done = threading.Event(), threading.Event()
    results: dict[str, graph.LoadResult] = {}
    errors: dict[str, BaseException] = {}

    def pause_midway(step: str, done: int, total: int) -> None:
        if done < total and not midway.is_set():
            midway.set()  # the first chunk is committed, the rest is still to write
            second_done.wait(PAUSE_SECONDS)

    def load(name: str, rules, **kwargs) -> None:
        try:
            results[name] = graph.load_guideline(
                neo4j_driver, guideline, rules, batch_size=50, **kwargs
            )
        except BaseException as exc:  # noqa: BLE001 - reported by the assertions below
            errors[name] = exc
        finally:
            if name == "second":
                second_done.set()

    first = threading.Thread(
        target=load, args=("first", first_rules), kwargs={"on_progress": pause_midway}
    )
    first.start()
    assert midway.wait(60), "the first load never got midway"
    second = threading.Thread(target=load, args=("second", second_rules))
    second.start()
    first.join(120)
    second.join(120)
    try:
        assert not errors, f"a load failed: {errors}"
        one, two = results["first"], results["second"]
        # the second waited for the first, then replaced its finished version as usual
        assert two.phases["wait for lock"] >= PAUSE_SECONDS / 2
        assert two.previous_load_id == one.load_id
        assert one.stale_loads_removed == [] and two.stale_loads_removed == []
        current = _one(
            neo4j_driver, "MATCH (g:Guideline {id: $g}) RETURN g.current_load_id", g=guideline
        )
        assert current == two.load_id
        assert_counts(neo4j_driver, guideline, second_rules)  # one whole version
        assert _owned(neo4j_driver, one.load_id) == 0
        pending = _one(
            neo4j_driver, "MATCH (g:Guideline {id: $g}) RETURN g.pending_load_ids", g=guideline
        )
        assert pending == []
        assert _held(neo4j_driver, guideline) == [None]  # released
    finally:
        graph.delete_guideline(neo4j_driver, guideline)


_STALLED_LOAD = """
import sys, time
import neo4j
from cardio_assets.logic import neo4j_graph as graph
from cardio_assets.logic.synthetic_rules import synthetic_rules

uri, user, password, guideline = sys.argv[1:5]
driver = neo4j.GraphDatabase.driver(uri, auth=(user, password))

def stall(step, done, total):
    if done < total:
        print("midway", flush=True)
        time.sleep(600)

graph.load_guideline(
    driver, guideline, synthetic_rules(guideline, 150, seed=31, rules_per_table=150),
    batch_size=50, on_progress=stall, lock_lease_seconds=3,
)
"""


def test_a_killed_loads_lock_is_taken_over_when_its_lease_ends(neo4j_server, neo4j_driver) -> None:
    """kill -9 of a process midway through a load: the lock it holds stays in Neo4j. The
    next load waits for the lease to end (never forever), takes the lock over and removes
    the killed load's partial copy."""
    guideline = "g-killed"
    process = subprocess.Popen(
        [sys.executable, "-c", _STALLED_LOAD, neo4j_server.uri, neo4j_server.user]
        + [neo4j_server.password, guideline],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        line = process.stdout.readline()  # blocks until midway, or EOF if it died
        assert line.strip() == "midway", process.stderr.read()[-2000:]
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(30)
    (lock,) = _lock_nodes(neo4j_driver, guideline)
    killed = lock["holder"]
    assert _owned(neo4j_driver, killed) > 0  # its first chunk was committed

    rules = synthetic_rules(guideline, 150, seed=31, rules_per_table=150, revision=1)
    said: list[str] = []
    started = time.monotonic()
    try:
        result = graph.load_guideline(neo4j_driver, guideline, rules, on_lock_wait=said.append)
        waited = time.monotonic() - started
        assert 0.5 < waited < 30
        assert len(said) == 1 and killed in said[0]
        assert result.lock_taken_over == killed
        assert result.stale_loads_removed == [killed] and result.previous_load_id is None
        assert _owned(neo4j_driver, killed) == 0
        assert_counts(neo4j_driver, guideline, rules)
        assert _held(neo4j_driver, guideline) == [None]
    finally:
        graph.delete_guideline(neo4j_driver, guideline)


def test_a_load_whose_lock_was_taken_over_does_not_switch(neo4j_driver) -> None:
    """Should a load stall past its lease and another load take the lock, the stalled one
    must not make its copy current when it wakes up: it fails and keeps the version."""
    guideline = "g-fenced"
    graph.load_guideline(neo4j_driver, guideline, synthetic_rules(guideline, 150, seed=41))
    before = subgraph_snapshot(neo4j_driver, guideline)

    def taken_over_midway(step: str, done: int, total: int) -> None:
        if done < total:  # what a load that found this one's lease expired would write
            neo4j_driver.execute_query(
                "MATCH (l:LoadLock {guideline: $g}) SET l.holder = 'another-load'", g=guideline
            )

    try:
        with pytest.raises(graph.Neo4jLoadError, match="(?i)lock"):
            graph.load_guideline(
                neo4j_driver,
                guideline,
                synthetic_rules(guideline, 150, seed=41, revision=1),
                batch_size=50,
                on_progress=taken_over_midway,
            )
        assert subgraph_snapshot(neo4j_driver, guideline) == before
        # the lock is the other load's now: the failed one must not have released it
        assert _held(neo4j_driver, guideline) == ["another-load"]
    finally:
        neo4j_driver.execute_query("MATCH (l:LoadLock {guideline: $g}) DELETE l", g=guideline)
        graph.delete_guideline(neo4j_driver, guideline)


def test_a_load_waiting_while_the_holder_releases_really_holds_the_lock(neo4j_driver) -> None:
    """A waiting load polls the lock while the holder finishes. Whenever the two meet (a
    poll at the very moment of the release), the waiter must end up owning a real lock
    node, not one the release just removed: otherwise a third load would take the lock
    too, and the waiter could not switch to its copy. Repeated with polls and releases
    spread over a few milliseconds so that some of them coincide."""
    graph.ensure_schema(neo4j_driver, "neo4j")
    guideline = "g-handover"
    wrong: list[tuple[int, list[str | None]]] = []
    try:
        for turn in range(40):
            holder = LoadLock(neo4j_driver, guideline, f"first-{turn}")
            holder.acquire()
            seen: list[str | None] = []

            def wait_then_take(turn: int = turn, seen: list[str | None] = seen) -> None:
                waiter = LoadLock(neo4j_driver, guideline, f"second-{turn}")
                waiter.acquire(poll_seconds=0.002)
                seen.extend(_held(neo4j_driver, guideline))
                waiter.release()

            waiting = threading.Thread(target=wait_then_take)
            waiting.start()
            time.sleep(0.01 + (turn % 8) * 0.002)
            holder.release()
            waiting.join(30)
            if seen != [f"second-{turn}"]:
                wrong.append((turn, seen))
        assert wrong == []
    finally:
        graph.delete_guideline(neo4j_driver, guideline)
    assert _lock_nodes(neo4j_driver, guideline) == []  # a released lock goes with its guideline
