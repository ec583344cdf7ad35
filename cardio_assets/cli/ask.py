"""``cardio ask``: what the guidelines recommend for one patient, and why (thin command;
the logic is in cardio_assets/logic/ask/ and cardio_assets/logic/patients.py).

The rules come from the warehouse's ``extracted_rules`` through the DuckDB IO manager's own
reader (``load_rules``, also used by the tests and benchmarks/ask.py), so the Python engine
reads exactly what the assets wrote; ``--engine cypher`` asks the Neo4j graph instead.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from cardio_assets.errors import UserError
from cardio_assets.records import ExtractedRule


def warehouse_guidelines(warehouse: Path) -> list[str]:
    """Guidelines that have extracted_rules in the warehouse."""
    from cardio_assets.warehouse import connect

    if not warehouse.exists():
        return []
    with connect(warehouse, read_only=True) as con:
        found = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_name = 'extracted_rules'"
        ).fetchall()
        if not found:
            return []
        rows = con.execute(
            "SELECT DISTINCT guideline FROM extracted_rules ORDER BY guideline"
        ).fetchall()
    return [r[0] for r in rows]


def load_rules(
    guidelines: Sequence[str] | None, warehouse: Path | None = None
) -> list[ExtractedRule]:
    """extracted_rules of these guidelines (all when empty) from the DuckDB warehouse; an
    unknown guideline is an error naming the known ones."""
    from cardio_assets import paths
    from resources.duckdb_io_manager import read_records

    warehouse = warehouse or paths.warehouse_path()
    known = warehouse_guidelines(warehouse)
    if not known:
        raise UserError(
            f"no extracted_rules in {warehouse}: materialize the pipeline first (`cardio demo`, "
            "or `dagster asset materialize ... --select '*extracted_rules'`)"
        )
    wanted = list(guidelines) if guidelines else known
    unknown = [g for g in wanted if g not in known]
    if unknown:
        raise UserError(
            f"guideline(s) {', '.join(unknown)} have no extracted_rules in {warehouse}; "
            f"known: {', '.join(known)}"
        )
    return read_records(warehouse, "extracted_rules", ExtractedRule, wanted)  # type: ignore[return-value]


@click.command("ask")
@click.option(
    "--patient",
    "patient_file",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="A FHIR R4 Bundle (JSON) or the small form (schemas/patient_form.schema.json).",
)
@click.option(
    "--guideline", "guidelines", multiple=True, help="Only these guidelines (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable answer.")
@click.option(
    "--engine",
    type=click.Choice(["python", "cypher"]),
    default="python",
    show_default=True,
    help="python: extracted_rules from the DuckDB warehouse; cypher: the Neo4j graph.",
)
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Date ages are computed for (default: today).",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="Terminology store (default: $CARDIO_SNOMED_STORE, else the bundled sample).",
)
def ask_command(
    patient_file: Path,
    guidelines: tuple[str, ...],
    as_json: bool,
    engine: str,
    as_of: dt.datetime | None,
    db_path: Path | None,
) -> None:
    """Answer for PATIENT: applicable, possibly applicable and excluded recommendations,
    with the facts behind each and the source row."""
    from cardio_assets.logic.ask.facts import PatientTerminology
    from cardio_assets.logic.ask.render import render_text
    from cardio_assets.logic.ask.service import ask
    from cardio_assets.logic.patients import load_patient

    day = as_of.date() if as_of else None
    load_patient(patient_file, as_of=day)  # a bad file fails before anything is opened
    terms = PatientTerminology.open(db_path, hold_connection=True)
    if engine == "python":
        from cardio_assets.logic.ask.evaluate import PythonEngine

        rules = load_rules(guidelines)
        chosen = sorted({r.guideline for r in rules})
        answer = ask(
            patient_file,
            PythonEngine(rules, terms.units, terms.config),
            terms,
            guidelines=chosen,
            as_of=day,
        )
    else:
        from cardio_assets.cli.audit import _neo4j_resource, quiet_neo4j_notifications
        from cardio_assets.logic.ask.cypher_engine import CypherEngine
        from resources.neo4j_resource import Neo4jSettingsError

        quiet_neo4j_notifications()
        resource = _neo4j_resource()
        try:
            with resource.driver() as driver:
                cypher = CypherEngine(
                    driver,
                    terms.units,
                    terms.config,
                    guidelines=guidelines or None,
                    database=resource.database,
                )
                missing = [g for g in guidelines if g not in cypher.loaded]
                if missing or not cypher.loaded:
                    raise click.ClickException(
                        f"not loaded in Neo4j: {', '.join(missing) or 'any guideline'}; "
                        f"loaded: {', '.join(cypher.loaded) or 'none'}"
                    )
                answer = ask(patient_file, cypher, terms, guidelines=cypher.loaded, as_of=day)
        except Neo4jSettingsError as exc:
            raise click.ClickException(str(exc)) from None
    if as_json:
        json.dump(answer.model_dump(mode="json", by_alias=True), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        click.echo(render_text(answer), nl=False)
