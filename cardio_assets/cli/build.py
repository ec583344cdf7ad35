"""``cardio build``: the original quickstart's builder, without Dagster.

Docling table JSON pieces (or any document ``cardio rows`` reads) -> the grounding index
JSON and the extracted rules JSONL, the same two files the grounding_index and
extracted_rules assets write. Every stage is the pipeline's own function: the table code of
docling_tables (continuation pieces joined), table_rows, tagged_rows, both extraction passes
through the extractor resources (cli/stages.py), merge, grounding and the rule builder; the
rules' config_hash is the one the extracted_rules asset records for the same configuration
(assets/_code_versions.py ``pipeline_code_versions``). Threshold flags replace the grounding
filters of configs/guideline_graph_schema.yaml for every role, for this run only, and are
recorded in each rule's provenance (``threshold_overrides``, and in its config_hash).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from cardio_assets.errors import UserError
from cardio_assets.logic.sources import SourceError


def _table_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from cardio_assets.logic.build_inputs import TABLE_ID

    if value is not None and not TABLE_ID.match(value):
        raise click.BadParameter(
            f"{value!r}: a table id is part of every rule id (<guideline>:<table>:r<n>), so "
            "it may not be empty or hold ':' or spaces"
        )
    return value


def _guideline_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from cardio_assets.config import GUIDELINE_ID_PATTERN
    from cardio_assets.registry import valid_id

    if value is not None and not valid_id(value):
        raise click.BadParameter(f"{value!r} does not match {GUIDELINE_ID_PATTERN}")
    return value


_SCORE = click.FloatRange(0.0, 1.0)


@click.command("build")
@click.option(
    "--docling-table-json",
    "table_json",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Docling JSON of one table, or of one piece of it; repeat for the pieces of a table "
    "split over pages (e.g. pages 62 and 63), in page order: they are joined.",
)
@click.option(
    "--docling-table-id",
    "table_id",
    callback=_table_id,
    help="Id of that table in the rule ids (e.g. _62_63/table_000.json; default table_000).",
)
@click.option(
    "--docling-footnotes-path",
    "footnotes_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Footnotes of the table as plain text, one per line (attached to the table).",
)
@click.option(
    "--document",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Instead of table pieces: a whole guideline document (HTML, Markdown, DOCX, "
    "Docling JSON, PDF), every table of it, as `cardio rows` reads it.",
)
@click.option(
    "--guideline",
    callback=_guideline_id,
    help="Guideline id (the rule ids' prefix; default: from the first file's name). A "
    "registered id (configs/guidelines.yaml) also gives the default title.",
)
@click.option("--guideline-title", help="Guideline title, in every tagged row.")
@click.option(
    "--min-match-score",
    type=_SCORE,
    help="Grounding: lowest composite score kept, for every role (this run only).",
)
@click.option(
    "--domain-filter/--no-domain-filter",
    default=None,
    help="Grounding: apply (or not) each role's allowed_roots and semantic_tags "
    "(default: as configs/guideline_graph_schema.yaml says).",
)
@click.option(
    "--off-domain-min-score",
    type=_SCORE,
    help="Grounding: score an off-domain candidate needs to be kept, for every role.",
)
@click.option(
    "--index-path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="grounding_index JSON to write.",
)
@click.option(
    "--rules-out-path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="extracted_rules JSONL to write.",
)
@click.option(
    "--backend",
    type=click.Choice(["lexicon", "llm"]),
    help="Extraction backend (default: configs/pipeline.yaml extraction.backend).",
)
@click.option("--model", help="Client name in configs/models.yaml (the llm backend).")
@click.option(
    "--node",
    help="Alias for the endpoint host of the model client: HOST or HOST:PORT replaces the "
    "host of its base_url (scheme, port and /v1 path kept).",
)
@click.option(
    "--models",
    "models_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Models YAML for the llm backend (default: configs/models.yaml).",
)
def build_command(
    table_json: tuple[Path, ...],
    table_id: str | None,
    footnotes_path: Path | None,
    document: Path | None,
    guideline: str | None,
    guideline_title: str | None,
    min_match_score: float | None,
    domain_filter: bool | None,
    off_domain_min_score: float | None,
    index_path: Path,
    rules_out_path: Path,
    backend: str | None,
    model: str | None,
    node: str | None,
    models_path: Path | None,
) -> None:
    """Build the grounding index and the extracted rules of one table (or document)."""
    from cardio_assets.config import load_models_config, load_pipeline_settings
    from cardio_assets.files import refuse_input_as_output
    from cardio_assets.logic.build_inputs import with_endpoint_host
    from cardio_assets.logic.extraction_runs import choose_backend
    from cardio_assets.records import ThresholdOverrides

    if bool(table_json) == bool(document):
        raise click.UsageError("give the table's pieces (--docling-table-json) or --document")
    if document and (table_id or footnotes_path):
        raise click.UsageError(
            "--docling-table-id and --docling-footnotes-path go with --docling-table-json"
        )
    inputs = [*table_json, document, footnotes_path, models_path]
    refuse_input_as_output(index_path, inputs)
    refuse_input_as_output(rules_out_path, [*inputs, index_path])
    flags = {
        "min_match_score": min_match_score,
        "off_domain_min_score": off_domain_min_score,
        "domain_filter": domain_filter,
    }
    overrides = ThresholdOverrides(**flags) if any(v is not None for v in flags.values()) else None
    try:
        choice = choose_backend(load_pipeline_settings().extraction, backend, model)
        if node and choice.backend != "llm":
            raise click.UsageError("--node picks the LLM endpoint: add --model NAME")
        with tempfile.TemporaryDirectory(prefix="cardio-build-") as work:
            used_models = models_path
            if node:  # the client moved to another host, for this run only
                import yaml

                moved = with_endpoint_host(load_models_config(models_path), choice.model, node)
                used_models = Path(work) / "models.yaml"
                used_models.write_text(yaml.safe_dump(moved.model_dump(mode="json")))
            _build(
                list(table_json) or [document],  # type: ignore[list-item]
                bool(document),
                table_id=table_id,
                footnotes_path=footnotes_path,
                guideline=guideline,
                title=guideline_title,
                overrides=overrides,
                choice=choice,
                models_path=used_models,
                index_path=index_path,
                rules_path=rules_out_path,
            )
    except (UserError, SourceError) as exc:  # a config, source or input file: one line
        raise click.ClickException(str(exc)) from None


def _build(
    files: list[Path],
    whole_document: bool,
    *,
    table_id: str | None,
    footnotes_path: Path | None,
    guideline: str | None,
    title: str | None,
    overrides,
    choice,
    models_path: Path | None,
    index_path: Path,
    rules_path: Path,
) -> None:
    from cardio_assets import paths
    from cardio_assets.assets._code_versions import pipeline_code_versions
    from cardio_assets.cli.stages import extract_merge_ground
    from cardio_assets.config import (
        config_hash,
        load_abbreviations,
        load_grounding_schema,
        load_pipeline_settings,
        load_registry,
    )
    from cardio_assets.exports import write_json, write_jsonl
    from cardio_assets.logic import build_inputs, grounding_runs
    from cardio_assets.logic.extracted_rules import build_rules
    from cardio_assets.logic.guideline_tables import guideline_tables
    from cardio_assets.logic.redaction import redact
    from cardio_assets.logic.table_rows import guideline_rows
    from cardio_assets.partitions import inbox_guideline_id
    from cardio_assets.terminology.location import open_store
    from resources.docling_converter import DoclingConverterResource

    settings = load_pipeline_settings()
    guideline = guideline or inbox_guideline_id(files[0])
    registered = load_registry().get(guideline)
    title = title or (registered.title if registered else files[0].stem)
    schema = grounding_runs.apply_threshold_overrides(load_grounding_schema(), overrides)
    abbreviations = load_abbreviations()

    # stage 1: tables, as docling_tables makes them
    if whole_document:
        tables = guideline_tables(
            guideline,
            files,
            DoclingConverterResource(artifacts_path=settings.docling.artifacts_path).convert,
            footnote_marker_pattern=settings.docling.footnote_marker_pattern,
            continuation_words=settings.docling.continuation_words,
            display_root=paths.PROJECT_ROOT,
        )
    else:
        pieces = build_inputs.load_piece_files(files, guideline)
        if footnotes_path is not None:
            notes = build_inputs.read_footnotes(footnotes_path)
            build_inputs.attach_footnotes(pieces[-1].doc, notes)
        tables = [
            build_inputs.table_from_pieces(
                pieces,
                guideline=guideline,
                table_id=table_id,
                footnote_marker_pattern=settings.docling.footnote_marker_pattern,
                continuation_words=settings.docling.continuation_words,
                display_root=paths.PROJECT_ROOT,
            )
        ]
    # stages 2-3: rows (tagged inside the llm pass, as tagged_rows does)
    result = guideline_rows(
        tables,
        guideline_title=title,
        class_labels=settings.rows.class_labels,
        level_labels=settings.rows.level_labels,
    )
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    rows = result.rows
    shown = " + ".join(str(f) for f in files)
    if not rows:
        raise click.ClickException(
            f"{shown}: no recommendation rows found (a table with Class and Level columns); "
            "check it with `cardio rows`"
        )
    for t in tables:
        pages = (
            f"pages {t.pages[0]}-{t.pages[-1]}" if len(t.pages) > 1 else f"page {t.pages or '?'}"
        )
        click.echo(
            f"table {t.table_id}: {t.pieces} piece(s), {pages}, "
            f"{sum(1 for r in rows if r.table_id == t.table_id)} rows, "
            f"{len(t.footnotes)} footnotes"
        )
    click.echo(
        redact(
            f"guideline {guideline} ({title}); backend {choice.backend}"
            + (f" (client {choice.model or 'default'})" if choice.backend == "llm" else "")
        ),
        err=True,
    )

    # stages 4-7: both passes, merge, candidates, filters (cli/stages.py)
    store = open_store(None, progress=lambda m: click.echo(m, err=True))
    stages = extract_merge_ground(
        rows,
        choice,
        store=store,
        abbreviations=abbreviations,
        grounding=settings.grounding,
        schema=schema,
        models_path=models_path,
    )
    limit = settings.extraction.max_failure_share
    for focus, report in stages.passes.items():
        if report.failure_share() > limit:
            first = report.failures[0]
            raise click.ClickException(
                redact(
                    f"{shown}: {len(report.failures)} of {len(report.results)} rows failed in "
                    f"the {focus} pass ({report.failure_share():.0%} > extraction."
                    f"max_failure_share {limit:.0%}, configs/pipeline.yaml); first: "
                    f"{first.row_id}: {(first.error or '')[:200]}; nothing written, fix the "
                    "endpoint (or --backend lexicon) and re-run"
                )
            )

    # stage 8: the rules, with the config hash the extracted_rules asset would record
    extraction = settings.extraction.model_copy(
        update={"backend": choice.backend}
        | ({"model": choice.model} if choice.backend == "llm" and choice.model else {})
    )
    versions = pipeline_code_versions(extraction, schema, str(models_path) if models_path else None)
    built = build_rules(
        rows,
        stages.merged,
        stages.outcomes,
        [r for p in stages.passes.values() for r in p.results],
        config_hash=config_hash(dict(sorted(versions.items()))),
        threshold_overrides=overrides,
    )
    index = grounding_runs.grounding_index_json(stages.outcomes)
    write_json(index_path, index)
    write_jsonl(rules_path, (rule.model_dump_json(by_alias=True) for rule in built.rules))

    stats = grounding_runs.grounding_stats(stages.outcomes)
    counts = built.counts()
    click.echo(
        f"rows {len(rows)} | failed rows {len(stages.failed_rows())} | terms {stats['terms']} "
        f"| mapped {stats['mapped']} ({stats['mapped_share']:.0%})"
    )
    click.echo(
        f"rules {counts['rules']} (dropped {counts['dropped']}) | actions {counts['actions']} "
        f"| condition tests {counts['condition_tests']} | parameter tests "
        f"{counts['parameter_tests']} -> {rules_path}"
    )
    click.echo(f"grounding index {len(index)} SNOMED CT ids -> {index_path}")
    if overrides is not None:
        given = overrides.model_dump(exclude_none=True)
        click.echo(
            "thresholds for every role, this run only: "
            + ", ".join(f"{k} {v}" for k, v in given.items())
        )
    if built.rules:
        click.echo(f"config_hash {built.rules[0].provenance.config_hash}")
    for dropped in built.dropped[:10]:
        click.echo(f"  row {dropped.row_id} gave no rule: {dropped.reason}", err=True)
