"""Build the bundled sample guidelines from one content source.

The recommendation tables below are SYNTHETIC test material written by the
CardioGuidelinesGraph team in its own words. They imitate the *layout* of ESC
recommendation tables (Recommendations | Class | Level, section rows, footnotes,
a table split over a page break) so the pipeline meets the same shapes it will
meet in real guidelines. They are not clinical advice and quote no guideline.

Keeping every format (HTML, Markdown, DOCX, Docling JSON) generated from the same
Python data is WHY this script exists: the gold annotation (data/gold/) and the
expected row counts in configs/guidelines.yaml can then rely on identical row
text in every form.

Run from the repo root:  .venv/bin/python data/guidelines/build_samples.py
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

FOOTNOTE_CLASS = "Class of recommendation."
FOOTNOTE_LEVEL = "Level of evidence."


@dataclass(frozen=True)
class Section:
    """A heading row spanning all three columns."""

    text: str
    marker: str | None = None  # footnote marker attached to the heading


@dataclass(frozen=True)
class Rec:
    """One recommendation row. Line breaks inside the cell are written as '\\n'."""

    text: str
    cls: str
    level: str


@dataclass
class Table:
    number: int
    caption: str
    rows: list[Section | Rec]
    extra_footnotes: list[tuple[str, str]] = field(default_factory=list)  # (marker, text)
    page_break_after: int | None = None  # Docling JSON only: rows before the page break

    @property
    def recommendations(self) -> list[Rec]:
        return [r for r in self.rows if isinstance(r, Rec)]

    @property
    def footnotes(self) -> list[tuple[str, str]]:
        return [("a", FOOTNOTE_CLASS), ("b", FOOTNOTE_LEVEL), *self.extra_footnotes]


# ---------------------------------------------------------------------------
# Chronic coronary syndromes (HTML; revascularization table also as Docling JSON)
# ---------------------------------------------------------------------------

CCS_TITLE = (
    "Sample 2024 guideline on chronic coronary syndromes (CardioGuidelinesGraph test material)"
)

CCS_TABLES = [
    Table(
        3,
        "Recommendations for the diagnostic work-up of individuals with suspected chronic coronary syndrome",
        [
            Section("Basic assessment"),
            Rec(
                "A resting 12-lead ECG is recommended in every individual with chest pain of suspected coronary origin.",
                "I",
                "C",
            ),
            Rec(
                "Transthoracic echocardiography is recommended in all individuals with suspected CCS to detect valvular heart disease and left ventricular dysfunction.",
                "I",
                "B",
            ),
            Rec(
                "HbA1c measurement and a lipid profile are recommended in all individuals with suspected CCS\nto detect diabetes and dyslipidaemia.",
                "I",
                "B",
            ),
            Section("Non-invasive testing", marker="c"),
            Rec(
                "CCTA is recommended as the first-line test in symptomatic individuals with suspected CCS and no known CAD.",
                "I",
                "B",
            ),
            Rec(
                "Stress echocardiography or stress CMR is recommended in symptomatic individuals with known CAD to assess myocardial ischaemia.",
                "I",
                "B",
            ),
            Rec(
                "Exercise ECG may be considered in individuals with suspected CCS and a normal resting ECG.",
                "IIb",
                "C",
            ),
            Rec(
                "CCTA is not recommended in individuals with extensive coronary calcification, an irregular heart rate or severe obesity.",
                "III",
                "C",
            ),
            Section("Invasive testing"),
            Rec(
                "Invasive coronary angiography is recommended in individuals with suspected CCS and typical angina despite antianginal drugs.",
                "I",
                "B",
            ),
            Rec(
                "Invasive coronary angiography should be considered in individuals with suspected CCS and LVEF <50% to clarify the cause of left ventricular dysfunction.",
                "IIa",
                "C",
            ),
            Rec(
                "Invasive FFR measurement should be considered before revascularization when the coronary diameter stenosis is 50–90%.",
                "IIa",
                "B",
            ),
            Rec(
                "Routine invasive coronary angiography is not recommended in asymptomatic individuals in the absence of myocardial ischaemia on non-invasive testing.",
                "III",
                "C",
            ),
        ],
        extra_footnotes=[
            (
                "c",
                "Choice of test depends on local expertise and availability; CCTA = computed tomography coronary angiography; CMR = cardiac magnetic resonance.",
            ),
            (
                "d",
                "CAD = coronary artery disease; CCS = chronic coronary syndrome; ECG = electrocardiogram; FFR = fractional flow reserve; HbA1c = glycated haemoglobin; LVEF = left ventricular ejection fraction.",
            ),
        ],
    ),
    Table(
        5,
        "Recommendations for antithrombotic therapy in patients with chronic coronary syndrome",
        [
            Section("Patients in sinus rhythm"),
            Rec(
                "Aspirin 75–100 mg daily is recommended in patients with CCS and a prior myocardial infarction or prior revascularization.",
                "I",
                "A",
            ),
            Rec(
                "Clopidogrel 75 mg daily is recommended as an alternative to aspirin in patients with CCS who are intolerant of aspirin.",
                "I",
                "B",
            ),
            Rec(
                "After elective PCI, aspirin plus clopidogrel is recommended for 6 months in patients with CCS.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS at high ischaemic risk and without high bleeding risk, adding a second antithrombotic drug to aspirin should be considered.",
                "IIa",
                "A",
            ),
            Rec(
                "Prasugrel or ticagrelor may be considered instead of clopidogrel in patients with CCS undergoing high-risk elective PCI.",
                "IIb",
                "C",
            ),
            Section("Patients with an indication for OAC", marker="c"),
            Rec(
                "In patients with CCS and AF, a DOAC is recommended in preference to a VKA.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS and AF undergoing PCI, OAC plus clopidogrel is recommended for up to 12 months.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS and AF without prior revascularization, routine addition of aspirin to OAC is not recommended.",
                "III",
                "B",
            ),
            Rec(
                "Ticagrelor or prasugrel is not recommended as part of triple antithrombotic therapy with aspirin and an OAC.",
                "III",
                "C",
            ),
            Section("Gastric protection"),
            Rec(
                "A proton pump inhibitor is recommended in patients with CCS receiving combined antithrombotic therapy\nwho are at high risk of gastrointestinal bleeding.",
                "I",
                "A",
            ),
        ],
        extra_footnotes=[
            ("c", "OAC includes DOACs (apixaban, dabigatran, edoxaban, rivaroxaban) and VKAs."),
            (
                "d",
                "AF = atrial fibrillation; CCS = chronic coronary syndrome; DOAC = direct oral anticoagulant; OAC = oral anticoagulation; PCI = percutaneous coronary intervention; VKA = vitamin K antagonist.",
            ),
        ],
    ),
    Table(
        6,
        "Recommendations for lipid-lowering and other preventive drug therapy in chronic coronary syndrome",
        [
            Section("Lipid-lowering therapy"),
            Rec(
                "High-intensity statin therapy up to the highest tolerated dose is recommended in all patients with CCS to reach an LDL-C goal of <1.4 mmol/L.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS whose LDL-C remains ≥1.4 mmol/L despite a maximally tolerated statin, adding ezetimibe is recommended.",
                "I",
                "B",
            ),
            Rec(
                "In patients with CCS whose LDL-C remains ≥1.4 mmol/L despite a statin and ezetimibe, adding a PCSK9 inhibitor is recommended.",
                "I",
                "A",
            ),
            Section("Anti-inflammatory and cardiometabolic therapy"),
            Rec(
                "Low-dose colchicine should be considered in patients with CCS to reduce myocardial infarction, stroke and the need for revascularization.",
                "IIa",
                "A",
            ),
            Rec(
                "An SGLT2 inhibitor is recommended in patients with CCS and type 2 diabetes to reduce cardiovascular events.",
                "I",
                "A",
            ),
            Section("Blood pressure and renin–angiotensin system"),
            Rec(
                "An ACE inhibitor is recommended in patients with CCS and hypertension, diabetes, LVEF ≤40% or CKD.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS and hypertension, antihypertensive drugs are recommended to lower systolic blood pressure to 120–129 mmHg.",
                "I",
                "A",
            ),
            Rec(
                "Routine long-term beta-blocker therapy is not recommended in patients with CCS without prior myocardial infarction and with LVEF >50%.",
                "III",
                "B",
            ),
        ],
        extra_footnotes=[
            (
                "c",
                "ACE = angiotensin-converting enzyme; CKD = chronic kidney disease; LDL-C = low-density lipoprotein cholesterol; PCSK9 = proprotein convertase subtilisin/kexin type 9; SGLT2 = sodium–glucose co-transporter 2.",
            ),
        ],
    ),
    Table(
        9,
        "Recommendations for myocardial revascularization in patients with chronic coronary syndrome",
        [
            Section("General recommendations"),
            Rec(
                "Revascularization is recommended in patients with CCS whose angina persists despite antianginal drugs, to improve symptoms.",
                "I",
                "A",
            ),
            Rec(
                "A Heart Team discussion is recommended before choosing between PCI and CABG in patients with CCS and left main disease or multivessel disease.",
                "I",
                "C",
            ),
            Section("Left main and multivessel disease"),
            Rec(
                "CABG is recommended in patients with CCS and significant left main stenosis of high anatomical complexity (SYNTAX score >32) to improve survival.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS and significant left main stenosis of low anatomical complexity (SYNTAX score ≤22),\nPCI is recommended as an alternative to CABG.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS, multivessel disease and diabetes, CABG is recommended over PCI to reduce mortality.",
                "I",
                "A",
            ),
            Rec(
                "In patients with CCS, multivessel disease and LVEF ≤35% who are suitable for surgery, CABG is recommended to improve survival.",
                "I",
                "B",
            ),
            Rec(
                "For patients with CCS and LVEF ≤35% who are at high surgical risk or not operable, PCI may be considered.",
                "IIb",
                "B",
            ),
            Section("Single-vessel disease and intermediate stenoses"),
            Rec(
                "In patients with CCS and significant proximal LAD stenosis, PCI or CABG is recommended.",
                "I",
                "B",
            ),
            Rec(
                "IVUS or OCT is recommended to guide PCI in patients with left main disease or complex coronary lesions.",
                "I",
                "A",
            ),
            Rec(
                "Revascularization of a stenosis with FFR >0.80 is not recommended in patients with CCS in the absence of angina.",
                "III",
                "B",
            ),
            Rec(
                "In asymptomatic patients with CCS, LVEF >50% and no left main disease, routine revascularization is not recommended solely to reduce mortality.",
                "III",
                "B",
            ),
        ],
        extra_footnotes=[
            ("c", "SYNTAX score thresholds refer to the anatomical SYNTAX score."),
            (
                "d",
                "CABG = coronary artery bypass grafting; FFR = fractional flow reserve; IVUS = intravascular ultrasound; LAD = left anterior descending artery; LVEF = left ventricular ejection fraction; OCT = optical coherence tomography.",
            ),
        ],
        # The first 7 body rows (2 sections + 5 recommendations) sit on page 62; the rest,
        # which continues the "Left main and multivessel disease" section without repeating
        # its heading, on page 63.
        page_break_after=7,
    ),
]

# ---------------------------------------------------------------------------
# Heart failure (Markdown and DOCX from the same content)
# ---------------------------------------------------------------------------

HF_TITLE = "Sample 2023 guideline on heart failure (CardioGuidelinesGraph test material)"

HF_TABLES = [
    Table(
        4,
        "Recommendations for pharmacological treatment of patients with heart failure with reduced ejection fraction",
        [
            Section("Therapies recommended for every patient with HFrEF"),
            Rec(
                "An ACE-I or an ARNI is recommended for patients with HFrEF to reduce the risk of HF hospitalization and death.",
                "I",
                "A",
            ),
            Rec(
                "A beta-blocker is recommended for patients with stable HFrEF to reduce the risk of HF hospitalization and death.\n(bisoprolol, carvedilol, metoprolol or nebivolol)",
                "I",
                "A",
            ),
            Rec(
                "An MRA (spironolactone or eplerenone) is recommended for patients with HFrEF to reduce the risk of HF hospitalization and death.",
                "I",
                "A",
            ),
            Rec(
                "Dapagliflozin or empagliflozin is recommended for patients with HFrEF to reduce the risk of HF hospitalization and death.",
                "I",
                "A",
            ),
            Rec(
                "Sacubitril/valsartan is recommended as a replacement for an ACE-I in patients with HFrEF who remain symptomatic despite an ACE-I, a beta-blocker and an MRA.",
                "I",
                "B",
            ),
            Section("Other therapies for selected patients"),
            Rec(
                "Loop diuretics are recommended in patients with HFrEF and congestion to improve symptoms and exercise capacity.",
                "I",
                "C",
            ),
            Rec(
                "Ivabradine should be considered in symptomatic patients with HFrEF in sinus rhythm with LVEF ≤35% and a resting heart rate ≥70 bpm despite a beta-blocker,\nto reduce HF hospitalization and cardiovascular death.",
                "IIa",
                "B",
            ),
            Rec(
                "Digoxin may be considered in patients with symptomatic HFrEF in sinus rhythm despite treatment with an ACE-I or an ARNI, a beta-blocker and an MRA, to reduce hospitalization.",
                "IIb",
                "B",
            ),
            Section("Therapies not recommended"),
            Rec(
                "Diltiazem or verapamil is not recommended in patients with HFrEF, as it increases the risk of worsening heart failure.",
                "III",
                "C",
            ),
            Rec(
                "Adding an ARB to the combination of an ACE-I and an MRA is not recommended in patients with HFrEF because of the risk of hyperkalaemia and renal dysfunction.",
                "III",
                "C",
            ),
        ],
        extra_footnotes=[
            (
                "c",
                "ACE-I = angiotensin-converting enzyme inhibitor; ARB = angiotensin receptor blocker; ARNI = angiotensin receptor–neprilysin inhibitor; HF = heart failure; HFrEF = heart failure with reduced ejection fraction; MRA = mineralocorticoid receptor antagonist.",
            ),
        ],
    ),
    Table(
        7,
        "Recommendations for implantable cardioverter-defibrillator and cardiac resynchronization therapy",
        [
            Section("Implantable cardioverter-defibrillator"),
            Rec(
                "An ICD is recommended in patients who survived cardiac arrest or sustained ventricular tachycardia, in the absence of a reversible cause, to reduce the risk of sudden death.",
                "I",
                "A",
            ),
            Rec(
                "An ICD is recommended in patients with ischaemic HF, NYHA class II or III and LVEF ≤35% despite optimized medical therapy, to reduce the risk of sudden death.",
                "I",
                "A",
            ),
            Rec(
                "An ICD should be considered in patients with non-ischaemic HF and LVEF ≤35% despite optimized medical therapy.",
                "IIa",
                "A",
            ),
            Rec(
                "ICD implantation is not recommended early after an acute myocardial infarction.",
                "III",
                "A",
            ),
            Section("Cardiac resynchronization therapy", marker="c"),
            Rec(
                "CRT is recommended in symptomatic patients with HF in sinus rhythm with QRS duration ≥150 ms, LBBB morphology and LVEF ≤35%\nto improve symptoms and reduce morbidity and mortality.",
                "I",
                "A",
            ),
            Rec(
                "CRT should be considered in symptomatic patients with HF in sinus rhythm with QRS duration 130–149 ms, LBBB morphology and LVEF ≤35%.",
                "IIa",
                "B",
            ),
            Rec(
                "CRT is not recommended in patients with QRS duration <130 ms without an indication for pacing.",
                "III",
                "A",
            ),
        ],
        extra_footnotes=[
            ("c", "QRS duration is measured on a surface 12-lead ECG."),
            (
                "d",
                "CRT = cardiac resynchronization therapy; ICD = implantable cardioverter-defibrillator; LBBB = left bundle branch block; NYHA = New York Heart Association.",
            ),
        ],
    ),
    Table(
        11,
        "Recommendations for the management of atrial fibrillation in patients with heart failure",
        [
            Section("Prevention of thromboembolism"),
            Rec(
                "Long-term OAC is recommended in patients with HF, AF and a CHA2DS2-VASc score ≥2 to reduce the risk of stroke.",
                "I",
                "A",
            ),
            Rec(
                "DOACs are recommended in preference to VKAs in patients with HF and AF without moderate-to-severe mitral stenosis or a mechanical heart valve.",
                "I",
                "A",
            ),
            Rec(
                "Left atrial appendage occlusion may be considered in patients with HF and AF who have a contraindication to long-term OAC.",
                "IIb",
                "B",
            ),
            Section("Rate and rhythm control"),
            Rec(
                "A beta-blocker should be considered for rate control in patients with HF and AF.",
                "IIa",
                "B",
            ),
            Rec(
                "In patients with HF and AF whose resting ventricular rate remains >110 bpm despite a beta-blocker, adding digoxin should be considered.",
                "IIa",
                "B",
            ),
            Rec(
                "Urgent electrical cardioversion is recommended in patients with HF and AF with rapid ventricular rate and haemodynamic instability.",
                "I",
                "C",
            ),
            Rec(
                "Catheter ablation should be considered in patients with HFrEF and paroxysmal or persistent AF to improve symptoms and reduce HF hospitalization.",
                "IIa",
                "B",
            ),
            Rec(
                "Dronedarone is not recommended for rhythm control in patients with HFrEF, as it increases mortality.",
                "III",
                "A",
            ),
            Rec("Flecainide is not recommended in patients with HF and LVEF ≤40%.", "III", "B"),
        ],
        extra_footnotes=[
            (
                "c",
                "AF = atrial fibrillation; CHA2DS2-VASc = stroke risk score; DOAC = direct oral anticoagulant; OAC = oral anticoagulation; VKA = vitamin K antagonist.",
            ),
        ],
    ),
    Table(
        13,
        "Recommendations for patients with heart failure and chronic kidney disease or diabetes",
        [
            Section("Patients with diabetes and CKD", marker="c"),
            Rec(
                "In patients with type 2 diabetes and CKD, an SGLT2 inhibitor (dapagliflozin or empagliflozin) is recommended to reduce the risk of HF hospitalization and cardiovascular death.",
                "I",
                "A",
            ),
            Rec(
                "In patients with type 2 diabetes and CKD with eGFR 30–60 mL/min/1.73 m², finerenone is recommended to reduce HF hospitalization.",
                "I",
                "A",
            ),
            Rec(
                "Starting an SGLT2 inhibitor is not recommended in patients with eGFR <20 mL/min/1.73 m².",
                "III",
                "C",
            ),
            Section("Renal function and potassium"),
            Rec(
                "In patients with HFrEF and eGFR ≥30 mL/min/1.73 m², an MRA is recommended to reduce HF hospitalization and death.",
                "I",
                "A",
            ),
            Rec(
                "Starting an MRA is not recommended when serum potassium is >5.0 mmol/L.",
                "III",
                "C",
            ),
            Rec(
                "Metformin should be considered in patients with HF and type 2 diabetes with eGFR ≥30 mL/min/1.73 m².",
                "IIa",
                "C",
            ),
        ],
        extra_footnotes=[
            ("c", "CKD defined as eGFR <60 mL/min/1.73 m² or persistent albuminuria."),
            (
                "d",
                "eGFR = estimated glomerular filtration rate; MRA = mineralocorticoid receptor antagonist; SGLT2 = sodium–glucose co-transporter 2.",
            ),
        ],
    ),
    Table(
        15,
        "Recommendations for patients with heart failure with mildly reduced or preserved ejection fraction",
        [
            Section("Heart failure with mildly reduced ejection fraction"),
            Rec(
                "An SGLT2 inhibitor (dapagliflozin or empagliflozin) is recommended in patients with HF and LVEF 41–49% to reduce the risk of HF hospitalization or cardiovascular death.",
                "I",
                "A",
            ),
            Rec(
                "An ACE-I, an ARB or an ARNI may be considered in patients with HF and LVEF 41–49% to reduce HF hospitalization and death.",
                "IIb",
                "C",
            ),
            Section("Heart failure with preserved ejection fraction"),
            Rec(
                "An SGLT2 inhibitor is recommended in patients with HF and LVEF ≥50% to reduce the risk of HF hospitalization or cardiovascular death.",
                "I",
                "A",
            ),
            Rec(
                "Diuretics are recommended in patients with HF, LVEF >40% and congestion to relieve symptoms.",
                "I",
                "C",
            ),
            Rec(
                "In patients with HF, LVEF ≥50% and hypertension, antihypertensive drugs should be considered to lower systolic blood pressure to <130 mmHg.",
                "IIa",
                "C",
            ),
        ],
        extra_footnotes=[
            ("c", "HF = heart failure; LVEF = left ventricular ejection fraction."),
        ],
    ),
]


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------


def _table_title(table: Table, continued: bool = False) -> str:
    suffix = " (continued)" if continued else ""
    return f"Table {table.number} {table.caption}{suffix}"


def _footnote_lines(table: Table) -> list[str]:
    return [f"{marker} {text}" for marker, text in table.footnotes]


def write_html(path: Path, title: str, tables: list[Table]) -> None:
    """ESC-like HTML: caption above, <sup> markers, colspan=3 section rows, <br> line breaks."""
    esc = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8"><title>' + esc(title) + "</title></head>",
        "<body>",
        f"<h1>{esc(title)}</h1>",
        "<p>Synthetic test material written by the CardioGuidelinesGraph team. Not clinical advice.</p>",
    ]
    for table in tables:
        out.append(f"<h2>{esc(table.caption)}</h2>")
        out.append("<table>")
        out.append(f"<caption>{esc(_table_title(table))}</caption>")
        out.append(
            "<thead><tr><th>Recommendations</th><th>Class<sup>a</sup></th>"
            "<th>Level<sup>b</sup></th></tr></thead>"
        )
        out.append("<tbody>")
        for row in table.rows:
            if isinstance(row, Section):
                marker = f"<sup>{row.marker}</sup>" if row.marker else ""
                out.append(f'<tr><td colspan="3"><b>{esc(row.text)}</b>{marker}</td></tr>')
            else:
                cell = "<br>".join(esc(line) for line in row.text.split("\n"))
                out.append(f"<tr><td>{cell}</td><td>{row.cls}</td><td>{row.level}</td></tr>")
        out.append("</tbody>")
        out.append("</table>")
        out.append('<div class="table-footnotes">')
        for marker, text in table.footnotes:
            out.append(f"<p><sup>{marker}</sup>{esc(text)}</p>")
        out.append("</div>")
    out += ["</body>", "</html>", ""]
    path.write_text("\n".join(out), encoding="utf-8")


def write_markdown(path: Path, title: str, tables: list[Table]) -> None:
    """GitHub-flavoured Markdown: 'Class a' header markers, bold section rows, <br> breaks."""
    out = [
        f"# {title}",
        "",
        "Synthetic test material written by the CardioGuidelinesGraph team. Not clinical advice.",
        "",
    ]
    for table in tables:
        out += [f"## {table.caption}", "", _table_title(table), ""]
        out.append("| Recommendations | Class a | Level b |")
        out.append("|---|---|---|")
        for row in table.rows:
            if isinstance(row, Section):
                marker = f" {row.marker}" if row.marker else ""
                out.append(f"| **{row.text}**{marker} |  |  |")
            else:
                cell = "<br>".join(row.text.split("\n"))
                out.append(f"| {cell} | {row.cls} | {row.level} |")
        out.append("")
        for line in _footnote_lines(table):
            out += [line, ""]
    path.write_text("\n".join(out), encoding="utf-8")


def write_docx(path: Path, title: str, tables: list[Table]) -> None:
    """DOCX: superscript runs for markers, merged cells for section rows, line breaks in cells."""
    import docx  # python-docx (dev dependency); imported here so the content is importable alone
    from docx.shared import Pt

    document = docx.Document()
    # A fixed core-properties date keeps rebuilds byte-stable enough to review diffs.
    import datetime as _dt

    fixed = _dt.datetime(2024, 1, 1, tzinfo=_dt.UTC)
    document.core_properties.created = fixed
    document.core_properties.modified = fixed
    document.core_properties.author = "CardioGuidelinesGraph team"
    document.core_properties.title = title

    document.add_heading(title, level=1)
    document.add_paragraph(
        "Synthetic test material written by the CardioGuidelinesGraph team. Not clinical advice."
    )
    for table in tables:
        document.add_heading(table.caption, level=2)
        document.add_paragraph(_table_title(table))
        grid = document.add_table(rows=1, cols=3)
        grid.style = "Table Grid"
        header = grid.rows[0].cells
        header[0].paragraphs[0].add_run("Recommendations").bold = True
        for cell, label, marker in ((header[1], "Class", "a"), (header[2], "Level", "b")):
            para = cell.paragraphs[0]
            para.add_run(label).bold = True
            sup = para.add_run(marker)
            sup.font.superscript = True
        for row in table.rows:
            cells = grid.add_row().cells
            if isinstance(row, Section):
                merged = cells[0].merge(cells[1]).merge(cells[2])
                para = merged.paragraphs[0]
                para.add_run(row.text).bold = True
                if row.marker:
                    para.add_run(row.marker).font.superscript = True
            else:
                para = cells[0].paragraphs[0]
                lines = row.text.split("\n")
                for i, line in enumerate(lines):
                    run = para.add_run(line)
                    if i < len(lines) - 1:
                        run.add_break()
                cells[1].paragraphs[0].add_run(row.cls)
                cells[2].paragraphs[0].add_run(row.level)
        for marker, text in table.footnotes:
            para = document.add_paragraph()
            sup = para.add_run(marker)
            sup.font.superscript = True
            run = para.add_run(" " + text)
            run.font.size = Pt(8)
    document.save(str(path))


def write_docling_json(path: Path, title: str, table: Table) -> None:
    """A genuine DoclingDocument with the table split into two pieces on pages 62 and 63.

    This mirrors what Docling emits for a PDF table running over a page break: two
    TableItems with identical column-header rows; the second caption says "(continued)"
    and only the second piece carries the footnotes.
    """
    from docling_core.types.doc import (
        BoundingBox,
        CoordOrigin,
        DocItemLabel,
        DoclingDocument,
        ProvenanceItem,
        Size,
        TableCell,
        TableData,
    )

    assert table.page_break_after is not None, "the Docling JSON table needs a page break"
    doc = DoclingDocument(name="ccs-sample-revascularization")
    page_w, page_h = 595.0, 842.0
    for page in (62, 63):
        doc.add_page(page_no=page, size=Size(width=page_w, height=page_h))

    def prov(page: int, top: float, bottom: float, text: str) -> ProvenanceItem:
        return ProvenanceItem(
            page_no=page,
            bbox=BoundingBox(l=56.0, t=top, r=539.0, b=bottom, coord_origin=CoordOrigin.TOPLEFT),
            charspan=(0, len(text)),
        )

    def piece(rows: list[Section | Rec], page: int, continued: bool, top: float) -> None:
        caption_text = _table_title(table, continued=continued)
        caption = doc.add_text(
            label=DocItemLabel.CAPTION,
            text=caption_text,
            prov=prov(page, top, top + 14, caption_text),
        )
        row_h = 30.0
        cells: list[TableCell] = []
        header = ["Recommendations", "Class a", "Level b"]
        for col, text in enumerate(header):
            cells.append(
                TableCell(
                    text=text,
                    start_row_offset_idx=0,
                    end_row_offset_idx=1,
                    start_col_offset_idx=col,
                    end_col_offset_idx=col + 1,
                    column_header=True,
                )
            )
        for r, row in enumerate(rows, start=1):
            if isinstance(row, Section):
                text = row.text + (f" {row.marker}" if row.marker else "")
                cells.append(
                    TableCell(
                        text=text,
                        row_span=1,
                        col_span=3,
                        start_row_offset_idx=r,
                        end_row_offset_idx=r + 1,
                        start_col_offset_idx=0,
                        end_col_offset_idx=3,
                        row_section=True,
                    )
                )
                continue
            for col, text in enumerate((row.text.replace("\n", " "), row.cls, row.level)):
                cells.append(
                    TableCell(
                        text=text,
                        start_row_offset_idx=r,
                        end_row_offset_idx=r + 1,
                        start_col_offset_idx=col,
                        end_col_offset_idx=col + 1,
                    )
                )
        data = TableData(num_rows=len(rows) + 1, num_cols=3, table_cells=cells)
        table_top = top + 20
        table_bottom = min(page_h - 40, table_top + row_h * (len(rows) + 1))
        item = doc.add_table(
            data=data,
            caption=caption,
            prov=prov(page, table_top, table_bottom, caption_text),
        )
        if continued:
            y = table_bottom + 6
            for marker, text in table.footnotes:
                line = f"{marker} {text}"
                note = doc.add_text(
                    label=DocItemLabel.FOOTNOTE, text=line, prov=prov(page, y, y + 10, line)
                )
                item.footnotes.append(note.get_ref())
                y += 12

    doc.add_heading(title, level=1, prov=prov(62, 40, 60, title))
    first, second = table.rows[: table.page_break_after], table.rows[table.page_break_after :]
    piece(first, 62, continued=False, top=480.0)
    piece(second, 63, continued=True, top=60.0)
    doc.save_as_json(path)


def main() -> None:
    ccs_dir = HERE / "ccs-sample"
    hf_dir = HERE / "hf-sample"
    ccs_dir.mkdir(exist_ok=True)
    hf_dir.mkdir(exist_ok=True)
    write_html(ccs_dir / "ccs-sample.html", CCS_TITLE, CCS_TABLES)
    revasc = next(t for t in CCS_TABLES if t.page_break_after is not None)
    write_docling_json(ccs_dir / "ccs-sample-revascularization_62_63.json", CCS_TITLE, revasc)
    write_markdown(hf_dir / "hf-sample.md", HF_TITLE, HF_TABLES)
    write_docx(hf_dir / "hf-sample.docx", HF_TITLE, HF_TABLES)
    for name, tables in (("ccs-sample", CCS_TABLES), ("hf-sample", HF_TABLES)):
        counts = ", ".join(str(len(t.recommendations)) for t in tables)
        total = sum(len(t.recommendations) for t in tables)
        print(f"{name}: {len(tables)} tables, rows per table [{counts}], {total} rows")


if __name__ == "__main__":
    main()
