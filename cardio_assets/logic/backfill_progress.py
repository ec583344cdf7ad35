"""What `cardio backfill` prints while it follows a backfill: one line per guideline
partition whenever its count of materialized (or failed) assets moves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class PartitionProgress:
    """How far one guideline partition of a backfill is."""

    guideline: str
    done: int
    failed: int
    total: int

    @property
    def finished(self) -> bool:
        return self.done + self.failed >= self.total

    def line(self) -> str:
        state = "failed" if self.failed else "done" if self.finished else "running"
        failed = f", {self.failed} failed or skipped" if self.failed else ""
        return f"  {self.guideline}: {self.done}/{self.total} assets materialized{failed} ({state})"


def progress(
    guidelines: Iterable[str],
    assets: int,
    materialized: Iterable[tuple[str, str]],
    failed: Iterable[tuple[str, str]],
) -> dict[str, PartitionProgress]:
    """Per guideline, from (asset, guideline) pairs materialized and failed so far."""
    done: dict[str, set[str]] = {}
    bad: dict[str, set[str]] = {}
    for asset, guideline in materialized:
        done.setdefault(guideline, set()).add(asset)
    for asset, guideline in failed:
        bad.setdefault(guideline, set()).add(asset)
    return {
        g: PartitionProgress(g, len(done.get(g, ())), len(bad.get(g, ())), assets)
        for g in guidelines
    }


def changed_lines(
    before: Mapping[str, PartitionProgress], now: Mapping[str, PartitionProgress]
) -> list[str]:
    """Lines for the partitions whose progress moved since ``before``."""
    return [p.line() for g, p in now.items() if before.get(g) != p]
