"""The one factory both extraction assets (``main_extractions``, ``population_extractions``)
are made by: same run config, records, failure handling, check and pool; only the pass
(MAIN or POPULATION) differs. Not an asset module itself.

The asset runs its pass through the extractor resource the backend names
(``LexiconExtractorResource.extract`` or ``LlmExtractorResource.extract``), the same call
``cardio extract`` makes, and reports it with cardio_assets/logic/extraction_runs.py.
"""

import dagster as dg

from cardio_assets.assets._batch import (
    EAGER,
    SINGLE_RUN,
    PartitionResult,
    emit,
    partition_keys,
)
from cardio_assets.assets._code_versions import CODE_VERSION_READS, extraction_code_version
from cardio_assets.assets._metadata import markdown_preview, role_counts
from cardio_assets.config import load_pipeline_settings
from cardio_assets.logic import extraction_runs as runs
from cardio_assets.logic.partition_batches import group_by_guideline
from cardio_assets.logic.redaction import known_secrets, redact, secrets_redacted
from cardio_assets.partitions import guideline_partitions
from cardio_assets.records import Focus, RowRecord, TaggedRow
from resources.lexicon_extractor import LexiconExtractorResource
from resources.llm_extractor import LLM_POOL, LlmExtractorResource
from resources.terminology import SnomedTerminologyResource

# What the code version of both extraction assets reads (see _code_versions.py).
EXTRACTION_READS = (
    "configs/pipeline.yaml (extraction), configs/abbreviations.txt, "
    "configs/models.yaml, the prompts and the llm answer checks, or the lexicon rules and "
    "its span tagger model"
)


class ExtractionRunConfig(dg.Config):
    """Per-run override of configs/pipeline.yaml `extraction` (empty = use the file)."""

    backend: str = ""  # "lexicon" | "llm"
    model: str = ""  # client name in configs/models.yaml (implies llm)


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
    terminology: SnomedTerminologyResource,
    lexicon: LexiconExtractorResource,
    llm: LlmExtractorResource,
    table_rows: list[RowRecord],
    tagged_rows: list[TaggedRow],
) -> runs.PassReport:
    """One extraction pass with the backend the run config / pipeline.yaml chose."""
    settings = load_pipeline_settings().extraction
    choice = runs.choose_backend(settings, config.backend or None, config.model or None)
    if choice.backend == "lexicon":
        return runs.lexicon_pass(
            focus, lexicon.extract(table_rows, focus, searcher=terminology.store())
        )
    return runs.llm_pass(focus, llm.extract(runs.tagged_for(tagged_rows, focus), choice.model))


def build_extraction_asset(focus: Focus, name: str, description: str) -> dg.AssetsDefinition:
    """main_extractions / population_extractions: one RowExtraction per row, failures kept."""
    check_name = "extraction_failures"

    @dg.asset(
        name=name,
        description=description,
        partitions_def=guideline_partitions,
        group_name="extraction",
        code_version=extraction_code_version(),
        metadata={
            "record_type": "RowExtraction",
            "partition_expr": "guideline",
            CODE_VERSION_READS: EXTRACTION_READS,
        },
        kinds={"duckdb"},
        pool=LLM_POOL,  # caps LLM work across simultaneous runs (dagster.yaml pools)
        backfill_policy=SINGLE_RUN,
        automation_condition=EAGER,
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
        terminology: SnomedTerminologyResource,
        lexicon: LexiconExtractorResource,
        llm: LlmExtractorResource,
        table_rows: list[RowRecord],
        tagged_rows: list[TaggedRow],
    ):
        keys = partition_keys(context)
        rows = group_by_guideline(keys, table_rows)
        tagged = group_by_guideline(keys, tagged_rows)
        yield from emit(
            context,
            {
                key: _one_guideline(
                    context, focus, config, terminology, lexicon, llm, rows[key], tagged[key]
                )
                for key in keys
            },
        )

    return _extraction


def _one_guideline(
    context: dg.AssetExecutionContext,
    focus: Focus,
    config: ExtractionRunConfig,
    terminology: SnomedTerminologyResource,
    lexicon: LexiconExtractorResource,
    llm: LlmExtractorResource,
    table_rows: list[RowRecord],
    tagged_rows: list[TaggedRow],
) -> PartitionResult:
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
    limit = load_pipeline_settings().extraction.max_failure_share
    passed = report.failure_share() <= limit
    checks = {}
    if report.validation is not None:  # llm: spans dropped, values rejected per check
        checks["llm_validation"] = dg.MetadataValue.json(report.validation)
    return PartitionResult(
        report.results,
        metadata={
            **checks,
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
                role_counts(c.role for r in report.results for c in r.concepts)
            ),
            "preview": _extraction_preview(report.results),
            "failed_rows": dg.MetadataValue.json([f.row_id for f in failures][:50]),
        },
        checks=[
            dg.AssetCheckResult(
                check_name="extraction_failures",
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
        ],
    )
