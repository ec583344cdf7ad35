"""The abbreviation list a guideline prints under its tables, and which of its definitions a
row uses (cardio_assets/logic/abbreviation_lists.py). Lists in the team's own words."""

from __future__ import annotations

from cardio_assets.logic.abbreviation_lists import (
    abbreviation_definitions,
    glossary_definitions,
    used_in,
)

LIST = "AF, atrial fibrillation; VT, ventricular tachycardia; LVEF, left ventricular ejection fraction."


def test_a_printed_list_is_read_as_definitions() -> None:
    """Guidelines print "ABBR, expansion; ..." under a table; ordinary prose with one comma
    is no list."""
    assert abbreviation_definitions(LIST) == {
        "AF": "atrial fibrillation",
        "VT": "ventricular tachycardia",
        "LVEF": "left ventricular ejection fraction",
    }
    assert abbreviation_definitions("In AF, anticoagulation is advised.") == {}


def test_a_row_uses_a_definition_in_the_plural_too() -> None:
    """Rows write abbreviations in the plural ("recurrent VTs") and before a hyphenated word
    ("AF-related"); the expander reads both, so the row must carry those definitions too."""
    definitions = abbreviation_definitions(LIST)
    assert used_in("Ablation is advised for recurrent VTs.", definitions) == {
        "VT": "ventricular tachycardia"
    }
    assert used_in("AF-related stroke", definitions) == {"AF": "atrial fibrillation"}
    # a hyphen that continues the abbreviation makes another one: "LDL" is not in "LDL-C"
    assert used_in("an LDL-C target", {"LDL": "low-density lipoprotein"}) == {}


def test_an_abbreviation_before_a_hyphenated_word_is_expanded() -> None:
    """ "AF-related stroke" and "PE-unlikely" use the abbreviation as a word; "LDL-C" and
    "CRT-P" are abbreviations of their own and are never read as "LDL" or "CRT"."""
    from cardio_assets.logic.abbreviations import Abbreviations

    abbreviations = Abbreviations(
        {"AF": "atrial fibrillation", "LDL": "low-density lipoprotein", "CRT": "cardiac therapy"}
    )
    assert abbreviations.normalize("AF-related stroke") == "atrial fibrillation-related stroke"
    assert abbreviations.normalize("LDL-C target") == "ldl-c target"
    assert abbreviations.normalize("CRT-P") == "crt-p"


def test_the_shared_list_expands_tests_and_anatomy_tables_leave_unexplained() -> None:
    """Tables use abbreviations of tests, devices and anatomy that their guideline defines
    pages away (or not at all); the shared list holds the unambiguous ones, so a row's
    "iwFR" or "ABPM" is searched in the terminology by its name."""
    from pathlib import Path

    from cardio_assets.config import load_abbreviations

    shared = load_abbreviations(
        Path(__file__).resolve().parent.parent / "configs" / "abbreviations.txt"
    )
    assert shared.normalize("iwFR or ABPM") == (
        "instantaneous wave-free ratio or ambulatory blood pressure monitoring"
    )
    assert shared.normalize("a 6MWT in PPCM") == "a 6-minute walk test in peripartum cardiomyopathy"


def test_a_glossary_printed_as_a_run_of_entries_is_read_entry_by_entry() -> None:
    """A guideline's own glossary ("Abbreviations and acronyms") comes out of the converter
    as "ABBR Expansion" entries run together in one paragraph. An entry starts at an
    abbreviation followed by a capital or a number; an abbreviation inside an expansion
    ("non-ST-elevation acute ...") is followed by a lower-case word and starts none."""
    found = glossary_definitions(
        [
            "AVB Atrioventricular block NSTE-ACS Non-ST-elevation acute coronary syndrome "
            "2hPG 2 h plasma glucose",
            "GLP-1 RA Glucagon-like peptide-1 receptor agonist",
            "ToF Tetralogy of Fallot",
        ]
    )
    assert found == {
        "AVB": "atrioventricular block",
        "NSTE-ACS": "non-ST-elevation acute coronary syndrome",
        "2hPG": "2 h plasma glucose",
        "GLP-1 RA": "glucagon-like peptide-1 receptor agonist",  # two words, one abbreviation
        "ToF": "Tetralogy of Fallot",  # a proper name keeps its capital
    }


def test_a_glossary_printed_in_lower_case_is_read_too() -> None:
    """Some glossaries write expansions in lower case ("ECG electrocardiogram"); there an
    entry starts at an upper-case abbreviation before a plain word."""
    assert glossary_definitions(
        ["ECG electrocardiogram CRP C-reactive protein MRI magnetic resonance imaging"]
    ) == {
        "ECG": "electrocardiogram",
        "CRP": "C-reactive protein",
        "MRI": "magnetic resonance imaging",
    }


def test_glossary_entries_that_do_not_spell_their_abbreviation_are_left_out() -> None:
    """An entry whose expansion does not contain the abbreviation's letters in order, the
    first opening it, is a misreading (a trial's words run in); the expansion stops where
    the next abbreviation or an aside starts. Trial, score and society names (capitalised
    throughout) are names already: their abbreviation is what rows use. Class labels and
    "OR" are never abbreviations of a row."""
    found = glossary_definitions(
        [
            "PCI trial results ICD Implantable cardioverter defibrillator HV His-ventricular "
            "interval (from the H wave to the V wave) BP Blood pressure h.r.v. Heart rate variability",
            "TRIAL Test of Rate In Atrial Lesions OR Odds ratio II Second",
        ]
    )
    assert found == {
        "ICD": "implantable cardioverter defibrillator",
        "HV": "his-ventricular interval",
        "BP": "blood pressure",
    }


def test_diabetes_written_alone_has_the_name_its_abbreviation_has() -> None:
    """ "DM" expands to diabetes mellitus, so the word written alone ("patients with
    diabetes", "type 2 diabetes") takes that name too: one disease, one name in the graph
    and in the population. Diabetes insipidus and a named score keep their words."""
    from cardio_assets.logic.abbreviations import Abbreviations

    words = Abbreviations({"DM": "diabetes mellitus"})
    assert words.normalize("Diabetes") == words.normalize("DM") == "diabetes mellitus"
    assert words.normalize("type 2 diabetes") == "type 2 diabetes mellitus"
    assert words.normalize("diabetes mellitus") == "diabetes mellitus"
    assert words.normalize("diabetes insipidus") == "diabetes insipidus"
    assert words.normalize("SCORE2-Diabetes") == "score2-diabetes"


def test_a_dash_the_converter_lost_in_an_expansion_is_restored() -> None:
    """The converter prints some dashes as the replacement character ("Renin�angiotensin
    system"); between two words' letters it was their dash, so an expansion names the
    concept as the rows print it (with an en dash), in a glossary and in a table's list."""
    glossary = glossary_definitions(["RAS Renin\ufffdangiotensin system RV Right ventricle"])
    assert glossary["RAS"] == "renin–angiotensin system"
    listed = abbreviation_definitions("RAS, renin\ufffdangiotensin system; RV, right ventricle.")
    assert listed["RAS"] == "renin–angiotensin system"
