"""One step over several guideline partitions: grouping the inputs back per guideline, one
check result over many partitions, and `cardio backfill`'s progress lines."""

from __future__ import annotations

import dagster as dg
import pytest

from cardio_assets.assets._batch import combine_checks
from cardio_assets.logic.backfill_progress import changed_lines, progress
from cardio_assets.logic.partition_batches import (
    contiguous_ranges,
    group_by_guideline,
    stamp_guideline,
)
from cardio_assets.records import GroundingOutcome, TaggedRow


def _row(guideline: str, row: str) -> TaggedRow:
    return TaggedRow(row_id=row, guideline=guideline, focus="MAIN", text=row)


def test_group_by_guideline_keeps_order_and_empty_keys() -> None:
    rows = [_row("b", "b1"), _row("a", "a1"), _row("b", "b2")]
    grouped = group_by_guideline(["a", "b", "c"], rows)
    assert [r.row_id for r in grouped["b"]] == ["b1", "b2"]
    assert [r.row_id for r in grouped["a"]] == ["a1"]
    assert grouped["c"] == []


def test_a_record_outside_the_step_is_refused() -> None:
    with pytest.raises(ValueError, match="'x' outside the partitions"):
        group_by_guideline(["a"], [_row("x", "x1")])


def test_stamp_guideline_sets_the_partition() -> None:
    outcome = GroundingOutcome(term="heart failure", role="Condition")
    assert outcome.guideline == ""
    assert stamp_guideline([outcome], "hf")[0].guideline == "hf"


def _check(passed: bool, severity=dg.AssetCheckSeverity.WARN, **metadata) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(
        check_name="rows_found",
        passed=passed,
        severity=severity,
        description=None if passed else "no rows",
        metadata=metadata,
    )


def test_one_partition_keeps_its_check_as_is() -> None:
    only = _check(True, rows=3)
    assert combine_checks({"a": only}) is only


def test_checks_over_partitions_pass_only_when_each_passes() -> None:
    combined = combine_checks(
        {
            "a": _check(True, rows=3),
            "b": _check(False, dg.AssetCheckSeverity.ERROR, rows=0),
        }
    )
    assert not combined.passed
    assert combined.severity == dg.AssetCheckSeverity.ERROR
    assert combined.description == "b: no rows"
    assert combined.metadata["failed_partitions"].value == ["b"]
    assert combined.metadata["per_partition"].value == {
        "a": {"passed": True, "rows": 3},
        "b": {"passed": False, "rows": 0},
    }
    assert combine_checks({"a": _check(True), "b": _check(True)}).passed


def test_progress_lines_move_per_partition() -> None:
    first = progress(["a", "b"], 2, [("table_rows", "a")], [])
    assert changed_lines({}, first) == [
        "  a: 1/2 assets materialized (running)",
        "  b: 0/2 assets materialized (running)",
    ]
    second = progress(["a", "b"], 2, [("table_rows", "a"), ("tagged_rows", "a")], [("x", "b")])
    assert changed_lines(first, second) == [
        "  a: 2/2 assets materialized (done)",
        "  b: 0/2 assets materialized, 1 failed or skipped (failed)",
    ]
    assert changed_lines(second, second) == []


def test_contiguous_ranges_follow_the_partition_order() -> None:
    # A single-run backfill covers a first-to-last range of the partition list, so guidelines
    # with another one between them cannot share a run; cardio backfill says how many it takes.
    order = ["a", "b", "c", "d", "e"]
    assert contiguous_ranges(order, ["b", "c"]) == [["b", "c"]]
    assert contiguous_ranges(order, ["d", "a", "b"]) == [["a", "b"], ["d"]]
    assert contiguous_ranges(order, ["a", "c", "e"]) == [["a"], ["c"], ["e"]]
    assert contiguous_ranges(order, ["e", "z"]) == [["e"], ["z"]]
    assert contiguous_ranges(order, []) == []
