"""Shared pieces of the extraction and grounding assets (not an asset module itself: the
leading underscore keeps definitions.py from collecting it).

The assets stay thin: every computation is in cardio_assets/logic/extraction_runs.py,
which ``cardio extract`` calls too. This module holds the Dagster-side glue: run config,
code versions (a hash of exactly the config each stage reads) and the one factory both
extraction passes use.
"""

import logging
from typing import Any

import dagster as dg

from cardio_assets.asset_helpers import markdown_preview, stage_code_version
from cardio_assets.config import (
    ConfigError,
    config_path,
    file_sha256,
    grounding_schema_path,
    load_grounding_schema,
    load_models_config,
    load_pipeline_settings,
)
from cardio_assets.logic import extraction_runs as runs
from cardio_assets.logic.lexicon import rules_version
from cardio_assets.logic.merged_concepts import MERGE_LOGIC_VERSION
from cardio_assets.logic.redaction import known_secrets, redact, secrets_redacted
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import Focus, RowRecord, TaggedRow
from cardio_assets.terminology.location import configured_release_identity
from resources.lexicon_extractor import LexiconExtractor
from resources.llm_extractor import LLM_POOL, LlmExtractor
from resources.terminology import SnomedTerminology

_log = logging.getLogger(__name__)
EXTRACTION_STAGE_VERSION = "1"
GROUNDING_CANDIDATES_VERSION = "1"
GROUNDING_INDEX_VERSION = "1"


class ExtractionRunConfig(dg.Config):
    """Per-run override of configs/pipeline.yaml `extraction` (empty = use the file)."""

    backend: str = ""  # "lexicon" | "llm"
    model: str = ""  # client name in configs/models.yaml (implies llm)


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
        runs.MERGE_STAGE_VERSION,
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


# --------------------------------------------------------------------------- extraction


def _extraction_preview(results: list) -> dg.MetadataValue:
    return markdown_preview(
        results,
        {
            "row": lambda r: r.row_id,
            "concepts": lambda r: "; ".join(
                f"{c.role}:{c.normalized or c.text}" for c in r.concepts
            ),
            "actions": lambda r: "; ".join(a.normalized or a.text for a in r.actions),
            "error": lambda r: r.error or "",
        },
    )


def _run_pass(
    focus: Focus,
    config: ExtractionRunConfig,
    terminology: SnomedTerminology,
    lexicon: LexiconExtractor,
    llm: LlmExtractor,
    table_rows: list[RowRecord],
    tagged_rows: list[TaggedRow],
) -> runs.PassReport:
    """One extraction pass with the backend the run config / pipeline.yaml chose."""
    settings = load_pipeline_settings().extraction
    choice = runs.choose_backend(settings, config.backend or None, config.model or None)
    if choice.backend == "lexicon":
        extractor = lexicon.build(terminology.store())
        return runs.run_lexicon_pass(table_rows, focus, extractor)
    return runs.run_llm_pass(
        tagged_rows,
        focus,
        client_name=choice.model or llm.model or None,
        models_config=llm.models_config or None,
        cache_path=llm.cache_path or None,
        max_concurrency=llm.max_concurrency or None,
    )


def build_extraction_asset(focus: Focus, name: str, description: str) -> dg.AssetsDefinition:
    """main_extractions / population_extractions: one RowExtraction per row, failures kept."""
    check_name = "extraction_failures"

    @dg.asset(
        name=name,
        description=description,
        partitions_def=guideline_partitions,
        group_name="extraction",
        code_version=extraction_code_version(),
        metadata={"record_type": "RowExtraction", "partition_expr": "guideline"},
        kinds={"duckdb"},
        pool=LLM_POOL,  # caps LLM work across simultaneous runs (dagster.yaml pools)
        check_specs=[
            dg.AssetCheckSpec(
                check_name,
                asset=name,
                description="Share of rows whose extraction failed is at most "
                "extraction.max_failure_share (configs/pipeline.yaml). Blocking: a failed "
                "extraction (e.g. an unreachable LLM) never reaches the rules or the graph.",
                blocking=True,
            )
        ],
    )
    def _extraction(
        context: dg.AssetExecutionContext,
        config: ExtractionRunConfig,
        terminology: SnomedTerminology,
        lexicon: LexiconExtractor,
        llm: LlmExtractor,
        table_rows: list[RowRecord],
        tagged_rows: list[TaggedRow],
    ):
        # An exception that carries a secret (e.g. an API key pasted as the model name)
        # reaches Dagster's event log and compute logs only in redacted form.
        with secrets_redacted():
            report = _run_pass(focus, config, terminology, lexicon, llm, table_rows, tagged_rows)
        failures = report.failures
        secrets = known_secrets()
        for failed in failures[:20]:
            message = f"{focus} extraction failed for {failed.row_id}: {failed.error}"
            context.log.warning(redact(message, secrets))
        concepts = sum(len(r.concepts) for r in report.results)
        yield dg.Output(
            report.results,
            metadata={
                "rows": len(report.results),
                "failures": len(failures),
                "failure_share": round(report.failure_share(), 4),
                "backend": report.backend,
                "model": report.model or "",
                "prompt_hash": report.prompt_hash or "",
                "concepts": concepts,
                "actions": sum(len(r.actions) for r in report.results),
                "http_calls": report.http_calls,
                "cache_hits": report.cache_hits,
                "roles": dg.MetadataValue.json(
                    _role_counts(c.role for r in report.results for c in r.concepts)
                ),
                "preview": _extraction_preview(report.results),
                "failed_rows": dg.MetadataValue.json([f.row_id for f in failures][:50]),
            },
        )
        limit = load_pipeline_settings().extraction.max_failure_share
        passed = report.failure_share() <= limit
        yield dg.AssetCheckResult(
            check_name=check_name,
            passed=passed,
            severity=dg.AssetCheckSeverity.ERROR,
            description=None
            if passed
            else f"{len(failures)} of {len(report.results)} rows failed "
            f"({report.failure_share():.0%} > {limit:.0%}); first error: "
            f"{(failures[0].error or '')[:200]}",
            metadata={
                "failures": len(failures),
                "rows": len(report.results),
                "failure_share": round(report.failure_share(), 4),
                "max_failure_share": limit,
                "first_errors": dg.MetadataValue.json(
                    {f.row_id: (f.error or "")[:200] for f in failures[:10]}
                ),
            },
        )

    return _extraction


def _role_counts(roles) -> dict[str, int]:
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    return dict(sorted(counts.items()))
