"""The act named by a verb the rules do not know, in "It is recommended to <verb> X": the
verb's noun where English makes one regularly and the word list has it ("eliminate" ->
"elimination", "adjust" -> "adjustment"), else its gerund ("expediting delivery") or,
where English lacks that too, the verb itself ("revascularize the LSA"); never the bare
"to". A review's look-alikes narrowed it: -ly verbs are no adverbs, "to not X" and aims
are left alone, no -y nouns ("testy").
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PURPOSE_VERBS
from cardio_assets.logic.row_text import english_words

# an adverb between "to" and the verb: a -ly word that is no verb itself ("to supply",
# "to rely on" are verbs), or one of a few others
_LY_VERBS = "apply|supply|rely|comply|reply|imply|multiply|ally|fly|rally|sully|tally"
_ADVERB = rf"(?:(?!(?:{_LY_VERBS})\b)[a-z]+ly|first|also|always|further|then|still|only|again)"
_INFINITIVE = re.compile(
    rf"^to\s+(?:{_ADVERB}\s+)?(?P<verb>[a-z]+(?:-[a-z]+)?)\b\s*(?P<rest>.*)$", re.IGNORECASE
)
# what is no act to name: an aim ("to prevent X", "to rule out X": read as aims elsewhere),
# a negated verb ("to not interrupt X"), the copula, and "either … or"
_NOT_AN_ACT = re.compile(
    rf"^to\s+(?:{_ADVERB}\s+)?(?:(?:{_OUTCOME_VERBS}|{_PURPOSE_VERBS})\b|(?:not|never|be|"
    r"either|neither)\b)",
    re.IGNORECASE,
)
# a preposition after the verb already ties its object to the noun ("adjustment for age")
_TIED = re.compile(r"^(?:of|for|in|to|with|on|at|from|into|between|by|up)\b", re.IGNORECASE)


def verb_noun(verb: str) -> str | None:
    """The noun English regularly makes of ``verb`` where the word list knows it: -ize/-ise
    -> -ization/-isation, -ate -> -ation (verbs of seven letters or more: "state" makes no
    "station"), -ct -> -ction, -ment (verbs of five letters or more: "base" makes no
    "basement"), -er -> -ery ("delivery"; no other -y: "testy"); None otherwise ("expedite":
    "expedition" is another word)."""
    english = english_words()
    word = verb.lower()
    candidates = []
    if re.search(r"[^aeiou][iy][sz]e$", word):
        candidates.append(word[:-1] + "ation")
    if word.endswith("ate") and len(word) >= 7:
        candidates.append(word[:-1] + "ion")
    if word.endswith("ct"):
        candidates.append(word + "ion")
    if len(word) >= 5:
        candidates.append(word + "ment")
    if word.endswith("er"):  # "deliver" -> "delivery", "recover" -> "recovery" (no "testy")
        candidates.append(word + "y")
    return next((noun for noun in candidates if noun in english), None)


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
    if m is None or _NOT_AN_ACT.match(phrase):
        return None
    rest = m["rest"].strip()
    if m["verb"].lower() == "have":  # "to have high awareness of X": what they are to have
        return rest, ("", "")
    written = phrase[m.start("verb") : m.end("verb")]
    noun = verb_noun(m["verb"])
    if noun is None:
        # the gerund where English has it, else the verb as written ("to regular exercise",
        # left by an earlier rewrite, is no verb to make a gerund of)
        ing = gerund(m["verb"])
        named = ing if ing in english_words() else written
    elif not rest or _TIED.match(rest):
        named = noun
    else:
        named = f"{noun} of"
    return f"{named} {rest}".strip(), (named, written)
