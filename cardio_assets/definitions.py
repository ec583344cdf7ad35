"""The one Dagster Definitions object of the project.

Every module in ``cardio_assets/assets/`` is imported and its assets, asset checks and
sensors are collected automatically: a new stage only adds a module there. Resources are
listed in ``RESOURCES`` (add one line per resource key).
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
from types import ModuleType

import dagster as dg

from cardio_assets import assets as assets_package
from cardio_assets.config import config_path, load_pipeline_settings, load_registry
from cardio_assets.orphaned_runs import build_orphaned_run_sensor
from cardio_assets.partitions import build_inbox_sensor, sync_guideline_partitions
from resources.docling_converter import DoclingConverterResource
from resources.duckdb_io_manager import DuckDBRecordIOManager
from resources.lexicon_extractor import LexiconExtractorResource
from resources.llm_extractor import LlmExtractorResource
from resources.neo4j_resource import neo4j_resource_from_env
from resources.terminology import SnomedTerminologyResource

_log = logging.getLogger(__name__)
_settings = load_pipeline_settings()


def stage_modules() -> list[ModuleType]:
    """All modules of cardio_assets.assets, in name order."""
    return [
        importlib.import_module(f"{assets_package.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(assets_package.__path__), key=lambda i: i.name)
        if not info.name.startswith("_")
    ]


def _module_sensors(modules: list[ModuleType]) -> list[dg.SensorDefinition]:
    found: dict[str, dg.SensorDefinition] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, dg.SensorDefinition):
                found.setdefault(value.name, value)
    return list(found.values())


RESOURCES: dict[str, object] = {
    "io_manager": DuckDBRecordIOManager(),
    "docling": DoclingConverterResource(artifacts_path=_settings.docling.artifacts_path),
    "terminology": SnomedTerminologyResource(),  # bundled SNOMED CT sample unless store_path is set
    "neo4j": neo4j_resource_from_env(),  # NEO4J_URI/USER/PASSWORD, else the local launcher
    "llm": LlmExtractorResource(),  # llm extraction backend (configs/models.yaml)
    "lexicon": LexiconExtractorResource(),  # offline lexicon extraction backend
}

_modules = stage_modules()
_assets = dg.load_assets_from_modules(_modules)
_checks = dg.load_asset_checks_from_modules(_modules)
# every asset is partitioned by guideline, so an inbox run materializes all of them
inbox_sensor = build_inbox_sensor(dg.AssetSelection.all())
# marks killed runs failed and frees their pool slots (README "Killed runs")
orphaned_run_sensor = build_orphaned_run_sensor()

defs = dg.Definitions(
    assets=_assets,
    asset_checks=_checks,
    sensors=[inbox_sensor, orphaned_run_sensor, *_module_sensors(_modules)],
    resources=RESOURCES,
)


def _sync_on_load() -> None:
    """Register registry/inbox partitions when a Dagster instance is configured, so the UI and
    `dagster asset materialize --partition` know them without waiting for the sensor."""
    if not os.environ.get("DAGSTER_HOME") or os.environ.get("CARDIO_SYNC_ON_LOAD") == "0":
        return
    try:
        with dg.DagsterInstance.get() as instance:
            sync_guideline_partitions(instance)
    except Exception as exc:  # never block loading the code location on this
        _log.warning("could not sync guideline partitions on load: %s", exc)


def _report_registry_problems() -> None:
    """A bad registry entry fails only its own partition; say so whenever the code loads
    (`dagster definitions validate`, the UI, every run), naming the entry and key."""
    registry_file = config_path("guidelines.yaml")
    for problem in load_registry().problems:
        _log.warning(
            "%s: %s (this guideline's runs fail until it is fixed; the others run)",
            registry_file,
            problem,
        )


_report_registry_problems()
_sync_on_load()
