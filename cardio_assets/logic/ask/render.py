"""Plain-text rendering of an Answer, laid out to be checked against the source rows.

Order: the patient as read (every fact with what it was grounded to, problems first),
then applicable, possibly applicable, excluded; in each, Class III "not recommended"
warnings first, then I, IIa, IIb. Every answer ends with its evidence: guideline, table,
row, pages and the row text verbatim.
"""

from __future__ import annotations

import textwrap

from cardio_assets.logic.ask.answer import Answer, AnswerItem, BranchView, FactView

_MARK = {"true": "[+]", "false": "[-]", "unknown": "[?]"}
WIDTH = 100


def _wrap(text: str, indent: str, width: int = WIDTH) -> list[str]:
    return textwrap.wrap(
        text, width=width, initial_indent=indent, subsequent_indent=indent + "  "
    ) or [indent]


def _fact_line(f: FactView) -> str:
    mark = {"present": "+", "absent": "-", "measured": "="}.get(f.status, "?")
    if f.snomed_id:
        grounded = f"SNOMED CT {f.snomed_id} |{f.preferred_term}| ({f.grounded_by}"
        grounded += f", score {f.score:.2f})" if f.score is not None else ")"
    else:
        grounded = {
            "derived": "derived (no SNOMED CT concept; matched by name)",
            "loinc name": "LOINC code of configs/ask.yaml (matched by name)",
            "code": "known code (matched by name)",
        }.get(f.grounded_by, "UNGROUNDED (matched by name only)")
    note = f"  [{f.note}]" if f.note else ""
    return f"  {mark} {f.label:<38} {f.source:<28} -> {grounded}{note}"


def _branch(view: BranchView, indent: str) -> list[str]:
    lines = [f"{indent}{_MARK[view.value]} {view.op}"]
    for t in view.tests:
        lines += _wrap(f"{_MARK[t.value]} {t.test}  <{t.concept}>", indent + "    ")
        lines += _wrap(f"{t.because}", indent + "        ")
        if t.decide:
            lines += _wrap(f"would decide: {t.decide}", indent + "        ")
    for b in view.branches:
        lines += _branch(b, indent + "    ")
    return lines


def _item(item: AnswerItem) -> list[str]:
    head = "NOT RECOMMENDED" if item.warning else "RECOMMENDED"
    cls = f"Class {item.class_ or '?'}, level {item.level or '?'}"
    actions = []
    for a in item.actions:
        code = f" [SNOMED CT {a.snomed_id} |{a.preferred_term}|]" if a.snomed_id else " [unmapped]"
        actions.append(a.name + code)
    lines = _wrap(f"* {head} ({cls}): {'; '.join(actions) or '(no action extracted)'}", "  ")
    for a in item.actions:
        if a.patient_has:
            flag = "WARNING" if item.warning else "note"
            lines += _wrap(f"{flag} ({a.name}): {a.patient_has}", "      ")
    lines.append(f"      rule {item.rule_id}")
    if item.logic is not None:
        lines.append("      logic:")
        lines += _branch(item.logic, "        ")
    if item.missing:
        lines += _wrap("missing: " + " | ".join(item.missing), "      ")
    if item.contradicted:
        lines += _wrap("contradicted by: " + " | ".join(item.contradicted), "      ")
    if item.weaker_matches:
        lines += _wrap(f"weaker (name) matches: {len(item.weaker_matches)}", "      ")
    ev = item.evidence
    table = ev.table_title or ev.table_id
    pages = ", ".join(str(p) for p in ev.pages) or "unknown"
    row = ev.row_index if ev.row_index is not None else ev.row_id
    lines += _wrap(
        f"evidence: {ev.guideline} | {table} ({ev.table_id}) | row {row} | pages {pages}"
        + (f" | section: {ev.section}" if ev.section else ""),
        "      ",
    )
    lines += _wrap(f'"{ev.text}"', "        ")
    return lines


def render_text(answer: Answer) -> str:
    p = answer.patient
    who = [p.patient_id or "(no id)", p.sex or "sex unknown"]
    if p.age is not None:
        born = f", born {p.birth_date}" if p.birth_date else ""
        who.append(f"{p.age:g} years (on {p.as_of}{born})")
    fmt = "FHIR R4 Bundle" if p.format == "fhir-r4" else "small form"
    out = [
        f"Patient {', '.join(who)}",
        f"  from {p.source_file} ({fmt}); engine: {answer.engine}; guidelines: "
        + (", ".join(answer.guidelines) or "(none loaded)"),
        "",
        "Facts as read and grounded (+ present, - absent, = measured):",
    ]
    out += [_fact_line(f) for f in answer.facts + answer.measurements] or ["  (none)"]
    if answer.problems:
        out += ["", "Input problems:"]
        for prob in answer.problems:
            out += _wrap(f"! {prob.where}: {prob.message}", "  ")
    if answer.not_counted:
        out += ["", "Read but not counted:"]
        out += [f"  - {x}" for x in answer.not_counted]
    groups = (
        ("APPLICABLE (the rule's logic is true)", answer.applicable),
        ("POSSIBLY APPLICABLE (facts missing)", answer.possibly_applicable),
        ("EXCLUDED (a fact contradicts the rule)", answer.excluded),
    )
    for title, items in groups:
        out += ["", f"{title}: {len(items)}"]
        for item in items:
            out += _item(item)
    out.append("")
    out.append(
        "Synthetic sample guidelines are test material, not clinical advice; check each "
        "answer against its row."
    )
    return "\n".join(out) + "\n"
