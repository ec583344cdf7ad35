"""Condition clauses that say more than their words (a mixin of LexiconExtractor).

"if X and Y fail" is the failure of each therapy; "if PCI is indicated" an indication for
it; "when X is not available" its absence; "after TAVI who are frail" a
procedure, then the patients. Each reading is the contract's (conditions, negation, roles);
the words that state it are no concept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardio_assets.logic.lexicon.drafts import Draft, _negate, new_group_label
from cardio_assets.logic.lexicon.phrase_patterns import test_showing
from cardio_assets.logic.lexicon.segments import SEEN_ON_TEST
from cardio_assets.logic.lexicon.vocabulary import PERSIST_WORDS

if TYPE_CHECKING:
    from cardio_assets.logic.lexicon.terms import TermHit

# a relative clause about the patients inside a context phrase
_WHO_CLAUSE = re.compile(r"\s+(?:who|whom)\s+(?:are|is|have|has|were|was|had|remain)\b", re.I)
# "[After] PCI in a patient with AF": the patients the event happened to, named after it
# ("after TAVI in patients with AF"; "in patients admitted (to hospital) with / for HF": how
# they came, then what they have)
_IN_PATIENTS_WITH = re.compile(
    r"\s+in\s+(?:an?\s+|the\s+|all\s+)?patients?\s+"
    r"(?=(?:(?:admitted|hospitali[sz]ed)(?:\s+to\s+hospital)?\s+(?:with|for)\b|"
    r"(?:presenting\s+)?with\b))",
    re.I,
)
# a verb that ends a clause of its own before "and" ("if AF persists and …")
_CLAUSE_VERB = re.compile(
    r"\b(?:persist|recur|occur|remain|continue|fail|develop|worsen|progress|return|resolve|"
    r"appear|exist)s?\s+and\s",
    re.IGNORECASE,
)
# "X is not available / absent", "X has been excluded / ruled out": the condition is that
# X is missing
_ABSENT = re.compile(
    r"^(?:the\s+|an?\s+)?(?P<what>(?:(?!\b(?:is|are|was|were|and)\b).)+?"
    # "A and B is / are not available": both missing; "if AF persists and TOE is not
    # available" joins two clauses (a verb ends the first), and only TOE is missing
    r"(?:\s+and\s+(?:(?!\b(?:is|are|was|were|and)\b).)+?)?)\s+"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:(?:reliably|definitely|safely)\s+)?"
    r"(?:not\s+(?:available|present|documented|known|found|detected|seen|possible|feasible)"
    r"(?:\s+(?:or|and/or)\s+(?:available|possible|feasible))?|absent|lacking|"
    r"unavailable|missing|excluded|ruled\s+out)$"
    # "if no alternative imaging is available": the same absence said with "no"
    r"|^no\s+(?P<none>(?:(?!\b(?:is|are|was|were|and)\b).)+?)\s+(?:is|are)\s+"
    r"(?:available|present|possible|feasible)$",
    re.IGNORECASE,
)
# "X is indicated / required [before …]": the patient has an indication for X
_INDICATED = re.compile(
    r"^(?:the\s+)?(?P<what>.+?)\s+(?:is|are)\s+(?:(?:also|clinically)\s+)?"
    r"(?:indicated|required|needed|necessary)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
# "X fail(s) [to …]", "X has failed", "X was unsuccessful": a therapy tried without success
_FAIL_VERB = (
    r"(?:fails?|failed|(?:has|have)\s+failed|"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+unsuccessful)"
)
# "X is contraindicated / not tolerated / ineffective / not an option": a state of the
# patient towards X, a condition in its own right (the contract's predicative failures)
_UNSUITABLE = re.compile(
    r"^(?:the\s+)?(?P<what>(?:(?!\b(?:is|are|was|were|and|or)\b).)+?)\s+"
    r"(?:(?:is|are|was|were|has\s+been|have\s+been)\s+(?:(?:proven|found)\s+)?"
    r"(?P<state>contraindicated|not\s+tolerated|poorly\s+tolerated|ineffective|not\s+effective|"
    r"not\s+an\s+option|not\s+(?:suitable|appropriate))|(?:cannot|can\s*not)\s+be\s+"
    r"(?P<cannot>tolerated|performed|done|undertaken|carried\s+out))$",
    re.IGNORECASE,
)
# the last words of "cannot be performed / done / undertaken / carried out": what the
# clause says cannot be done is an act, whatever its name alone reads as
_CANNOT_BE_DONE = frozenset({"performed", "done", "undertaken", "out"})
_UNSUITABLE_NAMES = {
    "contraindicated": "contraindication to {}",
    "tolerated": "{} intolerance",
    "ineffective": "ineffective {}",
    "effective": "ineffective {}",
    "option": "{} not an option",
    "suitable": "{} not suitable",
    "appropriate": "{} not appropriate",
    # "if PCI of the culprit artery cannot be performed": the act is not feasible here
    **dict.fromkeys(_CANNOT_BE_DONE, "{} not feasible"),
}
# "X is not effective, not tolerated, or is contraindicated", "X has failed or is declined":
# several states of one therapy, alternatives to each other; each is a condition of its own
_STATE_WORD = (
    r"(?:not\s+(?:available|effective|tolerated|feasible|possible|suitable|appropriate|an\s+option)|"
    r"contraindicated|ineffective|unavailable|poorly\s+tolerated|refused|declined|failed|"
    r"unsuccessful)"
)
_STATE_AUX = r"(?:(?:is|are|was|were|has|have)\s+(?:been\s+)?)"
_SEVERAL_STATES = re.compile(
    r"^(?:the\s+)?(?P<what>(?:(?!\b(?:is|are|was|were|has|have)\b).)+?)\s+"
    rf"(?P<states>{_STATE_AUX}?{_STATE_WORD}"
    rf"(?:(?:\s*,\s*(?:(?:or|and/or)\s+)?|\s+(?:or|and/or)\s+){_STATE_AUX}?{_STATE_WORD})*)"
    r"(?:\s+by\s+the\s+patients?)?$",
    re.IGNORECASE,
)
# two clauses joined by "and", the first with a verb of its own
_TWO_CLAUSES = re.compile(
    r"^(?P<first>.+?\b(?:is|are|was|were|remains?|stays?|persists?|recurs?|has|have)\b.+?)"
    r"\s+and\s+"
    r"(?P<second>(?:(?!\b(?:and|or)\b).)+)$",
    re.IGNORECASE,
)
# a subject that points back ("these agents", "such drugs", "either drug") names no therapy
# of its own: its states are said of therapies the row names elsewhere, and make nothing new
_POINTING_BACK = re.compile(
    r"^(?:these|those|this|that|such|either|both|its|their|they|it)\b", re.I
)
# states said of a therapy the patients cannot have, as opposed to one that is absent
_UNSUITED_STATES = frozenset({"contraindicated", "tolerated", "ineffective", "effective"})
# the names of _UNSUITABLE's states, and of the absences and failures a list may add
_STATE_NAMES = {
    **_UNSUITABLE_NAMES,
    "available": "{} not available",
    "unavailable": "{} not available",
    "feasible": "{} not feasible",
    "possible": "{} not feasible",
    "refused": "{} refused",
    "declined": "{} declined",
    "failed": "failure of {}",
    "unsuccessful": "failure of {}",
}
_FAILED = re.compile(
    rf"^(?P<failed>(?:the\s+)?.+?\s+{_FAIL_VERB})(?:\s+to\s+(?P<aim>.+))?$", re.IGNORECASE
)
# what a therapy failed to bring under control: "the drugs fail to convert or control the
# arrhythmia", "fails to relieve angina" (the state it was given for)
_TREATED_BY_FAILED = re.compile(
    r"^(?:(?:convert|control|terminate|relieve|restore|suppress|abolish|slow)(?:\s+(?:or|and)\s+)?)+"
    r"\s+(?:the\s+)?(?P<state>.+)$",
    re.IGNORECASE,
)
_FAIL_WORDS = re.compile(rf"\s+{_FAIL_VERB}$", re.IGNORECASE)
# "if the HbA1c target is not met on metformin", "if heart rate remains uncontrolled with two
# drugs": the unmet goal is the condition, and the therapy it was not met with is what the
# patient is already on (background), not part of the condition's name
_UNMET = re.compile(
    r"^(?:the\s+)?(?P<state>.+?\s+(?:(?:is|are|was|were|remains?|has|have)\s+)?(?:still\s+)?"
    r"(?:(?:been\s+)?not|not\s+been|(?:still\s+)?un)\s*(?:adequately\s+|sufficiently\s+)?"
    r"(?:achieved|reached|attained|met|controlled))"
    r"\s+(?:with|on|by|despite|under)\s+(?P<therapy>.+)$",
    re.IGNORECASE,
)

# "if symptoms persist despite diuretics", "when angina persists on two drugs": the state
# that goes on is the condition, named "persistent …" as the golds name it, and the therapy
# it goes on under is what the patient is already on (background); "despite" may have cut
# the therapy off already, leaving "if symptoms persist". The state is a few words that are
# no relative pronoun ("AF that persists" is read where its relative clause is); "on"
# before a test or an effort is where the state is seen ("persists on exertion"), no therapy
_NOT_RELATIVE = r"(?!(?:that|which|who)\b)"
_PERSISTS_UNDER = re.compile(
    rf"^(?:the\s+)?(?P<state>(?:{_NOT_RELATIVE}[\w-]+\s+){{0,4}}?{_NOT_RELATIVE}[\w-]+)"
    rf"\s+(?P<verb>{PERSIST_WORDS})"
    r"(?:\s+(?P<under>despite|on|under|in\s+spite\s+of)\s+(?P<therapy>.+))?$",
    re.IGNORECASE,
)


class ClauseRules:
    """The clause readings of the lexicon extractor; the phrase readers are PhraseRules."""

    if TYPE_CHECKING:

        def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]: ...

        def _cohort(self, text: str, group_counter: list[int]) -> list[Draft]: ...

        def _best_hit(self, phrase: str) -> TermHit | None: ...

        def _post_phrase(
            self, kind: str, phrase: str, group_counter: list[int], *, after_test: bool = False
        ) -> list[Draft]: ...

    def _clause_drafts(
        self, kind: str, phrase: str, group_counter: list[int]
    ) -> list[Draft] | None:
        """The drafts of a condition clause that one of the readings covers, else None."""
        several = self._several_states(phrase, group_counter)
        if several is not None:
            return several
        joined = _TWO_CLAUSES.match(phrase)
        if joined and (
            _UNSUITABLE.match(joined["second"])
            or test_showing(joined["second"], self.abbreviations.normalize) is not None
        ):
            # "if the rate is not controlled and beta-blockers are contraindicated", "when
            # the EF stays low and the ECG shows LBBB": two clauses, both to hold, each read
            # on its own
            return self._post_phrase(kind, joined["first"], group_counter) + self._post_phrase(
                kind, joined["second"], group_counter
            )
        absent = _ABSENT.match(phrase)
        if absent and _CLAUSE_VERB.search(absent.group("what") or ""):
            absent = None  # "if AF persists and TOE is not available": only TOE is missing
        if absent:
            # "if proof of valve thrombosis is lacking": the row is for its absence
            what = absent.group("what") or absent.group("none")
            return _negate(self._phrase(what, "context", group_counter))
        indicated = _INDICATED.match(phrase)
        if indicated:
            # "if PCI is indicated before surgery": the patient has an indication for PCI
            drafts = self._phrase(indicated.group("what"), "context", group_counter)
            if (
                len(drafts) == 1
                and drafts[0].role in ("Condition", "Outcome")
                and not indicated["rest"].strip(" ,;")
            ):
                # "if additional glucose control is needed": no act is indicated; the need
                # itself is the patients' state, said by the whole clause
                need = drafts[0]
                need.role, need.text = "Condition", phrase.strip()
                need.normalized = f"need for {self.abbreviations.normalize(indicated['what'])}"
                return drafts
            for d in drafts:
                if d.role in ("Medication", "Procedure"):
                    d.role, d.normalized = "Condition", f"indication for {d.normalized}"
            rest = re.sub(
                r"^(?:during|before|after|following|prior\s+to|in|for)\s+",
                "",
                indicated.group("rest").strip(" ,;"),
                flags=re.IGNORECASE,
            )
            return drafts + (self._phrase(rest, "context", group_counter) if rest else [])
        with_them = _IN_PATIENTS_WITH.search(phrase) if kind == "context" else None
        if with_them and with_them.start() > 0:
            # "after TAVI in patients with AF": the procedure is the context, AF the cohort's
            return self._post_phrase(
                kind, phrase[: with_them.start()], group_counter
            ) + self._cohort("patients " + phrase[with_them.end() :], group_counter)
        who = _WHO_CLAUSE.search(phrase)
        if who and kind == "context":
            # "after TAVI or PCI who are frail": the who-clause is about the
            # patients, not the procedure before it
            return self._post_phrase(kind, phrase[: who.start()], group_counter) + self._cohort(
                "patients" + phrase[who.start() :], group_counter
            )
        unmet = _UNMET.match(phrase)
        if unmet:
            state = self._phrase(unmet.group("state"), "context", group_counter)
            for d in state:
                if d.role != "ClinicalParameter":
                    d.role = "Condition"
            return state + self._phrase(unmet.group("therapy"), "background", group_counter)
        persisting = self._persisting(phrase, group_counter)
        if persisting is not None:
            return persisting
        unsuitable = self._unsuitable(phrase, group_counter)
        if unsuitable is not None:
            return unsuitable
        failed = _FAILED.match(phrase)
        if failed and re.fullmatch(
            r"\s*(?:they|it|these|this|both|either)\s+\w+", failed["failed"], re.I
        ):
            return []  # "… followed by Y if they fail": the pronoun points back at the act
        if failed:
            # "if beta-blockers and digoxin fail": the condition is each therapy's failure,
            # named so and keeping the therapy's role; what it failed to do is no concept,
            # the state it was given for is ("fails to control the tachycardia")
            drafts = self._phrase(failed.group("failed"), "context", group_counter)
            for d in drafts:
                if d.role == "Condition":  # "if vagal manoeuvres fail": what fails was tried
                    d.role = "Procedure"
                if d.role in ("Medication", "Procedure"):
                    d.text = _FAIL_WORDS.sub("", d.text) or d.text
                    d.normalized = f"failure of {_FAIL_WORDS.sub('', d.normalized)}"
            treated = _TREATED_BY_FAILED.match(failed.group("aim") or "")
            if treated:
                drafts += [
                    d
                    for d in self._phrase(treated.group("state"), "context", group_counter)
                    if d.role == "Condition"
                ]
            return drafts
        return None

    def therapy_state(self, phrase: str, group_counter: list[int]) -> list[Draft] | None:
        """ "X is contraindicated / not tolerated / cannot be performed", alone or several
        states in a list, wherever the clause stands ("in whom beta-blockers are
        contraindicated", "except when NSAIDs are contraindicated"): the states as
        conditions, or None when the phrase is no such clause about a therapy."""
        several = self._several_states(phrase, group_counter)
        if several is not None:
            return several
        persisting = self._persisting(phrase, group_counter)
        return persisting if persisting is not None else self._unsuitable(phrase, group_counter)

    def _persisting(self, phrase: str, group_counter: list[int]) -> list[Draft] | None:
        """The drafts of "S persists (despite T)" (_PERSISTS_UNDER): the condition
        "persistent S" and the therapy T as background; None when S names no single state."""
        persists = _PERSISTS_UNDER.match(phrase)
        if not persists:
            return None
        therapy = persists["therapy"]
        if therapy and persists["under"].lower() == "on" and SEEN_ON_TEST.match(therapy):
            return None  # "persists on exertion / on the ECG": where it is seen
        state = self._phrase(persists["state"], "context", group_counter)
        said = phrase[persists.start("state") : persists.end("verb")]
        if len(state) != 1 or state[0].role not in ("Condition", "Outcome"):
            return None
        named_kind = self._best_hit(f"persistent {state[0].normalized}")
        if named_kind is not None and named_kind.score >= 0.97:
            return None  # "persistent AF" is a kind of AF of its own, not AF that goes on
        state[0].role, state[0].text = "Condition", said
        state[0].normalized = f"persistent {state[0].normalized}"
        return state + (self._phrase(therapy, "background", group_counter) if therapy else [])

    def _unsuitable(self, phrase: str, group_counter: list[int]) -> list[Draft] | None:
        """The drafts of "X is contraindicated / ... / cannot be performed" (_UNSUITABLE):
        each therapy X names becomes the condition of that state; None when X names none."""
        unsuitable = _UNSUITABLE.match(phrase)
        if not unsuitable:
            return None
        drafts = self._phrase(unsuitable.group("what"), "context", group_counter)
        kind_word = (unsuitable.group("state") or unsuitable.group("cannot")).split()[-1].lower()
        therapies = [d for d in drafts if d.role in ("Medication", "Procedure")]
        if not therapies and kind_word in _CANNOT_BE_DONE:
            therapies = [d for d in drafts if d.role != "ClinicalParameter"]
        if not therapies:
            return None  # "if the tachycardia is poorly tolerated": a state, read whole
        for d in therapies:
            d.role = "Condition"
            d.normalized = _UNSUITABLE_NAMES[kind_word].format(d.normalized)
            if len(therapies) == 1:
                d.text = phrase.strip()  # the state is said by the whole clause
        return drafts

    def _several_states(self, phrase: str, group_counter: list[int]) -> list[Draft] | None:
        """The drafts of "X is S1, S2, or S3" (see _SEVERAL_STATES): one condition per
        state, alternatives under one OR label; a single therapy is named by its states,
        several ("A or B is not available or is contraindicated") stay named beside them.
        None when the clause is no such list or its subject names no therapy."""
        several = _SEVERAL_STATES.match(phrase)
        if several is None:
            return None
        if _POINTING_BACK.match(several.group("what")):
            return []  # the therapies it points back to are named where the row names them
        subject = self._phrase(several.group("what"), "context", group_counter)
        if not any(d.role in ("Medication", "Procedure") for d in subject):
            return None
        # "if vagal manoeuvres and adenosine have failed": each thing tried, whatever the
        # role its name alone would get
        therapies = [d for d in subject if d.role != "ClinicalParameter"]
        matches = list(re.finditer(_STATE_WORD, several.group("states"), re.IGNORECASE))
        if len(matches) == 1 and (
            len(therapies) < 2
            or matches[0].group(0).split()[-1].lower() not in _UNSUITED_STATES
            or any(d.role not in ("Medication", "Procedure") for d in subject)
        ):
            # one state of one therapy, an absence, or a subject that is more than
            # therapies ("the rate stays high and beta-blockers"): the readings below
            return None
        joiner = " and " if re.search(r"\band\b", several.group("what"), re.I) else " or "
        name = joiner.join(d.normalized for d in therapies)
        label = new_group_label(group_counter) if len(matches) > 1 else None
        states = [
            Draft(
                role="Condition",
                text=m.group(0),
                normalized=_STATE_NAMES[m.group(0).split()[-1].lower()].format(name),
                slot="context",
                or_group=label,
            )
            for m in matches
        ]
        if len(therapies) == 1:  # "beta-blockers are not effective, …": the first names it
            states[0].text = phrase[: several.start("states") + matches[0].end()].strip()
            return states
        return subject + states
