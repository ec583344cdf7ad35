"""Parameters: "LVEF of 35% or less" -> ClinicalParameter LVEF, operator <=, 35, "%".

Each parameter expression is replaced by a placeholder before AND/OR splitting, so "or
less" and "between 36 and 49" never read as logic. Numbers, operators and units come from
the shared measurement grammar (cardio_assets/logic/measurements.py); what is a dose or a
duration rather than a threshold ("75-100 mg daily", "for 6 months") is decided here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.coordination import GRADES
from cardio_assets.logic.lexicon.noise_time import (
    ARRIVING_VERBS,
    SO_FAR_BOUND,
    SYMPTOM_ONSET,
    unnamed_event,
)
from cardio_assets.logic.lexicon.parameter_names import (
    HEAD_OF,
    ONLY_LASTED,
    STATE_THAT_LASTED,
    measured_alternative,
    scored_on,
    shared_head_partner,
)
from cardio_assets.logic.lexicon.role_words import heuristic_role
from cardio_assets.logic.measurements import TIME_UNITS as _TIME_UNITS
from cardio_assets.logic.measurements import Measurement, find_measurements

# ---------------------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------------------
_NAME_STOP = frozenset(
    """
    with and or who whom which that have has had are is was were a an the in of patients
    patient those individuals without no despite on at to for by if when after before but
    than as persistent persistently who's their her his its be being been plus nor either
    neither also still remains remain while whose plus over under below above less more
    greater lower higher than
    """.split()
)
_AGE_NAMES = frozenset({"aged", "age", "old", "older", "younger"})
# a comparison that makes its number an age ("older than 40", "younger than 60 years")
_OLDER_THAN = re.compile(r"(?:older|younger)\s+than\b", re.IGNORECASE)
# the verb a body weight is written with ("adults weighing <60 kg")
_WEIGHING = frozenset({"weighing", "weighs", "weigh"})
_AT_LEAST_ONE = re.compile(r"(?:at\s+least\s+one|one\s+or\s+more)\s", re.IGNORECASE)
# people named right before a number of years: the years are their age
_PEOPLE = re.compile(
    r"(?:women|men|adults|children|adolescents|girls|boys|patients|people|individuals)", re.I
)
_PEOPLE_RIGHT_BEFORE = re.compile(rf"\b{_PEOPLE.pattern}\s+$", re.IGNORECASE)
_AGE_BOUND_WORD = re.compile(r"(?:over|under|above|below)\s+\d", re.IGNORECASE)
# years said to be an age ("<65 years of age", "T2DM <65 years old"): the patients' age
# beside a state they have, not a relative's ("a relative <40 years of age") nor a
# device's ("abandoned leads >10 years old")
_OF_AGE = re.compile(r"\byears?\s+(?:of\s+age|old)\b", re.IGNORECASE)
_SOMEONE_ELSE = re.compile(
    r"\b(?:relatives?|siblings?|parents?|mother|father|brothers?|sisters?|members?|donors?|"
    r"offspring|children|(?:bio)?prosthes[ie]s|valves?|leads?|devices?|grafts?|stents?|"
    r"pacemakers?|generators?|batter(?:y|ies))$",
    re.IGNORECASE,
)
# quantities measured in time: "pauses >3 s", "AF duration >48 h", "time from onset >12 h"
_TIMED_QUANTITY = re.compile(
    # "pause/s", "episode(s)": a plural written as a choice is still the quantity; an age
    # counted in weeks ("gestational age of 36 weeks") is one too
    r"\b(?:pauses?|duration|episodes?|interval|time|survival|expectancy|age)(?:/s|\(s\))?$"
    r"|^time\s+(?:from|since)\b",
    re.IGNORECASE,
)
# a time counted back from now: "TIA within the past 6 months", "recent (<3 months) stroke"
_LOOKING_BACK = re.compile(
    r"(?:within|in|during)\s+the\s+(?:past|last|previous|preceding)\b", re.IGNORECASE
)
_RECENT_BRACKET = re.compile(r"\brecent\s*\(\s*$", re.IGNORECASE)
_RECENT = re.compile(r"recent\b", re.IGNORECASE)
_BRACKET_CLOSE = re.compile(r"\s*\)\s*(?:history\s+of\s+)?", re.IGNORECASE)
# where the event named before or after such a time ends
_EVENT_EDGE = re.compile(
    r"\s*(?:[,;:(]|\b(?:and|with|without|in|who|which|that|or\s+(?:in|with|who))\b)",
    re.IGNORECASE,
)
_EVENT_LEAD = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?:(?:recent|prior|previous)\s+)?(?:history\s+of\s+)?", re.I
)
# an event is named by a noun phrase, not a clause ("this test has not been done")
_EVENT_WORDS = re.compile(
    r"(?!.*\b(?:is|are|was|were|has|have|had|been|be|not|this|it|they)\b)(?!.*⟦)[\w\-/' ]{2,60}",
    re.IGNORECASE,
)
_PLACEHOLDER = "⟦P{}⟧"
# (the words between may name the relative: "coronary disease in a relative younger than";
# never a comma, a bracket, a coordinator or a clause that returns to the patient: "a family
# history of HCM and age above 40 years" keeps the patient's age)
_FAMILY_HISTORY_OF = re.compile(
    r"\bfamily\s+history\s+of\s+(?:(?!(?:and|or|with|who|whose|aged?)\b)[\w\-]+\s+){0,8}$", re.I
)
_PLACEHOLDER_RE = re.compile(r"⟦P(\d+)⟧")


# the event a time window is counted from: "within 12 h of symptom onset", "in the first
# 3 months after surgery"
_EVENT = (
    r"(?:the\s+|a\s+|an\s+)?(?P<event>[^\s,;.()][^,;.()]{0,50}?)"
    r"(?=\s+(?:in|for|with|and|or|is|are|was|were|should|may|must|can|if|when|unless|to|"
    r"who|which|that|as|than|but|once|until|provided|while)\b|\s*[,;.()]|$)"
)
WINDOW_ANCHOR = re.compile(rf"\s+(?:of|after|from|following|since)\s+{_EVENT}", re.IGNORECASE)
_AFTER_EVENT = re.compile(rf"\s+(?:after|following|since)\s+{_EVENT}", re.IGNORECASE)


@dataclass
class Parameter:
    text: str  # verbatim name span ("LVEF") or the whole span when no name was written
    name_normalized: str | None
    operator: str
    threshold: float | list[float]
    unit: str | None
    alt_values: list[dict] = field(default_factory=list)  # the value in a second unit


# a lesion measured by its size ("AAA of 50–55 mm", "an aneurysm ≥55 mm"): the patient has
# the lesion, and the value is its diameter; the name as written ends where the value starts
_LESION = re.compile(r"\b(?:pseudo)?aneurysms?(?:\s+diameters?)?$", re.IGNORECASE)
_LESION_NAME = re.compile(
    r"^(?P<name>.+?)\s+(?:diameters?\s+)?(?:(?:of|is|was|are)\s+)?(?:[<>≤≥=]|\d|"
    r"(?:more|less|greater|larger|bigger|smaller|above|over|under|below|at|between|from|"
    r"exceed\w*|reach\w*|measur\w*)\b)",
    re.IGNORECASE,
)


def sized_lesion(param: Parameter) -> str | None:
    """The lesion as written when a parameter measures one by its size, else None."""
    if param.unit not in ("mm", "cm") or not param.name_normalized:
        return None
    if not _LESION.search(param.name_normalized):
        return None
    named = _LESION_NAME.match(param.text)
    return named["name"] if named else None


# grade words before a state whose duration is named ("complete", "high-degree")
_GRADE_WORDS = re.compile(
    rf"^(?:(?:{'|'.join(sorted(GRADES, key=len, reverse=True))})(?:\s+|\s*(?:or|and)\s+))+",
    re.IGNORECASE,
)
# a state named with how long it has lasted: "AF lasting <48 h", "pauses persisting >3 s"
# ("AF has lasted longer than 24 h" reaches it as "AF lasting", parameter_names.py)
_LASTING_VERBS = r"lasting|lasts|lasted|persisting|persists|persisted"
_LASTING = re.compile(rf"(?P<state>.*?\S)\s+(?:{_LASTING_VERBS})", re.IGNORECASE)
# ... said right after another value: how long that value held ("<90 mmHg lasting ≥15 min")
_HELD_FOR = re.compile(rf"(?P<space>\s*)(?:{_LASTING_VERBS}|sustained)\b", re.IGNORECASE)
# the words right before a value, an operator sign allowed between ("persisting >6 weeks")
_RIGHT_BEFORE_VALUE = r"\s*(?:\S{1,2}\s*)?$"
_STATE_LASTED = re.compile(rf"\b(?:{_LASTING_VERBS}){_RIGHT_BEFORE_VALUE}", re.IGNORECASE)
_FOR_HOW_LONG = re.compile(rf"\bfor{_RIGHT_BEFORE_VALUE}", re.IGNORECASE)
# "... of <12 h duration": the value is the duration of the state named before it
_DURATION_WORD = re.compile(r"['’]?\s+duration\b", re.IGNORECASE)  # ("20 years' duration")

# a time after an event that says how long the act goes on ("for 3–6 months after X",
# "beyond 12 months after ACS", "from 1 week after surgery", "10 days of treatment,
# including at least 7 days after surgery") or one point of a schedule ("every 3
# months and 12 months after X", "3 and 12 months after X"): no criterion of the patients
_HOW_LONG_OR_WHEN = re.compile(
    r"\b(?:for(?:\s+a\s+period\s+of)?|beyond|during|from|until|including|and|or|to)"
    + _RIGHT_BEFORE_VALUE,
    re.IGNORECASE,
)

# "2–24 h after the start of the infusion", "1–2 weeks after starting an MRA": when to act
# (or check) after a therapy began, no state of the patients
_STARTED = re.compile(
    r"(?:start|beginning|initiation|commencement)\s+of\b|(?:starting|initiating|commencing)\b",
    re.IGNORECASE,
)


# a verb of arriving right before the time ("presenting more than 48 h after onset")
_PRESENTING = re.compile(
    rf"\s+(?:{ARRIVING_VERBS})\s+(?:(?:more|less)\s+than\s+|at\s+least\s+|up\s+to\s+|[<>≤≥]\s?)?$",
    re.IGNORECASE,
)
# the onset of the patients' symptoms, named with no event of its own
_ONSET = re.compile(rf"(?:the\s+)?{SYMPTOM_ONSET}", re.I)


def times_since_events(text: str, abbreviations: Abbreviations) -> tuple[str, list[Parameter]]:
    """ "3–6 months after acute myocarditis", "6 h after the first diuretic dose", "at least 4
    weeks after an intracranial haemorrhage": a time after an event the patients had is the
    time since that event, with its bound if it has one (contract §5). Read before the
    sentence rules, which would part the value from its event;
    the value leaves the text, the event stays in it as a concept of its own. A window
    ("within 6 months after X") is the measurement grammar's; a time after an event that
    names nothing of the patients' ("after the procedure") only times the act."""
    params: list[Parameter] = []
    pieces: list[str] = []
    cursor = 0
    for found in find_measurements(text):
        after = _AFTER_EVENT.match(text, found.end) if found.unit in _TIME_UNITS else None
        # "STEMI presenting >48 h after (symptom) onset": how late the patients come, the
        # time since their symptoms began (the presenting verb says whose onset it is)
        late = (
            _PRESENTING.search(text, cursor, found.value_start)
            if after is not None and _ONSET.fullmatch(after["event"])
            else None
        )
        if (
            after is None
            or found.kind == "window"
            or found.start < cursor
            or (unnamed_event("after " + after["event"]) and not late)
            or found.name.lower().split()[-1:] in (["aged"], ["age"])  # "aged >50 years after X"
        ):
            continue
        if late:  # (named as the development golds name it)
            params.append(
                measured_parameter(
                    text[found.value_start : found.end], "time from symptom onset", found
                )
            )
            pieces.append(text[cursor : late.start()])
            cursor = after.end()
            continue
        before = text[cursor : found.value_start]
        if _STARTED.match(after["event"]) and found.operator in ("=", "between"):
            pieces.append(before)  # "1–2 weeks after starting X": when to check, left out
            cursor = found.end
            continue
        if _STATE_LASTED.search(before):
            continue  # "persisting >6 weeks after X": how long a state lasts, its duration
        if found.unit == "years":
            if _FOR_HOW_LONG.search(before):
                continue  # "survival for ≥1 year after TAVI": how long, no age either
        elif _HOW_LONG_OR_WHEN.search(before):
            pieces.append(before)  # how long or one point of a schedule: left out
            cursor = found.end
            continue
        event = re.sub(r"\s*/\s*", " or ", abbreviations.normalize(after["event"]))
        earlier = re.search(r"\b(?P<side>earlier|sooner|later)\s+than\s*$", before, re.I)
        if earlier and found.operator == "=":  # "not earlier than 72 h after X": a bound
            found = replace(found, operator="<" if earlier["side"].lower() != "later" else ">")
        params.append(
            measured_parameter(text[found.value_start : found.end], f"time since {event}", found)
        )
        pieces.append(before)
        cursor = found.end
    pieces.append(text[cursor:])
    return "".join(pieces), params


# the words that end what a time is of: a connective, a clause or a verb
_SO_FAR_ENDS = (
    r"and|or|if|when|in|with|without|after|before|to|following|should|is|are|was|were|may|"
    r"must|can|has|have|had|will"
)
# "after 4–8 weeks of antituberculosis therapy", "after 2 years of imaging stability": how
# long something the patients have had or been given has gone on by then, then the thing
_AFTER_SO_LONG_OF = re.compile(
    r"\b(?P<lead>after|despite)\s+"
    rf"(?P<value>{SO_FAR_BOUND}?"
    r"(?:\d+(?:\s*[–-]\s*\d+)?|one|two|three|four|five|six|eight|ten|twelve)\s*"
    r"(?:days?|weeks?|months?|years?)(?:\s+or\s+(?:more|longer))?)\s+of\s+"
    rf"(?P<what>(?:(?!\b(?:{_SO_FAR_ENDS})\b)(?:[^,.;()]|\.(?=\w|\s+[a-z])))+?)"
    rf"(?=\s*(?:[,;()]|\.(?!\w|\s+[a-z])|$)|\s+(?:{_SO_FAR_ENDS})\b)",
    re.IGNORECASE,
)
# ... not an age ("after 6 months of age") nor a pregnancy's week: those are the grammar's
_NO_DURATION_OF = re.compile(r"^(?:age|life|gestation|pregnancy)$", re.IGNORECASE)
# ... a therapy's only when a state that holds on or fails is said of the patients in the
# same clause ("LDL-C remains ≥1.8 mmol/L after 4–6 weeks of X", "not improving after 4–8
# weeks of X"); else the time says when the act comes ("oral antibiotics after 10 days of
# intravenous treatment", "aspirin may be stopped after 1 month of DAPT")
_THERAPY_WORD = re.compile(r"\b(?:therapy|treatment|drugs?|medication|DAPT)\b", re.IGNORECASE)
_STATE_SO_FAR = re.compile(
    r"\b(?:remain(?:s|ed)?|(?<!\bthe\s)remaining|stay(?:s|ed|ing)?|persist(?:s|ed|ing)?|still|"
    r"not\s+improv\w*|deteriorat\w*|worsen\w*|fail(?:s|ed|ing)?)\b[^,;.]{0,80}$",
    re.IGNORECASE,
)


def _lasted_so_far(what: str, start: int, text: str) -> bool:
    """Whether "after N of <what>" (``what`` normalized, the phrase at ``start``) says how
    long it has gone on by the time the row applies: a state ("imaging stability"), or a
    therapy in a clause saying that a state holds on."""
    if _NO_DURATION_OF.match(what):
        return False
    if heuristic_role(what) not in ("Medication", "Procedure") and not _THERAPY_WORD.search(what):
        return True
    return _STATE_SO_FAR.search(text, 0, start) is not None


def durations_so_far(text: str, abbreviations: Abbreviations) -> tuple[str, list[Parameter]]:
    """ "pericardiectomy … if not improving after 4–8 weeks of antituberculosis therapy": how
    long a therapy has been given, or a state has lasted, by the time the row applies is a
    criterion of the patients, "duration of <it>" (the golds name it so), not how long the
    recommended act goes on (contract §2, a duration that goes). A therapy's only in a clause
    where a state holds on (_STATE_SO_FAR); elsewhere the time says when the act comes and
    goes as the durations of acts do. Either way the value leaves the text and what it is of
    stays, a concept of its own."""
    params: list[Parameter] = []
    pieces: list[str] = []
    cursor = 0
    for found in _AFTER_SO_LONG_OF.finditer(text):
        if not _NO_DURATION_OF.match(found["what"].strip()):
            # the value goes either way: a time that says when the act comes is no concept
            pieces += [text[cursor : found.start()], f"{found['lead']} {found['what']}"]
            cursor = found.end()
        what = abbreviations.normalize(found["what"].strip())
        # ("despite ≥3 months of X": the state the patients have held on through X)
        if found["lead"].lower() != "despite" and not _lasted_so_far(what, found.start(), text):
            continue
        value = find_measurements(found["value"])
        if len(value) != 1 or value[0].unit not in _TIME_UNITS:
            continue
        # "after 2 years of X": X has gone on for 2 years or more by then
        lasted = replace(value[0], operator=">=") if value[0].operator == "=" else value[0]
        params.append(measured_parameter(found["value"], f"duration of {what}", lasted))
    pieces.append(text[cursor:])
    return "".join(pieces), params


def counted_back(span: str) -> bool:
    """A parameter span that counts back from now ("within the past 6 months", "recent (<6
    months)"): the time since an event, said of that event."""
    return bool(_LOOKING_BACK.match(span) or _RECENT.match(span))


def measured_parameter(span: str, normalized: str, found: Measurement) -> Parameter:
    """The parameter of a span and its name, with the measurement's value."""
    return Parameter(
        text=span,
        name_normalized=normalized,
        operator=found.operator,
        threshold=found.threshold,
        unit=found.unit,
        alt_values=list(found.alt_values),
    )


# "(procedural) risk of stroke or " right before a named value: the first event of a
# composite rate ("risk of stroke or death <6%")
_COMPOSITE_RISK = re.compile(
    r"\b(?:(?!(?:the|a|an|if|and|as|when|of)\b)[\w'’-]+\s+){0,3}"
    r"(?:risk|rate|incidence)\s+of\s+(?:[\w-]+\s+){1,2}?or\s+$",
    re.IGNORECASE,
)

# ... whose second event is a plain word or two ("death", "heart failure"), or MI / TIA: no
# measured quantity of its own ("a high risk of bleeding or LVEF <35%" names two criteria)
_EVENT_NAME = re.compile(
    r"(?:[a-z-]+|MI|TIA|ACS|SCD|VTE|CV)(?:\s+[a-z-]+)?(?:\s+(?:is|are|stays|remains|was))?"
)
# ... and no measured quantity ("a risk of bleeding or an ejection fraction <35%")
_MEASURED_WORD = re.compile(
    r"\b(?:fraction|rate|pressure|level|count|ratio|score|index|diameter|volume|gradient|"
    r"velocity|concentration|clearance|interval|duration|saturation|strain)\b",
    re.IGNORECASE,
)


def extract_parameters(
    text: str, abbreviations: Abbreviations, start_index: int = 0
) -> tuple[str, list[Parameter]]:
    """Find parameter expressions, return the text with placeholders and the parameters.

    The measurements come from the shared grammar (``find_measurements``: operators in
    symbols and words, ranges, paired blood pressure, a second unit, NYHA classes; doses
    left out). The span a parameter keeps is name and value ("LVEF ≤35%", as the contract
    wants); placeholders keep it one item for AND/OR splitting, so "or less" and "between
    36 and 49" never read as logic. A time window counted from a named event ("within 12 h
    of symptom onset") is the time since that event, at most the value; a window of nothing
    named and a duration are not thresholds of the patient, and a number without a name is
    no criterion.
    """
    params: list[Parameter] = []
    pieces: list[str] = []
    cursor = 0
    last_scored = ""  # the score the last "scoring <value> on X" was on
    last_end = -1  # where the last parameter read ends
    for found in find_measurements(text):
        if found.start < cursor:
            held = _HELD_FOR.match(text, cursor) if params and found.unit in _TIME_UNITS else None
            if (
                held is not None
                and held.end() <= found.value_start
                # the value just read ends right there, and is a measured level, not a
                # count, a time or a duration; the time is a bound ("lasting ≥15 min", not
                # "persisting 90 min after X", a time since)
                and cursor == last_end
                and params[-1].unit not in _TIME_UNITS | {"ms"}
                and not params[-1].name_normalized.startswith(("number of", "time "))
                and found.operator in ("<", "<=", ">", ">=")
            ):
                # "systolic BP <90 mmHg lasting ≥15 min": how long the value held, a
                # duration of that finding (the grammar named it with the unit before)
                span_start = cursor + len(held["space"])
                normalized = f"{params[-1].name_normalized} duration"
                params.append(measured_parameter(text[span_start : found.end], normalized, found))
                pieces.append(text[cursor:span_start])
                pieces.append(_PLACEHOLDER.format(start_index + len(params) - 1))
                cursor = last_end = found.end
            continue
        lasted = STATE_THAT_LASTED.search(text, cursor, found.start)
        if lasted and found.unit in _TIME_UNITS and ONLY_LASTED.fullmatch(found.name):
            # "AF has lasted longer than 24 h": the name reader stops at "has"; the state
            # before it is what lasted, read as "AF lasting >24 h"
            found = replace(found, start=lasted.start("state"), name=f"{lasted['state']} lasting")
        name, end = found.name, found.end
        before = text[: found.start].split()[-1:]
        if not name and found.unit is None and params and params[-1].name_normalized == "age":
            # "aged >75 or <18": the second bound is an age too, in years like the first
            found = replace(found, unit=params[-1].unit)
        follows = (
            params
            and not name
            and found.unit not in _TIME_UNITS
            and found.unit == params[-1].unit  # "<1.4 mmol/L and a ≥50% reduction": another
            and re.fullmatch(
                r"[\s,]*(?:(?:and|or|and/or|but)\s+)?(?:\S+\s+){0,2}?", text[cursor : found.start]
            )
        )
        start, shown_end = found.start, None
        back = _LOOKING_BACK.match(text, found.start) if found.kind == "window" else None
        recent = (
            _RECENT_BRACKET.search(text, cursor, found.start)
            if found.unit in _TIME_UNITS and found.operator in ("<", "<=")
            else None
        )
        closing = _BRACKET_CLOSE.match(text, found.end) if recent else None
        anchor = WINDOW_ANCHOR.match(text, found.end) if found.kind == "window" else None
        event = ""
        if back is not None:  # "TIA or stroke within the past 6 months": since that event
            before_words = text[cursor : back.start()]
            edges = list(_EVENT_EDGE.finditer(before_words))
            event = before_words[edges[-1].end() if edges else 0 :].strip(" ,;")
            start = back.start()
        elif closing is not None:  # "recent (<6 months) history of stroke": since the stroke
            edge = _EVENT_EDGE.search(text, closing.end())
            event = text[closing.end() : edge.start() if edge else len(text)].strip(" ,;")
            start, end = recent.start(), closing.end()
            shown_end = text.index(")", found.end) + 1  # the span ends at its bracket
        event = _EVENT_LEAD.sub("", event)
        if back is not None and not _EVENT_WORDS.fullmatch(event):
            # "if it has not been done in the previous 3 months": when, of no event named
            pieces.append(text[cursor : found.start])
            cursor = found.end
            continue
        if event:
            normalized = "time since " + re.sub(r"\s*/\s*", " or ", abbreviations.normalize(event))
            name = ""
        elif found.kind == "window" and anchor is None:
            continue  # "within 24 h" of nothing named: when to act, not a criterion
        elif anchor is not None:
            # "within 48 h of admission": the time since the event, at most 48 h (contract §5)
            normalized = "time since " + abbreviations.normalize(anchor["event"])
            name, end = "", anchor.end()
        elif follows:
            # "aortic diameter ≥25 mm and <30 mm": the value after "and" is the same quantity's
            normalized, name = params[-1].name_normalized, ""
        elif found.unit == "years" and before and before[0].lower() == "for":
            # "expected to survive for ≥1 year": how long, not the patient's age, no concept
            pieces.append(text[cursor : found.start])
            cursor = found.end
            continue
        elif found.unit in (None, "years") and [w.lower() for w in name.split()[-1:]] in (
            ["age"],
            ["aged"],
        ):
            # "aged ≥50", "smokers aged ≥50", "diabetes aged ≥40 years", "age under 50": an
            # age is counted in years, written or not; the people or the state named before
            # it stay a concept of their own
            start += name.lower().rfind(name.split()[-1].lower())
            normalized, name, found = "age", "", replace(found, unit="years")
        elif (
            found.unit is None
            and found.kind == "threshold"
            and found.operator in ("<", "<=", ">", ">=")
            and isinstance(found.threshold, float)
            and 10 <= found.threshold <= 110
            # (said in words: a sign before a bare number may bound a score or a count,
            # "patients <24 on the MoCA", "(>30)")
            and _AGE_BOUND_WORD.match(text, found.value_start) is not None
            and (
                _PEOPLE.fullmatch(name)
                or (
                    not name
                    and (
                        _PEOPLE_RIGHT_BEFORE.search(text, 0, found.start)
                        # (the people already read off the phrase: "[people] over 70")
                        or text.strip(" ,;.") == text[found.start : found.end]
                    )
                )
            )
        ):
            # "people over 70", "women under 50": a bare number right after the people is
            # their age, counted in years as "aged ≥50" is (the golds' reading since
            # written12); they stay
            if name:
                start = text.rfind(" ", 0, found.value_start) + 1
            normalized, name, found = "age", "", replace(found, unit="years")
        elif (
            found.unit in (None, "years")
            and _OLDER_THAN.match(text, found.value_start)
            and heuristic_role(abbreviations.normalize(name)) not in ("Procedure", "Medication")
        ):
            # "people older than 40", "diabetes older than 40": older or younger says the
            # number is an age, in years; a state named before it stays a concept of its own
            # (the text before the span); a thing's age ("a bioprosthesis older than 10
            # years") is no patient's
            if name:
                start = found.value_start
            normalized, name, found = "age", "", replace(found, unit="years")
        elif found.unit == "years" and (not name or name.lower() in _AGE_NAMES):
            normalized = "age"
        elif found.unit == "years" and (
            _PEOPLE.fullmatch(name)
            or (
                _OF_AGE.search(text, found.value_start, found.end)
                and not _SOMEONE_ELSE.search(name)
            )
        ):
            # "women <50 years", "diabetes <65 years of age": the age of the patients just
            # named; the group or the state stays a concept of its own
            normalized, name, start = "age", "", found.value_start
        elif found.kind == "class":
            name = name or "NYHA class"
            normalized = (
                "modified world health organization class"
                if re.match(r"m(?:WHO|odified)", name, re.IGNORECASE)
                else "world health organization functional class"
                if re.match(r"W(?:HO|orld)", name, re.IGNORECASE)
                else "new york heart association class"
            )
        elif found.kind == "count" and _AT_LEAST_ONE.match(text, found.start):
            # "at least one high-risk criterion", "one or more risk factors": having one is
            # the criterion, a condition named by the words counted (no number of it); a
            # count in symbols ("≥1 risk factor") stays the number the row sets
            pieces.append(text[cursor : found.start])
            pieces.append(name)
            cursor = found.end
            continue
        elif found.kind == "count":  # "two or more risk factors": how many the patient has
            normalized = "number of " + abbreviations.normalize(name)
        elif (
            found.unit in _TIME_UNITS
            and not _TIMED_QUANTITY.search(name)  # "time from onset <12 h duration": named
            and (
                (lasting := _LASTING.match(name))
                or (name and (lasting := _DURATION_WORD.match(text, found.end)))
            )
        ):
            # "AF lasting <48 h", "chest pain of <12 h duration": how long a state has gone
            # on is its duration, a criterion; the state stays a concept of its own (the
            # text before the span). How long a drug is given or an act goes on is no
            # criterion (contract §2: treatment durations), and goes
            state = lasting["state"] if lasting.re is _LASTING else name
            start = found.start + len(state)
            start += len(re.match(r"\s+of\b|", text[start:])[0])  # "(chest pain) of <12 h duration"
            if lasting.re is _DURATION_WORD:
                end = shown_end = lasting.end()
            if heuristic_role(abbreviations.normalize(state)) in ("Medication", "Procedure"):
                pieces.append(text[cursor:start])
                cursor = end
                continue
            typed = re.search(r"\btype\s+(?:[12]|I{1,2})\s+$", text[: found.start], re.I)
            if typed:  # "type 1 diabetes of >20 years' duration": the grammar took no number
                state = typed[0] + state
            # ("high-degree AVB persisting …": how long the block lasts, whatever its grade)
            normalized = f"{_GRADE_WORDS.sub('', abbreviations.normalize(state))} duration"
            if found.operator == "=" and re.search(r"\b(?:beyond|over)$", name, re.I):
                found = replace(found, operator=">")  # "persisting beyond 3 months"
            name = ""
        elif not name or (
            found.unit in _TIME_UNITS and found.unit != "years" and not _TIMED_QUANTITY.search(name)
        ):
            continue
        else:
            partner = shared_head_partner(text[cursor:start], name)
            if partner is None:  # "STS-PROM or EuroSCORE II >8%": both names, one value
                partner = measured_alternative(text[cursor:start], name, abbreviations)
            head_of = HEAD_OF.search(text, cursor, start) if partner is None else None
            if head_of is not None and len(name.split()) <= 3:
                # "the diameter of the aorta >45 mm": the aorta's diameter, one span
                start, name = head_of.start(), f"{name} {head_of['head']}"
            if partner is not None:  # "renal or iliac artery diameter <4 mm"
                part_start, part_end, part_name, name = partner
                part_start, part_end = cursor + part_start, cursor + part_end
                params.append(
                    measured_parameter(
                        text[part_start:part_end], abbreviations.normalize(part_name), found
                    )
                )
                pieces.append(text[cursor:part_start])
                pieces.append(_PLACEHOLDER.format(start_index + len(params) - 1))
                cursor = part_end
            composite = _COMPOSITE_RISK.search(text, cursor, start)
            if (
                composite is not None
                and partner is None
                and found.unit == "%"  # a rate; "… or heart rate >110 bpm" is a quantity
                and _EVENT_NAME.fullmatch(name)
                and not _MEASURED_WORD.search(name)
            ):
                # "the procedural risk of stroke or death is under 3%": one rate of either
                # event, a single quantity; the "or" is inside its name, no alternative
                start, name = composite.start(), f"{composite[0]}{name}"
            normalized = re.sub(r"(?<=\w)(?:/s|\(s\))\b", "", abbreviations.normalize(name))
            lasting = _LASTING.fullmatch(name) if found.unit == "ms" else None
            if lasting is not None:  # "a QRS lasting ≥150 ms": the QRS duration
                normalized = f"{abbreviations.normalize(lasting['state'])} duration"
            if name.split()[-1].lower() in _WEIGHING and found.unit in ("kg", "g", "lb"):
                # "patients weighing <60 kg": the patients' body weight, what the value measures
                normalized = "body weight"
            if name.split()[-1].lower() == "scoring" and found.unit is None:
                # "men scoring ≥2 on CHA2DS2-VASc (and women scoring ≥3)": the value is the
                # score's, named after it or, the second time, before; the patients stay
                scored = scored_on(text, end, abbreviations) or (
                    (last_scored, end) if last_scored else None
                )
                if scored:
                    start += name.lower().rindex("scoring")
                    normalized, end = scored
                    last_scored = normalized
        if name and name.lower() in _NAME_STOP:
            continue
        if found.unit == "years" and _FAMILY_HISTORY_OF.search(text, cursor, start):
            # "a family history of sudden death under 40 years": the relative's age at the
            # event, part of the history; no age of the patient
            pieces.append(text[cursor : found.end])
            cursor = found.end
            continue
        params.append(measured_parameter(text[start : shown_end or end].strip(), normalized, found))
        pieces.append(text[cursor:start])
        pieces.append(_PLACEHOLDER.format(start_index + len(params) - 1))
        cursor = last_end = end
    pieces.append(text[cursor:])
    return "".join(pieces), params
