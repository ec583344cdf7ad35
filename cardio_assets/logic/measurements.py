"""Measurements in guideline text: a parameter's name, operator, value and unit (pure logic).

One grammar for every stage that reads a threshold: the lexicon extractor, grounding (which
strips the measurement from a term before searching), the llm backend's re-parse of the
spans a model returns, and patient values. What it reads, each seen in guideline tables:

- operators in symbols (<, ≤, ≥, >, =) and words before the value ("at least", "less than",
  "exceeding", "up to") or after it ("or less", "or more", "and above");
- ranges with any dash, "to", "between A and B", "from A to B", and an operator before a
  range ("> 5%–15%": the range is what counts); "40–<45 mm", a range whose upper end is
  left out, is read as the range (the contract writes every range inclusive);
- time windows ("within 24 h", "in the first 7 days") as ``<=``;
- a paired blood pressure ("140/90 mmHg") as one threshold "140/90";
- the same value in a second unit ("<1.4 mmol/L (55 mg/dL)", "≥11.1 mmol/L or ≥200 mg/dL")
  as ``alt_values`` of one measurement;
- NYHA and WHO functional classes in Roman numerals ("NYHA class III–IV") as numbers;
- every unit guideline tables use (measurement_units.UNITS).
Dose amounts ("75 mg daily", "2 g b.i.d.", "60 mg loading dose") are never measurements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardio_assets.logic.abbreviations import GLUED_LETTER
from cardio_assets.logic.measurement_operators import (
    BOUND_AFTER,
    POST_RE,
    POST_WORDS,
    SYMBOL_RE,
    SYMBOLS,
    WORD_RE,
    operator_from_words,
    post_op,
)
from cardio_assets.logic.measurement_units import (
    DOSE_UNIT,
    DOSING_WORDS,
    TIME_UNITS,
    ULN_TIMES,
    UNIT_RE,
    canonical_unit,
)

# the files of the measurement grammar, this module and the two it reads: what a code
# version that depends on the grammar hashes (the lexicon's rules, the llm re-parse)
GRAMMAR_FILES: tuple[Path, ...] = tuple(
    Path(__file__).with_name(name)
    for name in ("measurements.py", "measurement_operators.py", "measurement_units.py")
)

# --------------------------------------------------------------------------- windows

_WINDOW_RE = (
    r"(?:within(?:\s+the\s+(?:first|past|last|previous|preceding))?|(?:in|during)\s+the\s+"
    r"(?:first|past|last|previous|preceding)|no\s+later\s+than"
    # (a segment the word "during" or "in" opened: "[during] the first 6 months after X")
    r"|^the\s+first)"
)


# --------------------------------------------------------------------------- values

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}  # fmt: skip
# (a multiple of a reference may be written in words: "three times the upper limit of normal")
_MULTIPLE_IN_WORDS = rf"(?:{'|'.join(_NUMBER_WORDS)})(?=\s+{ULN_TIMES})"
_NUM = rf"\d{{1,3}}(?:[ \u2009\u202f]\d{{3}})+(?![\d.])|\d+(?:[.,]\d+)?|{_MULTIPLE_IN_WORDS}"
_DASH = r"\s?(?:[-–—−‐]|to)\s?"
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}
# the bounds a class takes after it: those of any value, and a worse / better class
_CLASS_POST = {
    **{w: POST_WORDS[w] for w in ("higher", "greater", "more", "above", "lower", "less", "below")},
    "worse": ">=",
    "better": "<=",
}
# ... and the WHO functional class of pulmonary hypertension, graded the same way, and the
# modified WHO class that grades a pregnancy's maternal risk (another scale, its own name)
_NYHA = re.compile(
    r"\b(?:(?:NYHA|New\s+York\s+Heart\s+Association)(?:\s+functional)?(?:\s+class(?:es)?)?"
    r"|(?:WHO|World\s+Health\s+Organi[sz]ation)(?:[\s-]+FC|\s+functional\s+class(?:es)?)"
    r"|(?:mWHO|modified\s+(?:WHO|World\s+Health\s+Organi[sz]ation))(?:\s+class(?:es)?)?)\s*"
    r"(?P<op>[≥≤<>]=?|=)?\s?"
    # ("class II, III or ambulatory IV": a list of classes is the range they span)
    r"(?P<a>IV|III|II|I)(?:(?:,\s?(?:IV|III|II|I)(?![A-Za-z]))*,?\s?(?:[-–—/]|to|or|and)\s?"
    r"(?:ambulatory\s+)?(?:class\s+)?(?P<b>IV|III|II|I))?(?![A-Za-z])"
    # "class II or higher", "class III or worse": a bound, not the class alone
    rf"(?:\s+or\s+(?P<post>{'|'.join(_CLASS_POST)})\b)?"
    # "NYHA class II–III symptoms": the class grades the symptoms, no second state
    r"(?:\s+symptoms\b)?"
)


def number(raw: str) -> float:
    if raw.lower() in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[raw.lower()])
    text = re.sub(r"[ \u2009\u202f]", "", raw)
    if re.fullmatch(r"\d+,\d{1,2}", text):  # a decimal comma; "10,000" stays thousands
        text = text.replace(",", ".")
    return float(text.replace(",", ""))


# (after an operator, a bound said again, "reaches 10% or more", "at least 5 or more", is
# part of the value, when nothing it could compare follows: "≤35% or less than 40%" is two)
_VALUE = re.compile(
    rf"""
    (?P<between>\b(?:between|from)\s+(?P<b_lo>{_NUM})\s?(?P<b_u1>{UNIT_RE})?\s+(?:and|to)\s+
        (?P<b_hi>{_NUM})\s?(?P<b_u2>{UNIT_RE})?(?![\w]))
    |(?P<window>\b{_WINDOW_RE}\s+(?P<w_v>{_NUM})(?:{_DASH}(?P<w_hi>{_NUM}))?\s?(?P<w_u>{UNIT_RE})(?![\w]))
    |(?P<paired>(?P<p_op>{SYMBOL_RE}|\b(?:{WORD_RE}))?\s?(?P<p_a>\d{{2,3}})\s?/\s?(?P<p_b>\d{{2,3}})
        \s?(?P<p_u>mm\s?Hg)(?P<p_post>\s+{POST_RE})?)
    |(?P<op_range>(?P<r_op>{SYMBOL_RE}|\b(?:{WORD_RE}))?\s?(?P<r_lo>{_NUM})\s?(?P<r_u1>{UNIT_RE})?
        (?:{_DASH}|\s?[-–—−‐]\s?[<≤]\s?)(?P<r_hi>{_NUM})\s?(?P<r_u2>{UNIT_RE})(?![\w]))
    |(?P<op_value>(?P<o_op>{SYMBOL_RE}|\b(?:{WORD_RE}))\s?(?P<o_v>{_NUM})\s?(?P<o_u>{UNIT_RE})?(?![\w/])
        (?:\s+(?P<o_post>{BOUND_AFTER})
        (?=\s*(?:[,;.)\u2013\u2014]|$)|\s+(?:in|for|if|when|where|with|without|despite|after|before|
        during|unless|provided|who|whose|on|at|and|or|is|are|should|may|must|to|by|via|using)\b))?)
    |(?P<post_value>(?<![\w.])(?P<q_v>{_NUM})\s?(?P<q_u>{UNIT_RE})?\s+(?P<q_post>{POST_RE})
        (?:\s(?P<q_u2>{UNIT_RE})(?![\w/]))?)
    |(?P<bare>(?<![\w.,/])(?P<n_v>{_NUM})\s?(?P<n_u>{UNIT_RE})(?![\w/]))
    """,
    re.IGNORECASE | re.VERBOSE,
)


@dataclass
class Measurement:
    """One measured criterion; offsets into the text it was read from."""

    start: int  # start of the name (or of the value when no name is written)
    end: int
    value_start: int
    name: str  # as written ("LVEF"), "" when the text names none
    operator: str
    threshold: float | list[float] | str
    unit: str | None
    alt_values: list[dict[str, Any]] = field(default_factory=list)
    kind: str = "threshold"  # "threshold" | "window" | "class" | "count"

    def span(self, text: str) -> str:
        return text[self.start : self.end]


def _op(raw: str | None, default: str = "=") -> str:
    return operator_from_words(raw) if raw else default


def _value_of(m: re.Match[str]) -> tuple[str, float | list[float] | str, str | None, str]:
    """(operator, threshold, unit, kind) of one value match."""
    g = m.groupdict()
    if g["between"]:
        unit = g["b_u2"] or g["b_u1"]
        return "between", [number(g["b_lo"]), number(g["b_hi"])], canonical_unit(unit), "threshold"
    if g["window"]:
        if g["w_hi"]:  # "within 1–2 weeks of discharge": a window of a range
            return (
                "between",
                [number(g["w_v"]), number(g["w_hi"])],
                canonical_unit(g["w_u"]),
                "window",
            )
        return "<=", number(g["w_v"]), canonical_unit(g["w_u"]), "window"
    if g["paired"]:
        op = post_op(g["p_post"]) if g["p_post"] else _op(g["p_op"])
        return op, f"{g['p_a']}/{g['p_b']}", "mmHg", "threshold"
    if g["op_range"]:
        unit = g["r_u2"] or g["r_u1"]
        return "between", [number(g["r_lo"]), number(g["r_hi"])], canonical_unit(unit), "threshold"
    if g["op_value"]:
        op = _op(g["o_op"])
        if g["o_post"] and re.search(r"reach", g["o_op"], re.I):
            op = post_op(g["o_post"])  # "reaches 30 or below": the words after say which side
        return op, number(g["o_v"]), canonical_unit(g["o_u"]), "threshold"
    if g["post_value"]:
        # ("45 or more mL/min/1.73 m²": the unit may follow the bound words)
        unit = g["q_u"] or g["q_u2"]
        return post_op(g["q_post"]), number(g["q_v"]), canonical_unit(unit), "threshold"
    return "=", number(g["n_v"]), canonical_unit(g["n_u"]), "threshold"


def _is_dose(text: str, m: re.Match[str]) -> bool:
    """A mass or volume amount, or a value the dosing words follow."""
    after = text[m.end() : m.end() + 40]
    unit_and_after = text[m.start() : m.end() + 40]
    if re.search(rf"(?:{_NUM})\s?{DOSE_UNIT.pattern}", m.group(0), re.IGNORECASE):
        return True
    if DOSE_UNIT.match(after.lstrip()):
        return True  # "75-100 mg": the unit after the range makes it a dose
    return bool(DOSING_WORDS.match(after)) and bool(
        re.search(DOSE_UNIT.pattern, unit_and_after, re.IGNORECASE)
    )


# --------------------------------------------------------------------------- names

_NAME_STOP = frozenset(
    """
    with and or who whom which that have has had are is was were a an the in of patients
    patient those individuals people persons without no despite on at to for by if when
    after before but than as their her his its be being been nor either neither also still
    while whose plus over under below above less more greater lower higher than than
    should may can must recommended considered indicated not first last next initial every
    each per within during since until from and/or or/and
    including especially particularly notably namely e.g. i.e. excluding except like
    showing shows revealing reveals demonstrating demonstrates
    """.split()
)
# verbs that lead into a target ("to control BP at <140/90"): not part of the name
_LEADING_VERBS = frozenset(
    "control controlling reach reaching achieve achieving maintain maintaining keep keeping "
    "lower lowering reduce reducing target targeting aim aiming develop develops developing "
    "have has having show shows showing with".split()
)
_LINKING = frozenset(
    """
    of is are was were remains remain stays stay persists persist at still also persistently
    goal target lies lie
    that which falls fall drops drop rises rise reaching reaches reached level levels value
    values concentration concentrations measuring measures measured
    """.split()
)
# direction and grade words before a valued quantity: the value says how high ("a high
# SYNTAX score (>32)" is the SYNTAX score above 32)
_QUALIFIERS = frozenset(
    "elevated reduced raised increased decreased high low intermediate very".split()
)
# states of the patient written before a measured quantity: "asymptomatic QTc ≥500 ms" is
# the patient asymptomatic and the QTc above the bound, not a quantity named "asymptomatic QTc"
_STATES = frozenset({"symptomatic", "asymptomatic"})
# verbs (not nouns such as "target") that can stand right before a quantity's name
_VERBS_BEFORE_NAME = frozenset(
    "targeting reaching achieving maintaining keeping lowering reducing controlling aiming".split()
)
# words a name never starts with once the words before them are cut off ("at" of "at rest")
_NOT_A_NAME_START = _QUALIFIERS | _LEADING_VERBS | _STATES | {"at", "during", "on"}
MAX_NAME_WORDS = 6


# what a quantity does on its way to a value ("falls to", "increases by")
_CHANGE_VERBS = frozenset(
    "falls fall drops drop declines decline decreases decrease rises rise increases increase".split()
)
_BASELINE_WORDS = frozenset({"baseline", "value", "values"})
_NOT_COUNTED_IN_NAME = _BASELINE_WORDS | {"from", "at", "on", "during", "rest", "standing"}
# when a quantity was measured, named after it ("gradient at rest", "BP on standing"): part
# of its name; with no quantity named before it, all that is left (without its "at")
_CIRCUMSTANCES = frozenset({"rest", "exercise", "standing", "exertion", "peak"})


def _name_before(text: str, end: int) -> tuple[int, str]:
    """The words naming the measurement, read back from where its value starts: "systolic
    BP" in "systolic BP ≥140 mmHg"; linking words ("LDL-C goal of <1.4") are skipped."""
    # ("Lp(a)": a letter glued in brackets is part of the name, no barrier)
    prefix = GLUED_LETTER.sub(lambda m: "_" * len(m[0]), text[:end])
    barrier = max(prefix.rfind(c) for c in ",;:([")
    tokens = [t for t in re.finditer(r"[^\s,;:()\[\]]+", prefix) if t.start() > barrier]
    while tokens and tokens[-1].group(0).lower() in _LINKING:
        tokens.pop()
    # "LVEF falls to 60% or less": the level a quantity changes to is its value, the verb no
    # part of its name; "velocity increases by 0.3 m/s": the change is what is measured, so
    # the verb stays and names it
    if len(tokens) > 2 and tokens[-2].group(0).lower() in _CHANGE_VERBS:
        after_verb = tokens[-1].group(0).lower()
        if after_verb == "to":
            tokens = tokens[:-2]
        elif after_verb == "by":
            tokens = tokens[:-1]
    # "a drop in systolic pressure to <85 mmHg", "lowering LDL-C to <1.6 mmol/L": the value the
    # quantity is brought to; "to" before a bound in symbols links it to its name
    # (a verb or adverb before "to" names no quantity: "is to be lowered to <75 mmHg")
    if (
        len(tokens) > 1
        and tokens[-1].group(0).lower() == "to"
        # "SBP to <130 mmHg", and a range: "SBP to 130–139 mmHg" (not "from 120 to 140")
        and (
            text[end : end + 1] in "<>≤≥"
            or re.match(rf"\s?(?:{_NUM})\s?[-–—−]\s?(?:{_NUM})", text[end:])
        )
        and not re.search(r"(?:ed|ly)$", tokens[-2].group(0).lower())
        and not re.fullmatch(r"[\d.,]+", tokens[-2].group(0))
    ):
        tokens.pop()
    chosen: list[re.Match[str]] = []
    felt: re.Match[str] | None = None  # "an asymptomatic fall in BP": the fall is felt or not
    for i in range(len(tokens) - 1, -1, -1):
        word = tokens[i].group(0)
        circumstance = bool(chosen) and all(t.group(0).lower() in _CIRCUMSTANCES for t in chosen)
        if word.lower() in ("at", "during", "on") and circumstance and i > 0:
            chosen.append(tokens[i])  # "outflow gradient at rest >50 mmHg": measured at rest
            continue
        from_baseline = bool(chosen) and all(t.group(0).lower() in _BASELINE_WORDS for t in chosen)
        if word.lower() == "from" and from_baseline and i > 0:
            # "a fall in diastolic BP from baseline (value) ≥15 mmHg": the change is measured
            chosen.append(tokens[i])
            continue
        changed = (
            word.lower() in ("in", "of")
            and i > 0
            and tokens[i - 1].group(0).lower() in CHANGE_WORDS
            and any(t.group(0).lower() == "baseline" for t in chosen)
        )
        if changed:  # ... and what changes is its name's head: "fall in diastolic BP"
            chosen += [tokens[i], tokens[i - 1]]
            if i > 1 and tokens[i - 2].group(0).lower() in _STATES:
                felt = tokens[i - 2]  # a state of the change itself, part of its name
            break
        # ("treatment targeting SBP <120 mmHg": a verb before the quantity ends its name)
        if chosen and word.lower() in _VERBS_BEFORE_NAME:
            break
        if word.lower() in _NAME_STOP or re.fullmatch(r"[\d.,%<>=≤≥+-]+", word):
            # "time from symptom onset >12 h": the time counted from an event is the name
            if chosen and word.lower() in ("from", "since") and i > 0:
                if tokens[i - 1].group(0).lower() == "time":
                    chosen += [tokens[i], tokens[i - 1]]
            break
        chosen.append(tokens[i])
        # "from baseline (value)" and "at rest" say how it is measured: not counted
        named = [t for t in chosen if t.group(0).lower() not in _NOT_COUNTED_IN_NAME]
        if len(named) >= MAX_NAME_WORDS:
            break
    chosen.reverse()
    while len(chosen) > 1 and (
        chosen[0].group(0).lower() in _NOT_A_NAME_START
        or _GRADES.fullmatch(chosen[0].group(0))
        # "new asymptomatic peak velocity": new says when the state began, both the patient's
        or (chosen[0].group(0).lower() == "new" and chosen[1].group(0).lower() in _STATES)
    ):
        chosen.pop(0)
    if felt is not None:
        chosen.insert(0, felt)
    if not chosen:
        return end, ""
    # "a 10-year risk of CVD of 10%": the measured quantity is the risk of the event, so the
    # name reaches back over "risk of" and the horizon written before it
    risk = _RISK_OF.search(text[: chosen[0].start()])
    if risk and risk.start() > barrier:
        return risk.start(), text[risk.start() : chosen[-1].end()]
    name = text[chosen[0].start() : chosen[-1].end()]
    # "an intermediate or high SYNTAX score (>22)": the grades written before the name say how
    # high the value is; the span keeps them (the name does not), so none is left over
    grades = _GRADES_BEFORE.search(text, barrier + 1, chosen[0].start())
    return (grades.start() if grades else chosen[0].start()), name


_GRADE = "(?:" + "|".join(sorted(_QUALIFIERS)) + ")"
_GRADE_RUN = rf"{_GRADE}(?:(?:\s+(?:or|and|to|and/or)\s+|-(?:to-|or-)?|\s+){_GRADE})*"
_GRADES = re.compile(_GRADE_RUN, re.IGNORECASE)
_GRADES_BEFORE = re.compile(rf"\b{_GRADE_RUN}[\s-]+$", re.IGNORECASE)


_RISK_OF = re.compile(
    r"(?:\b(?:\d+-year|lifetime|annual|estimated|predicted|calculated)\s+)?"
    r"\b(?:risk|probability|likelihood|incidence)\s+of\s+$",
    re.IGNORECASE,
)


# last words of names of measured quantities
QUANTITY_HEADS = frozenset(
    """
    rate pressure fraction gradient score level levels concentration index ratio count
    volume clearance interval duration velocity area diameter size frequency probability
    risk likelihood
    """.split()
)
# a percentage written before the narrowing it measures: "70–99% ICA stenosis", or before
# the change it sizes: "a ≥50% LDL-C reduction"
_NAMED_AFTER = re.compile(
    r"\s+(?P<name>(?:[\w\-]+\s+){0,2}(?:stenosis|stenoses|narrowing|occlusion|obstruction|"
    r"reduction|decrease|increase|decline))\b(?!\s+(?:in|of)\b)",
    re.IGNORECASE,
)
# a change written after its size: "a ≥50% reduction in LDL-C from baseline", "a 20 mmHg
# fall in systolic BP"; the change is the measured quantity, "from baseline" part of it
# words for a change in a quantity; "in" after one names what changes ("reduction in LDL-C")
CHANGE_WORDS = ("reduction", "decrease", "increase", "fall", "drop", "rise", "decline")
_CHANGE = "(?:" + "|".join(CHANGE_WORDS) + ")"
_BASELINE = (
    r"\s*(?:from|vs\.?|versus|compared\s+(?:with|to)|relative\s+to)\s+baseline(?:\s+values?)?\b"
)
_CHANGE_AFTER = re.compile(
    rf"\s+(?P<name>{_CHANGE}\s+(?:in|of)\s+"
    r"(?:(?!(?:from|vs|versus|and|or|in|is|are|should|may|with|for|to)\b)[\w\-/]+\s*){1,4}?"
    rf"(?:{_BASELINE})?)(?=\s*(?:[,;.)]|$)|\s+\w)",
    re.IGNORECASE,
)
_FROM_BASELINE = re.compile(_BASELINE, re.IGNORECASE)
_EF_CLASS = re.compile(r"\bHF(?:r|mr|m|p)EF\s*$")
# quantities measured without a unit: a value in brackets after their name is theirs
# a ratio has no unit either: "a target INR of 2.0–3.0", "an albumin:creatinine ratio 3–30"
DIMENSIONLESS_HEADS = frozenset("score index grade stage ratio inr".split())
_SCORE_IN_BRACKETS = re.compile(
    rf"\s*\(\s*(?P<value>(?P<lo>{_NUM})\s?[-–—−]\s?(?P<hi>{_NUM})"
    rf"|(?P<op>{SYMBOL_RE}|\b(?:{WORD_RE}))\s?(?P<v>{_NUM}))\s*\)",
    re.IGNORECASE,
)
# ... and a bare range or an "of" value right after their name: "a SYNTAX score 0-22", "a
# score of 2", "a score of 3 or more"
_SCORE_RANGE = re.compile(
    rf"\s+(?:(?:of\s+)?(?P<value>(?P<lo>{_NUM})\s?[-–—−]\s?(?P<hi>{_NUM}))"
    rf"|of\s+(?P<v>{_NUM})(?:\s+(?P<post>{POST_RE}))?)(?![\w%/.,]|\s?{UNIT_RE})",
    re.IGNORECASE,
)
# ... and a bare small number: "a CHA2DS2-VASc score 0", "a score 1 in women"
_SCORE_BARE = re.compile(
    r"\s+(?P<value>(?P<v>\d{1,2}))(?![\w%/.,–—−-]|\s?[-–—−]\s?\d|\s?" + UNIT_RE + ")"
    # ("a score that is 2 or higher": the bound said after the number; not "3 or older
    # patients", an age word)
    r"(?:\s+(?P<post>or\s+(?:more|higher|greater|above|less|lower|below))\b)?",
    re.IGNORECASE,
)
# how many of something the patient has: "two or more clinical risk factors", "≥1 risk
# factor", "at least 3 episodes"; the count is the value, what is counted names it
_COUNT = re.compile(
    rf"(?:(?P<op>{SYMBOL_RE})\s?|\b(?P<words>at\s+least|more\s+than|fewer\s+than|less\s+than)\s+)?"
    rf"(?<![\w.,/-])(?P<n>\d{{1,2}}|{'|'.join(_NUMBER_WORDS)})(?P<post>\s+{POST_RE})?\s+"
    r"(?P<what>(?:(?!(?:of|the|following|these|those|such|which)\b)[\w\-]+\s+){0,3}?"
    # ("two or more CVRFs": the risk factors by their abbreviation)
    r"(?:(?:risk\s+)?factors?|(?:CV)?RFs?|criteria|criterion|features?|markers?|lesions?|comorbidit(?:y|ies)|"
    r"(?:episodes?|attacks?)(?:\s+of\s+[\w\-]+)?))\b",
    re.IGNORECASE,
)
# a value that opens a bracket of its own right after a word: "heart rate (>100 bpm"
_BRACKETED_VALUE = re.compile(r"(?<=\w)\s*\(\s*$")
_AGE_WORDS = re.compile(r"\b(?:aged?|older|younger|years?\s+old)\s*$", re.IGNORECASE)


# --------------------------------------------------------------------------- finding


# the same value in a second unit right after the first: " (55 mg/dL)", " or ≥200 mg/dL",
# ", or 430 nmol/L", " (about 430 nmol/L)" (a conversion rounded, the same value), ", i.e.
# 4.9 mmol/L" (the same value said again); a closing bracket only where one was opened
_RESTATED = r"i\.\s?e\.|that\s+is"  # the same value said again
# ... converted to another unit (", which corresponds to 55 mg/dL")
_CONVERTED = (
    r"roughly|(?:equivalent|corresponding)\s+to|(?:which|that)\s+(?:corresponds?|(?:is|are)\s+"
    r"equivalent)\s+to"
)
_SAID_AGAIN = rf",?\s?(?P<again>{_RESTATED}|{_CONVERTED}),?\s+"
_ROUNDED = rf"(?:\s?(?P<lead>about|approximately|approx\.|~|≈|{_CONVERTED}|(?:{_RESTATED}),?))?"
_ALT_VALUE = re.compile(
    rf"\s?(?:(?P<open>\(){_ROUNDED}\s?|(?P<listed>,\s?)?or\s+"
    rf"|/\s?|{_SAID_AGAIN})(?P<op>{SYMBOL_RE})?\s?(?P<v>{_NUM})\s?(?P<u>{UNIT_RE})(?(open)\s?\)?)",
    re.IGNORECASE,
)
# ... and a range's, as a range in brackets, " (135–499 mg/dL)", or said again, ", i.e.
# 1.5–5.6 mmol/L"
_ALT_RANGE = re.compile(
    rf"\s?(?:(?P<open>\(){_ROUNDED}\s?|{_SAID_AGAIN})(?P<v>{_NUM}){_DASH}(?P<v2>{_NUM})\s?(?P<u>{UNIT_RE})"
    r"(?(open)\s?\))",
    re.IGNORECASE,
)
# the one percentage that has a second unit: HbA1c, "7%, i.e. 53 mmol/mol"
_PERCENT_PAIR = {"%", "mmol/mol"}


def _alt_value(
    text: str, end: int, unit: str | None, ranged: bool = False
) -> tuple[dict[str, Any], int] | None:
    """The same value in another unit right after the first (a range's, ``ranged``, as a
    range in brackets or said again), and where it ends."""
    m = (_ALT_RANGE if ranged else _ALT_VALUE).match(text, end)
    other = canonical_unit(m.group("u")) if m else None
    if m is None or other is None or other == unit or other in TIME_UNITS or unit in TIME_UNITS:
        return None
    # ", or 430 nmol/L", ", i.e. 4.9 mmol/L": the value given again after a comma or "i.e."
    said_again = m["again"] is not None or bool(m.groupdict().get("listed") or m["lead"])
    if said_again and "%" in (unit, other) and {unit, other} != _PERCENT_PAIR:
        return None  # "HR >100 bpm, or 30% above baseline": another quantity, not a unit
    if ranged:
        return {"threshold": [number(m.group("v")), number(m.group("v2"))], "unit": other}, m.end()
    if m.group(0).lstrip().startswith("or") and not m.group("op"):
        return None  # "≥6 or 8 months": another value, not the same one
    return {"threshold": number(m.group("v")), "unit": other}, m.end()


def find_measurements(text: str) -> list[Measurement]:
    """Every measured criterion in ``text``, in order, doses left out."""
    found: list[Measurement] = []
    cursor = 0
    for nyha in _NYHA.finditer(text):
        a, b = _ROMAN[nyha.group("a")], _ROMAN.get(nyha.group("b") or "")
        threshold: float | list[float] = [float(min(a, b)), float(max(a, b))] if b else float(a)
        operator = "between" if b else "="
        if not b and (nyha.group("op") or nyha.group("post")):
            operator = _CLASS_POST.get((nyha.group("post") or "").lower()) or _op(nyha["op"])
        value_start = nyha.start("op") if nyha.group("op") else nyha.start("a")
        found.append(
            Measurement(
                nyha.start(),
                nyha.end(),
                value_start,
                text[nyha.start() : value_start].strip(),
                operator,
                threshold,
                None,
                kind="class",
            )
        )
    scores = [
        *_SCORE_IN_BRACKETS.finditer(text),
        *_SCORE_RANGE.finditer(text),
        *_SCORE_BARE.finditer(text),
    ]
    for score in sorted(scores, key=lambda m: m.start()):
        # "a high SYNTAX score (>32)", "low SYNTAX score (0 - 22)", "a score 0-22": a score
        # has no unit, so its value in brackets or its range after its name is read here
        name_start, name = _name_before(text, score.start())
        if not name or name.split()[-1].lower() not in DIMENSIONLESS_HEADS:
            continue
        if score.re is _SCORE_BARE and name.split()[-1].lower() != "score":
            continue  # "stage 3" names a stage; only a score takes a bare number
        if any(s <= score.start() < e for s, e in ((m.start, m.end) for m in found)):
            continue
        if score.groupdict().get("lo") is not None:
            operator, threshold = "between", [number(score["lo"]), number(score["hi"])]
        elif score.groupdict().get("post"):
            operator = post_op(score["post"])
            threshold = number(score["v"])
        else:
            operator, threshold = _op(score.groupdict().get("op")), number(score["v"])
        value_start = score.start("value") if score["value"] else score.start("v")
        found.append(
            Measurement(name_start, score.end(), value_start, name, operator, threshold, None)
        )
    taken = [(m.start, m.end) for m in found]
    for count in _COUNT.finditer(text):
        if any(s <= count.start() < e for s, e in taken):
            continue
        value = number(count["n"])
        if count["op"]:
            operator = _op(count["op"])
        elif count["words"]:
            operator = operator_from_words(count["words"]) or "="
        elif count["post"]:
            operator = post_op(count["post"])
        else:
            operator = "="
        start, name = count.start(), count["what"]
        found.append(
            Measurement(
                start, count.end(), count.start("n"), name, operator, value, None, kind="count"
            )
        )
        taken.append((start, count.end()))
    for m in _VALUE.finditer(text):
        if m.start() < cursor or any(s <= m.start() < e for s, e in taken):
            continue
        if _is_dose(text, m):
            cursor = m.end()
            continue
        operator, threshold, unit, kind = _value_of(m)
        if unit == "mg/day" and operator in ("=", "between"):
            cursor = m.end()
            continue  # "75 mg/day", "75–100 mg/day": the amount given each day, a dose
        value_start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        end = m.end()
        if m.group("bare") and unit is None:
            continue
        alt = _alt_value(text, end, unit, ranged=isinstance(threshold, list))
        alt_values = []
        if alt is not None:
            alt_values, end = [alt[0]], alt[1]
            post = re.match(rf"\s+({POST_RE})", text[end:], re.IGNORECASE)
            if post and operator == "=":  # "1.8 mmol/L (70 mg/dL) or more": both values' bound
                operator = post_op(post.group(1))
                end += post.end()
        name_start, name = _name_before(text, value_start)
        bracket = _BRACKETED_VALUE.search(text[:value_start])
        closing = re.match(r"\s*\)", text[end:])
        if not name and bracket and closing and unit is not None:
            # "an elevated heart rate (>100 bpm)": the value in brackets is the measured
            # quantity's named before it; the span runs from the name to the closing
            # bracket. A condition defined by a value ("obesity (≥30 kg/m2)") stays a
            # condition: only names of quantities take the value.
            before_start, before = _name_before(text, bracket.start())
            if before and before.split()[-1].lower() in QUANTITY_HEADS:
                name_start, name = before_start, before
                end += closing.end()
        if (
            not name
            and bracket
            and closing
            and unit == "%"
            and _EF_CLASS.search(text[: bracket.start()])
        ):
            # "HFrEF (<40%)": the class of heart failure is named by the ejection fraction the
            # value bounds
            name_start, name = text.rindex("(", 0, value_start), "LVEF"
            end += closing.end()
        # (a word before it that is no quantity, "symptomatic 50-69% ICA stenosis", is not
        # what the percentage measures either)
        after = (
            _NAMED_AFTER.match(text, end)
            if unit == "%" and (not name or name.split()[-1].lower() not in QUANTITY_HEADS)
            else None
        )
        change = _CHANGE_AFTER.match(text, end) if unit is not None and not name else None
        if after:
            # "a 70-99% carotid stenosis": the narrowing the percentage measures is named after it
            side = re.search(r"\b(?:bi|uni|contra|ipsi)lateral\s*$", text[:value_start], re.I)
            if side:  # "bilateral 70-99% carotid stenosis": the side is the narrowing's
                name_start, name = side.start(), f"{side[0].strip()} {after['name']}"
            else:
                name_start, name = value_start, after["name"]
            end = after.end()
        elif change:
            name_start, name = value_start, change["name"].strip()
            end = change.start("name") + len(change["name"].rstrip())
        elif name and re.search(rf"\b{_CHANGE}$", name, re.IGNORECASE):
            baseline = _FROM_BASELINE.match(text, end)
            if baseline:  # "an LDL-C reduction of ≥50% from baseline": measured from baseline
                end = baseline.end()
        if kind == "window":
            name_start, name = value_start, ""
        elif unit == "years" and (not name or _AGE_WORDS.search(text[:value_start])):
            name = name if name and "age" in name.lower() else ""
        if not name and kind == "threshold" and unit is None and operator == "=":
            continue  # a bare number is no criterion
        if unit in ("procedures", "mg/m²") and operator == "=":
            # "who have had 2 procedures": a count told, not a volume to reach;
            # "doxorubicin 60 mg/m2": a dose given, not an exposure bound
            continue
        found.append(
            Measurement(
                name_start if name else value_start,
                end,
                value_start,
                name,
                operator,
                threshold,
                unit,
                alt_values,
                kind,
            )
        )
        cursor = end
    return sorted(found, key=lambda x: x.start)


def parse_value(text: str) -> tuple[str, float | list[float] | str, str | None] | None:
    """(operator, threshold, unit) of a short value expression ("≤ 35%", "140/90 mmHg")."""
    found = find_measurements(text)
    if not found:
        return None
    first = found[0]
    return first.operator, first.threshold, first.unit


# --------------------------------------------------------------------------- formatting


def format_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def attach_measurement(
    text: str,
    operator: str | None,
    threshold: float | tuple[float, float] | str | None,
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
    value = threshold if isinstance(threshold, str) else format_number(threshold)  # "140/90"
    return f"{text} {op}{value}{suffix}"


# --------------------------------------------------------------------------- pieces for value readers

# The grammar's pieces for readers of a single value (patient facts in `cardio ask`), so a
# number, a dash or an operator sign means the same there as in a guideline row.
NUMBER = _NUM
RANGE_DASHES: tuple[str, ...] = ("–", "—", "−", "‐")
UNICODE_OPERATORS: dict[str, str] = {s: op for s, op in SYMBOLS.items() if not s.isascii()}
parse_number = number
