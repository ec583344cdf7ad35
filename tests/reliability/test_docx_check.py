"""A `.docx` that is a ZIP but not a Word document is named as such before Docling runs.

Any ZIP passed the old magic-number check (an .xlsx renamed, a zipped folder), and Docling
then failed deep inside without naming the cause. check_source now looks for the Word main
part, word/document.xml; `cardio rows` shows the one-line reason.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pytest
from click.testing import CliRunner

from cardio_assets.cli import main as cli
from cardio_assets.logic.sources import SourceError, check_source


def test_zip_that_is_not_a_word_document_says_so(tmp_path: Path) -> None:
    not_word = tmp_path / "guideline.docx"
    with zipfile.ZipFile(not_word, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", "<workbook/>")  # a spreadsheet, renamed
    with pytest.raises(SourceError, match=r"not a Word document \(no word/document\.xml\)"):
        check_source(not_word, "g")

    result = CliRunner().invoke(cli, ["rows", str(not_word), "--out", str(tmp_path / "r.jsonl")])
    assert result.exit_code == 1, result.output
    assert "not a Word document" in result.output and str(not_word) in result.output
    assert "Traceback" not in result.output

    damaged = tmp_path / "damaged.docx"
    damaged.write_bytes(not_word.read_bytes()[:40])  # ZIP magic, then cut off
    with pytest.raises(SourceError, match="damaged or truncated"):
        check_source(damaged, "g")

    real = tmp_path / "real.docx"
    document = docx.Document()
    document.add_paragraph("Recommendations")
    document.save(str(real))
    assert check_source(real, "g")[0] == "docx"
