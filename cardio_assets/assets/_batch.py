"""How an asset step serves one or many guideline partitions (not an asset module).

Every stage but ``neo4j_graph`` takes ``BackfillPolicy.single_run()``: a backfill of N
guidelines is one run whose step receives all N partitions (``context.partition_keys``),
instead of N runs that each pay for a process, the imports and the DuckDB opens. Each
stage computes a ``PartitionResult`` per guideline with the same code as a one-partition
run; ``emit`` writes them as one output (the IO manager stores each guideline's rows under
its own key), attaches each guideline's metadata to its own partition's materialization
and folds the checks into one result per check.

A check evaluated over several partitions passes only when it passes for every one of
them; its metadata lists each guideline's verdict. A blocking check that fails for one
guideline therefore stops the downstream steps of that whole run (run the others again
with `cardio backfill --guideline ...`, or one partition at a time, to keep them apart).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import dagster as dg

from cardio_assets.config import load_pipeline_settings

# the one backfill policy of every stage that can take several partitions in one step
# (configs/pipeline.yaml backfill.single_run; false = one run per guideline)
SINGLE_RUN = (
    dg.BackfillPolicy.single_run()
    if load_pipeline_settings().backfill.single_run
    else dg.BackfillPolicy.multi_run(1)
)
# downstream stages bring themselves up to date when what they read changes (the daemon's
# automation sensor evaluates it; see sensors/automation.py)
EAGER = dg.AutomationCondition.eager()


@dataclass
class PartitionResult:
    """What one guideline's part of a step produced."""

    records: list[Any]
    metadata: dict[str, Any] = field(default_factory=dict)
    checks: list[dg.AssetCheckResult] = field(default_factory=list)


def _plain(value: Any) -> Any:
    raw = getattr(value, "value", value)
    try:
        json.dumps(raw)
    except TypeError:
        return str(raw)
    return raw


def combine_checks(per_partition: Mapping[str, dg.AssetCheckResult]) -> dg.AssetCheckResult:
    """One result for a check evaluated on several partitions: passed only if every
    partition passed, the severity of the worst failure, each guideline's verdict kept."""
    if len(per_partition) == 1:
        return next(iter(per_partition.values()))
    first = next(iter(per_partition.values()))
    failed = {key: r for key, r in per_partition.items() if not r.passed}
    severity = (
        dg.AssetCheckSeverity.ERROR
        if any(r.severity == dg.AssetCheckSeverity.ERROR for r in failed.values())
        else dg.AssetCheckSeverity.WARN
        if failed
        else first.severity
    )
    return dg.AssetCheckResult(
        check_name=first.check_name,
        asset_key=first.asset_key,
        passed=not failed,
        severity=severity,
        description="; ".join(f"{key}: {r.description or 'failed'}" for key, r in failed.items())
        or None,
        metadata={
            "partitions": len(per_partition),
            "failed_partitions": dg.MetadataValue.json(sorted(failed)),
            "per_partition": dg.MetadataValue.json(
                {
                    key: {
                        "passed": r.passed,
                        **{name: _plain(v) for name, v in r.metadata.items()},
                    }
                    for key, r in per_partition.items()
                }
            ),
        },
    )


def emit(
    context: dg.AssetExecutionContext, results: Mapping[str, PartitionResult]
) -> Iterator[dg.Output | dg.AssetCheckResult]:
    """Yield the step's output (all guidelines' records) and its check results."""
    records: list[Any] = []
    for key, result in results.items():
        records.extend(result.records)
        context.add_asset_metadata(result.metadata, partition_key=key)
    yield dg.Output(records)
    by_check: dict[str, dict[str, dg.AssetCheckResult]] = {}
    for key, result in results.items():
        for check in result.checks:
            by_check.setdefault(str(check.check_name), {})[key] = check
    for per_partition in by_check.values():
        yield combine_checks(per_partition)


def partition_keys(context: dg.AssetExecutionContext) -> list[str]:
    """The guideline partitions this step materializes (one, or a backfill's many)."""
    return list(context.partition_keys)
