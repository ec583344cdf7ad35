"""pdfplumber as the text-layer reader's word source, for benchmarks/real_pdfs.py --words.

Issue 16 asks to measure docling-parse (the parser Docling ships, used by
cardio_assets/logic/pdf_text.py) against pdfplumber on the development PDFs. This module
gives the reader the same ``Page``/``Word`` records from pdfplumber (pdfminer.six): word
boxes, font names, the content-stream order (pdfplumber keeps page.chars in stream order;
a word's order is its first character's index) and upright words only. pdfplumber is not a
project dependency; install it apart to measure:

    uv pip install --target /tmp/pylibs pdfplumber && PYTHONPATH=/tmp/pylibs ...
"""

from __future__ import annotations

from pathlib import Path

from cardio_assets.logic.pdf_text import Page, Word, _drop_vertical, normalize_glyphs


def read_pages(path: Path) -> list[Page]:
    import pdfplumber

    pages: list[Page] = []
    with pdfplumber.open(str(path)) as pdf:
        for number, plumber_page in enumerate(pdf.pages, 1):
            page = Page(
                number=number, width=float(plumber_page.width), height=float(plumber_page.height)
            )
            index = {id(char): k for k, char in enumerate(plumber_page.chars)}
            words = plumber_page.extract_words(
                keep_blank_chars=False,
                use_text_flow=False,
                extra_attrs=["fontname", "size", "upright"],
                return_chars=True,
                x_tolerance=1.5,
            )
            for word in words:
                text = normalize_glyphs(word["text"]).strip()
                if not text:
                    continue
                if not word["upright"]:
                    page.rotated_words += 1
                    continue
                order = min(index.get(id(c), 0) for c in word["chars"])
                page.words.append(
                    Word(
                        text=text,
                        l=float(word["x0"]) - float(plumber_page.bbox[0]),
                        t=float(word["top"]) - float(plumber_page.bbox[1]),
                        r=float(word["x1"]) - float(plumber_page.bbox[0]),
                        b=float(word["bottom"]) - float(plumber_page.bbox[1]),
                        font=word.get("fontname") or "",
                        order=order,
                    )
                )
            _drop_vertical(page)
            pages.append(page)
            plumber_page.close()
    return pages
