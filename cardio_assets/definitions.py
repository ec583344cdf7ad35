"""The one Dagster Definitions object of the project.

Assets and asset checks are collected from every module of ``cardio_assets/assets/`` and
sensors from every module of ``cardio_assets/sensors/`` (``dg.load_definitions_from_package_module``):
a new stage or sensor only adds a module there. Resources are listed in ``RESOURCES``
(one line per resource key).

Importing this module writes nothing: partitions are added by the inbox sensor, by
``cardio demo`` and by ``cardio partitions sync``, never on load. It only logs a bad
registry entry, so `dagster definitions validate` and the UI say which guideline fails.
"""

from __future__ import annotations

import logging
import warnings

import dagster as dg

from cardio_assets import assets, sensors
from cardio_assets.config import config_path, load_pipeline_settings, load_registry
from resources.docling_converter import DoclingConverterResource
from resources.duckdb_io_manager import DuckDBRecordIOManager
from resources.lexicon_extractor import LexiconExtractorResource
from resources.llm_extractor import LlmExtractorResource
from resources.neo4j_resource import neo4j_resource_from_env
from resources.terminology import SnomedTerminologyResource

_log = logging.getLogger(__name__)

RESOURCES: dict[str, object] = {
    "io_manager": DuckDBRecordIOManager(),
    "docling": DoclingConverterResource(
        artifacts_path=load_pipeline_settings().docling.artifacts_path
    ),
    "terminology": SnomedTerminologyResource(),  # bundled SNOMED CT sample unless store_path
    "neo4j": neo4j_resource_from_env(),  # NEO4J_URI/USER/PASSWORD, else the local launcher
    "llm": LlmExtractorResource(),  # llm extraction backend (configs/models.yaml)
    "lexicon": LexiconExtractorResource(),  # offline lexicon extraction backend
}


def run_executor() -> dg.ExecutorDefinition:
    """The executor of every run this code location launches (configs/pipeline.yaml
    ``execution.start_method``). With forkserver, each run imports the definitions once in
    its fork server and forks every step from it, instead of a new interpreter per step."""
    method = load_pipeline_settings().execution.start_method
    if method == "in_process":
        return dg.in_process_executor
    if method == "spawn":
        return dg.multiprocess_executor
    return dg.multiprocess_executor.configured(
        {"start_method": {"forkserver": {"preload_modules": [__name__]}}},
        name="multiprocess_forkserver",
    )


def _load() -> dg.Definitions:
    # the package loaders are marked preview in Dagster 1.13 (and backfill_policy beta):
    # their warnings are no news here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dg.PreviewWarning)
        warnings.simplefilter("ignore", dg.BetaWarning)  # backfill_policy is beta in 1.13
        return dg.Definitions.merge(
            dg.load_definitions_from_package_module(assets, resources=RESOURCES),
            dg.load_definitions_from_package_module(sensors),
            dg.Definitions(executor=run_executor()),
        )


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


defs = _load()
_report_registry_problems()
