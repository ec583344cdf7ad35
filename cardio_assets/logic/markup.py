"""Cell and paragraph text out of Docling, with markup removed only where it is markup
(pure logic, no Dagster). See the comment block below for what each format delivers."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from marko import patterns as marko_patterns

from cardio_assets.logic.abbreviation_lists import GLOSSARY_HEADING

if TYPE_CHECKING:  # docling-core loads when a document is read, not on import
    from docling_core.types.doc import DoclingDocument

# What reaches us as cell text, checked per format: Docling's HTML backend has parsed the
# markup and unescaped the entities (a literal "<35%" arrives as "<35%", a <br> as "\n"); DOCX
# and PDF carry no markup at all. Only Docling's Markdown backend passes raw inline HTML
# through ("Class<sup>a</sup>", "<br>") -- after unescaping "&lt;" and "\<" to the same "<".
# So markup is removed only where it can be (Markdown-origin text), by the Markdown parser's
# own tag grammar, and only for HTML element names; any other "<" or ">" is text. Before a
# Markdown file reaches Docling, its escaped brackets are swapped for two private-use
# characters (``protect_escaped_brackets``) so that an escaped "\<b\>" stays text too.
LITERAL_LT, LITERAL_GT = "\ue000", "\ue001"
# "<_" / ">_" (the ≤ / ≥ glyphs of guideline fonts) carried through Markdown parsing intact
GLYPH_LE, GLYPH_GE = "\ue002", "\ue003"
_ESCAPED_LT = re.compile(r"(?<!\\)\\<|&lt;|&#0*60;|&#[xX]0*3[cC];")
_ESCAPED_GT = re.compile(r"(?<!\\)\\>|&gt;|&#0*62;|&#[xX]0*3[eE];")
_INLINE_TAG = re.compile(
    "<(/?)(" + marko_patterns.tag_name + ")((?:" + marko_patterns.attribute + ")*) */?>"
)
_HTML_ELEMENTS = frozenset(
    "a abbr b big br cite code del dfn div em font i img ins kbd mark p q s samp small span "
    "strike strong sub sup tt u var wbr".split()
)
_LINE_BREAK_ELEMENTS = frozenset({"br", "p", "div"})

MARKER_SHAPE = re.compile(r"^(?:[a-z]|\*{1,3}|[†‡§¶#])$")
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")


# "<_" / ">_" are how converters write the ≤ / ≥ glyphs of guideline fonts; left in the
# Markdown, two of them on one line pair up as _emphasis_ and the underscores vanish, so
# they are carried through as private-use characters and given back as printed
_GLYPH_PAIRS = re.compile(r"([<>])_")


def protect_escaped_brackets(markdown: str) -> str:
    """Markdown source made safe to parse: escaped angle brackets ("\\<", "&lt;", ...) as
    private-use characters, so they survive conversion as text that no tag grammar can
    match (a source already holding those characters keeps its brackets as they are), and
    the "<_" / ">_" glyph pairs kept whole (row text reads them as ≤ / ≥)."""
    if any(ch in markdown for ch in (LITERAL_LT, LITERAL_GT, GLYPH_LE, GLYPH_GE)):
        return markdown
    markdown = _GLYPH_PAIRS.sub(lambda m: GLYPH_LE if m.group(1) == "<" else GLYPH_GE, markdown)
    return _ESCAPED_GT.sub(LITERAL_GT, _ESCAPED_LT.sub(LITERAL_LT, markdown))


# Docling's Markdown parser spends about 10 s on a 1 MB guideline, most of it on prose no
# table needs. Only the regions around tables are parsed: what a table's title, heading
# and footnotes can be drawn from. A removed run of prose leaves this one paragraph, so a
# table after it is still known to follow prose (never a continuation of the one before).
PROSE_PLACEHOLDER = "\u27e6prose\u27e7"
_LINES_BEFORE_TABLE = 14  # titles of a few short paragraphs, the labels line
_LINES_AFTER_TABLE = 30  # footnotes and the abbreviations paragraph under a table
_ALWAYS_KEPT = re.compile(r"^\s*(?:#|\*\*|(?:Recommendation\s+)?Table\s+\d)", re.IGNORECASE)


def _repeat_key(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip().lower())


def table_regions(markdown: str) -> str:
    """The Markdown reduced to its tables, the lines around them, headings, bold lines,
    table titles and the guideline's glossary; every other run of lines becomes one
    PROSE_PLACEHOLDER paragraph."""
    lines = markdown.splitlines()
    # running headers and page numbers stay, so the page furniture they are is still
    # recognised by how often it repeats
    short = Counter(_repeat_key(line) for line in lines if 0 < len(line.strip()) <= 80)
    keep = [
        bool(_ALWAYS_KEPT.match(line)) or short.get(_repeat_key(line), 0) >= 4 for line in lines
    ]
    glossary = False  # the guideline's own list of abbreviations, kept to its next heading
    for i, line in enumerate(lines):
        heading = line.lstrip().startswith(("#", "**"))
        if heading:
            glossary = bool(GLOSSARY_HEADING.match(re.sub(r"^\s*#+\s*|\*\*", "", line)))
        elif glossary:
            keep[i] = True
        if line.lstrip().startswith("|"):
            for j in range(
                max(0, i - _LINES_BEFORE_TABLE), min(len(lines), i + _LINES_AFTER_TABLE)
            ):
                keep[j] = True
    out: list[str] = []
    dropped = False
    for line, kept in zip(lines, keep, strict=True):
        if kept:
            out.append(line)
            dropped = False
        elif line.strip() and not dropped:
            out += ["", PROSE_PLACEHOLDER, ""]
            dropped = True
    return "\n".join(out) + "\n"


def render_superscript(text: str) -> str:
    """A footnote marker becomes '^a' (unambiguous to strip later); '2' in 'm2' becomes '²'."""
    text = text.strip()
    if MARKER_SHAPE.match(text):
        return f"^{text}"
    if re.fullmatch(r"[0-9+-]+", text):
        return text.translate(_SUPERSCRIPT_DIGITS)
    return text


def _inline_html_parts(text: str) -> list[tuple[str, str]]:
    """("text", chunk) / ("sup", content) / ("break", "") parts of Markdown-origin text."""
    parts: list[tuple[str, str]] = []
    sup: list[str] | None = None
    position = 0
    for match in _INLINE_TAG.finditer(text):
        closing, name = match.group(1) == "/", match.group(2).lower()
        if name not in _HTML_ELEMENTS:
            continue  # "<age and BMI >30" is not markup any reader would drop
        chunk = text[position : match.start()]
        position = match.end()
        if sup is not None:
            sup.append(chunk)
        elif chunk:
            parts.append(("text", chunk))
        if name == "sup":
            if closing and sup is not None:
                parts.append(("sup", "".join(sup)))
                sup = None
            elif not closing and sup is None:
                sup = []
        elif name in _LINE_BREAK_ELEMENTS:
            parts.append(("break", ""))
    rest = text[position:]
    if sup is not None:  # an unclosed <sup>: keep its text
        parts.append(("text", "".join(sup) + rest))
    elif rest:
        parts.append(("text", rest))
    return parts


def clean_text(text: str, *, inline_html: bool = False, keep_breaks: bool = False) -> str:
    """Cell/paragraph text, whitespace collapsed; a line break is a space, or with
    ``keep_breaks`` a "\n" (table cells: row text joins words hyphenated at a break).

    ``inline_html``: the text comes from Markdown and may hold raw inline HTML; its tags are
    removed as markup (``<sup>a</sup>`` becomes the marker ``^a``, ``<br>`` a line break).
    Every other character, "<" and ">" included, is kept."""
    text = text or ""
    if inline_html:
        pieces = []
        for kind, value in _inline_html_parts(text):
            if kind == "text":
                pieces.append(value)
            elif kind == "sup":
                pieces.append(render_superscript(value))
            else:
                pieces.append("\n")
        text = "".join(pieces)
    text = text.replace(LITERAL_LT, "<").replace(LITERAL_GT, ">")
    text = text.replace(GLYPH_LE, "<_").replace(GLYPH_GE, ">_")
    if not keep_breaks:
        return " ".join(text.split())
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def spans_may_be_lost(doc: DoclingDocument, source_format: str) -> bool:
    """PDF tables (and Docling JSON made from a PDF, or of unknown origin) can lose a cell's
    row span; HTML, DOCX and Markdown write spans out, so an empty cell there is empty."""
    if source_format == "pdf":
        return True
    mimetype = getattr(getattr(doc, "origin", None), "mimetype", None) or ""
    return source_format == "docling_json" and (not mimetype or "pdf" in mimetype)


def markdown_origin(doc: DoclingDocument, source_format: str) -> bool:
    """Whether the document's text can hold raw inline HTML (Markdown, or its Docling JSON)."""
    if source_format == "md":
        return True
    mimetype = getattr(getattr(doc, "origin", None), "mimetype", None) or ""
    return source_format == "docling_json" and "markdown" in mimetype


def is_super(item: object) -> bool:
    formatting = getattr(item, "formatting", None)
    return formatting is not None and getattr(formatting.script, "value", "") == "super"


def sup_markers(text: str) -> set[str]:
    return {
        value.strip()
        for kind, value in _inline_html_parts(text or "")
        if kind == "sup" and MARKER_SHAPE.match(value.strip())
    }


def is_section_row(cells: list[str]) -> bool:
    """A heading row spanning the table: one text repeated over all columns, or only the first
    cell filled (how Markdown writes it). Needs at least two columns to tell."""
    if len(cells) < 2:
        return False
    filled = [c for c in cells if c.strip()]
    if not filled:
        return False
    if len(set(filled)) == 1 and len(filled) == len(cells):
        return True
    return bool(cells[0].strip()) and all(not c.strip() for c in cells[1:])


# a charset declared in the document's head ("<meta charset=…>", "content=…; charset=…")
_DECLARED_CHARSET = re.compile(rb"<meta[^>]+charset\s*=", re.IGNORECASE)
_HEAD_OPEN = re.compile(rb"<head\b[^>]*>", re.IGNORECASE)
_HTML_OPEN = re.compile(rb"<html\b[^>]*>", re.IGNORECASE)


def declare_utf8(data: bytes) -> bytes | None:
    """An HTML file that is valid UTF-8 and declares no charset, with ``<meta
    charset="utf-8">`` added; None when it declares one or is not UTF-8.

    Docling's HTML backend guesses the encoding of an undeclared file, and on a short file
    it can guess wrong ("≤" read as "Ōēż"): a threshold's symbol would be lost silently."""
    if _DECLARED_CHARSET.search(data[:4096]):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    meta = b'<meta charset="utf-8">'
    for opening in (_HEAD_OPEN, _HTML_OPEN):
        found = opening.search(data)
        if found:
            inserted = meta if opening is _HEAD_OPEN else b"<head>" + meta + b"</head>"
            return data[: found.end()] + inserted + data[found.end() :]
    return meta + data
