"""``cardio guideline add FILE --id ID --title TITLE``: register a guideline without editing YAML.

The document is first read exactly as ``cardio rows`` reads it (same conversion, same row
logic), so a file Docling cannot read, or one without a recommendation table, is refused
before the registry changes. The entry is then appended to configs/guidelines.yaml by
``cardio_assets/registry.py`` (comments kept, whole file validated, atomic replace) and the
new partition is registered in the Dagster instance so it can be materialized at once.
"""

from __future__ import annotations

from pathlib import Path

import click
from pydantic import ValidationError

from cardio_assets import paths
from cardio_assets.config import ConfigError, GuidelineEntry, config_path
from cardio_assets.logic.sources import SourceError

# how a user runs every asset of the new partition (the UI, `make ui`, does the same)
MATERIALIZE_HINT = (
    "dagster asset materialize -m cardio_assets.definitions --select '*' --partition {guideline}"
)


@click.group("guideline")
def guideline_group() -> None:
    """The guideline registry (configs/guidelines.yaml)."""


def _source_entry(document: Path) -> str:
    """The path as the registry stores it: relative to the repo root when inside it."""
    resolved = document.resolve()
    try:
        return str(resolved.relative_to(paths.PROJECT_ROOT))
    except ValueError:
        return str(resolved)


@guideline_group.command("add")
@click.argument("document", type=click.Path(path_type=Path))
@click.option("--id", "guideline_id", required=True, help="Partition key: a-z, 0-9, '_' or '-'.")
@click.option("--title", required=True, help="The guideline's full title.")
@click.option("--society", help="Issuing society (ESC, AHA/ACC, ...).")
@click.option("--year", type=int, help="Publication year.")
@click.option(
    "--force",
    is_flag=True,
    help="Register even when no recommendation row is found (the run will stop at "
    "table_rows' blocking rows_found check until the document has one).",
)
def add_command(
    document: Path,
    guideline_id: str,
    title: str,
    society: str | None,
    year: int | None,
    force: bool,
) -> None:
    """Check DOCUMENT as `cardio rows` does, then add it to the guideline registry."""
    from cardio_assets.cli.rows import document_rows
    from cardio_assets.registry import add_guideline

    try:
        entry = GuidelineEntry(
            id=guideline_id,
            title=title,
            society=society,
            year=year,
            sources=[_source_entry(document)],
        )
    except ValidationError as exc:
        problems = "; ".join(f"--{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise click.ClickException(f"invalid entry: {problems}") from None
    try:
        tables, result = document_rows(document, title)
    except (SourceError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from exc
    for warning in result.warnings:
        click.echo(f"warning: {document}: {warning}", err=True)
    if not result.rows and not force:
        raise click.ClickException(
            f"{document}: no recommendation row found in {len(tables)} table(s), so the "
            "guideline was not registered (see the warning above); check the file with "
            "`cardio rows --all-tables`, or pass --force to register it anyway"
        )
    registry = add_guideline(entry, config_path("guidelines.yaml"))
    click.echo(
        f"added '{entry.id}' to {registry}: {len(result.rows)} recommendation rows from "
        f"{result.count('recommendations')} of {len(tables)} table(s)"
    )
    from cardio_assets.cli.instance import dagster_home, open_instance
    from cardio_assets.partitions import sync_guideline_partitions

    with open_instance() as instance:
        sync_guideline_partitions(instance)
    command = MATERIALIZE_HINT.format(guideline=entry.id)
    click.echo(f"partition '{entry.id}' registered in {dagster_home()}; run it with: {command}")
