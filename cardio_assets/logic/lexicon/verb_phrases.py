"""The verb phrases that recommend (or advise against) a row's act, which cut a sentence
into what is recommended and for whom (a part of sentences.py): "is recommended", "should
not be used", "should take part in", "is the preferred first-line test", "are options"."""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.vocabulary import OF_CHOICE

# taking part in an activity ("should (not) take part in / engage in / participate in X")
_TAKING_PART = r"(?:take\s+part|engage|participate)\s+in"

# care verbs done to the patients (care_verbs.py names the act of each that has one)
_CARE_VERBS = (
    r"enrolled|included|counsell?ed|educated|informed|vaccinated|anticoagulated|"
    # where the patients are sent or kept ("should be transferred early to a centre")
    r"discharged|observed|transferred|admitted|hospitali[sz]ed"
)
# verbs of holding a therapy back: advice against them ("should not be withheld X") is advice
# for the therapy
_WITHHOLDING = re.compile(r"\b(?:withheld|stopped|discontinued|avoided|denied)$", re.I)
_VP_OBJECTS = (
    r"used|given|performed|administered|offered|initiated|prescribed|started|undertaken|"
    r"continued|implanted|treated|evaluated|assessed|measured|screened|referred|discussed|"
    r"obtained|maintained|titrated|followed\s+up|followed|monitored|considered|repeated|added|switched|"
    r"applied|instituted|withheld|stopped|discontinued|avoided|done|sought|encouraged|"
    r"advised|tested|replaced|re-evaluated|reassessed|managed|postponed|deferred|delayed|"
    r"inserted|placed|cared\s+for|"
    rf"{_CARE_VERBS}"
)
# ... with the patients as their subject: the act is the care the verb names with its
# object ("Women with X should be counselled against Y": counselling against Y), or, for a
# verb naming no act of its own ("enrolled / included in Y"), the object
_CARE_PASSIVE = re.compile(rf"\bbe\s+(?P<care>{_CARE_VERBS})$", re.I)
# ... and care verbs that name the act only when nothing follows but where or why ("Women
# with X should be cared for in an expert centre": care there); with an object they are
# done to it ("should be monitored with Holter ECG": the Holter ECG)
_KEEPING_PASSIVE = re.compile(
    r"\bbe\s+(?P<care>monitored|followed(?:\s+up)?|managed|cared\s+for|screened)$", re.I
)
# the nouns a row names its act as the one to choose with ("the treatment of choice", "the
# first-line drugs", "the recommended intervention")
_CHOSEN_ACT = (
    r"intervention|treatment|therapy|drugs?|agents?|method|procedure|test|options?|modality|"
    r"approach|strategy|technique|regimen|mode(?:\s+of\s+[\w\-]+)?"
)
_NEGATIVE_VERBS = [
    # ("is not warranted / justified / useful": the act is judged not worth doing)
    r"\b(?:is|are)\s+not\s+(?:routinely\s+)?(?:recommended|indicated|advised|suggested|"
    r"advisable|warranted|justified|useful|beneficial|appropriate)\b",
    # "X is not the preferred initial drug": advised against as the act to choose
    r"\b(?:is|are)\s+not\s+the\s+(?:recommended|preferred|standard)\s+"
    rf"(?:(?:initial|first|diagnostic)\s+)?(?:{_CHOSEN_ACT})\b",
    # "X is no longer recommended": advice withdrawn, the act is advised against ("when
    # pacing is no longer indicated": a state, never the row's verb)
    r"\b(?:is|are)\s+no\s+longer\s+(?:routinely\s+)?(?:recommended|advised)\b",
    # "X has no role / no place in Y": X is not to be used for Y
    # ("no longer has a place", "has no routine place")
    r"\b(?:(?:has|have)\s+no\s+(?:established\s+|routine\s+|proven\s+)?|no\s+longer\s+"
    r"(?:has|have)\s+an?\s+)(?:role|place)\b",
    # ("should not be used routinely in X": the adverb after the verb is part of it too)
    rf"\b(?:should|must)\s+not\s+(?:be\s+)?(?:routinely\s+)?(?:{_VP_OBJECTS})\b"
    r"(?:\s+(?:routinely|systematically)\b)?",
    r"\b(?:should|must)\s+not\s+(?:receive|undergo|have|use|be)\b",
    # "Athletes with X should not take part in / engage in Y": Y is what they are advised
    # against, as "should do / engage in Y" names what they are advised to do
    rf"\b(?:should|must)\s+not\s+{_TAKING_PART}\b",
    r"\b(?:is|are)\s+(?:contraindicated|harmful|potentially\s+harmful)\b",
]
_POSITIVE_VERBS = [
    # "is recommended to be performed": the act is the subject, "to be performed" no object
    rf"\b(?:is|are)\s+recommended\s+to\s+be\s+(?:{_VP_OBJECTS})\b",
    r"\b(?:is|are)\s+(?:also\s+|generally\s+|strongly\s+|only\s+)?(?:recommended|indicated)\b",
    r"\b(?:should|may|might|can|could|ought\s+to)\s+(?:also\s+)?(?:still\s+)?be\s+(?:[a-z]+ly\s+)?"
    r"considered\b",
    # "X merits / deserves / warrants consideration"
    # ("warrants consideration of an ICD" names the act after it: not this shape)
    r"\b(?:merits?|deserves?|warrants?)\s+(?:careful\s+)?consideration\b(?!\s+of\b)",
    r"\b(?:should|may|might|can|could)\s+(?:also\s+)?be\s+(?:recommended|indicated)\b",
    # "should be promptly treated", "should be carefully monitored": an adverb between
    rf"\b(?:should|may|must|can|ought\s+to)\s+(?:also\s+)?be\s+(?:[a-z]+ly\s+)?(?:{_VP_OBJECTS})\b",
    # "X is a reasonable option", "X is a useful additional test"; "A or B are (treatment)
    # options", "X is an option" ("the option(s) of choice" is read below)
    r"\b(?:is|are)\s+(?:an?\s+|the\s+|another\s+)?(?:other\s+|further\s+|treatment\s+|therapeutic\s+)?"
    r"options?\b(?!\s+of\s+choice)",
    r"\b(?:is|are)\s+(?:a|an)\s+(?:suitable|reasonable|acceptable|preferred|useful|valuable|"
    # ("a reasonable first-line rhythm-control option": a kind of option may be said too)
    r"appropriate|possible)\s+(?:(?:additional|further|first|first-line|second-line|complementary|"
    r"[a-z]+-[a-z\-]+)\s+){0,2}"
    r"(?:alternative|option|choice|test|tool|adjunct|investigation|approach|strategy|addition)\b",
    r"\b(?:is|are)\s+(?:reasonable|advised|advisable|beneficial|useful|preferred|preferable|"
    r"favou?red(?!\s+by\b)|"
    # ("is warranted / justified / encouraged": the act is judged worth doing)
    r"suggested|effective|mandatory|essential|warranted|justified|encouraged|appropriate)\b",
    # "commissurotomy is the intervention of choice", "thiazides are the first-line
    # antihypertensive drugs": chosen first, so recommended
    OF_CHOICE,
    r"\b(?:is|are)\s+(?:the\s+|a\s+)?(?:preferred\s+|recommended\s+)?first[\s-]line\s+(?:[\w\-]+\s+)?"
    rf"(?:{_CHOSEN_ACT})\b(?:\s+recommended\b)?",
    # "TAVI is the recommended intervention for …", "beta-blockers are the preferred initial
    # drugs", "vagal manoeuvres are the first step": named as the act to take, so recommended
    # ("the recommended antithrombotic regimen": one word may say which kind)
    r"\b(?:is|are)\s+the\s+(?:recommended|preferred|standard)\s+(?:[\w\-]+\s+)?"
    rf"(?:{_CHOSEN_ACT})\b",
    r"\b(?:is|are)\s+the\s+(?:first|initial)\s+(?:diagnostic\s+|therapeutic\s+)?step\b",
    r"\b(?:should|may)\s+(?:also\s+)?be\s+(?:preferred|favoured|favored|prioriti[sz]ed)\b",
    r"\bcan\s+be\s+(?:useful|beneficial)\b",
    r"\b(?:should|may|must)\s+(?:also\s+)?(?:receive|undergo|have|use|take(?!\s+part\b))\b",
    # "Adults should do / engage in / strive for X": what the patients are to do is the act
    rf"\b(?:should|must)\s+(?:also\s+)?(?:do|undertake|practi[sc]e|{_TAKING_PART}|"
    r"(?:strive|aim)\s+for|attend|complete|adopt|maintain)\b",
    # "Women with Marfan syndrome should avoid pregnancy": the patients are told what to
    # end or keep away from (the act is named by _ENDING_ACTS)
    r"\b(?:should|must)\s+(?:also\s+)?(?:avoid|stop|discontinue)\b",
]
_VERB_RE = re.compile(
    "|".join(f"(?P<n{i}>{p})" for i, p in enumerate(_NEGATIVE_VERBS))
    + "|"
    + "|".join(f"(?P<p{i}>{p})" for i, p in enumerate(_POSITIVE_VERBS)),
    re.IGNORECASE,
)


# the verbs of a need ("requires", "warrants", "calls for"), one list for the need, the need
# denied and a second need after it
_NEED_VERBS = r"requires?|necessitates?|mandates?|warrants?|justif(?:y|ies)|calls?\s+for"
# "Acute type A dissection requires emergency repair", "patients with X require Y": what the
# state calls for is the act; read only where no other verb recommends, and never a group's
# need ("patients who (still) require X", "whose condition requires X"), a need denied ("does
# not usually require"), or what the act itself takes ("requires specific expertise"); the
# same for "X mandates / warrants / justifies / calls for Y" and "X is an indication for Y"
# (not "there is an indication for Y", a clause of its own)
REQUIRED_VERB = re.compile(
    # ("warrants consideration of Y": the need is of Y, considered)
    rf"\b(?P<p_required>(?:{_NEED_VERBS})(?:\s+(?:careful\s+)?consideration\s+of)?|"
    r"(?<!\bthere\s)(?:is|are)\s+(?:an?\s+)?(?:class\s+I\s+|clear\s+|absolute\s+)?"
    r"indications?\s+for)\b",
    re.IGNORECASE,
)
_NEED_OF_A_GROUP = re.compile(
    r"\b(?:who|whose|whom|that|which)\b(?:\s+\S+){0,4}\s*$", re.IGNORECASE
)
# a need denied or hedged ("does not by itself warrant", "rarely calls for", "too low to
# warrant": an infinitive is never the row's verb)
_NEED_DENIED = re.compile(
    r"\b(?:(?:not|never|no\s+longer|rarely|seldom|hardly)"
    r"(?:\s+(?:\w+ly|by\s+itself|in\s+itself|always))*,?|to)\s*$",
    re.IGNORECASE,
)
# ... or what the act itself takes ("warrants increased caution", "calls for experienced
# operators"), a risk weighed, or nothing ("warrants neither A nor B", "warrants no ablation")
_NO_ACT_REQUIRED = re.compile(
    r"\s+(?:(?:neither|no|nothing|little)\b|(?:(?:an?|the)\s+)?"
    r"(?:(?:specific|special|particular|considerable|great|more|extra|increased|extreme|"
    r"utmost|close|careful|cautious|experienced)\s+)?(?:expertise|experience|caution|"
    r"consideration|attention|care|approach|operators?)\b"
    # ("the benefit justifies the bleeding risk": a weighing, no act; "risk stratification",
    # "risk-reducing ICD" are acts)
    r"|(?:(?:an?|the)\s+)?(?:[\w\-]+\s+)?risks?\b(?!-)(?!\s+(?:stratification|assessment|"
    r"evaluation|estimation|factors?|scores?|reduction|control|modification|calculation)\b))",
    re.IGNORECASE,
)
# a need denied outright ("does not (by itself) warrant Y", "never requires Y", "requires no
# Y", "warrants neither A nor B"): advice against Y for the state, read as "requires" is
DENIED_NEED_VERB = re.compile(
    r"\b(?P<n_required>(?:(?:does|do)\s+not|never|rarely|seldom)(?:,?\s+(?:by|in)\s+itself,?)?"
    # ("need no further tests": the plain verb of a need, only denied so)
    rf"\s+(?:{_NEED_VERBS})|(?:{_NEED_VERBS}|needs?)\s+"
    r"(?:no|neither)(?=\s+(?!(?:further|more)\s+(?:caution|attention)\b|or\b|evidence\b|"
    r"prior\b|history\b)\w))\b",
    re.IGNORECASE,
)
# ... only as the sentence's one statement of need: never inside a lead or relative clause
# ("If the patient does not require X, …", "patients who … do not require X", "X, which
# does not require Y, …"), nor beside a second need or a contrast ("does not require X but
# requires Y"), nor of a criterion ("the diagnosis requires no X", "eligibility requires no Y")
_DENIAL_HELD_ELSEWHERE = re.compile(
    r"\b(?:if|when|whenever|where|unless|once|while|as\s+long\s+as|who|whom|whose|which|that|"
    r"diagnosis|eligibility|definition|criteri(?:on|a))\b",
    re.IGNORECASE,
)
_SECOND_NEED = re.compile(
    rf"\b(?:but|however|whereas|{_NEED_VERBS})\b|;",
    re.IGNORECASE,
)


def required_verb(sentence: str) -> re.Match[str] | None:
    """The "requires" that makes the row's advice, if any (see ``REQUIRED_VERB``), or the
    need it denies (``DENIED_NEED_VERB``)."""
    denied = DENIED_NEED_VERB.search(sentence)
    if (
        denied
        and not _DENIAL_HELD_ELSEWHERE.search(sentence[: denied.start()])
        and not _SECOND_NEED.search(sentence[denied.end() :])
    ):
        return denied
    for m in REQUIRED_VERB.finditer(sentence):
        before = sentence[: m.start()]
        if not (
            _NEED_OF_A_GROUP.search(before)
            or _NEED_DENIED.search(before)
            or _NO_ACT_REQUIRED.match(sentence, m.end())
        ):
            return m
    return None
