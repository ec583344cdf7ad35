"""The units guideline tables write values in, and the one place their spellings live.

A measurement's unit is read here (``UNIT_RE`` inside the measurement grammar) and named
canonically (``canonical_unit``: "mm Hg" -> "mmHg"); a mass or volume amount alone is a dose
(``DOSE_UNIT``), never a threshold. Split from measurements.py, which reads the values.
"""

from __future__ import annotations

import re

# the words after "normal" that make it a dose's, not the normal range ("the normal dose")
_NORMAL_DOSE_WORDS = r"doses?|dosage|dosing|amounts?|regimens?|infusion"
# a multiple of the upper limit of normal written with "times" ("3 times the ULN", "three
# times the normal value", "10 times normal"; not "2 times the normal dose", a dose, where
# the dose word may already be gone): also what lets a number word before it be a value
ULN_TIMES = (
    r"times\s+(?:(?:the\s+)?(?:upper\s+(?:limit\s+of\s+normal|normal\s+limit|reference\s+"
    r"(?:limit|range))|ULN\b|normal\s+(?:upper\s+limit|values?|ranges?|limits?|levels?)\b)"
    rf"|normal\b(?!\s+(?:[\w\-]+\s+){{0,2}}(?:{_NORMAL_DOSE_WORDS})\b))"
)
# canonical unit -> the ways guideline text writes it (regular expressions, case-insensitive)
UNITS: dict[str, tuple[str, ...]] = {
    "%": (r"%", r"per\s?cent"),
    "mmHg": (r"mm\s?Hg",),
    "mmol/L": (r"mmol\s?/\s?L",),
    "mmol/mol": (r"mmol\s?/\s?mol",),
    "µmol/L": (r"[µμu]mol\s?/\s?L",),
    "nmol/L": (r"nmol\s?/\s?L",),  # lipoprotein(a): ">180 mg/dL (>430 nmol/L)"
    "mg/dL": (r"mg\s?/\s?dL",),
    "g/dL": (r"g\s?/\s?dL",),
    "g/L": (r"g\s?/\s?L",),
    "mg/L": (r"mg\s?/\s?L",),
    "µg/L": (r"[µμu]g\s?/\s?L",),
    "mg/mmol": (r"mg\s?/\s?mmol",),
    "mg/g": (r"mg\s?/\s?g",),
    # a cumulative drug exposure by body surface ("a cumulative dose above 300 mg/m2"); a bare
    # amount in it is a dose, left out by measurements.find_measurements
    "mg/m²": (r"mg\s?/\s?m(?:²|2|\^2)",),
    # a daily dose bound as a criterion ("a warfarin dose of <5 mg/day"); a daily amount
    # given, with no bound, stays a dose (measurements.find_measurements)
    "mg/day": (r"mg\s?/\s?day", r"mg\s+per\s+day"),
    # ("mL/min per 1.73 m²": the same unit with the body surface said in words)
    "mL/min/1.73 m²": (r"m[lL]\s?/\s?min\s?(?:/|\s+per)\s?1[.,]73\s?m(?:²|2|\^2|\s?\[2\])",),
    "mL/min": (r"m[lL]\s?/\s?min",),
    "mL/kg/min": (r"m[lL]\s?/\s?kg\s?/\s?min",),
    # volumes and masses indexed to body surface ("RV end-systolic volume index ≥80 mL/m²",
    # "LV mass index >115 g/m2"); "mg/m²" above is a drug exposure
    "mL/m²": (r"m[lL]\s?/\s?m(?:²|2|\^2)",),
    "g/m²": (r"(?<![mµμu])g\s?/\s?m(?:²|2|\^2)",),
    "ng/mL": (r"ng\s?/\s?m[lL]",),
    "ng/L": (r"ng\s?/\s?L",),
    "pg/mL": (r"pg\s?/\s?m[lL]",),
    "IU/L": (r"IU\s?/\s?L",),
    "IU/mL": (r"IU\s?/\s?m[lL]",),  # anti-Xa activity of heparin
    "U/L": (r"U\s?/\s?L",),
    "U/mL": (r"U\s?/\s?m[lL]",),  # anti-Xa activity written without "I"
    "/µL": (r"/\s?[µμu]L", r"per\s?[µμu]L"),
    "×10⁹/L": (r"[x×]\s?10(?:⁹|\^?9|\s?9)\s?/\s?L",),
    "× ULN": (
        r"[x×]\s?(?:the\s+)?ULN",
        # ("3× normal for age": the sign said for "times", the same multiple)
        # (nor a normal rate or size: "2 × normal maintenance rate", "3× normal area")
        r"[x×]\s?(?:the\s+)?(?:upper\s+limit\s+of\s+normal|normal\b"
        rf"(?!\s+(?:[\w\-]+\s+){{0,2}}(?:{_NORMAL_DOSE_WORDS}|"
        r"maintenance|rates?|volumes?|saline|size|area|diameter)\b)"
        r"(?:\s+(?:values?|ranges?|limits?|levels?)\b)?)",
        # ("three times the normal value": the upper limit of normal said plainly; not "the
        # normal dose", a dose)
        ULN_TIMES,
    ),
    # a multiple of the patient's own reference value: "aPTT >=2x control", "2 times baseline"
    "× control": (r"[x×]\s?(?:the\s+)?control", r"times\s+(?:the\s+)?control"),
    "× baseline": (r"[x×]\s?(?:the\s+)?baseline", r"times\s+(?:the\s+)?baseline"),
    "kg/m²": (r"kg\s?/\s?m(?:²|2|\^2|\s?\[2\])",),
    "cm²/m²": (r"cm(?:²|2)\s?/\s?m(?:²|2)",),
    "mm/m²": (r"mm\s?/\s?m(?:²|2)",),
    # indexed to height, not body surface: "aortic height index >25 mm/m"
    "mm/m": (r"mm\s?/\s?m(?![\w²/])",),
    # a growth rate: "growth of the aorta ≥3 mm/year"
    "mm/year": (r"mm\s?/\s?(?:year|yr|y)\b", r"mm\s+per\s+year"),
    "cm²": (r"cm(?:²|2|\^2)",),
    "bpm": (r"b\.\s?p\.\s?m\.?", r"bpm", r"beats?\s?/\s?min", r"beats\s+per\s+min(?:ute)?"),
    # a velocity's yearly rise ("a progression of ≥0.3 m/s per year")
    # ("per year of follow-up" is when, not a rate)
    "m/s/year": (r"m\s?/\s?s(?:ec)?\s?(?:/\s?(?:year|yr|y)\b|\s+per\s+year\b(?!\s+of\b))",),
    "m/s": (r"m\s?/\s?s(?:ec)?",),
    # tissue Doppler velocities ("e' <9 cm/s")
    "cm/s": (r"cm\s?/\s?s(?:ec)?",),
    # a radiation dose received, a criterion ("mean heart dose >15 Gy"), never a drug dose
    "Gy": (r"Gy(?![a-z])",),
    "ms": (r"ms(?:ec)?",),
    "mm": (r"mm",),
    "cm": (r"cm",),
    "mL": (r"m[lL]",),
    "kg": (r"kg",),
    "WU": (r"WU", r"Wood\s+units?"),
    "METs": (r"METs?",),
    "°C": (r"°\s?C", r"degrees?\s+C(?:elsius)?"),
    "points": (r"points?",),
    # how many procedures an operator or a centre does: "≥400 PCIs per year", "annual
    # volumes of ≥75 procedures", "≥200 CABG cases" (never days or episodes a year)
    "procedures": (
        r"(?:[A-Za-z]{2,5}\s+){0,2}(?:cases|procedures|interventions|operations)"
        r"(?:\s+(?:per\s+year|a\s+year|annually))?",
        r"(?!(?:day|week|month|hour|time|episode|dose)s\b)[A-Za-z]{2,5}s\s+(?:per\s+year|a\s+year|annually)",
        r"(?:[A-Za-z]{2,5}\s+)?(?:extractions|implantations|ablations|repairs|replacements)"
        r"\s+(?:per\s+year|a\s+year|annually)",
    ),
    "years": (r"years?(?:\s+of\s+age|\s+old)?", r"yrs?"),
    "months": (r"months?", r"mo"),
    "weeks": (r"weeks?", r"wk"),
    "days": (r"days?",),
    "h": (r"h(?:ours?|rs?)?",),
    "min": (r"min(?:utes?)?",),
    "s": (r"s(?:ec(?:onds?)?)?",),
}
TIME_UNITS = frozenset({"years", "months", "weeks", "days", "h", "min", "s"})
# a bare mass or volume amount is a dose, never a threshold ("75 mg", "2 g", "0.5 mL/kg")
DOSE_UNIT = re.compile(
    r"(?:mg|g|[µμu]g|mcg|IU|units?|m[lL]/kg(?:/h)?|mg/kg(?:/(?:h|day|min))?)(?![\w/])",
    re.IGNORECASE,
)
DOSING_WORDS = re.compile(
    r"^\s*(?:\)|,)?\s*(?:daily|once|twice|b\.?i\.?d\.?|o\.?d\.?|t\.?i\.?d\.?|q\.?d\.?|per\s+day|"
    r"a\s+day|/\s?day|loading|maintenance|dose|bolus|i\.?v\.?|orally|s\.?c\.?)\b",
    re.IGNORECASE,
)

_UNIT_PATTERNS = sorted(
    ((canonical, pattern) for canonical, patterns in UNITS.items() for pattern in patterns),
    key=lambda item: -len(item[1]),
)
UNIT_RE = "(?:" + "|".join(p for _, p in _UNIT_PATTERNS) + ")"
_UNIT_COMPILED = [(c, re.compile(rf"^(?:{p})$", re.IGNORECASE)) for c, p in _UNIT_PATTERNS]


def canonical_unit(raw: str | None) -> str | None:
    """The canonical spelling of a unit as written ("mm Hg" -> "mmHg", "b.p.m." -> "bpm")."""
    if not raw:
        return None
    text = " ".join(raw.split())
    for canonical, pattern in _UNIT_COMPILED:
        if pattern.match(text):
            return canonical
    return text
