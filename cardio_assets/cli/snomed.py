"""``cardio snomed load`` and ``cardio ground``: build a terminology store, try grounding.

``cardio ground`` runs exactly the two pipeline steps (``ground_candidates`` then
``select_grounding``) with the configured filters, so what it prints is what the
grounding_candidates / grounding_index assets would store for that term.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cardio_assets.records import ROLES


@click.group("snomed")
def snomed() -> None:
    """SNOMED CT terminology store (DuckDB) built from an RF2 release."""


@snomed.command("load")
@click.argument("rf2_dir", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Store to write (default: $CARDIO_HOME/terminology/snomed.duckdb).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Replace --db even when it is not a store `cardio snomed load` built.",
)
@click.option("--quiet", is_flag=True, help="No progress lines.")
def load(rf2_dir: Path, db_path: Path | None, force: bool, quiet: bool) -> None:
    """Build the store from an RF2 Snapshot folder or release .zip (atomic replace).

    An existing --db file is replaced only when it is such a store, or with --force.
    """
    from cardio_assets.paths import var_dir
    from cardio_assets.terminology.build import load_rf2
    from cardio_assets.terminology.rf2 import RF2Error

    db_path = db_path or var_dir() / "terminology" / "snomed.duckdb"
    progress = None if quiet else (lambda msg: click.echo(f"  {msg}", err=True))
    try:
        report = load_rf2(rf2_dir, db_path, progress=progress, force=force)
    except RF2Error as exc:
        raise click.ClickException(str(exc)) from None
    for line in report.lines():
        click.echo(line)
    click.echo(
        f"use it: export CARDIO_SNOMED_STORE={db_path}  (or SnomedTerminologyResource(store_path=...),"
        f" or `cardio ground TERM --db {db_path}`)"
    )


@click.command("ground")
@click.argument("term")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option("--top", "top_k", type=click.IntRange(1, 200), default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--db",
    "db_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Terminology store (default: $CARDIO_SNOMED_STORE, else the bundled sample).",
)
def ground(term: str, role: str, top_k: int, as_json: bool, db_path: Path | None) -> None:
    """Show SNOMED CT candidates for TERM, every filter decision, and the chosen entry."""
    from cardio_assets.config import (
        load_abbreviations,
        load_grounding_schema,
        load_pipeline_settings,
    )
    from cardio_assets.logic.grounding import ground_candidates, normalize_term, select_grounding
    from cardio_assets.terminology.location import open_store

    abbreviations = load_abbreviations()
    rule = load_grounding_schema().rule(role)
    store = open_store(db_path, progress=lambda m: click.echo(m, err=True))
    candidates = ground_candidates(
        term,
        role,  # type: ignore[arg-type]
        store,
        abbreviations,
        top_k=top_k,
        interface_terms=load_pipeline_settings().grounding.interface_terms,
    )
    norm = normalize_term(term, abbreviations)
    outcome = select_grounding(term, role, candidates, rule)  # type: ignore[arg-type]
    if as_json:
        payload = {
            "term": term,
            "role": role,
            "query": norm.search_text,
            "rejected": norm.rejected,
            "store": str(store.db_path),
            "filters": rule.model_dump(),
            "candidates": [c.model_dump() for c in candidates],
            "outcome": outcome.model_dump(),
        }
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return

    click.echo(f"term: {term!r}  role: {role}  store: {store.db_path}")
    if norm.rejected:
        click.echo(f"not searched: {norm.rejected}")
    else:
        extra = ""
        if norm.operator:
            extra = f"  (measurement: {norm.operator} {norm.threshold} {norm.unit or ''})".rstrip()
        click.echo(f"search text: {norm.search_text!r}{extra}")
        if norm.abbreviations_used:
            click.echo(f"abbreviations expanded: {', '.join(norm.abbreviations_used)}")
    click.echo(
        f"filters: min_match_score {rule.min_match_score}, off_domain_min_score "
        f"{rule.off_domain_min_score}, roots {rule.allowed_roots}, tags {rule.semantic_tags}"
    )
    click.echo("")
    by_id = {c.concept_id: c for c in candidates}
    for d in outcome.decisions:
        c = by_id[d.concept_id]
        mark = "*" if d.selected else ("+" if d.kept else "-")
        click.echo(f"{mark} {d.score:.3f}  {d.concept_id}  {d.fsn}")
        click.echo(
            f"      matched: {c.matched_term!r}  components: {_fmt_parts(c.score_components)}"
        )
        path = " -> ".join(s.term for s in d.taxonomy_path)
        click.echo(f"      path: {path}")
        click.echo(f"      {d.reason}")
    if not outcome.decisions:
        click.echo("(no candidates)")
    click.echo("")
    if outcome.entry:
        click.echo("grounding_index entry:")
        click.echo(json.dumps({str(outcome.entry.snomed_id): outcome.entry.model_dump()}, indent=2))
    else:
        click.echo(f"unmapped: {outcome.unmapped_reason}")


def _fmt_parts(parts: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in parts.items())
