"""The phrases that follow a recommendation's head: "in patients with …", "to reduce …",
"if …", "unless …", "over …", "in experienced centres" and the rest, each found by its
marker and sorted into a kind (cohort, outcome, purpose, context, negated, alternative,
co-therapy, setting, …) that the extractor reads in its own way.
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.condition_clauses import THERE_IS, context_clause
from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PATIENT_WORDS, _PURPOSE_VERBS
from cardio_assets.logic.measurements import find_measurements

# Where or by whom the act is done: "in experienced centres", "by an expert team"
_SETTING = (
    r"(?:(?:an?|the)\s+)?(?:(?:experienced|speciali[sz]ed|expert|high-volume|tertiary|trained|"
    r"adequately|"
    r"dedicated|specialist|referral|multidisciplinary|appropriately\s+equipped)\s+)+"
    r"(?:cent(?:re|er)s?|units?|hospitals?|teams?|facilit(?:y|ies)|operators?|surgeons?|"
    r"physicians?|cardiologists?|specialists?)\b"
    r"|(?:an?\s+)?cent(?:re|er)s?\s+with\s+(?:(?:specific|appropriate)\s+)?"
    r"(?:expertise|experience)\b"
)
# what an act is for, as a noun or a gerund after "for": "for the prevention of X", "for
# termination of atrial flutter", "for reversing the effect of X"
_AIM_NOUNS = (
    "reduction|prevention|improvement|relief|termination|conversion|restoration|reversal|control"
)
# how an ended rhythm is ended, kept in the aim: "for acute conversion of X"
_AIM_MANNER = r"(?:(?:acute|rapid|early|immediate|pharmacological|electrical)\s+)?"
# "within 6 months after the end of therapy", "during the first 6 months after X": the
# event a window is counted from, no clause of its own (the measurement grammar reads window
# and event as one parameter)
WINDOW_BEFORE = re.compile(
    r"\b(?:within|(?:(?:during|in)\s+)?the\s+first)\s+(?:the\s+first\s+)?\d+(?:[.,]\d+)?"
    r"(?:\s*[-–]\s*\d+(?:[.,]\d+)?)?\s*(?:h|hours?|min|minutes?|days?|weeks?|"
    r"months?|years?)\s*$",
    re.IGNORECASE,
)
# what a test is meant to find: "to exclude PE", "for the detection of ischaemia"
_DIAGNOSTIC_VERBS = r"detect|confirm|exclude|identify|diagnose|rule\s+out|screen\s+for|establish"
# (not "assessment of": "for assessment of valve function" names what is measured, no disease)
_DIAGNOSTIC_NOUNS = r"detection|diagnosis|exclusion|confirmation|identification|screening"
# "for the prevention and treatment of X", "for the diagnosis and follow-up of X": the care
# named beside an aim shares its object, the aim still names what the row is for
_AND_CARE = (
    r"(?:\s+(?:and|or|and/or)\s+(?:treatment|management|follow-up|monitoring|surveillance))?"
)
_DIAGNOSTIC_GERUNDS = r"detecting|diagnosing|excluding|confirming|identifying|ruling\s+out"
# what a test can look for that is no disease of its own ("the cause of syncope": the
# patient has the syncope; "patients at risk": whom to find)
_NO_DISEASE_WORDS = (
    r"cause|causes|aetiology|etiology|mechanism|extent|severity|risk|need|patients?|"
    r"candidates?|individuals?|those|people|subjects?|whether|if|how"
)
# "in / for the assessment of X", "in the work-up of X": X is what the test looks into (not
# the patients, a cause or a risk, which name no finding)
_ASSESSMENT_OF = (
    r"(?:for|in)\s+the\s+(?:diagnostic\s+)?(?:assessment|evaluation|work-?up|investigation)\s+of\b"
    rf"(?!\s+(?:the\s+|a\s+|an\s+)?(?:{_NO_DISEASE_WORDS})\b)"
)
_DIAGNOSIS_OF = re.compile(
    r"^(?:the\s+|a\s+)?(?:(?:presence|diagnosis|possibility)\s+of\s+(?:an?\s+|the\s+)?)?",
    re.IGNORECASE,
)
# verbs of a second aim after a diagnostic one ("to diagnose and treat X")
_OTHER_AIMS = r"treat|manage|define|grade|follow|prevent|reduce|improve|plan"
_NOT_A_DISEASE = re.compile(rf"^(?:the\s+|a\s+|an\s+)?(?:{_NO_DISEASE_WORDS})\b", re.IGNORECASE)
# therapy given beside the act: "in addition to X", "as an adjunct to X"
_COTHERAPY = (
    r"in\s+addition\s+to|on\s+top\s+of|in\s+combination\s+with|added\s+to|as\s+an?\s+adjunct\s+to"
    # "medical therapy under careful surveillance": the watch kept beside the act
    # ("under careful clinical and echo surveillance": a few words may name the watch)
    r"|under(?=\s+(?:[\w\-]+\s+){0,4}?(?:surveillance|monitoring)\b)"
)
_AIM_GERUNDS = (
    "reducing|preventing|lowering|improving|decreasing|terminating|converting|restoring|reversing"
)
# the rank of an act ("as first-line therapy", "as first-line imaging", "as the preferred
# reperfusion therapy for X",
# "as the initial management of X"): says nothing of the patients; "for / of X" after it
# names the condition treated (never what a test looks for: "for the assessment of")
_NOT_A_TEST_AIM = r"(?!(?:the\s+)?(?:assessment|diagnosis|evaluation|detection|screening)\b)"
_RANK_WORD = (
    r"as\s+(?:the\s+|an?\s+)?(?:(?:first|second)[\s\-]line|preferred|initial|standard|default)"
)
_RANK = (
    r"as\s+(?:the\s+|a\s+)?(?:first|second)[\s\-]line\s+(?:test|therapy|treatment|option|"
    r"imaging(?:\s+(?:test|modality|technique))?\b(?!\s*,|\s+for\s+(?:the\s+)?(?:assessment|"
    r"diagnosis|evaluation|detection|screening)\b))"
    rf"|{_RANK_WORD}\s+(?:[\w\-]+\s+)?(?:(?:therapy|strategy|conduit|option)(?=\s+for\s+"
    rf"{_NOT_A_TEST_AIM})|(?:management|treatment)(?=\s+(?:for|of)\s+{_NOT_A_TEST_AIM}))"
)
# states a patient is in for a while, named after the act or disease they qualify
_ENTERED_STATE = r"(?:pregnancy|lactation|breast-?feeding)\b"
# the words that end a goal named after "for" ("glucose control", "stomach protection",
# "limb salvage", "LDL-C lowering", "glucose-lowering treatment")
_GOAL_WORDS = r"control|protection|salvage|preservation|benefits?"
# ("cardioprotection", "renoprotection": the organ joined to the goal word)
_GOAL_NOUN = (
    rf"(?:\b(?:{_GOAL_WORDS})|\b[a-z]+o-?protection|\b[\w\-]*lowering(?:\s+(?:treatment|therapy))?)"
)
# when, like "during": "at the time of X", "at the same time as X"
_AT_THE_TIME = r"(?:(?:at\s+(?:the\s+)?latest\s+)?at\s+the\s+(?:same\s+)?time\s+(?:of|as))"
# the operation a phase belongs to: "in the peri-operative phase of NCS"
_PHASE_OF = r"(?:in|during)\s+the\s+(?:peri|pre|post)-?operative\s+(?:period|phase|setting)\s+of"


# Markers that start a cohort, purpose or outcome phrase inside the action or after the
# verb. The cohort form allows a few words before the patient noun ("in symptomatic
# patients") but no preposition, so "for rate control in patients" is not one marker.
# the words that prefer the act to another ("instead of X"), and those that say when it is
# done relative to an event ("before X"): markers here, and read again by _classify_marker
_PREFERRED_TO = r"rather\s+than|instead\s+of|in\s+(?:preference\s+to|place\s+of)"
# ("syncope during exertion", "angina during exercise": a symptom or a finding that comes
# with effort keeps it in its name; after anything else, "raise EF by 10% during exercise",
# "during" says when, as before)
_COMES_WITH_EFFORT = (
    "syncope collapse fainting presyncope angina pain discomfort tightness dyspnoea dyspnea "
    "breathlessness palpitation palpitations dizziness fatigue onset symptom symptoms "
    "arrhythmia arrhythmias block ischaemia ischemia hypotension desaturation cyanosis"
).split()
_WHEN_WORDS = (
    r"before|after|following|prior\s+to|in\s+advance\s+of|ahead\s+of|"
    r"during(?!\s+(?:exercise|exertion|effort)\b)|"
    + "".join(rf"(?<!\b{word}\s)" for word in _COMES_WITH_EFFORT)
    + "during"
)
# "syncope while standing", "exercising while lying on the back": a posture the state or the
# act comes in, ending the phrase; it opens no case of its own ("when supine hypertension is
# present", "when standing systolic BP falls" name a state and a value that do)
POSTURE_CASE = (
    r"\s+(?:lying|standing|sitting|supine|upright|recumbent|seated|asleep)"
    r"(?:\s+(?:flat|still|up|down|supine|upright|[a-z]+ly|(?:on|from)\s+(?:an?|the|their|one's)\s+"
    r"(?:[a-z]+\s+)?[a-z]+)){0,2}"
    r"(?=\s*(?:[,;.)]|$)|\s+(?:and|or|is|are|should|may|must|can|with|for|in|after|before)\b)"
)
# the words that can qualify the patients an act is given to ("to AF patients who …", "to
# high-risk women"): an abbreviation, a hyphenated word or a word of age or state; a verb
# ("to counsel patients") is an aim, read by the markers for aims
_GROUP_QUALIFIER = (
    r"(?:(?-i:[A-Za-z0-9]*[A-Z][\w\-/]*)|(?:high|low|intermediate|very|non)-[a-z\-]+|"
    r"older|elderly|young|symptomatic|"
    r"asymptomatic|pregnant|frail|selected|eligible|affected)"
)
# a group or a state the row is likened to or set against ("similarly to AF patients", "in
# contrast to HFrEF"): said of others, no criterion of the row
_COMPARED_WITH = (
    r"(?:similarly|analogous(?:ly)?|comparabl[ey]|identical(?:ly)?)\s+to\b"
    r"|in\s+contrast\s+to\b|(?:as\s+)?compared\s+(?:to|with)\b|as\s+opposed\s+to\b"
)
_POST_MARKERS = re.compile(
    r"(?:^|\s|,\s*)(?P<m>"
    r"(?:in|for|among)\s+(?:all\s+|selected\s+|the\s+|every\s+|each\s+)?"
    # (the words before the patient noun are theirs: none opens a clause of its own, "in
    # NYHA class IV unless the patient is frail")
    r"(?:(?!(?:in|for|with|to|unless|if|when|whenever|where|while|once|until|provided|"
    r"despite|except|although|because)\b)"
    r"[\w\-/²+]+\s+){0,6}?"
    rf"(?:{_PATIENT_WORDS})\b"
    # (not a group the act is compared with: "similarly to AF patients", "exposed to …")
    r"|(?<!similarly\s)(?<!similar\s)(?<!analogous\s)(?<!contrast\s)(?<!compared\s)"
    r"(?<!identical\s)(?<!equal\s)(?<!exposed\s)(?<!relative\s)"
    rf"to\s+(?:all\s+)?(?:(?:{_GROUP_QUALIFIER}\s+){{1,2}}(?:{_PATIENT_WORDS})\b|"
    rf"(?:{_PATIENT_WORDS})(?=\s+(?:with|who|whose|in\s+whom|aged|under|over|older|younger|undergoing|"
    r"receiving|treated|scheduled|at|on|after|following)\b))"
    rf"|(?:(?:solely|only|mainly|primarily)\s+)?to\s+(?:further\s+|help\s+(?:to\s+)?)?"
    rf"(?:{_OUTCOME_VERBS})\b"
    rf"|to\s+(?:help\s+(?:to\s+)?)?(?:{_PURPOSE_VERBS})\b"
    r"|to\s+(?:treat|manage)\b"
    rf"|for\s+(?:the\s+)?(?:{_DIAGNOSTIC_NOUNS}){_AND_CARE}\s+of\b"
    rf"|{_ASSESSMENT_OF}"
    rf"|for\s+(?:{_DIAGNOSTIC_GERUNDS})\b"
    r"|when\s+screening\s+for\b"
    # "(recommended) for diagnosis and risk stratification": the aims themselves, named
    # without the disease ("for the diagnosis of X" is read as what a test looks for; a
    # bare "for diagnosis" says only why the test is done, no concept)
    r"|for(?=\s+diagnosis\s+and\s+(?:risk\s+stratification|monitoring|evaluation|follow-up|"
    r"assessment|prognostication)\b)"
    rf"|for\s+(?:the\s+)?{_AIM_MANNER}(?:{_AIM_NOUNS}){_AND_CARE}\s+(?:of|in)\b"
    rf"|for\s+(?:the\s+)?{_AIM_MANNER}conversion\s+to\b"
    # ("considered in the treatment of X", "has no place in the treatment of X": what it is
    # for, the same)
    r"|(?:for|in)\s+(?:the\s+)?(?:treatment|management)\s+of\b"
    r"|for\s+(?:[\w\-]+\s+)?(?:primary|secondary)\s+prevention\b"
    rf"|for\s+(?:{_AIM_GERUNDS})\b"
    r"|for\s+(?:rate|rhythm|symptom|heart\s+rate|blood\s+pressure)\s+control\b"
    r"|for\s+(?:the\s+)?guidance\s+of\b"
    rf"|{_PHASE_OF}\b"
    # "for stomach protection", "for glucose control", "for … mobility benefits": a goal
    # ("for glucose-lowering treatment in patients with X", "for LDL-C lowering": the same;
    # the patients may follow)
    rf"|for(?=\s+[^;()]*?{_GOAL_NOUN}(?:\s*$|\s+(?=(?:in|among)\s)))"
    r"|as\s+(?:an?\s+)?(?:suitable\s+)?(?:alternative|replacement|substitute)\s+(?:to|for)\b"
    r"|as\s+(?:a\s+)?part\s+of\b"
    # ", using X", "preferably using X": the means the act is done with (its components);
    # "women using oral contraceptives", with no comma, is a patient group on a drug
    r"|(?:(?<=,\s)|(?:preferably|ideally)\s+)(?:using|by\s+means\s+of|with\s+the\s+use\s+of)\b"
    rf"|{_RANK}"
    r"|(?:as|because|since)\s+(?:it|they|this)\s+(?:increases?|raises?|worsens?)"
    r"(?:\s+the\s+risk\s+of)?\b"
    r"|(?:because|since)\s+(?:it|they|this|these)\s+(?!(?:increases?|raises?|worsens?)\b)"
    r"|because\s+of\s+(?:the\s+)?(?:(?:increased|higher)\s+)?(?:risk\s+of\b)?"
    rf"|(?:{_COTHERAPY})\b"
    # "over Y" prefers the action to Y; "75 years or over" and "over 70 years" are bounds
    rf"|(?:{_PREFERRED_TO})\b"
    r"|(?<!\bor\s)(?<!\band\s)over\b(?!\s+\d)"
    # ("the decision when to restart": "when to" asks a question, it sets no condition)
    # ("once X has been excluded": when; "once daily", "once-daily", "more than / at least /
    # only once" are a schedule or a count)
    r"|(?:if|(?:when|while|whilst)(?!\s+to\b)"
    + rf"(?!{POSTURE_CASE})"
    + r"|unless|despite|provided(?:\s+that)?|"
    # ("as long as potassium stays below 5.0 mmol/L": provided; not "for as long as it is
    # tolerated", a duration)
    r"(?<!\bfor\s)(?:as|so)\s+long\s+as|"
    # ("where X is suspected": a case like "when"; not "centres where …", "where available",
    # "where surgery is available": the setting of the act; a case has its verb)
    r"(?<!centres\s)(?<!centre\s)(?<!centers\s)(?<!center\s)(?<!settings\s)(?<!units\s)"
    r"(?<!hospitals\s)(?<!hospital\s)(?<!clinics\s)(?<!clinic\s)(?<!facility\s)"
    r"(?<!facilities\s)"
    r"where(?!\s+(?:available|appropriate|possible|feasible|indicated|necessary|needed|"
    r"applicable|relevant)\b)(?![^,;.]*\b(?:is|are)\s+(?:available|on\s+site|offered)\b)"
    # ("where there is neither X nor Y" reaches here as "where neither X nor Y")
    r"(?=[^,;.]*\b(?:is|are|was|were|has|have|had)\b|\s+(?:neither|no)\b)|"
    r"(?<!\bthan\s)(?<!\bat\s)(?<!\bleast\s)(?<!\bonly\s)(?<!\bjust\s)"
    r"once(?!-|\s+(?:daily|weekly|monthly|yearly|a\s+(?:day|week|month|year)|every|or\b|more|"
    r"again|only)\b)|"
    r"in\s+the\s+presence\s+of)\b"
    # "digoxin in the absence of hypotension": those without it; only where the absence ends the
    # phrase plainly (not before a list that goes on past a semicolon or bullet, a comma, a
    # "with" or "and in" that adds what the patients do have, or a clause of its own)
    r"|in\s+the\s+absence\s+of\b"
    r"(?![^;•]*(?:[;•,]|\bwith\b|\b(?:and|but|or)\s+in\b|\b(?:if|when|but|unless)\b))"
    # "a team approach regarding the decision to stop X", "instructions on when to take X":
    # a choice the act is about, its topic (a plain "regarding X" is left to the phrase)
    r"|(?<=\w\s)(?:regarding|concerning)(?=\s+(?:the\s+)?(?:decision|choice)\b|"
    r"\s+[a-z]+ion\s+(?:vs\.?|versus|or|and)\s+[a-z]+ion\s+of\b)"
    r"|(?:(?:on|about|regarding|concerning)\s+)?(?:when|whether|how)\s+to\b"
    # "in case of X", "in the case of X" after the act: the condition it is for, like "if"
    # ("in cases of X" is read by the first alternative, as a group of patients)
    r"|(?<!\bas\s)in\s+(?:the\s+)?case\s+of\b"
    r"|(?<!be\s)based\s+on\b"
    r"|(?:except|excluding)(?:\s+(?:in|for|when|if|where))?\b"
    r"|with\s+the\s+(?:possible\s+)?exception\s+(?:of|where)\b"
    # "antiplatelet agents other than low-dose aspirin": the one named after it is left out
    r"|other\s+than\b"
    rf"|{_COMPARED_WITH}"
    rf"|(?:{_WHEN_WORDS})\b"
    # "at the time of valve repair", "at the same time as the surgery": when, like "during"
    rf"|{_AT_THE_TIME}\b"
    # "hypertension in pregnancy", "a beta-blocker throughout pregnancy": the state the
    # patient is in while it applies, a condition of its own, like "during pregnancy"
    rf"|(?:in|throughout)(?=\s+{_ENTERED_STATE})"
    rf"|(?:in|at|by)\s+(?={_SETTING})"
    r")",
    re.IGNORECASE,
)


# "VT induced during EPS", "asystole during tilt testing", "AV block during sleep": when a
# finding shows is part of the finding (the golds keep them whole); "during pregnancy" is a
# state of its own and still opens a clause
_SEEN_DURING = re.compile(
    r"\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,2}?(?:test(?:s|ing)?|EPS|study|monitoring|sleep|"
    r"exercise|exertion|pacing|stimulation|recording)\b",
    re.IGNORECASE,
)


def _depth_at(text: str, index: int) -> int:
    return text[:index].count("(") - text[:index].count(")")


# ", or who …", ", or in whom …": another group of the patients named before ("or with X"
# after a therapy may list another therapy, so it is left alone)
_OR_WHO = re.compile(r",\s*or\s+(?:who|whose|in\s+whom)\b", re.IGNORECASE)


def _split_post(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split "X in patients with Y to reduce Z" into head X and marked trailing phrases."""
    text = text.strip(" ,;")
    marks: list[re.Match[str]] = []
    for m in _POST_MARKERS.finditer(text):
        if _depth_at(text, m.start("m")) != 0 or WINDOW_BEFORE.search(text[: m.start("m")]):
            continue
        seen_during = m.group("m").lower() == "during" and _SEEN_DURING.match(text, m.end("m"))
        if seen_during and not (marks and re.match(r"(?:to|for)\s", marks[-1].group("m"), re.I)):
            continue  # part of the finding before it (not of a goal: "to increase X during Y")
        marks.append(m)
    if not marks:
        return text, []
    head = text[: marks[0].start("m")].strip(" ,;")
    trailing: list[tuple[str, str]] = []
    # a trailing clause's index -> its condition word, and whether a bare comma comes before it
    clause_words: dict[int, tuple[str, bool]] = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start("m") if i + 1 < len(marks) else len(text)
        marker = m.group("m")
        body = re.sub(r"[\s,]+(?:and|or)$", "", text[m.end("m") : end].strip(" ,;"))
        goal = _CONTROL_GOAL.match(marker.strip())
        if goal:
            # "for rate control of AF": the goal is an outcome (contract §2), what it is
            # for is a condition the patient has
            trailing.append(("outcome", goal.group(1)))
            treated = re.match(r"^(?:of|in)\s+(.+)$", body, flags=re.I)
            if treated:
                trailing.append(("context", treated.group(1)))
            continue
        kind, phrase = _classify_marker(marker, body)
        other_group = _OR_WHO.search(body) if kind == "background" else None
        if (
            other_group
            and _depth_at(body, other_group.start()) == 0
            and trailing
            and trailing[-1][0] == "cohort"
        ):
            # "in patients with A despite T, or who cannot take T": the patients' phrase goes
            # on past the therapy they persist on, to its alternative group (read there: A
            # or the group, T said of A only)
            trailing[-1] = ("cohort", f"{trailing[-1][1]} {marker.strip()} {body}")
            continue
        indication = _COMPARED_FOR.search(phrase) if kind == "alternative" else None
        if indication:
            # "in preference to open surgery for acute dissection": the comparator ends at
            # "for", and what follows is whom the act is for, read as a cohort is ("for
            # dissection complicated by A, B or C": the disease, and its complications as
            # alternatives beside it)
            trailing.append(("alternative", phrase[: indication.start()]))
            phrase = phrase[indication.end() :]
            kind = "cohort"
        if (
            kind == "context"
            and _CASE_OR_PRESENCE.fullmatch(marker.strip())
            and re.search(r"\bor\s*,?\s*$", text[: m.start("m")], re.I)
        ):
            # "in patients with AF or in the presence of LV thrombus": another case, offered
            # as an alternative to the group before it (read as that group is)
            kind, phrase = "cohort", f"{marker.strip()} {body}"
        if (
            kind == "cohort"
            and trailing
            and trailing[-1][0] in ("context", "cohort")
            and re.search(r"\band\s*$", text[: m.start("m")], re.I)
        ) or (
            # "in patients with severe AS, or in those with an LVEF <50%", "when angina
            # persists despite drugs, or in patients with X": another group, either enough
            # (the contract's clause-level OR)
            kind == "cohort"
            and trailing
            and trailing[-1][0] in ("context", "cohort", "background", "co-therapy")
            and re.search(r"\bor\s*$", text[: m.start("m")], re.I)
        ):
            # "after ACS or PCI, and in patients with HF": a second group of patients beside
            # the first, either enough (the contract's distributive "and", section 6)
            kind = ALSO_GROUP
        if kind == "outcome" and _ENDED_RHYTHM_OF.match(marker.strip()) and body:
            # "for acute conversion of PSVT": the aim is the outcome, and the rhythm it ends
            # is a condition the patient has (as "for rate control of AF")
            trailing += [("outcome", phrase), ("context", body)]
            continue
        bare = _BARE_VALUE_LAST.search(phrase) if kind == "cohort" and i + 1 < len(marks) else None
        if bare and _is_bare_value(bare["value"]):
            # "≥57 mm in men or ≥52 mm in women": the value before the next group is that
            # group's threshold of the quantity named before, an alternative to it
            phrase = phrase[: bare.start()]
            before = find_measurements(trailing[-1][1] if trailing else head)
            if before and before[-1].name:
                # its own phrase, named as the quantity before it: the value is no
                # alternative of what that phrase defines ("anaemia is defined as …")
                # (the span is the value as printed, the name only names it)
                trailing.append((VALUE_OF + before[-1].name, bare["value"]))
        if phrase or kind == "drop":
            clause_word = marker.strip().lower() if kind == "context" else None
            if clause_word not in _CLAUSE_WORDS:
                clause_word = None
            before = text[: m.start("m")]
            if clause_word and re.search(r"\bor\s*,?\s*$", before, re.I):
                # "if A, or if B", "when A, when B or when C": each clause is one case the
                # row applies in, any one enough (the contract's clause-level OR); a clause
                # of the same word after a bare comma is of the same list, all but the list's
                # first (the case the others are offered beside)
                kind = "either"
                j = len(trailing) - 1
                while (
                    clause_words.get(j) == (clause_word, True)
                    and clause_words.get(j - 1, ("",))[0] == clause_word
                    and trailing[j][0] == "context"
                ):
                    trailing[j] = ("either", trailing[j][1])
                    j -= 1
            if clause_word:
                bare_comma = re.search(r"(?<!\band)(?<!\bor),\s*$", before, re.I) is not None
                clause_words[len(trailing)] = (clause_word, bare_comma)
            trailing.append((kind, phrase))
    return head, trailing


# the words that open a case the row applies in ("if A, or if B")
_CLAUSE_WORDS = frozenset({"if", "when"})


# a trailing phrase's kind: a value printed without its name, "value of <name>"
VALUE_OF = "value of "
ALSO_GROUP = "also cohort"  # a group of patients after "and", beside the group before it
# a value with nothing named before it, last in a group's phrase: "in men or ≥52 mm", "in
# men or 50 mm or greater"
_BARE_VALUE_LAST = re.compile(r"[,\s]+(?:or|and)\s+(?P<value>(?:[<>≤≥]|[<>]_|\d)\S*\s?[^,;()]*)$")


def _is_bare_value(text: str) -> bool:
    found = find_measurements(text)
    return len(found) == 1 and not found[0].name and found[0].end >= len(text.rstrip()) - 1


# "for" after a comparator that names what the act is for (not how long, nor a goal:
# "for 3 months", "for the prevention of X")
_COMPARED_FOR = re.compile(
    r"\s+for\s+(?!\d|(?:the\s+)?(?:first|next|up\s+to|at\s+least|rest|duration|remainder)\b|"
    r"(?:the\s+)?(?:prevention|treatment|management|reduction|relief|control|secondary|primary)\b|"
    r"(?:a|an)\s+(?:minimum|maximum|period|total)\b|life\b|long\b)",
    re.I,
)
_CASE_OR_PRESENCE = re.compile(r"in\s+(?:the\s+)?(?:presence|case)\s+of", re.I)
_ENDED_RHYTHM_OF = re.compile(
    rf"^for\s+(?:the\s+)?{_AIM_MANNER}(?:termination|conversion)\s+of$", re.I
)
_CONTROL_GOAL = re.compile(
    r"^for\s+((?:rate|rhythm|symptom|heart\s+rate|blood\s+pressure)\s+control)$", re.I
)


# "unless an anticoagulant is already being taken (for another reason)", "provided no
# interacting drug is used": the drug is what the patient is on; the verb and what the drug is
# taken for name nothing more
_IN_USE = re.compile(
    r"\s+(?:is|are)\s+(?:already\s+|currently\s+)?(?:being\s+)?"
    r"(?:taken|used|given|prescribed|administered)\b"
    r"(?:\s+(?:for|as)\b(?:(?!\b(?:or|and)\b)[^,;])*)?",
    re.IGNORECASE,
)


# the words that end a goal named after "for" ("stomach protection", "mobility benefits")
_BENEFIT_END = re.compile(rf"(?:\s+benefits?|{_GOAL_NOUN})$", re.I)


def _without_benefit(goal: str) -> str:
    """ "strength benefits" is the strength; "prognostic benefit" keeps its noun (an
    adjective alone names nothing)."""
    # "glucose-lowering treatment" is for glucose lowering
    goal = re.sub(r"(?<=lowering)\s+(?:treatment|therapy)$", "", goal, flags=re.I)
    goal = re.sub(r"-(?=lowering$)", " ", goal, flags=re.I)
    benefit = re.search(r"\s+benefits?$", goal, re.IGNORECASE)
    if benefit is None:
        return goal
    before = goal[: benefit.start()].split()
    adjective = bool(before) and re.search(r"(?:ic|al|ive|ous|ary|ory)$", before[-1], re.I)
    return goal if adjective else goal[: benefit.start()]


# "For limb salvage (in patients with X), …", "For glucose control, …": the goal written
# first, not the patients; the cohort may follow it
_GOAL_LEAD = re.compile(
    rf"^for\s+(?P<goal>(?:(?!\b(?:in|among)\b)[^,;()])*?\b(?:{_GOAL_WORDS}))\b\s*(?P<rest>.*)$",
    re.IGNORECASE,
)


def goal_lead(phrase: str) -> tuple[str, str] | None:
    """(goal, the rest) for a lead phrase that names a goal after "for", else None."""
    lead = _GOAL_LEAD.match(phrase.strip())
    if lead is None:
        return None
    return _without_benefit(lead["goal"]), lead["rest"].strip(" ,")


# "the (decision on the) timing of X", "the choice of X": what is decided about X
_TIMING_OF = re.compile(
    r"^(?:the\s+)?(?:decision\s+(?:on|about)\s+(?:the\s+)?)?(?:timing|choice|type)\s+of\s+",
    re.IGNORECASE,
)


# what a test grades ("the severity of X", "the haemodynamic relevance of X") is a finding
# the patients already have, a condition of the row; "the presence of X" is still sought,
# and "the extent of X" (how far a disease reaches, if at all) stays the test's rationale
_GRADED = re.compile(
    r"^(?:the\s+)?(?:severity|(?:(?:haemodynamic|hemodynamic|functional|clinical)\s+)?"
    r"(?:relevance|significance))\s+of\s+(?P<what>.+)$",
    re.IGNORECASE,
)
# the words that frame a topic as a choice ("the decision when to restart", "interruption
# vs. continuation of", "the decision to continue vs. interrupt"): the choice is the act's;
# only what it is about can be a concept
_DECISION_FRAME = re.compile(
    r"^(?:the\s+)?(?:(?:decision|choice)\s+(?:(?:on|about)\s+)?(?:(?:when|whether|how)\s+)?"
    r"(?:to\s+[a-z]+(?:\s+(?:vs\.?|versus|or|and)\s+[a-z]+)?\b)?\s*)?"
    r"(?:[a-z]+ion\s+(?:vs\.?|versus|or|and)\s+[a-z]+ion\s+of\s+)?",
    re.IGNORECASE,
)


# "X has been excluded / ruled out (by Y)": how it was excluded names nothing; after
# "provided" / "once" X is absent (X, negated), after "unless" / "except" the contract's
# "unless X" is read literally ("X ruled out", negated, whichever verb was written)
_EXCLUDED = re.compile(
    r"^(.+?)\s+(?:is|are|has\s+been|have\s+been)\s+(?:excluded|ruled\s+out)"
    r"(?:\s+(?:by|with|on)\s+[^,;]+)?$",
    re.I,
)

# the states an exception lists ("except in A, B and C", "with the exception of A and B"):
# each is left out on its own, so their "and" is an "or" (not a group of patients, "those
# with A and B", nor a clause with a verb of its own, nor states that go together, "both A
# and B", "A and B coexist", nor a range, "between 120 and 150 ms")
_EXCEPTED_LIST = re.compile(
    r"^(?!(?:in\s+)?(?:(?:an?|the|all|[\w\-]+ly|elderly|older|young(?:er)?)\s+)*"
    r"(?:those|patients?|people|individuals|women|men|adults|children|subjects)\b)"
    r"(?![^.;]*\b(?:patients?\s+with|those\s+with|is|are|was|were|has|have|had|who|whom|which|"
    r"between|both|together|co-?exists?|concomitant\w*|combined|combination|occurs?|occur)\b)"
    r"[^.;]*\band\b"
)


def _classify_marker(marker: str, body: str) -> tuple[str, str]:
    low = re.sub(r"\s+", " ", marker.lower()).strip()
    if re.fullmatch(_COMPARED_WITH, low):
        return "drop", ""  # "similarly to AF patients": others, not the row's patients
    if low.startswith("to ") and re.search(rf"(?:{_PATIENT_WORDS})$", low):
        return "cohort", f"{marker.strip()[3:]} {body}".strip()  # "to AF patients who …"
    if low in {"regarding", "concerning"}:
        return "topic", _DECISION_FRAME.sub("", body)
    if re.search(r"\b(?:when|whether|how) to$", low):
        # "when to take an extra dose of diuretic": the verb asks what to do with it
        return "topic", re.sub(r"^[a-z]+\s+", "", body, flags=re.I)
    low = re.sub(r"^to help (?:to )?", "to ", low)  # "to help prevent X": to prevent X
    if low in {"in", "at", "by"} and re.match(_SETTING, body, flags=re.IGNORECASE):
        return "setting", body
    if re.match(_RANK_WORD, low, flags=re.IGNORECASE):
        # the rank says nothing; what it is the first line for is the condition treated
        treated = re.match(r"^(?:for|of)\s+(.+)$", body, flags=re.I)
        if treated and re.match(rf"(?:(?:all|the)\s+)?(?:{_PATIENT_WORDS})\b", treated[1], re.I):
            return "cohort", treated.group(1)  # "as initial treatment of patients with X"
        return ("context", treated.group(1)) if treated else ("drop", "")
    if re.match(r"(?:because|since) (?:it|they|this|these)$", low):
        return "drop", ""  # "since they present no benefit": why, not for whom (rationale)
    if re.match(r"(?:as|because|since) (?:it|they|this) |because of", low):
        return "outcome", body
    if re.match(r"as (?:an? )?(?:suitable )?(?:alternative|replacement|substitute)|over$", low):
        return "alternative", body
    if re.match(r"as (?:a )?part of", low):
        return "background", body
    if re.match(r"(?:(?:preferably|ideally) )?(?:using|by means of|with the use of)", low):
        return "means", body
    assessed = re.fullmatch(_ASSESSMENT_OF, low) is not None
    if (
        re.match(rf"to (?:{_DIAGNOSTIC_VERBS})\b", low)
        or re.match(
            rf"for (?:the )?(?:{_DIAGNOSTIC_NOUNS}){_AND_CARE} of|for (?:{_DIAGNOSTIC_GERUNDS})",
            low,
        )
        or assessed
        or low.startswith("when screening for")
    ) and not _NOT_A_DISEASE.match(body):
        # "to exclude X", "for the detection of X", "screening for X": the disease a test
        # is meant to find or rule out, a concept but no criterion the patient must meet
        body = re.sub(r"^/\w+\s+", "", body)  # "to confirm/exclude X"
        # "to detect X and monitor Y", "to confirm the diagnosis, assess Y": the aim ends
        # where a verb of another aim starts
        aim = re.split(rf"(?:,\s*|\s+)(?:and\s+)?(?=(?:{_PURPOSE_VERBS}|{_OTHER_AIMS})\b)", body)[0]
        # (a work-up is of the patients' problem: what it goes on to say they lack is theirs)
        return ("assessed" if assessed else "aim"), _DIAGNOSIS_OF.sub("", aim)
    if re.match(r"to (?:treat|manage)$", low):  # "to treat X": the disease treated
        # "to manage patients with X": the patients, read as a cohort
        return ("cohort" if re.match(rf"(?:{_PATIENT_WORDS})\b", body, re.I) else "context"), body
    if re.match(r"to (?:reach|achieve)$", low):  # "to achieve X": a goal (contract §2)
        return "outcome", body
    if re.fullmatch(_PHASE_OF, low, flags=re.IGNORECASE):
        return "background", body  # "in the peri-operative phase of NCS": the surgery they undergo
    if re.match(r"to (?:guide|optimi[sz]e)$|for (?:the )?guidance of$", low):
        # "to guide PCI", "to guide the timing of surgery": the act guided, done anyway
        # (background); "to guide the dosing interval": a goal (post_phrases._post_phrase)
        return "guided", _TIMING_OF.sub("", body)
    if re.match(r"to (?:facilitate|enable|support|permit)\b", low):
        # "to facilitate shared decisions": what the care is meant to bring about, a stated
        # goal (the contract, §2), not a test's aim
        return "outcome", body
    if re.match(rf"to (?:{_PURPOSE_VERBS})\b", low):
        graded = _GRADED.match(body)
        if graded:  # "to assess the severity of a stenosis": one the patients have
            return "graded", graded["what"]
        body = re.sub(
            r"^(?:the\s+)?(?:cause|estimate|presence|extent|severity|need)\s+(?:of|for)\s+",
            "",
            body,
            flags=re.I,
        )
        return "purpose", body
    ended = re.match(
        rf"for (?:the )?({_AIM_MANNER}(?:termination|conversion|restoration) (?:of|to))", low
    )
    if ended:  # "for termination of atrial flutter": the aim names the act, unlike prevention
        return "outcome", f"{ended.group(1)} {body}"
    if re.match(r"(?:(?:solely|only|mainly|primarily) )?to ", low) or re.match(
        rf"for (?:the )?{_AIM_MANNER}(?:{_AIM_NOUNS})", low
    ):
        return "outcome", body
    if re.match(r"for (?:[\w\-]+ )?(?:primary|secondary) prevention", low):
        # "for secondary prevention of CVD": what is prevented is the outcome
        aim = re.match(r"^(?:of|in)\s+(.+)$", body, flags=re.I)
        return "outcome", aim.group(1) if aim else re.sub(r"^for\s+", "", marker, flags=re.I)
    if re.match(rf"for (?:{_AIM_GERUNDS})\b", low):
        return "outcome", body
    if low == "for" and re.match(r"diagnosis\b", body, re.I):
        return "outcome", body  # "for diagnosis and monitoring": the aims (contract §2)
    if low == "for" and _BENEFIT_END.search(body):
        # "for stomach protection", "for glucose control", "for balance and mobility
        # benefits": what the act brings about, a stated goal
        return "outcome", _without_benefit(body)
    treated = re.match(r"\s*(?:for|in)\s+(?:the\s+)?(?:treatment|management)\s+of\s*", marker, re.I)
    if treated:  # ("… of pregnant women with X": the patients themselves, all of it theirs)
        whom = f"{marker[treated.end() :]} {body}".strip()
        patients = re.match(rf"(?:[\w\-]+\s+){{0,2}}(?:{_PATIENT_WORDS})\b", whom, re.I)
        return ("cohort" if patients else "context"), whom
    # ("under" is marked only before a watch kept, so the bare marker is read here)
    if re.match(_COTHERAPY, low) or low == "under":
        return "co-therapy", body
    if re.match(_PREFERRED_TO, low):
        return "alternative", body
    if low == "despite":
        return "background", body
    if low == "during" and re.fullmatch(r"(?:exercise|exertion|effort)", body.strip(), re.I):
        # "to control heart rate during exercise": when the aim is reached, no act of its own
        return "drop", ""
    if low == "unless" or low.startswith(
        (
            "except",
            "excluding",
            "with the exception",
            "with the possible exception",
            "other than",
            "in the absence of",  # "digoxin in the absence of hypotension": for those without it
        )
    ):
        # ("unless infection has been ruled out (by PCR)": "infection ruled out", negated)
        unless = _IN_USE.sub("", THERE_IS.sub("", body))
        if (
            low != "unless"
            and not low.startswith("in the absence")
            and _EXCEPTED_LIST.match(unless)
        ):
            unless = re.sub(r"(?<!/)(?<!/\s)\band\b(?!\s?/)", "or", unless)
        excluded = _EXCLUDED.match(unless)
        return "negated", f"{excluded[1]} ruled out" if excluded else unless
    provided = low.startswith("provided") or low.endswith("long as")  # "as long as": provided
    if provided or low == "once":
        # "provided other causes are excluded", "once complications have been excluded (by
        # repeat imaging)": they are absent (how they were excluded names no criterion)
        excluded = _EXCLUDED.match(body)
        if excluded:
            return "negated", excluded.group(1)
        if provided:
            return "context", _IN_USE.sub("", body)
    if low in {"if", "when", "where", "while", "whilst", "once"}:
        return context_clause(THERE_IS.sub("", body))
    if _CASE_OR_PRESENCE.fullmatch(low):
        return "context", body  # "in the presence of X", "in case of X": a criterion, like "if"
    if re.match(
        rf"(?:{_WHEN_WORDS}|based on|{_AT_THE_TIME})",
        low,
    ) or low in {"in", "throughout"}:
        return "context", body  # "based on X": X is what decides it, a criterion
    return "cohort", (marker + " " + body).strip()


# what "to" leads after the recommended act when no marker read it: "to a specialist
# centre" (where, opened by a determiner), "to patients with X" (whom), or "to stop
# lactation" (an aim whose verb no list names)
_TO_PLACE = re.compile(r"^(?:a|an|the|all|any|every|each|those|these|such)\b", re.I)


def after_to(phrase: str) -> tuple[str, str] | None:
    """How a trailing "to …" phrase reads (see above), or None when it is no such phrase."""
    # ("given to withdrawing X": a gerund after "to" is no aim)
    led = re.match(r"^to\s+(?!be\b)(?![a-z]+ing\b)(?P<rest>[a-z].*)$", phrase.strip())
    if led is None:
        return None
    rest = led["rest"]
    patients = re.search(rf"\b(?:{_PATIENT_WORDS})\b", rest, re.I)
    if patients:  # "to patients with X", "to risk stratify individuals with X": for whom
        return "cohort", rest[patients.start() :]
    if _TO_PLACE.match(rest):
        return "drop", ""
    verb_and_object = re.match(r"^(?P<verb>[a-z]+(?:\s+(?:up|down|out))?)\s+(?P<what>.+)$", rest)
    return ("outcome", verb_and_object["what"]) if verb_and_object else None
