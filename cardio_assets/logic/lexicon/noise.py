"""What a recommendation row loses before its sentences are parsed: reference markers,
doses and schedules, durations, "regardless of ..." clauses, pointers to tables and
sections, feasibility hedges. None of them is a concept (the contract, section 2), and left
in place they read like parameters ("Aspirin 75-100 mg") or conditions ("6 months").
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.noise_acts import ACT_COURSE_REWRITES
from cardio_assets.logic.lexicon.noise_amounts import AMOUNT_REWRITES, DOSE_SIZE_REWRITES
from cardio_assets.logic.lexicon.noise_causes import CAUSE_REWRITES
from cardio_assets.logic.lexicon.noise_hedges import HEDGE_REWRITES
from cardio_assets.logic.lexicon.noise_lists import CRITERIA_LIST_REWRITES, LIST_REWRITES
from cardio_assets.logic.lexicon.noise_reasons import NO_AS_WITHOUT, REASON_REWRITES
from cardio_assets.logic.lexicon.noise_survival import SURVIVAL_REWRITES
from cardio_assets.logic.lexicon.noise_targets import TARGET_REWRITES
from cardio_assets.logic.lexicon.noise_time import (
    DURATION_REWRITES,
    GESTATION_REWRITE,
    SCHEDULE_REWRITES,
    kept_after,
)
from cardio_assets.logic.lexicon.noise_words import (
    _COMPARED_AMOUNT,
    _DOSE_FREQUENCY,
    _DOSE_WORDS,
    _LIST_ITEM,
    _PLAIN_ITEM,
    _WEIGHED,
    _WEIGHED_AFTER_VERB,
    _WEIGHED_IN_BRACKETS,
    TREATED_PATIENTS,
)
from cardio_assets.logic.lexicon.role_words import CLASS_BEFORE_DRUG, heuristic_role
from cardio_assets.logic.lexicon.vocabulary import _PATIENT_WORDS

# a time with its unit ending the text before a phrase ("within 24 h")
_TIME_BEFORE = re.compile(r"\d\s*(?:h|hours?|min|minutes?|days?|weeks?|months?)\s*$", re.I)
# one item of a short list: up to three words, none of them "and" / "or"
_SHORT_ITEM = r"(?!(?:and|or)\b)[A-Za-z][\w\-]*(?:\s+(?!(?:and|or)\b)[A-Za-z][\w\-]*){0,2}"


_COUNTED_FROM = re.compile(r"\s+(?:after|following|since)\s", re.I)
# "persisting for 4 weeks": the time after it is how long a state has lasted (noise_time.py)
_LASTED_BEFORE = re.compile(r"\b(?:last(?:s|ed|ing)?|persist(?:s|ed|ing)?)\s$", re.I)


def _duration_unless_window(m: re.Match[str]) -> str:
    """ "for the first 3 months (after X)" is how long the act goes on: dropped; "during /
    in the first 6 months after X" is a window counted from X, a criterion: kept."""
    return m[0] if not m["for"] and _COUNTED_FROM.match(m.string, m.end()) else ""


_NOISE_PATTERNS: list[tuple[re.Pattern[str], Any]] = [
    # citation numbers glued to a word inside the sentence ("is recommended19 before",
    # "in pregnancy263"): the ingestion moves those at the end; a unit ("kg/m2") has fewer
    # than four letters before its digit
    (re.compile(r"(?<=[a-z]{4})\d{1,3}(?:[,–-]\d{1,3})*(?=[\s,;)]|$)"), ""),
    # ... or glued to an abbreviation ("DAPT863"): names that carry digits carry one or two
    # ("P2Y12", "SCORE2")
    (re.compile(r"(?<=[A-Z]{3})\d{3,4}(?=[\s,;.)]|$)"), ""),
    # a footnote letter glued after a comma ("for HTAD,c genetic counselling"): a word after
    # a comma is printed after a space
    (re.compile(r"(?<=[A-Za-z)]),[a-h](?=\s)"), ","),
    # "If X, then Y is recommended": "then" opens the recommendation, no part of it
    (re.compile(r"(?<=,)\s+then\s+(?=[A-Za-z])", re.I), " "),
    # a footnote letter glued to the value that ends the row ("score >32.e", ">22e"): no
    # unit is a lone letter a-g after a number
    (re.compile(r"(?<![A-Za-z])(\d+(?:[.,]\d+)?)\.?[a-g]\.?\s*$"), r"\1"),
    # when around an operation, not for whom: "continue aspirin peri-operatively",
    # "measure haemoglobin pre-operatively" (the adjective, "pre-operative assessment", stays)
    (
        re.compile(
            r",?\s*\b(?:from\s+)?(?:pre|post|peri|intra)-?(?:operatively|procedurally)\b", re.I
        ),
        "",
    ),
    # shock energy says how strong, like a dose: "(≤150 J biphasic)", "a 200 J shock"
    (
        re.compile(
            r"\s*\(\s*[<>≤≥]?\s*\d+(?:\s*[-–]\s*\d+)?\s*J(?:\s+(?:biphasic|monophasic))?\s*\)"
            r"|\s*\b[<>≤≥]?\s*\d+(?:\s*[-–]\s*\d+)?\s*J\b(?:\s+(?:biphasic|monophasic))?"
        ),
        "",
    ),
    # "at a diameter ≥45 mm, otherwise ≥50 mm": the other value of the same quantity, for
    # the other patients
    (re.compile(r",\s*otherwise\s+(?=[<>≤≥])", re.I), ", or "),
    # "ahead of / after the procedure": when, counted from an act the row has named already
    # ("the procedure" points back), no concept of its own; a time window before it ("within
    # 24 h after the procedure") is a criterion the measurement grammar reads, and stays
    (
        re.compile(
            r",?\s*\b(?:ahead\s+of|before|prior\s+to|after|during)\s+the\s+(?:procedure|"
            r"intervention|operation)\b",
            re.I,
        ),
        lambda m: m[0] if _TIME_BEFORE.search(m.string, 0, m.start()) else "",
    ),
    # when, not for whom: "at diagnosis", "at the first evaluation", "at the earliest"
    (
        re.compile(
            r",?\s*\bat\s+(?:the\s+)?(?:(?:first|initial)\s+)?(?:diagnosis|presentation|"
            r"evaluation|assessment|visit)\b|,?\s*\bat\s+the\s+(?:earliest|latest)\b",
            re.I,
        ),
        "",
    ),
    # "in the (initial) evaluation of patients with X", "for (the best) work-up and
    # management of the patients": the care setting the row speaks in, no act of its own;
    # the patients and what they have are read as usual
    (
        re.compile(
            r"\b(?P<lead>in|during|for)\s+(?:the\s+)?(?:(?:initial|first|diagnostic|optimal)\s+)*"
            r"(?:evaluation|work-?up|assessment|management)(?:\s+and\s+(?:evaluation|work-?up|"
            r"assessment|management))?\s+of\s+(?=(?:all\s+)?(?:patients|individuals|"
            r"people|women|men|adults|children)\b)",
            re.I,
        ),
        lambda m: "in " if m["lead"].lower() == "for" else f"{m['lead']} ",
    ),
    # how often or how much, not for whom: "at every clinical visit", "at each encounter",
    # "(not tolerated) at any dosage", "at any time of follow-up"
    (
        re.compile(
            r",?\s*\b(?:at|during)\s+(?:every|each|any)\s+(?:(?:clinical|follow-up|outpatient|"
            r"routine)\s+)?(?:doses?|dosages?|visits?|encounters?|consultations?|contacts?|"
            r"time(?:\s+(?:of|during)\s+follow-up)?)\b",
            re.I,
        ),
        "",
    ),
    # "(imaging is advised) at baseline and during follow-up": when the act is
    # done, no act of its own ("during follow-up of X" names what is followed up)
    (
        re.compile(
            r",?\s*\b(?:at\s+baseline\s+and\s+)?during\s+(?:the\s+)?(?:(?:long-term|regular)\s+)?"
            r"follow-up(?:\s+period)?(?=\s*(?:[,;.)]|$)|\s+(?:in|with|and|or|at|to)\b)",
            re.I,
        ),
        "",
    ),
    # "It is recommended, if X, that Y": the condition set off between the framing and its
    # "that" is read where it usually stands, after what is recommended ("It is recommended
    # that Y, if X")
    (
        re.compile(
            r"^(?P<frame>it\s+(?:is|should\s+be)\s+(?:recommended|indicated|considered)),\s*"
            r"(?P<clause>(?:if|when)\s+[^,;]+),\s*(?P<rest>that\s+[^;]+?)(?P<end>\.?)\s*$",
            re.I,
        ),
        lambda m: f"{m['frame']} {m['rest']}, {m['clause']}{m['end']}",
    ),
    # "hyperglycaemia (defined as glucose ≥11.1 mmol/L)": the bracket gives the criterion
    (re.compile(r"\(\s*(?:defined|diagnosed)\s+as\s+", re.I), "("),
    # how often or in how many cases, not for whom: "not recommended routinely", "may be
    # considered in selected cases" ("routine X" stays: the adjective names the practice)
    (
        re.compile(
            r",?\s*\b(?:routinely|systematically)\b(?!\s+(?:in|for)\s)|,?\s*\(?\bin\s+(?:a\s+few|some|"
            r"selected|rare|exceptional)\s+(?:instances|cases|situations)\b\)?(?!\s+of\b)",
            re.I,
        ),
        "",
    ),
    # "in suspected cases of X", "in confirmed cases of X": the certainty is said of X, read
    # as "in cases of suspected X" (a list after it keeps its first item's word only)
    (
        re.compile(
            r"\b(?P<how>(?:suspected|confirmed|proven|documented|definite|probable)"
            r"(?:\s+(?:or|and|and/or)\s+(?:suspected|confirmed|proven|documented|definite|probable))?)"
            r"\s+cases\s+of\s+",
            re.I,
        ),
        lambda m: f"cases of {m['how']} ",
    ),
    # "X are second-line tests for the diagnostic work-up in Y": the tests' rank, no concept;
    # X is the act, Y the patients' state
    (
        re.compile(
            r"\s+(?:is|are)\s+(?:the\s+|an?\s+)?(?:first|second|third)[-\s](?:line|level|choice)\s+"
            r"(?:tests?|testing|imaging|investigations?|examinations?|modalit(?:y|ies))\b"
            r"(?:\s+for\s+(?:the\s+)?(?:diagnostic\s+)?(?:work-?\s?up|evaluation|assessment))?"
            r"(?=\s+(?:in|of|for)\b|\s*[.;]?$)",
            re.I,
        ),
        "",
    ),
    *SURVIVAL_REWRITES,
    # "the same indications for X (as in ...)", "X, with the same recommendations (as for
    # ...)": X is recommended as it is elsewhere; "the same" names nothing
    (
        re.compile(
            r"\b(?:with\s+)?the\s+same\s+(?:indications?|criteria|recommendations?)"
            r"(?:\s+(?:for|of)\b|(?=\s+as\b))\s*",
            re.I,
        ),
        "",
    ),
    *TARGET_REWRITES,
    # "X should be similar to that for patients with AF": X is recommended as it is for them
    (re.compile(r"\b(?:should|must)\s+be\s+(?=similar\s+to\b)", re.I), "is recommended "),
    # "12 h after the last dose of X": when the act comes after a drug was stopped times the
    # act, no criterion of the patients (the dose words go next)
    (
        re.compile(
            r"\s*\b\d+(?:\s*[-–]\s*\d+)?\s*(?:h|hours?|days?)\s+(?=(?:after|following)\s+"
            r"(?:the\s+)?(?:last|final)\s+(?:dose|intake|administration)\b)",
            re.I,
        ),
        " ",
    ),
    # "on a maximum tolerated dose of a statin", "the last dose of apixaban", "an adequate
    # dose of a calcium blocker": how much of the drug, or which dose, not another drug
    (
        re.compile(
            rf"\b(?:(?:an?|the)\s+)?(?:(?:{_DOSE_WORDS})\s+){{0,3}}dos(?:e|es|age)\s+of\s+"
            r"(?=[A-Za-z])",
            re.I,
        ),
        "",
    ),
    # "a single bolus of heparin", "an i.v. bolus of X": how the drug is given, not which
    (
        re.compile(
            r"\b(?:an?\s+)?(?:single\s+)?(?:i\.v\.\s+|intravenous\s+)?bolus(?:\s+of)?\s+(?=[A-Za-z])",
            re.I,
        ),
        "",
    ),
    # "mild (or moderate) stenosis": the bracketed word is an alternative modifier of the
    # same head, read as "mild or moderate stenosis" (the head is then shared)
    (
        re.compile(r"\b(?P<a>[a-z][a-z\-]+)\s+\(\s*or\s+(?P<b>[a-z][a-z\-]+)\s*\)\s+(?=[a-z])"),
        r"\g<a> or \g<b> ",
    ),
    CLASS_BEFORE_DRUG,
    # "—including blood pressure and diabetes—": an aside between dashes, read as brackets
    (re.compile(r"\s*—\s*([^—]{3,120}?)\s*—\s*"), r" (\1) "),
    GESTATION_REWRITE,
    # "walking, along with stretching, is recommended": both are
    (re.compile(r",?\s+(?:along|together)\s+with\s+", re.I), " and "),
    # "in order to X" states a purpose as "to X" does
    (re.compile(r"\bin\s+order\s+to\b", re.I), "to"),
    # reference markers: [12], [3-5]
    (re.compile(r"\[\d+(?:[,–-]\s*\d+)*\]"), " "),
    # a list in square brackets ("markers of risk [(i) A; (ii) B]") is an aside like one in
    # round brackets: its items name the head's kinds
    (re.compile(r"\[([^\[\]]*[A-Za-z]{3}[^\[\]]*)\]"), r"(\1)"),
    # the words that introduce a dose: "at a reduced maintenance dose of 60 mg", "with an
    # initial oral loading dose of 300 mg" (the amount itself goes with the next pattern)
    (
        re.compile(
            r",?\s*\b(?:at|with|in)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,4}?doses?\s+of\s+(?=\d)",
            re.I,
        ),
        " ",
    ),
    # doses: "75–100 mg daily", "75 mg once daily", "2 g b.i.d.", "5 mg q.d.", "6 mg i.v. bolus",
    # "70–100 U/kg", "75 mg/day";
    # never a concentration ("55 mg/dL", "10 g/dL": the unit goes on after a slash)
    (
        re.compile(
            r"\s*\b\d+(?:[.,]\d+)?(?:\s*(?:[-–]|to)\s*\d+(?:[.,]\d+)?)?\s*"
            # ("U" is a dose unit except in "4 U of red cells", units of a blood product)
            # ("mL/min" is a clearance and "mL/kg/min" an oxygen uptake: measures, no doses)
            r"(?:mg|g|µg|μg|mcg|IU|U(?!\s+of\b)|mL(?!\s?/\s?(?:kg\s?/\s?)?min)|units?)"
            r"(?:/kg)?(?:/(?:h|hr|hour|min|day))?\b(?!\s?/)"
            r"(?:\s+(?:i\.?v\.?|p\.?o\.?|s\.?c\.?|orally|oral|intravenous(?:ly)?|bolus|"
            r"loading(?:\s+dose)?))*"
            rf"(?:\s+{_DOSE_FREQUENCY})?\.?(?=\W|$)",
            re.I,
        ),
        # a volume or a daily dose after a comparison is measured, not given: "blood loss
        # ≥500 mL", "a warfarin dose of <5 mg/day"
        lambda m: m[0] if _COMPARED_AMOUNT.match(m.string, 0, m.end()) else "",
    ),
    # "every 3 months and within 6 months after stopping treatment": the last check of a
    # schedule, told after its repeats; when the act is done, not whom it is for
    (
        re.compile(
            r"(\bevery\s+[^,;.()]*?)\s+and\s+within\s+\d+\s*(?:days?|weeks?|months?|years?)\s+"
            r"after\s+(?:(?!\b(?:should|may|must|is|are|in|for|among|with)\b)[^,;.()])+",
            re.I,
        ),
        r"\1 ",
    ),
    # how often: "every 4–12 weeks", "every two cycles" (of chemotherapy), "once a month",
    # "twice a year"
    (
        re.compile(
            r"\b(?:every|each)\s+(?:(?:\d+(?:\s*(?:[-–]|or|to)\s*\d+)?|other|two|three|four|five|"
            r"six|twelve)\s*)?(?:days?|weeks?|months?|years?|hours?|h|cycles?)\b"
            r"|(?P<open>\()?\b(?:less\s+than\s+|more\s+than\s+|at\s+least\s+)?"
            r"(?:once|twice|\d+(?:\s*[–-]\s*\d+)?\s+times)\s+"
            r"(?:a|per|every)\s+(?:day|week|month|year)\b(?(open)\))",
            re.I,
        ),
        "",
    ),
    *REASON_REWRITES,
    *LIST_REWRITES,
    NO_AS_WITHOUT,  # (again: the lists' "neither A nor B" is "no A or B" now)
    # "A and, if this fails, B": B is the next act to try, no state of the patients
    (
        re.compile(
            r"\s+and,?\s+if\s+(?:these|this|it|they|that)\s+(?:fails?|(?:is|are)\s+"
            r"(?:unsuccessful|ineffective|not\s+effective)),?\s+",
            re.I,
        ),
        " and ",
    ),
    # "(even after rechallenge)": a bracketed concession adds no criterion
    (re.compile(r"\s*\(\s*even\s+[^()]*\)", re.I), ""),
    # "even if there is no X", ", even when on beta-blockers,", "although X": a concession says the row
    # holds whether or not, so, like "regardless of", the clause names no criterion
    (re.compile(r",?\s*\b(?:even\s+(?:if|when|though)|although)\b[^,;.]*", re.I), ""),
    # "even in / after / with X": the emphasis says nothing; X stays
    (re.compile(r"\beven\s+(?=(?:in|after|with|without)\b)", re.I), ""),
    # "an established relationship between A and B": the patient has both, A and B (the
    # golds name each); "a correlation between …" stays one finding
    (
        re.compile(
            r"\b(?:(?:an?|the)\s+)?(?:(?:established|documented|proven|clear|causal)\s+)?"
            r"relationship\s+between\s+(?=\S)",
            re.I,
        ),
        "",
    ),
    # how to choose, not whom: "(depending on availability)", "according to symptoms", a
    # plain list too ("according to age, kidney function, and frailty"); it ends before the
    # verb or the patients of the row ("X according to Y is recommended in patients with Z")
    (
        re.compile(
            r",?\s*\(?\b(?:depending\s+on|according\s+to|as\s+per|in\s+accordance\s+with|"
            r"adapted\s+to|tailored\s+to)"
            rf"\s+(?:(?:{_LIST_ITEM},\s*)+(?:and|or)\s+)?{_PLAIN_ITEM}\)?",
            re.I,
        ),
        " ",
    ),
    # what a decision weighs, not whom it is for: "…, based on the clinical status and
    # comorbidities", "with consideration of X, Y and Z", "after discussing the risks";
    # "the diagnosis is based on X" (X is the act) and "based on the presence of X" (a
    # state the patient has) stay; "the choice of X is based on A, B and C" goes below
    (
        re.compile(
            rf",?\s*(?:\(\s*{_WEIGHED_IN_BRACKETS}\s*\)|{_WEIGHED})",
            re.I,
        ),
        " ",
    ),
    # "the choice of X is based on A, B and C": the choice stays, what it weighs goes
    (re.compile(_WEIGHED_AFTER_VERB, re.I), r"\g<subject> "),
    # "… should be considered first.": the order word after the verb says when, names nothing
    (
        re.compile(
            r"\b(?P<verb>recommended|considered|indicated|performed)\s+(?:first|initially)"
            r"(?=\s*(?:[.;,]|$))",
            re.I,
        ),
        r"\g<verb>",
    ),
    # "to replace A with B" says what "to switch from A to B" says; "with" would otherwise
    # read as a co-therapy (the switch itself is read in phrases.py)
    (
        re.compile(
            r"\b(?P<to>to\s+)?replac(?:e|ing)\s+"
            r"(?P<old>(?:(?!(?:with|in|for|who|which|when|if|to|patients?|people)\b)"
            r"[^\s,;.()]+\s+){1,5}?)"
            r"with\s+(?=\S)",
            re.I,
        ),
        lambda m: f"{m['to'] or ''}switch from {m['old']}to ",
    ),
    *HEDGE_REWRITES,
    # when to stop, not whom: "until blood pressure is controlled", "until symptoms resolve";
    # "until 3 months after a stroke": the wait is no concept, the event it counts from is;
    # the clause runs on over a short list ("until normalization of CRP, ECG and echo") and
    # stops where the patients are named ("until discharge in patients with X")
    (
        re.compile(
            rf",?\s*\buntil\s+(?:(?!\s(?:in|for|among)\s+(?:\w+\s+){{0,2}}?{_PATIENT_WORDS}\b)[^,;.()])+(?:(?:,\s*{_SHORT_ITEM})+,?\s+(?:and|or)\s+{_SHORT_ITEM}"
            r"(?=\s*(?:[,;.()]|$)))?",
            re.I,
        ),
        lambda m: _events_waited_from(m[0]),
    ),
    # how soon, not whom: "without delay", "without undue delay"
    (re.compile(r",?\s*\bwithout\s+(?:undue\s+|further\s+|any\s+)?delay\b", re.I), ""),
    # durations with a bound: "for a minimum of 4 weeks", "over at least the next 6 months"
    (
        re.compile(
            r"\b(?:for|over(?!\s+\d+\s*years?\b)|during)\s+"  # "over 70 years": an age
            r"(?:a\s+(?:minimum|maximum|period)\s+of\s+)?(?:at\s+(?:least|most)\s+|up\s+to\s+)?"
            r"(?:the\s+(?:next|first|following)\s+)?\d+(?:\s*[-–]\s*\d+)?\s*"
            r"(?:days?|weeks?|months?|years?|hours?|h)\b(?!\s+(?:of|after|from|following|since)\s)"
            r"(?:\s+or\s+(?:longer|more)\b)?",  # "… 21 days or longer": one open duration
            re.I,
        ),
        # (not how long a state has lasted: "persisting for 4 weeks", noise_time.py)
        kept_after(_LASTED_BEFORE),
    ),
    # "for stroke prevention" says what is prevented, as "for the prevention of stroke" does
    (
        re.compile(
            r"\bfor\s+(?!the\b|primary\b|secondary\b)((?:[\w\-]+/)?[\w\-]+(?:\s+[\w\-]+)?"
            # ("for stroke or systemic embolism prevention": both are prevented)
            r"(?:\s+(?:or|and)\s+(?!the\b)[\w\-]+(?:\s+[\w\-]+)?)?)"
            # ("long-term secondary prevention": the kind of prevention, nothing prevented)
            r"(?<!primary)(?<!secondary)\s+prevention\b"
            r"(?P<disease>\s+in\s+(?!(?:patients|individuals|people|adults|women|men|children|"
            r"those|the|an?|all|primary|secondary|general)\b))?",
            re.I,
        ),
        # ("stroke prevention in AF": a disease right after it names the patients the row is
        # for, not where the event is prevented)
        lambda m: (
            "for the prevention of "
            + m.group(1).replace("/", " and ")
            + (" in patients with " if m["disease"] else "")
        ),
    ),
    # when a test is repeated: "at 24 h and 48 h afterwards"
    (
        re.compile(
            r"\s*\b(?:and\s+)?at\s+\d+\s*(?:h|hours?|days?)(?:\s+(?:and|or)\s+\d+\s*"
            r"(?:h|hours?|days?))?(?:\s+(?:afterwards?|later|after))?\b",
            re.I,
        ),
        "",
    ),
    # bullets inside one row ("• they are symptomatic • OR ..."): a list, read as commas
    (re.compile(r"(?:[.;]?\s*[•▪◦‣]\s*)+"), ", "),
    (re.compile(r"(?<=,)\s+OR\s+"), " or "),
    # "intermediate- and high-risk surgery": written "intermediate-/high-risk surgery", which
    # the logic split reads as two modifiers sharing one head (two alternatives, one label)
    (re.compile(r"\b(\w+)-\s+(?:and|or|and/or)\s+(?=(?:very\s+)?\w+-)", re.I), r"\1-/"),
    # ... the prefixes listed before them too ("first-, second- or third-degree")
    (re.compile(r"\b(\w+)-,\s+(?=(?:\w+-,\s+)*\w+-/)", re.I), r"\1-/"),
    # ... and two risk grades written out: "high-risk and very high-risk patients" are in one
    # grade or the other ("pre-operative and post-operative changes" are both made)
    (re.compile(r"\b(\w+)-risk\s+(?:and|or|and/or)\s+(?=(?:very\s+)?\w+-risk\b)", re.I), r"\1-/"),
    # "X, together with Y, is recommended": both are recommended, as with "and"
    (re.compile(r",?\s+together\s+with\s+", re.I), " and "),
    # "… and there is concomitant OH", "provided there are no X": after a conjunction,
    # "there is / are" only says the state is present; the state stays ("there is no X"
    # keeps its "no"); after "as / since / because" the clause is a reason and is left as it is
    (
        re.compile(
            r"(?:(?<=\band\s)|(?<=\bor\s)|(?<=\bif\s)|(?<=\bwhen\s)|(?<=\bunless\s)|(?<=\bwhere\s)"
            r"|(?<=\bprovided\s)|(?<=\blong\sas\s)|(?<=\bthat\s))"
            r"there\s+(?:is|are|was|were|has\s+been|have\s+been)"
            r"\s+(?=\S)",
            re.I,
        ),
        "",
    ),
    # "X have a neutral effect on Y, and should be considered for Z": what the
    # drug does is the rationale; the recommendation is "X should be considered for Z"
    (
        re.compile(
            r"\s+(?:has|have)\s+(?:an?\s+)?(?:neutral|beneficial|favou?rable|positive|proven)\s+"
            r"effects?\s+on\s+[^,;.]+,?\s+and(?=\s+(?:should|may|is|are|can)\b)",
            re.I,
        ),
        "",
    ),
    # "(with or without ICD)", "in patients with and without diabetes": either way, so not
    # a criterion
    # (it ends before a verb or a relative clause: "… with and without diabetes who have CAD")
    (re.compile(rf"\s*\(?\bwith\s+(?:or|and)\s+without\s+{_PLAIN_ITEM}\)?", re.I), " "),
    # "symptomatic or asymptomatic X": both poles, so the state restricts nothing
    (re.compile(r"\b(?:a?symptomatic)\s+(?:or|and/or|and)\s+(?:a?symptomatic)\s+", re.I), ""),
    # "in non-athletes and athletes with X": a group and its complement are everyone, so the
    # pair names no group ("fatal and non-fatal events", a pair before its noun, stays)
    (
        re.compile(
            r"\b(?:non-?(?P<a>[a-z]{3,}?)s?\s+(?:and|or|and/or)\s+(?P=a)s?"
            r"|(?P<b>[a-z]{3,}?)s?\s+(?:and|or|and/or)\s+non-?(?P=b)s?)"
            r"(?=\s+(?:with|who|in|at|after)\b|\s*[,.;]|\s*$)",
            re.I,
        ),
        "patients",
    ),
    *DURATION_REWRITES,
    *DOSE_SIZE_REWRITES,
    # ", at the highest tolerated doses (if not contraindicated), is advised": a bracket
    # left alone between commas is an aside of the words before it, not a phrase of its own
    (re.compile(r",\s*(\([^()]*\))(?=\s*,)"), r" \1"),
    # "(unless contraindicated)": the row is for patients without a contraindication ("unless
    # absolutely / relatively contraindicated": without one of that kind)
    (
        re.compile(
            r"\bunless\s+(?:otherwise\s+)?(?:(?P<how>absolute|relative)ly\s+)?contraindicated\b",
            re.I,
        ),
        lambda m: f"unless {m['how'].lower() + ' ' if m['how'] else ''}contraindication",
    ),
    # "myocardial ischaemia on non-invasive testing": the test category only qualifies
    (
        re.compile(
            r"\s+on\s+(?:non-invasive|invasive|stress)?\s*(?:testing|imaging|tests?)\b", re.I
        ),
        "",
    ),
    # ", in particular X,": emphasis on one of those named; X stays an item of the list
    (re.compile(r",\s*in\s+particular\s+", re.I), ", "),
    *AMOUNT_REWRITES,
    # "(at least) during the first 6 months of therapy", "for the first 6 cycles": how long
    # the act goes on, a duration, also "for the first 3 months after surgery"; "during / in
    # the first 6 months after MI" is a window counted from the event (contract §5), kept
    (
        re.compile(
            r",?\s*(?:at\s+least\s+)?\b(?:(?P<for>for|over)|during|in)\s+the\s+first\s+"
            r"\d+(?:\s*[–-]\s*\d+)?\s*(?:days?|weeks?|months?|years?|cycles?)\b"
            r"(?:\s+of\s+(?:therapy|treatment))?",
            re.I,
        ),
        _duration_unless_window,
    ),
    # three or more drugs joined by slashes ("aspirin/NSAIDs/colchicine") are alternatives,
    # not one fixed-dose pair ("sacubitril/valsartan" stays whole)
    (
        re.compile(r"\b[A-Za-z][\w\-]*(?:/[A-Za-z][\w\-]*){2,}\b"),
        lambda m: _drugs_as_alternatives(m[0]),
    ),
    *ACT_COURSE_REWRITES,
    # "X, ultimately aiming at an LDL-C <1.4 mmol/L": the goal X is given to reach
    (
        re.compile(r",?\s+(?:(?:ultimately|eventually)\s+)?aiming\s+(?:at|for)\s+", re.I),
        " to reach ",
    ),
    # "to follow up patients": the act is their follow-up (the patients are the row's own)
    (
        re.compile(
            r"\bto\s+follow[\s-]up\s+(?:the\s+|all\s+|these\s+)?(?:patients|them|individuals|people)\b",
            re.I,
        ),
        "to perform follow-up",
    ),
    # "an SGLT2 inhibitor with proven CV benefit": the named drug's known benefit, a reason,
    # not a kind of it ("agents with proven benefit" says which agents and stays)
    (
        re.compile(
            r"(?<!\bagents)(?<!\bagent)(?<!\bdrugs)(?<!\bdrug)(?<!\bmedications)(?<!\btherapies)"
            r"\s+with\s+(?:a\s+)?proven\s+(?:[\w\-]+\s+)?(?:benefits?|efficacy)\b",
            re.I,
        ),
        "",
    ),
    # "X, when performed by experienced surgeons / in expert centres": where or by whom X is
    # done (the setting phrase that follows is read as such), not a state of the patient
    (
        re.compile(
            r",?\s*\b(?:(?:when|if|where|provided)\s+(?:it\s+is\s+|they\s+are\s+)?)?"
            r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)"  # ("provided the procedure is performed in …")
            r"(?:performed|done|undertaken|carried\s+out)\s+(?=(?:in|at|by)\s+(?:an?\s+|the\s+)?"
            r"(?:experienced|expert|speciali[sz]ed|dedicated|high-volume|tertiary|specialist|"
            r"referral|multidisciplinary)\b)",
            re.I,
        ),
        " ",
    ),
    # "individuals who exercise regularly / on a regular basis": the habit is regular exercise
    (
        re.compile(r"\b(?:exercise|train)\s+(?:on\s+a\s+regular\s+basis|regularly)\b", re.I),
        "regular exercise",
    ),
    # where a finding was learnt, in brackets: "symptoms (from history)", "(on examination)"
    (
        re.compile(
            r"\s*\(\s*(?:from|on|by|at)\s+(?:the\s+)?(?:(?:patient'?s?|clinical|medical)\s+)?"
            r"(?:history(?:\s+taking)?|examination|physical\s+examination)\s*\)",
            re.I,
        ),
        "",
    ),
    *SCHEDULE_REWRITES,
    # a comparison, not a criterion: "in the same way as for younger patients", "as in
    # patients without syncope", "similar to (that for) patients with AF" (never "AS", the
    # valve disease: "for severe AS in patients with X"; nor "such as in patients on
    # dialysis", examples of what was said before)
    (
        re.compile(
            r",?\s*\b(?:(?:in\s+the\s+same\s+way\s+as|(?<!\bsuch\s)(?-i:as|As))\s+(?:for|in)|similar\s+to"
            r"(?:\s+(?:that|those)\s+(?:for|in|of))?)\s+(?:[\w\-]+\s+){0,2}"
            r"(?:patients|individuals|people|population|adults|persons|setting)\b"
            r"(?:\s+(?:with|without)(?:\s+(?!(?:when|if|who|unless|and|or)\b)[\w\-]+){1,2})?",
            re.I,
        ),
        "",
    ),
    *CRITERIA_LIST_REWRITES,
    # "statin-treated patients": patients on the drug (noise_words.TREATED_PATIENTS)
    (TREATED_PATIENTS, r"\g<who> on \g<drug>"),
    # "in patients with A but not in those with B": B leaves the group out
    (
        re.compile(
            r",?\s*\bbut\s+not\s+(?:in\s+)?(?:those|patients|individuals|people)\s+with\b", re.I
        ),
        " without",
    ),
    # "WHO functional class II": the WHO's class, never the pronoun "who" opening a clause
    (re.compile(r"\bWHO(?=[\s-]+(?:FC\b|functional\s+class))"), "World Health Organization"),
    # "aspirin combined / co-prescribed with clopidogrel": the one given with the other, read
    # as "with"
    (
        re.compile(r"(?<=\w)\s+(?:combined|co-?prescribed|co-?administered)\s+with\s+", re.I),
        " with ",
    ),
    # "referral to an expert centre for ablation": the act is what the patient is referred
    # for ("referral to the heart team", with nothing after it, and a referral for a generic
    # "further evaluation", stay the act)
    (
        re.compile(
            r"\b(?:(?:early|prompt|timely|urgent)\s+)?referral\s+(?:to\s+(?:an?\s+|the\s+)?"
            r"(?:(?!(?:is|are|be|should|may|recommended|considered|indicated)\b)[\w-]+\s+){0,4}?)?"
            r"for\s+"
            r"(?!(?:patients|those|individuals|people|women|men|adults|children)\b)"
            r"(?!(?:(?:further|specialist|expert|additional)\s+)?(?:evaluation|assessment|review|"
            r"management|care|consideration|advice|opinion|investigation)\b)",
            re.I,
        ),
        "",
    ),
    # "not recommended for A, nor for B": B is another case the row is for, like "or for B"
    (re.compile(r",?\s+nor\s+(?=(?:for|in|after|during|when|if)\b)", re.I), ", or "),
    # "A plus B, or either agent plus C": "either / each agent" points back at drugs named
    # before, no drug of its own ("either medication or ablation" offers one: kept)
    (re.compile(r"\b(either|each)\s+(?:agent|drug|medication)\b(?!\s+or\b)", re.I), r"\1 one"),
    # "X followed by Y": both are given, one after the other
    (re.compile(r"\s+followed\s+by\s+", re.I), " and "),
    *CAUSE_REWRITES,
    # when, not whether: "as soon as the diagnosis is established", "as early as possible"
    (re.compile(r",?\s*\bas\s+(?:soon|early|quickly)\s+as\s+[^,;.()]+", re.I), ""),
]


_WAIT = re.compile(
    r"\b(?:at\s+least\s+)?\d+(?:[.,]\d+)?\s*(?:h|hours?|days?|weeks?|months?|years?)\s+(?=after\b)",
    re.I,
)


def _drugs_as_alternatives(slashed: str) -> str:
    names = slashed.split("/")
    if not all(heuristic_role(name.lower()) == "Medication" for name in names):
        return slashed
    return ", ".join(names[:-1]) + ", or " + names[-1]


def _events_waited_from(clause: str) -> str:
    """ "until 3 months after a stroke and 6 months after valve surgery" -> "after a stroke
    and after valve surgery"; any other "until …" clause goes whole."""
    body = re.sub(r"^,?\s*until\s+", "", clause, flags=re.I)
    body = re.split(r"\s+(?:and|or)\s+until\b", body, maxsplit=1, flags=re.I)[0]
    if not _WAIT.match(body):
        return ""  # ("… or until symptoms resolve": a second "until" says when to stop)
    return " " + _WAIT.sub("", body)


def clean_row_text(text: str) -> str:
    """Collapse whitespace; drop reference markers, doses and durations.

    Doses and durations are not concepts of the recommendation graph, and left in
    place they read like parameters ("Aspirin 75–100 mg") or conditions ("6 months").
    """
    text = text.replace("\u00a0", " ").replace("\u2009", " ").replace("\u202f", " ")
    text = text.replace("<br>", " ").replace("\n", " ")
    # a numbered item of a list printed in one cell: "1) ...", "(2) ...", "b) ..."
    text = re.sub(r"^\s*\(?(?:\d{1,2}|[a-h]|[ivx]{1,4})\)\s+", "", text)
    # ... or a dash opening the row as its bullet ("– Drug X in patients …")
    text = re.sub(r"^\s*[–—-]\s+", "", text)
    # Footnote letters glued after punctuation at the end: "considered.a" / "considered.b,c".
    text = re.sub(r"([.;])\s*[a-e](?:\s*,\s*[a-e])*\s*$", r"\1", text)
    # "with – auscultation – ECG – chest X-ray": spaced dashes used as list bullets
    if len(re.findall(r"\s[–—]\s", text)) >= 2:
        text = re.sub(r"\s*(?:,\s*)?[–—]\s+", ", ", text)
    # "for example" / "for instance" after a comma or a bracket lead examples as "e.g."
    # does, and are read as it is ("For example, …" opening a sentence stays a sentence)
    text = re.sub(r"([,(]\s*)for\s+(?:example|instance)\b", r"\1e.g.", text, flags=re.I)
    for pattern, replacement in _NOISE_PATTERNS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+([,.;])", r"\1", text)
    text = re.sub(r"\s+", " ", text).strip(" ,")  # a removed opening phrase leaves its comma
    return text
