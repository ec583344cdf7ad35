"""When an act is done, how often and for how long, as a row writes it (a part of noise.py's
patterns, applied at their place among them): durations, schedules and time windows of
nothing named are cut out, and the week of a pregnancy an act is done in becomes the
gestational age it applies at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from cardio_assets.logic.lexicon.vocabulary import A_THERAPY

_GESTATION_WEEK = re.compile(
    r",?\s*\b(?P<prep>at|until|by|before|from|after|between)\s+(?:the\s+)?"
    r"(?:around\s+|about\s+|approximately\s+)?"
    r"(?:weeks\s+(?P<weeks_n>\d+)\s+and\s+(?P<last>\d+)"
    # ("from the 12th to the 36th week": a span of weeks, said with ordinals)
    r"|(?P<first>\d+)(?:st|nd|rd|th)\s+(?:week\s+)?(?:to|until|and)\s+(?:the\s+)?"
    r"(?P<until>\d+)(?:st|nd|rd|th)\s*weeks?"
    r"|(?P<n>\d+)(?P<ordinal>st|nd|rd|th)?\s*weeks?)"
    # ("the 2nd week after MI" counts from an event, no week of a pregnancy)
    r"(?!\s+(?:after|following|post)\b)"
    r"(?:\s+of\s+(?P<of>gestation|pregnancy))?\b",
    re.I,
)
# the bound a time "after / despite N months of X" may carry ("at least", "≥", "about"):
# one list for parameters.durations_so_far, which reads such a time, and the act-duration
# rule below, which must leave it to that reader
SO_FAR_BOUND = r"(?:(?:at\s+least|a\s+minimum\s+of|more\s+than|about|approximately)\s+|[≥>]\s?)"
# ("after / despite ≥3 months of X": how long X has been given so far, kept for
# parameters.durations_so_far)
_SO_FAR_LEAD = re.compile(rf"\b(?:after|despite)\s+{SO_FAR_BOUND}?$", re.I)


def kept_after(lead: re.Pattern[str]) -> Callable[[re.Match[str]], str]:
    """A replacement that removes its match, unless the text just before it ends with
    ``lead`` (another rule reads the words there): one check of the preceding words, where
    fixed-width lookbehinds would need one per wording."""
    return lambda m: m[0] if lead.search(m.string, 0, m.start()) else ""


_PREGNANCY_WORD = re.compile(r"\b(?:pregnan\w*|gestation\w*|trimesters?|deliver(?:y|ed))\b", re.I)


def _gestational_age(m: re.Match[str]) -> str:
    named = m["of"] or _PREGNANCY_WORD.search(m.string)  # a pregnancy the row names
    if m["first"] and not named:
        return m[0]  # "from the 2nd to the 6th week of treatment": no pregnancy named
    if not (named or m["ordinal"] or m["weeks_n"]):
        return "" if m["prep"].lower() == "at" else m[0]
    if m["weeks_n"] or m["first"]:  # "between weeks 6 and 12", "from the 12th to the 36th week"
        low, high = (m["weeks_n"], m["last"]) if m["weeks_n"] else (m["first"], m["until"])
        return f" (gestational age between {low} and {high} weeks)"
    operator = {"until": "≤", "by": "≤", "before": "<", "from": "≥", "after": ">"}.get(
        m["prep"].lower(), ""
    )
    return f" (gestational age {operator}{m['n']} weeks)"


# an event a schedule counts from that names nothing the patients had ("after onset", "after
# the onset of symptoms", "after initiation of treatment", "following the procedure", "after
# hospital discharge", "after the (index) event")
_UNNAMED_EVENT = re.compile(
    r"(?:after|following)\s+(?:the\s+)?(?:(?:onset|diagnosis)(?:\s+of\s+(?:the\s+)?(?:symptoms?|"
    r"treatment|therapy))?|procedure|operation|"
    r"(?:hospital\s+)?(?:discharge|admission)|presentation|(?:(?:index|first)\s+)?event|"
    r"(?:index|first)\s+procedure|"
    r"(?:symptom|treatment|therapy)\s+(?:onset|initiation|start)|"
    r"(?:(?:the\s+)?(?:initiation|start|end|completion)\s+of\s+|starting\s+|completing\s+)"
    r"(?:the\s+)?(?:treatment|therapy))\b(?:\s+(?:thereafter|and|then)\b.*)?",
    re.I,
)


# verbs of patients coming that late ("presenting > 48 h after onset": the time since symptom
# onset, parameters.times_since_events), and the onset named with no event of its own
ARRIVING_VERBS = r"presenting|presented|admitted|arriving|arrived|seen"
SYMPTOM_ONSET = r"(?:symptom\s+)?onset(?:\s+of\s+(?:the\s+)?symptoms?)?"
# a state that goes on, right before how long ("symptoms persisting (for)"), or patients who
# come that late
_GOING_ON_OR_ARRIVING_BEFORE = re.compile(
    rf"\b(?:persist\w*|lasting|{ARRIVING_VERBS})(?:\s+for)?\s*$", re.I
)


# a time value right before ("24 h", "3 months")
_TIME_RIGHT_BEFORE = re.compile(
    r"\d\s*(?:h|hours?|min|minutes?|days?|weeks?|months?|years?)\s*$", re.I
)


# a value with its unit right before ("≥6.5%", "140/90 mmHg", "4.9 mmol/L", "… or higher")
_VALUE_RIGHT_BEFORE = re.compile(
    r"(?:\d\s*(?:%|[a-zµ/.²0-9]+(?:/[a-z0-9.²]+)*)?|\bor\s+(?:higher|more|above|greater|lower|"
    r"less|below)|\(\s*\d[^()]*\))\s*$",
    re.I,
)
# how long a state has gone on, up to the value's unit ("persisting for more than 3 months")
_PERSISTING_FOR = re.compile(r"\b(?:persist\w*|lasting)\s+[^,;.]*\d[^,;.\d]*$", re.I)


def unnamed_event(after: str) -> bool:
    """ "after the procedure", "after onset": a time counted from it names no event of the
    patients' own, so it times the act and is no criterion."""
    return _UNNAMED_EVENT.match(after) is not None


# the week of a pregnancy something is done in ("at 36 weeks of gestation", "until the
# 36th week", "between weeks 6 and 12") is the gestational age it applies at, a
# criterion; any other "at N weeks" only times a test
GESTATION_REWRITE: tuple[re.Pattern[str], Any] = (_GESTATION_WEEK, _gestational_age)

# an act put off "for N months after X": the time since X it waits for, a criterion ("for"
# goes, so the time is read as "N months after X" is, and not as how long an act is given)
_PUT_OFF_FOR = re.compile(
    # (never an act not to be put off, "should not be delayed for …", nor "after which")
    r"(?<!\bnot\sbe\s)(?<!\bnever\sbe\s)\b(?P<lead>(?:postponed|deferred|delayed)\s+)for\s+"
    r"(?=(?:at\s+least\s+|≥\s*|>_?\s*|more\s+than\s+|over\s+)?\d[^,;.]{0,25}?\s"
    r"(?:after|following)\b(?!\s+which\b))",
    re.I,
)


DURATION_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    (_PUT_OFF_FOR, r"\g<lead>"),
    # "aspirin for life", "anticoagulation for life": how long it is given, lifelong; no part
    # of its name ("for life-threatening bleeding", with any dash, and "for life support" are
    # what it is for)
    (
        re.compile(
            r"\s+for\s+life(?![\w\-\u2010-\u2015])(?!\s+(?:threatening|support|saving|sustaining)\b)",
            re.I,
        ),
        "",
    ),
    # "anticoagulation with no planned stop date", "without a fixed end date": given on
    # indefinitely, how long, no criterion
    (
        re.compile(
            r"\s+with(?:out|\s+no)\s+(?:an?\s+)?(?:(?:planned|fixed|set|scheduled|"
            r"pre-?specified)\s+)?(?:stop|end|stopping)\s+date\b",
            re.I,
        ),
        "",
    ),
    # how long a state has lasted ("AVB that persists for 24–48 h", "pauses lasting for >3
    # s"): the state's duration, a criterion, read where a state is named with its value
    # ("persisting >6 weeks", parameters.py); the "for" goes, so no rule below takes it for
    # how long a therapy is given
    (
        re.compile(
            r"\b(?:(?:that|which)\s+)?(?:(?P<verb>persist|last)(?:s|ing|ed)?|"
            # ("AF (has been / is) present for more than 24 h": how long it has lasted, the
            # same; never "should be present for 1 h" nor "a nurse present for 24 h", a
            # person's attendance)
            r"(?:(?:(?:has|have|had)\s+been|is|are|was|were)\s+|(?<!\bbe\s)"
            r"(?<!\bsurgeon\s)(?<!\bphysician\s)(?<!\bnurse\s)(?<!\bteam\s)(?<!\bstaff\s)"
            r"(?<!\boperator\s)(?<!\banaesthetist\s)(?<!\bcardiologist\s)(?<!\band\s)"
            r"(?<!\bor\s)(?<=[a-z]\s))"
            r"present)\s+for\s+"
            r"(?=(?:[<>≤≥]\s*|more\s+than\s+|longer\s+than\s+|over\s+|at\s+least\s+)?\d)",
            re.I,
        ),
        lambda m: f"{(m['verb'] or 'last').lower()}ing ",
    ),
    # how long a drug is given after the act the row is about: "for up to 3 h after the
    # procedure" (the procedure named before, no event of the patient's own)
    (
        re.compile(
            r"\bfor\s+(?:up\s+to\s+|at\s+least\s+)?\d+(?:\s*[-–]\s*\d+)?\s*"
            r"(?:days?|weeks?|months?|hours?|h|min|minutes?)\s+(?:after|following)\s+"
            r"(?:the|this|that)\s+(?:procedure|intervention|operation|surgery|implantation)\b",
            re.I,
        ),
        "",
    ),
    # "12 months of DAPT", "at least six weeks of anticoagulation", "3 months or more of
    # optimised therapy": how long a therapy is given, its duration; the therapy stays (not a
    # window, "within 3 months of diagnosis", nor how long a disease has lasted, "10 years of
    # diabetes": only before a therapy's name)
    (
        re.compile(
            # ("after 4–8 weeks of X": how long X has been given so far, a criterion read by
            # parameters.durations_so_far)
            r"(?<!\bwithin\s)(?<!\bfirst\s)(?<!\bthan\s)(?<!\bto\s)(?<!\bpast\s)(?<!\blast\s)"
            r"(?<![\w–-])(?<![–-]\s)"
            r"(?:(?:at\s+least|a\s+minimum\s+of|up\s+to|about|approximately)\s+)?"
            r"(?:\d+|one|two|three|four|six|twelve)\s*(?:[-–]\s*\d+\s*)?"
            r"(?:days?|weeks?|months?|years?)(?:\s+or\s+(?:more|longer))?\s+of\s+"
            rf"(?={A_THERAPY})",
            re.I,
        ),
        kept_after(_SO_FAR_LEAD),
    ),
    # durations: "for 6 months", "for up to 12 months", "within the first week", "within
    # 6–12 weeks"; a window counted from a named event ("within 48 hours of admission") is a
    # criterion and stays, and so does one counted back from now ("a stroke within the past
    # 6 months": the time since the stroke, contract §5)
    (
        re.compile(
            r"\b(?:for|within|during|over(?!\s+\d+\s*years?\b))\s+"
            r"(?:up\s+to\s+|at\s+least\s+|the\s+first\s+|about\s+|approximately\s+|around\s+)?"
            r"(?:(?:days?|weeks?|months?|years?|hours?)\b|\d+(?:\s*[-–]\s*\d+)?\s*"
            r"(?:days?|weeks?|months?|years?|hours?|h|min|minutes?)\b"
            r"(?!\s+(?:of|after|from|following|since)\s))",
            re.I,
        ),
        "",
    ),
    (
        re.compile(
            r"\bfor\s+(?:up\s+to\s+|at\s+least\s+|about\s+|approximately\s+|around\s+)?"
            r"(?:\d+\s*)?(?:days?|weeks?|months?|years?|hours?)\b",
            re.I,
        ),
        "",
    ),
    # durations of a therapy: "for longer than 2 weeks and up to 4 months", "an OAC up to 3
    # months", "anticoagulation beyond 6 months" (not years: "up to 75 years" is an age)
    (
        re.compile(
            r"\s*\b(?:for\s+)?(?:longer|shorter)\s+than\s+\d+\s*(?:days?|weeks?|months?)\b"
            # (not how long a state lasts: "symptoms persisting beyond 3 months", "beyond 20
            # weeks of gestation")
            r"|\s*(?<!persisting\s)(?<!persist\s)(?<!persists\s)(?<!lasting\s)(?<!lasts\s)(?<!last\s)"
            r"\bbeyond\s+(?:the\s+first\s+)?\d+\s*(?:days?|weeks?|months?)\b"
            r"(?!\s+(?:of\s+)?(?:gestation|pregnancy|after|since|from))"
            r"|\s*\b(?:and\s+)?up\s+to\s+\d+\s*(?:days?|weeks?|months?)\b"
            r"(?!\s+(?:of|after|from|following|since|before)\s)",
            re.I,
        ),
        "",
    ),
    # time windows: "less than 40 days after ..." keeps "after ..." (not how long a state or
    # a therapy lasts, "AF lasting less than 48 hours": the parameter rules read that one)
    (
        re.compile(
            r"(?<!\bno\s)(?<!lasting\s)(?<!persisting\s)(?<!lasts\s)(?<!persists\s)(?<!\bof\s)"
            r"\b(?:less|more|fewer)\s+than\s+\d+\s*(?:days?|weeks?|months?|years?|hours?)\s*",
            re.I,
        ),
        "",
    ),
]


# how often, as a word ("yearly", "at least annually", "once-yearly", "six-monthly")
_HOW_OFTEN = (
    r"(?:at\s+least\s+)?(?:(?:once|twice|three|six|two|3|6)-)?"
    r"(?:annually|yearly|biannually|monthly|weekly)"
)


# how often, how soon and how long before: a schedule, no concept of the row
def _after_schedule(m: re.Match[str]) -> str:
    """What stands where a schedule was: a space for one set off by two commas ("X, once
    daily, is"), the comma before it when words go on ("…, once-weekly semaglutide"),
    nothing before a stop."""
    lead_comma = m["lead"].startswith(",")
    if lead_comma and m["close"]:
        return " "
    if lead_comma and re.match(r"\s*[A-Za-z]", m.string[m.end() :]):
        return ", "
    return "," if m["close"] else ""


SCHEDULE_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "empagliflozin once daily": how often a drug is taken, never a concept (a comma that
    # opened the schedule goes with it; one that closes an aside stays)
    (
        re.compile(
            # (not how often an event comes, a criterion: "episodes occurring more than twice
            # weekly", "angina three times a week")
            r"(?<!\bepisodes)(?<!\battacks)(?<!\boccurring)(?<!\brecurring)(?<!\bangina)"
            r"(?<!\bsyncope)(?<!\bsymptoms)(?<!\bpalpitations)(?<!\bthan)(?<!\bleast)"
            r"(?<!\bmost)(?<!\bto)"
            r"(?P<lead>,\s*|\s+)(?:(?:at\s+least|at\s+most|more\s+than|less\s+than|"
            r"no\s+more\s+than|up\s+to)\s+)?"
            r"(?:once|twice|thrice|three\s+times)[\s-](?:a\s+day|daily|per\s+day|a\s+week|weekly|"
            r"per\s+week|nightly)\b(?!\s+(?:activities|life|living|routine)\b)(?P<close>\s*,)?",
            re.I,
        ),
        _after_schedule,
    ),
    # (", taken" left once its "once a day" was read as a frequency, with the comma after it)
    (re.compile(r",\s*(?:taken|given|administered)\s*(?:,|(?=[);]|$))", re.I), ""),
    # "HbA1c ≥6.5% on two separate occasions", ", confirmed on repeated measurement": how
    # often a value must be seen to count, no concept of the row (the value stays)
    (
        re.compile(
            r",?\s*\b(?P<verb>(?:confirmed|measured|documented|recorded|verified)\s+)?"
            r"(?:on|at|by|with|in)\s+(?:at\s+least\s+)?(?:two|three|2|3|repeated|repeat|separate|"
            r"several|multiple|consecutive|serial)\s+(?:(?:separate|different|consecutive)\s+)?"
            r"(?:occasions?|measurements?|visits?|readings?|testing|tests|samples)\b",
            re.I,
        ),
        # (only after the value or the verb: "VT on two occasions" counts events, a criterion)
        lambda m: "" if m["verb"] or _VALUE_RIGHT_BEFORE.search(m.string, 0, m.start()) else m[0],
    ),
    # "mean pressure >20 mmHg at rest", "cyanosis at rest or during exercise": when a value
    # or a sign is taken, no state of its own (a name that carries it, "gradient at rest
    # >30 mmHg", keeps it: the value is not right before)
    (
        re.compile(
            r"\s*\b(?:at\s+rest"
            r"(?P<pair>\s+(?:and|or|and/or)\s+(?:during|on)\s+(?:exercise|exertion))?"
            r"|(?:during|on)\s+(?:exercise|exertion))\b(?!\s+(?:test|echo|stress|testing)\w*)",
            re.I,
        ),
        lambda m: (
            ""
            if (
                _VALUE_RIGHT_BEFORE.search(m.string, 0, m.start())
                # (not a change by so much: "increase EF by 10% during exercise" is one)
                and not re.search(r"\bby\s+\S+\s*$", m.string[: m.start()])
            )
            or m["pair"]  # "at rest or during exercise": either way, after anything
            else m[0]
        ),
    ),
    # "before (or at latest at the time of) X": a second time for the same act
    (
        re.compile(
            r"\s*\(\s*or\s+(?:at\s+(?:the\s+)?latest\s+)?(?:at\s+the\s+time\s+of|during|after|"
            r"before|immediately\s+after)\s*\)",
            re.I,
        ),
        "",
    ),
    # "repeat imaging after 1 year, then every 2 years": when the act is next done, after a
    # span of nothing named (not "after 3 months of therapy", which counts from the therapy)
    (
        re.compile(
            r",?\s*\bafter\s+(?:the\s+first\s+)?(?:\d+|one|two|three|six)\s*(?:years?|months?|weeks?)"
            r"(?=\s*(?:[,;.)]|$|\b(?:in|and|then|if|when)\b))",
            re.I,
        ),
        "",
    ),
    # how often or how soon without a value: "on a regular basis", "within indicated timeframes"
    (
        re.compile(
            r",?\s*\b(?:on\s+an?\s+(?:regular|routine|individual|case-by-case|daily|yearly|"
            r"annual)\s+basis|within\s+(?:the\s+)?(?:indicated|recommended|appropriate)\s+"
            r"(?:time\s*frames?|time\s+windows?|times?)"
            # "in a case-by-case decision", "during the first cycle" (of a cancer therapy)
            r"|(?:in|on|as)\s+an?\s+(?:case-by-case|individuali[sz]ed)\s+(?:decision|manner|approach)"
            # "at 3-year intervals", "at long (5 year) intervals", "at intervals of 2 years"
            r"|(?:at|in)\s+(?:[a-z]+\s+)?(?:\(?\s*\d+(?:[-–]\d+)?[\s-]*(?:years?|months?|weeks?|"
            r"days?)\s*\)?\s*)?intervals(?:\s+of\s+\d+(?:[-–]\d+)?\s*(?:years?|months?|weeks?|days?))?"
            r"|(?:during|in|after)\s+(?:the\s+)?(?:first|second|each|every)\s+(?:\w+\s+)?cycles?"
            # "after each increase of the dose": when a check is repeated
            r"|after\s+(?:each|every|any)\s+(?:[\w\-]+\s+)?(?:increase|change|adjustment|"
            r"escalation)s?(?:\s+(?:of|in)\s+[^,;.()]+)?)\b",
            re.I,
        ),
        "",
    ),
    # "in the long term", "over the short run": when the effect shows, no part of a concept
    (re.compile(r",?\s*\b(?:in|over)\s+the\s+(?:long|short|medium)[\s-]+(?:term|run)\b", re.I), ""),
    # "at 65 years of age" is an age, said as "aged 65 years" (no schedule)
    (re.compile(r"\bat\s+(?=\d+\s*years?\s+(?:of\s+age|old)\b)", re.I), "aged "),
    # a schedule: "at 2, 4, and 9 months after onset, then yearly"; the event it counts from
    # stays when it names a therapy or procedure the patients had ("at 1 and 6 months after
    # the end of chemotherapy", "at 2 and 6 weeks after starting dronedarone"), not when
    # it names none ("after onset", "after initiation of treatment")
    (
        re.compile(
            r",?\s*\bat\s+\d+(?:\s*,\s*\d+)*(?:,?\s+and\s+\d+)?\s*(?:days?|weeks?|months?|years?)"
            r"(?:\s+(?P<event>(?:after|following)\s+"
            r"(?:(?!\s(?:in|among|for|if|when|where|who)\b)[^,;.()])+))?"
            r"|,?\s*\bthen\s+(?:yearly|annually|monthly|every\s+\d*\s*\w+)",
            re.I,
        ),
        lambda m: (
            f" {m['event']}" if m["event"] and not _UNNAMED_EVENT.fullmatch(m["event"]) else ""
        ),
    ),
    # how often as a word: "at least annually", "yearly"; when a test is done: "at baseline
    # and 14 and 28 days". The comma before it goes only when the word ends its phrase: ",
    # yearly imaging" opens the act after a lead clause
    (
        re.compile(
            rf"(?:,(?=\s*{_HOW_OFTEN}\b\s*(?:[,;.)]|$)))?\s*(?<![\w-]){_HOW_OFTEN}\b"
            # ("take aspirin nightly from …": how often, where no noun follows; "nightly
            # angina" is a finding of its own)
            r"|\s*(?<![\w-])nightly\b(?=\s*(?:[,;.()]|$)|\s+(?:from|for|until|at|in|during|"
            r"before|after|with|and|or)\b)"
            r"|,?\s*\bat\s+baseline(?:\s+and\s+(?:\d+\s*(?:,|and)\s*)*\d+\s*"
            r"(?:days?|weeks?|months?))?",
            re.I,
        ),
        "",
    ),
    # "stop aspirin 7 days before surgery": how long before; "before surgery" stays ("within
    # 6 months after X", "in the first 3 months after X" are windows counted from X: the
    # measurement grammar reads them). A bound on a time before goes with it ("stop smoking
    # >4 weeks before"); a bounded time after an event is a criterion, time since the event
    # ("persisting >6 weeks after X"); a time after an event that names nothing of the
    # patients' ("at least 6 weeks after the procedure") only times the act, unless a state
    # persists that long ("symptoms persisting >3 months after onset")
    (
        re.compile(
            r"(?<!within)(?<!within\s)(?<!first)(?<!first\s)"
            r"\s*(?P<bound>[<>≤≥]\s?|\b(?:at\s+(?:least|most)|up\s+to|"
            r"(?:more|less)\s+than|a\s+minimum\s+of)\s+)?\b\d+(?:\s*[-–]\s*\d+)?\s*"
            r"(?:days?|weeks?|h|hours?|months?)\s+"
            r"(?=(?P<event>before|after|prior\s+to|following)\b(?P<what>[^,;.()]*))",
            re.I,
        ),
        lambda m: (
            m[0]
            if m["event"].lower() in ("after", "following")
            and (
                not _UNNAMED_EVENT.match(m["event"] + m["what"])
                or (m["bound"] and _GOING_ON_OR_ARRIVING_BEFORE.search(m.string[: m.start()]))
            )
            else " "
        ),
    ),
    # "after the event", "after onset": counted from nothing the row names, what is left once
    # the time before it went is no concept (a window, "within 24 h after onset", stays; how
    # long a state has lasted, "persisting >3 months after onset", is read without it)
    (
        re.compile(
            r",?\s*\b(?:after|following)\s+(?:the\s+)?(?:(?:index|first)\s+)?"
            rf"(?:event|{SYMPTOM_ONSET})\b(?!\s+of\b)",
            re.I,
        ),
        lambda m: (
            m[0]
            if _TIME_RIGHT_BEFORE.search(m.string, 0, m.start())
            and not _PERSISTING_FOR.search(m.string, 0, m.start())
            else ""
        ),
    ),
]
