"""The act named by a verb the rules do not know, in "It is recommended to <verb> X": the
verb's noun where English makes one regularly ("revascularize" -> "revascularization",
"adjust" -> "adjustment"), else its gerund ("expediting delivery"); never the bare "to".
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PURPOSE_VERBS
from cardio_assets.logic.row_text import english_words

_INFINITIVE = re.compile(
    r"^to\s+(?:[a-z]+ly\s+)?(?P<verb>[a-z]+(?:-[a-z]+)?)\b\s*(?P<rest>.*)$", re.IGNORECASE
)
# aims ("to prevent X", "to confirm X") are read as aims elsewhere, not as acts
_AIM_VERB = re.compile(rf"(?:{_OUTCOME_VERBS}|{_PURPOSE_VERBS})$", re.IGNORECASE)
# a preposition after the verb already ties its object to the noun ("adjustment for age")
_TIED = re.compile(r"^(?:of|for|in|to|with|on|at|from|into|between|by|up)\b", re.IGNORECASE)


def verb_noun(verb: str) -> str | None:
    """The noun English regularly makes of ``verb``: -ize/-ise -> -ization/-isation (medical
    verbs the word list lacks included), -ate -> -ation and -ct -> -ction, -ment and -y
    where the word list knows the result; None otherwise ("expedite" has no such noun:
    "expedition" is another word)."""
    english = english_words()
    word = verb.lower()
    if re.search(r"[^aeiou][iy][sz]e$", word) and len(word) >= 6:
        return word[:-1] + "ation"
    if word.endswith("ate") and (word[:-1] + "ion" in english or len(word) >= 9):
        return word[:-1] + "ion"
    if word.endswith("ct") and word + "ion" in english:
        return word + "ion"
    # ("base" + "ment" is another word: short verbs make no -ment noun here)
    for noun in (word + "ment",) * (len(word) >= 5) + (word + "y",):
        if noun in english:
            return noun
    return None


def gerund(verb: str) -> str:
    """The -ing form of ``verb`` ("weigh" -> "weighing", "place" -> "placing"), checked against
    the word list when the spelling rule has a choice."""
    word = verb.lower()
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    doubled = word + word[-1] + "ing"
    if re.search(r"[^aeiou][aeiou][bdgklmnprt]$", word) and doubled in english_words():
        return doubled
    return word + "ing"


def act_of_infinitive(phrase: str) -> tuple[str, tuple[str, str]] | None:
    """The act of "to <verb> X" right after the framing, and (its first words as named, as
    written) so that the act's text can point back to the row's own words; None when the
    phrase is no such infinitive or its verb is an aim's ("to prevent X")."""
    m = _INFINITIVE.match(phrase)
    if m is None or _AIM_VERB.fullmatch(m["verb"]):
        return None
    rest = m["rest"].strip()
    written = phrase[m.start("verb") : m.end("verb")]
    noun = verb_noun(m["verb"])
    if noun is None:
        named = gerund(m["verb"])
    elif not rest or _TIED.match(rest):
        named = noun
    else:
        named = f"{noun} of"
    return f"{named} {rest}".strip(), (named, written)
