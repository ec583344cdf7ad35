"""The abbreviation list a guideline prints under its tables, and which of its definitions a
row uses (cardio_assets/logic/abbreviation_lists.py). Lists in the team's own words."""

from __future__ import annotations

from cardio_assets.logic.abbreviation_lists import abbreviation_definitions, used_in

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
