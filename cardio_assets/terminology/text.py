"""Text folding and the tokenizer: one definition for the search index AND grounding.

The index builder (terminology/index.py) tokenizes every SNOMED CT description with
``search_tokens``; grounding (cardio_assets/logic/grounding.py) folds and tokenizes the
query and rescored descriptions with the same functions, so a word means the same on both
sides. ``TOKENIZER_VERSION`` is part of every stored index's id: change either function
and bump it, and stored indexes are rebuilt on open.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Function words carry no meaning for concept matching and have huge posting lists;
# dropping them from index and query keeps search cost bounded.
STOPWORDS = frozenset("a an and as at by for from in into of on or the to with without due".split())

_SEMANTIC_TAG = re.compile(r"\s*\(([^()]+)\)\s*$")
_POSSESSIVE = re.compile(r"'s\b")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def split_semantic_tag(fsn: str) -> tuple[str, str]:
    """'Heart failure (disorder)' -> ('Heart failure', 'disorder'); no tag -> (fsn, '')."""
    match = _SEMANTIC_TAG.search(fsn)
    if not match:
        return fsn, ""
    return fsn[: match.start()], match.group(1).strip()


# British digraphs: ESC guidelines write "haemodynamic", "ischaemic", "oedema", SNOMED
# FSNs use US spelling. Folding "ae"/"oe" before a consonant to "e" on BOTH sides makes
# them equal; it only ever runs on matching text, never on what is displayed or stored.
_BRITISH_DIGRAPH = re.compile(r"(?<![aeiou])[ao]e(?=[bcdfghjklmnpqrstvwxz])")
# Bump when fold/search_tokens change: stored indexes built with another version are
# rebuilt from DuckDB on open.
TOKENIZER_VERSION = "2"


def fold_uncached(text: str) -> str:
    """Lower-case, strip accents, drop possessive 's, unify British digraphs,
    punctuation to single spaces."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _POSSESSIVE.sub("", text.lower())
    text = _BRITISH_DIGRAPH.sub("e", text)
    return " ".join(_NON_ALNUM.sub(" ", text).split())


# Cached: the same descriptions come back for many queries; rescoring's hot path.
fold = lru_cache(maxsize=1 << 16)(fold_uncached)


def search_tokens(text: str, *, cached: bool = True) -> list[str]:
    """Unique content tokens in order of appearance (the index and query use the same).

    The index builder passes ``cached=False``: a million one-off descriptions would
    only churn the query-side cache.
    """
    folded = fold(text) if cached else fold_uncached(text)
    return list(dict.fromkeys(t for t in folded.split() if t not in STOPWORDS))
