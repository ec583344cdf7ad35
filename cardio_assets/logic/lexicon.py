"""Offline, deterministic extraction of concepts and actions from one recommendation row.

Why rules and not only dictionary matching: guideline rows follow a small set of sentence
shapes ("In <cohort>, <action> is recommended to <outcome>."), and the boolean and numeric
structure (OR groups, "LVEF of 35% or less") lives in those shapes, not in the
terminology. So the extractor first cuts the sentence into cohort / action / outcome /
background slots, pulls out parameters with their operator, threshold and unit, splits
the remaining phrases into AND/OR leaves, and only then asks the terminology (when one is
given) which role each leaf plays. It produces the same RowExtraction records as the
LLM backend, for both passes (MAIN and POPULATION).

Where the terminology is used: (1) a leaf whose whole text (or, failing that, the longest
sub-phrase ending at its head word, up to ``max_ngram`` words) matches a SNOMED CT
description at ``min_term_score`` takes the role of that description's semantic tag;
(2) a phrase containing "and"/"or" that is itself a description is not split. Spans are
cut by the sentence rules, not by dictionary matches: the sample terminology lacks many
guideline terms ("chronic coronary syndrome"), and annotation spans keep qualifiers a
dictionary match would drop ("suspected CCS"). Spans follow data/gold/ANNOTATION_GUIDELINES.md:
minimal verbatim text, dose/duration/frequency qualifiers dropped, negation cues outside.

No Dagster imports here: the ConfigurableResource in resources/lexicon_extractor.py wraps it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.logic_split import Expr, Leaf, Node, leaves, split_logic
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
from cardio_assets.records import (
    ExtractedAction,
    ExtractedConcept,
    Focus,
    RowExtraction,
    RowRecord,
)


def _source_fingerprint(*names: str) -> str:
    """Hash of the rule modules' source: any rule edit changes the version, so assets
    whose code_version includes it go stale without anyone remembering to bump a number."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in names:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:12]


RULES_VERSION = "lexicon-" + _source_fingerprint("lexicon.py", "logic_split.py", "abbreviations.py")


# ---------------------------------------------------------------------------------------
# Terminology interface
# ---------------------------------------------------------------------------------------
class TermHit(NamedTuple):
    """One terminology match for a phrase: what the extractor needs to pick a role."""

    concept_id: str
    term: str
    semantic_tag: str  # FSN tag without brackets, e.g. "disorder", "observable entity"
    score: float  # 0..1, 1 = exact


# Returns the best matches for a phrase, best first (may be empty).
TermLookup = Callable[[str], Sequence[TermHit]]

SEMANTIC_TAG_ROLES: dict[str, str] = {
    "disorder": "Condition",
    "finding": "Condition",
    "situation": "Condition",
    "morphologic abnormality": "Condition",
    "observable entity": "ClinicalParameter",
    "assessment scale": "ClinicalParameter",
    "procedure": "Procedure",
    "regime/therapy": "Procedure",
    "substance": "Medication",
    "product": "Medication",
    "medicinal product": "Medication",
    "medicinal product form": "Medication",
    "clinical drug": "Medication",
}


def term_lookup_from_searcher(
    searcher: object, abbreviations: dict[str, str] | None = None, top_k: int = 3
) -> TermLookup:
    """Adapt the terminology store (grounding.TermSearcher) to the lexicon's lookup.

    Uses the grounding stage's own candidate search and composite score, so "how well
    does this phrase match SNOMED" means the same in extraction and grounding.
    """
    from cardio_assets.logic.grounding import ground_candidates

    mapping = dict(abbreviations or {})

    def lookup(phrase: str) -> list[TermHit]:
        candidates = ground_candidates(phrase, "Condition", searcher, mapping, top_k=top_k)  # type: ignore[arg-type]
        return [TermHit(c.concept_id, c.matched_term, c.semantic_tag, c.score) for c in candidates]

    return lookup


@dataclass(frozen=True)
class LexiconSettings:
    """Tunable knobs (one source of truth: the resource passes its config here)."""

    min_term_score: float = 0.9  # terminology hit needed to trust its semantic tag
    max_ngram: int = 6  # longest sub-phrase tried against the terminology


# ---------------------------------------------------------------------------------------
# Vocabularies for role heuristics when the terminology is silent
# ---------------------------------------------------------------------------------------
_MED_SUFFIXES = (
    "pril", "sartan", "olol", "ilol", "statin", "gliflozin", "xaban", "gatran", "parin",
    "grel", "relor", "mab", "siran", "glutide", "tide", "dipine", "azem", "amil", "arone",
    "enone", "thiazide", "semide", "amide", "etanide", "digoxin", "arin", "irin", "ciguat",
    "inone", "ezetimibe", "ranolazine", "ivabradine", "colchicine", "metformin",
    "nitrate", "nitrates", "plase", "kinase", "sacubitril", "icosapent", "ainide", "afil",
    "olone", "azole", "oxacin", "cillin", "mycin", "verapamil", "diltiazem",
)  # fmt: skip
_MED_WORDS = frozenset(
    """
    inhibitor inhibitors blocker blockers antagonist antagonists agonist agonists agent agents
    drug drugs medication medications anticoagulant anticoagulants anticoagulation
    antiplatelet antiplatelets antiarrhythmic antiarrhythmics diuretic diuretics statin
    statins aspirin heparin warfarin insulin fibrate fibrates nitrate nitrates
    thrombolysis fibrinolysis pharmacotherapy vaccine vaccination dapt oac noac doac vka
    ace-i acei arb arbs arni mra mras sglt2i medical pharmacological lipid-lowering
    antihypertensive antithrombotic glucose-lowering antianginal
    """.split()
)
_PROCEDURE_HEADS = frozenset(
    """
    intervention interventions implantation implant replacement repair surgery surgeries
    grafting graft bypass ablation angiography angiogram echocardiography echocardiogram
    imaging test testing tests assessment assessments measurement measurements monitoring
    screening rehabilitation revascularization revascularisation cardioversion training
    evaluation referral counselling counseling closure occlusion resection pacing
    programme program stenting angioplasty catheterization catheterisation scan scanning
    ecg electrocardiogram electrocardiography mri ct cmr biopsy transplantation
    transplant procedure procedures strategy management follow-up exercise
    education consultation review auscultation examination support discussion
    defibrillator pacemaker device therapy therapies treatment treatments ultrasound
    tomography resonance
    """.split()
)
_CONDITION_HEADS = frozenset(
    """
    intolerance intolerant allergy contraindication contraindications disease diseases
    failure syndrome syndromes stenosis regurgitation infarction risk insufficiency
    dysfunction history hypertension diabetes angina fibrillation flutter arrest shock
    cardiomyopathy symptoms symptom pregnancy obesity smoking smoker smokers lesion lesions
    rhythm morphology congestion instability tachycardia bradycardia block calcification
    """.split()
)
# First words that make a cohort phrase a state of the patient, whatever its head says
# ("intolerant of aspirin", "contraindication to OAC", "eligible for OAC").
_CONDITION_FIRST_WORDS = frozenset(
    """
    intolerant intolerance allergic allergy contraindication contraindications eligible
    ineligible suitable unsuitable unfit fit candidate candidates refractory resistant
    indication history severe significant persistent high low moderate mild very prior
    previous normal abnormal
    """.split()
)
# Observable heads: a bare mention ("to measure LVEF") is still a parameter.
_PARAMETER_HEADS = frozenset(
    """
    fraction pressure rate duration score cholesterol glucose clearance index concentration
    level levels potassium sodium creatinine haemoglobin hemoglobin a1c peptide reserve
    """.split()
)
_OUTCOME_VERBS = (
    r"reduce|lower|prevent|improve|decrease|relieve|control|delay|avoid|slow|minimi[sz]e|"
    r"alleviate|limit|protect|preserve|prolong"
)
_PURPOSE_VERBS = (
    r"measure|detect|assess|refine|clarify|reach|achieve|guide|confirm|exclude|identify|"
    r"evaluate|estimate|establish|diagnose|stratify|determine|rule\s+out|obtain|maintain|"
    r"monitor|check|screen|facilitate|allow|enable|support|select"
)
_PATIENT_WORDS = (
    r"patients|patient|individuals|individual|people|persons|person|subjects|those|women|"
    r"men|adults|survivors|candidates|children|adolescents|cases|participants"
)
_PATIENT_NOUN = re.compile(rf"\b(?:{_PATIENT_WORDS})\b", re.IGNORECASE)
_COHORT_DETERMINERS = frozenset(
    """
    all selected the these such other eligible most any some adult certain appropriate
    every each
    """.split()
)
# Pre-noun words describing a state, not a disease: population comes from "with ..." then.
_STATE_ADJECTIVES = frozenset(
    """
    symptomatic asymptomatic stable elderly older young frail high-risk low-risk selected
    """.split()
)
_LEAD_INS = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:use|administration|initiation|addition|prescription|"
    r"consideration|implementation|provision|performance|introduction)\s+of\s+|"
    r"(?:treatment|therapy)\s+with\s+|routine(?:ly)?\s+|systematic\s+|"
    r"(?:adding|starting|initiating|continuing|using|switching\s+to|giving)\s+|"
    r"(?:the|a|an)\s+)+",
    re.IGNORECASE,
)
# Context words that carry no concept ("when tolerated").
_EMPTY_CONTEXT = frozenset(
    """tolerated possible feasible available indicated needed appropriate required early
    late soon immediately contraindicated""".split()
)

# ---------------------------------------------------------------------------------------
# Sentence shapes
# ---------------------------------------------------------------------------------------
_VP_OBJECTS = (
    r"used|given|performed|administered|offered|initiated|prescribed|started|undertaken|"
    r"continued|implanted|treated|evaluated|assessed|measured|screened|referred|discussed|"
    r"obtained|maintained|titrated|followed|monitored|considered|repeated|added|switched|"
    r"applied|instituted|withheld|stopped|discontinued|avoided|done|sought|encouraged|"
    r"advised|tested|replaced|re-evaluated|reassessed|managed"
)
_NEGATIVE_VERBS = [
    r"\b(?:is|are)\s+not\s+(?:routinely\s+)?(?:recommended|indicated|advised|suggested)\b",
    rf"\b(?:should|must)\s+not\s+(?:be\s+)?(?:routinely\s+)?(?:{_VP_OBJECTS})\b",
    r"\b(?:should|must)\s+not\s+(?:receive|undergo|have|use|be)\b",
    r"\b(?:is|are)\s+(?:contraindicated|harmful|potentially\s+harmful)\b",
    r"\bshould\s+be\s+avoided\b",
]
_POSITIVE_VERBS = [
    r"\b(?:is|are)\s+(?:also\s+|generally\s+|strongly\s+)?(?:recommended|indicated)\b",
    r"\b(?:should|may|might|can|could)\s+(?:also\s+)?(?:still\s+)?be\s+considered\b",
    rf"\b(?:should|may|must|can)\s+(?:also\s+)?be\s+(?:{_VP_OBJECTS})\b",
    r"\b(?:is|are)\s+(?:a|an)\s+(?:suitable|reasonable|acceptable|preferred)\s+"
    r"(?:alternative|option|choice)\b",
    r"\b(?:is|are)\s+(?:reasonable|advised|beneficial|useful|preferred|suggested|effective)\b",
    r"\bcan\s+be\s+(?:useful|beneficial)\b",
    r"\b(?:should|may|must)\s+(?:receive|undergo|have|use|take)\b",
]
_VERB_RE = re.compile(
    "|".join(f"(?P<n{i}>{p})" for i, p in enumerate(_NEGATIVE_VERBS))
    + "|"
    + "|".join(f"(?P<p{i}>{p})" for i, p in enumerate(_POSITIVE_VERBS)),
    re.IGNORECASE,
)
_COHORT_LEAD = re.compile(
    r"^(?:in|among|for|amongst)\s+(?!addition\b)(?!order\b)(?!the\s+absence\b)"
    r"|^in\s+the\s+(?:case|setting|presence|context)\s+of\s+"
    r"|^in\s+case\s+of\s+",
    re.IGNORECASE,
)
_CONTEXT_LEAD = re.compile(
    r"^(?:after|following|before|prior\s+to|during|when|if|once)\s+", re.IGNORECASE
)
_COHORT_SUBJECT = re.compile(
    rf"^(?:(?!(?:in|for|with|among|of|to)\b)[\w\-]+\s+){{0,3}}?(?:{_PATIENT_WORDS})\b",
    re.IGNORECASE,
)
_ABSENCE_LEAD = re.compile(r"^in\s+the\s+absence\s+of\s+", re.IGNORECASE)
_BACKGROUND_LEAD = re.compile(
    r"^(?:in\s+addition\s+to|on\s+top\s+of|as\s+an?\s+adjunct\s+to)\s+", re.IGNORECASE
)
# Markers that start a cohort, purpose or outcome phrase inside the action or after the
# verb. The cohort form allows a few words before the patient noun ("in symptomatic
# patients") but no preposition, so "for rate control in patients" is not one marker.
_POST_MARKERS = re.compile(
    r"(?:^|\s|,\s*)(?P<m>"
    r"(?:in|for|among)\s+(?:all\s+|selected\s+|the\s+|every\s+|each\s+)?"
    r"(?:(?!(?:in|for|with|to)\b)[\w\-/²]+\s+){0,4}?"
    rf"(?:{_PATIENT_WORDS})\b"
    rf"|(?:(?:solely|only|mainly|primarily)\s+)?to\s+(?:further\s+)?(?:{_OUTCOME_VERBS})\b"
    rf"|to\s+(?:{_PURPOSE_VERBS})\b"
    r"|for\s+(?:the\s+)?(?:reduction|prevention|improvement|relief)\s+(?:of|in)\b"
    r"|for\s+(?:the\s+)?(?:treatment|management)\s+of\b"
    r"|for\s+(?:[\w\-]+\s+)?(?:primary|secondary)\s+prevention\b"
    r"|for\s+(?:rate|rhythm|symptom|heart\s+rate|blood\s+pressure)\s+control\b"
    r"|as\s+(?:an?\s+)?(?:suitable\s+)?(?:alternative|replacement|substitute)\s+(?:to|for)\b"
    r"|as\s+(?:a\s+)?part\s+of\b"
    r"|as\s+(?:the\s+|a\s+)?(?:first|second)[\s\-]line\s+(?:test|therapy|treatment|option)\b"
    r"|(?:as|because|since)\s+(?:it|they|this)\s+(?:increases?|raises?|worsens?)"
    r"(?:\s+the\s+risk\s+of)?\b"
    r"|because\s+of\s+(?:the\s+)?(?:(?:increased|higher)\s+)?(?:risk\s+of\b)?"
    r"|in\s+addition\s+to\b|on\s+top\s+of\b|in\s+combination\s+with\b|added\s+to\b"
    r"|rather\s+than\b|instead\s+of\b|in\s+preference\s+to\b|over\b"
    r"|(?:if|when|unless|despite)\b"
    r"|(?:before|after|following|prior\s+to|during)\b"
    r")",
    re.IGNORECASE,
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
_POST_OP = re.compile(
    rf"(?:or|and)\s+(?P<w>{'|'.join(LESS_WORDS + MORE_WORDS)})\b", re.IGNORECASE
)
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


# ---------------------------------------------------------------------------------------
# Text preparation
# ---------------------------------------------------------------------------------------
_NOISE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # reference markers: [12], [3-5]
    (re.compile(r"\[\d+(?:[,–-]\s*\d+)*\]"), " "),
    # doses: "75–100 mg daily", "75 mg once daily"
    (
        re.compile(
            r"\s*\b\d+(?:[.,]\d+)?(?:\s*[-–]\s*\d+(?:[.,]\d+)?)?\s*(?:mg|µg|μg|mcg|IU)\b"
            r"(?:\s+(?:once\s+|twice\s+)?(?:daily|a\s+day|per\s+day|b\.?i\.?d\.?|o\.?d\.?))?",
            re.I,
        ),
        "",
    ),
    # durations: "for 6 months", "for up to 12 months", "within the first week"
    (
        re.compile(
            r"\b(?:for|within|during)\s+(?:up\s+to\s+|at\s+least\s+|the\s+first\s+)?"
            r"(?:\d+\s*)?(?:days?|weeks?|months?|years?|hours?)\b",
            re.I,
        ),
        "",
    ),
    # time windows: "less than 40 days after ..." keeps "after ..."
    (
        re.compile(
            r"\b(?:less|more|fewer)\s+than\s+\d+\s*(?:days?|weeks?|months?|years?|hours?)\s*",
            re.I,
        ),
        "",
    ),
    # dose intensity: "up to the highest tolerated dose", "maximally tolerated statin dose"
    (
        re.compile(
            r"\b(?:up\s+to|at)\s+the\s+(?:highest|maximum|maximally)\s+tolerated\s+dose\b", re.I
        ),
        "",
    ),
    (re.compile(r"\b(?:maximally|maximum|highest)\s+tolerated\s+", re.I), ""),
    # "myocardial ischaemia on non-invasive testing": the test category only qualifies
    (
        re.compile(
            r"\s+on\s+(?:non-invasive|invasive|stress)?\s*(?:testing|imaging|tests?)\b", re.I
        ),
        "",
    ),
    (re.compile(r"(?<=\w)\s+dose\b(?!-)", re.I), ""),
]


def clean_row_text(text: str) -> str:
    """Collapse whitespace; drop reference markers, doses and durations.

    Doses and durations are not concepts of the recommendation graph, and left in
    place they read like parameters ("Aspirin 75–100 mg") or conditions ("6 months").
    """
    text = text.replace("\u00a0", " ").replace("\u2009", " ").replace("\u202f", " ")
    text = text.replace("<br>", " ").replace("\n", " ")
    # Footnote letters glued after punctuation at the end: "considered.a" / "considered.b,c".
    text = re.sub(r"([.;])\s*[a-e](?:\s*,\s*[a-e])*\s*$", r"\1", text)
    for pattern, replacement in _NOISE_PATTERNS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+([,.;])", r"\1", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text


# ---------------------------------------------------------------------------------------
# Drafts before they become records
# ---------------------------------------------------------------------------------------
@dataclass
class Draft:
    role: str
    text: str
    normalized: str
    slot: str  # cohort | action | outcome | background | context | purpose | example
    operator: str | None = None
    threshold: float | list[float] | None = None
    unit: str | None = None
    negated: bool = False
    or_group: str | None = None
    population: bool = False
    polarity: str = "recommended"


@dataclass
class RowParse:
    """Intermediate parse, kept as the lexicon's raw_output for audit."""

    cohort: str = ""
    action: str = ""
    post: list[tuple[str, str]] = field(default_factory=list)  # (marker kind, text)
    polarity: str = "recommended"
    verb: str | None = None


# ---------------------------------------------------------------------------------------
# The extractor
# ---------------------------------------------------------------------------------------
class LexiconExtractor:
    """Rule + terminology extractor; one instance per run (holds no per-row state)."""

    def __init__(
        self,
        abbreviations: Abbreviations | None = None,
        term_lookup: TermLookup | None = None,
        settings: LexiconSettings | None = None,
    ) -> None:
        self.abbreviations = abbreviations or Abbreviations({})
        self.term_lookup = term_lookup
        self.settings = settings or LexiconSettings()
        self._cache: dict[str, TermHit | None] = {}
        self._row_workers: dict[tuple, LexiconExtractor] = {}

    # -- identity -----------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return RULES_VERSION

    def prompt_hash(self) -> str:
        """Changes whenever rules, settings or abbreviations change (cache key)."""
        payload = json.dumps(
            {
                "rules": RULES_VERSION,
                "settings": self.settings.__dict__,
                "abbreviations": sorted(self.abbreviations.mapping.items()),
                "terminology": self.term_lookup is not None,
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    # -- public API ---------------------------------------------------------------------
    def extract(self, row: RowRecord, focus: Focus) -> RowExtraction:
        """One pass over one row; a failure is recorded on the record, never raised."""
        input_hash = hashlib.sha256(
            json.dumps([focus, row.row_text, row.class_, row.level, row.footnotes]).encode()
        ).hexdigest()
        base = {
            "row_id": row.id,
            "guideline": row.guideline,
            "focus": focus,
            "backend": "lexicon",
            "model": self.model_name,
            "prompt_hash": self.prompt_hash(),
            "input_hash": input_hash,
        }
        worker = self._for_row(row)
        try:
            drafts, parses = worker.analyse(row.row_text)
        except Exception as exc:  # one odd row must not sink the guideline
            return RowExtraction(**base, error=f"{type(exc).__name__}: {exc}")
        class_iii = (row.class_ or "").strip().upper() == "III"
        if focus == "POPULATION":
            chosen = [d for d in drafts if _is_population(d)]
            actions: list[ExtractedAction] = []
        else:
            chosen = drafts
            actions = [
                ExtractedAction(
                    text=d.text,
                    normalized=d.normalized,
                    role=d.role,
                    class_=_clean_grade(row.class_),
                    level=_clean_grade(row.level),
                    polarity="not recommended" if class_iii else d.polarity,
                )
                for d in drafts
                if d.slot == "action"
            ]
        concepts = [
            ExtractedConcept(
                role=d.role,
                text=d.text,
                normalized=d.normalized,
                operator=d.operator,
                threshold=d.threshold,
                unit=d.unit,
                or_group=d.or_group,
                negated=d.negated,
            )
            for d in chosen
        ]
        raw = json.dumps(
            [
                {"cohort": p.cohort, "action": p.action, "post": p.post, "verb": p.verb}
                for p in parses
            ]
        )
        return RowExtraction(**base, raw_output=raw, concepts=concepts, actions=actions)

    def _for_row(self, row: RowRecord) -> LexiconExtractor:
        """Same extractor with the table's own footnote abbreviations added.

        The shared list wins on conflicts so grounding and extraction agree; footnotes
        only fill gaps ("LBBB = left bundle branch block").
        """
        extra = footnote_abbreviations(row.footnotes)
        extra = {k: v for k, v in extra.items() if self.abbreviations.lookup(k) is None}
        if not extra:
            return self
        key = tuple(sorted(extra.items()))
        worker = self._row_workers.get(key)
        if worker is None:
            worker = LexiconExtractor(
                Abbreviations({**extra, **dict(self.abbreviations.mapping)}),
                self.term_lookup,
                self.settings,
            )
            worker._cache = self._cache
            self._row_workers[key] = worker
        return worker

    # -- analysis -----------------------------------------------------------------------
    def analyse(self, row_text: str) -> tuple[list[Draft], list[RowParse]]:
        text = clean_row_text(row_text)
        drafts: list[Draft] = []
        parses: list[RowParse] = []
        group_counter = [0]
        for sentence in _sentences(text):
            bare = sentence.rstrip(".")
            if bare.startswith("(") and bare.endswith(")") and drafts:
                # "(bisoprolol, carvedilol or nebivolol)": examples of the action above.
                drafts.extend(self._phrase(bare[1:-1], "action", group_counter))
                continue
            parse = parse_sentence(sentence)
            parses.append(parse)
            sentence_drafts = self._drafts_for(parse, group_counter)
            for d in sentence_drafts:
                d.polarity = parse.polarity
            drafts.extend(sentence_drafts)
        return _dedupe(drafts), parses

    def _drafts_for(self, parse: RowParse, group_counter: list[int]) -> list[Draft]:
        out: list[Draft] = []
        if parse.cohort:
            out.extend(self._cohort(parse.cohort, group_counter))
        if parse.action:
            out.extend(self._action(parse.action, group_counter))
        for kind, phrase in parse.post:
            out.extend(self._post_phrase(kind, phrase, group_counter))
        return out

    def _action(self, text: str, group_counter: list[int], slot: str = "action") -> list[Draft]:
        """The recommended thing, with its components and companions split off.

        "DAPT with aspirin and clopidogrel", "imaging with IVUS or OCT": the head is the
        action, what follows "with/by/using/via" are its components. "adding X to Y":
        X is the action, Y the background therapy.
        """
        text = text.strip(" ,;.")
        components = ""
        adding = re.match(r"^(?:(?:routine|the)\s+)*(?:adding|addition\s+of)\s+", text, re.I)
        if adding:
            rest = text[adding.end() :]
            cut = re.search(r"\s+to\s+(?:the\s+combination\s+of\s+)?", rest)
            if cut:
                text, background = rest[: cut.start()], rest[cut.end() :]
                return self._phrase(text, slot, group_counter) + self._phrase(
                    background, "background", group_counter
                )
        cut = _top_level_search(r"\s+(?:with|by|using|via)\s+", text)
        generic_head = cut is not None and re.fullmatch(
            r"(?:(?:the|a|an)\s+)?(?:treatment|therapy|pretreatment|management)",
            text[: cut.start()].strip(),
            flags=re.I,
        )
        if cut is not None and not generic_head:
            text, components = text[: cut.start()], text[cut.end() :]
        out = self._phrase(text, slot, group_counter)
        if components:
            parts = self._phrase(components, "component", group_counter)
            regimen = re.search(r"\b(?:therapy|regimen|combination)$", text.strip(), re.I)
            if regimen is None:
                regimen = all(d.role == "Medication" for d in out) and out
            if regimen and any(p.role == "Medication" for p in parts):
                out = []  # "triple therapy with aspirin and an OAC": the drugs, not the name
                for part in parts:
                    if part.role == "Medication":
                        part.slot = slot  # the listed drugs are what is recommended
            out.extend(parts)
        return out

    def _post_phrase(self, kind: str, phrase: str, group_counter: list[int]) -> list[Draft]:
        if kind == "drop":
            return []
        if kind == "cohort":
            return self._cohort(phrase, group_counter)
        if kind == "outcome":
            return self._phrase(phrase, "outcome", group_counter)
        if kind == "purpose":
            return self._phrase(phrase, "purpose", group_counter)
        if kind in {"background", "alternative"}:
            return self._action(phrase, group_counter, slot="background")
        if kind == "negated":
            return _negate(self._phrase(phrase, "context", group_counter))
        return self._phrase(phrase, "context", group_counter)

    def _cohort(self, text: str, group_counter: list[int]) -> list[Draft]:
        """Cohort phrase: pre-modifiers before the patient noun, then typed segments."""
        text = text.strip(" ,;.")
        negate_all = False
        absence = _ABSENCE_LEAD.match(text)
        if absence:
            text, negate_all = text[absence.end() :], True
        lead = _COHORT_LEAD.match(text)
        if lead:
            text = text[lead.end() :]
        noun = _PATIENT_NOUN.search(text)
        premod_drafts: list[Draft] = []
        premod_words: list[str] = []
        if noun is not None and _depth_at(text, noun.start()) == 0:
            premod_words = text[: noun.start()].split()
            while premod_words and premod_words[0].lower() in _COHORT_DETERMINERS:
                premod_words.pop(0)
            rest = text[noun.end() :]
            if premod_words:
                premod_drafts = self._phrase(" ".join(premod_words), "cohort", group_counter)
        else:
            rest = " with " + text
        seg_drafts: list[tuple[str, list[Draft]]] = []
        for kind, segment in _cohort_segments(rest):
            slot = {"background": "background", "procedure": "context"}.get(kind, "cohort")
            drafts = self._phrase(segment, slot, group_counter)
            if kind == "without":
                _negate(drafts)
            seg_drafts.append((kind, drafts))
        if negate_all:
            _negate(premod_drafts)
            for _, drafts in seg_drafts:
                _negate(drafts)
        # Population: the disease written before the patient noun; else the leading
        # conditions of the first "with" segment (up to its first parameter or OR group).
        disease_premods = [
            d
            for d in premod_drafts
            if d.role == "Condition" and not d.negated and d.text.lower() not in _STATE_ADJECTIVES
        ]
        if disease_premods:
            for d in disease_premods:
                d.population = True
        elif seg_drafts and seg_drafts[0][0] == "with":
            for d in seg_drafts[0][1]:
                if d.role != "Condition" or d.negated or d.or_group:
                    break
                d.population = True
        out = list(premod_drafts)
        for _, drafts in seg_drafts:
            out.extend(drafts)
        return out

    def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]:
        """Parameters, then AND/OR leaves, then a role for each leaf."""
        text = text.strip(" ,;.")
        if not text:
            return []
        if slot == "outcome":
            text = _OUTCOME_LEAD.sub("", text)
            target = re.match(r"^(.+?)\s+to\s+(?=(?:<|>|≤|≥|<=|>=)?\s*\d)", text)
            if target:  # "lower systolic blood pressure to 120–129 mmHg": a target parameter
                return self._phrase(
                    f"{target.group(1)} {text[target.end() :]}", "purpose", group_counter
                )
        if slot in {"context", "purpose"}:
            text = re.sub(
                r"^(?:choosing|deciding|selecting)\s+(?:between\s+)?", "", text, flags=re.I
            )
        text, asides = _pull_parentheticals(text)
        masked, params = extract_parameters(text, self.abbreviations)
        tree = split_logic(masked, keep_together=self._is_known_term)
        drafts: list[Draft] = []
        group_of = _or_groups(tree, group_counter)
        for leaf in leaves(tree):
            leaf_text = _OUTCOME_LEAD.sub("", leaf.text) if slot == "outcome" else leaf.text
            for draft in self._leaf_drafts(Leaf(leaf_text, leaf.negated, leaf.full), params, slot):
                draft.or_group = group_of.get(id(leaf))
                drafts.append(draft)
        # Parenthetical asides: examples of the head ("MRA (spironolactone or
        # eplerenone)") or measurements ("(SYNTAX score >32)"); never actions.
        # Members of a recommended drug class are recommended too.
        aside_slot = {"action": "action", "background": "example", "component": "example"}.get(
            slot, slot
        )
        for aside in asides:
            drafts.extend(self._phrase(aside, aside_slot, group_counter))
        if slot == "outcome":
            for d in drafts:
                d.or_group = None  # outcomes are aims, never alternatives to choose from
        _drop_lonely_groups(drafts)
        return drafts

    def _leaf_drafts(self, leaf: Leaf, params: list[Parameter], slot: str) -> list[Draft]:
        out: list[Draft] = []
        text = leaf.text
        param_slot = "cohort" if slot in {"action", "component", "example"} else slot
        for match in _PLACEHOLDER_RE.finditer(text):
            p = params[int(match.group(1))]
            out.append(
                Draft(
                    role="ClinicalParameter",
                    text=p.text,
                    normalized=p.name_normalized or self.abbreviations.normalize(p.text),
                    slot=param_slot,
                    operator=p.operator,
                    threshold=p.threshold,
                    unit=p.unit,
                    negated=leaf.negated,
                )
            )
        had_param = bool(out)
        rest = _tidy_leaf(_PLACEHOLDER_RE.sub(" ", text), slot)
        if had_param:
            rest = re.sub(r"\s+(?:of|with|to|for|by|in|at|is|are)$", "", rest, flags=re.I)
            if set(rest.lower().split()) <= _PARAM_LEFTOVERS:
                return out
        if not rest or not re.search(r"[A-Za-z]", rest):
            return out
        if rest.lower() in _EMPTY_CONTEXT or rest.lower() in _NAME_STOP:
            return out
        role = self.role_for(rest, slot)
        if role is None:
            return out
        full = _tidy_leaf(leaf.full, slot) if leaf.full else rest
        out.append(
            Draft(
                role=role,
                text=rest,
                normalized=self.abbreviations.normalize(full),
                slot=slot,
                negated=leaf.negated,
            )
        )
        # "symptomatic HFrEF": a patient state written onto the disease is its own
        # condition ("symptomatic") beside the disease ("HFrEF").
        state = re.match(r"^(\w+)\s+(?=\S)", rest)
        if (
            role == "Condition"
            and state
            and state.group(1).lower() in _SPLIT_STATES
            and slot in {"cohort", "context"}
        ):
            remainder = rest[state.end() :]
            out[-1] = Draft(
                role="Condition",
                text=state.group(1),
                normalized=state.group(1).lower(),
                slot=slot,
                negated=leaf.negated,
            )
            out.append(
                Draft(
                    role=self.role_for(remainder, slot) or "Condition",
                    text=remainder,
                    normalized=self.abbreviations.normalize(remainder),
                    slot=slot,
                    negated=leaf.negated,
                )
            )
        return out

    # -- roles --------------------------------------------------------------------------
    def role_for(self, text: str, slot: str) -> str | None:
        """Outcome slot wins; then an exact-enough terminology hit; then word rules."""
        if slot == "outcome":
            return "Outcome"
        normalized = self.abbreviations.normalize(text)
        first = normalized.split()[0] if normalized.split() else ""
        if slot in {"cohort", "context"} and first in _CONDITION_FIRST_WORDS:
            return "Condition"
        hit = self._best_hit(normalized) or self._best_hit(text.lower())
        if hit is not None:
            role = SEMANTIC_TAG_ROLES.get(hit.semantic_tag)
            if role is not None:
                return role
        role = _heuristic_role(normalized) or self._head_ngram_role(normalized)
        if role == "ClinicalParameter" and slot not in {"purpose", "component"}:
            role = "Condition"  # "irregular heart rate", "HFrEF": states, not measurements
        if slot == "action" and role not in (None, "Procedure", "Medication"):
            role = "Procedure"  # the recommended thing is done or given, never a state
        if role is not None:
            return role
        return {
            "action": "Procedure",
            "component": "Procedure",
            "example": "Medication",
            "background": "Medication",
            "context": "Condition",
            "cohort": "Condition",
            "purpose": "Condition",
        }[slot]

    def _best_hit(self, phrase: str) -> TermHit | None:
        if self.term_lookup is None or not phrase:
            return None
        if phrase not in self._cache:
            hits = list(self.term_lookup(phrase))
            best = max(hits, key=lambda h: h.score) if hits else None
            if best is not None and best.score < self.settings.min_term_score:
                best = None
            self._cache[phrase] = best
        return self._cache[phrase]

    def _head_ngram_role(self, normalized: str) -> str | None:
        """Longest terminology match among the sub-phrases ending at the head word."""
        if self.term_lookup is None:
            return None
        words = normalized.split()
        for size in range(min(len(words) - 1, self.settings.max_ngram), 0, -1):
            hit = self._best_hit(" ".join(words[-size:]))
            if hit is not None and SEMANTIC_TAG_ROLES.get(hit.semantic_tag):
                return SEMANTIC_TAG_ROLES[hit.semantic_tag]
        return None

    def _is_known_term(self, phrase: str) -> bool:
        """Veto splitting a phrase that is itself a terminology description."""
        if self.term_lookup is None or not re.search(r"\b(?:and|or)\b", phrase):
            return False
        hit = self._best_hit(self.abbreviations.normalize(phrase))
        return hit is not None and hit.score >= 0.97


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------
_FOOTNOTE_DEFINITION = re.compile(
    r"(?<![\w\-])(?P<abbr>[A-Za-z][A-Za-z0-9\-/]{0,14})\s+=\s+(?P<exp>[^;=]+?)\s*(?=;|\.\s|\.$|$)"
)
_OUTCOME_LEAD = re.compile(
    rf"^(?:(?:to\s+)?(?:{_OUTCOME_VERBS})\s+)?(?:the\s+)?"
    r"(?:(?:risk|rates?|incidence|number|likelihood)\s+of\s+)?",
    re.IGNORECASE,
)
_PARAM_LEFTOVERS = frozenset(
    "a an the treatment target goal level value of with in to for and or".split()
)


def footnote_abbreviations(footnotes: Sequence[str]) -> dict[str, str]:
    """ "ACE-I = angiotensin-converting enzyme inhibitor; ARB = ..." -> {abbr: expansion}.

    Only abbreviation-like tokens whose expansion starts with the same letter are taken,
    so a descriptive note ("CHA2DS2-VASc = stroke risk score") never renames a term.
    """
    found: dict[str, str] = {}
    for note in footnotes:
        for match in _FOOTNOTE_DEFINITION.finditer(note):
            abbr, expansion = match.group("abbr"), match.group("exp").strip()
            if not re.search(r"[A-Z]", abbr) or len(expansion) < 3:
                continue
            if expansion[0].lower() != abbr[0].lower():
                continue
            found.setdefault(abbr, expansion)
    return found


def _clean_grade(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


def _sentences(text: str) -> list[str]:
    """Split on sentence ends (". " before a capital or "("), not on decimals."""
    parts = re.split(r"(?<=[A-Za-z0-9)%²])\.\s+(?=[A-Z(])", text)
    out: list[str] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        out.append(part)
    return out


def _top_level_search(pattern: str, text: str) -> re.Match[str] | None:
    for match in re.finditer(pattern, text, flags=re.IGNORECASE):
        if _depth_at(text, match.start()) == 0:
            return match
    return None


def _pull_parentheticals(text: str) -> tuple[str, list[str]]:
    """Take top-level "( … )" asides out of a phrase; return the phrase and the asides."""
    asides: list[str] = []
    out: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
            if depth == 1:
                current = []
                continue
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                aside = "".join(current).strip()
                if aside:
                    asides.append(aside)
                continue
        if depth > 0:
            current.append(ch)
        else:
            out.append(ch)
    if depth > 0 and current:  # unbalanced: keep the text as it was
        return text, []
    return re.sub(r"\s+", " ", "".join(out)).strip(" ,;"), asides


def parse_sentence(sentence: str) -> RowParse:
    """Cut a sentence into cohort, action and trailing phrases around its verb."""
    sentence = sentence.strip().rstrip(".")
    parse = RowParse()
    verb = _VERB_RE.search(sentence)
    if verb is None:
        # Imperative rows ("Consider aspirin in ...", "Avoid NSAIDs in ...").
        imperative = re.match(
            r"^(?:(?P<neg>avoid|do\s+not\s+(?:use|give|start|offer))|consider|use|give|offer|"
            r"start|initiate|perform|prescribe)\s+",
            sentence,
            flags=re.IGNORECASE,
        )
        if imperative:
            parse.verb = imperative.group(0).strip()
            if imperative.group("neg"):
                parse.polarity = "not recommended"
            sentence = sentence[imperative.end() :]
        pre, post = sentence, ""
    else:
        parse.verb = verb.group(0)
        if any(k.startswith("n") and v for k, v in verb.groupdict().items()):
            parse.polarity = "not recommended"
        pre, post = sentence[: verb.start()], sentence[verb.end() :]
    pre = pre.strip(" ,;")
    post = post.strip(" ,;")

    # "It is recommended that <cohort> undergo/receive <action>".
    that_clause = re.match(
        r"^that\s+(?P<cohort>.+?)\s+(?:should\s+)?(?:undergo|receive|be\s+treated\s+with|"
        r"be\s+offered|be\s+given|be\s+started\s+on|take|have)\s+(?P<action>.+)$",
        post,
        flags=re.IGNORECASE,
    )
    if re.fullmatch(r"it", pre, flags=re.IGNORECASE) and that_clause:
        parse.cohort = that_clause.group("cohort")
        action, trailing = _split_post(that_clause.group("action"))
        parse.action = action
        parse.post = trailing
        return parse
    # "It is recommended to/that ..." puts the action after the verb.
    if re.fullmatch(r"it", pre, flags=re.IGNORECASE):
        pre = ""
        post = re.sub(
            r"^(?:that\s+|to\s+(?:use|perform|give|administer|consider|initiate|start|"
            r"measure|assess|evaluate|prescribe|obtain|add|implant|refer|offer|treat)\s+)",
            "",
            post,
            flags=re.IGNORECASE,
        )
        post = re.sub(r"\s+(?:be|is|are|should\s+be)\s+\w+(?:ed)?\b", "", post, count=1)

    active = verb is not None and re.search(
        r"\b(?:receive|undergo|have|use|take)$", verb.group(0), re.IGNORECASE
    )
    considered_for = verb is not None and re.match(r"(?:for|with|on|to)\s+", post, re.IGNORECASE)
    # The subject is the cohort when the sentence starts with the patients themselves
    # ("Patients with X should receive / be offered / be treated with Y").
    cohort_subject = _COHORT_SUBJECT.match(pre) is not None
    passive_with_object = (
        verb is not None
        and parse.polarity == "recommended"
        and bool(post)
        and not _POST_MARKERS.match(post)
        and re.search(rf"\bbe\s+(?:{_VP_OBJECTS})$", verb.group(0), re.IGNORECASE) is not None
    )
    if (active or considered_for or passive_with_object) and cohort_subject:
        # "Patients with X should receive Y" / "... should be considered for Y".
        parse.cohort = pre
        post = re.sub(r"^(?:for|with|on|to)\s+", "", post, flags=re.IGNORECASE)
        action, trailing = _split_post(post)
        parse.action = action
        parse.post = trailing
        return parse

    background = _BACKGROUND_LEAD.match(pre)
    context = _CONTEXT_LEAD.match(pre)
    if _COHORT_LEAD.match(pre) or _ABSENCE_LEAD.match(pre) or background or context:
        cut = _last_top_level_comma(pre)
        if cut is not None:
            lead_phrase, action_part = pre[:cut], pre[cut + 1 :]
        else:
            lead_phrase, action_part = pre, ""
        if background:
            parse.post.append(("background", lead_phrase[background.end() :]))
        elif context and not _COHORT_LEAD.match(pre):
            parse.post.append(("context", lead_phrase[context.end() :]))
        else:
            parse.cohort = lead_phrase
        if not action_part and not post:
            return parse
        if not action_part:
            action_part, trailing = _split_post(post)
            parse.action = action_part
            parse.post.extend(trailing)
            return parse
        pre = action_part.strip()
        # A second lead-in ("In patients with X, in addition to Y, Z is recommended").
        if (_BACKGROUND_LEAD.match(pre) or _COHORT_LEAD.match(pre)) and parse.verb:
            inner = parse_sentence(f"{pre} {parse.verb} {post}")
            if parse.cohort and inner.cohort:
                inner.cohort = parse.cohort + ", " + inner.cohort
            elif parse.cohort:
                inner.cohort = parse.cohort
            inner.post = parse.post + inner.post
            inner.polarity = parse.polarity
            return inner

    action, inner_trailing = _split_post(pre)
    parse.action = action
    parse.post.extend(inner_trailing)
    if post:
        extra_action, trailing = _split_post(post)
        if extra_action and not parse.action:
            parse.action = extra_action
        elif extra_action:
            parse.post.append(("context", extra_action))
        parse.post.extend(trailing)
    return parse


def _split_post(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split "X in patients with Y to reduce Z" into head X and marked trailing phrases."""
    text = text.strip(" ,;")
    marks = [m for m in _POST_MARKERS.finditer(text) if _depth_at(text, m.start("m")) == 0]
    if not marks:
        return text, []
    head = text[: marks[0].start("m")].strip(" ,;")
    trailing: list[tuple[str, str]] = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start("m") if i + 1 < len(marks) else len(text)
        marker = m.group("m")
        body = re.sub(r"[\s,]+(?:and|or)$", "", text[m.end("m") : end].strip(" ,;"))
        kind, phrase = _classify_marker(marker, body)
        if phrase or kind == "drop":
            trailing.append((kind, phrase))
    return head, trailing


def _classify_marker(marker: str, body: str) -> tuple[str, str]:
    low = re.sub(r"\s+", " ", marker.lower()).strip()
    if re.match(r"as (?:the |a )?(?:first|second)[\s\-]line", low):
        return "drop", ""
    if re.match(r"(?:as|because|since) (?:it|they|this) |because of", low):
        return "outcome", body
    if re.match(r"as (?:an? )?(?:suitable )?(?:alternative|replacement|substitute)|over$", low):
        return "alternative", body
    if re.match(r"as (?:a )?part of", low):
        return "background", body
    if re.match(r"for (?:rate|rhythm|symptom|heart rate|blood pressure) control", low):
        return "drop", ""  # a therapeutic goal, not an outcome (annotation guidelines §1)
    if re.match(rf"to (?:{_PURPOSE_VERBS})\b", low):
        body = re.sub(
            r"^(?:the\s+)?(?:cause|estimate|presence|extent|severity|need)\s+(?:of|for)\s+",
            "",
            body,
            flags=re.I,
        )
        return "purpose", body
    if re.match(r"(?:(?:solely|only|mainly|primarily) )?to ", low) or re.match(
        r"for (?:the )?(?:reduction|prevention|improvement|relief)", low
    ):
        return "outcome", body
    if re.match(r"for (?:[\w\-]+ )?(?:primary|secondary) prevention", low):
        return "outcome", re.sub(r"^for\s+", "", marker, flags=re.I)
    if re.match(r"for (?:the )?(?:treatment|management) of", low):
        return "context", body
    if re.match(r"(?:in addition to|on top of|in combination with|added to)", low):
        return "background", body
    if re.match(r"(?:rather than|instead of|in preference to)", low):
        return "alternative", body
    if low == "despite":
        return "background", body
    if low == "unless":
        return "negated", body
    if low in {"if", "when"}:
        return "context", re.sub(r"^(?:there\s+is|there\s+are|the\s+patient\s+has)\s+", "", body)
    if re.match(r"(?:before|after|following|prior to|during)", low):
        return "context", body
    return "cohort", (marker + " " + body).strip()


def _depth_at(text: str, index: int) -> int:
    return text[:index].count("(") - text[:index].count(")")


def _last_top_level_comma(text: str) -> int | None:
    depth = 0
    last = None
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            last = i
    return last


_SEGMENT_RE = re.compile(
    r"(?P<kind>\bwho\s+(?:are|have|had|were|is|has)\s+(?:been\s+)?|\bwhose\b|\bwho\b"
    r"|\bin\s+whom\b|\bwithout\b|\bin\s+the\s+absence\s+of\b|\bdespite\b|\btreated\s+with\b"
    r"|\breceiving\b|\btaking\b|\balready\s+on\b|\bon\s+top\s+of\b|\bin\s+addition\s+to\b"
    r"|\bon\b(?!\s+top\b)|\bundergoing\b|\bscheduled\s+for\b|\breferred\s+for\b|\bafter\b"
    r"|\bfollowing\b|\bwith\b"
    r"|\bin\b(?!\s+(?:the|a|an|whom|addition|preference|combination|case|order)\b)"
    r"|\bat\b(?=\s+(?:high|increased|intermediate|low|very)\b))",
    re.IGNORECASE,
)
# "HF with reduced ejection fraction": here "with" belongs to the disease name.
_WITH_INSIDE_TERM = re.compile(
    r"\s*(?:reduced|preserved|mildly|mid-range|midrange|moderately|normal|improved|"
    r"recovered)\b",
    re.IGNORECASE,
)


def _cohort_segments(rest: str) -> list[tuple[str, str]]:
    """Split what follows the patient noun into typed segments ("with", "who", ...)."""
    segments: list[tuple[str, str]] = []
    kind = "with"
    start = 0
    for m in _SEGMENT_RE.finditer(rest):
        word = re.sub(r"\s+", " ", m.group("kind").lower().strip())
        if _depth_at(rest, m.start()) != 0 or m.start() < start:
            continue
        if word == "with" and _WITH_INSIDE_TERM.match(rest[m.end() :]):
            continue
        if word == "in" and not rest[start : m.start()].strip(" ,;"):
            continue  # "in" right after a connector is part of the phrase
        body = rest[start : m.start()]
        body = re.sub(r"[,\s]*\b(?:and|or)\s*$", "", body.strip())
        if body.strip(" ,;"):
            segments.append((kind, body.strip(" ,;")))
        new_kind = _segment_kind(word)
        # "... and in sinus rhythm": a bare "in" continues the current kind.
        kind = kind if word == "in" and kind != "without" else new_kind
        start = m.end()
        if word == "at":
            start = m.start()  # keep "at high risk of ..." as the condition text
    tail = rest[start:].strip(" ,;")
    if tail:
        segments.append((kind, tail))
    return segments


def _segment_kind(word: str) -> str:
    if word == "without" or word.startswith("in the absence"):
        return "without"
    if word in {
        "despite",
        "treated with",
        "receiving",
        "taking",
        "already on",
        "on",
        "on top of",
        "in addition to",
    }:
        return "background"
    if word in {"undergoing", "scheduled for", "referred for", "after", "following"}:
        return "procedure"
    if word.startswith("who") or word == "in whom":
        return "who"
    return "with"


# Qualifiers that do not change what the concept is: dropped from spans (annotation
# guidelines, section 2). "resting" only before a test ("resting 12-lead ECG").
_QUALIFIERS = frozenset(
    """
    significant stable long-term short-term lifelong high-intensity moderate-intensity
    low-dose high-dose routine urgent emergency elective high-risk combined second
    """.split()
)
_ACTION_QUALIFIERS = _QUALIFIERS | {"resting"}
_SPLIT_STATES = frozenset({"symptomatic", "asymptomatic"})
# "statin therapy" -> "statin": the drug names the concept; "antithrombotic therapy" keeps
# its noun because "antithrombotic" alone is an adjective.
_DRUG_NOUN_THERAPY = re.compile(
    r"^(.*\b(?:statins?|aspirin|heparin|warfarin|insulin|digoxin|[\w\-]*(?:blockers?|"
    r"inhibitors?|antagonists?|pril|sartan|olol|gliflozin|xaban|gatran|grel|relor)))"
    r"\s+(?:therapy|treatment)$",
    re.IGNORECASE,
)
# "chest pain of suspected coronary origin", "stenosis of high anatomical complexity"
_QUALIFYING_OF = re.compile(
    r"\s+of\s+(?:[\w\-]+\s+){0,3}(?:origin|complexity|severity|extent|degree|grade)$",
    re.IGNORECASE,
)
_LEADING_VERBS = re.compile(
    r"^(?:(?:with|who\s+(?:are|have|had|were)|who|whose|having|and|or|are|have|has|had|in|"
    r"survived|experienced|developed|suffered|underwent|remain|remains|still|is|be)\s+)+",
    re.IGNORECASE,
)


def _tidy_leaf(text: str, slot: str) -> str:
    """Minimal span: drop determiners, lead-in verbs and connectors around the term."""
    text = text.strip(" ,;.:")
    text = re.sub(r"\(\s*\)", " ", text)
    text = _LEADING_VERBS.sub("", text)
    text = re.sub(r"^at\s+(?=(?:high|increased|intermediate|low|very)\b)", "", text, flags=re.I)
    if slot in {"action", "background", "component", "example"}:
        text = _LEAD_INS.sub("", text)
    else:
        text = re.sub(r"^(?:(?:a|an|the|any|known|documented)\s+)+", "", text, flags=re.I)
    qualifiers = _ACTION_QUALIFIERS if slot in {"action", "example"} else _QUALIFIERS
    words = text.split()
    while len(words) > 1 and words[0].lower() in qualifiers:
        words.pop(0)
    text = " ".join(words)
    text = _QUALIFYING_OF.sub("", text)
    if slot in {"action", "background", "example"}:
        text = _DRUG_NOUN_THERAPY.sub(r"\1", text)
    if slot in {"action", "background", "component"}:
        text = re.sub(r"\s+of\s+(?:a|an|the)\s+(?:stenosis|lesion)$", "", text, flags=re.I)
    if slot in {"context", "purpose"}:
        text = re.sub(r"^(?:choosing|deciding|selecting)\s+(?:between\s+)?", "", text, flags=re.I)
    text = re.sub(r"\s+(?:persists|persist|remains|remain|continues)$", "", text, flags=re.I)
    text = re.sub(r"\s+(?:routinely|regularly|systematically|always)$", "", text, flags=re.I)
    text = re.sub(r"\s+", " ", text)
    if text.count("(") > text.count(")"):
        text = text[: text.rfind("(")].strip()
    elif text.count(")") > text.count("("):
        text = text.replace(")", "").strip()
    return text.strip(" ,;.:")


def _is_population(d: Draft) -> bool:
    """The cohort: conditions that select patients, not negated, not alternatives, and
    not what a test is meant to find (purpose clause)."""
    return (
        d.role == "Condition"
        and d.slot in {"cohort", "context"}
        and not d.negated
        and not d.or_group
    )


def _negate(drafts: list[Draft]) -> list[Draft]:
    """Negate a whole phrase: "without A or B" is NOT A AND NOT B, so no OR group."""
    for d in drafts:
        if d.negated:
            continue
        d.negated = True
        d.or_group = None
    return drafts


def _drop_lonely_groups(drafts: list[Draft]) -> None:
    """An OR group that lost members (dropped empty leaves) is no group."""
    counts: dict[str, int] = {}
    for d in drafts:
        if d.or_group:
            counts[d.or_group] = counts.get(d.or_group, 0) + 1
    for d in drafts:
        if d.or_group and counts[d.or_group] < 2:
            d.or_group = None


def _heuristic_role(normalized: str) -> str | None:
    words: list[str] = []
    for token in re.findall(r"[a-z0-9\-]+", normalized.lower()):
        words.append(token)
        if "-" in token:
            words.extend(part for part in token.split("-") if part)
    if not words:
        return None
    head = normalized.lower().split()[-1].strip("()")
    head_parts = [head, *head.split("-")[-1:]]
    if any(h in _CONDITION_HEADS for h in head_parts):
        return "Condition"
    is_drug = any(w in _MED_WORDS or w.endswith(_MED_SUFFIXES) for w in words)
    if head in {"therapy", "therapies", "treatment", "treatments", "regimen"}:
        return "Medication" if is_drug else "Procedure"
    if any(h in _MED_WORDS or h.endswith(_MED_SUFFIXES) for h in head_parts):
        return "Medication"
    if head in _PROCEDURE_HEADS or head.endswith(("ectomy", "plasty", "scopy", "graphy", "otomy")):
        return "Procedure"
    if is_drug:
        return "Medication"
    if head in _PARAMETER_HEADS:
        return "ClinicalParameter"
    return None


def _or_groups(tree: Node, group_counter: list[int]) -> dict[int, str]:
    """Row-level OR group ids ("g1", "g2", ...) for the leaves of each OR node.

    split_logic gives AND precedence ("A and B or C" = (A AND B) OR C), but guideline
    cohorts read the outer conjuncts as separate conditions: "CCS and prior MI or prior
    revascularization" is CCS AND (MI OR revascularization). So an AND branch of an OR
    contributes only its item next to the "or"; its outer items stay ungrouped.
    """
    assigned: dict[int, str] = {}

    def visit(node: Node) -> None:
        if isinstance(node, Leaf):
            return
        if node.op == "AND":
            for child in node.children:
                visit(child)
            return
        group_counter[0] += 1
        group = f"g{group_counter[0]}"
        last = len(node.children) - 1
        for i, child in enumerate(node.children):
            if isinstance(child, Leaf):
                assigned[id(child)] = group
                continue
            inner = [c for c in child.children if isinstance(c, Leaf)]
            if not inner:
                continue
            # first branch: its last item joins; last branch: its first item joins.
            joiner = inner[-1] if i == 0 else inner[0] if i == last else None
            if joiner is None:
                for leaf in inner:
                    assigned[id(leaf)] = group
            else:
                assigned[id(joiner)] = group

    visit(tree)
    return assigned


def _dedupe(drafts: list[Draft]) -> list[Draft]:
    """One draft per (role, normalized, negated, parameter values); population sticks."""
    seen: dict[tuple, Draft] = {}
    out: list[Draft] = []
    for d in drafts:
        key = (
            d.role,
            d.normalized,
            d.negated,
            d.operator,
            json.dumps(d.threshold),
            d.unit,
            d.slot == "action",
        )
        if key in seen:
            kept = seen[key]
            kept.population = kept.population or d.population
            kept.or_group = kept.or_group or d.or_group
            continue
        seen[key] = d
        out.append(d)
    return out


__all__ = [
    "Expr",
    "LexiconExtractor",
    "LexiconSettings",
    "Parameter",
    "RULES_VERSION",
    "SEMANTIC_TAG_ROLES",
    "TermHit",
    "TermLookup",
    "clean_row_text",
    "extract_parameters",
    "footnote_abbreviations",
    "parse_sentence",
]
