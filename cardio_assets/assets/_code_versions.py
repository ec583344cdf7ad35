"""How an asset's code version is made: ``<stage version>-<hash of what the stage reads>``.

Each asset's ``code_version`` hashes exactly the configuration its code reads (a section
of configs/pipeline.yaml, a whole config file's bytes, the lexicon's rules version, the
SNOMED CT release), so an edit there marks that asset and what follows it stale, and
nothing else. Bump a stage version by hand only for a code change no hash can see.

The simple stages call ``stage_code_version`` in their own module; the extraction and
grounding stages, whose inputs are spread over several files, have their functions here.
Each asset also says in words what its code version reads, in its metadata under
``CODE_VERSION_READS`` (``cardio status`` prints it as the reason a partition is stale).
Not an asset module: no Dagster definitions here.
"""

import logging
from typing import Any

from cardio_assets.config import (
    ConfigError,
    config_hash,
    config_path,
    file_sha256,
    grounding_schema_path,
    load_grounding_schema,
    load_models_config,
    load_pipeline_settings,
)
from cardio_assets.logic.lexicon import rules_version
from cardio_assets.logic.merged_concepts import MERGE_LOGIC_VERSION
from cardio_assets.terminology.location import configured_release_identity

_log = logging.getLogger(__name__)
# metadata key of an asset's "what my code version reads", in words
CODE_VERSION_READS = "cardio/code_version_reads"
EXTRACTION_STAGE_VERSION = "1"
MERGED_CONCEPTS_VERSION = "1"
GROUNDING_CANDIDATES_VERSION = "1"
GROUNDING_INDEX_VERSION = "1"


def stage_code_version(stage_version: str, *configs: Any) -> str:
    """'<code revision>-<hash of exactly the config the stage reads>'."""
    return f"{stage_version}-{config_hash(list(configs))}" if configs else stage_version


# --------------------------------------------------------------------------- code versions


def _llm_identity(model: str | None) -> dict[str, Any]:
    """Client config + prompt hashes of the llm backend, without secrets."""
    from cardio_assets.logic.llm_extraction import prompt_hashes

    try:
        name, client = load_models_config().client(model)
        hashes = prompt_hashes()
    except Exception as exc:  # no baml_client yet or a bad models.yaml: visible, not fatal
        return {"unavailable": f"{type(exc).__name__}: {exc}"[:200]}
    return {"client": name, "model": client.model, "provider": client.provider, "prompts": hashes}


def _abbreviations_sha256() -> str:
    return file_sha256(config_path("abbreviations.txt"))


def extraction_code_version() -> str:
    """pipeline.yaml `extraction` + what the configured backend reads (lexicon rules and the
    abbreviation list, or the models.yaml client and rendered prompts)."""
    settings = load_pipeline_settings().extraction
    reads: dict[str, Any] = {"extraction": settings.model_dump(mode="json")}
    if settings.backend == "lexicon":
        reads["lexicon"] = {
            "rules": rules_version(),
            "abbreviations": _abbreviations_sha256(),
        }
    else:
        reads["llm"] = _llm_identity(settings.model)
    return stage_code_version(EXTRACTION_STAGE_VERSION, reads)


def merged_concepts_code_version() -> str:
    return stage_code_version(
        MERGED_CONCEPTS_VERSION,
        {
            "merge_logic": MERGE_LOGIC_VERSION,
            "abbreviations": _abbreviations_sha256(),
        },
    )


def grounding_candidates_code_version() -> str:
    """Search settings and the terminology release only: the filter thresholds are NOT read
    here (tuning never re-searches), but loading another SNOMED CT release does re-search."""
    settings = load_pipeline_settings().grounding
    return stage_code_version(
        GROUNDING_CANDIDATES_VERSION,
        {
            "top_k": settings.top_k,
            "abbreviations": _abbreviations_sha256(),
            "terminology_release": configured_release_identity(),
        },
    )


def grounding_index_code_version() -> str:
    """The per-role filters of guideline_graph_schema.yaml + the grounding check limits.

    An invalid schema must not stop the code location from loading (every other asset
    still works): it logs the one-line error, versions the file's bytes, and
    grounding_index fails with the same message when it runs.
    """
    settings = load_pipeline_settings().grounding
    try:
        filters: object = load_grounding_schema(grounding_schema_path()).model_dump(mode="json")
    except ConfigError as exc:
        _log.warning("%s", exc)
        filters = {"invalid_schema": file_sha256(grounding_schema_path())}
    return stage_code_version(
        GROUNDING_INDEX_VERSION,
        filters,
        {
            "min_mapped_share": settings.min_mapped_share,
            "block_below_mapped_share": settings.block_below_mapped_share,
            "min_median_score": settings.min_median_score,
        },
    )
