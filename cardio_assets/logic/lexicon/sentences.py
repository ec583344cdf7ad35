"""Sentence shapes: cut a recommendation sentence into cohort, action and trailing phrases.

Guideline rows follow a small set of shapes ("In <cohort>, <action> is recommended to
<outcome>.", "<Patients with X> should receive <Y>", "It is recommended that ..."): the
recommending verb splits the sentence, lead-ins ("in", "after", "in addition to") mark the
cohort, context and background, and markers after the action ("to reduce", "in patients
with", "rather than") mark the trailing phrases. ``clean_row_text`` (noise.py) first
removes what is never a concept (reference markers, doses, durations).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardio_assets.logic.lexicon.act_nouns import act_of_infinitive
from cardio_assets.logic.lexicon.care_verbs import (
    _MOVED,
    _SECOND_AIM,
    _THAT_PASSIVE,
    _TO_ACT_ON,
    _TO_CARE_FOR,
    _TO_TREAT_WITH,
    CARE_PLACE,
    GIVEN_TO_PATIENTS,
    PLACE_SKILLS,
    care_act,
    names_a_person,
    that_patients_do,
)
from cardio_assets.logic.lexicon.condition_clauses import THERE_IS, context_clause
from cardio_assets.logic.lexicon.post_markers import (
    _POST_MARKERS,
    _classify_marker,
    _depth_at,
    _split_post,
    after_to,
    goal_lead,
)
from cardio_assets.logic.lexicon.sentence_leads import (
    _ACT_NOUN_AFTER_LEAD,
    IMPERATIVE_LEAD,
    LISTED_ACT_START,
    RELATIVE_WORD,
    _last_top_level_comma,
    _lead_ends_at_aside,
    _top_level_commas,
    clause_lead_end,
    framed_imperative,
    list_as_subject,
    purpose_after_imperative,
    recipient_as_cohort,
)
from cardio_assets.logic.lexicon.verb_phrases import (
    _CARE_PASSIVE,
    _KEEPING_PASSIVE,
    _VERB_RE,
    _VP_OBJECTS,
    _WITHHOLDING,
    DENIED_NEED_VERB,
    REQUIRED_VERB,
    required_verb,
)
from cardio_assets.logic.lexicon.vocabulary import (
    _OUTCOME_VERBS,
    _PATIENT_WORDS,
    _PURPOSE_VERBS,
    WHILE_OF_TIME,
)

# ---------------------------------------------------------------------------------------
# Sentence shapes
# ---------------------------------------------------------------------------------------
_COHORT_LEAD = re.compile(
    r"^(?:in|among|for|amongst)\s+(?!addition\b)(?!order\b)(?!the\s+absence\b)(?!advance\s+of\b)"
    r"|^in\s+the\s+(?:case|setting|presence|context)\s+of\s+"
    r"|^in\s+case\s+of\s+"
    r"|^in\s+(?:all\s+|any\s+)?cases?\s+of\s+",
    re.IGNORECASE,
)
_CONTEXT_LEAD = re.compile(
    r"^(?:after|following|before|prior\s+to|ahead\s+of|in\s+advance\s+of|during|when|whenever|"
    r"where|if|once|"
    rf"(?:while|whilst)(?={WHILE_OF_TIME}))\s+",  # (a concession is noise_reasons')
    re.IGNORECASE,
)
# those who give care, never a group of patients ("that clinicians adopt X")
_CARE_GIVERS = re.compile(
    # (trainees, surgeons and centres stay: the golds name them as the row's subjects)
    r"^(?:all\s+|the\s+)?(?:[\w\-]+\s+){0,2}(?:clinicians|physicians|doctors|cardiologists|"
    r"nurses|(?:health\s*care\s+)?(?:professionals|providers|staff))$",
    re.IGNORECASE,
)
_COHORT_SUBJECT = re.compile(
    # ("If a patient has X, …" is a clause about them, not its subject)
    rf"^(?:(?!(?:in|for|with|among|of|to|if|when|whenever|where|unless|once)\b)[\w\-]+\s+){{0,3}}?"
    # ("Every woman with X should receive Y", "Smokers should be offered Y": people too, as
    # the subject's head: not "Child-Pugh class", "Carrier screening", "Adult … centres")
    rf"(?:{_PATIENT_WORDS}\b|(?:woman|man|adult|child|athlete|smokers?|recipients?|carriers?|"
    r"relatives?)(?!-)\b(?=\s*$|\s+(?:with|without|who|whose|aged|at|of|on|in|after|undergoing|"
    r"receiving|taking|treated|admitted|scheduled|living)\b))",
    re.IGNORECASE,
)
_ABSENCE_LEAD = re.compile(r"^in\s+the\s+absence\s+of\s+", re.IGNORECASE)
# "Unless contraindicated, X is recommended": an exception written first ends at its comma
_EXCEPTION_LEAD = re.compile(
    r"^(?:unless|except(?:\s+(?:in|when|if|where|for))?|excluding)\s+", re.IGNORECASE
)
# "As an alternative to X, Y is recommended": X is what Y is preferred to or replaces
# "it is recommended that …", "… to (carefully) adopt X": the verb only leads in to what is
# done or given (the contract: lead-in verbs are no part of a span)
_INFINITIVE_LEAD = re.compile(
    r"^(?:that\s+|to\s+(?:[a-z]+ly\s+)?(?:use|perform|give|administer|consider|initiate|"
    r"start|measure|assess|evaluate|monitor|determine|check|quantify|prescribe|obtain|add|"
    r"implant|refer|offer|treat|continue|calculate|resume|restart|reintroduce|maintain|"
    r"adopt|follow|apply|choose|undertake|implement|pursue|provide|conduct|employ|institute|"
    r"practi[cs]e|carry\s+out|engage\s+in|eat|prioriti[sz]e|favou?r|prefer|introduce|adapt|"
    r"individuali[sz]e|tailor|ensure|encourage|target)\s+)",
    re.IGNORECASE,
)
# "Instead of X, Y should be considered": the same, the alternative written first
_ALTERNATIVE_LEAD = re.compile(
    r"^as\s+(?:an?\s+)?(?:suitable\s+)?(?:alternative|replacement|substitute)\s+(?:to|for)\s+"
    r"|^(?:instead\s+of|rather\s+than|in\s+preference\s+to)\s+",
    re.IGNORECASE,
)
# "To reduce the risk of stroke, X is recommended", "In order to assess Y, …": the aim
# written first, up to its comma
_AIM_LEAD = re.compile(
    rf"^(?:in\s+order\s+)?(?P<marker>to\s+(?:help\s+(?:to\s+)?)?(?:{_OUTCOME_VERBS}|{_PURPOSE_VERBS}))\b",
    re.IGNORECASE,
)
_COTHERAPY_LEAD = re.compile(
    r"^(?:in\s+addition\s+to|on\s+top\s+of|as\s+an?\s+adjunct\s+to)\s+", re.IGNORECASE
)


@dataclass
class RowParse:
    """Intermediate parse, kept as the lexicon's raw_output for audit."""

    cohort: str = ""
    action: str = ""
    post: list[tuple[str, str]] = field(default_factory=list)  # (marker kind, text)
    polarity: str = "recommended"
    verb: str | None = None
    measure: bool = False  # "it is recommended to measure X": the action is X's measurement
    ending: str | None = None  # "X should be discontinued": the action is X's discontinuation
    diagnosis: bool = False  # "X is likely when Y": the action is X's diagnosis
    # "to revascularize X" read as "revascularization of X": (named, written) first words
    renamed_verb: tuple[str, str] | None = None


def _top_level_search(pattern: str, text: str) -> re.Match[str] | None:
    for match in re.finditer(pattern, text, flags=re.IGNORECASE):
        if _depth_at(text, match.start()) == 0:
            return match
    return None


def _subject_after_lead(pre: str) -> tuple[tuple[str, str], str] | None:
    """ "After MI, patients with X", "To prevent stroke, patients with X": how the lead
    clause is read (a condition, or what the act is for) and the people named as the subject
    after its comma; None when the text has no such lead and subject."""
    led, aim = _CONTEXT_LEAD.match(pre), _AIM_LEAD.match(pre)
    # ("Unless contraindicated, every patient with X should receive Y": the exception first)
    exception = _EXCEPTION_LEAD.match(pre)
    cut = _last_top_level_comma(pre) if led or aim or exception else None
    if cut is None:
        return None
    subject = pre[cut + 1 :].strip()
    if not _COHORT_SUBJECT.match(subject):
        return None
    if aim is not None:
        return _classify_marker(aim["marker"], pre[aim.end() : cut].strip()), subject
    if exception is not None:
        return ("negated", THERE_IS.sub("", pre[exception.end() : cut])), subject
    if led is None:
        return None
    return context_clause(pre[led.end() : cut]), subject


def parse_sentence(sentence: str) -> RowParse:
    """Cut a sentence into cohort, action and trailing phrases around its verb. A verb that
    ends a therapy ("X should be discontinued", "it is recommended to stop X") keeps its act
    in the action ("discontinuation of X"): recommending X instead would invert the row."""
    widened = _ALSO_INCLUDES.match(sentence.strip())
    if widened:  # "This includes patients with diabetes.": one more group the row is for
        return RowParse(cohort=widened["who"].strip(" ."))
    # "the following are recommended: A; B": the list is the sentence's subject, read so
    # when the sentence keeps its verb; otherwise it is read as written
    listed = list_as_subject(sentence)
    moved = _parse_sentence(listed[0]) if listed else None
    if listed and moved and moved.verb and listed[1].lower().startswith(moved.verb.lower()):
        parse = moved
    else:
        parse = _parse_sentence(sentence)
    given_to = GIVEN_TO_PATIENTS.search(parse.action)
    if given_to:  # "Administration of X to patients in whom Y": those patients are the cohort
        parse.action = parse.action[: given_to.start()]
        parse.post.insert(0, ("cohort", "in " + given_to["who"]))
    ended = _ENDING_PASSIVE.search(parse.verb or "")
    # an imperative "Avoid X" already says "X is not recommended": never both
    if ended and parse.action and parse.polarity == "recommended":
        parse.ending = _ENDING_NOUNS[ended.group(1).lower()]
    return parse


# a sentence after the recommendation that widens whom it is for
_ALSO_INCLUDES = re.compile(
    r"^(?:this|these|it|the\s+recommendation)\s+(?:also\s+)?(?:includes?|applies|apply)\s+"
    r"(?:also\s+)?(?:to\s+)?(?P<who>.+)$",
    re.IGNORECASE,
)


# verbs that end, hold or put off a therapy: (past participle, the act they name)
_ENDING_ACTS = {
    "discontinue": ("discontinued", "discontinuation"),
    "stop": ("stopped", "discontinuation"),
    "withhold": ("withheld", "withholding"),
    "withdraw": ("withdrawn", "withdrawal"),
    "interrupt": ("interrupted", "interruption"),
    "avoid": ("avoided", "avoidance"),
    "postpone": ("postponed", "postponement"),
    "defer": ("deferred", "deferral"),
    "delay": ("delayed", "delay"),
}
_ENDING_NOUNS = {form: act for verb, (done, act) in _ENDING_ACTS.items() for form in (verb, done)}
_ENDING_PASSIVE = re.compile(rf"\b({'|'.join(_ENDING_NOUNS)})$", re.I)  # "be avoided", "avoid"
_ENDING_TO = re.compile(rf"^to\s+({'|'.join(_ENDING_ACTS)})\s+", re.I)
# "It is recommended to reduce sugar intake": right after the framing, cutting something
# down is the act recommended ("reduction of salt intake"), not a goal; "to reduce the risk
# of X" stays a goal
REDUCING_ACTS = {
    "reduce": "reduction",
    "decrease": "reduction",
    "lower": "lowering",
    "limit": "limitation",
    "restrict": "restriction",
    # "It is recommended to shorten DAPT to 1 month": right after the framing, speeding or
    # shortening something is the act (elsewhere, "to hasten recovery", an aim)
    "shorten": "shortening",
    "accelerate": "acceleration",
    "hasten": "hastening",
    "speed up": "speeding up",
}
_REDUCING_TO = re.compile(
    rf"^to\s+({'|'.join(REDUCING_ACTS)})\s+(?!(?:the\s+)?(?:risk|incidence|rate)\b)", re.I
)


# Diagnostic criteria: "X is diagnosed / confirmed / (highly) likely when Y", "X should be
# considered likely if Y": what is recommended is diagnosing X; Y says when
_DIAGNOSED = re.compile(
    r"^(?P<what>.+?)\s+(?P<verb>(?:is|are)\s+(?:(?:highly|very|most)\s+)?(?:diagnosed|confirmed|"
    r"established|likely|probable))\b(?P<rest>.*)$",
    re.IGNORECASE,
)


def _lead_clause_skipped(sentence: str, verb: re.Match[str] | None) -> re.Match[str] | None:
    """The recommending verb, not one inside an opening "If/When ..." clause ("If PCI is
    indicated before surgery, X is recommended"): when the first verb sits before the
    clause's comma and another follows it, the later one recommends."""
    if verb is None:
        return verb
    commas = _top_level_commas(sentence)
    if not _CONTEXT_LEAD.match(sentence):
        # "In patients with X, when Y is indicated and Z, A is recommended": the clause may
        # open after the cohort's comma too
        before = [c for c in commas if c < verb.start()]
        start = before[-1] + 1 if before else 0
        opens = before and re.match(r"\s*(?:when|if|where|whenever|once)\b", sentence[start:], re.I)
        # ("In patients in whom X is not appropriate, Y …": a relative clause's verb too)
        if not opens and not RELATIVE_WORD.search(sentence, start, verb.start()):
            return verb
        commas = [c for c in commas if c >= start]
    if not commas or commas[0] < verb.start():
        return verb
    later = next((c for c in commas if c >= verb.end()), None)
    found = _VERB_RE.search(sentence, later) if later is not None else None
    return found or verb


# a subordinator that opens a clause of its own after the act: a verb inside it says how
# things stand ("… only when A is contraindicated"), not what the row recommends
_SUBORDINATOR = re.compile(r"\b(?:when|whenever|if|unless|where|in\s+whom|in\s+which)\b", re.I)


def _clause_verb_skipped(sentence: str, verb: re.Match[str] | None) -> re.Match[str] | None:
    """The recommending verb, not one inside a trailing "when / if / unless …" clause: a
    bullet row under its stem ("A, only when B is not available or is contraindicated") has
    no verb of its own, and one found in its clause would make B the act."""
    if verb is None or _CONTEXT_LEAD.match(sentence):
        return verb
    before = [c for c in _top_level_commas(sentence) if c < verb.start()]
    stretch = sentence[before[-1] + 1 if before else 0 : verb.start()]
    if not before or not _SUBORDINATOR.search(stretch):
        return verb
    return _VERB_RE.search(sentence, verb.end())


# "referred to <a place or team of care>": the referral is the act, named with where to
_REFERRED_TO_PLACE = re.compile(r"\breferred$", re.IGNORECASE)
_REFERRAL_PLACE = re.compile(
    r"to\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,4}?(?:centres?|centers?|hospitals?|units?|"
    r"clinics?|teams?|specialists?|cardiologists?|services?|facilit(?:y|ies)|experts?)\b",
    re.IGNORECASE,
)


# the relative word right before a verb ("patients who can be transferred …"): the verb is
# said of the patients, inside their description
# (not an aside between commas, ", which is X,": read as it was before)
_RELATIVE_BEFORE = re.compile(
    r"(?<![,;]\s)(?<![,;])\b(?:who|that|which)\s+(?:[a-z]+ly\s+)?$", re.IGNORECASE
)


def _relative_verb_skipped(sentence: str, verb: re.Match[str] | None) -> re.Match[str] | None:
    """The recommending verb, not one inside a relative clause ("Patients with STEMI who can
    be transferred within 120 min should undergo primary PCI"): when a later verb follows,
    that one recommends."""
    if verb is None or not _RELATIVE_BEFORE.search(sentence[: verb.start()]):
        return verb
    return _VERB_RE.search(sentence, verb.end()) or verb


def _parse_sentence(sentence: str) -> RowParse:
    sentence = sentence.strip().rstrip(".")
    parse = RowParse()
    verb = _clause_verb_skipped(sentence, _lead_clause_skipped(sentence, _VERB_RE.search(sentence)))
    verb = _relative_verb_skipped(sentence, verb)
    if verb is None:  # "X requires Y": only where no other verb recommends
        verb = required_verb(sentence)
    diagnosed = _DIAGNOSED.match(sentence) if verb is None else None
    if verb is not None and re.match(
        r"(?:highly\s+)?(?:likely|probable)\b", sentence[verb.end() :].strip()
    ):
        diagnosed = _DIAGNOSED.match(
            f"{sentence[: verb.start()]} is {sentence[verb.end() :].strip()}"
        )
    if diagnosed and not _CONTEXT_LEAD.match(sentence):
        parse.verb, parse.diagnosis = diagnosed["verb"], True
        head, parse.post = _split_post(diagnosed["rest"])
        if head:  # "… in the presence of Y": the criteria, whatever leads them in
            parse.post.insert(0, ("context", re.sub(r"^in\s+the\s+presence\s+of\s+", "", head)))
        what = diagnosed["what"]
        cut = _last_top_level_comma(what)
        lead = _ABSENCE_LEAD.match(what) or _COHORT_LEAD.match(what)
        if lead and cut is not None:  # "In the absence of X, Y is likely when …"
            kind = "negated" if _ABSENCE_LEAD.match(what) else "context"
            parse.post.insert(0, (kind, what[lead.end() : cut]))
            what = what[cut + 1 :]
        parse.action = what.strip(" ,;")
        return parse
    if verb is None and (moved := purpose_after_imperative(sentence)) is not None:
        return _parse_sentence(moved)  # "To cut X, give Y in …": "Give Y in …, to cut X"
    if verb is None and (framed := framed_imperative(sentence)) is not None:
        return _parse_sentence(framed)  # "Implant a pacemaker in …": "It is recommended to …"
    if verb is None:
        # Imperative rows ("Consider aspirin in ...", "Avoid NSAIDs in ...").
        imperative = IMPERATIVE_LEAD.match(sentence)
        if imperative:
            parse.verb = imperative.group(0).strip()
            if imperative.group("neg"):
                parse.polarity = "not recommended"
            sentence = recipient_as_cohort(parse.verb, sentence[imperative.end() :])
        pre, post = sentence, ""
    else:
        parse.verb = verb.group(0)
        if any(k.startswith("n") and v for k, v in verb.groupdict().items()):
            parse.polarity = "not recommended"
        pre, post = sentence[: verb.start()], sentence[verb.end() :]
    pre = pre.strip(" ,;")
    post = post.strip(" ,;")
    # "Left main disease with a high SYNTAX score: PCI is not recommended", "Patients with
    # HFrEF and LBBB: CRT is recommended": who it is for, a colon, then what is recommended
    colon = _top_level_search(r":\s+", pre)
    if colon is not None and len(pre[: colon.start()].split()) >= 2 and pre[colon.end() :].strip():
        parse.cohort = pre[: colon.start()].strip(" ,;")
        pre = pre[colon.end() :].strip(" ,;")
        action, trailing = _split_post(pre)
        parse.action = action
        parse.post.extend(trailing)
        if post:
            extra, trailing = _split_post(post)
            if extra and not parse.action:
                parse.action = extra
            elif extra:
                parse.post.append(("context", extra))
            parse.post.extend(trailing)
        return parse

    # "In patients with X, it is recommended to ...": the "it" of the framing is no concept
    it_form = re.fullmatch(r"it", pre, flags=re.IGNORECASE) is not None
    trailing_it = re.search(r"[\s,]+it$", pre, flags=re.IGNORECASE)
    if trailing_it and not it_form:
        pre, it_form = pre[: trailing_it.start()].strip(" ,;"), True
    measure = re.match(
        r"^to\s+(?:measure|assess|evaluate|monitor|determine|check|quantify)\s+", post, re.I
    )
    if it_form and measure:
        parse.measure = True
    # "It is recommended that <cohort> undergo/receive <action>".
    that_clause = that_patients_do(post)
    if it_form and (not pre or re.fullmatch(r"it", pre, flags=re.IGNORECASE)) and that_clause:
        parse.cohort, verb_match = that_clause
        if _CARE_GIVERS.match(parse.cohort.strip()):
            parse.cohort = ""  # "that clinicians adopt X": who gives the care, no patients
        if verb_match.group("ending"):  # "… that patients with X avoid Y": avoidance of Y
            parse.ending = _ENDING_NOUNS[verb_match.group("ending").lower()]
        action_text = verb_match.group("action")
        if verb_match.group("reducing"):  # "… that people with X aim to reduce weight"
            noun = REDUCING_ACTS[verb_match.group("reducing").lower()]
            # ("… and increase exercise": a second aim, named by its object, no reduction)
            second = _SECOND_AIM.search(action_text)
            action_text = (
                f"{noun} of {action_text[: second.start()]} and {action_text[second.end() :]}"
                if second
                else f"{noun} of {action_text}"
            )
        action, trailing = _split_post(action_text)
        parse.action = action
        parse.post = trailing
        return parse
    # "It is recommended that patients with X are screened for Y / enrolled in Y" and "It is
    # recommended to screen patients with X for Y": the act done to the patients is the action
    done_to = (
        _THAT_PASSIVE.match(post)
        or _TO_ACT_ON.match(post)
        or _TO_TREAT_WITH.match(post)
        or _TO_CARE_FOR.match(post)
    )
    if it_form and (not pre or re.fullmatch(r"it", pre, flags=re.IGNORECASE)) and done_to:
        parse.cohort = done_to.group("cohort")
        verb = re.sub(r"\s+", " ", done_to.group("verb").lower())
        object_ = done_to.group("rest")
        act = care_act(verb)
        if done_to.re is _THAT_PASSIVE and act and not names_a_person(parse.cohort):
            # "that frailty be assessed (with a tool) in adults": what the verb acts on is
            # no cohort; it and the verb's act are the action
            parse.cohort = None
            # (what follows the verb as written: "in patients with X" keeps its "in")
            action, trailing = _split_post(post[done_to.end("verb") :])
            parse.action = f"{done_to.group('cohort')} {act}"
            means = re.sub(r"^(?:with|using|by(?:\s+means\s+of)?)\s+", "", action, flags=re.I)
            parse.post = [("means" if means != action else "context", means)] if means else []
            parse.post += trailing
            return parse
        if verb in _MOVED:  # "discharged from / observed in / transferred to X": where to
            object_ = post[done_to.end("verb") :].strip()
        # (given "with" a therapy, the therapy is the act)
        act = None if done_to.re is _TO_TREAT_WITH else care_act(verb)
        place = CARE_PLACE.match(object_) if act else None
        if place:  # "to treat X patients in specialized centres": the care and where, one act
            action, trailing = _split_post(object_[place.end() :])
            action = f"{act} {place.group(0).strip()} {action}".strip()
        else:
            action, trailing = _split_post(f"{act} {object_}" if act else object_)
        parse.action = action
        parse.post = trailing
        return parse
    # "It is recommended to/that ..." puts the action after the verb.
    if it_form:
        pre = "" if re.fullmatch(r"it", pre, flags=re.IGNORECASE) else pre
        ending = _ENDING_TO.match(post)
        reducing = _REDUCING_TO.match(post)
        if ending:  # "it is recommended to discontinue X": the discontinuation of X
            parse.ending = _ENDING_NOUNS[ending.group(1).lower()]
            post = post[ending.end() :]
        elif reducing:  # "it is recommended to reduce X": the reduction of X
            parse.ending = REDUCING_ACTS[reducing.group(1).lower()]
            post = post[reducing.end() :]
        # "it is recommended to screen for X": the screening for X (the patients, if named,
        # follow)
        post = re.sub(r"^to\s+screen\s+for\s+", "screening for ", post, flags=re.IGNORECASE)
        post = _INFINITIVE_LEAD.sub("", post)
        # "it is recommended to revascularize X": a verb the leads above do not know names
        # its act ("revascularization of X"), never "to revascularize X"
        infinitive = act_of_infinitive(post)
        if infinitive:
            post, parse.renamed_verb = infinitive
        # "that X is started (and reinforced)": the verbs, with a second one joined to the first
        post = re.sub(
            # (never a negation: "if PCI is not available" keeps its "is not")
            r"\s+(?:be|is|are|should\s+be)\s+(?!not\b|never\b)(?:re-)?\w+(?:ed)?\b(?:\s+(?:and|or|and/or)\s+\w+ed\b)?",
            "",
            post,
            count=1,
        )
        if pre:  # everything before ", it is recommended" is who (or when) it is for
            context = _CONTEXT_LEAD.match(pre)
            aim = _AIM_LEAD.match(pre)
            if aim:  # "In order to reduce X, it is recommended …": what it is for
                parse.post.append(_classify_marker(aim["marker"], pre[aim.end() :].strip()))
            elif context and not _COHORT_LEAD.match(pre):
                parse.post.append(context_clause(pre[context.end() :]))
            else:
                parse.cohort = pre
            action, trailing = _split_post(post)
            parse.action = action
            parse.post.extend(trailing)
            return parse

    active = verb is not None and re.search(
        r"\b(?:receive|undergo|have|use|take|avoid|stop|discontinue|do|undertake|practi[sc]e|in|"
        r"for|attend|complete|adopt|maintain)$",
        verb.group(0),
        re.I,
    )
    considered_for = verb is not None and re.match(r"(?:for|with|on|to)\s+", post, re.IGNORECASE)
    # The subject is the cohort when the sentence starts with the patients themselves
    # ("Patients with X should receive / be offered / be treated with Y").
    cohort_subject = _COHORT_SUBJECT.match(pre) is not None
    # "After MI, patients with X should receive Y": a lead of time or condition, then them
    led_subject = None if cohort_subject else _subject_after_lead(pre)
    cohort_subject = cohort_subject or led_subject is not None
    passive_with_object = (
        verb is not None
        # ("should not be withheld X": advice against a withholding recommends X)
        and (parse.polarity == "recommended" or not _WITHHOLDING.search(verb.group(0)))
        and bool(post)
        and not _POST_MARKERS.match(post)
        and re.search(rf"\bbe\s+(?:{_VP_OBJECTS})$", verb.group(0), re.IGNORECASE) is not None
    )
    # "Patients with AF should be anticoagulated (before cardioversion)": a care verb with no
    # object names the act (what follows is when, why, or for whom)
    cared_for = (
        verb is not None
        and (not post or _POST_MARKERS.match(post) is not None)
        and (_CARE_PASSIVE.search(verb.group(0)) or _KEEPING_PASSIVE.search(verb.group(0)))
        is not None
    )
    # "Acute type A dissection requires emergency repair": the subject is the state the act
    # is for, whether or not it names patients
    required = verb is not None and verb.re in (REQUIRED_VERB, DENIED_NEED_VERB)
    if (
        (active or considered_for or passive_with_object or cared_for) and cohort_subject
    ) or required:
        # "Patients with X should receive Y" / "... should be considered for Y".
        parse.cohort = pre
        if led_subject is not None:
            lead, parse.cohort = led_subject
            parse.post.append(lead)
        care = _CARE_PASSIVE.search(verb.group(0)) if verb is not None else None
        if cared_for and care is None:  # "should be cared for in a centre": care there
            care = _KEEPING_PASSIVE.search(verb.group(0))
        act = care_act(care["care"]) if care else None
        moved_for = act in _MOVED.values() and re.match(r"for\s+", post, re.IGNORECASE)
        if moved_for:  # "to be transferred for coronary angiography": the act sent for
            post = post[moved_for.end() :]
        elif act:  # "should be counselled against Y": the counselling against Y
            post = f"{act} {post}".strip()
        elif _REFERRED_TO_PLACE.search(verb.group(0)) and _REFERRAL_PLACE.match(post):
            # "should be referred to a heart valve centre": the referral there is the act
            # ("referred for rehabilitation" names the act itself)
            post = f"referral {post}"
        elif care:  # "should be enrolled in Y": the programme
            post = re.sub(r"^in(?:to)?\s+", "", post, flags=re.IGNORECASE)
        else:
            post = re.sub(r"^(?:for|with|on|to)\s+", "", post, flags=re.IGNORECASE)
        rest = post[len(act) :].strip() if act and post.startswith(act) else ""
        place = CARE_PLACE.match(rest)
        if place:  # "should be managed in expert centres": the care and where, one act
            # ("in centres with expertise in X": what the place has only says which place,
            # a setting, no criterion of the patients)
            skilled = PLACE_SKILLS.match(rest, place.end())
            # (words left before the next marker are no act: "…, especially those with X")
            _, trailing = _split_post(rest[skilled.end() if skilled else place.end() :])
            action = f"{act} {place.group(0).strip()}"
        else:
            action, trailing = _split_post(post)
        parse.action = action
        parse.post += trailing
        return parse

    cotherapy = _COTHERAPY_LEAD.match(pre)
    context = _CONTEXT_LEAD.match(pre)
    exception = _EXCEPTION_LEAD.match(pre)
    alternative = _ALTERNATIVE_LEAD.match(pre)
    aim = _AIM_LEAD.match(pre)
    if (
        _COHORT_LEAD.match(pre)
        or _ABSENCE_LEAD.match(pre)
        or cotherapy
        or context
        or exception
        or alternative
        or aim
    ):
        cut = _last_top_level_comma(pre)
        if context and not _COHORT_LEAD.match(pre):
            lead_end = clause_lead_end(pre)
            cut = lead_end if lead_end is not None else cut
        if cut is not None and re.match(r"\s*(?:and|or|and/or)\s", pre[cut + 1 :], re.I):
            # the comma is the subject list's own: the list starts at the last act noun (an
            # aim may name "use of X" itself)
            listed = list(LISTED_ACT_START.finditer(pre))
            cut = listed[-1].start() if listed else cut
        aside_end = _lead_ends_at_aside(pre) if cut is None else None
        if cut is None and aside_end is None:
            act_noun = _ACT_NOUN_AFTER_LEAD.search(pre)
            aside_end = act_noun.start() if act_noun else None
        if cut is not None:
            lead_phrase, action_part = pre[:cut], pre[cut + 1 :]
        elif aside_end is not None:
            lead_phrase, action_part = pre[:aside_end], pre[aside_end:]
        else:
            lead_phrase, action_part = pre, ""
        if aim:
            parse.post.append(_classify_marker(aim["marker"], lead_phrase[aim.end() :].strip()))
        elif alternative:
            parse.post.append(("alternative", lead_phrase[alternative.end() :]))
        elif cotherapy:
            parse.post.append(("co-therapy", lead_phrase[cotherapy.end() :]))
        elif exception:
            parse.post.append(("negated", THERE_IS.sub("", lead_phrase[exception.end() :])))
        elif context and not _COHORT_LEAD.match(pre):
            parse.post.append(context_clause(lead_phrase[context.end() :]))
        elif (led_by_goal := goal_lead(lead_phrase)) is not None:
            goal, parse.cohort = led_by_goal
            parse.post.append(("outcome", goal))
        else:
            parse.cohort = lead_phrase
            inner_cut = _last_top_level_comma(lead_phrase)
            clause = (
                re.match(
                    r"(?:when|if|once|whenever|where)\s+",
                    lead_phrase[inner_cut + 1 :].strip(),
                    re.I,
                )
                if inner_cut is not None
                else None
            )
            if clause:  # "In patients with X, when Y is indicated, …": the cohort, then when
                parse.cohort = lead_phrase[:inner_cut]
                parse.post.append(
                    context_clause(lead_phrase[inner_cut + 1 :].strip()[clause.end() :])
                )
        if not action_part and not post:
            return parse
        if not action_part:
            action_part, trailing = _split_post(post)
            parse.action = action_part
            parse.post.extend(trailing)
            return parse
        pre = action_part.strip()
        # A second lead-in ("In patients with X, in addition to Y, Z is recommended").
        if (_COTHERAPY_LEAD.match(pre) or _COHORT_LEAD.match(pre)) and parse.verb:
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
        components = _WITH_COMPONENTS.match(post)
        if components and parse.action:
            # "X is recommended, with A, B and C": what the recommended X is made of; "with
            # Y added if Z": what comes with it and the clause that says when
            made_of, trailing = post[components.end() :], []
            given = _GIVEN_WHEN.search(made_of)
            if given:
                made_of, trailing = made_of[: given.start()], _split_post(given["when"])[1]
            else:
                # "with a validated tool in older patients": the patients named after the
                # parts are the row's cohort, not a part
                made_of, trailing = _split_post(made_of)
            parse.post.append(("components", made_of))
            parse.post.extend(trailing)
            return parse
        extra_action, trailing = _split_post(post)
        if extra_action and not parse.action:
            parse.action = extra_action
        elif extra_action:
            parse.post.append(after_to(extra_action) or ("context", extra_action))
        parse.post.extend(trailing)
    return parse


# "with a PDE5 inhibitor added if …": the participle says it is given, the clause when
_GIVEN_WHEN = re.compile(
    r"\s+(?:added|given|started|used|continued|introduced)\s+(?P<when>(?:if|when|unless)\s.+)$",
    re.I,
)

# (", with the exception of X" is an exception, read by the post markers)
_WITH_COMPONENTS = re.compile(
    r"^,?\s*(?:with(?!\s+the\s+(?:possible\s+)?exception\b)|including|consisting\s+of|"
    r"comprising)\s+",
    re.I,
)
