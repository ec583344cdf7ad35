"""The lexicon's word lists: which words a concept span leaves out, which phrases name a
state, a need or a purpose (role_words.py holds the words that name a phrase's role when
the terminology is silent).

Lists, not a dictionary of terms: the sample terminology lacks many guideline terms, so
roles fall back to the head word ("... inhibitor" is a Medication, "... angiography" a
Procedure), and spans follow data/gold/ANNOTATION_GUIDELINES.md (qualifiers such as
"stable" or "long-term" dropped, the drug named instead of "statin therapy").
"""

from __future__ import annotations

import re

from cardio_assets.logic.coordination import REFUSAL_VERB
from cardio_assets.logic.lexicon.role_words import DRUG_STEM

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


# the verb of a state that goes on ("symptoms persist", "AF persisting")
PERSIST_WORDS = r"persists?|persisting"
# "commissurotomy is the intervention of choice", "VKAs remain the anticoagulant of choice":
# the act is named as the one to choose ("still" or "generally" may come between); never "the
# time / weeks / time window of choice for X", which says when, not what
OF_CHOICE = (
    r"\b(?:is|are|remains?)\s+(?:(?:still|generally|usually|often)\s+)?the\s+(?:preferred\s+)?"
    r"(?!(?:[\w\-]+\s+)?(?:time|timing|moment|period|trimester|week|day|month|place|site|window|"
    r"frame|point)s?\s+of\s)(?:[\w\-]+\s+)?[\w\-]+\s+of\s+(?:first\s+)?choice\b"
)
_OUTCOME_VERBS = (
    r"reduce|lower|prevent|improve|decrease|relieve|control|delay|avoid|slow|minimi[sz]e|"
    r"alleviate|limit|protect|preserve|prolong|increase|enhance|promote|revert|reverse|"
    r"restore|correct|allow|attenuate|lessen|mitigate|diminish|halt|stabili[sz]e|"
    r"hasten|accelerate|shorten|speed(?:\s+up)?|halve|cut|raise|boost|suppress|terminate|ease"
)
_PURPOSE_VERBS = (
    r"measure|detect|(?:re-?)?assess|refine|clarify|reach|achieve|guide|confirm|exclude|identify|"
    r"(?:re-?)?evaluate|estimate|establish|diagnose|stratify|determine|rule\s+out|obtain|maintain|"
    r"monitor|check|screen|facilitate|enable|support|select|expose|unmask|reveal|"
    r"document|provoke|differentiate|distinguish|localize|localise|quantify|characteri[sz]e|"
    r"optimi[sz]e|provide|permit|inform|choose|decide|correlate"
)
# "person-centred care" names no person: a word joined on by a hyphen is another word
_PATIENT_WORDS = (
    r"(?:patients|patient|individuals|individual(?!\s+(?!(?:with|who|whose|at|in|on|aged|"
    r"undergoing|receiving|treated|after|from|of|and|or|patients?|persons?|basis|cases?)\b)"
    r"[a-z])|people|persons|person|subjects|"
    r"those|women|men|males|females|adults|survivors|candidates|children|adolescents|cases|"
    r"participants|athletes|anyone|everyone|anybody|everybody|someone|somebody)(?!-)"
)
# ("individual" before another noun is an adjective: "individual coaching strategies")
_PATIENT_NOUN = re.compile(rf"\b(?:{_PATIENT_WORDS})\b", re.IGNORECASE)
# Patient nouns that name a demographic group: a Condition of the row (the contract, §2),
# unlike "patients" or "individuals"; with the state word before them one group
DEMOGRAPHIC_NOUN = re.compile(
    r"women|men|males|females|adults|children|adolescents|girls|boys|infants|athletes",
    re.IGNORECASE,
)
DEMOGRAPHIC_STATE = re.compile(
    r"pregnant|older|elderly|young|younger|postmenopausal|premenopausal|adult|very\s+old",
    re.IGNORECASE,
)
_COHORT_DETERMINERS = frozenset(
    """
    all selected the these such other eligible most any some certain appropriate
    every each well-selected
    """.split()
)
# a therapy or drug named next ("prolongation of anticoagulation", "extending DAPT"), after
# which "prolongation of" only leads in (the ablation's prolongation is something else)
A_THERAPY = (
    r"(?:the\s+)?(?:[\w\-/]+\s+){0,3}?(?:therap(?:y|ies)|treatment|anticoagulation|"
    rf"antiplatelets?|DAPT|OACs?|NOACs?|DOACs?|[\w\-]*{DRUG_STEM}s?)\b"
)
_LEAD_INS = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:(?:combined|concomitant|simultaneous|peri-?operative|"
    r"pre-?operative|post-?operative)\s+)?"
    r"(?:use|intake|(?:co-?)?administration|initiation|addition|prescription|"
    r"consideration|implementation|provision|performance|introduction|continuation|calculation|"
    rf"(?:prolongation|extension)(?=\s+of\s+{A_THERAPY})|"
    r"resumption|reintroduction|re-?initiation|combination)\s+of\s+|"
    r"(?:participation|engagement|involvement)\s+in\s+|"
    r"(?:treatment|therapy)\s+with\s+|routine(?:ly)?\s+|systematic\s+|"
    r"(?:adding|starting|initiating|continuing|resuming|restarting|using|switching\s+to|"
    r"proceeding\s+(?:directly\s+)?to|resorting\s+to|"
    rf"(?:prolonging|extending)(?=\s+{A_THERAPY})|"
    r"giving|keeping|maintaining|start|initiate|considering|engaging\s+in|providing|"
    r"offering|performing|implementing|applying|prescribing|administering|choosing|"
    r"begin|commence)\s+|(?:the\s+)?presence\s+of\s+|"
    r"(?:the|a|an|all|any|either|both)\s+)+",
    re.IGNORECASE,
)
# Context words that carry no concept ("when tolerated").
_EMPTY_CONTEXT = frozenset(
    """tolerated possible feasible available indicated needed appropriate required early
    late soon immediately contraindicated present""".split()
)


# "AF controlled by medication", "hypertension treated with two drugs": a state that is
# under control; its role is the state's, whatever names the means
STATE_UNDER_CONTROL = re.compile(
    r"^(?P<head>.+?)\s+(?:(?:is|are)\s+)?(?:well\s+|adequately\s+|poorly\s+)?"
    r"(?:controlled|treated|managed)\s+(?:by|with)\s+\S.*$",
    re.IGNORECASE,
)
# the copula of a clause that says what holds of its subject (THERAPY_FAILED and
# _STATE_PREDICATE below)
_COPULA = r"(?:is|are|was|were|has\s+been|have\s+been)"
# "if vagal manoeuvres fail", "when beta-blockers are not tolerated": the therapy that
# failed defines the cohort; it keeps its own role (a procedure or a drug)
THERAPY_FAILED = re.compile(
    rf"^(?P<head>.+?)\s+(?:fail(?:s|ed)?|{_COPULA}\s+"
    r"(?:ineffective|unsuccessful|not\s+tolerated|insufficient))$",
    re.IGNORECASE,
)


# Lifestyle and diet measures: Procedure in every slot (the contract, §3), also when a
# drug-therapy phrase lists them among its examples ("medical therapy, including diet")
LIFESTYLE = re.compile(
    r"\b(?:lifestyle|diet\w*|exercise|physical\s+activity|smoking|weight\s+(?:loss|reduction)|"
    r"salt|sodium|alcohol|nutrition\w*|rehabilitation|training)\b",
    re.IGNORECASE,
)


# what is left of a phrase once its measurement is taken out and names nothing more: the
# direction words too ("an elevated heart rate (>100 bpm)": the value says how elevated),
# and how the value is known ("invasive confirmation of PCWP <15 mmHg": the value is the
# criterion)
PARAM_LEFTOVERS = frozenset(
    """a an the treatment target goal level value of with in to for and or
    evidence confirmation proof documentation documented confirmed invasive non-invasive
    elevated raised increased high higher low lower reduced decreased
    develop develops developing have has having show shows showing
    fall falls drop drops decrease decline rise increase reduction lowering reducing reduce
    limitation restriction duration growth progression enlargement expansion
    per year years month months week weeks day days annually
    """.split()
)


# States a person chooses to enter: named as the recommended (or advised against) act, they
# are something done ("Pregnancy is not recommended in …"), unlike a finding to assess
ENTERED_STATES = frozenset({"pregnancy", "breastfeeding", "breast feeding", "lactation"})


# Words that are left over from a sentence's framing and name nothing a patient has or
# is given: pronouns, sides without their organ, connectives, tests left unspecified, and a
# purpose named without its object ("... is recommended for diagnosis").
GENERIC_LEAVES = frozenset(
    """
    it they them those these this that which who one ones both either all any other others
    left right combined preferred desired however order case cases use used rest such
    likely unlikely probable possible baseline especially particularly notably preferably
    earlier later sooner lifelong life-long indefinitely permanently thereafter afterwards
    e.g e.g. i.e i.e. eg ie etc then also only well treated living degree way time times
    diagnosis diagnoses method methods treatment treatments therapy therapies
    ideally possibly potentially long-term short-term onwards onward otherwise
    prevented corrected reversed avoided procedure procedures normal increase assessed
    history presence example examples
    maintained continued administered starting majority first general equivalent
    status during subset subsets continuing participate supine
    further adjustment adjustments situation situations ability expertise safety range
    treat manage
    """.split()
) | frozenset(
    {
        "further testing",
        "further tests",
        "further test",
        "further evaluation",
        "further investigation",
        "further investigations",
        "additional testing",
        "additional tests",
        "such as",
        # "A or B or a combination thereof": both together, already named ("a combination
        # of these" loses its lead-in and leaves "these")
        "combination thereof",
        "combination of the two",
        # a preposition and article cut from the value it led to ("at a diameter ≥50 mm")
        "at a",
        "at an",
        "at the",
        "at least",
    }
)


# a lone adverb ("routinely", "subsequently", "safely") says how or when, never what; the
# nouns and adjectives that end the same way are kept
LONE_ADVERB = re.compile(
    r"(?i)(?!(?:elderly|early|family|anomaly|supply|assembly|ally|belly|jelly|rally|ugly)$)"
    r"[a-z]{3,}ly"
)


# Qualifiers that do not change what the concept is are dropped from spans; "resting" only
# before a test ("resting 12-lead ECG"). Those that change it stay ("high-intensity statin",
# "significant left main stenosis", "elective PCI", "known CAD": contract §4).
_QUALIFIERS = frozenset(
    """
    long-term short-term lifelong routine second preferably preferable
    ideally potentially possibly serial hence usually typically generally commonly
    """.split()
)
_ACTION_QUALIFIERS = _QUALIFIERS | {"resting"}
# "twice-daily apixaban", "twice daily edoxaban": how often the drug is taken is its schedule,
# no part of its name ("once-daily dosing" is the schedule itself, named so; "twice-daily
# dosing of X" is X's)
_SCHEDULE_BEFORE_DRUG = re.compile(
    r"^(?:once|twice|thrice)[\s-]daily\s+(?!(?:dosing|doses?|regimens?|administration|"
    r"formulations?|preparations?|use|intake|schedules?|therapy|treatment)\b(?!\s+(?:of|with)\b))"
    r"(?=\S)",
    re.IGNORECASE,
)
_COUNTED_STAGE = re.compile(r"(?:trimesters?|generations?|stages?|phases?|cycles?)$", re.I)
# "statin therapy" -> "statin": the drug names the concept; "antithrombotic therapy" keeps
# its noun because "antithrombotic" alone is an adjective.
_DRUG_NOUN_THERAPY = re.compile(
    r"^(.*\b(?:statins?|aspirin|heparin|warfarin|insulin|digoxin|[\w\-]*(?:blockers?|"
    rf"inhibitors?|antagonists?|{DRUG_STEM}s?)))"
    r"\s+(?:therapy|treatment)$",
    re.IGNORECASE,
)
# "stenosis of high anatomical complexity": how complex or severe, no part of the name ("of
# unknown origin" changes what the finding is and stays: "syncope of unknown origin"); a
# range of grades ("of moderate or great complexity") or a grade not known ("of uncertain
# severity") says which patients, and stays too
_QUALIFYING_OF = re.compile(
    r"\s+of\s+(?!(?:[\w\-]+\s+)*(?:or|to|and|uncertain|unknown|unclear|indeterminate)\s)"
    r"(?:[\w\-]+\s+){0,3}(?:complexity|severity|extent|degree|grade)$",
    re.IGNORECASE,
)
_LEADING_VERBS = re.compile(
    r"^(?:(?:with|who\s+(?:are|have|had|were)|who|whose|having|and|or|are|have|has|had|in|"
    r"survived|experienced|experience|experiences|developed|develop|develops|suffered|"
    r"(?:recently\s+)?(?:received|taken(?!\s+part\b))|"
    r"(?:suffer|suffers|suffering)\s+from|(?:present|presents|presenting)\s+with|"
    r"underwent|remain|remains|"
    # "(patients) treated either by open or endovascular repair": the therapy they had
    r"(?:treated|managed)\s+(?:either\s+)?(?:by|with)|either|"
    r"still|is|be|(?:need|needs|require|requires|requiring|scheduled|planned|due)\s+"
    r"(?:to\s+)?(?:undergo|receive|start|take|have)|require|requires|requiring|"
    r"(?:starting|initiating|commencing|beginning|completing|undergoing)|"
    r"(?:they|he|she)\s+(?:are|is|have|has|had|develop|develops|developed|experience|show)|"
    r"those\s+(?:that|who|which)\s+(?:are|is|have|has|had))\s+)+",
    re.IGNORECASE,
)


# words that only stress what follows ("particularly when X", "above all if Y")
_STRESS_WORDS = r"especially|particularly|notably|mainly|above\s+all|in\s+particular"
# Connectives a clause cut leaves in front of a term ("as indicated by the presence of X",
# "including X", "for X"): the term is X.
_LEADING_CONNECTIVES = re.compile(
    r"^(?:(?:as\s+(?:indicated|shown|evidenced|suggested|defined)\s+by|including|"
    # "(particularly when X are present)": the clause word the hedge hid from the cut
    rf"(?:{_STRESS_WORDS})(?:\s+(?:when|if|where))?|"
    r"namely|such\s+as|e\.g\.?|i\.e\.?|as|for|of|by|than|"
    r"the\s+(?:presence|occurrence|finding|evidence)\s+of|presence\s+of|evidence\s+of|"
    r"however,?|moreover,?|furthermore,?|during|"
    r"(?:in\s+)?(?:the\s+)?(?:case|setting|context|presence)\s+of)\s+)+",
    re.IGNORECASE,
)
_CONNECTIVE_ONLY = re.compile(
    rf"(?:including|{_STRESS_WORDS}|namely|such\s+as|e\.g\.?|i\.e\.?|like)",
    re.IGNORECASE,
)
# A clause that says the term holds ("LV dysfunction is present"): the term is the subject.
_STATE_PREDICATE = re.compile(
    rf"\s+{_COPULA}\s+(?:(?:first|newly|initially|recently)\s+(?=(?:diagnosed|detected|documented|"
    r"identified|confirmed)\s*$))?(?:present|documented|detected|found|"
    r"confirmed|seen|observed|suspected|diagnosed|established|identified|demonstrated|"
    r"recorded|reported|noted|proven|shown|"
    # ("when MINOCA is the working diagnosis": the state the patient is taken to have)
    r"(?:the|a)\s+(?:working|presumed|probable|likely|leading|provisional)\s+diagnosis)\b.*$",
    re.IGNORECASE,
)
# A role the recommended thing plays, not a thing: "as an adjuvant therapy", "as a
# second-level imaging technique"
ROLE_STATEMENT = re.compile(
    r"^as\s+(?:an?\s+|the\s+)?(?:adjuvant|adjunctive|additional|complementary|alternative|"
    # ("as prophylactic therapy": what the drug is given as, not a second act)
    r"prophylactic|preventive|preventative|rescue|maintenance|"
    r"initial|first|second|third|[\w]+-(?:level|line))\b",
    re.IGNORECASE,
)


# Laboratory markers: named alone ("CK, troponins", "CRP and/or ESR") a row means their
# measurement, a Procedure, though the terminology files the marker as a substance; with a
# state word ("elevated troponin") they are a finding, and with a value a parameter.
_BIOMARKER = re.compile(
    r"\b(?:troponins?|hs-ctn\s?[ti]?|ctn[ti]|creatine\s+kinase|ck(?:-mb)?|"
    r"(?:nt-pro)?bnp|nt-probnp|natriuretic\s+peptides?|d-dimers?|c-reactive\s+protein|crp|"
    r"erythrocyte\s+sedimentation\s+rate|esr|procalcitonin|lactate)$",
    re.IGNORECASE,
)
_MARKER_STATE = re.compile(
    r"^(?:elevated|raised|increased|high|low|positive|negative|abnormal|rising|normal)\b",
    re.IGNORECASE,
)


def biomarker_role(normalized: str) -> str | None:
    """Procedure for a laboratory marker named alone (its measurement), Condition for one
    with a state word (a finding), None for anything else."""
    if not _BIOMARKER.search(normalized):
        return None
    return "Condition" if _MARKER_STATE.match(normalized) else "Procedure"


# "if HF is suspected", "when PE is clinically / strongly suspected": the condition is the
# suspicion
SUSPECTED_STATE = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?P<what>(?:(?!(?:where|who|which|whom|when|if|in|with|for)\b)\S+\s+)*?\S+)"
    rf"\s+{_COPULA}\s+(?:(?:clinically|strongly|highly)\s+)?suspected$",
    re.IGNORECASE,
)


# verbs that only say a state comes about ("if symptoms develop"): no part of its name
_COMES_ABOUT = (
    "occurs|occur|occurred|occurring|happens|happen|happened|develops|develop|arises|arise|"
    "appears|appear"
)


def _tidy_leaf(text: str, slot: str) -> str:
    """Minimal span: drop determiners, lead-in verbs and connectors around the term."""
    text = text.strip(" ,;.:\"“”‘’'")  # quotes around a coined name ("ablate and pace")
    text = re.sub(r"\(\s*\)", " ", text)
    if ROLE_STATEMENT.match(text) or len(text) < 2:  # a lone letter is a list label
        return ""
    if _CONNECTIVE_ONLY.fullmatch(text):  # what a parameter's value left of "including age"
        return ""
    text = _LEADING_CONNECTIVES.sub("", text)
    if not SUSPECTED_STATE.match(text):  # "HF is suspected" is named "suspected HF" later
        text = _STATE_PREDICATE.sub("", text)
    text = _LEADING_VERBS.sub("", text)
    text = re.sub(
        r"^at\s+(?=(?:(?:particularly|especially)\s+)?(?:high|increased|intermediate|low|very)\b)",
        "",
        text,
        flags=re.I,
    )
    if slot in {"action", "background", "component", "example"}:
        text = _LEAD_INS.sub("", text)
    else:
        text = re.sub(
            r"^(?:(?:a|an|the|any|documented|further|additional)\s+)+",
            "",
            text,
            flags=re.I,
        )
    text = _SCHEDULE_BEFORE_DRUG.sub("", text)
    qualifiers = _ACTION_QUALIFIERS if slot in {"action", "example"} else _QUALIFIERS
    words = text.split()
    while (
        len(words) > 1
        and words[0].lower() in qualifiers
        # an ordinal before what it counts names another thing ("second trimester")
        and not _COUNTED_STAGE.match(words[1])
    ):
        words.pop(0)
        if len(words) > 1 and words[0].lower() in ("the", "a", "an"):  # "preferably the X"
            words.pop(0)
    text = " ".join(words)
    text = _QUALIFYING_OF.sub("", text)
    if slot in {"action", "background", "example"}:
        text = _DRUG_NOUN_THERAPY.sub(r"\1", text)
    if slot in {"action", "background", "component"}:
        text = re.sub(r"\s+of\s+(?:a|an|the)\s+(?:stenosis|lesion)$", "", text, flags=re.I)
        # "a short DAPT strategy", "a 'wait-and-see' strategy": the named therapy is the act
        # (a quoted adjective, "an 'ischaemia-guided' strategy", names no act of its own)
        coined = re.search(r"[“‘\"']([^”’\"']+)[”’\"']\s+strateg(?:y|ies)$", text)
        if re.search(r"(?<=[A-Z]{2})\s+strateg(?:y|ies)$", text) or (
            coined and re.search(r"(?:\s|-)and(?:\s|-)", coined[1])
        ):
            text = re.sub(r"\s+strateg(?:y|ies)$", "", text)
    if slot in {"context", "purpose"}:
        text = re.sub(r"^(?:choosing|deciding|selecting)\s+(?:between\s+)?", "", text, flags=re.I)
        # "before engaging in sports", "after resuming exercise": the act itself
        text = re.sub(
            r"^(?:engaging|participating|taking\s+part)\s+in\s+"
            r"|^(?:resuming|starting|undertaking)\s+",
            "",
            text,
            flags=re.I,
        )
    text = re.sub(
        rf"\s+(?:(?:that|which)\s+)?(?:persists|persist|remains|remain|continues|{_COMES_ABOUT})$",
        "",
        text,
        flags=re.I,
    )
    # "if syncope occurs during exertion", "occurs while standing": the state and when it
    # comes, without the verb ("that / which" goes with it only before "during / while /
    # when": "AV block that occurs on exertion" keeps its relative clause as before)
    text = re.sub(
        rf"(?<=\w)(?<!\bthat)(?<!\bwhich)(?<!\bwho)\s+(?:(?:that|which)\s+"
        rf"(?=(?:{_COMES_ABOUT})\s+(?:during|while|whilst|when)\b))?(?:{_COMES_ABOUT})\s+"
        r"(?=(?:during|on|at|after|before|with|in|while|whilst|when)\b)",
        " ",
        text,
        flags=re.I,
    )
    # "if AF recurs", "when symptoms worsen": the state named as such ("recurrent AF"); a
    # short name only, never a clause ("a diuretic added if congestion worsens")
    state = r"^((?:(?!(?:if|when|and|or|added|given|is|are)\b)[\w-]+\s+){0,3}[\w-]+)\s+"
    text = re.sub(state + r"(?:recurs|recur)$", r"recurrent \1", text, flags=re.I)
    text = re.sub(state + r"(?:worsens|worsen)$", r"worsening \1", text, flags=re.I)
    # "when clopidogrel is used": the drug, not that it is used
    text = re.sub(
        r"\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:used|given|administered|started|"
        r"initiated|prescribed|taken|planned|performed)$",
        "",
        text,
        flags=re.I,
    )
    # ("metformin immediately | before angiography": the time word stays with "before")
    text = re.sub(
        r"\s+(?:routinely|regularly|systematically|always|immediately|shortly|directly|promptly)$",
        "",
        text,
        flags=re.I,
    )
    # "ezetimibe alone": given without a companion, still ezetimibe; a phrase cut before its
    # object ("first-degree relatives of") loses the dangling preposition
    text = re.sub(r"\s+(?:alone|only|as\s+monotherapy)$", "", text, flags=re.I)
    text = re.sub(r"\s+(?:of|for|to|with|from|by)$", "", text, flags=re.I)
    text = re.sub(r"\s+(?:but|and|or|yet)$", "", text, flags=re.I)
    text = re.sub(r"\s+", " ", text)
    if text.count("(") > text.count(")"):
        text = text[: text.rfind("(")].strip()
    elif text.count(")") > text.count("("):
        text = text.replace(")", "").strip()
    return text.strip(" ,;.:")


# "X alone or with Y", "X alone or in combination with Y": X is recommended, Y beside it
ALONE_OR_WITH = re.compile(
    r"^(?P<alone>.+?)\s+(?:alone|as\s+monotherapy)\s*,?\s+or\s+(?:in\s+combination\s+)?"
    r"(?:with|plus)\s+(?P<beside>.+)$",
    re.IGNORECASE,
)
# a parameter named as a goal: recommended when the row recommends nothing else
TARGET_WORD = re.compile(r"\b(?:targets?|goals?|aim)\b", re.IGNORECASE)
# "angina refractory to medical therapy": what resists a therapy is a state of the patient
REFRACTORY_TO = re.compile(
    r"\b(?:refractory|resistant|unresponsive|not\s+responding)\s+to\b", re.IGNORECASE
)
# "a statin is not tolerated (at any dose)", "who cannot tolerate statins", "intolerant of
# ACE inhibitors": a predicative failure the contract names as an intolerance
INTOLERANCE = re.compile(
    r"^(?:(?P<what>.+?)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+not\s+tolerated"
    r"|(?:(?:(?:is|are)\s+)?(?:cannot|can\s+not|could\s+not|unable\s+to|(?:do|does|did)\s+not)"
    r"\s+tolerate"
    r"|intolerant\s+(?:of|to))\s+(?P<of>.+?))"
    r"(?:\s+(?:at|in)\s+(?:any|all)(?:\s+\w+)?)?$",
    re.IGNORECASE,
)
# "patients requiring pacing", "who do not require anticoagulation": needing a therapy is a
# state of the patient (an indication), not the therapy given; "require to undergo X" is X
REQUIREMENT = re.compile(
    r"^(?:who\s+)?(?:requir(?:e|es|ing)|need(?:s|ing)?|in\s+need\s+of)\s+"
    r"(?!to\b|further\b|additional\b)(?P<what>\S.*)$",
    re.IGNORECASE,
)
# "for whom medical therapy is not desired", "who decline surgery": the patient's choice
# against a therapy is a state of the patient, named as such (the contract's lexicalised
# states keep their own name, not negated)
NOT_WANTED = re.compile(
    rf"^(?P<what>.+?)\s+{_COPULA}\s+(?:not\s+(?:desired|wanted|acceptable)|declined|refused)$",
    re.IGNORECASE,
)
# ... said as the patient's act: "who decline an ICD", "who have refused surgery"
DECLINING = re.compile(
    rf"^(?:who\s+)?{REFUSAL_VERB}(?:(?:an?|the)\s+)?(?P<what>\S.*)$", re.IGNORECASE
)
# "disease suitable for intervention", "eligible for anticoagulation": whether a therapy can
# be given is a state of the patient, whatever therapy it names
ELIGIBLE_FOR = re.compile(
    r"\b(?:eligible|ineligible|suitable|unsuitable|amenable|candidates?|(?:un)?fit)\s+(?:for|to)\b"
    r"|na[iï]ve\b",  # "P2Y12-inhibitor-naive": never given it, a state of the patient too
    re.IGNORECASE,
)
# A bracketed clause is a condition of the row ("(if not recently performed)"); "unless" /
# "except" ones are negated
ASIDE_CLAUSE = re.compile(
    r"^(?:if|when|where|provided|(?P<neg>unless|except|"
    r"with\s+the\s+(?:possible\s+)?exception\s+of|excluding|other\s+than))\s+",
    re.IGNORECASE,
)
# A head that only carries the tests or means named with it ("comprehensive evaluation
# using echocardiography and …", "additional methods such as …", "surveillance by MRI"):
# the contract names the items, not the vehicle
GENERIC_VEHICLE = re.compile(
    r"(?:(?:the|a|an)\s+)?(?:(?:comprehensive|careful|close|clinical|subsequent|additional|other|"
    r"further|regular|routine|periodic|systematic|thorough|initial|first|complete|full|"
    r"diagnostic|structured|long-term|ambulatory|prolonged|continuous|non-invasive|invasive|"
    r"vascular|cardiac|cardiovascular)\s+)*"
    r"(?:evaluation|assessment|follow-up|surveillance|work-?up|investigations?|methods?|"
    r"approach|strategy|testing|tests|examination|monitoring|imaging(?:\s+studies)?|"
    r"modalit(?:y|ies)|techniques?|combination\s+(?:therapy|treatment))",
    re.IGNORECASE,
)
# an act named by its purpose or kind, whose means follow "with" / "by": "prevention with
# antithrombotics", "bridging with heparin", "curative treatment by ablation", "device therapy
# with an ICD", "revascularization with CABG" (the contract's generic vehicle), also with
# what it is done on ("follow-up of TEVAR by CCT", "restoration of sinus rhythm by …")
ACT_NAMED_BY_PURPOSE = re.compile(
    rf"(?:{GENERIC_VEHICLE.pattern}"
    r"|(?:(?:the|a|an)\s+)?(?:(?:primary|secondary|extended|prolonged|curative|definitive|"
    r"preventive|initial|long-term|serial|surveillance|device|arterial)\s+)*"
    r"(?:prevention|prophylaxis|thromboprophylaxis|bridging|pre-?treatment|treatment|therapy|"
    r"confirmation|screening|restoration|revascularization|revascularisation|grafting|"
    r"imaging))"
    r"(?:\s+of\s+(?P<of>\S.*))?",
    re.IGNORECASE,
)
# A bracket holding one qualifying word ("stenting (covered)", "(preferably)") or a route
# of administration written short ("(i.v.)", "(s.c.)")
LONE_QUALIFIER = re.compile(
    r"[a-z][a-z\-]*(?:ed|ly|al|ive|ic|ous|ent|ant|ary)|(?:i\.v|p\.o|s\.c|i\.m)\.?"
    r"|[a-z]+-(?:standing|term|lasting|onset)",  # "(long-standing)"
    re.IGNORECASE,
)
# a bracket of manners or routes only: "(systemic or intrapericardial)", "(surgically or
# catheter based)", "(either surgical or transcatheter)": how the act is done, not another act
_MANNER = r"(?:[a-z][a-z\-]*(?:ly|al|ic|ous)|[a-z]+[\s-]based|transcatheter|endovascular)"
MANNERS_ONLY = re.compile(
    rf"(?:either\s+)?{_MANNER}(?:\s*(?:,|or|and|and/or)\s*{_MANNER})+", re.IGNORECASE
)


# A patient's state written before the disease that defines the group ("pregnant PAH
# patients", "treatment-naive HCM patients"): two conditions, the state named as a state.
STATE_BEFORE_DISEASE = re.compile(
    r"^(?P<word>pregnant|treatment-na[iï]ve|untreated)\s+"
    r"(?!(?:women|woman|patients?|individuals?|people|persons?|mothers?|adults?)\b)(?P<rest>\S.*)$",
    re.IGNORECASE,
)
STATE_NAMES = {"pregnant": "pregnancy"}

# "while on dialysis", "while inflammation is present": a "while" that says when the row
# holds (what follows it here); any other opening "while" is a concession
WHILE_OF_TIME = (
    r"\s+(?:on|awaiting|waiting|receiving|taking|undergoing|under|in|pregnant|breastfeeding|"
    r"hospitali[sz]ed)\b|[^,;]*\b(?:is|are)\s+(?:still\s+)?(?:present|active|ongoing|pending|"
    r"elevated|raised|unresolved|persisting|in\s+progress)\b"
)
