"""``cardio load --index-path FILE --rules-path FILE [--guideline ID]``: the original
quickstart's loader, without Dagster.

Puts the rules ``cardio build`` wrote into Neo4j with the loader the neo4j_graph asset uses
(cardio_assets/logic/neo4j_graph/: versioned, all-or-nothing, one load per guideline at a
time, the same shrink guard), on the Neo4j of NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD or
else the local launcher (``cardio neo4j start``), as resources/neo4j_resource.py resolves
it. The index is checked against the rules first (cardio_assets/logic/rule_files.py), so
files of two different runs are refused before anything is written.
"""

from __future__ import annotations

from pathlib import Path

import click


@click.command("load")
@click.option(
    "--index-path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="grounding_index JSON written by `cardio build` (or the grounding_index asset).",
)
@click.option(
    "--rules-path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="extracted_rules JSONL written by the same run.",
)
@click.option(
    "--guideline",
    help="Guideline to load (default: the one guideline of the rules file).",
)
@click.option(
    "--allow-shrink",
    is_flag=True,
    help="Replace a loaded version even with fewer than graph.min_rule_share of its rules.",
)
def load_command(
    index_path: Path, rules_path: Path, guideline: str | None, allow_shrink: bool
) -> None:
    """Load one guideline's extracted rules into Neo4j, as the neo4j_graph asset does."""
    from cardio_assets.config import load_pipeline_settings
    from cardio_assets.logic.neo4j_graph import (
        DEFAULT_BATCH_SIZE,
        Neo4jLoadError,
        graph_counts,
        load_guideline,
    )
    from cardio_assets.logic.rule_files import check_same_run, read_index, read_rules
    from resources.neo4j_resource import Neo4jSettingsError, neo4j_resource_from_env

    rules = read_rules(rules_path)
    index = read_index(index_path)
    held = sorted({r.guideline for r in rules})
    if guideline is None and len(held) > 1:
        raise click.ClickException(
            f"{rules_path}: holds rules of {len(held)} guidelines ({', '.join(held)}); "
            "choose one with --guideline"
        )
    guideline = guideline or held[0]
    rules = [r for r in rules if r.guideline == guideline]
    if not rules:
        raise click.ClickException(
            f"{rules_path}: no rule of guideline {guideline!r} (the file holds "
            f"{', '.join(held)}); pass one of those to --guideline"
        )
    ids_used = check_same_run(index, rules, index_path, rules_path)
    title = next(
        (r.provenance.guideline_title for r in rules if r.provenance.guideline_title), None
    )
    min_share = None if allow_shrink else load_pipeline_settings().graph.min_rule_share

    resource = neo4j_resource_from_env(resolved=True)
    try:
        settings = resource.settings()
        click.echo(f"loading {len(rules)} rules of {guideline} into {settings.describe()}")
        with resource.driver() as driver:
            result = load_guideline(
                driver,
                guideline,
                rules,
                guideline_title=title,
                database=settings.database,
                batch_size=DEFAULT_BATCH_SIZE,
                min_rule_share=min_share,
                on_lock_wait=lambda message: click.echo(message, err=True),
            )
            counts = graph_counts(driver, guideline, database=settings.database)
    except Neo4jSettingsError as exc:
        raise click.ClickException(str(exc)) from None
    except Neo4jLoadError as exc:  # GraphShrinkRefused included: nothing was replaced
        message = str(exc).replace(
            "materialize neo4j_graph with run config "
            "{ops: {neo4j_graph: {config: {allow_shrink: true}}}}",
            "add --allow-shrink",
        )
        raise click.ClickException(message) from None

    for rule_id, reason in result.rules_skipped:
        click.echo(f"  rule {rule_id} skipped: {reason}", err=True)
    if result.cleanup_error:
        click.echo(f"warning: {result.cleanup_error}", err=True)
    nodes, rels = counts["nodes"], counts["relationships"]
    click.echo(
        f"loaded {result.rules_loaded} rules (skipped {len(result.rules_skipped)}) as load "
        f"{result.load_id}"
        + (f", replacing {result.previous_load_id}" if result.previous_load_id else "")
    )
    click.echo(f"grounding index {len(index)} SNOMED CT ids; the rules use {ids_used}, all in it")
    click.echo(
        f"nodes {sum(nodes.values())}: " + ", ".join(f"{k} {v}" for k, v in sorted(nodes.items()))
    )
    click.echo(
        f"relationships {sum(rels.values())}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(rels.items()))
    )
