"""Patients for ``cardio ask``: a FHIR R4 Bundle or the small JSON form -> ``PatientInput``.

Why two formats: clinical systems (EHR exports, Synthea) produce FHIR Bundles; a person
trying a question writes ``{"age": 67, "conditions": ["heart failure"]}``. Both become the
same ``PatientInput``: facts as written (free text or codes), each with the resource or
field it came from, and every problem found on the way, so an answer can say which input
it rests on and nothing is dropped silently.

FHIR is parsed with the ``fhir.resources`` models, R4B module (fhir.resources 8 ships R5,
R4B and STU3; R4B keeps R4's definitions of Patient, Condition, Observation,
MedicationStatement, MedicationRequest and Procedure, so an R4 Bundle validates as is and
an STU3 or R5 one fails on the fields that changed). Status rules (FHIR R4 value sets):

- Condition: verificationStatus ``refuted`` = known absent; ``entered-in-error`` ignored;
  ``unconfirmed``/``provisional``/``differential`` not counted; clinicalStatus
  ``inactive``/``remission``/``resolved`` not counted (not current), ``active``/
  ``recurrence``/``relapse`` (or none given) counts.
- Observation: ``entered-in-error``/``cancelled`` ignored; the latest value per code
  (components such as systolic/diastolic of a blood pressure panel separately); two
  different values at the same latest time are a conflict and neither is used.
- MedicationStatement: ``active`` counts, ``not-taken`` = known absent, others not
  counted; MedicationRequest: ``active`` counts.
- Procedure: ``completed``/``in-progress`` count (history), ``not-done`` = known absent.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardio_assets.errors import UserError
from cardio_assets.paths import PROJECT_ROOT

FORM_SCHEMA_PATH = PROJECT_ROOT / "schemas" / "patient_form.schema.json"
SNOMED_SYSTEM = "http://snomed.info/sct"
LOINC_SYSTEM = "http://loinc.org"
UCUM_SYSTEM = "http://unitsofmeasure.org"
MAX_PATIENT_BYTES = 20 * 1024 * 1024
_SCTID = re.compile(r"^\s*(?:sct(?:id)?:\s*)?([1-9][0-9]{5,17})\s*$", re.I)
_LOINC = re.compile(r"^\s*loinc:\s*([0-9]{1,7}-[0-9])\s*$", re.I)
_PAIR = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*$")

FactKind = Literal["condition", "medication", "procedure"]
FactStatus = Literal["present", "absent"]
Component = Literal["systolic", "diastolic"]


class PatientFileError(UserError, ValueError):
    """The file cannot be read as a patient at all (not JSON, not a Bundle or form)."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Coding(_Record):
    system: str | None = None
    code: str | None = None
    display: str | None = None


class InputFact(_Record):
    """A condition, medication or procedure as the patient file states it."""

    kind: FactKind
    status: FactStatus = "present"
    text: str | None = None  # free text, or the code's display
    codings: list[Coding] = Field(default_factory=list)
    source: str  # "Condition/c1" or "conditions[0]"
    note: str | None = None  # the statuses read, for the answer


class InputMeasurement(_Record):
    """A measured value (FHIR Observation or a form parameter)."""

    name: str | None = None
    codings: list[Coding] = Field(default_factory=list)
    value: float
    unit: str | None = None  # as written ("%", "mmHg")
    ucum: str | None = None  # the UCUM code when the file gives one
    date: str | None = None  # ISO date or date-time
    source: str
    component: Component | None = None


class InputProblem(_Record):
    where: str  # the resource or field
    message: str
    severity: Literal["error", "warning"] = "warning"


class PatientInput(_Record):
    source_file: str
    format: Literal["fhir-r4", "form"]
    patient_id: str | None = None
    birth_date: str | None = None
    age: float | None = None  # whole years at the question date
    sex: str | None = None
    as_of: str  # the date ages are computed for
    facts: list[InputFact] = Field(default_factory=list)
    measurements: list[InputMeasurement] = Field(default_factory=list)
    problems: list[InputProblem] = Field(default_factory=list)
    not_counted: list[str] = Field(default_factory=list)  # resources read but not counted

    def is_empty(self) -> bool:
        return not self.facts and not self.measurements and self.age is None


# --- entry point -------------------------------------------------------------------------
def load_patient(path: Path | str, *, as_of: dt.date | None = None) -> PatientInput:
    """Read a patient file; PatientFileError (file and reason named) when it is unusable."""
    path = Path(path)
    as_of = as_of or dt.date.today()
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise PatientFileError(f"{path}: cannot read the patient file ({exc.strerror})") from None
    if size > MAX_PATIENT_BYTES:
        raise PatientFileError(f"{path}: {size} bytes is larger than {MAX_PATIENT_BYTES}")
    raw = path.read_bytes()
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise PatientFileError(f"{path}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise PatientFileError(
            f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); a patient "
            "is a FHIR R4 Bundle in JSON or the small JSON form (schemas/patient_form.schema.json)"
        ) from None
    return parse_patient(data, str(path), as_of=as_of)


def parse_patient(data: Any, source: str, *, as_of: dt.date) -> PatientInput:
    if not isinstance(data, dict):
        raise PatientFileError(
            f"{source}: expected a JSON object (a FHIR Bundle or the small form), "
            f"got {type(data).__name__}"
        )
    if "resourceType" in data:
        kind = data.get("resourceType")
        if kind != "Bundle":
            raise PatientFileError(
                f"{source}: resourceType {kind!r}: expected a FHIR R4 'Bundle' of the "
                "patient's resources (Patient, Condition, Observation, ...)"
            )
        return parse_fhir_bundle(data, source, as_of=as_of)
    return parse_form(data, source, as_of=as_of)


# --- helpers ---------------------------------------------------------------------------
def age_on(birth: dt.date, day: dt.date) -> int:
    """Whole years, as clinicians count age."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _parse_birth(text: str) -> dt.date | None:
    """FHIR dates may be partial (YYYY or YYYY-MM): the first day is used."""
    for fmt in ("%Y-%m-%d", "%Y-%m", "%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def _sort_time(date: str | None) -> str:
    """Sortable key: dated values after undated ones; date-times and dates compare as text."""
    return date or ""


def latest_per_code(
    measurements: list[InputMeasurement], problems: list[InputProblem]
) -> list[InputMeasurement]:
    """The latest value per (code, component); different values at the same latest time
    are a conflict: both are reported and neither is used."""
    groups: dict[tuple[str, str | None], list[InputMeasurement]] = {}
    for m in measurements:
        coding = next((c for c in m.codings if c.code), None)
        key = f"{coding.system}|{coding.code}" if coding else f"name|{(m.name or '').lower()}"
        groups.setdefault((key, m.component), []).append(m)
    out: list[InputMeasurement] = []
    for items in groups.values():
        items.sort(key=lambda m: _sort_time(m.date), reverse=True)
        top = [m for m in items if _sort_time(m.date) == _sort_time(items[0].date)]
        values = {(round(m.value, 9), m.ucum or m.unit) for m in top}
        if len(values) > 1:
            label = items[0].name or (items[0].codings[0].display if items[0].codings else "")
            shown = ", ".join(f"{m.value:g} {m.unit or ''}".strip() for m in top)
            when = items[0].date or "no date"
            problems.append(
                InputProblem(
                    where=" and ".join(m.source for m in top),
                    message=f"contradictory values of {label or 'one code'} at the same time "
                    f"({when}): {shown}; neither is used",
                    severity="error",
                )
            )
            continue
        out.append(items[0])
        if not items[0].date and len(items) > 1:
            problems.append(
                InputProblem(
                    where=items[0].source,
                    message="several values without a date: the first is used",
                )
            )
    return out


# --- the small form ----------------------------------------------------------------------
def _form_validator():  # type: ignore[no-untyped-def]
    import jsonschema

    schema = json.loads(FORM_SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _json_path(path: Any) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<top level>"


def _term_fact(kind: FactKind, item: Any, where: str, status: FactStatus) -> InputFact:
    if isinstance(item, dict):
        text = item.get("text")
        code = item.get("code")
        status = "absent" if item.get("present") is False else status
    else:
        text, code = item, None
        match = _SCTID.match(str(item))
        if match:
            text, code = None, match.group(1)
    codings = [Coding(system=SNOMED_SYSTEM, code=str(code))] if code else []
    return InputFact(kind=kind, status=status, text=text, codings=codings, source=where)


def parse_form(data: dict[str, Any], source: str, *, as_of: dt.date) -> PatientInput:
    """The small form; validated against schemas/patient_form.schema.json first."""
    errors = sorted(_form_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        problems = "; ".join(f"{_json_path(e.absolute_path)}: {e.message}" for e in errors[:8])
        raise PatientFileError(
            f"{source}: not a valid patient form ({problems}); see "
            "schemas/patient_form.schema.json, or give a FHIR R4 Bundle"
        )
    problems: list[InputProblem] = []
    patient = PatientInput(source_file=source, format="form", as_of=as_of.isoformat())
    patient.patient_id = data.get("id")
    patient.sex = data.get("sex")
    if "birth_date" in data:
        birth = _parse_birth(data["birth_date"])
        if birth is None:
            problems.append(
                InputProblem(
                    where="birth_date", message="not a date (YYYY-MM-DD)", severity="error"
                )
            )
        else:
            patient.birth_date = data["birth_date"]
            patient.age = float(age_on(birth, as_of))
    if "age" in data:
        if patient.age is not None and abs(patient.age - data["age"]) >= 1:
            problems.append(
                InputProblem(
                    where="age",
                    message=f"age {data['age']} contradicts birth_date {patient.birth_date} "
                    f"(age {patient.age:g} on {as_of}); the birth date is used",
                    severity="error",
                )
            )
        elif patient.age is None:
            patient.age = float(data["age"])
    for key, kind in (
        ("conditions", "condition"),
        ("medications", "medication"),
        ("procedures", "procedure"),
    ):
        for i, item in enumerate(data.get(key, [])):
            patient.facts.append(_term_fact(kind, item, f"{key}[{i}]", "present"))  # type: ignore[arg-type]
    for i, item in enumerate(data.get("absent", [])):
        patient.facts.append(_term_fact("condition", item, f"absent[{i}]", "absent"))
    measurements: list[InputMeasurement] = []
    for i, item in enumerate(data.get("parameters", [])):
        where = f"parameters[{i}]"
        name = item.get("name")
        codings = []
        code = item.get("code")
        if code:
            sct, loinc = _SCTID.match(str(code)), _LOINC.match(str(code))
            if sct:
                codings.append(Coding(system=SNOMED_SYSTEM, code=sct.group(1), display=name))
            elif loinc:
                codings.append(Coding(system=LOINC_SYSTEM, code=loinc.group(1), display=name))
            else:
                problems.append(
                    InputProblem(
                        where=f"{where}.code",
                        message=f"{code!r} is neither a SNOMED CT id nor 'loinc:NNNN-N'; "
                        "the name is used",
                    )
                )
        value, unit = item.get("value"), item.get("unit")
        pair = _PAIR.match(value) if isinstance(value, str) else None
        if isinstance(value, str) and not pair:
            problems.append(
                InputProblem(
                    where=f"{where}.value",
                    message=f"{value!r} is not a number (or a systolic/diastolic pair)",
                    severity="error",
                )
            )
            continue
        common = {"unit": unit, "date": item.get("date"), "source": where}
        if pair:  # "150/95" mmHg: a blood pressure as its two components
            measurements.append(
                InputMeasurement(
                    name="systolic blood pressure",
                    value=float(pair.group(1)),
                    component="systolic",
                    **common,
                )
            )
            measurements.append(
                InputMeasurement(
                    name="diastolic blood pressure",
                    value=float(pair.group(2)),
                    component="diastolic",
                    **common,
                )
            )
            continue
        measurements.append(
            InputMeasurement(name=name, codings=codings, value=float(value), **common)
        )
    patient.measurements = latest_per_code(measurements, problems)
    patient.problems = problems
    return patient


# --- FHIR R4 -----------------------------------------------------------------------------
_CONDITION_CURRENT = {"active", "recurrence", "relapse"}
_CONDITION_NOT_CURRENT = {"inactive", "remission", "resolved"}
_NOT_ESTABLISHED = {"unconfirmed", "provisional", "differential"}


def _codes(concept: Any) -> set[str]:
    return {c.code for c in (getattr(concept, "coding", None) or []) if c.code}


def _codings(concept: Any) -> list[Coding]:
    out = [
        Coding(system=c.system, code=c.code, display=c.display)
        for c in (getattr(concept, "coding", None) or [])
    ]
    return out


def _text(concept: Any) -> str | None:
    if concept is None:
        return None
    if getattr(concept, "text", None):
        return concept.text
    return next((c.display for c in (concept.coding or []) if c.display), None)


def _label(resource: Any, index: int) -> str:
    rid = getattr(resource, "id", None)
    kind = resource.get_resource_type()
    return f"{kind}/{rid}" if rid else f"entry[{index}] ({kind})"


def _validation_problems(exc: Any, prefix: str) -> list[str]:
    out = []
    for err in exc.errors()[:4]:
        loc = ".".join(str(p) for p in err["loc"])
        out.append(f"{prefix}{loc}: {err['msg']}")
    return out


def _parse_entries(data: dict[str, Any], source: str, problems: list[InputProblem]) -> list[Any]:
    """Validated R4 resources of the Bundle; entries that fail R4 validation are reported
    one by one (resource and field named) and skipped; if none passes, it is not R4."""
    from fhir.resources.R4B import get_fhir_model_class
    from fhir.resources.R4B.bundle import Bundle
    from pydantic import ValidationError

    entries = data.get("entry", [])
    if not isinstance(entries, list):
        raise PatientFileError(f"{source}: Bundle.entry must be a list of entries")
    shell = {k: v for k, v in data.items() if k != "entry"}
    try:
        Bundle.model_validate(shell)
    except ValidationError as exc:
        raise PatientFileError(
            f"{source}: not a FHIR R4 Bundle ({'; '.join(_validation_problems(exc, 'Bundle.'))})"
        ) from None
    resources: list[Any] = []
    failed: list[str] = []
    for i, entry in enumerate(entries):
        where = f"entry[{i}]"
        resource = entry.get("resource") if isinstance(entry, dict) else None
        if not isinstance(resource, dict) or "resourceType" not in resource:
            problems.append(InputProblem(where=where, message="no resource with a resourceType"))
            failed.append(where)
            continue
        kind = resource["resourceType"]
        label = f"{kind}/{resource['id']}" if resource.get("id") else f"{where} ({kind})"
        try:
            model = get_fhir_model_class(str(kind))
        except (ValueError, KeyError):
            problems.append(
                InputProblem(where=label, message=f"{kind!r} is not a FHIR R4 resource type")
            )
            failed.append(label)
            continue
        try:
            parsed = model.model_validate(resource)
        except ValidationError as exc:
            detail = "; ".join(_validation_problems(exc, ""))
            problems.append(
                InputProblem(
                    where=label,
                    message=f"not valid FHIR R4 ({detail}); skipped",
                    severity="error",
                )
            )
            failed.append(label)
            continue
        resources.append((i, parsed, entry.get("fullUrl")))
    if entries and not resources:
        shown = "; ".join(f"{p.where}: {p.message}" for p in problems[:3])
        raise PatientFileError(
            f"{source}: not a FHIR R4 Bundle: none of its {len(entries)} entries validates "
            f"as R4 ({shown})"
        )
    return resources


def _observation_time(obs: Any) -> str | None:
    if obs.effectiveDateTime is not None:
        return _iso(obs.effectiveDateTime)
    if obs.effectiveInstant is not None:
        return _iso(obs.effectiveInstant)
    if obs.effectivePeriod is not None:
        return _iso(obs.effectivePeriod.end or obs.effectivePeriod.start)
    return _iso(obs.issued)


def _quantity(
    q: Any, where: str, problems: list[InputProblem]
) -> tuple[float, str | None, str | None] | None:
    if q is None or q.value is None:
        return None
    ucum = q.code if (q.system in (None, UCUM_SYSTEM) and q.code) else None
    unit = q.unit or q.code
    if unit is None:
        problems.append(
            InputProblem(
                where=where,
                message=f"value {q.value} has no unit (valueQuantity.unit and .code empty); "
                "it meets only tests without a unit",
            )
        )
    return float(q.value), unit, ucum


_COMPONENT_CODES = {"8480-6": "systolic", "271649006": "systolic", "8462-4": "diastolic"}
_COMPONENT_CODES["271650006"] = "diastolic"


def parse_fhir_bundle(data: dict[str, Any], source: str, *, as_of: dt.date) -> PatientInput:
    problems: list[InputProblem] = []
    resources = _parse_entries(data, source, problems)
    patient = PatientInput(source_file=source, format="fhir-r4", as_of=as_of.isoformat())
    by_ref: dict[str, Any] = {}
    for _i, res, full_url in resources:
        if getattr(res, "id", None):
            by_ref[f"{res.get_resource_type()}/{res.id}"] = res
        if full_url:
            by_ref[full_url] = res
    measurements: list[InputMeasurement] = []
    patients_seen = 0
    for i, res, _url in resources:
        kind = res.get_resource_type()
        label = _label(res, i)
        if kind == "Patient":
            patients_seen += 1
            if patients_seen > 1:
                problems.append(
                    InputProblem(where=label, message="a second Patient: only the first is used")
                )
                continue
            patient.patient_id = res.id
            patient.sex = res.gender
            if res.birthDate is not None:
                birth = res.birthDate if isinstance(res.birthDate, dt.date) else None
                birth = birth or _parse_birth(str(res.birthDate))
                if birth is not None:
                    patient.birth_date = birth.isoformat()
                    patient.age = float(age_on(birth, as_of))
        elif kind == "Condition":
            _condition(res, label, patient, problems)
        elif kind == "Observation":
            measurements.extend(_observation(res, label, problems, patient))
        elif kind in ("MedicationStatement", "MedicationRequest"):
            _medication(res, label, patient, problems, by_ref)
        elif kind == "Procedure":
            _procedure(res, label, patient, problems)
        elif kind not in ("Medication", "Encounter", "Organization", "Practitioner"):
            patient.not_counted.append(f"{label}: resource type {kind} is not read")
    if patients_seen == 0:
        problems.append(
            InputProblem(where=source, message="no Patient resource: age and sex are unknown")
        )
    patient.measurements = latest_per_code(measurements, problems)
    patient.problems = problems
    return patient


def _condition(res: Any, label: str, patient: PatientInput, problems: list[InputProblem]) -> None:
    clinical = _codes(res.clinicalStatus)
    verification = _codes(res.verificationStatus)
    note = ", ".join(
        part
        for part in (
            f"clinicalStatus {'/'.join(sorted(clinical))}" if clinical else "",
            f"verificationStatus {'/'.join(sorted(verification))}" if verification else "",
        )
        if part
    )
    if res.code is None:
        problems.append(InputProblem(where=label, message="Condition without a code; skipped"))
        return
    if "entered-in-error" in verification:
        patient.not_counted.append(f"{label}: entered-in-error")
        return
    status: FactStatus = "present"
    if "refuted" in verification:
        status = "absent"
    elif verification & _NOT_ESTABLISHED:
        patient.not_counted.append(f"{label}: {note} (not established)")
        return
    elif clinical & _CONDITION_NOT_CURRENT:
        patient.not_counted.append(f"{label}: {note} (not current)")
        return
    elif clinical and not clinical & _CONDITION_CURRENT:
        patient.not_counted.append(f"{label}: unknown clinicalStatus {sorted(clinical)}")
        return
    patient.facts.append(
        InputFact(
            kind="condition",
            status=status,
            text=_text(res.code),
            codings=_codings(res.code),
            source=label,
            note=note or None,
        )
    )


def _observation(
    res: Any, label: str, problems: list[InputProblem], patient: PatientInput
) -> list[InputMeasurement]:
    if res.status in ("entered-in-error", "cancelled"):
        patient.not_counted.append(f"{label}: status {res.status}")
        return []
    when = _observation_time(res)
    if when is None:
        problems.append(InputProblem(where=label, message="no effective date: ordered last"))
    out: list[InputMeasurement] = []
    parts = [(res.code, res.valueQuantity, label, res.valueInteger)]
    for j, comp in enumerate(res.component or []):
        parts.append((comp.code, comp.valueQuantity, f"{label}.component[{j}]", comp.valueInteger))
    for code, quantity, where, integer in parts:
        if quantity is None and integer is not None:
            quantity_value = (float(integer), None, None)
        else:
            quantity_value = _quantity(quantity, where, problems)
        if quantity_value is None:
            continue
        value, unit, ucum = quantity_value
        component = next((_COMPONENT_CODES[c] for c in _codes(code) if c in _COMPONENT_CODES), None)
        out.append(
            InputMeasurement(
                name=_text(code),
                codings=_codings(code),
                value=value,
                unit=unit,
                ucum=ucum,
                date=when,
                source=where,
                component=component,  # type: ignore[arg-type]
            )
        )
    if not out and not res.component:
        problems.append(
            InputProblem(
                where=label,
                message="no numeric value (valueQuantity or valueInteger); not used",
            )
        )
    return out


def _medication(
    res: Any,
    label: str,
    patient: PatientInput,
    problems: list[InputProblem],
    by_ref: dict[str, Any],
) -> None:
    kind = res.get_resource_type()
    status = res.status
    if kind == "MedicationStatement":
        if status == "not-taken":
            fact_status: FactStatus = "absent"
        elif status == "active":
            fact_status = "present"
        else:
            patient.not_counted.append(f"{label}: status {status}")
            return
    else:
        if status != "active":
            patient.not_counted.append(f"{label}: status {status}")
            return
        if getattr(res, "doNotPerform", None):
            patient.not_counted.append(f"{label}: doNotPerform")
            return
        fact_status = "present"
    concept = res.medicationCodeableConcept
    if concept is None and res.medicationReference is not None:
        ref = res.medicationReference.reference or ""
        target = by_ref.get(ref)
        if target is None and ref.startswith("#"):
            target = next((c for c in (res.contained or []) if f"#{c.id}" == ref), None)
        if target is None or getattr(target, "code", None) is None:
            problems.append(
                InputProblem(
                    where=label, message=f"medicationReference {ref!r} not found in the Bundle"
                )
            )
            return
        concept = target.code
    if concept is None:
        problems.append(InputProblem(where=label, message="no medication given; skipped"))
        return
    patient.facts.append(
        InputFact(
            kind="medication",
            status=fact_status,
            text=_text(concept),
            codings=_codings(concept),
            source=label,
            note=f"status {status}",
        )
    )


def _procedure(res: Any, label: str, patient: PatientInput, problems: list[InputProblem]) -> None:
    if res.status in ("completed", "in-progress"):
        status: FactStatus = "present"
    elif res.status == "not-done":
        status = "absent"
    else:
        patient.not_counted.append(f"{label}: status {res.status}")
        return
    if res.code is None:
        problems.append(InputProblem(where=label, message="Procedure without a code; skipped"))
        return
    patient.facts.append(
        InputFact(
            kind="procedure",
            status=status,
            text=_text(res.code),
            codings=_codings(res.code),
            source=label,
            note=f"status {res.status}",
        )
    )
