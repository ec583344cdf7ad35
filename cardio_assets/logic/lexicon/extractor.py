"""The lexicon extractor: one row -> the RowExtraction of one pass (MAIN or POPULATION).

Sentence shapes (sentences.py) give the slots, parameters (parameters.py) are taken out,
the remaining phrases are split into AND/OR leaves (cardio_assets/logic/logic_split.py),
and each leaf gets a role: from the terminology's semantic tag when a description matches
well enough (``min_term_score``), else from the word lists (vocabulary.py).
"""

from __future__ import annotations

import hashlib
import json
import re

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.lexicon.acts import (
    LOOKING_FOR_ACT,
    SCREENING_ALONE,
    ActRules,
    names_a_test,
)
from cardio_assets.logic.lexicon.clauses import ClauseRules
from cardio_assets.logic.lexicon.drafts import (
    Draft,
    _dedupe,
    _is_population,
    without_fragments,
)
from cardio_assets.logic.lexicon.noise import clean_row_text
from cardio_assets.logic.lexicon.noise_time import unnamed_event
from cardio_assets.logic.lexicon.parameters import (
    WINDOW_ANCHOR,
    durations_so_far,
    times_since_events,
)
from cardio_assets.logic.lexicon.phrase_groups import pair_groups_one_at_a_time
from cardio_assets.logic.lexicon.phrase_patterns import (
    _ABBREVIATION_PAIR,
    _AVOIDING,
    _THEN_START,
    _clean_grade,
)
from cardio_assets.logic.lexicon.phrases import PhraseRules
from cardio_assets.logic.lexicon.post_markers import ALSO_GROUP, VALUE_OF
from cardio_assets.logic.lexicon.post_phrases import (
    PostPhraseRules,
    link_alternative_case,
    link_repeated_groups,
)
from cardio_assets.logic.lexicon.role_words import heuristic_role
from cardio_assets.logic.lexicon.roles import LexiconSettings, RoleRules
from cardio_assets.logic.lexicon.sentence_split import split_sentences
from cardio_assets.logic.lexicon.sentences import (
    REDUCING_ACTS,
    RowParse,
    parse_sentence,
)
from cardio_assets.logic.lexicon.sex_values import per_sex_values
from cardio_assets.logic.lexicon.span_tagger import SpanTagger
from cardio_assets.logic.lexicon.terms import TermHit, TermLookup, footnote_abbreviations
from cardio_assets.logic.lexicon.version import RULES_VERSION
from cardio_assets.logic.lexicon.vocabulary import (
    ACT_NAMED_BY_PURPOSE,
    ENTERED_STATES,
    TARGET_WORD,
)
from cardio_assets.logic.lexicon.windows_per_event import group_events_of_windows
from cardio_assets.logic.measurement_operators import BOUND_AFTER
from cardio_assets.logic.measurement_units import UNIT_RE
from cardio_assets.records import ExtractedAction, ExtractedConcept, Focus, RowExtraction, RowRecord

# an abbreviation with a footnote letter glued to its end ("LMWHc", "NOACf")
_GLUED_MARKER = re.compile(r"\b(?P<short>[A-Z][A-Z0-9\-]*[A-Z0-9])[a-h]\b")
# ... or to a plural, where no English word ends so ("corticosteroidsd", "statinsc")
_GLUED_TO_PLURAL = re.compile(r"\b(?P<plural>[A-Za-z][a-z\-]{2,}s)[bcdfg]\b")
# ... or to a drug's name ("verapamild", "doxorubicinb"): the word without its last letter
# is a drug, the word itself none ("requiring", "examined" are words of their own)
_GLUED_TO_WORD = re.compile(r"\b(?P<word>[A-Za-z][a-z\-]{4,})(?P<letter>[a-h])\b")
# ... or to the words that bound a value after it ("a score of 2 or moreb"): no English word
# ends so
_GLUED_TO_BOUND = re.compile(rf"\b(?P<bound>{BOUND_AFTER})(?P<letter>[a-h])\b", re.IGNORECASE)
# ... or to a value's unit ("35%d", "140 mmHga", "1.4 mmol/Lc"): a unit never ends in a
# letter it does not have, so one glued to it is a marker (a one-letter unit excepted: "65 he"
# is a number and a word; and never inside a word: "3 meta-analyses")
_GLUED_TO_UNIT = re.compile(
    rf"(?<=\d)(?P<unit>\s?(?:{UNIT_RE}))(?P<letter>(?-i:[a-h]))(?![\w/'’-])", re.IGNORECASE
)

# a name of at most four words, none of them a preposition, a verb's "to" or a verb ending
_BARE_NAME = re.compile(
    r"(?i)(?!.*\b(?:of|to|for|about|against|with|from|in|on|at|by|as|via|using|after|before|"
    r"during|throughout|within|over|under|than|that|which|any)\b)[\w'’\-–]+(?:\s+[\w'’\-–]+){0,3}"
)
# heads a state shares with what is done about it: a history is taken, a risk estimated
_ACT_ON_HEADS = frozenset({"history", "histories", "risk", "risks"})

# a coronary vessel named as a row's patient group ("LM with a high SYNTAX score"): the
# patients with disease of that vessel
_DISEASED_VESSEL = re.compile(r"(?:LM|LAD|RCA|LCx|left\s+main)", re.IGNORECASE)
# cases joined by more than a plain list: "with A and B", "A with B", "A plus B" ("and/or"
# lists alternatives)
_JOINED_CASES = re.compile(r"\b(?:and(?!/or)|with|plus)\b", re.IGNORECASE)
# the lead of a group named by what it has ("in patients with"), no joining "with" itself
_GROUP_WITH = re.compile(r"(?:(?:in|for|among)\s+)?(?:[\w-]+\s+){0,3}?with\s+", re.IGNORECASE)
# what a post phrase opens with when it names the means the act is done with
_MEANS_LEAD = re.compile(r"(?:using|by\s+means\s+of|with\s+the\s+use\s+of)\s+", re.IGNORECASE)

# the acts "It is recommended to reduce / limit X" name ("reduction of X")
_REDUCING = frozenset(REDUCING_ACTS.values())


# ---------------------------------------------------------------------------------------
# The extractor
# ---------------------------------------------------------------------------------------


class LexiconExtractor(PhraseRules, RoleRules, ClauseRules, ActRules, PostPhraseRules):
    """Rule + terminology extractor; one instance per run (holds no per-row state)."""

    def __init__(
        self,
        abbreviations: Abbreviations | None = None,
        term_lookup: TermLookup | None = None,
        settings: LexiconSettings | None = None,
        span_tagger: SpanTagger | None = None,
    ) -> None:
        self.abbreviations = abbreviations or Abbreviations({})
        self.term_lookup = term_lookup
        self.settings = settings or LexiconSettings()
        self.span_tagger = span_tagger
        self._cache: dict[str, TermHit | None] = {}
        self._row_workers: dict[tuple, LexiconExtractor] = {}
        self.slash_pairs: set[str] = set()

    # -- identity -----------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return RULES_VERSION

    def prompt_hash(self, tagged: bool = True) -> str:
        """Changes whenever rules, settings or abbreviations change (cache key). For a row
        the span tagger does not read (``tagged`` False) it is the rules alone's hash, so a
        tagger scoped to other guidelines leaves this row's record as it was."""
        uses_tagger = tagged and self.span_tagger is not None
        settings = dict(self.settings.__dict__)
        if not uses_tagger:
            settings.pop("span_tagger_scope")
        payload = json.dumps(
            {
                "rules": RULES_VERSION,
                "settings": settings,
                "abbreviations": sorted(self.abbreviations.mapping.items()),
                "terminology": self.term_lookup is not None,
                "span_tagger": self.span_tagger.fingerprint if uses_tagger else None,
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
        tagged = self.tagger_reads(row.guideline)
        base = {
            "row_id": row.id,
            "guideline": row.guideline,
            "focus": focus,
            "backend": "lexicon",
            # the record says which extractor read the row: the rules, or the rules and
            # this span tagger (the scope decides per guideline); the graph and audit show it
            "model": self.model_name
            + (
                f"+span-tagger-{self.span_tagger.fingerprint}"
                if self.span_tagger and tagged
                else ""
            ),
            "prompt_hash": self.prompt_hash(tagged),
            "input_hash": input_hash,
        }
        worker = self._for_row(row)
        try:
            drafts, parses = worker.analyse(row.text_for_extraction(), tagged=tagged)
        except Exception as exc:  # one odd row must not sink the guideline
            return RowExtraction(**base, error=f"{type(exc).__name__}: {exc}")
        try:
            concepts, actions = self._records(row, focus, drafts)
        except ValueError as exc:  # a draft the records refuse: this row fails, not the run
            return RowExtraction(**base, error=f"{type(exc).__name__}: {exc}")
        raw = json.dumps(
            [
                {"cohort": p.cohort, "action": p.action, "post": p.post, "verb": p.verb}
                for p in parses
            ]
        )
        return RowExtraction(**base, raw_output=raw, concepts=concepts, actions=actions)

    def _records(
        self, row: RowRecord, focus: Focus, drafts: list[Draft]
    ) -> tuple[list[ExtractedConcept], list[ExtractedAction]]:
        """The drafts as the pass's concepts and actions (POPULATION keeps population only)."""
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
                alt_values=d.alt_values,
                or_group=d.or_group,
                negated=d.negated,
                function="purpose" if d.slot == "purpose" and d.role == "Condition" else None,
            )
            for d in chosen
        ]
        return concepts, actions

    def _for_row(self, row: RowRecord) -> LexiconExtractor:
        """Same extractor with the table's own footnote abbreviations added.

        The shared list wins on conflicts so one concept keeps one name across guidelines;
        footnotes only fill gaps ("LBBB = left bundle branch block"). The shared entries
        marked ``yields`` (another common reading: "CHD" is coronary or congenital heart
        disease) give way to the guideline's own abbreviation list.
        """
        extra = {**row.abbreviations, **footnote_abbreviations(row.footnotes)}
        extra = {k: v for k, v in extra.items() if self.abbreviations.lookup(k) is None}
        own = {
            k: v
            for k, v in row.abbreviations.items()
            if k.lower() in self.abbreviations.yields and self.abbreviations.lookup(k) != v
        }
        if not extra and not own:
            return self
        key = tuple(sorted({**extra, **own}.items()))
        worker = self._row_workers.get(key)
        if worker is None:
            overridden = {k.lower() for k in own}
            shared = {
                k: v for k, v in self.abbreviations.mapping.items() if k.lower() not in overridden
            }
            worker = LexiconExtractor(
                Abbreviations({**extra, **shared, **own}, yields=self.abbreviations.yields),
                self.term_lookup,
                self.settings,
                self.span_tagger,
            )
            worker._cache = self._cache
            self._row_workers[key] = worker
        return worker

    # -- analysis -----------------------------------------------------------------------
    def prepared_text(self, row_text: str) -> str:
        """The text the rules and the span tagger read (cleaned, abbreviation pairs split)."""
        return self._split_abbreviation_pairs(self._unglue_markers(clean_row_text(row_text)))

    def _unglue_markers(self, text: str) -> str:
        """ "LMWHc", "NOACf": a footnote letter glued to an abbreviation the row's table
        gave no footnote for (so the ingestion could not tell it apart) is left out when the
        abbreviation is known without it and not with it ("QTc" stays); so is one glued to a
        plural in a way no word ends ("corticosteroidsd"), to a drug's name ("verapamild"), to
        the words that bound a value ("or moreb") or to a value's unit ("35%d")."""

        def unglued(match: re.Match[str]) -> str:
            lookup = self.abbreviations.lookup
            known = lookup(match["short"]) is not None and lookup(match[0]) is None
            return match["short"] if known else match[0]

        def drug_unglued(match: re.Match[str]) -> str:
            word, whole = match["word"], match[0]
            if whole.endswith("ing") or heuristic_role(whole) is not None:
                return whole
            if whole.endswith("ed"):  # "examined": only a drug the terminology knows
                hit = self._best_hit(word.lower())
                exact = hit is not None and hit.score >= 0.99 and hit.semantic_tag == "substance"
                return word if exact else whole
            return word if heuristic_role(word) == "Medication" else whole

        def unit_unglued(match: re.Match[str]) -> str:
            one_letter = re.fullmatch(r"\s?[A-Za-z]", match["unit"]) is not None
            return match[0] if one_letter else match["unit"]

        text = _GLUED_TO_PLURAL.sub(r"\g<plural>", _GLUED_MARKER.sub(unglued, text))
        text = _GLUED_TO_UNIT.sub(unit_unglued, _GLUED_TO_BOUND.sub(r"\g<bound>", text))
        return _GLUED_TO_WORD.sub(drug_unglued, text)

    def rule_drafts(self, row: RowRecord) -> tuple[str, list[Draft]]:
        """The prepared text of ``row`` and what the rules alone find in it (training data
        for the span tagger)."""
        worker = self._for_row(row)
        printed = row.text_for_extraction()
        text = worker.prepared_text(printed)
        return text, worker._rules(text, printed)[0]

    def tagger_reads(self, guideline: str) -> bool:
        """Whether the span tagger re-draws this guideline's rows: with the default scope,
        only rows of a guideline the model learned from (on a guideline it never saw it
        scored no better than the rules, leave-one-guideline-out: README)."""
        if self.span_tagger is None:
            return False
        if self.settings.span_tagger_scope == "all_guidelines":
            return True
        return self.span_tagger.learned(guideline)

    def analyse(self, row_text: str, tagged: bool = True) -> tuple[list[Draft], list[RowParse]]:
        """Drafts and sentence parses of a row: the rules', then (``tagged``) the span
        tagger's second look."""
        text = self.prepared_text(row_text)
        drafts, parses = self._rules(text, row_text)
        if tagged and self.span_tagger is not None:  # the learned second look
            drafts = _dedupe(self.span_tagger.revise(text, drafts, self.abbreviations.normalize))
        return drafts, parses

    def _rules(self, text: str, printed: str) -> tuple[list[Draft], list[RowParse]]:
        """What the rules alone find in the prepared text (``printed``: the row as printed,
        for what the cleaning takes out, such as the waits of "6 months after PCI")."""
        drafts: list[Draft] = []
        parses: list[RowParse] = []
        group_counter = [0]
        # "6 months after MI": the times since events are read first, out of the text
        untimed, since = times_since_events(text, self.abbreviations)
        untimed, lasted = durations_so_far(untimed, self.abbreviations)
        since += lasted
        sentences = split_sentences(untimed)
        parsed = [parse_sentence(s) for s in sentences]
        first_verb = next((i for i, p in enumerate(parsed) if p.verb), None)
        for index, (sentence, parse) in enumerate(zip(sentences, parsed, strict=True)):
            bare = sentence.rstrip(".")
            if bare.startswith("(") and bare.endswith(")") and drafts:
                # "(bisoprolol, carvedilol or nebivolol)": examples of the action above.
                drafts.extend(self._phrase(bare[1:-1], "action", group_counter))
                continue
            if parse.verb is None and first_verb is not None and index < first_verb:
                # "Patients requiring pacing after valve surgery. Lead X should be avoided.": a
                # verbless sentence before the recommending one says whom it is for
                parse = RowParse(cohort=bare)
            elif first_verb is None and self._patient_group_only(parse):
                # "Two-vessel disease with a high risk score": a row with no verb that names
                # only diseases and states is a patient group; what is done for it is in the
                # table's columns or header, not in the row
                parse = RowParse(cohort=parse.action)
            parses.append(parse)
            sentence_drafts = self._drafts_for(parse, group_counter)
            for d in sentence_drafts:
                d.polarity = parse.polarity
            drafts.extend(sentence_drafts)
        for d in drafts:
            if d.test_of_finding:
                d.or_group = None  # a test done whatever it found is no alternative
        drafts = per_sex_values(text, drafts, group_counter, self.abbreviations.normalize)
        pair_groups_one_at_a_time(drafts, text, group_counter)
        group_events_of_windows(printed, drafts, group_counter)
        drafts += [Draft.of_parameter(p, "cohort") for p in since]
        drafts += self._events_of_windows(drafts, group_counter)
        return _dedupe(without_fragments(drafts)), parses

    def _events_of_windows(self, drafts: list[Draft], group_counter: list[int]) -> list[Draft]:
        """ "within 40 days of an MI", "in the first 48 h after MI": a window counted from a
        disease the patients had names that disease as well (as "5 days after MI" keeps it,
        and the golds name both); a window from an act or a moment ("of skin incision",
        "after completing treatment") names only the time. The disease takes the window's
        negation and OR label ("except within 40 days of an MI": neither holds), so it is
        never one more condition every patient must have."""
        named = {(d.role, d.normalized.lower()) for d in drafts}
        events: list[Draft] = []
        for d in drafts:
            if d.role != "ClinicalParameter" or not d.normalized.lower().startswith("time since"):
                continue
            anchor = next(WINDOW_ANCHOR.finditer(d.text), None)
            event = anchor["event"] if anchor else ""
            if (
                not event
                or unnamed_event("after " + event)
                or self.role_evidence(event, "cohort") != "Condition"
            ):
                continue  # no disease by its words or the terminology: a moment, an act
            found = self._phrase(event, d.slot, group_counter)
            if found and all(
                e.role == "Condition"
                and not e.negated
                and (e.role, e.normalized.lower()) not in named
                for e in found
            ):
                for e in found:
                    e.negated, e.or_group = d.negated, d.or_group or e.or_group
                events.extend(found)
        return events

    def _patient_group_only(self, parse: RowParse) -> bool:
        """A verbless, non-imperative sentence whose every item is a disease or state."""
        if parse.verb or parse.diagnosis or parse.cohort or not parse.action:
            return False
        head, *rest = re.split(r"\s+with\s+", parse.action, maxsplit=1)
        if rest and _DISEASED_VESSEL.fullmatch(head.strip()):
            return True
        return self._names_conditions(head)

    def _split_abbreviation_pairs(self, text: str) -> str:
        """ "ACE-I/ARB" names two drugs: a slash between two known abbreviations is "or",
        unless the pair is itself an abbreviation ("V/Q"); so is a slash between a known
        abbreviation and a plain word ("TIA/stroke"), and between two capitalised ones of which
        one is known ("TEVAR/EVAR"). A state word before the pair holds for both: "raised
        CK/troponin" is either one raised."""

        def pair(match: re.Match[str]) -> str:
            state, left, right = match["state"] or "", match["left"], match["right"]
            lookup = self.abbreviations.lookup
            shorts = [word for word in (left, right) if not word.islower()]
            known = [word for word in shorts if lookup(word) is not None]
            # two capitalised abbreviations ("TEVAR/EVAR"): alternatives when either is known
            # (a guideline's list may lack the other); a letter pair ("E/A") is a ratio
            both_caps = len(shorts) == 2 and all(
                len(word) >= 3 and word.isupper() for word in shorts
            )
            if (
                not shorts
                or lookup(f"{left}/{right}") is not None
                or (len(known) < len(shorts) and not (both_caps and known))
            ):
                return match[0]
            written = f"{state}{left} or {state}{right}"
            self.slash_pairs.add(written)
            return written

        self.slash_pairs = set()
        return _ABBREVIATION_PAIR.sub(pair, text)

    def _drafts_for(self, parse: RowParse, group_counter: list[int]) -> list[Draft]:
        out: list[Draft] = []
        if parse.cohort:
            out.extend(self._cohort(parse.cohort, group_counter))
        if parse.action:
            action = self._action(parse.action, group_counter)
            if not any(d.slot == "action" for d in action):
                # "An HbA1c target of <7% is recommended": the target is what is recommended
                # (the contract, §3), the one thing the action phrase names
                params = [d for d in action if d.role == "ClinicalParameter"]
                for d in params:
                    # "to control BP at <125/75 mmHg": with nothing else named, the value
                    # reached is the recommendation itself
                    if TARGET_WORD.search(d.text) or len(params) == len(action):
                        d.slot = "action"
            if parse.renamed_verb:  # the act's text is the row's own words, its verb as written
                named, written = parse.renamed_verb
                head = named.removesuffix(" of")  # "management" split from what it manages
                for d in action:
                    for first in (named, head):
                        if d.text.lower().startswith(first.lower()):
                            d.text = written + d.text[len(first) :]
                            break
            if parse.ending:  # "X should be discontinued": its discontinuation is recommended
                # "... to discontinue X and start Y": Y is started, not discontinued
                start = _THEN_START.search(parse.action)
                acts = [d for d in action if d.role in ("Medication", "Procedure")]
                for d in action:
                    after = start is not None and parse.action.find(d.text) > start.start()
                    if not acts and (
                        (d.role == "Condition" and parse.ending in _AVOIDING)
                        or (d.role in ("Condition", "Outcome") and parse.ending in _REDUCING)
                    ):
                        # "to avoid hypotension", "to reduce sugar intake": avoiding or
                        # cutting down the thing named is the act recommended
                        d.role, d.slot = "Procedure", "action"
                    if d.slot == "action" and d.role in ("Medication", "Procedure") and not after:
                        d.normalized = f"{parse.ending} of {d.normalized}"
            if parse.diagnosis:  # "X is likely when …": diagnosing X is what is recommended
                for d in action:
                    if d.role in ("Condition", "Procedure"):
                        d.role, d.slot = "Condition", "action"
                        d.normalized = re.sub(r"^diagnosis of ", "", d.normalized)
            if parse.measure:  # "to measure BNP": measuring is what is recommended
                for d in action:
                    if d.slot == "action":
                        d.role = "Procedure"
                        if not d.normalized.endswith(
                            ("measurement", "monitoring", "assessment", "taking")
                        ):
                            d.normalized += " measurement"
            out.extend(action)
        group: tuple[str, list[Draft]] | None = None  # the last "for/in patients …" group
        cases: list[Draft] = []  # what the last phrase naming any case named
        cases_listed = False  # ... in a plain list ("A, B, C"), no "and" or "with" in it
        for kind, phrase in parse.post:
            alternative = kind == "either"  # "…, or if B": another case, read as "if B" is
            beside = kind == ALSO_GROUP  # "after A, and in patients with B": either group
            kind = "context" if alternative else "cohort" if beside else kind
            led = _MEANS_LEAD.match(phrase) if kind == "context" else None
            if led:  # "… should be considered using A or B": the means, right after the verb
                kind, phrase = "means", phrase[led.end() :]
            after_test = any(d.slot == "action" and names_a_test(d.text) for d in out)
            found = self._post_phrase(kind, phrase, group_counter, after_test=after_test)
            if kind == "means" and any(d.slot == "action" for d in found):
                # "Thorough evaluation, using A and B": the vehicle only carries its items
                out = [d for d in out if not (d.slot == "action" and _only_a_vehicle(d))]
            if kind in ("means", "components") and any(d.slot == "action" for d in found):
                # "Screening for DM, using fasting glucose or HbA1c": the tests are done, and
                # DM is what they look for
                out = [x for d in out for x in self._looked_for_instead(d, group_counter)]
            lead = phrase.split()[0].lower() if phrase.split() else ""
            if kind == "cohort" and group is not None and group[0] == lead:
                # "for patients after a stroke and for patients with PAD": the same lead twice names
                # two groups one after the other, either enough (the contract, §6)
                link_repeated_groups(group[1], found, group_counter)
            if kind == "cohort":
                group = (lead, list(found))
            elif (kind == "context" or kind.startswith(VALUE_OF)) and group is not None:
                group[1].extend(found)  # "for patients after a stroke": still the same group
            else:
                group = None
            if alternative:
                link_alternative_case(cases, found, group_counter, listed=cases_listed)
            elif beside and cases:
                link_repeated_groups(cases, found, group_counter, after_acts=True)
            if any(d.slot in ("cohort", "context") for d in found):
                lead = _GROUP_WITH.match(phrase)  # ("in patients with A, B": no joining "with")
                cases, cases_listed = (
                    found,
                    not _JOINED_CASES.search(phrase, lead.end() if lead else 0),
                )
            out.extend(found)
        if not (parse.diagnosis or parse.measure or parse.ending):  # those made their acts
            self._states_beside_acts(out)
        if not any(d.slot == "action" for d in out):
            # "it is advised to control BP at <125/75 mmHg": the value to reach is the
            # recommendation itself (the contract: a target that is what is recommended)
            for d in out:
                if d.role == "ClinicalParameter" and d.slot in ("outcome", "purpose"):
                    d.slot = "action"
        return out

    def _states_beside_acts(self, drafts: list[Draft]) -> None:
        """ "Management of risk factors, including smoking and gout", "to treat A, B and C":
        a piece of the recommended phrase whose own words name a disease or state, beside an
        act or listed with other pieces, is a state the act deals with, a condition, not a
        second act (the slot alone had made it a Procedure). A lone state is left alone."""
        acts = [d for d in drafts if d.slot == "action"]
        states = [
            d
            for d in acts
            if d.role == "Condition" or (d.role == "Procedure" and self._names_a_state(d.text))
        ]
        if len(acts) > 1 or any(
            self.role_evidence(d.text, "action") in ("Procedure", "Medication")
            for d in acts
            if d not in states
        ):
            for d in states:
                d.role, d.slot = "Condition", "context"

    def _names_a_state(self, text: str) -> bool:
        """A bare name of a disease or state: no preposition or verb that would make it an
        act on something ("counselling against pregnancy"), no state one chooses to enter."""
        normalized = self.abbreviations.normalize(text)
        head = normalized.lower().split()[-1] if normalized.split() else ""
        return (
            _BARE_NAME.fullmatch(text) is not None
            and head not in ENTERED_STATES
            and head not in _ACT_ON_HEADS
            and heuristic_role(normalized) == "Condition"
        )

    def _looked_for_instead(self, draft: Draft, group_counter: list[int]) -> list[Draft]:
        """A "screening for X" act whose tests are named: X, looked for (else the draft)."""
        looking = LOOKING_FOR_ACT.match(draft.text) if draft.slot == "action" else None
        if draft.slot == "action" and SCREENING_ALONE.fullmatch(draft.text):
            return []  # the screening already read apart from what it looks for
        return self.looked_for(looking["what"], group_counter) if looking else [draft]


def _only_a_vehicle(draft: Draft) -> bool:
    return bool(ACT_NAMED_BY_PURPOSE.fullmatch(draft.text.strip(" ,")))
