"""Which role a phrase gets: the slot it fills first (an outcome is an Outcome), then the
states that decide it whatever the words ("refractory to", "intolerant of", a failed
therapy), then an exact-enough terminology match, then the word rules of vocabulary.py.

A mixin of LexiconExtractor: it reads the extractor's abbreviations, terminology lookup,
settings and cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardio_assets.config import SpanTaggerScope
from cardio_assets.logic.lexicon.role_words import (
    _CONDITION_FIRST_WORDS,
    GRADE_WORDS,
    UNDERGONE_HEADS,
    heuristic_role,
)
from cardio_assets.logic.lexicon.segments import SEEN_ON_TEST
from cardio_assets.logic.lexicon.terms import TermHit
from cardio_assets.logic.lexicon.vocabulary import (
    ELIGIBLE_FOR,
    ENTERED_STATES,
    REFRACTORY_TO,
    SEMANTIC_TAG_ROLES,
    STATE_UNDER_CONTROL,
    THERAPY_FAILED,
    biomarker_role,
)

if TYPE_CHECKING:
    from cardio_assets.logic.abbreviations import Abbreviations
    from cardio_assets.logic.lexicon.terms import TermLookup


# a finding and what brings it on ("induced by exercise", "provoked by standing")
_BROUGHT_ON_BY = re.compile(r"\s+(?:induced|provoked|triggered|precipitated)\s+by\s", re.I)


@dataclass(frozen=True)
class LexiconSettings:
    """Tunable knobs (one source of truth: the resource passes its config here)."""

    min_term_score: float = 0.9  # terminology hit needed to trust its semantic tag
    max_ngram: int = 6  # longest sub-phrase tried against the terminology
    # which rows a configured span tagger reads (extraction.span_tagger_scope)
    span_tagger_scope: SpanTaggerScope = "learned_guidelines"

    def __post_init__(self) -> None:
        from cardio_assets.config import SPAN_TAGGER_SCOPES

        if self.span_tagger_scope not in SPAN_TAGGER_SCOPES:
            raise ValueError(
                f"span_tagger_scope {self.span_tagger_scope!r}: use one of "
                f"{', '.join(SPAN_TAGGER_SCOPES)}"
            )


# a valve named by how many cusps it has ("a bicuspid aortic valve", "tricuspid aortic
# valves"): the anatomy a patient has, not a device or an operation on it
_VALVE_BY_CUSPS = re.compile(r"^(?:uni|bi|tri|quadri)cuspid\s+(?:aortic\s+)?valves?$", re.I)

# a generic last word that only says how an act is framed ("a new PCI attempt")
_GENERIC_LAST_WORD = re.compile(
    r"^(?P<named>.+?)\s+(?:attempts?|strateg(?:y|ies)|approach(?:es)?|options?)$", re.IGNORECASE
)
# what a slot usually holds, when nothing in the text says
_SLOT_DEFAULTS = {
    "action": "Procedure",
    "component": "Procedure",
    "example": "Medication",
    "background": "Medication",
    "context": "Condition",
    "cohort": "Condition",
    "purpose": "Condition",
}


# heads whose "to" names what one relates to, not where an act is aimed ("access to the
# torso", "exposure to radiation", "intolerance to statins"): the whole keeps its own role
_RELATION_TO = re.compile(
    r"\b(?:access|exposure|response|adherence|allergy|intolerance|sensitivity|resistance|"
    r"contraindications?|susceptibility)\s*$",
    re.IGNORECASE,
)


class RoleRules:
    """The role decisions of the lexicon extractor."""

    abbreviations: Abbreviations
    term_lookup: TermLookup | None
    settings: LexiconSettings
    _cache: dict[str, TermHit | None]

    def role_for(self, text: str, slot: str) -> str | None:
        """Outcome slot wins; then an exact-enough terminology hit; then word rules; then
        what the slot usually holds."""
        return self.role_evidence(text, slot) or _SLOT_DEFAULTS[slot]

    def role_evidence(self, text: str, slot: str) -> str | None:
        """The role the text itself shows (slot, states, terminology, word rules), or None
        when only the slot's default would decide."""
        if slot == "outcome":
            return "Outcome"
        normalized = self.abbreviations.normalize(text)
        first = normalized.split()[0] if normalized.split() else ""
        head = normalized.split()[-1].lower() if normalized.split() else ""
        graded_act = first.lower() in GRADE_WORDS and head in UNDERGONE_HEADS
        if slot in {"cohort", "context"} and first in _CONDITION_FIRST_WORDS and not graded_act:
            return "Condition"
        if slot in {"cohort", "context"} and _VALVE_BY_CUSPS.match(normalized):
            return "Condition"  # "with a tricuspid aortic valve": the valve they were born with
        if slot in {"cohort", "context"} and re.match(
            r"^(?:\w+\s+){0,2}indications?\s+(?:for|to)\b", normalized
        ):
            return "Condition"  # "a current indication for ICD": having it is a state
        marker = biomarker_role(normalized)
        if marker is not None:
            return marker
        finding, on, test = text.partition(" on ")
        if on and finding.strip() and SEEN_ON_TEST.match(test):
            return self.role_evidence(finding, slot)  # "pre-excitation on ECG": the finding's
        induced = _BROUGHT_ON_BY.search(text)
        if induced and text[: induced.start()].strip():
            # "arrhythmia induced by exercise": what is brought on names the role, not its cause
            return self.role_evidence(text[: induced.start()], slot)
        if slot != "action" and (REFRACTORY_TO.search(text) or ELIGIBLE_FOR.search(text)):
            return "Condition"  # "symptoms refractory to drug therapy": a state of the patient
        act, to, target = text.partition(" to ")
        if to and act.strip() and target.strip() and not _RELATION_TO.search(act):
            # "radiotherapy to a volume including the heart", "referral to a centre": where
            # the act is aimed does not change what it is
            act_role = self.role_evidence(act, slot)
            if act_role in ("Procedure", "Medication"):
                return act_role
        if slot != "action":
            failed = THERAPY_FAILED.match(text.strip())
            therapy = self.role_for(failed["head"], "action") if failed else None
            if therapy in ("Procedure", "Medication"):
                return therapy
            controlled = STATE_UNDER_CONTROL.match(text.strip())
            if controlled and self.role_for(controlled["head"], slot) == "Condition":
                return "Condition"
        hit = self._best_hit(normalized) or self._best_hit(text.lower())
        if hit is not None:
            role = SEMANTIC_TAG_ROLES.get(hit.semantic_tag)
            if role == "Procedure" and heuristic_role(normalized) == "Medication":
                # a drug therapy the terminology files as a procedure ("androgen
                # deprivation therapy"): the contract makes drug-therapy phrases Medication
                return "Medication"
            if slot == "action" and (
                role == "ClinicalParameter"
                or (role == "Condition" and normalized.lower() in ENTERED_STATES)
            ):
                # "FFR is recommended": the act is measuring it; "Pregnancy is not
                # recommended": a state one chooses to enter, named as what is (not)
                # recommended, is something done ("chest pain should be assessed" is not)
                return "Procedure"
            if role is not None:
                return role
        role = heuristic_role(normalized) or self._head_ngram_role(normalized)
        generic = _GENERIC_LAST_WORD.match(normalized) if role is None else None
        if generic:  # "a new PCI attempt": the words before the generic head say what it is
            role = self.role_evidence(generic["named"], slot)
        if role == "ClinicalParameter" and slot not in {"purpose", "component"}:
            role = "Condition"  # "irregular heart rate", "HFrEF": states, not measurements
        if slot == "action" and role not in (None, "Procedure", "Medication"):
            role = "Procedure"  # the recommended thing is done or given, never a state
        return role

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
        """Veto splitting a phrase that is itself a terminology description, or two drug
        names joined by a slash ("sacubitril/valsartan": one fixed-dose combination)."""
        slashed = re.fullmatch(r"([A-Za-z][\w\-]*)/([A-Za-z][\w\-]*)", phrase.strip())
        if slashed and all(heuristic_role(w) == "Medication" for w in slashed.groups()):
            return True
        if self.term_lookup is None or not re.search(r"\b(?:and|or)\b", phrase):
            return False
        hit = self._best_hit(self.abbreviations.normalize(phrase))
        return hit is not None and hit.score >= 0.97
