"""The care verbs of "It is recommended that patients with X are screened for Y" and "It is
recommended to screen / refer / treat patients with X for Y": the act done to the patients,
named by its noun ("screened" -> "screening"), and where the patients' phrase ends (read by
sentences.py).
"""

from __future__ import annotations

import re

# where the patients are sent or kept: the place stays with its preposition
_MOVED = {
    "discharged": "discharge",
    "observed": "observation",
    "transferred": "transfer",
    "admitted": "admission",
    "hospitalized": "hospitalization",
    "hospitalised": "hospitalization",
}
# a verb done to the patients, and the act it names ("screened for X" -> "screening for X");
# verbs whose object is itself the act ("enrolled in a programme") name nothing more
_ACT_NOUNS = {
    "screened": "screening",
    "screen": "screening",
    "counselled": "counselling",
    "counseled": "counselling",
    "counsel": "counselling",
    "referred": "referral",
    "refer": "referral",
    "evaluated": "evaluation",
    "assessed": "assessment",
    "monitored": "monitoring",
    "followed": "follow-up",
    "vaccinated": "vaccination",
    "educated": "education",
    "investigated": "investigation",
    "examined": "examination",
    "treat": "treatment",
    "monitor": "monitoring",
    "evaluate": "evaluation",
    "assess": "assessment",
    "examine": "examination",
    "investigate": "investigation",
    "educate": "education",
    "vaccinate": "vaccination",
    **_MOVED,
}
_TO_SCREEN = frozenset({"screen", "counsel", "refer"})
_THAT_PASSIVE = re.compile(
    r"^that\s+(?P<cohort>.+?)\s+(?:should\s+)?(?:are|is|be)\s+(?:routinely\s+|regularly\s+)?"
    r"(?P<verb>screened|counsell?ed|referred|evaluated|assessed|monitored|followed\s+up|"
    r"investigated|examined|discharged|observed|transferred|admitted|hospitali[sz]ed|"
    r"vaccinated|educated|enrolled|included)\s+(?:(?:in|into|to)\s+)?(?P<rest>.+)$",
    re.IGNORECASE,
)
# the patients a verb acts on, up to where what is done to them starts
_CARED_FOR = r"(?P<cohort>(?:all\s+)?(?:patients|individuals|women|men|adults|people)\b.*?)"
_TO_ACT_ON = re.compile(
    rf"^to\s+(?P<verb>screen|counsel|refer)\s+{_CARED_FOR}\s+(?P<rest>(?:for|to|about|on)\s+.+)$",
    re.IGNORECASE,
)
# the other care verbs: the cohort ends only at "for / to / about" or a period of life
# ("to treat women with HF during pregnancy"), not at any "on" or "during" inside it
_TO_CARE_FOR = re.compile(
    r"^to\s+(?P<verb>"
    + "|".join(verb for verb in _ACT_NOUNS if not verb.endswith("ed") and verb not in _TO_SCREEN)
    + rf")\s+{_CARED_FOR}\s+"
    r"(?P<rest>(?:for|to|about|(?:during|before)\s+(?:pregnancy|conception|surgery|delivery))"
    r"\b.*)$",
    re.IGNORECASE,
)
# "to (systematically) treat patients with X with Y": Y is what they are given (the last
# "with" leads it; the ones before belong to the patients)
_TO_TREAT_WITH = re.compile(
    r"^to\s+(?:[a-z]+ly\s+)?(?P<verb>treat)\s+"
    r"(?P<cohort>(?:all\s+)?(?:patients|individuals|women|men|adults|people)\s+with\b.*?)"
    r"\s+with\s+(?P<rest>(?:(?!\bwith\b).)+)$",
    re.IGNORECASE,
)
