"""Per-partition staleness of the pipeline's assets, from plain records.

Why not Dagster's own answer: the UI's global "unsynced" badge is unreliable for
partitioned assets, and Dagster's internal stale-status resolver changes signature between
releases. The rule is small enough to own (docs/ARCHITECTURE.md, "How a code version is made"): an asset
partition is stale when its recorded code version differs from the definition's current
one, when an upstream partition is stale (or was never materialized), or when an upstream
partition's current data version differs from the input data version recorded at
materialization. Staleness therefore flows downstream in topological order.

No Dagster imports: cardio_assets/cli/status.py turns the instance's materialization tags into
these records, so the rule is unit-tested on hand-made histories.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class State(StrEnum):
    NEVER = "never materialized"
    FRESH = "fresh"
    STALE = "stale"


@dataclass(frozen=True)
class AssetNode:
    """One asset as currently defined: its code version and the assets it reads."""

    name: str
    code_version: str | None
    parents: tuple[str, ...] = ()
    # what the code version hashes, named for a human ("configs/pipeline.yaml (grounding)")
    code_version_reads: str = ""


@dataclass(frozen=True)
class Materialization:
    """The last materialization of one asset partition, as recorded by its tags."""

    run_id: str
    timestamp: float
    code_version: str | None
    data_version: str | None
    input_data_versions: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AssetStatus:
    asset: str
    state: State
    reasons: tuple[str, ...] = ()
    run_id: str | None = None
    timestamp: float | None = None
    recorded_code_version: str | None = None
    current_code_version: str | None = None

    @property
    def needs_run(self) -> bool:
        return self.state is not State.FRESH


class StalenessError(ValueError):
    pass


def toposort(nodes: Iterable[AssetNode]) -> list[AssetNode]:
    """Upstream before downstream; ties by name so output order is stable. Parents that are
    not among ``nodes`` (assets outside the pipeline) are ignored."""
    by_name = {n.name: n for n in nodes}
    pending = {n: {p for p in by_name[n].parents if p in by_name} for n in by_name}
    ordered: list[AssetNode] = []
    while pending:
        ready = sorted(n for n, parents in pending.items() if not parents)
        if not ready:
            raise StalenessError(f"dependency cycle among assets: {sorted(pending)}")
        for name in ready:
            ordered.append(by_name[name])
            del pending[name]
        for parents in pending.values():
            parents.difference_update(ready)
    return ordered


def recorded_input_forms(data_version: str | None) -> set[str]:
    """How an upstream partition's data version appears in a downstream's
    ``input_data_version`` tag. Dagster records a PARTITIONED input as the sha256 of the
    concatenated data versions of the upstream partitions it read (checked in dagster 1.13,
    DataVersionCache._get_partitions_data_version_from_keys); with one-to-one guideline
    partitions that is sha256 of the single upstream partition's version. An unpartitioned
    input is recorded as is. Comparing the raw value alone would call everything stale."""
    if data_version is None:
        return set()
    return {data_version, hashlib.sha256(data_version.encode("utf8")).hexdigest()}


def _code_reason(node: AssetNode, recorded: str | None) -> str:
    reads = node.code_version_reads or "the asset's code"
    if recorded is None:
        return f"no code version recorded (now {node.code_version}); reads {reads}"
    return f"code version changed: {reads} ({recorded} -> {node.code_version})"


def partition_status(
    nodes: Iterable[AssetNode], last: Mapping[str, Materialization | None]
) -> list[AssetStatus]:
    """Status of every asset for one partition, upstream first.

    ``last`` maps asset name -> its partition's last materialization (missing = never).
    """
    ordered = toposort(nodes)
    names = {n.name for n in ordered}
    statuses: dict[str, AssetStatus] = {}
    for node in ordered:
        mat = last.get(node.name)
        if mat is None:
            statuses[node.name] = AssetStatus(
                node.name, State.NEVER, current_code_version=node.code_version
            )
            continue
        reasons: list[str] = []
        if node.code_version is not None and mat.code_version != node.code_version:
            reasons.append(_code_reason(node, mat.code_version))
        for parent in sorted(p for p in node.parents if p in names):
            upstream = statuses[parent]
            if upstream.state is State.NEVER:
                reasons.append(f"upstream {parent} never materialized")
                continue
            if upstream.state is State.STALE:
                reasons.append(f"upstream {parent} stale")
            recorded_input = mat.input_data_versions.get(parent)
            parent_mat = last[parent]  # materialized: its state is not NEVER
            current = parent_mat.data_version if parent_mat else None
            if recorded_input is None:
                reasons.append(f"upstream {parent}: no input data version recorded")
            elif recorded_input not in recorded_input_forms(current):
                reasons.append(f"upstream {parent} changed")
        statuses[node.name] = AssetStatus(
            node.name,
            State.STALE if reasons else State.FRESH,
            tuple(reasons),
            run_id=mat.run_id,
            timestamp=mat.timestamp,
            recorded_code_version=mat.code_version,
            current_code_version=node.code_version,
        )
    return [statuses[n.name] for n in ordered]


def rematerialize_roots(nodes: Iterable[AssetNode], statuses: Iterable[AssetStatus]) -> list[str]:
    """The fewest assets whose 'X*' selections (X and everything downstream) cover every
    stale or never-materialized asset: those needing a run while no parent does. Since
    staleness propagates, everything downstream of a root needs a run as well."""
    by_name = {s.asset: s for s in statuses}
    roots = []
    for node in toposort(nodes):
        status = by_name.get(node.name)
        if status is None or not status.needs_run:
            continue
        if not any(by_name[p].needs_run for p in node.parents if p in by_name):
            roots.append(node.name)
    return roots


def downstream_of(nodes: Iterable[AssetNode], roots: Iterable[str]) -> list[str]:
    """The roots and every asset downstream of them, upstream first: what 'X*' selects."""
    ordered = toposort(nodes)
    chosen = set(roots)
    for node in ordered:
        if any(p in chosen for p in node.parents):
            chosen.add(node.name)
    return [n.name for n in ordered if n.name in chosen]


def selection_string(roots: Iterable[str]) -> str:
    """Comma-separated selection for `dagster asset materialize --select`."""
    return ",".join(f"{root}*" for root in roots)
