"""The lexicon's word lists: which words make a phrase a drug, a procedure, a condition or
a parameter when the terminology is silent, and which words a concept span leaves out.

Lists, not a dictionary of terms: the sample terminology lacks many guideline terms, so
roles fall back to the head word ("... inhibitor" is a Medication, "... angiography" a
Procedure), and spans follow data/gold/ANNOTATION_GUIDELINES.md (qualifiers such as
"stable" or "long-term" dropped, the drug named instead of "statin therapy").
"""

from __future__ import annotations

import re

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


# ---------------------------------------------------------------------------------------
# Vocabularies for role heuristics when the terminology is silent
# ---------------------------------------------------------------------------------------
_MED_SUFFIXES = (
    "pril", "sartan", "olol", "ilol", "alol", "statin", "gliflozin", "xaban", "gatran", "parin",
    "grel", "relor", "fiban", "fibatide", "mab", "siran", "glutide", "tide", "dipine", "azem",
    "amil", "arone", "enone", "thiazide", "semide", "amide", "etanide", "digoxin", "arin", "irin", "ciguat",
    "inone", "ezetimibe", "ranolazine", "ivabradine", "colchicine", "metformin",
    "nitrate", "nitrates", "plase", "kinase", "sacubitril", "icosapent", "ainide", "afil",
    "olone", "azole", "oxacin", "cillin", "mycin", "verapamil", "diltiazem",
    "azine", "cycline", "rubicin", "platin", "taxel", "tinib", "ciclib", "zumab", "ximab",
    "umab", "osine", "aline", "amine", "idine", "tropium", "parib", "lukast", "vaptan",
    "isone", "asone", "olol", "floxacin", "vudine", "ovir", "gliptin", "glinide", "formin",
    "odrine", "ephrine", "metrine", "tocin", "parinux", "glitazone",
    # more INN stems: hirudins, thromboxane antagonists, calcium sensitisers, NSAIDs,
    # proteasome and aromatase inhibitors, myosin modulators, xanthines, coumarins
    "rudin", "troban", "simendan", "kalant", "profen", "zomib", "oxifen", "trozole", "camten",
    "camtiv", "fylline", "phylline", "coumarol", "coumon", "lactone", "thalidone", "stazol",
    "criptine", "goline",
)  # fmt: skip
_MED_WORDS = frozenset(
    """
    inhibitor inhibitors blocker blockers antagonist antagonists agonist agonists agent agents
    drug drugs medication medications anticoagulant anticoagulants anticoagulation
    antiplatelet antiplatelets antiarrhythmic antiarrhythmics diuretic diuretics statin
    statins aspirin heparin warfarin insulin fibrate fibrates nitrate nitrates
    pharmacotherapy vaccine dapt oac noac doac vka
    ace-i acei arb arbs arni mra mras sglt2i medical pharmacological lipid-lowering
    antihypertensive antithrombotic glucose-lowering antianginal lmwh ufh nsaid nsaids
    aad aads ppi chemotherapy immunotherapy anthracycline anthracyclines antibiotic
    corticosteroid corticosteroids steroid steroids glucocorticoid glucocorticoids
    targeted anticancer cytotoxic antineoplastic hormonal radiopharmaceutical vasodilator
    vasodilators inotrope inotropes inotropic vasopressor vasopressors antihypertensives
    antibiotics antituberculosis antiviral antivirals thrombolytic thrombolytics
    concentrate concentrates antidote antidotes analgesic analgesics sequestrant
    sequestrants tranexamic bempedoic acetylsalicylic
    """.split()
)
# words that end a noun group before them ("X should be …", "X and Y")
_AFTER_A_NOUN_GROUP = frozenset(
    "should may can must might could will would is are was were be and or nor".split()
)
# classes of drugs that act on the mind, on pain or elsewhere, named as the phrase's head
# ("tricyclic antidepressants"); as a modifier they name a state ("opioid use disorder",
# "sedative overdose"), so only the head counts
_MED_CLASS_HEADS = frozenset(
    """
    antidepressant antidepressants antipsychotic antipsychotics neuroleptic neuroleptics
    benzodiazepine benzodiazepines anxiolytic anxiolytics sedative sedatives hypnotic hypnotics
    opioid opioids anticonvulsant anticonvulsants antiepileptic antiepileptics antihistamine
    antihistamines antiemetic antiemetics bisphosphonate bisphosphonates immunosuppressant
    immunosuppressants antifungal antifungals antimalarial antimalarials
    """.split()
)
# words that make "… therapy" a drug therapy (the contract: drug-therapy phrases are
# Medication): "androgen deprivation therapy", "cancer therapy", "CAR-T cell therapy"
_DRUG_THERAPY_WORDS = frozenset(
    """
    deprivation cell lymphocyte car-t hormone endocrine biological biologic
    lowering cardiotoxic oncological systemic prolonging nicotine immunosuppression
    immunosuppressive combination failure
    """.split()
)
# words before "activity" that make it exercise ("physical activity"; "ectopic activity"
# and "disease activity" are findings)
_EXERCISE_WORDS = frozenset("physical aerobic sport sports leisure-time exercise".split())
# words before "management" that make it the drugs given ("pharmacological management")
_DRUG_MANAGEMENT_WORDS = frozenset("pharmacological medical drug lipid glucose".split())
_PROCEDURE_HEADS = frozenset(
    """
    intervention interventions implantation implant replacement repair surgery surgeries
    grafting graft bypass ablation angiography angiogram echocardiography echocardiogram
    imaging test testing tests assessment assessments measurement measurements monitoring
    surveillance technique techniques harvesting transfusion transfusions manipulation access
    team teams cut-off cut-offs
    screening rehabilitation revascularization revascularisation cardioversion training
    evaluation referral counselling counseling closure occlusion resection pacing
    programme program stenting angioplasty catheterization catheterisation scan scanning
    ecg electrocardiogram electrocardiography mri ct cmr biopsy transplantation
    transplant procedure procedures strategy management follow-up exercise challenge
    education consultation review auscultation examination support discussion
    defibrillator pacemaker device therapy therapies treatment treatments ultrasound
    tomography resonance x-ray radiography dialysis haemodialysis hemodialysis
    thrombolysis fibrinolysis vaccination immunization immunisation
    radiotherapy irradiation radiation
    stent stents valve valves prosthesis prostheses bioprosthesis ring rings lead leads
    catheter catheters filter filters occluder occluders coil coils
    neurosurgery operation operations delivery anaesthesia anesthesia
    sport sports participation
    stratification work-up workup optimization optimisation reprogramming programming
    decision-making contraception observation modality modalities
    """.split()
)
# what a patient undergoes: "high-risk surgery" and "low bleeding risk procedures" are
# surgery, whatever grade of risk or intensity comes first
UNDERGONE_HEADS = frozenset(
    """
    surgery surgeries neurosurgery procedure procedures intervention interventions
    operation operations exercise training
    """.split()
)
GRADE_WORDS = frozenset("high low moderate mild very severe significant".split())
_CONDITION_HEADS = frozenset(
    """
    intolerance intolerant allergy contraindication contraindications disease diseases
    failure syndrome syndromes stenosis regurgitation infarction risk insufficiency
    dysfunction history hypertension diabetes angina fibrillation flutter arrest shock
    cardiomyopathy symptoms symptom pregnancy obesity smoking smoker smokers lesion lesions
    rhythm morphology congestion instability tachycardia bradycardia block calcification
    interaction interactions potential likelihood possibility
    abuse misuse dependence addiction frailty dilatation dilation disturbance disturbances
    imbalance imbalances abnormality abnormalities
    """.split()
)
# Disease morphology: a head word ending so names a disorder whatever words precede it
_CONDITION_SUFFIXES = (
    "itis", "penia", "emia", "aemia", "pathy", "algia", "plasia", "trophy", "megaly",
    "sclerosis", "stenosis", "ectasia", "cardia", "rrhythmia", "uria", "oedema", "edema",
    "infarction", "insufficiency", "embolism", "thrombosis", "aneurysm", "syncope",
)  # fmt: skip
# First words that make a cohort phrase a state of the patient, whatever its head says
# ("intolerant of aspirin", "contraindication to OAC", "eligible for OAC").
_CONDITION_FIRST_WORDS = frozenset(
    """
    cannot unable intolerant intolerance allergic allergy contraindication contraindications eligible
    meet meets meeting fulfil fulfils fulfill fulfills fulfilling
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
    r"alleviate|limit|protect|preserve|prolong|increase|enhance|promote|revert|reverse|"
    r"restore|correct|allow|attenuate|lessen|mitigate|diminish|halt|stabili[sz]e"
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
    r"those|women|men|adults|survivors|candidates|children|adolescents|cases|participants|"
    r"athletes)(?!-)"
)
# ("individual" before another noun is an adjective: "individual coaching strategies")
_PATIENT_NOUN = re.compile(rf"\b(?:{_PATIENT_WORDS})\b", re.IGNORECASE)
# Patient nouns that name a demographic group: a Condition of the row (the contract, §2),
# unlike "patients" or "individuals"; with the state word before them one group
DEMOGRAPHIC_NOUN = re.compile(
    r"women|men|adults|children|adolescents|girls|boys|infants|athletes", re.IGNORECASE
)
DEMOGRAPHIC_STATE = re.compile(
    r"pregnant|older|elderly|young|younger|postmenopausal|premenopausal|adult|very\s+old",
    re.IGNORECASE,
)
_COHORT_DETERMINERS = frozenset(
    """
    all selected the these such other eligible most any some certain appropriate
    every each
    """.split()
)
_LEAD_INS = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:(?:combined|concomitant|simultaneous|peri-?operative|"
    r"pre-?operative|post-?operative)\s+)?"
    r"(?:use|intake|administration|initiation|addition|prescription|"
    r"consideration|implementation|provision|performance|introduction|continuation|calculation|"
    r"prolongation|extension|"
    r"resumption|reintroduction|re-?initiation|combination)\s+of\s+|"
    r"(?:participation|engagement|involvement)\s+in\s+|"
    r"(?:treatment|therapy)\s+with\s+|routine(?:ly)?\s+|systematic\s+|"
    r"(?:adding|starting|initiating|continuing|resuming|restarting|using|switching\s+to|"
    r"prolonging|extending|"
    r"giving|keeping|maintaining|start|initiate|considering|engaging\s+in|providing|"
    r"offering|performing|implementing|applying|"
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
    ideally possibly potentially long-term short-term onwards onward
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
    long-term short-term lifelong routine urgent emergency second preferably preferable
    ideally potentially possibly serial hence usually typically generally commonly
    """.split()
)
_ACTION_QUALIFIERS = _QUALIFIERS | {"resting"}
_COUNTED_STAGE = re.compile(r"(?:trimesters?|generations?|stages?|phases?|cycles?)$", re.I)
# "statin therapy" -> "statin": the drug names the concept; "antithrombotic therapy" keeps
# its noun because "antithrombotic" alone is an adjective.
_DRUG_NOUN_THERAPY = re.compile(
    r"^(.*\b(?:statins?|aspirin|heparin|warfarin|insulin|digoxin|[\w\-]*(?:blockers?|"
    r"inhibitors?|antagonists?|pril|sartan|olol|gliflozin|xaban|gatran|grel|relor)))"
    r"\s+(?:therapy|treatment)$",
    re.IGNORECASE,
)
# "stenosis of high anatomical complexity": how complex or severe, no part of the name ("of
# unknown origin" changes what the finding is and stays: "syncope of unknown origin")
_QUALIFYING_OF = re.compile(
    r"\s+of\s+(?:[\w\-]+\s+){0,3}(?:complexity|severity|extent|degree|grade)$",
    re.IGNORECASE,
)
_LEADING_VERBS = re.compile(
    r"^(?:(?:with|who\s+(?:are|have|had|were)|who|whose|having|and|or|are|have|has|had|in|"
    r"survived|experienced|experience|experiences|developed|develop|develops|developing|suffered|"
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


# Connectives a clause cut leaves in front of a term ("as indicated by the presence of X",
# "including X", "for X"): the term is X.
_LEADING_CONNECTIVES = re.compile(
    r"^(?:(?:as\s+(?:indicated|shown|evidenced|suggested|defined)\s+by|including|"
    # "(particularly when X are present)": the clause word the hedge hid from the cut
    r"(?:especially|particularly|notably|mainly)(?:\s+(?:when|if|where))?|"
    r"namely|such\s+as|e\.g\.?|i\.e\.?|as|for|of|by|than|"
    r"the\s+(?:presence|occurrence|finding|evidence)\s+of|presence\s+of|evidence\s+of|"
    r"however,?|moreover,?|furthermore,?|during|"
    r"(?:in\s+)?(?:the\s+)?(?:case|setting|context|presence)\s+of)\s+)+",
    re.IGNORECASE,
)
_CONNECTIVE_ONLY = re.compile(
    r"(?:including|especially|particularly|notably|namely|such\s+as|e\.g\.?|i\.e\.?|like)",
    re.IGNORECASE,
)
# A clause that says the term holds ("LV dysfunction is present"): the term is the subject.
_STATE_PREDICATE = re.compile(
    rf"\s+{_COPULA}\s+(?:(?:first|newly|initially|recently)\s+(?=(?:diagnosed|detected|documented|"
    r"identified|confirmed)\s*$))?(?:present|documented|detected|found|"
    r"confirmed|seen|observed|suspected|diagnosed|established|identified|demonstrated)\b.*$",
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


# "if HF is suspected", "when PE is clinically suspected": the condition is the suspicion
SUSPECTED_STATE = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?P<what>(?:(?!(?:where|who|which|whom|when|if|in|with|for)\b)\S+\s+)*?\S+)"
    rf"\s+{_COPULA}\s+(?:clinically\s+)?suspected$",
    re.IGNORECASE,
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
            r"^(?:(?:a|an|the|any|documented|other|another|further|additional)\s+)+",
            "",
            text,
            flags=re.I,
        )
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
        r"\s+(?:(?:that|which)\s+)?(?:persists|persist|remains|remain|continues)$",
        "",
        text,
        flags=re.I,
    )
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


def _heuristic_role(normalized: str) -> str | None:
    words: list[str] = []
    for token in re.findall(r"[a-z0-9\-]+", normalized.lower()):
        words.append(token)
        if "-" in token:
            words.extend(part for part in token.split("-") if part)
    if not words:
        return None
    of_head = re.match(r"^(.+?)\s+(?:of|for|within|in)\s+\S", normalized.lower())
    if of_head and len(of_head.group(1).split()) <= 3:
        # "surgery of the ascending aorta", "history of stroke", "surgery for endocarditis",
        # "restenosis within a stent", "a prosthesis in the mitral position" (the device the
        # patients have: the contract's background procedure): the head comes first
        role = _heuristic_role(of_head.group(1))
        if role is not None:
            return role
    head = normalized.lower().split()[-1].strip("()")
    head_parts = [head, *head.split("-")[-1:]]
    if any(h in _CONDITION_HEADS or h.endswith(_CONDITION_SUFFIXES) for h in head_parts):
        return "Condition"  # "heparin-induced thrombocytopenia" is a disorder, not a drug
    tokens = re.findall(r"[a-z0-9\-]+", normalized.lower())
    is_drug = any(w in _MED_WORDS or w.endswith(_MED_SUFFIXES) for w in words) or any(
        # a drug class ending its noun group ("antipsychotics should be reviewed")
        w in _MED_CLASS_HEADS and (i + 1 == len(tokens) or tokens[i + 1] in _AFTER_A_NOUN_GROUP)
        for i, w in enumerate(tokens)
    )
    if head == "lowering" and len(words) > 1:  # "BP lowering": lowering it with drugs
        return "Medication"
    if head in {"media", "medium"} and "contrast" in words:  # a contrast agent is given
        return "Medication"
    if {"eluting", "coated"} & set(words):  # "drug-eluting treatment": a device, implanted
        return "Procedure"
    if head in {"therapy", "therapies", "treatment", "treatments", "regimen"}:
        drug_therapy = is_drug or any(
            w in _DRUG_THERAPY_WORDS or (w.startswith("anti") and len(w) > 6) for w in words
        )
        return "Medication" if drug_therapy else "Procedure"
    if (
        head == "management"
        # "non-pharmacological management" is no drug ("non-statin lipid management" is)
        and not re.search(r"\bnon-?(?:pharmacological|drug|medical)\b", normalized.lower())
        and (
            is_drug or any(w in _DRUG_MANAGEMENT_WORDS or w.startswith("anti") for w in words[:-1])
        )
    ):
        # "anti-thrombotic management", "pharmacological management", "intensive lipid
        # management": the drugs given, a drug-therapy phrase (the contract, section 3)
        return "Medication"
    if any(
        h in _MED_WORDS or h in _MED_CLASS_HEADS or h.endswith(_MED_SUFFIXES) for h in head_parts
    ):
        return "Medication"
    if head in {"activity", "activities"} and any(
        w in _EXERCISE_WORDS or w.endswith("intensity") for w in words[:-1]
    ):
        return "Procedure"  # "aerobic activity", "a sport activity": exercise the patient does
    if head in _PROCEDURE_HEADS or head.endswith(("ectomy", "plasty", "scopy", "graphy", "otomy")):
        return "Procedure"
    if is_drug:
        return "Medication"
    if head in _PARAMETER_HEADS:
        return "ClinicalParameter"
    return None


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
