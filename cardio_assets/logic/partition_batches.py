"""Records of several guideline partitions in one step (single-run backfills).

A single-run backfill hands a step every partition it targets at once: the inputs arrive
as one list holding the records of all of them. These functions split such a list back
into one list per guideline, so each stage's logic still sees one guideline at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar


class _HasGuideline(Protocol):
    guideline: str


R = TypeVar("R", bound=_HasGuideline)


def group_by_guideline(keys: Sequence[str], records: Iterable[R]) -> dict[str, list[R]]:
    """One list per key, in the input order; a key with no records gets an empty list.

    A record of a guideline outside ``keys`` is an error: the IO manager loaded more than
    the step targets, and mixing it in would write another guideline's rows.
    """
    grouped: dict[str, list[R]] = {key: [] for key in keys}
    for record in records:
        if record.guideline not in grouped:
            raise ValueError(
                f"record of guideline {record.guideline!r} outside the partitions of this "
                f"step {list(keys)}"
            )
        grouped[record.guideline].append(record)
    return grouped


def stamp_guideline(records: Iterable[R], guideline: str) -> list[R]:
    """The records with ``guideline`` set (records whose producer does not know it)."""
    return [r.model_copy(update={"guideline": guideline}) for r in records]  # type: ignore[attr-defined]


def contiguous_ranges(order: Sequence[str], chosen: Iterable[str]) -> list[list[str]]:
    """``chosen`` cut into runs of neighbours in the partition ``order``.

    A single-run backfill covers one *range* of partitions (its first and last key), so
    Dagster launches one run per range: guidelines that are not next to each other in the
    partition list take one run each (dagster-io/dagster#32335). Keys missing from
    ``order`` each form their own range, at the end.
    """
    wanted = set(chosen)
    ranges: list[list[str]] = []
    current: list[str] = []
    for key in order:
        if key in wanted:
            current.append(key)
        elif current:
            ranges.append(current)
            current = []
    if current:
        ranges.append(current)
    known = set(order)
    ranges.extend([key] for key in dict.fromkeys(chosen) if key not in known)
    return ranges
