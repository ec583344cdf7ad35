"""The recommended act and what is written around it (a mixin of LexiconExtractor).

"DAPT with aspirin and clopidogrel" names its components; "adding X to Y" gives X beside
the background therapy Y; "ezetimibe alone or with a PCSK9 inhibitor" two ways of giving it;
"careful follow-up with echocardiography" only its item (a generic vehicle); "surgery for
severe mitral regurgitation" and "ablation in paroxysmal AF" the act and the condition it
treats. Each reading follows the contract (actions, roles, conditions).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardio_assets.logic.lexicon.drafts import Draft, share_or_label
from cardio_assets.logic.lexicon.sentences import _top_level_search
from cardio_assets.logic.lexicon.vocabulary import (
    _PATIENT_WORDS,
    ACT_NAMED_BY_PURPOSE,
    ALONE_OR_WITH,
)
from cardio_assets.logic.measurements import CHANGE_WORDS

# "of / for (all) patients with X" inside the recommended act: the patients it is done for
_PATIENTS_IN_ACT = (
    rf"\s+(?:of|for)\s+(?:all\s+|the\s+)?(?P<who>(?:{_PATIENT_WORDS})\s+"
    r"(?:with|who|on|after|undergoing)\b)"
)

# what follows "for" that is no condition the act treats: a duration ("for 3 months"), a
# purpose or aim ("for prevention of …", "for rate control", "for assessing …")
_NOT_AN_INDICATION = re.compile(
    r"^(?:\d|up\s+to\b|at\s+least\b|life|the\s+(?:first|duration)|[a-z]+ing\b|"
    # ("for primary / secondary prevention": an aim; "for secondary MR": a disease)
    r"(?:primary|secondary)\s+(?:prevention|prophylaxis|care|end-?points?|outcomes?|goals?)\b|"
    r"(?:the\s+)?(?:prevention|prophylaxis|reduction|treatment|management|"
    r"diagnosis|detection|assessment|evaluation|screening|relief|control|improvement|rate|"
    r"rhythm|symptom|risk|all|those|patients|individuals|people|women|men|adults|children)\b"
    r"|(?:\w+\s+){0,2}dos(?:e|es|age|ing)\b)",  # "in low doses": how much, not for whom
    re.IGNORECASE,
)
_REGIMEN_CHANGE = re.compile(
    r"(?:de-?escalation|escalation|switch(?:ing)?|transition|step-down)\b", re.IGNORECASE
)
# a therapy named only by a generic head ("long-term therapy", "medication", "drug treatment")
_GENERIC_THERAPY = re.compile(
    r"(?:(?:the|a|an|any|long-term|lifelong|chronic|current|specific|drug)\s+)*"
    r"(?:treatments?|therap(?:y|ies)|management|medications?|drugs?)",
    re.IGNORECASE,
)
# a therapy's head word, and the objects too generic to be a disease it treats
_THERAPY_HEAD = re.compile(r"\b(?:therapy|treatment|management)$", re.IGNORECASE)
_GENERIC_OBJECT = re.compile(
    r"\b(?:risk\s+factors?|causes?|conditions?|comorbidit(?:y|ies)|diseases|arrhythmias)$",
    re.IGNORECASE,
)
# acts that look for what follows "for" (the patients need not have it)
_LOOKING_FOR = re.compile(
    r"\b(?:screening|screened|search(?:ing)?|testing|tests?|monitoring|surveillance)\s*$", re.I
)
_NOT_TREATED = frozenset({"Procedure", "Medication", "Outcome", "ClinicalParameter"})
_REGIMEN_NAME = re.compile(
    r"^to\s|\b(?:therapy|regimen|combination|treatment|anticoagulation|lowering|prophylaxis)$",
    re.IGNORECASE,
)
_NOT_AFTER_A_CHANGE = "".join(rf"(?<!\b{word})" for word in CHANGE_WORDS)
# what the act is done with or by: its components ("DAPT with aspirin", "imaging by CT");
# "agents with proven benefit" names a kind of agent, not a component
_MEANS = r"\s+(?:with(?!\s+(?:proven|documented|demonstrated)\b)|by|using|via)\s+"
# a screening that looks for what follows "for": "screening for AF", "opportunistic
# screening for X" (a qualified test, "genetic testing for X", is an act of its own)
_SCREENING = (
    r"(?:(?:opportunistic|systematic|routine|regular|annual|yearly|periodic|targeted|"
    r"universal)\s+)?screening"
)
LOOKING_FOR_ACT = re.compile(rf"^(?P<head>{_SCREENING})\s+for\s+(?P<what>\S.*)$", re.IGNORECASE)
# ... and the screening read apart from what it looks for
SCREENING_ALONE = re.compile(_SCREENING, re.IGNORECASE)
# the tests a screening is done by ("with" may belong to the disease's name: "heart failure
# with reduced ejection fraction")
_DONE_BY = r"\s+(?:by|using|via)\s+"
# "and" opening a second act named by an action noun with what it is done to ("… and
# optimization of X", "… and treatment of Y")
_ANOTHER_ACT = (
    r"\s+and\s+(?=(?:the\s+)?(?:treatment|management|optimi[sz]ation|correction|initiation|"
    r"assessment|evaluation|referral|follow-up|modification|education|counsell?ing)\s+(?:of|for)\s)"
)


class ActRules:
    """The act readings of the lexicon extractor; the phrase readers are PhraseRules."""

    if TYPE_CHECKING:

        def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]: ...

        def role_evidence(self, text: str, slot: str) -> str | None: ...

        def _cohort(self, text: str, group_counter: list[int]) -> list[Draft]: ...

        def _post_phrase(self, kind: str, phrase: str, group_counter: list[int]) -> list[Draft]: ...

    def _action(self, text: str, group_counter: list[int], slot: str = "action") -> list[Draft]:
        """The recommended thing, with its components and companions split off.

        "DAPT with aspirin and clopidogrel", "imaging with IVUS or OCT": the head is the
        action, what follows "with/by/using/via" are its components. "adding X to Y":
        X is the action, Y the background therapy.
        """
        text = text.strip(" ,;.")
        components = ""
        looking = LOOKING_FOR_ACT.match(text) if slot == "action" else None
        means = _top_level_search(_DONE_BY, looking["what"]) if looking else None
        if looking and means is not None:
            # "screening for AF by palpation or an ECG strip": the tests named are what is done;
            # the screening only carries them, and AF is what they look for (its purpose)
            tests = self._post_phrase("means", looking["what"][means.end() :], group_counter)
            if any(d.slot == "action" for d in tests):
                return self.looked_for(looking["what"][: means.start()], group_counter) + tests
        elif looking:
            # "opportunistic screening for AF": the screening is the act, AF what it looks for
            # (its purpose, never a criterion of the row)
            what, another = looking["what"], ""
            second = _top_level_search(_ANOTHER_ACT, what)
            if second is not None:
                # "screening for A and optimization of B": what it looks for ends at a second act
                what, another = what[: second.start()], what[second.end() :]
            found = self.looked_for(what, group_counter)
            if found:
                head = self._phrase(looking["head"], slot, group_counter)
                return head + found + (self._action(another, group_counter) if another else [])
        adding = re.match(r"^(?:(?:routine|the)\s+)*(?:adding|addition\s+of)\s+", text, re.I)
        if adding:
            rest = text[adding.end() :]
            cut = re.search(r"\s+to\s+(?:the\s+combination\s+of\s+)?", rest)
            if cut:
                text, background = rest[: cut.start()], rest[cut.end() :]
                return self._phrase(text, slot, group_counter) + self._phrase(
                    background, "background", group_counter
                )
        patients = (
            _top_level_search(_PATIENTS_IN_ACT, text) if slot in ("action", "example") else None
        )
        if patients is not None and patients.start() > 0:
            # "a triage of patients with pericardial effusion", "evaluation of patients with
            # an indication for PCI": the act, and the patients it is done for (a cohort)
            return self._action(text[: patients.start()], group_counter, slot) + self._cohort(
                text[patients.start("who") :], group_counter
            )
        # "a ≥50% reduction in LDL-C": "in" after a change names what changes, no indication
        indication = _top_level_search(rf"{_NOT_AFTER_A_CHANGE}\s+(?:for|in)\s+", text)
        if indication is not None and slot == "action":
            head, treated = text[: indication.start()], text[indication.end() :]
            means = _top_level_search(_MEANS, treated)
            if means is not None:  # "screening for AF by pulse palpation"
                head, treated = head + treated[means.start() :], treated[: means.start()]
            if (
                not _NOT_AN_INDICATION.match(treated)
                and not _LOOKING_FOR.search(head)  # "screening for AF" looks for it
                and self.role_evidence(head, slot) in ("Procedure", "Medication")
                and self._names_what_is_treated(indication.group(0).strip(), treated)
            ):
                # "surgery for severe mitral regurgitation": the act, and the condition it
                # treats as a condition of the row
                conditions = self._conditions_with(treated, group_counter)
                if conditions is None:
                    conditions = self._phrase(treated, "context", group_counter)
                    if not names_a_test(head):
                        group_listed_indications(treated, conditions, group_counter)
                return self._action(head, group_counter, slot) + conditions
        treated_of = self._therapy_of_disease(text, slot, group_counter)
        if treated_of is not None:
            return treated_of
        alone = ALONE_OR_WITH.match(text)
        if alone:  # "ezetimibe alone or with a PCSK9 inhibitor": X, Y given beside it
            return self._phrase(alone["alone"], slot, group_counter) + self._phrase(
                alone["beside"], "background", group_counter
            )
        cut = _top_level_search(_MEANS, text)
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
                # "DAPT with aspirin and clopidogrel" names a regimen by its items; "an ARB
                # with an ACE-I" names two drugs, both given
                regimen = (
                    all(d.role == "Medication" for d in out)
                    and out
                    and all(_REGIMEN_NAME.search(d.normalized) for d in out)
                )
            # the items, not the name, are what is recommended: "careful follow-up with
            # echocardiography" (a generic vehicle), "triple therapy with aspirin and an OAC"
            # (a regimen of the drugs listed)
            vehicle = ACT_NAMED_BY_PURPOSE.fullmatch(text.strip(" ,"))
            if vehicle:
                items = ("Procedure", "Medication")
            elif regimen:
                items = ("Medication",)
            else:
                items = ()
            # ("DAPT with de-escalation to clopidogrel": a change of the regimen, no item of it)
            if any(p.role in items and not _REGIMEN_CHANGE.match(p.text) for p in parts):
                # what the vehicle is done on stays when it names something in its own
                # words ("follow-up of TEVAR": the repair; "imaging of the aorta": nothing)
                on = vehicle["of"] if vehicle else None
                out = [
                    d
                    for d in (self._phrase(on, "background", group_counter) if on else [])
                    if d.role in ("Procedure", "Medication")
                    and self.role_evidence(d.text, "background") is not None
                ]
                for part in parts:
                    if part.role in items:
                        part.slot = slot
            out.extend(parts)
        return out

    def act_and_its_indication(
        self, text: str, slot: str, group_counter: list[int]
    ) -> list[Draft] | None:
        """ "undergoing surgery for aortic valve disease", "after PCI for AMI": an act the
        patients have (had) and the disease it was for, read apart as the recommended act's
        "surgery for X" is; None unless the words after "for" are surely a condition."""
        found = _top_level_search(r"\s+for\s+", text)
        if found is None:
            return None
        head, treated = text[: found.start()], text[found.end() :]
        if (
            _LOOKING_FOR.search(head)
            or names_a_test(head)
            # "anticoagulation for stroke prevention", "prophylaxis for endocarditis": what
            # the act prevents, not a disease the patients have
            or _NOT_AN_INDICATION.match(treated)
            or re.search(r"\b(?:prevention|prophylaxis|protection|reduction)$", treated, re.I)
            or re.search(r"\b(?:prophyla(?:xis|ctic)|preventive|prevention)\b", head, re.I)
            # "on (long-term) treatment for cancer", "on medication for X": a generic head
            # named by its disease, one therapy
            or _GENERIC_THERAPY.fullmatch(head)
            # "OAC for an indication other than AF": the reason, no disease named as theirs
            or re.match(r"(?:an?\s+|the\s+)?(?:indications?|reasons?)\b", treated, re.I)
            or self.role_evidence(head, slot) not in ("Procedure", "Medication")
            or self.role_evidence(treated, "context") != "Condition"
        ):
            return None
        return self._phrase(head, slot, group_counter) + self._phrase(
            treated, "context", group_counter
        )

    def _therapy_of_disease(
        self, text: str, slot: str, group_counter: list[int]
    ) -> list[Draft] | None:
        """ "medical therapy of specific pericarditis", "management of acute pericarditis":
        a therapy named by the disease it treats is the therapy and the disease apart, as
        "surgery for X" is; not a generic object ("treatment of risk factors")."""
        found = _top_level_search(r"\s+of\s+", text) if slot in ("action", "background") else None
        if found is None:
            return None
        head, treated = text[: found.start()], text[found.end() :]
        if (
            not _THERAPY_HEAD.search(head)
            # "amiodarone as maintenance therapy of sinus rhythm": a role, kept whole
            or re.search(r"\bas\s", head, re.I)
            or _NOT_AN_INDICATION.match(treated)
            or _GENERIC_OBJECT.search(re.sub(r"\s*\([^()]*\)$", "", treated.strip()))
            or self.role_evidence(treated, "context") != "Condition"
        ):
            return None
        return self._phrase(head, slot, group_counter) + self._phrase(
            treated, "context", group_counter
        )

    def looked_for(self, what: str, group_counter: list[int]) -> list[Draft]:
        """What a screening looks for: the states named, with function purpose (never a
        criterion of the row)."""
        drafts = self._phrase(what, "purpose", group_counter)
        return [d for d in drafts if d.role in ("Condition", "ClinicalParameter")]

    def _conditions_with(self, treated: str, group_counter: list[int]) -> list[Draft] | None:
        """ "for any tachycardia with haemodynamic instability" reads like "in patients with
        …": each "with" adds one condition. None when no "with" joins two of them."""
        if _top_level_search(r"\s+with\s+", treated) is None:
            return None
        return self._cohort(f"patients with {treated}", group_counter)

    def _names_what_is_treated(self, word: str, treated: str) -> bool:
        """After "in" the words must say they are a condition ("in CCS"); after "for" they
        are one unless they say they are something else."""
        evidence = self.role_evidence(treated, "context")
        return evidence == "Condition" if word == "in" else evidence not in _NOT_TREATED


# a comma that lists indications: outside brackets ("for SVT (A, B and C)" lists one), and
# not the one before a closing "or" / "and" that leads on to another clause ("for A (B, C),
# or if D": the ", or" opens the clause, no list)
_LISTING_COMMA = r",(?!\s*(?:(?:or|and)\s*)?$)"


def group_listed_indications(
    treated: str, conditions: list[Draft], group_counter: list[int]
) -> None:
    """ "thyroidectomy for A, B, C and D": three or more indications of an act, listed with
    a comma, name the cases it is done for, any one of them enough; the "and" lists them, it
    does not ask for all (the contract, §6: "and" meaning OR). The caller leaves tests out
    ("assessment for A, B and C" looks at all three). A comma only inside a bracket lists no
    indication: "for SVT (AVNRT, AVRT and AT)" names one, its kinds in the bracket."""
    listed = [d for d in conditions if d.role == "Condition" and not d.negated]
    if (
        len(listed) >= 3
        and len(listed) == len(conditions)
        and _top_level_search(_LISTING_COMMA, treated) is not None
    ):
        share_or_label(listed, group_counter)


# the head word of an act that looks at something rather than treats it
_TEST_HEAD = re.compile(
    r"\b(?:echocardiography|echocardiogram|imaging|testing|tests?|screening|monitoring|"
    r"assessment|evaluation|examination|scan|scanning|electrocardiogra(?:m|phy)|ultrasound|"
    r"tomography|resonance|angiography|measurement|work-?up|stratification|ECG|CT|CMR|MRI)$",
    re.IGNORECASE,
)


def names_a_test(text: str) -> bool:
    """ "Echocardiography", "assessment": an act done to find something, whose "for A, B and
    C" lists what it looks at, all of them."""
    return bool(_TEST_HEAD.search(text.strip(" ,;.")))
