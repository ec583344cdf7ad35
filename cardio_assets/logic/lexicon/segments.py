"""Cohort segments: what follows the patient noun ("patients with A who are B, treated
with C, undergoing D"), cut into typed segments that the extractor reads as conditions,
background therapy, procedures or negated states.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cardio_assets.logic.lexicon.post_markers import WINDOW_BEFORE, _depth_at
from cardio_assets.logic.measurements import CHANGE_WORDS

# adverbs before "treated with" that say when or how well, not what ("already treated with")
_TREATED_WHEN = "already|currently|still|adequately|optimally"
# what a patient is on or goes through, negated: "not taking X", "who are not using X"
_ON_THERAPY = (
    r"undergoing|receiving|taking|using|treated\s+with|requiring|needing|developing|"
    # "who are not on anticoagulation", "not previously on diuretics": no such therapy
    r"proceeding\s+to|(?:(?:previously|currently|already|yet)\s+)?on\b(?!-)"
)
# "angina refractory to X", "who are not responsive to X": the state, and X the therapy the
# patients are already on (like "despite X")
_NOT_HELPED_BY = r"(?:refractory|resistant|(?:not\s+|un|non-?)responsive)\s+to"
# unfit for an act, said of the patients or of their disease
_UNFIT_FOR = r"not\s+amenable\s+to|(?:un|not\s+)suitable\s+for|(?:in|not\s+)eligible\s+for"
# what "patients facing / awaiting X" have ahead of them when X is an act: its head names
# one ("facing a high risk of bleeding", "awaiting test results" name no act)
_ACT_AHEAD = (
    r"(?=\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,3}?(?:surgery|transplant(?:ation)?|implantation|"
    r"intervention|procedure|operation|repair|replacement|ablation|cardioversion|therapy|"
    r"treatment|chemotherapy|radiotherapy|delivery|TAVI|TAVR|S?AVR|CABG|PCI|HTx|LVAD|ICD|CRT|"
    r"TEER|PMC)\b(?!\s+(?:shocks?|discharges?|leads?|infections?|malfunctions?|therapies)\b))"
)
_SEGMENT_RE = re.compile(
    rf"(?P<kind>\b(?:who\s+(?:are|were|is)\s+)?{_NOT_HELPED_BY}\b"
    r"|\b(?:who\s+)?(?:do|does|did)\s+not\s+(?:have|require|need|tolerate)\b"
    r"|\bwho\s+(?:have|has|had)\s+(?:not|never)\s+(?:yet\s+)?(?:undergone|received|had|taken|"
    r"used|been\s+(?:treated\s+with|given))\b"
    rf"|\bwho\s+(?:are|were|is)\s+(?!{_UNFIT_FOR})not"
    rf"(?:\s+(?:{_ON_THERAPY}))?\b"
    rf"|\bnot\s+(?:{_ON_THERAPY})\b"
    r"|\b(?:who\s+|that\s+)?present(?:s|ing)?\s+with\b"
    r"|\bwho\s+(?:will\s+|are\s+to\s+)?(?:(?:subsequently|later|then|also)\s+)?"
    r"(?:undergo(?:es)?|proceed(?:s)?\s+to)\b"
    # ("who have ever had a stroke": "ever" only says at any time before; "who show / display
    # X" have X)
    r"|\bwho\s+(?:are|have|had|were|is|has|show|shows|showed|display|displays|exhibit|exhibits)"
    r"\s+(?:been\s+|ever\s+(?:had|been)\s+)?"
    r"|\bwhose\b|\b(?-i:(?!WHO\b))who\b"
    # ("who are A or are not B", "who have A or are planning B": the "who" said once for both)
    r"|(?<=\bor\s)(?:are|were|is|have|has|had)(?:\s+not)?(?:\s+(?:using|taking|receiving))?"
    r"\b(?=\s+[a-z])"
    r"|\b(?:in|for)\s+whom\b|\bwhere\b|\bwithout\b|\bin\s+the\s+presence\s+of\b"
    # ("with LVNC and absence of frequent or complex VAs": the absence after "and" opens a
    # segment of its own, as "in the absence of" does; a listed "(ii) absence of X" is an item)
    r"|\bin\s+the\s+absence\s+of\b|(?<=\band\s)(?:the\s+)?absence\s+of\b"
    r"|\bdespite\b"
    # ("with baffle stenosis not amenable to catheter closure": the unfitness for an act is a
    # state of its own beside the disease; the segment keeps its words, "not amenable to X")
    rf"|(?=\b(?:{_UNFIT_FOR})\b)"
    rf"|(?:\bpre-?)?\b(?:(?:{_TREATED_WHEN})\s+)?treated\s+with\b"
    r"|\breceiving\b|\btaking\b|(?<!not\s)(?<!are\s)(?<!is\s)\busing\b"
    r"|\balready\s+on\b|\bon\s+top\s+of\b|\bin\s+addition\s+to\b"
    r"|(?<!-)\bon\b(?![-\s]top\b)(?!-)|\bundergoing\b"
    rf"|\b(?:facing|awaiting)\b{_ACT_AHEAD}"
    r"|\bscheduled\s+(?:for|to\s+(?:receive|undergo))\b|\breferred\s+for\b|\bafter\b"
    # ("not / no longer considered for X" is a state of its own, and stays)
    r"|(?<!\bnot\s)(?<!\blonger\s)\b(?:being\s+)?considered\s+for\b"
    r"(?!\s+(?:the|a|an)\s+diagnosis\b)"
    r"|\brequiring\b|\bneeding\b|\bin\s+need\s+of\b|\bproceeding\s+to\b|\bdeveloping\b"
    r"|\bconsidering\b|\bplanning\b|\b(?:contemplating|desiring)\b(?=\s+(?:a\s+)?pregnan)"
    r"|\b(?:judged|categori[sz]ed|classified|deemed)\s+(?:to\s+be\s+)?(?:as\s+(?:having\s+)?)?"
    r"|\b(?:perceived|considered|thought|believed)\s+to\s+be\s+(?=at\b)"
    r"|\bfollowing\b|\bwith\s+no\b|\bwith\b|\bhaving\b(?!\s+(?:been|had)\b)"
    # ("those recovering from an ACS": they have had it, as "with" says)
    r"|(?<!\bis\s)(?<!\bare\s)\brecovering\s+from\b(?!\s+(?:below|above|[<>≤≥]|\d))"
    # ("in-stent", "on-pump": a prefix joined by a hyphen opens no segment)
    r"|(?<!-)\bin\b(?!-)(?!\s+(?:the|a|an|whom|addition|preference|combination|case|order|keeping)\b)"
    r"|\bat\b(?=\s+(?:(?:particularly|especially)\s+)?(?:high|increased|intermediate|low|very)\b))",
    re.IGNORECASE,
)
# a value scored, right before the score it is on ("scoring 2 or more on X")
_SCORED_BEFORE = re.compile(
    r"\bscoring\s+\S+(?:\s+(?:or|and)\s+(?:more|higher|above|less|lower|below))?\s*$", re.I
)
# ("WHO" in capitals is the World Health Organization of a class's name, no clause)
# "HF with reduced ejection fraction": here "with" belongs to the disease name.
_WITH_INSIDE_TERM = re.compile(
    r"\s*(?:reduced|preserved|mildly|mid-range|midrange|moderately|normal|improved|"
    r"recovered)\b",
    re.IGNORECASE,
)


# a likeness right before "with" ("symptoms consistent with angina"): what the finding
# resembles is part of its name (every gold of this wording keeps it whole)
_LIKENESS_BEFORE = re.compile(r"\b(?:compatible|consistent|in\s+keeping)\s*$", re.IGNORECASE)
# a change right before "in" ("reduction in LDL-C", "fall in blood pressure")
_CHANGE_BEFORE = re.compile(
    r"\b(?:" + "|".join((*CHANGE_WORDS, "change")) + r")\s*$", re.IGNORECASE
)
# "on" + a test: where a finding is seen ("ST depression on the ECG"), part of the finding
SEEN_ON_TEST = re.compile(
    r"\s*(?:a\s+|the\s+)?(?:resting\s+|baseline\s+|12-lead\s+|ambulatory\s+)?"
    r"(?:ECG|EKG|electrocardiogra\w*|echo\w*|imaging|CT|CMR|MRI|angiogra\w*|Holter|"
    r"monitoring|scans?|X-ray|radiograph\w*|exercise|exertion|effort|standing)\b",
    re.IGNORECASE,
)


# the therapy or procedure a named state calls for ("AF requiring anticoagulation")
_NEEDING = frozenset({"requiring", "needing", "in need of"})
# what a need can qualify without being a state of its own ("bleeding requiring
# transfusion", "anatomy requiring intervention")
_NEED_OF_NO_STATE = re.compile(
    r"\b(?:anatomy|indications?|contraindications?|lesions?|symptoms?|procedures?|"
    r"situations?|cases?|bleeding|haemorrhages?|hemorrhages?|events?|complications?|"
    r"interventions?|surgery|findings?)\s*$",
    re.IGNORECASE,
)
# what an unfitness can be said of without being a disease of its own ("anatomy unsuitable
# for TAVI", "lesions not amenable to PCI", "access not suitable for …")
_UNFIT_SUBJECT = re.compile(
    r"\b(?:anatomy|anatomies|lesions?|access|vessels?|arter(?:y|ies)|morphology|"
    r"valves?|annulus|route|approach)\s*$",
    re.IGNORECASE,
)
# "developing" as an adjective or after "of": "the risk of developing X", "in developing
# countries", "a rapidly developing aneurysm" (no new state of the patients)
_DEVELOPING_ADJECTIVE = re.compile(r"(?:\b(?:of|in|at|a|an|the|for|to)|\w+ly)\s*$", re.I)
# intending a pregnancy ("considering pregnancy", "planning a pregnancy") is a state of its own
_INTENDING = frozenset({"considering", "planning", "contemplating", "desiring"})
_PREGNANCY_AFTER = re.compile(r"\s+(?:a\s+)?(?:pregnan\w*|conception)\b", re.IGNORECASE)


# the verb of a second relative clause whose "who" is not repeated ("… or are not B")
_SECOND_WHO_VERB = re.compile(
    r"(?:are|were|is|have|has|had)(?: not)?(?: using| taking| receiving)?"
)
_WHO_BEFORE = re.compile(r"\b(?-i:(?!WHO\b))who\b", re.IGNORECASE)


def _cohort_segments(rest: str) -> list[tuple[str, str]]:
    """Split what follows the patient noun into typed segments ("with", "who", ...). A
    segment written as an alternative to the one before (", or who are …") has the kind
    "or " + its kind."""
    segments: list[tuple[str, str]] = []
    kind = "with"
    start = 0
    resume: dict[int, str] = {}  # a therapy segment's index -> the kind a ";" returns to
    for m in _SEGMENT_RE.finditer(rest):
        word = re.sub(r"\s+", " ", m.group("kind").lower().strip())
        # "already treated with": the adverb says when, the segment is the treatment
        word = re.sub(rf"^(?:{_TREATED_WHEN}) (?=treated)", "", word)
        # "pre-treated with X": treated with X already, like "already treated with"
        word = re.sub(r"^pre-?(?=treated)", "", word)
        if _depth_at(rest, m.start()) != 0 or m.start() < start:
            continue
        if word == "with" and _WITH_INSIDE_TERM.match(rest[m.end() :]):
            continue
        if word == "with" and _LIKENESS_BEFORE.search(rest[: m.start()]):
            continue  # "syncope compatible with a reflex mechanism": one finding, named whole
        if word == "using" and rest[: m.start()].strip(" ,;"):
            continue  # "undergoing CABG using the IMA": how the act is done, not a drug taken
        if word == "on" and SEEN_ON_TEST.match(rest[m.end() :]):
            continue  # "pre-excitation on resting ECG": where it is seen, not a treatment
        if word == "on" and _SCORED_BEFORE.search(rest[: m.start()]):
            continue  # "scoring ≥2 on CHA2DS2-VASc": the score the value is on, no therapy
        if word == "in" and not rest[start : m.start()].strip(" ,;"):
            continue  # "in" right after a connector is part of the phrase
        if word in _NEEDING and (
            not rest[start : m.start()].strip(" ,;") or _NEED_OF_NO_STATE.search(rest[: m.start()])
        ):
            # "patients requiring pacing": the need itself is their state; "bleeding requiring
            # transfusion", "lesions requiring intervention": what is needed qualifies it
            continue
        if word == "developing" and _DEVELOPING_ADJECTIVE.search(rest[: m.start()]):
            continue  # "the risk of developing X", "in developing countries", "a developing X"
        if not word and _UNFIT_SUBJECT.search(rest[: m.start()]):
            continue  # "coronary anatomy not suitable for CABG": one state, said of the anatomy
        second_who = _SECOND_WHO_VERB.fullmatch(word) is not None
        taking = second_who and re.search(r"^\w+ (?:using|taking|receiving)$", word) is not None
        if second_who and not taking and not _WHO_BEFORE.search(rest[: m.start()]):
            continue  # "or are" opens a second relative clause only after a "who"
        if taking:
            word = word.split()[-1]  # "… or are taking X": on X, as "taking X" reads
        if word in {"after", "following"} and WINDOW_BEFORE.search(rest[: m.start()]):
            continue  # "in the first 3 months after MI": the event the window counts from
        if word == "in" and _CHANGE_BEFORE.search(rest[: m.start()]):
            continue  # "a ≥50% reduction in LDL-C": what changes, part of the measurement
        body = rest[start : m.start()]
        # ("… above 8%, or otherwise unsuitable for surgery": "otherwise" only says "or")
        alternative = re.search(r"[,\s]*\bor(?:\s+otherwise)?\s*$", body.strip()) is not None
        # ("… or are planning B": an empty segment passes its "or" on to the next)
        alternative = alternative or (kind.startswith("or ") and not body.strip(" ,;"))
        body = re.sub(r"[,\s]*\b(?:and|or)(?:\s+otherwise)?\s*$", "", body.strip())
        if body.strip(" ,;"):
            segments.append((kind, body.strip(" ,;")))
        new_kind = _segment_kind(word)
        if re.search(_NOT_HELPED_BY, word):
            resume[len(segments)] = kind
        # "... and in sinus rhythm": a bare "in" continues the current kind.
        kind = kind if word == "in" and kind != "without" else new_kind
        if alternative and segments:  # "with X, or who are Y": either of the two
            kind = f"or {kind}"
        start = m.end()
        needed = re.search(r"\b(?:require|need)\b", m.group("kind"), re.IGNORECASE)
        if needed:  # "who do not require X": the need is the state, kept for the leaf
            start = m.start("kind") + needed.start()
        tolerate = re.search(r"\b(?:do|does|did)\s+not\s+tolerate\b", m.group("kind"), re.I)
        if tolerate:  # "who do not tolerate X": an intolerance of X, a state they have
            kind = "with" if not kind.startswith("or ") else "or with"
            start = m.start("kind") + tolerate.start()
        if word == "at":
            start = m.start()  # keep "at high risk of ..." as the condition text
        if word in _INTENDING and _PREGNANCY_AFTER.match(rest, m.end()):
            # "considering pregnancy": the wish is the state the golds name, verb and all
            kind = "or with" if kind.startswith("or ") else "with"
            start = m.start("kind")
    tail = rest[start:].strip(" ,;")
    if tail:
        segments.append((kind, tail))
    split: list[tuple[str, str]] = []
    for index, segment in enumerate(segments):
        pieces = _therapy_ends_at_semicolon(*segment, resume.get(index))
        if len(pieces) == 2 and pieces[1][0].startswith("or ") and split:
            split[-1] = (split[-1][0], _list_closed_by_or(split[-1][1]))
        split.extend(pieces)
    return [piece for segment in split for piece in _negation_ends_at_semicolon(*segment)]


def _list_closed_by_or(body: str) -> str:
    """ "shock; angina refractory to X; or VT": the states before the therapy are items of
    the list the "or" after it closes, so their last item gets that "or" too."""
    cuts = [i for i, ch in enumerate(body) if ch == ";" and _depth_at(body, i) == 0]
    if not cuts or re.match(r"\s*(?:or|and/or|and)\b", body[cuts[-1] + 1 :], re.I):
        return body
    return f"{body[: cuts[-1] + 1]} or {body[cuts[-1] + 1 :].strip()}"


def _therapy_ends_at_semicolon(kind: str, body: str, resume: str | None) -> list[tuple[str, str]]:
    """ "chest pain refractory to X; arrhythmias": the therapy ends at the semicolon, and what
    follows is a state of the patient again, of the kind before the therapy."""
    cut = next((i for i, ch in enumerate(body) if ch == ";" and _depth_at(body, i) == 0), None)
    if resume is None or cut is None:
        return [(kind, body)]
    after = body[cut + 1 :].strip(" ,;")
    # "…; or C", or "…; C; or D": the list the states before the therapy began goes on
    alternative = re.match(r"(?:or|and/or)\s+", after, flags=re.IGNORECASE) or re.search(
        r";\s*(?:or|and/or)\s+", after, flags=re.IGNORECASE
    )
    after = re.sub(r"^(?:or|and/or|and)\s+", "", after, flags=re.I)
    return [(kind, body[:cut].strip(" ,;")), (f"or {resume}" if alternative else resume, after)]


def _negation_ends_at_semicolon(kind: str, body: str) -> list[tuple[str, str]]:
    """ "without symptoms; or Mobitz II block": a semicolon closes the clause the negation
    governs, so what follows it is said of the patient again, not denied."""
    if not kind.endswith("without"):
        return [(kind, body)]
    cut = next((i for i, ch in enumerate(body) if ch == ";" and _depth_at(body, i) == 0), None)
    if cut is None:
        return [(kind, body)]
    after = body[cut + 1 :].strip(" ,;")
    alternative = re.match(r"(?:or|and/or)\s+", after, flags=re.IGNORECASE)
    if alternative:
        after = after[alternative.end() :]
    pieces = [(kind, body[:cut].strip(" ,;"))]
    if after:
        pieces.append(("or with" if alternative else "with", after))
    return pieces


def _segment_kind(word: str) -> str:
    if re.search(_NOT_HELPED_BY, word):  # "not responsive to X": on X, X not denied
        return "background"
    if word.endswith("with") and "present" in word:  # "presenting with X": X is what they have
        return "with"
    # "with no A or B" reads like "without A or B": neither (the contract's NOT(OR(A, B)))
    if (
        word in ("without", "with no")
        or "absence of" in word
        or " not " in f" {word} "
        or " never " in f" {word} "  # "who have never undergone X": X not done
    ):
        return "without"
    if word in {
        "despite",
        "treated with",
        "receiving",
        "scheduled to receive",  # the drug they are about to start is their background
        "taking",
        "using",  # "women using oral contraceptives": on the drug
        "already on",
        "on",
        "on top of",
        "in addition to",
    }:
        return "background"
    # "athletes considering a sport activity", "women planning pregnancy": what they intend
    if word.startswith("who") and ("undergo" in word or "proceed" in word):
        return "procedure"  # "who undergo X", "who proceed to X": X is what they have done
    if word in {
        "undergoing",
        # "patients facing / awaiting surgery": the act ahead of them, as "scheduled for"
        "facing",
        "awaiting",
        # "AF requiring anticoagulation", "renal disease needing contrast imaging": the state,
        # then the therapy or procedure it calls for, named by its own head
        *_NEEDING,
        "proceeding to",  # "patients proceeding to PCI": like "undergoing PCI"
        "scheduled for",
        "scheduled to undergo",
        "referred for",
        # "patients (being) considered for TAVI or surgery": the act ahead of them
        "considered for",
        "being considered for",
        "after",
        "following",
        "considering",
        "planning",
    }:
        return "procedure"
    if word.startswith("who") or word in ("in whom", "for whom", "where"):
        return "who"
    return "with"


# what a group of people is called ("cancer survivors", "transplant recipients")
_PEOPLE_ENDING = re.compile(
    r"\b(?:survivors|patients|women|men|adults|children|athletes|recipients|relatives)$",
    re.IGNORECASE,
)


def group_abbreviation(text: str, lookup: Callable[[str], str | None]) -> re.Match[str] | None:
    """An abbreviation that names a group of people ("adult CS", CS for cancer survivors):
    the patient noun of a cohort written without one, the group the row is for."""
    for found in re.finditer(r"\b[A-Z][A-Za-z0-9-]*[A-Z](?=s?\b)", text):
        expansion = lookup(found[0])
        if expansion and _PEOPLE_ENDING.search(expansion):
            return found
    return None
