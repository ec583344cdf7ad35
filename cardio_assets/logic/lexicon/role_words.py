"""Which words make a phrase a drug, a procedure, a condition or a parameter when the
terminology is silent, and the heuristic that reads a phrase's role from them (its head
word, its drug stems, its first words). Split from vocabulary.py, which keeps the word lists
that shape spans.
"""

from __future__ import annotations

import re
from collections.abc import Callable

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
    # endothelin receptor antagonists (-entan), prostacyclin analogues and receptor agonists,
    # transthyretin stabilisers
    "entan", "prost", "prostenol", "prostinil", "ipag", "amidis", "thiazolidinedione",
    # immunomodulators of pericarditis, myocarditis and transplant care: interleukin-1
    # receptor antagonists, fusion proteins, antimetabolites, calcineurin and mTOR inhibitors,
    # antimalarials
    "kinra", "acept", "ercept", "thioprine", "mofetil", "phenolate", "trexate", "limus",
    "sporin", "sporine", "quine",
    # pharmacological chaperones and enzyme inhibitors (-stat), nicotinic partial agonists
    "stat", "nicline",
)  # fmt: skip
# INN stems distinctive enough to name a drug inside a longer pattern ("the DPP-4 inhibitor
# saxagliptin", "extension of ticagrelor beyond 12 months"); the looser suffixes above
# ("-amine", "-tide") only judge a whole word's role
DISTINCTIVE_DRUG_STEMS = (
    "gliptin", "gliflozin", "glutide", "xaban", "gatran", "statin", "sartan", "pril", "olol",
    "grel", "relor", "parin", "dipine",
)  # fmt: skip
DRUG_STEM = "(?:" + "|".join(DISTINCTIVE_DRUG_STEMS) + ")"
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
    sequestrants tranexamic bempedoic acetylsalicylic immunoglobulin immunoglobulins
    ferric ferrous carboxymaltose derisomaltose
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
    immunosuppressive combination failure enzyme dual triple double
    """.split()
)
# what a "replacement" gives when it is a drug therapy ("nicotine replacement")
_REPLACED_SUBSTANCE = frozenset(
    {"nicotine", "hormone", "oestrogen", "estrogen", "testosterone", "enzyme"}
)
# what a "blockade" blocks when drugs do it
_BLOCKED_BY_DRUGS = frozenset(
    "renin angiotensin raas ras beta adrenergic aldosterone receptor neurohormonal".split()
)
# heads that make a phrase naming iron the iron given
_IRON_GIVEN = frozenset("iron supplementation supplements repletion replacement therapy".split())
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
# the kinds of implanted or mapping system a row names by its hardware
_DEVICE_SYSTEM = re.compile(
    r"\b(?:[a-z]+-chamber|transvenous|leadless|pacing|pacemaker|defibrillator|icd|crt|device|"
    r"lead|electroanatomical|mapping|delivery)\s+systems?$",
    re.IGNORECASE,
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
    intolerance intolerant allergy hypersensitivity contraindication contraindications
    disease diseases
    failure syndrome syndromes stenosis regurgitation infarction risk insufficiency
    dysfunction history hypertension diabetes angina fibrillation flutter arrest shock
    cardiomyopathy symptoms symptom pregnancy obesity smoking smoker smokers lesion lesions
    rhythm morphology congestion instability tachycardia bradycardia block calcification
    interaction interactions potential likelihood possibility
    abuse misuse dependence addiction frailty dilatation dilation disturbance disturbances
    imbalance imbalances abnormality abnormalities deficiency deficiencies overload
    """.split()
)
# Disease morphology: a head word ending so names a disorder whatever words precede it
_CONDITION_SUFFIXES = (
    "itis", "penia", "emia", "aemia", "pathy", "algia", "plasia", "trophy", "megaly",
    "sclerosis", "stenosis", "ectasia", "cardia", "rrhythmia", "uria", "oedema", "edema",
    "infarction", "insufficiency", "embolism", "thrombosis", "aneurysm", "syncope",
    "amyloidosis", "fibrosis", "sarcoidosis", "tuberculosis", "acidosis", "cirrhosis",
)  # fmt: skip
# First words that make a cohort phrase a state of the patient, whatever its head says
# ("intolerant of aspirin", "contraindication to OAC", "eligible for OAC").
_CONDITION_FIRST_WORDS = frozenset(
    """
    cannot unable intolerant intolerance allergic allergy contraindication contraindications eligible
    meet meets meeting fulfil fulfils fulfill fulfills fulfilling
    ineligible suitable unsuitable unfit fit candidate candidates refractory resistant
    indication history severe significant persistent high low moderate mild very prior
    previous normal abnormal decision
    """.split()
)
# Observable heads: a bare mention ("to measure LVEF") is still a parameter.
_PARAMETER_HEADS = frozenset(
    """
    fraction pressure rate duration score cholesterol glucose clearance index concentration
    level levels potassium sodium creatinine haemoglobin hemoglobin a1c peptide reserve
    """.split()
)


def heuristic_role(normalized: str) -> str | None:
    words: list[str] = []
    for token in re.findall(r"[a-z0-9\-]+", normalized.lower()):
        words.append(token)
        if "-" in token:
            words.extend(part for part in token.split("-") if part)
    if not words:
        return None
    of_head = re.match(r"^(.+?)\s+(?P<prep>of|for|within|in|to)\s+\S", normalized.lower())
    if of_head and len(of_head.group(1).split()) <= 3:
        # "surgery of the ascending aorta", "history of stroke", "surgery for endocarditis",
        # "restenosis within a stent", "a prosthesis in the mitral position" (the device the
        # patients have: the contract's background procedure): the head comes first; before
        # "to", only a state's head ("contraindications / intolerance to a drug": the state)
        role = heuristic_role(of_head.group(1))
        if role is not None and (of_head["prep"] != "to" or role == "Condition"):
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
    if "lifestyle" in words and not is_drug:  # "lifestyle measures": something done
        return "Procedure"
    if head == "lowering" and len(words) > 1:  # "BP lowering": lowering it with drugs
        return "Medication"
    if head in {"antibody", "antibodies"} and "monoclonal" in words:
        return "Medication"  # a monoclonal antibody is given ("monoclonal gammopathy" is not)
    if "iron" in words and head in _IRON_GIVEN:
        # "intravenous iron", "iron supplementation": iron given; "iron deficiency" and
        # "iron status" are a state and a measure
        return "Medication"
    if head_parts[-1] == "blockade" and _BLOCKED_BY_DRUGS & set(words):
        # "renin-angiotensin system blockade", "beta-blockade": drugs that block it (a
        # nerve block is a procedure)
        return "Medication"
    if "alfa" in words or (head == "replacement" and _REPLACED_SUBSTANCE & set(words)):
        # "epoetin alfa", "andexanet alfa": a biological's name; "nicotine / hormone
        # replacement" gives the substance (a valve or a joint replacement is surgery)
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
    if head in {"system", "systems"} and _DEVICE_SYSTEM.search(normalized):
        # "a dual-chamber system", "transvenous systems": the device implanted ("drugs that
        # block the renin-angiotensin system" are drugs, read above; "the conduction system",
        # "the central nervous system" are the body's)
        return "Procedure"
    if head in _PARAMETER_HEADS:
        return "ClinicalParameter"
    return None


# words a drug class may be followed by that name no drug of their own
_GENERIC_AFTER_CLASS = re.compile(
    r"(?:agents?|drugs?|therap(?:y|ies)|treatments?|class(?:es)?|medications?|doses?|"
    r"monotherapy|use|plus|and|or|alone|naive|na\u00efve|combinations?|"
    # (a class's own noun: "VKA anticoagulation", "ACE inhibitor thiazide combinations")
    r"anticoagula\w*|antiplatelets?|statins?|thiazides?|diuretics?|nitrates?|medical|"
    r"pharmacological|hormonal|targeted|chemotherapy|immunotherapy|co-?medications?|antidotes?|"
    r"lipid-lowering|dapt)",
    re.I,
)


_CLASS_ENDING = re.compile(
    r"(?:inhibitors?|blockers?|antagonists?|agonists?|ers|ics|ants|ins)$", re.I
)


def names_a_drug(word: str) -> bool:
    """The word after a drug class is a drug's own name: one of the drug stems, or a word the
    terminology knows as a medication that is neither generic nor itself a class (classes end
    as classes do: "beta-blockers", "antibiotics", "statins")."""
    if _GENERIC_AFTER_CLASS.fullmatch(word):
        return False
    if re.fullmatch(rf"[a-z]+{DRUG_STEM}", word, re.I):
        return True
    return not _CLASS_ENDING.search(word) and heuristic_role(word.lower()) == "Medication"


# "the DPP-4 inhibitor saxagliptin", "the cardiac myosin inhibitor mavacamten": the class
# written before the drug's own name says what it is; the drug is the concept (a name the
# terminology knows as a drug, not a generic word: "inhibitor therapy"). Not a class's
# second half after a slash ("IIb/IIIa inhibitor", though "and/or the P2Y12 inhibitor X" is
# one), no function word of the sentence in the class's name ("with a beta-blocker"), and
# not before a combination ("a beta-blocker digoxin combination")
_CLASS_THEN_DRUG = re.compile(
    r"(?<![\w\-/])(?:the\s+)?(?:(?!(?:with|a|an|of|in|and|or|to|for|on|by)\b)[\w\-]+\s+)"
    r"{0,2}?[\w\-]*(?:inhibitors?|blockers?|antagonists?|agonists?)\s+"
    r"(?=(?P<drug>[a-z][a-z\-]+)\b(?!\s+combinations?\b))",
    re.I,
)


def _without_the_class(found: re.Match[str]) -> str:
    after_slash = re.search(r"(?<!\band)/(?!or\b)\S*\s*$", found.string[: found.start()])
    return "" if names_a_drug(found["drug"]) and not after_slash else found.group(0)


CLASS_BEFORE_DRUG: tuple[re.Pattern[str], Callable[[re.Match[str]], str]] = (
    _CLASS_THEN_DRUG,
    _without_the_class,
)
