"""A recommendation's text as printed, repaired for reading (pure logic, no Dagster).

Converter-made guideline text carries the marks of its PDF: words hyphenated at line breaks
("con-\\nsidered"), ligatures the text layer split apart ("fni dings", "stratifci ation"),
font glyphs read as other characters ("<_" for ≤, "þ" for +, a control character for the
en dash), citation numbers glued to the sentence ("...outcomes.94,103") and footnote letters
glued to words ("riskd", "HBR,c", "...death.c,d"). This module repairs what can be told
apart safely and keeps the rest as printed:

- a repair that needs to know whether a word exists asks the document's own vocabulary
  (``Vocabulary``: every word of the document, counted), never a list of phrases;
- citation numbers move to ``references`` only where they cannot be part of the sentence
  (after its final full stop, or glued to a word before a colon); "≥40 kg/m2." and
  "within 24 h." keep their numbers;
- footnote letters stay in the text (extraction removes them, knowing the table's
  footnotes); ``footnote_markers`` names them where they can be told apart from the word.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

LINE_BREAK = "\n"
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")


@dataclass
class Vocabulary:
    """Word counts of one document (lower-case), for repairs that ask "is this a word?"."""

    counts: Counter[str] = field(default_factory=Counter)

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Vocabulary:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(w.lower() for w in _WORD.findall(text or ""))
        return cls(counts)

    def count(self, word: str) -> int:
        return self.counts.get(word.lower(), 0)

    def known(self, word: str, at_least: int = 1) -> bool:
        return self.count(word) >= at_least

    def starts_compound(self, word: str) -> bool:
        """Does the document write ``word`` as the first part of a hyphenated word?"""
        prefix = f"{word.lower()}-"
        return any(w.startswith(prefix) for w in self.counts)


@dataclass
class RepairedText:
    text: str
    references: list[str] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)  # what was changed, for audit


# --------------------------------------------------------------------------- font artifacts

# Glyphs of the guideline fonts that text layers read as other characters, each checked in
# converter-made guideline text: "<_" / ">_" are ≤ / ≥ drawn as two glyphs, U+0002 is the en
# dash of ranges, U+0004/U+0005 are × (and ° before C), "þ" (thorn) before a number is the
# plus sign, "¨ı" is an i with diaeresis.
_GLYPHS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"<\s?_"), "≤", "'<_' read as ≤"),
    (re.compile(r">\s?_"), "≥", "'>_' read as ≥"),
    (re.compile("\u0002"), "–", "U+0002 read as an en dash"),
    # the converter's replacement character between two words' letters was their dash
    # ("renin�angiotensin system", "His�Purkinje")
    (re.compile(r"(?<=[A-Za-z])\ufffd(?=[A-Za-z])"), "–", "U+FFFD between letters read as –"),
    # the same fonts' symbol glyphs inside a line (a bullet opening a line is _BULLET_GLYPH):
    # U+0005 before a temperature scale is the degree sign, otherwise (like U+0004) the
    # multiplication sign of doses and factors ("2 x 2 g/day", "age x 10", "20x the dose")
    (re.compile(r"\x05(?=[CF]\b)"), "°", "U+0005 before C/F read as °"),
    (
        re.compile(r"(?<=[\w)%])(\s?)[\x04\x05](?=\s?\d)|(?<=\d)[\x04\x05](?=\s)"),
        r"\1×",
        "U+0004/U+0005 read as ×",
    ),
    (re.compile(r"þ(?=\s?\d)"), "+", "'þ' before a number read as +"),
    (re.compile(r"¨\s?ı|ı¨"), "ï", "'¨ı' read as ï"),
    (re.compile(r"(?<=[a-z])´\s?(?=[a-z])"), "", "stray acute accent removed"),
)
# a control character or private glyph that opens a line is the list bullet of that font
_BULLET_GLYPH = re.compile(r"(^|\n)\s*[\u0000-\u0008\u000b-\u001f\uf0b7\uf0a7\u25aa\u25cf]\s+")
# ". 30 kg/m2", "(.12 months)": a lone full stop before a number is the ">" of that font;
# a decimal point always has a digit before it in guideline text
_STOP_AS_GREATER = re.compile(r"(?<=[\s(])\.\s?(?=\d)")
# "LVEF,40%", "life expectancy,6 months", "ratio ,1": a comma glued to a number after a
# word is the "<" of the same fonts (a list comma is followed by a space; a thousands
# separator has a digit before it); the number must carry a unit, or the comma stand apart
# (the value may be a range, "or,60–70 mmHg", or a count in thousands, "platelets,50 000/µL",
# its unit a count per volume)
_COMMA_AS_LESS = re.compile(
    r"(?<=[A-Za-z)])(?:,(?=(?:\d{1,3}(?:[ \u2009\u202f]\d{3})+|\d+)(?:\.\d+)?(?:\s?[–-]\s?\d+(?:\.\d+)?)?"
    r"\s?(?:%|mm\s?Hg|mg|ms\b|mmol|m/s|months?\b|years?\b|"
    r"weeks?\b|days?\b|h\b|cm\b|mm\b|kg|ng|pg|µ|U/|b\.p\.m|bpm|/\s?[µμm]?[lL]\b))"
    r"|\s,(?=\d+(?:\.\d+)?(?:[\s,;)]|$)))"
)

# Names printed with subscripts whose digits the text layer split off or dropped ("P2Y 12",
# "P2Y inhibitor", "CHA 2 DS 2 -VASc", "CHADS -VASc"): no other name is spelt that way, so
# the full name is put back (the displaced digits, where they landed, are left as printed).
_LOST_SUBSCRIPTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bP2Y(?:\s?12)?(?:\s(?=-\w))?(?![\w])"), "P2Y12"),
    (re.compile(r"\b(?:CHA\s?2?\s?DS|CHADS)\s?2?\s?-\s?VASc\b"), "CHA2DS2-VASc"),
    (re.compile(r"\bHbA\s1c\b"), "HbA1c"),
    (re.compile(r"\b(SpO|SaO|PaO|PaCO)\s2\b"), r"\g<1>2"),
)


def repair_lost_subscripts(text: str) -> tuple[str, list[str]]:
    """Subscripted names put back together ("P2Y 12 inhibitor" -> "P2Y12 inhibitor")."""
    repaired = text
    for pattern, replacement in _LOST_SUBSCRIPTS:
        repaired = pattern.sub(replacement, repaired)
    return repaired, ["subscripted name restored"] if repaired != text else []


# The same subscript set on a line of its own further down the cell ("P2Y inhibi-\n12\ntor",
# "contraindications\n12\nsuch as"): while the cell holds the name that lost it, a line
# that is only those digits is the subscript, not a number of the sentence.
_STRAY_SUBSCRIPT_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bP2Y(?!\s?12)"), "12"),
    (re.compile(r"\b(?:CHA\s?DS|CHADS)\s?-\s?VASc\b"), r"2(?:[ \t]+2)?"),  # both 2s on one line
)


def drop_stray_subscript_lines(text: str) -> tuple[str, list[str]]:
    """Lines holding only a subscript that left its name removed (before lines are joined)."""
    removed = 0
    for name, digits in _STRAY_SUBSCRIPT_LINES:
        if name.search(text):
            text, count = re.subn(rf"[ \t]*\n[ \t]*{digits}[ \t]*(?=\n)", "", text)
            removed += count
    return text, ["subscript printed on a line of its own removed"] if removed else []


def repair_glyphs(text: str) -> tuple[str, list[str]]:
    """Font artifacts replaced by what was printed; Unicode ligatures (ﬁ, ﬂ) decomposed."""
    repairs: list[str] = []
    for pattern, replacement, note in _GLYPHS:
        text, count = pattern.subn(replacement, text)
        if count:
            repairs.append(note)
    text, count = _BULLET_GLYPH.subn(lambda m: f"{m.group(1)}• ", text)
    if count:
        repairs.append("font bullet glyph read as •")
    text, count = _STOP_AS_GREATER.subn(">", text)
    if count:
        repairs.append("'.' before a number read as >")
    text, count = _COMMA_AS_LESS.subn(" <", text)
    if count:
        repairs.append("',' glued to a number read as <")
    folded = "".join(
        unicodedata.normalize("NFKC", ch) if "\ufb00" <= ch <= "\ufb06" else ch for ch in text
    )
    if folded != text:
        repairs.append("ligature characters decomposed")
    return folded, repairs


# --------------------------------------------------------------------------- line breaks

_HYPHEN_BREAK = re.compile(r"([A-Za-z]+)-[ \t]*\n[ \t]*([A-Za-z]+)")
# the same break where the converter left a space for the line end ("haemofiltra- tion"):
# joined only as the document writes the word elsewhere
_HYPHEN_SPACE = re.compile(r"\b([A-Za-z]{2,}|\d{1,3})-[ \t]+([a-z]{2,})\b")
# words after a hyphen that leaves the first word's ending to the next one ("low- to
# moderate-intensity", "intermediate- or high-risk")
_SUSPENDED_BEFORE = frozenset("and or to nor versus vs than".split())


def join_lines(text: str, vocabulary: Vocabulary) -> tuple[str, list[str]]:
    """Lines of a cell joined: a word hyphenated at a line break becomes one word unless the
    document writes it with its hyphen ("non-ST"); other breaks become spaces."""
    repairs: list[str] = []

    def join(m: re.Match[str]) -> str:
        left, right = m.group(1), m.group(2)
        joined, hyphenated = left + right, f"{left}-{right}"
        if right.lower() in _SUSPENDED_BEFORE:
            if m.string[m.end() : m.end() + 1] == "-":
                return hyphenated  # "moderate-" + "to-severe": one compound, broken at a hyphen
            if not vocabulary.known(joined) and vocabulary.starts_compound(left):
                # "low-" at a line's end, "and intermediate-risk" on the next: a suspended
                # hyphen, not a word broken in two ("in-" + "to" is "into" where it is
                # written; "do-" + "nor" is "donor": the document writes no "do-…" compound)
                return f"{left}- {right}"
        keep_hyphen = vocabulary.count(hyphenated) > vocabulary.count(joined) or (
            not vocabulary.known(joined) and (right[0].isupper() or left[-1].isupper())
        )
        repairs.append("line-break hyphenation joined")
        return hyphenated if keep_hyphen else joined

    text = _HYPHEN_BREAK.sub(join, text)
    text = re.sub(r"/[ \t]*\n[ \t]*", "/", text)  # "ARNI/" + "ACE-Is" on the next line

    def join_spaced(m: re.Match[str]) -> str:
        left, right = m.group(1), m.group(2)
        if right.lower() in _SUSPENDED_BEFORE:
            return m.group(0)  # "high- and low-risk": a suspended hyphen, printed so
        joined, hyphenated = left + right, f"{left}-{right}"
        if left.isdigit():
            spaced = hyphenated  # "12- lead": a number joined to its noun
        elif vocabulary.count(joined) > vocabulary.count(hyphenated):
            spaced = joined  # "haemofiltra- tion"
        elif vocabulary.known(hyphenated):
            spaced = hyphenated  # "high- dose"
        else:
            return m.group(0)
        repairs.append("spaced hyphenation joined")
        return spaced

    text = _HYPHEN_SPACE.sub(join_spaced, text)
    return " ".join(text.split()), sorted(set(repairs))


# --------------------------------------------------------------------------- ligatures

# The text layer of older guideline PDFs places the "fi"/"fl" ligature after the next
# letter and may break the word there: "fni dings" (findings), "specifci" (specific),
# "frist" (first), "confrimed" (confirmed).
_LIGATURE_SPLIT = re.compile(r"\b([A-Za-z]*?)f([a-z])([il])([a-z]*)(?:\s+([a-z]+))?\b")


# the INN stems that hold an "fi" or "fl" ("-gliflozin", "-floxacin", "-fibrate", "-fiban"):
# a rejoined word ending so is a drug name, whatever the document's own counts
_LIGATURE_DRUG_STEM = re.compile(r"(?:gliflozin|floxacin|fibrate|fibatide|fiban)$", re.I)


@functools.cache
def english_words() -> frozenset[str]:
    """English words (pyspellchecker's frequency list), for a guideline that prints a word
    broken everywhere, so that its own vocabulary never shows the word whole."""
    from spellchecker import SpellChecker

    return frozenset(SpellChecker(language="en", distance=1).word_frequency.keys())


def repair_ligature_splits(text: str, vocabulary: Vocabulary) -> tuple[str, list[str]]:
    """Split ligatures rejoined where the joined form is a word of the document (seen at
    least twice, more often than the printed form) or an English word that the printed form
    is not."""
    repairs: list[str] = []

    def fix(m: re.Match[str]) -> str:
        head, moved, lig, glued, tail = (m.group(i) or "" for i in range(1, 6))
        printed = m.group(0)
        first = printed.split()[0]
        candidates = [f"{head}f{lig}{moved}{glued}{tail}"]
        if tail:
            candidates.append(f"{head}f{lig}{moved}{glued}")  # only the first part was broken
        printed_count = max(vocabulary.count(w) for w in printed.split())
        for number, candidate in enumerate(candidates):
            if candidate.lower() == printed.lower():
                continue
            count = vocabulary.count(candidate)
            in_document = count >= 2 and count > printed_count
            # a drug name whose INN stem holds the ligature ("dapaglifol zin" is dapagliflozin)
            a_drug = _LIGATURE_DRUG_STEM.search(candidate) and not _LIGATURE_DRUG_STEM.search(first)
            # English vouches for the first part alone only when the next word is a word
            # ("ffith year" is "fifth year"; "fbi romuscular" is no "fib romuscular")
            in_english = (
                (number == 0 or tail.lower() in english_words())
                and candidate.lower() in english_words()
                and first.lower() not in english_words()
            )
            if in_document or in_english or a_drug:
                rest = f" {tail}" if tail and not candidate.endswith(tail) else ""
                repairs.append("split ligature rejoined")
                return candidate + rest
        return printed

    text = _LIGATURE_SPLIT.sub(fix, text)
    return text, sorted(set(repairs))


# --------------------------------------------------------------------------- references

_REF_NUM = r"\d{1,4}"
_REF_LIST = rf"{_REF_NUM}(?:\s?[,–-]\s?{_REF_NUM})*"
_MARKER_RUN = r"(?:[a-h*†‡§¶](?:,[a-h*†‡§¶])*,?)?"
# "...outcomes.94,103" / "...months.d,783,785" / "...in PE.134 Further text": after a full
# stop that follows a word, a closing bracket or a percent sign
# (a later number of the list may carry a letter: "…(>10% LV).382,401,402a", an added one)
_AFTER_STOP = re.compile(
    rf"(?<=[A-Za-z)\]%])\.({_MARKER_RUN})\s?({_REF_NUM}(?:\s?[,–-]\s?{_REF_NUM}[a-d]?)*)"
    r"(?=\s+[A-Z(]|\s*$)"
)
# "...the ECG shows25–39:" glued before a colon (a list of at least two numbers)
_BEFORE_COLON = re.compile(rf"(?<=[a-z]{{3}})({_REF_NUM}(?:\s?[,–-]\s?{_REF_NUM})+)(?=:)")
# "...for diagnosis1204,1208 and ..." / "...is recommended19 before ...": glued to a
# lower-case word of four letters or more inside the sentence (units and names that carry
# digits are short or upper-case: "m2", "P2Y12", "SCORE2", "HbA1c")
_GLUED_TO_WORD = re.compile(rf"(?<=[a-z]{{4}})(\d{{2,4}}(?:\s?[,–-]\s?{_REF_NUM})*)(?=[\s;,)]|$)")
_SPLIT_REFS = re.compile(r"\s?,\s?")
# a pointer to the supplementary material printed after a row's citation numbers, ending it
_SUPPLEMENT_AFTER_REFERENCES = re.compile(
    r"(?<=\d),\s*(?P<pointer>Supplementary\s+(?:Data\s+)?(?:Tables?|Figures?)\s+"
    r"\d+(?:\s*(?:,|and)\s*\d+)*)\s*$"
)


def split_references(text: str) -> tuple[str, list[str]]:
    """Citation numbers moved out of the sentence, in order ("131–137" stays one item)."""
    references: list[str] = []

    def take(refs: str) -> None:
        references.extend(r.strip() for r in _SPLIT_REFS.split(refs) if r.strip())

    def after_stop(m: re.Match[str]) -> str:
        take(m.group(2))
        return "." + m.group(1).rstrip(",")

    def before_colon(m: re.Match[str]) -> str:
        take(m.group(1))
        return ""

    pointer = _SUPPLEMENT_AFTER_REFERENCES.search(text)
    if pointer and re.search(rf"[A-Za-z)\]%]\.{_REF_LIST}$", text[: pointer.start()]):
        # "….174,180, Supplementary Data Tables 5 and 6": cited with the numbers
        text = text[: pointer.start()]
    else:
        pointer = None
    text = _AFTER_STOP.sub(after_stop, text)
    if pointer:
        references.append(pointer.group("pointer"))
    text = _BEFORE_COLON.sub(before_colon, text)
    text = _GLUED_TO_WORD.sub(before_colon, text)
    return text, references


# --------------------------------------------------------------------------- markers

_UNIT_AND_LETTER = re.compile(r"(?<=\d)\s?(?:mm|cm|ms|kg|mL)(?P<letter>[a-h])(?![\w/])")
_TRAILING_MARKERS = re.compile(r"(?<=[.)\]A-Za-z])[.,]?((?:[a-h])(?:,[a-h])*)$")


def footnote_marker_spans(
    text: str, letters: Iterable[str], vocabulary: Vocabulary, printed: Iterable[str] = ()
) -> list[tuple[str, int, int]]:
    """(letter, start, end) of the footnote letters the row carries, where they can be told
    apart from the word: after a full stop or comma ("death.c,d", "HBR,c"), or glued to a
    rare word whose stem is an acronym or a word the guideline uses far more often ("riskd"
    beside many "risk"). Only letters the table's footnotes define count. The spans cover
    the letter and the comma or stop that only served it (",c" in "HBR,c"). A letter whose
    footnote is ``printed`` under the table is surer: the stem need only be twice as common,
    and a row printed more than once may carry it three times."""
    defined = {m for m in letters if len(m) == 1 and m.isalpha()}
    sure = {m for m in printed if m in defined}
    if not defined:
        return _glued_where_no_footnotes(text, vocabulary)
    found: list[tuple[str, int, int]] = []
    # not "e.g." / "i.e." / "b.i.d.": a letter between stops belongs to an abbreviation
    for m in re.finditer(r"([.,])((?:[a-h])(?:,[a-h])*)(?=[\s,;:)]|$)", text):
        before = text[: m.start()]
        if not before or not (before[-1].isalpha() or before[-1] in ")]%"):
            continue
        letters_here = m.group(2).split(",")
        if not all(letter in defined for letter in letters_here):
            continue
        # "death.c,d": the stop ends the sentence and stays; "HBR,c": the comma goes
        start = m.start(2) if m.group(1) == "." else m.start(1)
        for letter in letters_here:
            found.append((letter, start, m.end()))
    for m in _UNIT_AND_LETTER.finditer(text):
        # "≥45 mmc": a letter glued to the unit of a value
        if m.group("letter") in defined:
            found.append((m.group("letter"), m.start("letter"), m.end("letter")))
    next_letters: list[tuple[str, int, int]] = []  # glued letters with weaker evidence
    for m in re.finditer(r"[A-Za-z]{3,}", text):
        word = m.group(0)
        split = _stem_and_letter(word, min_stem=3)  # "off" is no "of" + f
        if split is None:
            continue
        stem, last = split
        times = vocabulary.count(word)
        # a glued marker is rare ("used" is not), or at least far rarer than its stem: one
        # footnote glued to "assessment" in every row of a table
        # ("area" is no "are" + a: a short stem is too likely a word of its own)
        # (a letter whose footnote is printed under this table: twice as often is enough)
        repeated = (len(stem) >= 5 or stem.isupper()) and vocabulary.count(stem) >= (
            2 if last in sure else 10
        ) * times
        rare = times <= (3 if last in sure else 2) or repeated
        ratio = 2 if last in sure else 3
        if (
            last in defined
            and rare
            and (stem.isupper() or vocabulary.count(stem) >= ratio * max(1, times))
        ):
            found.append((last, m.end() - 1, m.end()))
        elif last in defined and rare and vocabulary.count(stem) >= max(1, times):
            next_letters.append((last, m.end() - 1, m.end()))
    # a row's footnote letters run in order: a glued letter just after one the row surely
    # carries ("monitoringg or … studyh") needs only a stem the tables print as often
    carried = {letter for letter, _, _ in found}
    found += [span for span in next_letters if chr(ord(span[0]) - 1) in carried]
    return sorted(set(found), key=lambda f: (f[1], f[0]))


MARKER_LETTERS = "abcdefgh"
_ROMAN = re.compile(r"[IVX]+")
# names whose last lower-case letter is theirs, not a footnote's ("CHA2DS2-VASc", "QTc")
NAMES_ENDING_IN_A_LETTER = frozenset({"VASc", "QTc", "HbA", "NTproBNP"})


def _glued_where_no_footnotes(text: str, vocabulary: Vocabulary) -> list[tuple[str, int, int]]:
    """A table whose footnotes the converter lost still prints their letters glued to words
    ("patientsc", "LMWHc"). Without a list of letters only the plainest case counts: a word
    printed once, whose stem (an acronym or a word) the guideline uses at least five times
    as often, or a word printed a few times whose stem is a common plural printed thirty
    times as often for each ("patientsc" three times beside a thousand "patients")."""
    found: list[tuple[str, int, int]] = []
    for m in re.finditer(r"[A-Za-z]{4,}", text):
        word = m.group(0)
        # "zinc" is no "zin" + c, even where a broken word printed "zin"
        split = _stem_and_letter(word, min_stem=4)
        if split is None or split[1] not in MARKER_LETTERS:
            continue
        stem, letter = split
        times = vocabulary.count(word)
        # an acronym and a lower-case letter ("CTRCDc") may carry its footnote in every row
        # of a table: printed more than once, still far rarer than the acronym alone
        # ("IIIa" in "GP IIb/IIIa" is a name: Roman numerals are no acronym)
        acronym = stem.isupper() and len(stem) >= 3 and not _ROMAN.fullmatch(stem)
        # (a plural stem only: "plane" is no "plan" + e, however common "plan" is)
        common = times <= 3 and stem.endswith("s") and vocabulary.count(stem) >= 30 * times
        if times > 1 and not (acronym or common):
            continue
        if vocabulary.count(stem) >= (4 if times > 1 else 5) * max(1, times):
            found.append((letter, m.end() - 1, m.end()))
    return found


def _stem_and_letter(word: str, min_stem: int) -> tuple[str, str] | None:
    """(stem, last letter) of a word whose last letter may be a glued footnote marker, or
    None when it cannot be: a name ending in its own letter ("VASc"), a past participle
    ("desired", "compromised" are no "desire" + d), a lower-case stem shorter than
    ``min_stem`` letters (too likely a word of its own)."""
    stem, last = word[:-1], word[-1]
    if word in NAMES_ENDING_IN_A_LETTER:
        return None
    if last == "d" and stem.endswith("e") and not stem.isupper():
        return None
    if len(stem) < min_stem and not stem.isupper():
        return None
    return stem, last


_HEADER_MARKER = re.compile(r"([A-Z][a-z]+\.?)\s?([a-h])")


def header_marker_letters(
    header: Iterable[str], vocabulary: Vocabulary, labels: Iterable[str] = ()
) -> dict[int, str]:
    """{column: letter} for header labels that carry a footnote letter ("Classa", "Levelb",
    "Ref.c"): the label without its last letter is a column label the settings know, an
    abbreviation ending in a stop, or a word the guideline uses more often than the label
    as printed ("Grade" is no "Grad" + e)."""
    known = {label.lower() for label in labels}
    found: dict[int, str] = {}
    for column, label in enumerate(header):
        m = _HEADER_MARKER.fullmatch(" ".join((label or "").split()))
        if not m:
            continue
        stem, letter = m.group(1), m.group(2)
        if (
            stem.lower() in known
            or stem.endswith(".")
            or vocabulary.count(stem) > vocabulary.count(stem + letter)
        ):
            found[column] = letter
    return found


def table_marker_letters(footnote_letters: Iterable[str], lettered_header: bool) -> list[str]:
    """The footnote letters a table's rows may carry: every letter a-h when the table's
    footnotes are lettered or its header labels carry letters, else those its footnotes
    define. Converters print some of a table's lettered footnotes far from it (or once for
    the whole guideline), yet "a Class of recommendation" under it or a header lettered
    "Classa" (``header_marker_letters``) says the table's letters run on through its rows."""
    letters = set(footnote_letters)
    lettered = any(len(m) == 1 and m in MARKER_LETTERS for m in letters)
    if lettered or lettered_header:
        letters |= set(MARKER_LETTERS)
    return sorted(letters)


def footnote_markers(text: str, letters: Iterable[str], vocabulary: Vocabulary) -> list[str]:
    """The footnote letters the row carries (see footnote_marker_spans), in order."""
    out: list[str] = []
    for letter, _, _ in footnote_marker_spans(text, letters, vocabulary):
        if letter not in out:
            out.append(letter)
    return out


def without_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the given character spans removed (footnote markers before extraction).

    A marker printed after a list comma ("digoxin,e ivabradine") leaves the comma: the list
    goes on after it. Before a bracket or the end ("(HBR,c)") the comma goes too."""
    # letters printed one after another ("QTcc,d": "c" then ",d") are one chain: its comma
    # is the chain's own unless the chain starts with it
    chains: list[list[int]] = []
    for start, end in sorted(set(spans)):
        if chains and start <= chains[-1][1]:
            chains[-1][1] = max(chains[-1][1], end)
        else:
            chains.append([start, end])
    pieces, cursor = [], 0
    for start, end in chains:
        pieces.append(text[cursor:start])
        if text[start] == "," and re.match(r"\s+\w", text[end:]):
            pieces.append(",")
        cursor = end
    pieces.append(text[cursor:])
    return " ".join("".join(pieces).split())


# --------------------------------------------------------------------------- all together


def repair_row_text(text: str, vocabulary: Vocabulary) -> RepairedText:
    """Printed cell text (line breaks as "\\n") -> one readable line, references apart."""
    text, repairs = repair_glyphs(text)
    text, stray = drop_stray_subscript_lines(text)
    text, joined = join_lines(text, vocabulary)
    text, ligatures = repair_ligature_splits(text, vocabulary)
    text, subscripts = repair_lost_subscripts(text)
    text, references = split_references(text)
    text = " ".join(text.split())
    return RepairedText(
        text=text,
        references=references,
        repairs=repairs + stray + joined + ligatures + subscripts,
    )


def printed_text(text: str) -> str:
    """The cell as printed, on one line (line breaks read as spaces), for audit and matching."""
    return " ".join((text or "").split())
