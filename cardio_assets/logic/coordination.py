"""Words coordinated inside one item of a list: runs of modifiers before one noun ("severe,
unpredictable, recurrent syncope", "a structured, supervised programme") and heads or
modifiers shared across a slash ("low-/iso-osmolar contrast", "RV dysfunction/dilatation").

The AND/OR splitter (logic_split.py) asks these rules whether a comma joins two items or
one, and expands a slashed item into its alternatives before it resolves the connectors.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Single words that modify the head that follows, so "moderate or severe aortic stenosis"
# stays one concept instead of becoming "moderate" + "severe aortic stenosis".
SHARED_MODIFIERS = frozenset(
    """
    mild moderate severe very high low intermediate acute chronic subacute stable unstable
    symptomatic asymptomatic persistent paroxysmal permanent primary secondary early late
    recent previous prior known suspected confirmed definite probable significant
    ischaemic ischemic valvular familial hereditary congenital acquired left right
    systolic diastolic total partial complete incomplete first second third recurrent
    moderately severely mildly frail elderly older young high-degree advanced first-degree
    second-degree third-degree frequent infrequent complex
    """.split()
)

# Words for a disease's course or presentation, which guideline text strings before the
# noun with commas ("symptomatic, recurrent AVNRT"): such a run names one disease.
COURSE_WORDS = frozenset(
    """
    symptomatic asymptomatic recurrent sustained non-sustained monomorphic polymorphic
    unpredictable frequent infrequent severe mild moderate paroxysmal persistent permanent
    chronic acute stable unstable refractory documented spontaneous
    """.split()
)

# Words for how a programme, a score or a follow-up is carried out, which guideline text also
# strings before the noun with commas ("a structured, supervised, home-based programme"):
# alone such a word names nothing, so the run qualifies the one thing that follows it.
MANNER_WORDS = frozenset(
    """
    structured comprehensive supervised formal multidisciplinary multifactorial multicomponent
    individualized individualised personalized personalised tailored validated standardized
    standardised systematic dedicated organized organised coordinated integrated regular
    """.split()
)

# the patient's refusal of a therapy, said as an act ("who decline an ICD", "who have refused
# surgery", "refuse to take X"); not the noun ("a decline in renal function")
REFUSAL_VERB = (
    r"(?:(?:have|has)\s+)?(?:declines?|declined|refuses?|refused)\s+"
    r"(?:to\s+(?:take|undergo|receive|have|start)\s+)?(?!(?:in|of|on|at|from|by|to)\b)"
)

# words that open a clause or a phrase of its own: an ellipsis never borrows across them
CLAUSE_WORDS = frozenset("with without who whom which that in of for to by when if".split())

# Grades of one scale: "moderate or severe mitral stenosis" is a severity range, one concept
# (the annotation contract, section 6), not two conditions.
GRADES = frozenset(
    "mild mildly moderate moderately severe severely low intermediate high great very complete "
    "vigorous "
    "incomplete high-degree advanced first-degree second-degree third-degree".split()
)
# Endings of relational adjectives ("aortic", "mitral", "pulmonary", "surgical"): two of
# them coordinated before one noun share it ("aortic or mitral regurgitation").
ADJECTIVE_ENDING = re.compile(r"(?:ic|ac|al|ar|ary|ory|ous|ive|oid|ant)$", re.IGNORECASE)
# nouns that end like those adjectives: "an accurate history and clinical examination" is a
# history and an examination, not a "history examination"
NOUNS_SHAPED_LIKE_ADJECTIVES = frozenset(
    "history memory category territory laboratory summary diary boundary inventory "
    "survival referral removal withdrawal trial interval signal arrival approval renewal "
    "disposal rehabilitation".split()
)


# anatomical adjectives without such an ending ("tricuspid or pulmonary valve disease"), and
# the approaches of an operation ("open or endovascular repair", "transcatheter or surgical
# valve replacement")
ADJECTIVES_OF_OTHER_SHAPES = frozenset(
    "tricuspid bicuspid carotid open transcatheter hybrid".split()
)


def adjective_shaped(word: str) -> bool:
    """A word with a relational adjective's ending that is not a noun of that shape."""
    if word.lower() in ADJECTIVES_OF_OTHER_SHAPES:
        return True
    return bool(ADJECTIVE_ENDING.search(word)) and word.lower() not in NOUNS_SHAPED_LIKE_ADJECTIVES


# "low- or iso-osmolar contrast media" (rewritten "low-/iso-osmolar …" by the noise rules),
# "severe/complex plaques": two modifiers share the head after them. The contract (section 6)
# distributes a shared head: two concepts, one OR label.
_SHARED_HEAD = re.compile(
    r"^(?P<before>.*?)(?P<first>\b(?:very\s+)?[a-z]+(?:-[a-z]+)?)(?P<hyphen>-?)/"
    r"(?P<second>(?:very\s+)?[a-z]+)(?P<suffix>-[a-z]+)?(?P<head>\s+\S.*)?$"
)


def _course_word(word: str) -> bool:
    """A word of COURSE_WORDS, a grade of risk ("high-risk") or a negated one ("non-urgent")."""
    word = word.lower()
    first = word.split("-")[0]
    return (
        word in COURSE_WORDS
        or (first in GRADES and word.endswith("-risk"))
        or (first == "non" and len(word) > 5)
        or _adverb(word)  # "haemodynamically stable"
    )


def _adverb(word: str) -> bool:
    """An adverb before the word it qualifies ("haemodynamically", "medically")."""
    return word.endswith("ly") and len(word) > 6


def coordinate_adjective(previous: str, item: str, following: str | None) -> bool:
    """True when ``previous`` is a run of lone modifiers ("severe, unpredictable") that the
    comma joins to the noun phrase ``item`` ("recurrent syncope"), not one item of a list:
    the phrase has a head of its own and no explicit "and"/"or" follows it right away (in
    "stable, asymptomatic, and treated patients" each word is an item)."""
    words = previous.replace(",", " ").split()
    item_words = item.split()
    run_goes_on = len(item_words) == 1 and following == ","  # "severe, unpredictable, …"
    # the run's words after any lead-in ("participation in a medically supervised, …")
    openers = [i for i, w in enumerate(words) if w.lower() in CLAUSE_WORDS | {"a", "an", "the"}]
    manner = words[openers[-1] + 1 :] if openers else words
    if (
        all(_manner_word(w) for w in manner)
        # not an adverb alone ("elderly")
        and any(w.lower() in MANNER_WORDS or _MANNER_COMPOUND.match(w) for w in manner)
        and item_words
    ):
        # "a formal, structured, bleeding risk score": the run ends at the first phrase
        # with a head of its own, whatever its first word, and a list may follow it
        if len(item_words) == 1:
            return following == "," and _manner_word(item_words[0])
        return item_words[0].lower() not in CLAUSE_WORDS
    return (
        bool(words)
        and (len(item_words) >= 2 or run_goes_on)
        # an "and"/"or" after a phrase with a head of its own joins the next item to the
        # whole run ("frequent, unpredictable syncope and a documented pause")
        and (
            following in (None, ",", "or*")
            or (following in ("and", "or") and _has_head(item_words))
        )
        and all(_course_word(w) for w in words)
        and _course_word(item_words[0])
        and not any(w.lower() in CLAUSE_WORDS for w in item_words[:2])
    )


def _has_head(words: list[str]) -> bool:
    """A phrase of two or more words ending on a noun ("reflex syncope"), not on a word of
    state ("haemodynamically stable", "medically treated"): a list of states goes on."""
    last = words[-1].lower()
    return (
        len(words) >= 2
        and not _course_word(last)
        and not adjective_shaped(last)
        and (not last.endswith("ed") or last in {"bleed", "need", "speed"})
        and last not in SHARED_MODIFIERS | {"stable", "unstable", "free", "well"}
    )


# how an act is run, in one hyphenated word ("exercise-based", "nurse-led")
_MANNER_COMPOUND = re.compile(
    r"^[a-z]+-(?:based|guided|led|centred|centered|supervised|directed|tailored)$", re.I
)


def _manner_word(word: str) -> bool:
    """A word of MANNER_WORDS, a hyphenated one of the kind ("exercise-based") or an adverb
    before one ("medically supervised")."""
    word = word.lower()
    return word in MANNER_WORDS or bool(_MANNER_COMPOUND.match(word)) or _adverb(word)


def _modifier_like(word: str) -> bool:
    word = word.lower().split()[-1]
    return (
        word in SHARED_MODIFIERS
        or word in GRADES
        or adjective_shaped(word)
        or word.endswith("ed")
        or word in {"complex", "simple", "multiple", "single", "double", "triple"}
    )


# three or more prefixes cut at their hyphen before one word ("single-/double-/triple-vessel
# disease", as the noise rules write "single-, double- or triple-vessel disease")
_PREFIX_CHAIN = re.compile(
    r"^(?P<lead>(?:.*\s)?)(?P<prefixes>(?:[A-Za-z0-9]+-/){2,})[A-Za-z0-9]+-(?P<rest>\S.*)$"
)


def expand_shared_heads(
    items: list[str],
    connectors: list[str],
    keep_together: Callable[[str], bool] | None = None,
) -> tuple[list[str], list[str], dict[str, str]]:
    """Items "A-/B-x head" or "A/B head" become "A" and "B(-x) head" bound by a local OR
    ("or*"); the returned map gives the first one's full name ("A-x head"). Two words joined
    by a slash otherwise ("RV dysfunction/dilatation", "osteopenia/osteoporosis") are two
    alternatives sharing the words around them (the contract: "/" coordinates)."""
    out_items: list[str] = []
    out_conns: list[str] = []
    full_names: dict[str, str] = {}
    for index, item in enumerate(items):
        if index:
            out_conns.append(connectors[index - 1])
        chain = _PREFIX_CHAIN.match(item)
        if chain:  # "first-/second-/third-degree relatives": each prefix borrows the rest
            *before_pair, pair_first, _ = chain["prefixes"].split("/")
            for number, prefix in enumerate(before_pair):
                lead = chain["lead"] if number == 0 else ""  # ("in first-/…": words before)
                full_names[lead + prefix] = f"{lead}{prefix}{chain['rest']}"
                out_items.append(lead + prefix)
                out_conns.append("or*")
            # (the last two are the pair the shared-head rule below reads)
            item = item[chain.start("prefixes") + chain["prefixes"].rindex(pair_first) :]
        slashed = _SLASHED_COMPLEMENT.match(item)
        if slashed:  # "signs/symptoms of LV dysfunction": two findings of one thing
            full_names[slashed["a"]] = f"{slashed['a']} of {slashed['what']}"
            out_items.append(slashed["a"])
            out_conns.append("or*")
            item = item[len(slashed["a"]) + 1 :]
        match = _SHARED_HEAD.match(item)
        after_lone_modifier = index > 0 and items[index - 1].lower() in SHARED_MODIFIERS
        if (
            match
            and not after_lone_modifier  # "paroxysmal or permanent third-/high-degree …"
            and not re.search(r"(?<![A-Za-z])\d", item)  # values, not "HER2"
            # "low-/iso-osmolar": both halves end the same way; "peri-/epicardial" does not
            and (match["suffix"] if match["hyphen"] else _modifier_like(match["first"]))
            and (match["head"] or match["hyphen"])  # "high-/very high-risk" needs no head
            and (match["hyphen"] or (match["suffix"] is None and _modifier_like(match["second"])))
        ):
            first = f"{match['before']}{match['first']}{match['hyphen']}"
            full_names[first] = (
                f"{match['before']}{match['first']}{match['suffix'] or ''}{match['head'] or ''}"
            )
            out_items.append(first)
            out_conns.append("or*")
            item = f"{match['second']}{match['suffix'] or ''}{match['head'] or ''}"
        else:
            alternatives = _slashed_words(item, keep_together)
            if alternatives:
                first, second, first_full, second_full = alternatives
                full_names[first] = first_full
                if second_full:
                    full_names[second] = second_full
                out_items.append(first)
                out_conns.append("or*")
                item = second
        out_items.append(item)
    return out_items, out_conns, full_names


def _slashed_words(
    item: str, keep_together: Callable[[str], bool] | None
) -> tuple[str, str, str, str | None] | None:
    """ "pre A/B post" as two alternatives: the first's verbatim text, the second's, and their
    full names (the second's only when words before the pair are lent to it); None when
    the slash joins no two alternatives."""
    words = _SLASHED_WORDS.match(item)
    if not (
        words
        and not re.search(r"\d", item)
        and not words["a"].endswith("-")  # "peri-/epicardial": a prefix, no word
        # two modifiers are the shared-head rule's ("genetic/rarer lipid disorders")
        and not _modifier_like(words["a"])
        # inside a complement ("risk stratification for stroke/embolism", "symptoms related
        # to pressure/manipulation of X") the pair names what one act or finding is about
        and not _COMPLEMENT_WORD.search(words["pre"])
        and words["a"].lower() != words["b"].lower()
        # "with/without X": both poles, no alternatives ("either/or" likewise)
        and not {words["a"].lower(), words["b"].lower()} & _SLASH_FUNCTION_WORDS
        and not (words["a"].isupper() or words["b"].isupper())  # "A/C", "V/Q"
        and not _SLASH_KEEPS.search(words["post"])
        # a known pair ("sacubitril/valsartan"), unless a head follows that both share
        and not (
            keep_together is not None
            and not words["post"]
            and keep_together(f"{words['a']}/{words['b']}")
        )
    ):
        return None
    pre, post = words["pre"], words["post"]
    # "stroke/systemic embolism": an adjective after the slash opens a phrase of its own, so
    # what follows it is not shared
    shared = "" if _modifier_like(words["b"]) else post
    return (
        f"{pre}{words['a']}",
        f"{words['b']}{post}",
        f"{pre}{words['a']}{shared}",
        f"{pre}{words['b']}{post}" if pre else None,
    )


# "pre A/B post" with A and B single words: "established osteodystrophy/osteoporosis",
# "feedback/monitoring programme", "right ventricular dysfunction/dilatation"
_SLASHED_WORDS = re.compile(
    r"^(?P<pre>(?:[^\s/]+\s+)*?)(?P<a>[A-Za-z][a-z\-]{2,})/(?P<b>[A-Za-z][a-z\-]{2,})"
    r"(?P<post>(?:\s+[^\s/]+)*)$"
)
_SLASH_FUNCTION_WORDS = frozenset("with without and or either nor".split())
_COMPLEMENT_WORD = re.compile(r"\b(?:of|for|to|with|in|on|by|from|about)\s", re.IGNORECASE)
# a slashed pair that names one thing: a fixed-dose pair ("statin/ezetimibe combination"),
# a ratio or an index
_SLASH_KEEPS = re.compile(r"^\s+(?:combination|ratio|index|quotient)\b", re.IGNORECASE)


_SLASHED_COMPLEMENT = re.compile(
    r"^(?P<a>signs?|symptoms?)/(?P<b>signs?|symptoms?)\s+of\s+(?P<what>\S.*)$", re.I
)


# ", and " between two lists that each offer alternatives: "A or B, and C or D"
_COMMA_AND = re.compile(r",\s+and\s+", re.IGNORECASE)
# (brackets are blanked by the caller: an "or" found is one of the phrase's own)
_TOP_LEVEL_OR = re.compile(r"\s(?:or|and/or)\s|,\s*or\s", re.IGNORECASE)


def lists_joined_by_comma_and(masked: str) -> int | None:
    """Where "A or B, and C or D" (``masked``: brackets blanked) joins two lists of
    alternatives: the comma before "and" closes the first list, so the row asks for one of
    each, not one of the four (the golds keep two OR labels). None when the text has no
    such single joint, or one side offers no alternatives ("A, B, and C or D" stays a list).
    """
    joints = list(_COMMA_AND.finditer(masked))
    if len(joints) != 1:
        return None
    joint = joints[0]
    before, after = masked[: joint.start()], masked[joint.end() :]
    if _TOP_LEVEL_OR.search(before) and _TOP_LEVEL_OR.search(after):
        return joint.start()
    return None


def kinds_after_head(items: list[str], connectors: list[str]) -> list[tuple[str, str]] | None:
    """ "pericarditis, acute or recurrent", "TTR amyloidosis, wild-type or hereditary": two
    bare modifiers after a comma name the kinds of the disease before them, a patient having
    one; (modifier, full name) of each, the disease itself no third alternative. None for any
    other list (nouns after the comma are items of their own: "diabetes, obesity or CKD")."""
    if len(items) != 3 or connectors != [",", "or"]:
        return None
    head, *kinds = items
    # ("in pericarditis", "the pericarditis": the disease without what leads it in)
    head = re.sub(r"^(?:(?:in|with|for|of)\s+)?(?:(?:a|an|the)\s+)?", "", head, flags=re.I)
    if not head or _bare_modifier(head) or not all(map(_bare_modifier, kinds)):
        return None
    if set(head.lower().split()) & CLAUSE_WORDS or re.search(r"[\d⟦<>≤≥%]", head):
        return None  # "aspirin with clopidogrel, …", "LVEF ≤35%, …": no one disease named
    return [(kind, f"{kind} {head}") for kind in kinds]


def _bare_modifier(word: str) -> bool:
    """A word that names a kind of a disease: a course or grade word ("acute", "recurrent"),
    a "-type" ("wild-type") or a participle ("dilated", "provoked"), or one of them negated
    ("non-ischaemic", "unprovoked"); nouns shaped like adjectives ("diuretic") are not."""
    low = re.sub(r"^(?:non-?|un)(?=[a-z]{4})", "", word.lower())
    return " " not in low and (
        low in SHARED_MODIFIERS
        or low in COURSE_WORDS
        or low.endswith("-type")
        or re.fullmatch(r"[a-z]{3,}ed", low) is not None
    )
