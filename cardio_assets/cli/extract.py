"""``cardio extract --rows ROWS.jsonl --out PRED.jsonl [--backend lexicon|llm] [--model NAME]``.

Runs the pipeline's own extraction (both passes, through the extractor resources the
assets use), merge and grounding code (cardio_assets/logic/extraction_runs.py and
grounding_runs.py, the functions the assets call) on rows in the
``cardio rows`` format, without Dagster, and writes one line per row in the issue's
output format. Used by ``make eval`` to score the pipeline against the gold annotation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from cardio_assets.exports import write_jsonl
from cardio_assets.files import refuse_input_as_output
from cardio_assets.logic.redaction import known_secrets, redact
from cardio_assets.records import RowRecord


class RowsFileError(click.ClickException):
    """A rows file that cannot be read (names the file and line)."""


def _guideline_from_id(row_id: str) -> str | None:
    head = row_id.split(":", 1)[0] if ":" in row_id else ""
    return head or None


def load_rows(path: Path) -> list[RowRecord]:
    """Rows from a ``cardio rows`` JSONL file; the guideline defaults to the id's prefix."""
    if not path.is_file():
        raise RowsFileError(f"{path}: rows file not found (make one with `cardio rows DOC --out`)")
    rows: list[RowRecord] = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data: Any = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RowsFileError(
                    f"{path}:{number}: not a JSON line ({exc.msg} at column {exc.colno}); "
                    "expected one `cardio rows` record per line"
                ) from None
            if not isinstance(data, dict):
                raise RowsFileError(
                    f"{path}:{number}: expected a JSON object, got {type(data).__name__}"
                )
            data.setdefault("guideline", _guideline_from_id(str(data.get("id", ""))) or path.stem)
            data.setdefault("guideline_title", data["guideline"])
            try:
                rows.append(RowRecord.model_validate(data))
            except ValidationError as exc:
                problems = "; ".join(
                    f"key '{'.'.join(str(p) for p in err['loc'])}': {err['msg']}"
                    for err in exc.errors()
                )
                raise RowsFileError(f"{path}:{number}: not a row record: {problems}") from None
    seen: set[str] = set()
    for row in rows:
        if row.id in seen:
            raise RowsFileError(f"{path}: row id {row.id!r} appears twice; ids must be unique")
        seen.add(row.id)
    return rows


@click.command("extract")
@click.option(
    "--rows",
    "rows_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Rows in the `cardio rows` format (JSONL).",
)
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Prediction JSONL to write, one line per row.",
)
@click.option(
    "--backend",
    type=click.Choice(["lexicon", "llm"]),
    default=None,
    help="Extraction backend (default: configs/pipeline.yaml extraction.backend).",
)
@click.option("--model", default=None, help="Client name in configs/models.yaml (implies llm).")
@click.option(
    "--models",
    "models_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Models YAML for the llm backend (default: configs/models.yaml).",
)
@click.option(
    "--terminology",
    "store_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="SNOMED CT store from `cardio snomed load` (default: the bundled sample).",
)
@click.option(
    "--span-tagger",
    default=None,
    help="Span tagger model of the lexicon backend (default: configs/pipeline.yaml "
    "extraction.span_tagger; 'none' = the rules alone).",
)
def extract_command(
    rows_path: Path,
    out_path: Path,
    backend: str | None,
    model: str | None,
    models_path: Path | None,
    store_path: Path | None,
    span_tagger: str | None,
) -> None:
    """Extract, merge and ground the concepts of ROWS like the pipeline does."""
    from cardio_assets.cli.stages import extract_merge_ground
    from cardio_assets.config import (
        ConfigError,
        load_abbreviations,
        load_grounding_schema,
        load_pipeline_settings,
    )
    from cardio_assets.logic import extraction_runs as runs
    from cardio_assets.terminology.location import open_store

    refuse_input_as_output(out_path, [rows_path, models_path, store_path])
    if span_tagger not in (None, "none"):
        if not Path(span_tagger).is_file():
            raise click.BadParameter(
                f"{span_tagger}: no such model file; train one with "
                "benchmarks/train_span_tagger.py, or pass 'none' for the rules alone",
                param_hint="--span-tagger",
            )
        # a path typed here is the shell's (the current directory), not the project root's
        span_tagger = str(Path(span_tagger).resolve())
    rows = load_rows(rows_path)
    if not rows:
        raise RowsFileError(f"{rows_path}: no rows in the file")
    try:
        settings = load_pipeline_settings()
        choice = runs.choose_backend(settings.extraction, backend, model)
        schema = load_grounding_schema()
        abbreviations = load_abbreviations()
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    store = open_store(store_path, progress=lambda m: click.echo(m, err=True))
    click.echo(
        redact(  # the client name is what the user typed, possibly a pasted key
            f"{len(rows)} rows from {rows_path}; backend {choice.backend}"
            + (f" (client {choice.model or 'default'})" if choice.backend == "llm" else "")
        ),
        err=True,
    )

    # the extractor resources the assets run, with their default configuration
    stages = extract_merge_ground(
        rows,
        choice,
        store=store,
        abbreviations=abbreviations,
        grounding=settings.grounding,
        schema=schema,
        models_path=models_path,
        span_tagger=span_tagger,
    )
    passes, merged, outcomes = stages.passes, stages.merged, stages.outcomes
    lines = runs.prediction_lines(rows, merged, outcomes)
    write_jsonl(out_path, (runs.dumps_line(line) for line in lines))

    concepts = [c for line in lines for c in line["concepts"]]
    mapped = sum(1 for c in concepts if c["snomed_id"])
    failed = stages.failed_rows()
    share = mapped / len(concepts) if concepts else 0.0
    click.echo(
        f"rows {len(rows)} | concepts {len(concepts)} | actions "
        f"{sum(len(line['actions']) for line in lines)} | mapped {mapped}/{len(concepts)} "
        f"({share:.0%}) | failed rows {len(failed)} -> {out_path}"
    )
    from cardio_assets.logic.llm_validation import summary_line

    for focus, report in passes.items():
        if report.validation is not None:  # the llm answers' checks against their rows
            click.echo(f"{focus} checks: {summary_line(report.validation)}")
    secrets = known_secrets()
    for focus, report in passes.items():
        for r in report.failures[:10]:
            click.echo(redact(f"  failed {focus} {r.row_id}: {r.error}", secrets), err=True)
