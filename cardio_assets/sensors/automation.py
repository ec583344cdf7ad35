"""The automation sensor: brings downstream partitions up to date without a click.

Every stage downstream of ``docling_tables`` carries ``AutomationCondition.eager()``
(cardio_assets/assets/_batch.py): when a partition of what it reads is newly materialized
or changed, the daemon requests that partition of it, and of what follows, once its inputs
are complete and nothing of it is in progress. This sensor evaluates those conditions. It
ships RUNNING, so with the daemon (`make ui`) a new upstream materialization propagates by
itself; turn it off in the UI (Automation -> ``cardio_automation_sensor`` -> toggle) or with
``dagster sensor stop cardio_automation_sensor -w workspace.yaml``.

The root stage has no condition: a new guideline enters through the inbox sensor (which
requests the whole pipeline for it), a `cardio backfill`, or the UI.
"""

from __future__ import annotations

import dagster as dg

AUTOMATION_SENSOR_NAME = "cardio_automation_sensor"
# how often the daemon evaluates the conditions (Dagster's default for this sensor)
AUTOMATION_INTERVAL_SECONDS = 30

cardio_automation_sensor = dg.AutomationConditionSensorDefinition(
    AUTOMATION_SENSOR_NAME,
    target=dg.AssetSelection.all(),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=AUTOMATION_INTERVAL_SECONDS,
    # several partitions requested in one tick become one backfill, so the stages'
    # single-run backfill policy applies to automation too
    emit_backfills=True,
    description=(
        "Materializes a guideline partition of a stage when a partition it reads was newly "
        "materialized or changed (AutomationCondition.eager). Stop it to turn automation off."
    ),
)
