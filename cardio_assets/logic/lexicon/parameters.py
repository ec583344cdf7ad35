"""Parameters: "LVEF of 35% or less" -> ClinicalParameter LVEF, operator <=, 35, "%".

Each parameter expression is replaced by a placeholder before AND/OR splitting, so "or
less" and "between 36 and 49" never read as logic. Numbers, operators and units come from
the shared measurement grammar (cardio_assets/logic/measurements.py); what is a dose or a
duration rather than a threshold ("75-100 mg daily", "for 6 months") is decided here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.measurements import (
    LESS_WORDS,
    MORE_WORDS,
    NUMBER,
    OPERATORS,
    POST_OPERATOR,
    RANGE_DASHES,
    UNIT,
    canonical_unit,
    operator_from_words,
    parse_number,
    post_operator,
)

# ---------------------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------------------
# (words or symbols, operator) in the order they must be tried
_OP_WORDS: list[tuple[str, str]] = [
    ("|".join([words, *symbols]), op) for op, words, symbols in OPERATORS
]
_OP_ALT = "|".join(f"(?:{p})" for p, _ in _OP_WORDS)
_DASHES = "".join(RANGE_DASHES)
_POST_OP = re.compile(rf"(?:or|and)\s+(?P<w>{'|'.join(LESS_WORDS + MORE_WORDS)})\b", re.IGNORECASE)
_PARAM_VALUE = re.compile(
    # between 36 and 49 % | from 36 to 49% | 36-49% | 36% to 49%
    rf"(?P<range>(?:between|from)\s+(?P<lo1>{NUMBER})\s*(?P<u1>{UNIT})?\s+(?:and|to)\s+"
    rf"(?P<hi1>{NUMBER})\s*(?P<u2>{UNIT})?"
    rf"|(?P<lo2>{NUMBER})\s*(?P<u3>{UNIT})?\s*(?:[-{_DASHES}]|to)\s*(?P<hi2>{NUMBER})\s*(?P<u4>{UNIT})?)"
    rf"|(?P<op>{_OP_ALT})\s*(?P<v1>{NUMBER})\s*(?P<u5>{UNIT})?"
    rf"|(?P<v2>{NUMBER})\s*(?P<u6>{UNIT})?\s+(?P<post>{POST_OPERATOR})\b"
    rf"|(?:of|is|was|at|=|:)\s+(?P<v3>{NUMBER})\s*(?P<u7>{UNIT})",
    re.IGNORECASE,
)
_NAME_STOP = frozenset(
    """
    with and or who whom which that have has had are is was were a an the in of patients
    patient those individuals without no despite on at to for by if when after before but
    than as persistent persistently who's their her his its be being been plus nor either
    neither also still remains remain while whose plus over under below above less more
    greater lower higher than
    """.split()
)
_NAME_QUALIFIERS = frozenset(
    "elevated reduced raised increased decreased low high severely moderately mildly very".split()
)
_DOSE_OR_TIME_UNITS = re.compile(r"^(?:mg|g|µg|mcg|h|hours?|days?|weeks?|months?)$", re.I)
_DOSE_AFTER = re.compile(
    r"\s*(?:mg|g|µg|μg|mcg|IU|units?|h|hours?|days?|weeks?|months?)\b", re.IGNORECASE
)
_PLACEHOLDER = "⟦P{}⟧"
_PLACEHOLDER_RE = re.compile(r"⟦P(\d+)⟧")


@dataclass
class Parameter:
    text: str  # verbatim name span ("LVEF") or the whole span when no name was written
    name_normalized: str | None
    operator: str
    threshold: float | list[float]
    unit: str | None


_LINKING_BEFORE_VALUE = frozenset(
    "of is are was were remains remain stays persists at still persistently goal target that "
    "which falls fall drops drop rises rise".split()
)
_NAME_SUFFIX_NOISE = frozenset("goal target level levels value values concentration".split())


def _name_before(text: str, end: int) -> tuple[int, str]:
    """Scan back from ``end`` over the words naming the parameter ("systolic BP").

    Linking words between name and value ("LDL-C remains", "LDL-C goal of") are
    skipped, and "goal"/"target" dropped from the name: the parameter is LDL-C.
    """
    prefix = text[:end]
    tokens = list(re.finditer(r"[^\s,;:()\[\]]+", prefix))
    barrier = max(prefix.rfind(c) for c in ",;:([")
    while (
        tokens
        and tokens[-1].start() > barrier
        and (tokens[-1].group(0).lower() in _LINKING_BEFORE_VALUE)
    ):
        tokens.pop()
    chosen: list[re.Match[str]] = []
    for tok in reversed(tokens):
        if tok.start() < barrier:
            break
        word = tok.group(0)
        if word.lower() in _NAME_STOP or re.fullmatch(r"[\d.,%<>=≤≥]+", word):
            break
        chosen.append(tok)
        if len(chosen) >= 5:
            break
    chosen.reverse()
    while chosen and chosen[0].group(0).lower() in _NAME_QUALIFIERS and len(chosen) > 1:
        chosen.pop(0)
    while len(chosen) > 1 and chosen[-1].group(0).lower() in _NAME_SUFFIX_NOISE:
        chosen.pop()
    if not chosen:
        return end, ""
    return chosen[0].start(), text[chosen[0].start() : chosen[-1].end()]


def extract_parameters(
    text: str, abbreviations: Abbreviations, start_index: int = 0
) -> tuple[str, list[Parameter]]:
    """Find parameter expressions, return the text with placeholders and the parameters.

    Placeholders keep the parameter as one item for AND/OR splitting, so "or less"
    and "between 36 and 49" never read as logic.
    """
    params: list[Parameter] = []
    pieces: list[str] = []
    cursor = 0
    for match in _PARAM_VALUE.finditer(text):
        if match.start() < cursor:
            continue
        groups = match.groupdict()
        if groups["range"] is not None or groups["lo2"] is not None:
            lo = groups["lo1"] or groups["lo2"]
            hi = groups["hi1"] or groups["hi2"]
            unit = next((groups[u] for u in ("u2", "u4", "u1", "u3") if groups[u]), None)
            operator, threshold = "between", [parse_number(lo), parse_number(hi)]
        elif groups["op"] is not None:
            operator, threshold, unit = (
                operator_from_words(groups["op"]),
                parse_number(groups["v1"]),
                groups["u5"],
            )
        elif groups["v2"] is not None:
            post = _POST_OP.match(groups["post"])
            operator = post_operator(post.group("w")) if post else "="
            threshold, unit = parse_number(groups["v2"]), groups["u6"]
        else:
            operator, threshold, unit = "=", parse_number(groups["v3"]), groups["u7"]
        unit = canonical_unit(unit)
        end = match.end()
        # "35% or less" written after an explicit value: the post word decides the operator.
        tail = _POST_OP.match(text[end:].lstrip())
        if tail and operator == "=":
            operator = post_operator(tail.group("w"))
            end = end + (len(text[end:]) - len(text[end:].lstrip())) + tail.end()
        if unit and _DOSE_OR_TIME_UNITS.match(unit):
            continue
        if _DOSE_AFTER.match(text[end:]):
            continue  # "75-100 mg daily" is a dose, not a threshold
        name_start, name = _name_before(text, match.start())
        lowered = name.lower()
        if unit == "years" and (not name or lowered in {"aged", "age", "old", "older"}):
            normalized = "age"
            if not name:
                name, name_start = text[match.start() : end].strip(), match.start()
        elif not name:
            continue  # a bare number (dose, count) is not a parameter
        else:
            normalized = abbreviations.normalize(name)
        if unit is None and operator != "between" and groups["op"] is None and not groups["post"]:
            continue  # "of 3" without unit or operator: too weak to call a threshold
        params.append(Parameter(name, normalized, operator, threshold, unit))
        pieces.append(text[cursor:name_start])
        pieces.append(_PLACEHOLDER.format(start_index + len(params) - 1))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), params
