"""The guideline inbox sensor: documents dropped in the inbox become partitions and runs.

Every tick (30 s while the daemon runs, e.g. under ``make ui``) it adds a partition for
every new registry entry and inbox document, and requests a run of every asset for each
inbox document that is new or was replaced (keyed by its mtime and size). Two files that
map to one partition are both ignored, with a warning naming both.
"""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg

from cardio_assets.config import load_pipeline_settings
from cardio_assets.partitions import (
    GUIDELINE_PARTITIONS_NAME,
    guideline_partitions,
    registry_partition_ids,
    scan_inbox,
)


def _fingerprint(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_mtime_ns}-{stat.st_size}"


def build_inbox_sensor(target: dg.AssetSelection) -> dg.SensorDefinition:
    """Sensor registering inbox documents as partitions and requesting their runs."""

    @dg.sensor(
        name="guideline_inbox_sensor",
        target=target,
        minimum_interval_seconds=30,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description=(
            "Registers documents dropped in the guideline inbox (configs/pipeline.yaml "
            "inbox.dir, default var/inbox/) as guideline partitions and runs them; also adds "
            "partitions for new entries of configs/guidelines.yaml."
        ),
    )
    def guideline_inbox_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
        seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
        existing = set(context.instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME))
        registry_ids = registry_partition_ids()
        new_keys = [key for key in registry_ids if key not in existing]
        run_requests = []
        settings = load_pipeline_settings()
        scan = scan_inbox(settings.inbox_dir(), settings.inbox.extensions)
        for warning in scan.warnings():
            context.log.warning(warning)
        for key, path in scan.documents.items():
            fingerprint = _fingerprint(path)
            if key not in existing and key not in new_keys:
                new_keys.append(key)
            if seen.get(key) != fingerprint:
                seen[key] = fingerprint
                run_requests.append(
                    dg.RunRequest(
                        run_key=f"inbox:{key}:{fingerprint}",
                        partition_key=key,
                        tags={"cardio/inbox_file": path.name},
                    )
                )
        if not new_keys and not run_requests:
            return dg.SensorResult(
                skip_reason="; ".join(["no new guideline documents", *scan.warnings()]),
                cursor=json.dumps(seen),
            )
        return dg.SensorResult(
            run_requests=run_requests,
            dynamic_partitions_requests=[guideline_partitions.build_add_request(new_keys)]
            if new_keys
            else [],
            cursor=json.dumps(seen, sort_keys=True),
        )

    return guideline_inbox_sensor


# every asset is partitioned by guideline, so an inbox run materializes all of them
guideline_inbox_sensor = build_inbox_sensor(dg.AssetSelection.all())
