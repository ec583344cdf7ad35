"""One question end to end: patient file -> facts -> an engine -> the answer.

Kept apart from the click command so tests and benchmarks ask exactly what ``cardio ask``
asks, with the engines they choose.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from cardio_assets.errors import UserError
from cardio_assets.logic.ask.answer import Answer, build_answer
from cardio_assets.logic.ask.facts import PatientContext, PatientTerminology, resolve_patient
from cardio_assets.logic.ask.model import RuleResult
from cardio_assets.logic.patients import load_patient
from cardio_assets.records import ExtractedRule


class Engine(Protocol):
    engine: str

    def evaluate(self, ctx: PatientContext) -> list[RuleResult]: ...


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
    """extracted_rules of these guidelines (all when empty) from the DuckDB warehouse,
    through the project's IO helper; an unknown guideline is an error naming the known ones."""
    from cardio_assets import paths
    from resources.duckdb_io_manager import read_records

    warehouse = warehouse or paths.warehouse_path()
    known = warehouse_guidelines(warehouse)
    if not known:
        raise UserError(
            f"no extracted_rules in {warehouse}: materialize the pipeline first (`make demo`, "
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


def ask(
    patient_file: Path | str,
    engine: Engine,
    terms: PatientTerminology,
    *,
    guidelines: Sequence[str],
    as_of: dt.date | None = None,
) -> Answer:
    patient = load_patient(patient_file, as_of=as_of)
    ctx = resolve_patient(patient, terms)
    return answer_for(ctx, engine, terms, guidelines=guidelines)


def answer_for(
    ctx: PatientContext, engine: Engine, terms: PatientTerminology, *, guidelines: Sequence[str]
) -> Answer:
    results = engine.evaluate(ctx)
    return build_answer(
        ctx, results, terms.units, terms.config, engine=engine.engine, guidelines=guidelines
    )
