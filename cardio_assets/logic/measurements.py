"""The measurement grammar: numbers, comparison operators and units, written once.

The lexicon reads thresholds out of recommendation rows ("LVEF of 35% or less"), grounding
strips them from a term before searching it ("LVEF <= 35%" -> "left ventricular ejection
fraction"), and patient values will be read the same way: all three compose their
patterns from the pieces below, so a unit or an operator phrase added here is known
everywhere. Patterns are meant for case-insensitive matching (``re.IGNORECASE``).

Pure: no Dagster, no I/O.
"""

from __future__ import annotations

import re

NUMBER = r"\d+(?:[.,]\d+)?"

# Operator phrases in the order they must be tried (a longer phrase before the phrase it
# contains: "less than or equal to" before "less than", "no less than" before "less
# than"): (operator, words as a regex, symbols spelling the same operator). Words count as
# an operator only right before a number ("under 65 years" yes, "under treatment" no).
OPERATORS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("<=", r"less\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+less\s+than", ()),
    (">=", r"greater\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+(?:greater|more)\s+than", ()),
    (
        "<=",
        r"at\s+most|no\s+more\s+than|not\s+more\s+than|not\s+exceeding|up\s+to",
        ("≤", "⩽", "=<", "<="),
    ),
    (">=", r"at\s+least|no\s+less\s+than|not\s+less\s+than", ("≥", "⩾", "=>", ">=")),
    ("<", r"below|under|lower\s+than|less\s+than|fewer\s+than|younger\s+than", ("<",)),
    (
        ">",
        r"above|over|greater\s+than|higher\s+than|more\s+than|exceeding|exceeds|exceeded|"
        r"exceed|in\s+excess\s+of|older\s+than",
        (">",),
    ),
    ("=", r"equal\s+to", ("=",)),
)
# Non-ASCII operator signs and the ASCII operator each stands for.
UNICODE_OPERATORS: dict[str, str] = {
    symbol: op for op, _words, symbols in OPERATORS for symbol in symbols if not symbol.isascii()
}
# Dashes that join the two ends of a range ("36–49%").
RANGE_DASHES: tuple[str, ...] = ("–", "—", "−")
# "35% or less": the word after "or"/"and" that turns a value into a bound.
LESS_WORDS: tuple[str, ...] = ("less", "lower", "below", "under", "fewer", "younger")
MORE_WORDS: tuple[str, ...] = ("more", "greater", "higher", "above", "over", "older")
POST_OPERATOR = rf"(?:or|and)\s+(?:{'|'.join(LESS_WORDS + MORE_WORDS)})"

# Every unit the lexicon or grounding knows. Alternatives are tried in order, so a unit
# comes before any shorter unit it starts with ("kg/m2" before "kg", "hours" before "h");
# a unit ending in a letter must not run on into a word ("2 hospitalizations" has no
# unit "h").
_UNITS: tuple[str, ...] = (
    r"%",
    r"percent",
    r"mm\s?Hg",
    r"mmol/mol",
    r"mmol/l",
    r"[µμu]mol/l",
    r"mg/dl",
    r"mg/l",
    r"g/dl",
    r"g/l",
    r"ml/min/1[.,]73\s*m(?:²|2|\^2)",
    r"ml/min",
    r"ng/l",
    r"ng/ml",
    r"pg/ml",
    r"mg/mmol",
    r"kg/m(?:²|2|\^2)",
    r"kg",
    r"beats?\s?/\s?min",
    r"beats\s+per\s+minute",
    r"b\.?p\.?m\.?",
    r"/min",
    r"msec",
    r"ms",
    r"m/s",
    r"cm(?:²|2)",
    r"cm",
    r"mm",
    r"IU/l",
    r"U/l",
    r"[x×]\s?ULN",
    r"points?",
    r"years?",
    r"yrs?",
    r"months?",
    r"weeks?",
    r"days?",
    r"hours?",
    r"h",
)
UNIT = "(?:" + "|".join(u + r"(?![a-z])" if u[-1].isalpha() else u for u in _UNITS) + ")"


def parse_number(text: str) -> float:
    """'35' -> 35.0, '1,5' -> 1.5 (a decimal comma is a decimal point)."""
    return float(text.replace(",", "."))


def operator_from_words(words: str) -> str:
    """The operator an operator phrase or symbol stands for ("at least" -> ">=")."""
    for op, phrase, symbols in OPERATORS:
        pattern = "|".join([phrase, *symbols])
        if re.fullmatch(pattern, words.strip(), flags=re.IGNORECASE):
            return op
    raise ValueError(f"unknown operator words {words!r}")


def post_operator(word: str) -> str:
    """The bound "or <word>" makes of a value: "or less" -> "<=", "or more" -> ">="."""
    return "<=" if word.lower() in LESS_WORDS else ">="


def canonical_unit(raw: str | None) -> str | None:
    """A unit as the extracted records spell it: one spelling per unit ("mmHg", "years",
    "bpm", "m²"), whatever the row wrote."""
    if not raw:
        return None
    unit = re.sub(r"\s+", " ", raw.strip())
    unit = re.sub(r"^mm ?Hg$", "mmHg", unit, flags=re.I)
    unit = re.sub(r"\^2$", "²", unit)
    if re.fullmatch(r"years?|yrs?", unit, flags=re.I):
        return "years"
    if re.fullmatch(r"b\.?p\.?m\.?|beats?\s?/\s?min|beats per minute", unit, flags=re.I):
        return "bpm"
    if unit.lower() == "msec":
        return "ms"
    return unit


def format_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def attach_measurement(
    text: str,
    operator: str | None,
    threshold: float | tuple[float, float] | None,
    unit: str | None,
) -> str:
    """'left ventricular ejection fraction' + '<=' 35 '%' -> '... <= 35%'."""
    if not operator or threshold is None:
        return text
    suffix = "" if not unit else unit if unit == "%" else f" {unit}"
    if isinstance(threshold, tuple):
        low, high = (format_number(t) for t in threshold)
        return f"{text} {low}-{high}{suffix}"
    op = "" if operator == "=" else f"{operator} "
    return f"{text} {op}{format_number(threshold)}{suffix}"
