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
    """Rows write abbreviations in the plural ("recurrent VTs"); the expander reads the
    plural, so the row must carry that definition too, else "VTs" stays unexpanded."""
    definitions = abbreviation_definitions(LIST)
    assert used_in("Ablation is advised for recurrent VTs.", definitions) == {
        "VT": "ventricular tachycardia"
    }
    assert used_in("In AF-related stroke and VTach", definitions) == {}  # not a word of its own
