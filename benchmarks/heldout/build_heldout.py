"""Held-out check rows for the lexicon backend (written and annotated by the lexicon author
BEFORE the first run, in the format of data/gold/gold.jsonl, following
data/gold/ANNOTATION_GUIDELINES.md). Synthetic sentences in our own words; not clinical advice.

    .venv/bin/python benchmarks/heldout/build_heldout.py   # writes heldout_gold.jsonl

Concept spec: "Role|text|normalized|extras" with extras op=, thr=, unit=, or=, neg, purpose;
normalized "=" means the lower-case text.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

ROWS = [
    ("Cardiac rehabilitation is recommended in patients after an acute coronary syndrome to reduce cardiovascular mortality.", "I", "A",
     ["Procedure|Cardiac rehabilitation|=", "Condition|acute coronary syndrome|=", "Outcome|cardiovascular mortality|="],
     ["cardiac rehabilitation"]),
    ("In patients with HFpEF and atrial fibrillation, catheter ablation may be considered to improve symptoms.", "IIb", "C",
     ["Condition|HFpEF|heart failure with preserved ejection fraction", "Condition|atrial fibrillation|=",
      "Procedure|catheter ablation|=", "Outcome|symptoms|symptom"],
     ["catheter ablation"]),
    ("Routine statin therapy is not recommended in patients with HFrEF without CAD.", "III", "A",
     ["Medication|statin|=", "Condition|HFrEF|heart failure with reduced ejection fraction", "Condition|CAD|coronary artery disease|neg"],
     ["statin"]),
    ("It is recommended that patients with symptomatic severe aortic stenosis undergo aortic valve replacement.", "I", "B",
     ["Condition|symptomatic|=", "Condition|severe aortic stenosis|=", "Procedure|aortic valve replacement|="],
     ["aortic valve replacement"]),
    ("Among patients with type 2 diabetes and CAD, an SGLT2 inhibitor or a GLP-1 receptor agonist should be considered to reduce cardiovascular events.", "IIa", "B",
     ["Condition|type 2 diabetes|=", "Condition|CAD|coronary artery disease",
      "Medication|SGLT2 inhibitor|sodium glucose cotransporter 2 inhibitor|or=g1", "Medication|GLP-1 receptor agonist|=|or=g1",
      "Outcome|cardiovascular events|cardiovascular event"],
     ["sodium glucose cotransporter 2 inhibitor", "glp-1 receptor agonist"]),
    ("Ticagrelor is recommended over clopidogrel in patients with NSTEMI undergoing PCI.", "I", "B",
     ["Medication|Ticagrelor|=", "Medication|clopidogrel|=", "Condition|NSTEMI|non-st segment elevation myocardial infarction",
      "Procedure|PCI|percutaneous coronary intervention"],
     ["ticagrelor"]),
    ("Ezetimibe should be considered in patients with CAD whose LDL-C is above 1.4 mmol/L despite a maximally tolerated statin.", "IIa", "B",
     ["Medication|Ezetimibe|=", "Condition|CAD|coronary artery disease",
      "ClinicalParameter|LDL-C|low density lipoprotein cholesterol|op=>|thr=1.4|unit=mmol/L", "Medication|statin|="],
     ["ezetimibe"]),
    ("In patients with hypertrophic cardiomyopathy and an LVOT gradient of 50 mmHg or more, septal reduction therapy should be considered.", "IIa", "C",
     ["Condition|hypertrophic cardiomyopathy|=", "ClinicalParameter|LVOT gradient|lvot gradient|op=>=|thr=50|unit=mmHg",
      "Procedure|septal reduction therapy|="],
     ["septal reduction therapy"]),
    ("Beta-blockers or non-dihydropyridine calcium channel blockers are recommended for rate control in patients with AF and LVEF >40%.", "I", "B",
     ["Medication|Beta-blockers|beta-blocker|or=g1", "Medication|non-dihydropyridine calcium channel blockers|non-dihydropyridine calcium channel blocker|or=g1",
      "Condition|AF|atrial fibrillation", "ClinicalParameter|LVEF|left ventricular ejection fraction|op=>|thr=40|unit=%"],
     ["beta-blocker", "non-dihydropyridine calcium channel blocker"]),
    ("Anticoagulation with a VKA is recommended in patients with AF and a mechanical heart valve.", "I", "B",
     ["Medication|VKA|vitamin k antagonist", "Condition|AF|atrial fibrillation", "Condition|mechanical heart valve|="],
     ["vitamin k antagonist"]),
    ("Pacemaker implantation is recommended in patients with symptomatic sinus node dysfunction.", "I", "B",
     ["Procedure|Pacemaker implantation|=", "Condition|symptomatic|=", "Condition|sinus node dysfunction|="],
     ["pacemaker implantation"]),
    ("Dronedarone should not be used in patients with permanent AF and heart failure.", "III", "B",
     ["Medication|Dronedarone|=", "Condition|permanent AF|permanent atrial fibrillation", "Condition|heart failure|="],
     ["dronedarone"]),
    ("In patients with AF and an eGFR of 15–29 mL/min/1.73 m², apixaban may be considered.", "IIb", "B",
     ["Condition|AF|atrial fibrillation", "ClinicalParameter|eGFR|estimated glomerular filtration rate|op=between|thr=15,29|unit=mL/min/1.73 m²",
      "Medication|apixaban|="],
     ["apixaban"]),
    ("Invasive coronary angiography should be considered in patients with new-onset HF and suspected CAD.", "IIa", "C",
     ["Procedure|Invasive coronary angiography|=", "Condition|new-onset HF|new-onset heart failure",
      "Condition|suspected CAD|suspected coronary artery disease"],
     ["invasive coronary angiography"]),
    ("Aspirin is not recommended in individuals without diabetes or CAD.", "III", "A",
     ["Medication|Aspirin|=", "Condition|diabetes|=|neg", "Condition|CAD|coronary artery disease|neg"],
     ["aspirin"]),
    ("Colchicine may be considered in patients with recurrent pericarditis despite NSAIDs.", "IIb", "B",
     ["Medication|Colchicine|=", "Condition|recurrent pericarditis|=", "Medication|NSAIDs|nsaid"],
     ["colchicine"]),
    ("An ICD is recommended in patients with dilated cardiomyopathy and LVEF ≤35% who are in NYHA class II or III.", "I", "B",
     ["Procedure|ICD|implantable cardioverter defibrillator", "Condition|dilated cardiomyopathy|=",
      "ClinicalParameter|LVEF|left ventricular ejection fraction|op=<=|thr=35|unit=%",
      "Condition|NYHA class II|new york heart association class ii|or=g1", "Condition|III|new york heart association class iii|or=g1"],
     ["implantable cardioverter defibrillator"]),
    ("Amiodarone should be considered in patients with HFrEF and symptomatic AF to reduce AF recurrence.", "IIa", "B",
     ["Medication|Amiodarone|=", "Condition|HFrEF|heart failure with reduced ejection fraction", "Condition|symptomatic|=",
      "Condition|AF|atrial fibrillation", "Outcome|AF recurrence|atrial fibrillation recurrence"],
     ["amiodarone"]),
    ("Smoking cessation is recommended in all patients with CCS.", "I", "A",
     ["Procedure|Smoking cessation|=", "Condition|CCS|chronic coronary syndrome"],
     ["smoking cessation"]),
    ("MRAs should be discontinued in patients with HFrEF when serum potassium exceeds 5.5 mmol/L.", "I", "C",
     ["Medication|MRAs|mineralocorticoid receptor antagonist", "Condition|HFrEF|heart failure with reduced ejection fraction",
      "ClinicalParameter|serum potassium|=|op=>|thr=5.5|unit=mmol/L"],
     ["mineralocorticoid receptor antagonist"]),
]  # fmt: skip


def concept(spec: str) -> dict:
    role, text, normalized, *extras = spec.split("|")
    out = {
        "role": role, "text": text, "normalized": text.lower() if normalized == "=" else normalized,
        "operator": None, "threshold": None, "unit": None, "or_group": None, "negated": False,
        "snomed_id": None, "fsn": None,
    }  # fmt: skip
    purpose = False
    for extra in extras:
        if extra == "neg":
            out["negated"] = True
        elif extra == "purpose":
            purpose = True
        else:
            key, value = extra.split("=", 1)
            if key == "op":
                out["operator"] = value
            elif key == "thr":
                parts = [float(v) for v in value.split(",")]
                out["threshold"] = parts if len(parts) == 2 else parts[0]
            elif key == "unit":
                out["unit"] = value
            elif key == "or":
                out["or_group"] = value
    out["_purpose"] = purpose
    return out


def main() -> None:
    lines = []
    for text, klass, level, specs, actions in ROWS:
        concepts = [concept(s) for s in specs]
        by_norm = {c["normalized"]: c for c in concepts}
        population = [
            c["normalized"]
            for c in concepts
            if c["role"] == "Condition"
            and not c["negated"]
            and not c["or_group"]
            and not c["_purpose"]
        ]
        for c in concepts:
            del c["_purpose"]
        polarity = "not recommended" if klass == "III" else "recommended"
        lines.append(
            {
                "id": "",
                "guideline": "heldout",
                "table_caption": "Held-out rows",
                "row_text": text,
                "class": klass,
                "level": level,
                "concepts": concepts,
                "actions": [
                    {
                        "text": by_norm[a]["text"],
                        "normalized": a,
                        "role": by_norm[a]["role"],
                        "class": klass,
                        "level": level,
                        "polarity": polarity,
                    }
                    for a in actions
                ],  # fmt: skip
                "population": population,
            }
        )
    (HERE / "heldout_gold.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    print(f"{len(lines)} rows -> {HERE / 'heldout_gold.jsonl'}")


if __name__ == "__main__":
    main()
