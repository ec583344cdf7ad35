"""Units and thresholds: unit text -> UCUM -> pint, molar masses, how a threshold reads.

Why a units library: a patient's LDL-C in mg/dL must meet a rule written in mmol/L, an
eGFR in mL/min/1.73 m2 a rule in "mL/min/1.73 m²", a fraction 0.30 a rule in %. UCUM is
what FHIR Observations carry; ``ucumvert`` parses UCUM into ``pint`` units, so conversions
are pint's, never a hand-written factor table. The one thing pint cannot know is a molar
mass: converting mmol/L <-> mg/dL (or umol/L <-> mg/dL) is done only for the analytes of
configs/ask.yaml (LDL-C, total cholesterol, triglycerides, glucose, creatinine), by
multiplying with the documented molar mass as a pint quantity.

Guideline text is not UCUM ("mmHg", "bpm", "mL/min/1.73 m²"): ``configs/ask.yaml``
``units`` maps such spellings to UCUM; anything else is parsed as UCUM or refused with its
name (``UnitError``), never guessed.

Converted values are rounded to 10 significant digits so that both engines, and a value
converted back and forth, compare equal at a threshold (1.4 mmol/L stays 1.4).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from cardio_assets.config import load_ask_config
from cardio_assets.logic.ask.config import Analyte, AskConfig
from cardio_assets.logic.measurements import NUMBER, RANGE_DASHES, UNICODE_OPERATORS, parse_number


class UnitError(ValueError):
    """A unit that cannot be read, or two units that cannot be converted."""


DIMENSIONLESS = "1"
_SIGNIFICANT = 10
# SNOMED CT: Blood pressure (observable entity); systolic / diastolic components.
BLOOD_PRESSURE = "75367002"
SYSTOLIC_BP = "271649006"
DIASTOLIC_BP = "271650006"


def rounded(value: float) -> float:
    """The value both engines compare (conversion noise removed)."""
    return float(f"{value:.{_SIGNIFICANT}g}")


class Units:
    """One pint registry with the UCUM definitions; parsed units are cached."""

    def __init__(self, config: AskConfig | None = None) -> None:
        from ucumvert import PintUcumRegistry, UcumToPintTransformer, get_ucum_parser

        self.config = config or load_ask_config()
        self.ureg = PintUcumRegistry()
        # ucumvert 0.3.2's PintUcumRegistry.from_ucum builds its quantities in pint's
        # application registry, not in itself; a transformer bound to this registry keeps
        # every quantity in one registry so they can be multiplied and converted.
        self._transform = UcumToPintTransformer(ureg=self.ureg).transform
        self._parser = get_ucum_parser()
        self._aliases = {k.strip(): v for k, v in self.config.units.items()}
        self._folded = {_fold_unit(k): v for k, v in self._aliases.items()}
        self._cache: dict[str, Any] = {}
        self._converted: dict[tuple, float] = {}
        self._ucum: dict[str | None, str] = {}  # generated and real patients repeat values
        self._lock = threading.Lock()

    # --- reading -------------------------------------------------------------------
    def ucum(self, text: str | None) -> str:
        """UCUM code of a unit as written; "" or None = dimensionless ("1")."""
        found = self._ucum.get(text)
        if found is not None:
            return found
        if text is None or not str(text).strip():
            return DIMENSIONLESS
        raw = str(text).strip()
        code = self._aliases.get(raw) or self._folded.get(_fold_unit(raw)) or raw
        self.quantity(code)  # raises UnitError when it is not a unit
        self._ucum[text] = code
        return code

    def quantity(self, code: str) -> Any:
        """The pint quantity of one UCUM code (annotations such as {score} are 1)."""
        with self._lock:
            cached = self._cache.get(code)
            if cached is not None:
                return cached
            from ucumvert import parse_ucum

            try:
                parsed = self._transform(parse_ucum(code, self._parser))
            except Exception as exc:  # lark and pint raise many types for a bad unit
                raise UnitError(
                    f"unknown unit {code!r} (not UCUM and not in configs/ask.yaml units)"
                ) from exc
            if not hasattr(parsed, "dimensionality"):  # an annotation only, e.g. "{score}"
                parsed = self.ureg.Quantity(1, "")
            elif not hasattr(parsed, "magnitude"):
                parsed = self.ureg.Quantity(1, parsed)
            self._cache[code] = parsed
            return parsed

    # --- converting ------------------------------------------------------------------
    def convert(
        self, value: float, from_code: str, to_code: str, analyte: Analyte | None = None
    ) -> float:
        """``value`` in ``from_code`` expressed in ``to_code``; UnitError when the two do
        not measure the same thing (and no analyte molar mass bridges them)."""
        if from_code == to_code:
            return rounded(float(value))
        key = (float(value), from_code, to_code, analyte.molar_mass_g_per_mol if analyte else None)
        found = self._converted.get(key)
        if found is None:
            found = self._converted[key] = self._convert(float(value), from_code, to_code, analyte)
        return found

    def _convert(
        self, value: float, from_code: str, to_code: str, analyte: Analyte | None
    ) -> float:
        source = self.quantity(from_code) * float(value)
        target = self.quantity(to_code)
        if source.dimensionality == target.dimensionality:
            return rounded(float(source.to(target.units).magnitude * 1 / target.magnitude))
        if analyte is not None:
            molar = self.ureg.Quantity(analyte.molar_mass_g_per_mol, "g/mol")
            for bridged in (source * molar, source / molar):
                if bridged.dimensionality == target.dimensionality:
                    return rounded(float(bridged.to(target.units).magnitude / target.magnitude))
        hint = "" if analyte is not None else " (no molar mass known for this measurement)"
        raise UnitError(f"cannot convert {from_code} to {to_code}{hint}")

    def same_dimension(self, a: str, b: str) -> bool:
        return self.quantity(a).dimensionality == self.quantity(b).dimensionality


def _fold_unit(text: str) -> str:
    return re.sub(r"\s+", "", text).replace("μ", "µ").lower()


_DEFAULT: Units | None = None
_DEFAULT_LOCK = threading.Lock()


def default_units() -> Units:
    """The process-wide registry (about 1 s to build: UCUM definitions + grammar)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Units()
        return _DEFAULT


# --- comparing -----------------------------------------------------------------------
def compare(value: float, operator: str, threshold: float | list[float] | tuple) -> bool:
    """value <op> threshold; ``between`` is inclusive at both ends."""
    if operator == "between":
        low, high = threshold  # type: ignore[misc]
        return low <= value <= high
    t = float(threshold)  # type: ignore[arg-type]
    if operator == "<":
        return value < t
    if operator == "<=":
        return value <= t
    if operator == ">":
        return value > t
    if operator == ">=":
        return value >= t
    if operator == "=":
        return abs(value - t) <= 1e-9 * max(1.0, abs(t))
    raise ValueError(f"unknown operator {operator!r}")


# --- reading a rule's threshold --------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """How a parameter test's threshold is read beyond its number and unit.

    ``mode``: ``value`` (the measurement itself), ``systolic`` (a blood pressure threshold
    given as one number: the systolic value is compared), ``paired`` (``140/90``: systolic
    against the first number, diastolic against ``second``; above-thresholds are met by
    either, below-thresholds need both). ``alternatives``: the same threshold stated in
    another unit in brackets ("<1.4 mmol/L (55 mg/dL)"), as (UCUM code, number or range): a
    patient value in that unit is compared with the guideline's own number, not a
    conversion that can round differently.
    """

    mode: Literal["value", "systolic", "paired"] = "value"
    second: float | None = None
    alternatives: tuple[tuple[str, float | tuple[float, float]], ...] = ()


# Numbers, operator signs and range dashes are the project's one measurement grammar
# (logic/measurements.py); the unit in brackets is whatever UCUM (or configs/ask.yaml)
# reads, so it is taken as written and checked by ``Units.ucum``.
_SIGNS = "".join(re.escape(sign) for sign in ("<", ">", "=", *UNICODE_OPERATORS))
_DASHES = "".join(re.escape(dash) for dash in ("-", *RANGE_DASHES))
_PAIR = re.compile(rf"({NUMBER})\s*/\s*({NUMBER})")
_BRACKET = re.compile(
    rf"\(\s*[{_SIGNS}]{{0,2}}\s*({NUMBER})(?:\s*[{_DASHES}]\s*({NUMBER}))?"
    rf"\s*([^\s\d()][^()]*?)\s*\)"
)


def is_blood_pressure(snomed_id: str | None, normalized: str) -> bool:
    """The generic blood pressure (not its systolic or diastolic component)."""
    if snomed_id == BLOOD_PRESSURE:
        return True
    name = normalized.lower()
    return "blood pressure" in name and not any(
        word in name for word in ("systolic", "diastolic", "mean", "pulse")
    )


@lru_cache(maxsize=4096)
def _read_cached(
    term: str,
    normalized: str,
    snomed_id: str | None,
    operator: str,
    threshold: float | tuple[float, float],
    unit_code: str,
    units: Units,
) -> Reading:
    mode: Literal["value", "systolic", "paired"] = "value"
    second = None
    if is_blood_pressure(snomed_id, normalized) and operator != "between":
        mode = "systolic"
        pair = _PAIR.search(term)
        if pair and abs(parse_number(pair.group(1)) - float(threshold)) < 1e-9:  # type: ignore[arg-type]
            mode, second = "paired", parse_number(pair.group(2))
    alternatives: list[tuple[str, float | tuple[float, float]]] = []
    for match in _BRACKET.finditer(term):
        try:
            code = units.ucum(match.group(3))
        except UnitError:
            continue
        if code == unit_code:
            continue
        value: float | tuple[float, float] = parse_number(match.group(1))
        if match.group(2):
            value = (parse_number(match.group(1)), parse_number(match.group(2)))
        if isinstance(value, tuple) != (operator == "between"):
            continue
        alternatives.append((code, value))
    return Reading(mode=mode, second=second, alternatives=tuple(alternatives))


def read_threshold(
    term: str,
    normalized: str,
    snomed_id: str | None,
    operator: str,
    threshold: float | list[float],
    unit: str | None,
    units: Units,
) -> Reading:
    """Reading of one parameter test from its verbatim span (``ConceptRef.text``): the
    rule contract keeps one number and one unit, the span keeps what the row said."""
    try:
        unit_code = units.ucum(unit)
    except UnitError:
        unit_code = str(unit)
    key = tuple(threshold) if isinstance(threshold, list) else float(threshold)
    return _read_cached(term or "", normalized, snomed_id, operator, key, unit_code, units)  # type: ignore[arg-type]
