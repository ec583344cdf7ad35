"""How an asset's code version is made: ``<stage version>-<hash of what the stage reads>``.

Each asset's ``code_version`` hashes exactly the configuration its code reads (a section
of configs/pipeline.yaml, a whole config file's bytes, the lexicon's rules version, the
SNOMED CT release), so an edit there marks that asset and what follows it stale, and
nothing else. Bump a stage version by hand only for a code change no hash can see.

Every stage's function is here, called by its asset's decorator; ``pipeline_code_versions``
lists them for ``cardio build``, which records the same config hash as the extracted_rules
asset (tests/test_build_load.py compares it with the asset graph's).
Each asset also says in words what its code version reads, in its metadata under
``CODE_VERSION_READS`` (``cardio status`` prints it as the reason a partition is stale).
Not an asset module: no Dagster definitions here.
"""

import logging
from typing import Any

from cardio_assets.config import (
    ConfigError,
    ExtractionSettings,
    GroundingSchema,
    config_hash,
    config_path,
    file_sha256,
    grounding_schema_path,
    load_grounding_schema,
    load_models_config,
    load_pipeline_settings,
    resolve_project_path,
)
from cardio_assets.logic.extracted_rules import BUILDER_VERSION
from cardio_assets.logic.lexicon import rules_version
from cardio_assets.logic.merged_concepts import MERGE_LOGIC_VERSION
from cardio_assets.logic.tagged_rows import TAG_FORMAT_VERSION
from cardio_assets.records import EXTRACTED_RULE_SCHEMA_VERSION
from cardio_assets.terminology.location import configured_release_identity

_log = logging.getLogger(__name__)
# metadata key of an asset's "what my code version reads", in words
CODE_VERSION_READS = "cardio/code_version_reads"
DOCLING_TABLES_VERSION = "3"  # 2: text-layer PDF reader, row boxes, reader; 3: more pieces joined
TABLE_ROWS_VERSION = "3"  # 2: per-row pages and boxes from the PDF text layer; 3: "<" as ","
TAGGED_ROWS_VERSION = "1"
EXTRACTION_STAGE_VERSION = "1"
MERGED_CONCEPTS_VERSION = "1"
GROUNDING_CANDIDATES_VERSION = "1"
# 2: qualifiers a concept adds, opposite prefixes (hyper-/hypo-); 3: a concept that leaves
# out a word of the term is broader
GROUNDING_INDEX_VERSION = "3"


def stage_code_version(stage_version: str, *configs: Any) -> str:
    """'<code revision>-<hash of exactly the config the stage reads>'."""
    return f"{stage_version}-{config_hash(list(configs))}" if configs else stage_version


# --------------------------------------------------------------------------- code versions


def docling_tables_code_version() -> str:
    return stage_code_version(DOCLING_TABLES_VERSION, load_pipeline_settings().docling)


def table_rows_code_version() -> str:
    return stage_code_version(TABLE_ROWS_VERSION, load_pipeline_settings().rows)


def tagged_rows_code_version() -> str:
    return stage_code_version(TAGGED_ROWS_VERSION, {"tag_format": TAG_FORMAT_VERSION})


def extracted_rules_code_version() -> str:
    return stage_code_version(
        BUILDER_VERSION,
        {"schema_version": EXTRACTED_RULE_SCHEMA_VERSION},
        load_pipeline_settings().rules,
    )


def _llm_identity(model: str | None, models_path: str | None = None) -> dict[str, Any]:
    """Client config + prompt hashes of the llm backend, without secrets."""
    from cardio_assets.logic.llm_extraction import prompt_hashes
    from cardio_assets.logic.llm_validation import validation_version

    try:
        name, client = load_models_config(models_path).client(model)
        hashes = prompt_hashes()
    except Exception as exc:  # no baml_client yet or a bad models.yaml: visible, not fatal
        return {"unavailable": f"{type(exc).__name__}: {exc}"[:200]}
    return {
        "client": name,
        "model": client.model,
        "provider": client.provider,
        "prompts": hashes,
        # the checks of every answer against its row (cached answers included)
        "validation": validation_version(),
    }


def _abbreviations_sha256() -> str:
    return file_sha256(config_path("abbreviations.txt"))


def _sidecar_sha256(model: str | None) -> str | None:
    from cardio_assets.logic.lexicon.span_tagger import provenance_path

    if not model:
        return None
    sidecar = provenance_path(resolve_project_path(model))
    return file_sha256(sidecar) if sidecar.is_file() else None


def extraction_code_version(
    settings: ExtractionSettings | None = None, models_path: str | None = None
) -> str:
    """pipeline.yaml `extraction` + what the configured backend reads (lexicon rules, the
    abbreviation list and the span tagger model's bytes, or the models.yaml client and
    rendered prompts). ``settings``: the section as a CLI run chose it (its --backend /
    --model), else the file's."""
    settings = settings or load_pipeline_settings().extraction
    reads: dict[str, Any] = {"extraction": settings.model_dump(mode="json")}
    if settings.backend == "lexicon":
        reads["lexicon"] = {
            "rules": rules_version(),
            "abbreviations": _abbreviations_sha256(),
            # a retrained model changes what extraction finds with the same path
            "span_tagger": (
                file_sha256(resolve_project_path(settings.span_tagger))
                if settings.span_tagger
                else None
            ),
            # its sidecar lists the guidelines it learned, which decides the rows it reads
            "span_tagger_sidecar": _sidecar_sha256(settings.span_tagger),
        }
    else:
        reads["llm"] = _llm_identity(settings.model, models_path)
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
            "interface_terms": sorted(settings.interface_terms.items()),
            "abbreviations": _abbreviations_sha256(),
            "terminology_release": configured_release_identity(),
        },
    )


def grounding_index_code_version(schema: GroundingSchema | None = None) -> str:
    """The per-role filters of guideline_graph_schema.yaml + the grounding check limits.
    ``schema``: the filters a CLI run applied (its threshold flags), else the file's.

    An invalid schema must not stop the code location from loading (every other asset
    still works): it logs the one-line error, versions the file's bytes, and
    grounding_index fails with the same message when it runs.
    """
    settings = load_pipeline_settings().grounding
    try:
        chosen = schema or load_grounding_schema(grounding_schema_path())
        filters: object = chosen.model_dump(mode="json")
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


def pipeline_code_versions(
    extraction: ExtractionSettings | None = None,
    schema: GroundingSchema | None = None,
    models_path: str | None = None,
) -> dict[str, str]:
    """Code version of extracted_rules and of every asset upstream of it, by asset key:
    what the extracted_rules asset hashes into a rule's config_hash (it walks the asset
    graph; ``cardio build`` calls this with the backend and filters it ran)."""
    main = extraction_code_version(extraction, models_path)
    return {
        "docling_tables": docling_tables_code_version(),
        "extracted_rules": extracted_rules_code_version(),
        "grounding_candidates": grounding_candidates_code_version(),
        "grounding_index": grounding_index_code_version(schema),
        "main_extractions": main,
        "merged_concepts": merged_concepts_code_version(),
        "population_extractions": main,
        "table_rows": table_rows_code_version(),
        "tagged_rows": tagged_rows_code_version(),
    }
