"""Builders for hand-written rules and patients in the cardio ask tests.

The rules use real SCTIDs of the bundled SNOMED CT sample, so subsumption is the store's
own closure; wording is the team's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from cardio_assets.logic.ask.facts import PatientContext, PatientTerminology, resolve_patient
from cardio_assets.logic.patients import parse_form, parse_patient
from cardio_assets.records import (
    ConceptGrounding,
    ConceptRef,
    ConditionTest,
    ExtractedRule,
    ParameterTest,
    RuleAction,
    RuleNode,
    RuleProvenance,
)

AS_OF = dt.date(2026, 3, 1)
FSN = {
    "84114007": ("Heart failure (disorder)", "disorder"),
    "703272007": ("Heart failure with reduced ejection fraction (disorder)", "disorder"),
    "49436004": ("Atrial fibrillation (disorder)", "disorder"),
    "22298006": ("Myocardial infarction (disorder)", "disorder"),
    "44054006": ("Diabetes mellitus type 2 (disorder)", "disorder"),
    "38341003": ("Hypertensive disorder, systemic arterial (disorder)", "disorder"),
    "250908004": ("Left ventricular ejection fraction (observable entity)", "observable entity"),
    "271649006": ("Systolic blood pressure (observable entity)", "observable entity"),
    "75367002": ("Blood pressure (observable entity)", "observable entity"),
    "102739008": ("Low density lipoprotein cholesterol (substance)", "substance"),
    "80274001": ("Glomerular filtration rate (observable entity)", "observable entity"),
    "373254001": (
        "Substance with beta adrenergic receptor antagonist mechanism of action (substance)",
        "substance",
    ),
    "372793000": ("Diltiazem (substance)", "substance"),
    "387458008": ("Aspirin (substance)", "substance"),
}


def concept(
    role: str, text: str, normalized: str | None = None, sid: str | None = None
) -> ConceptRef:
    grounding = None
    if sid:
        fsn, tag = FSN[sid]
        label = "Medication" if role == "Medication" else role
        grounding = ConceptGrounding(
            snomed_id=sid, preferred_term=fsn, score=1.0, target_label=label, semantic_tag=tag
        )
    return ConceptRef(
        role=role,  # type: ignore[arg-type]
        text=text,
        normalized=normalized or text.lower(),
        grounding=grounding,
        unmapped_reason=None if sid else "no candidate (test)",
    )


def cond(
    text: str, sid: str | None = None, *, negated: bool = False, normalized: str | None = None
) -> ConditionTest:
    return ConditionTest(concept=concept("Condition", text, normalized, sid), negated=negated)


def param(
    text: str, normalized: str, sid: str | None, op: str, threshold: Any, unit: str | None
) -> ParameterTest:
    return ParameterTest(
        concept=concept("ClinicalParameter", text, normalized, sid),
        operator=op,  # type: ignore[arg-type]
        threshold=threshold,
        unit=unit,
    )


def AND(*children: Any) -> RuleNode:  # noqa: N802 - reads like the logic
    return RuleNode(op="AND", children=list(children))


def OR(*children: Any) -> RuleNode:  # noqa: N802
    return RuleNode(op="OR", children=list(children))


def rule(
    guideline: str,
    row: int,
    logic: RuleNode | None,
    *,
    action: str = "aspirin",
    action_sid: str | None = "387458008",
    klass: str = "I",
    level: str = "A",
    polarity: str = "recommended",
    text: str | None = None,
) -> ExtractedRule:
    return ExtractedRule(
        id=f"{guideline}:table_000:r{row}",
        guideline=guideline,
        text=text or f"Test row {row}.",
        class_=klass,
        level=level,
        polarity=polarity,  # type: ignore[arg-type]
        logic=logic,
        actions=[
            RuleAction(
                concept=concept("Medication", action, action, action_sid),
                class_=klass,
                level=level,
                polarity=polarity,  # type: ignore[arg-type]
            )
        ],
        provenance=RuleProvenance(
            guideline=guideline,
            table_id="table_000",
            table_title="Table 1 test rows",
            row_id=f"{guideline}:table_000:r{row}",
            row_index=row,
            pages=[3],
            backend="lexicon",
            config_hash="ask-test",
        ),
    )


def form_patient(terms: PatientTerminology, **form: Any) -> PatientContext:
    return resolve_patient(parse_form(form, "test-form", as_of=AS_OF), terms)


def bundle_patient(terms: PatientTerminology, *resources: dict[str, Any]) -> PatientContext:
    data = {
        "resourceType": "Bundle",
        "type": "collection",
        "entry": [{"resource": r} for r in resources],
    }
    return resolve_patient(parse_patient(data, "test-bundle", as_of=AS_OF), terms)


def condition(
    cid: str, code: str, *, clinical: str | None = "active", verification: str | None = None
) -> dict:
    res: dict[str, Any] = {
        "resourceType": "Condition",
        "id": cid,
        "code": {"coding": [{"system": "http://snomed.info/sct", "code": code}]},
        "subject": {"reference": "Patient/p"},
    }
    if clinical:
        res["clinicalStatus"] = {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                    "code": clinical,
                }
            ]
        }
    if verification:
        res["verificationStatus"] = {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/condition-ver-status",
                    "code": verification,
                }
            ]
        }
    return res


def observation(
    oid: str, loinc: str, value: float, unit: str | None, code: str | None, when: str
) -> dict:
    quantity: dict[str, Any] = {"value": value}
    if unit:
        quantity["unit"] = unit
    if code:
        quantity.update(system="http://unitsofmeasure.org", code=code)
    return {
        "resourceType": "Observation",
        "id": oid,
        "status": "final",
        "code": {"coding": [{"system": "http://loinc.org", "code": loinc}]},
        "subject": {"reference": "Patient/p"},
        "effectiveDateTime": when,
        "valueQuantity": quantity,
    }
