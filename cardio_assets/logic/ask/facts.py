"""Patient facts grounded in SNOMED CT, with the is-a closure rules are matched through.

Why here and shared by both engines: a fact is grounded once (codes looked up in the
terminology store, free text through the pipeline's own ``ground_candidates`` +
``select_grounding`` with the per-role filters of configs/guideline_graph_schema.yaml), and
the closure is read once from the store's ``ancestor`` table. The Python and the Cypher
engine then see exactly the same facts, so when they disagree it is about the rules.

Matching (both engines):
- a present fact meets a rule concept C when C is the fact's concept or one of its is-a
  ancestors (``ids``: a patient with HFrEF has heart failure; one on bisoprolol takes a
  beta-blocker), or, weaker, when C's normalized name is one of the fact's names (``names``:
  the text as written and the concept's descriptions, normalized like the pipeline
  normalizes rule terms). Name matches are how unmapped rule concepts are met.
- an absent fact (refuted, not-taken, not-done, the form's ``absent``) contradicts C when C
  is the fact's concept or one of its descendants (no heart failure = no HFrEF), or by name.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardio_assets.config import (
    GroundingSchema,
    load_abbreviations,
    load_ask_config,
    load_grounding_schema,
    load_pipeline_settings,
)
from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.ask.config import Analyte, AskConfig
from cardio_assets.logic.ask.units import (
    DIASTOLIC_BP,
    SYSTOLIC_BP,
    UnitError,
    Units,
    default_units,
)
from cardio_assets.logic.grounding import ground_candidates, select_grounding
from cardio_assets.logic.patients import (
    LOINC_SYSTEM,
    SNOMED_SYSTEM,
    FactKind,
    FactStatus,
    InputFact,
    InputMeasurement,
    InputProblem,
    PatientInput,
)
from cardio_assets.records import Role
from cardio_assets.terminology.text import split_semantic_tag

How = Literal["code", "grounded text", "ungrounded", "loinc name", "derived"]
_ROLE: dict[str, Role] = {
    "condition": "Condition",
    "medication": "Medication",
    "procedure": "Procedure",
    "parameter": "ClinicalParameter",
}


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResolvedFact(_Record):
    """One condition, medication or procedure, grounded, with what it matches through."""

    index: int
    kind: FactKind
    status: FactStatus
    label: str  # the text as written, or the code's display
    source: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    how: How
    score: float | None = None  # grounding score of grounded text
    note: str | None = None
    ids: list[str] = Field(
        default_factory=list
    )  # present: self + ancestors; absent: self + descendants
    names: list[str] = Field(default_factory=list)


class ResolvedMeasurement(_Record):
    """One measured value, with the concept it measures and the closure of that concept."""

    index: int  # preference order: latest first
    label: str
    source: str
    snomed_id: str | None = None
    preferred_term: str | None = None
    how: How
    ids: list[str] = Field(default_factory=list)  # self + ancestors
    names: list[str] = Field(default_factory=list)
    analyte: str | None = None  # key into configs/ask.yaml analytes
    value: float
    unit: str | None = None  # as written
    ucum: str | None = None  # None: no unit given, or an unknown unit (see unit_problem)
    unit_problem: str | None = None
    date: str | None = None
    component: Literal["systolic", "diastolic"] | None = None


class PatientContext(_Record):
    """What both engines evaluate against."""

    patient: PatientInput
    facts: list[ResolvedFact] = Field(default_factory=list)
    measurements: list[ResolvedMeasurement] = Field(default_factory=list)
    problems: list[InputProblem] = Field(default_factory=list)

    def ungrounded(self) -> list[ResolvedFact | ResolvedMeasurement]:
        return [f for f in [*self.facts, *self.measurements] if f.how == "ungrounded"]


class PatientTerminology:
    """The store, grounding filters and abbreviations a patient is grounded with; lookups
    are cached per process (generated patients repeat the same codes and terms)."""

    def __init__(
        self,
        store: Any,
        *,
        schema: GroundingSchema | None = None,
        abbreviations: Abbreviations | None = None,
        config: AskConfig | None = None,
        units: Units | None = None,
        top_k: int | None = None,
    ) -> None:
        self.store = store
        self.schema = schema or load_grounding_schema()
        # the pipeline's list, search and top_k (configs/abbreviations.txt, pipeline.yaml)
        self.abbreviations = abbreviations if abbreviations is not None else load_abbreviations()
        self.top_k = top_k or load_pipeline_settings().grounding.top_k
        self.config = config or load_ask_config()
        self.units = units or default_units()
        self._lock = threading.Lock()
        self._grounded: dict[tuple[str, str], Any] = {}
        self._closure: dict[tuple[str, str], list[str]] = {}
        self._names: dict[str, list[str]] = {}
        self._details: dict[str, Any] = {}
        self._analyte_by: dict[str, str] = {}
        for key, analyte in self.config.analytes.items():
            for value in (*analyte.snomed, *analyte.loinc, *analyte.names):
                self._analyte_by.setdefault(self.normalize(value), key)

    @classmethod
    def open(
        cls, store_path: Path | str | None = None, *, hold_connection: bool = False
    ) -> PatientTerminology:
        """The store the pipeline grounds with ($CARDIO_SNOMED_STORE or the sample);
        ``hold_connection`` keeps one read-only connection to it for the closure reads
        (for processes that ask many questions; see ``SnomedStore.hold_connection``)."""
        from cardio_assets.terminology.location import open_store

        store = open_store(store_path)
        return cls(store.hold_connection() if hold_connection else store)

    # --- text ----------------------------------------------------------------------------
    def normalize(self, text: str) -> str:
        """The pipeline's ``normalized`` form (abbreviations expanded, lower-case)."""
        return self.abbreviations.normalize(text)

    def ground(self, term: str, role: Role) -> tuple[str, str, float] | None:
        """(snomed id, FSN, score) when the pipeline's filters keep a candidate."""
        key = (role, term)
        with self._lock:
            if key in self._grounded:
                return self._grounded[key]
        candidates = ground_candidates(term, role, self.store, self.abbreviations, top_k=self.top_k)
        outcome = select_grounding(term, role, candidates, self.schema.rule(role))
        result = None
        if outcome.entry is not None:
            e = outcome.entry
            result = (str(e.snomed_id), e.preferred_term, float(e.score))
        with self._lock:
            self._grounded[key] = result
        return result

    # --- the store -------------------------------------------------------------------------
    def details(self, concept_id: str) -> Any | None:
        with self._lock:
            if concept_id in self._details:
                return self._details[concept_id]
        found = self.store.concept_details([concept_id]).get(concept_id)
        with self._lock:
            self._details[concept_id] = found
        return found

    def closure(self, ids: Iterable[str], direction: Literal["up", "down"]) -> dict[str, list[str]]:
        """Self + is-a ancestors (up) or self + descendants (down), from the store."""
        ids = list(dict.fromkeys(ids))
        with self._lock:
            todo = [i for i in ids if (direction, i) not in self._closure]
        if todo:
            found = self.store.closure(todo, direction)
            with self._lock:
                for i, values in found.items():
                    self._closure[(direction, i)] = values
        with self._lock:
            return {i: self._closure[(direction, i)] for i in ids}

    def names(self, concept_id: str) -> list[str]:
        """Normalized descriptions of one concept (FSN without its tag, synonyms)."""
        with self._lock:
            if concept_id in self._names:
                return self._names[concept_id]
        out: list[str] = []
        for term, is_fsn in self.store.descriptions(concept_id):
            text = split_semantic_tag(term)[0] if is_fsn else term
            if " - " in text and is_fsn is False:  # "MI - Myocardial infarction"
                out.extend(self.normalize(part) for part in text.split(" - "))
            out.append(self.normalize(text))
        out = list(dict.fromkeys(n for n in out if n))
        with self._lock:
            self._names[concept_id] = out
        return out

    def analyte(self, keys: Iterable[str]) -> tuple[str, Analyte] | None:
        for key in keys:
            found = self._analyte_by.get(self.normalize(key))
            if found:
                return found, self.config.analytes[found]
        return None


# --- resolving ----------------------------------------------------------------------------
def _snomed_code(codings: Sequence[Any]) -> str | None:
    return next(
        (c.code for c in codings if c.code and (c.system or SNOMED_SYSTEM) == SNOMED_SYSTEM),
        None,
    )


def _resolve_concept(
    term_text: str | None,
    codings: Sequence[Any],
    role: Role,
    where: str,
    terms: PatientTerminology,
    problems: list[InputProblem],
) -> tuple[str | None, str | None, How, float | None, str | None]:
    """(snomed id, FSN, how, score, note): a SNOMED code the store knows, else the text
    grounded like a rule term, else ungrounded (reported, never dropped)."""
    note = None
    code = _snomed_code(codings)
    if code is not None:
        info = terms.details(code)
        if info is not None:
            return code, info.fsn, "code", None, None
        note = f"SNOMED CT code {code} is not in the terminology store"
    elif codings:
        shown = ", ".join(f"{c.system or '?'}|{c.code}" for c in codings if c.code)
        note = f"no SNOMED CT code ({shown})" if shown else None
    if term_text:
        found = terms.ground(term_text, role)
        if found is not None:
            cid, fsn, score = found
            if note:
                problems.append(
                    InputProblem(
                        where=where, message=f"{note}; its text {term_text!r} was grounded instead"
                    )
                )
            return cid, fsn, "grounded text", score, note
    message = (note + "; ") if note else ""
    message += (
        f"{term_text!r} could not be grounded to SNOMED CT ({role} filters): kept as an "
        "ungrounded fact, matched by name only"
        if term_text
        else "no text to ground: kept as an ungrounded fact"
    )
    problems.append(InputProblem(where=where, message=message))
    return None, None, "ungrounded", None, note


def resolve_patient(patient: PatientInput, terms: PatientTerminology) -> PatientContext:
    """Ground every fact and measurement; add age as a measurement; find conflicts."""
    problems = list(patient.problems)
    facts: list[ResolvedFact] = []
    for fact in patient.facts:
        facts.append(_resolve_fact(fact, len(facts), terms, problems))
    facts = _drop_conflicts(facts, problems)
    measurements: list[ResolvedMeasurement] = []
    raw = sorted(
        enumerate(patient.measurements), key=lambda im: (im[1].date or "", -im[0]), reverse=True
    )
    for _, m in raw:
        measurements.append(_resolve_measurement(m, len(measurements), terms, problems))
    if patient.age is not None:
        where = "Patient.birthDate" if patient.birth_date else "age"
        measurements.append(
            ResolvedMeasurement(
                index=len(measurements),
                label=f"age {patient.age:g} years",
                source=where,
                how="derived",
                names=["age"],
                value=patient.age,
                unit="a",
                ucum="a",
                date=patient.as_of,
            )
        )
    if patient.is_empty():
        problems.append(
            InputProblem(
                where=patient.source_file,
                message="the patient has no facts: no rule can apply, at best possibly apply",
            )
        )
    return PatientContext(
        patient=patient, facts=facts, measurements=measurements, problems=problems
    )


def _resolve_fact(
    fact: InputFact, index: int, terms: PatientTerminology, problems: list[InputProblem]
) -> ResolvedFact:
    role = _ROLE[fact.kind]
    display = fact.text or next((c.display for c in fact.codings if c.display), None)
    cid, fsn, how, score, note = _resolve_concept(
        display, fact.codings, role, fact.source, terms, problems
    )
    names = [terms.normalize(display)] if display else []
    ids: list[str] = []
    if cid is not None:
        names += terms.names(cid)
        ids = terms.closure([cid], "up" if fact.status == "present" else "down")[cid]
    label = display or (fsn and split_semantic_tag(fsn)[0]) or (cid or "?")
    notes = "; ".join(n for n in (fact.note, note) if n) or None
    return ResolvedFact(
        index=index,
        kind=fact.kind,
        status=fact.status,
        label=label,
        source=fact.source,
        snomed_id=cid,
        preferred_term=fsn,
        how=how,
        score=score,
        note=notes,
        ids=ids,
        names=list(dict.fromkeys(n for n in names if n)),
    )


def _drop_conflicts(facts: list[ResolvedFact], problems: list[InputProblem]) -> list[ResolvedFact]:
    """A concept stated both present and absent: report it, use neither."""
    key = lambda f: f.snomed_id or f"name:{f.names[0] if f.names else f.label}"  # noqa: E731
    present = {key(f): f for f in facts if f.status == "present"}
    clash = {key(f) for f in facts if f.status == "absent"} & set(present)
    for k in sorted(clash):
        both = [f for f in facts if key(f) == k]
        problems.append(
            InputProblem(
                where=" and ".join(f.source for f in both),
                message=f"{both[0].label!r} is both present and absent (refuted or ruled out): "
                "contradictory, neither is used",
                severity="error",
            )
        )
    kept = [f for f in facts if key(f) not in clash]
    return [f.model_copy(update={"index": i}) for i, f in enumerate(kept)]


def _resolve_measurement(
    m: InputMeasurement, index: int, terms: PatientTerminology, problems: list[InputProblem]
) -> ResolvedMeasurement:
    cfg = terms.config
    names: list[str] = []
    loinc = next((c.code for c in m.codings if c.system == LOINC_SYSTEM and c.code), None)
    known = cfg.observations.get(loinc) if loinc else None
    cid = fsn = None
    how: How
    if known is not None:  # a LOINC code configs/ask.yaml maps: its concept and names
        how = "loinc name"
        names += [terms.normalize(known.name), *(terms.normalize(a) for a in known.also)]
        info = terms.details(known.snomed) if known.snomed else None
        if info is not None:
            cid, fsn, how = known.snomed, info.fsn, "code"
    elif m.component is not None and not m.codings:  # a form's "150/95": its components
        how = "code"
    else:
        text = m.name or next((c.display for c in m.codings if c.display), None)
        cid, fsn, how, _score, _note = _resolve_concept(
            text, m.codings, "ClinicalParameter", m.source, terms, problems
        )
    if m.name:
        names.append(terms.normalize(m.name))
    if cid is not None:
        names += terms.names(cid)
    component = m.component
    if component is None and cid in (SYSTOLIC_BP, DIASTOLIC_BP):
        component = "systolic" if cid == SYSTOLIC_BP else "diastolic"
    if component is None and names:
        if "systolic blood pressure" in names:
            component = "systolic"
        elif "diastolic blood pressure" in names:
            component = "diastolic"
    if cid is None and component is not None:
        cid = SYSTOLIC_BP if component == "systolic" else DIASTOLIC_BP
        info = terms.details(cid)
        fsn = info.fsn if info else None
        how = "code" if info else how
        names.append(f"{component} blood pressure")
    ids = terms.closure([cid], "up")[cid] if cid is not None and terms.details(cid) else []
    ucum = None
    unit_problem = None
    unit_text = m.ucum or m.unit
    if unit_text is not None:
        try:
            ucum = terms.units.ucum(unit_text)
        except UnitError as exc:
            unit_problem = str(exc)
            problems.append(InputProblem(where=m.source, message=f"{exc}: the value is not used"))
    else:
        unit_problem = "no unit given"
    analyte = terms.analyte([*(x for x in [loinc, cid] if x), *names])
    label_name = m.name or (known.name if known else None) or (fsn and split_semantic_tag(fsn)[0])
    label = f"{label_name or 'value'} {m.value:g} {m.unit or ''}".strip()
    return ResolvedMeasurement(
        index=index,
        label=label,
        source=m.source,
        snomed_id=cid,
        preferred_term=fsn,
        how=how,
        ids=ids,
        names=list(dict.fromkeys(n for n in names if n)),
        analyte=analyte[0] if analyte else None,
        value=m.value,
        unit=m.unit,
        ucum=ucum,
        unit_problem=unit_problem,
        date=m.date,
        component=component,
    )


def value_in(
    m: ResolvedMeasurement, target_unit: str | None, terms_units: Units, config: AskConfig
) -> float:
    """The measurement in a rule's unit (UnitError says why not)."""
    target = terms_units.ucum(target_unit)
    if m.ucum is None:
        if m.unit_problem == "no unit given":
            if terms_units.same_dimension(target, "1"):
                return terms_units.convert(m.value, "1", target)
            raise UnitError(
                f"{m.source}: value {m.value:g} has no unit; the rule needs {target_unit}"
            )
        raise UnitError(f"{m.source}: {m.unit_problem}")
    analyte = config.analytes.get(m.analyte) if m.analyte else None
    return terms_units.convert(m.value, m.ucum, target, analyte)
