"""ccs-sample/ccs-sample.pdf: the CCS sample guideline typeset as a PDF (headless Chromium).

The same tables as ccs-sample.html (written by build_samples.py from its one content
source), printed on A4 pages the way a guideline PDF is: a bold table title, a grey header
row ``Recommendations | Class^a | Level^b``, bold section rows, footnotes in a smaller face
under each table, and the revascularization table cut by a page break (Chromium repeats
its header row on the next page). The ``ccs-sample-pdf`` partition reads it with the
text-layer reader (no model weights) and must give the HTML's 40 rows. Synthetic test
material, not clinical advice. Regenerate after build_samples.py (needs Chromium):

    .venv/bin/python data/guidelines/render_pdf.py
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
PRINT_CSS = """<style>
@page { size: A4; margin: 18mm 16mm; }
body { font-family: 'Liberation Serif', serif; font-size: 9pt; }
h1 { font-size: 14pt; } h2 { font-size: 11pt; font-family: 'Liberation Sans', sans-serif; }
table { width: 100%; border-collapse: collapse; font-family: 'Liberation Sans', sans-serif;
        font-size: 8pt; }
caption { text-align: left; font-weight: bold; padding-bottom: 1mm; }
th { background: #c8c8ca; text-align: left; padding: 1mm; }
td { padding: 1mm; border-bottom: 0.3pt solid #999; }
td + td, th + th { width: 12mm; text-align: center; font-weight: bold; }
.table-footnotes p { font-size: 6.5pt; margin: 0; }
</style>"""


def _build_samples():
    spec = importlib.util.spec_from_file_location("build_samples", HERE / "build_samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_samples"] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    samples = _build_samples()
    target = HERE / "ccs-sample" / "ccs-sample.pdf"
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "ccs-sample.html"
        samples.write_html(page, samples.CCS_TITLE, samples.CCS_TABLES)
        page.write_text(
            page.read_text(encoding="utf-8").replace("</head>", PRINT_CSS + "</head>", 1),
            encoding="utf-8",
        )
        subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                f"--print-to-pdf={target}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
    print(f"{target.relative_to(HERE.parent.parent)}: {target.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
