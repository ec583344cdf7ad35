"""One question end to end: patient file -> facts -> an engine -> the answer.

Kept apart from the click command so tests and benchmarks ask exactly what ``cardio ask``
asks, with the engines they choose. Reading the rules out of the warehouse goes through the
DuckDB IO manager's reader, so it is in the command (``cardio_assets/cli/ask.py``
``load_rules``), not here: logic/ imports no resources.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from cardio_assets.logic.ask.answer import Answer, build_answer
from cardio_assets.logic.ask.facts import PatientContext, PatientTerminology, resolve_patient
from cardio_assets.logic.ask.model import RuleResult
from cardio_assets.logic.patients import load_patient


class Engine(Protocol):
    engine: str

    def evaluate(self, ctx: PatientContext) -> list[RuleResult]: ...


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
