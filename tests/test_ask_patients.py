"""cardio ask: reading patients, and every kind of bad input named, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardio_assets.cli import main
from cardio_assets.logic.ask.facts import PatientTerminology
from cardio_assets.logic.patients import PatientFileError, load_patient, parse_patient
from tests.ask_helpers import AS_OF, bundle_patient, condition, form_patient, observation

PATIENTS = Path(__file__).resolve().parent.parent / "data" / "patients"


@pytest.fixture(scope="module")
def terms() -> PatientTerminology:
    return PatientTerminology.open()


def _write(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "patient.json"
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", sorted(PATIENTS.glob("*.json")), ids=lambda p: p.name)
def test_every_example_patient_loads_and_grounds(path: Path, terms: PatientTerminology) -> None:
    from cardio_assets.logic.ask.facts import resolve_patient

    patient = load_patient(path, as_of=AS_OF)
    ctx = resolve_patient(patient, terms)
    assert ctx.facts or ctx.measurements
    assert not [p for p in ctx.problems if p.severity == "error"], ctx.problems


def test_not_json(tmp_path: Path) -> None:
    with pytest.raises(PatientFileError, match=r"not JSON \(line 1, column 12"):
        load_patient(_write(tmp_path, '{"age": 70,, }'))


def test_not_an_object_and_not_a_bundle(tmp_path: Path) -> None:
    with pytest.raises(PatientFileError, match="expected a JSON object"):
        load_patient(_write(tmp_path, "[1, 2]"))
    with pytest.raises(PatientFileError, match="resourceType 'Patient'.*Bundle"):
        load_patient(_write(tmp_path, '{"resourceType": "Patient", "id": "x"}'))


def test_stu3_bundle_is_not_r4() -> None:
    stu3 = {
        "resourceType": "Bundle",
        "type": "collection",
        "entry": [
            {
                "resource": {
                    "resourceType": "Condition",
                    "id": "c1",
                    "clinicalStatus": "active",  # STU3: a code; R4: a CodeableConcept
                    "verificationStatus": "confirmed",
                    "code": {"text": "heart failure"},
                    "subject": {"reference": "Patient/p"},
                }
            }
        ],
    }
    with pytest.raises(
        PatientFileError, match=r"not a FHIR R4 Bundle.*Condition/c1.*clinicalStatus"
    ):
        parse_patient(stu3, "stu3.json", as_of=AS_OF)


def test_an_r5_entry_is_named_and_the_rest_is_used(terms: PatientTerminology) -> None:
    r5_statement = {
        "resourceType": "MedicationStatement",
        "id": "m5",
        "status": "recorded",
        "medication": {"concept": {"text": "aspirin"}},  # R5 CodeableReference
        "subject": {"reference": "Patient/p"},
    }
    ctx = bundle_patient(terms, condition("hf", "84114007"), r5_statement)
    assert [f.source for f in ctx.facts] == ["Condition/hf"]
    problem = next(p for p in ctx.problems if p.where == "MedicationStatement/m5")
    assert "not valid FHIR R4" in problem.message and "medication" in problem.message


def test_form_schema_errors_name_the_field() -> None:
    bad = {"age": 70, "parameters": [{"name": "LVEF", "unit": "%"}], "smoker": True}
    with pytest.raises(PatientFileError) as info:
        parse_patient(bad, "form.json", as_of=AS_OF)
    message = str(info.value)
    assert "parameters[0]" in message and "'value' is a required property" in message
    assert "smoker" in message


def test_empty_patients(terms: PatientTerminology) -> None:
    ctx = form_patient(terms)
    assert any("no facts" in p.message for p in ctx.problems)
    ctx = bundle_patient(terms)
    assert any("no Patient resource" in p.message for p in ctx.problems)


def test_unknown_code_is_an_ungrounded_fact(terms: PatientTerminology) -> None:
    ctx = bundle_patient(terms, condition("odd", "999999999999"))
    fact = ctx.facts[0]
    assert fact.how == "ungrounded" and fact.source == "Condition/odd"
    problem = next(p for p in ctx.problems if p.where == "Condition/odd")
    assert "999999999999 is not in the terminology store" in problem.message
    assert ctx.ungrounded() == [fact]


def test_values_without_units_and_unknown_units(terms: PatientTerminology) -> None:
    ctx = bundle_patient(
        terms,
        observation("no-unit", "10230-1", 30, None, None, "2026-01-01"),
        observation("odd-unit", "13457-7", 70, "furlongs", "[fur_us]x", "2026-01-01"),
    )
    by_source = {m.source: m for m in ctx.measurements}
    assert by_source["Observation/no-unit"].unit_problem == "no unit given"
    assert any(
        p.where == "Observation/no-unit" and "has no unit" in p.message for p in ctx.problems
    )
    assert any(
        p.where == "Observation/odd-unit" and "unknown unit" in p.message for p in ctx.problems
    )


def test_two_values_on_one_date_are_contradictory(terms: PatientTerminology) -> None:
    ctx = bundle_patient(
        terms,
        observation("a", "10230-1", 30, "%", "%", "2026-01-01"),
        observation("b", "10230-1", 45, "%", "%", "2026-01-01"),
        observation("old", "10230-1", 50, "%", "%", "2025-01-01"),
    )
    assert not ctx.measurements
    problem = next(p for p in ctx.problems if "contradictory values" in p.message)
    assert problem.where == "Observation/a and Observation/b" and problem.severity == "error"


def test_latest_value_wins(terms: PatientTerminology) -> None:
    ctx = bundle_patient(
        terms,
        observation("old", "10230-1", 50, "%", "%", "2025-01-01"),
        observation("new", "10230-1", 30, "%", "%", "2026-01-01"),
    )
    assert [m.source for m in ctx.measurements] == ["Observation/new"]


def test_present_and_refuted_is_contradictory(terms: PatientTerminology) -> None:
    ctx = bundle_patient(
        terms,
        condition("hf", "84114007"),
        condition("hf-no", "84114007", clinical=None, verification="refuted"),
    )
    assert not ctx.facts
    problem = next(p for p in ctx.problems if "both present and absent" in p.message)
    assert problem.where == "Condition/hf and Condition/hf-no"


def test_age_contradicting_birth_date(terms: PatientTerminology) -> None:
    ctx = form_patient(terms, age=50, birth_date="1950-01-01")
    assert ctx.patient.age == 76
    assert any(p.where == "age" and p.severity == "error" for p in ctx.problems)


def test_cli_bad_input_is_one_error_line(tmp_path: Path) -> None:
    runner = CliRunner()
    for content, expected in (
        ("not json", "not JSON"),
        ('{"resourceType": "Bundle", "type": "collection", "entry": [{"resource": '
         '{"resourceType": "Condition", "clinicalStatus": "active", "subject": {}}}]}',
         "not a FHIR R4 Bundle"),
    ):  # fmt: skip
        result = runner.invoke(main, ["ask", "--patient", str(_write(tmp_path, content))])
        assert result.exit_code == 1, result.output
        assert "Error:" in result.output and expected in result.output
        assert "Traceback" not in result.output
    missing = runner.invoke(main, ["ask", "--patient", str(tmp_path / "nope.json")])
    assert missing.exit_code == 1 and "cannot read the patient file" in missing.output


def test_form_schema_file_is_valid_json_schema() -> None:
    import jsonschema

    from cardio_assets.logic.patients import FORM_SCHEMA_PATH

    jsonschema.Draft202012Validator.check_schema(json.loads(FORM_SCHEMA_PATH.read_text()))


def test_ask_config_is_read_through_config_py(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """configs/ask.yaml follows CARDIO_CONFIG_DIR set after import, and a bad key, a key
    given twice or a bad value is one ConfigError naming the file and the key."""
    from cardio_assets.config import ConfigError, load_ask_config
    from cardio_assets.logic.ask.units import Units

    assert "ldl_cholesterol" in load_ask_config().analytes
    monkeypatch.setenv("CARDIO_CONFIG_DIR", str(tmp_path))
    ask_file = tmp_path / "ask.yaml"
    ask_file.write_text('units: {"mmHg": "mm[Hg]", "kpa": "kPa"}\n', encoding="utf-8")
    config = load_ask_config()
    assert config.units == {"mmHg": "mm[Hg]", "kpa": "kPa"} and not config.analytes
    assert Units(config).convert(15, Units(config).ucum("kpa"), "mm[Hg]") == pytest.approx(
        112.51, abs=0.01
    )
    for text, expected in (
        ("analytes:\n  ldl:\n    molar_mass_g_per_mol: 0\n", "analytes.ldl.molar_mass_g_per_mol"),
        ("unit: {}\n", "key 'unit'"),
        ("units:\n  mmHg: mm[Hg]\n  mmHg: mm[Hg]\n", "duplicate key 'mmHg'"),
        ("units: [\n", "not valid YAML"),
    ):
        ask_file.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError, match=r"ask\.yaml") as info:
            load_ask_config()
        assert expected in str(info.value)


def test_store_closure_and_descriptions(terms: PatientTerminology) -> None:
    """The is-a closure and names cardio ask reads from terminology/store.py."""
    store = terms.store
    up = store.closure(["703272007", "999999999999"], "up")
    assert up["703272007"][0] == "703272007" and "84114007" in up["703272007"]  # HFrEF is-a HF
    assert up["999999999999"] == ["999999999999"]  # unknown to the store: itself only
    assert "703272007" in store.closure(["84114007"], "down")["84114007"]
    assert "84114007" not in store.closure(["703272007"], "down")["703272007"]
    terms_of_hf = store.descriptions("84114007")
    assert terms_of_hf[0] == ("Heart failure (disorder)", True)
    assert ("Heart failure", False) in terms_of_hf
    with pytest.raises(ValueError, match="direction"):
        store.closure(["84114007"], "sideways")


def test_a_held_store_connection_reads_the_same(terms: PatientTerminology) -> None:
    """A process asking many questions keeps one read-only connection (opening the file
    per closure read cost ~20 ms): the reads through it, from several threads, and after
    it is released, equal the per-read ones."""
    from concurrent.futures import ThreadPoolExecutor

    from cardio_assets.terminology.store import SnomedStore

    ids = ["703272007", "84114007", "999999999999"]
    expected = (terms.store.closure(ids, "up"), terms.store.descriptions("84114007"))
    held = SnomedStore(terms.store.db_path, terms.store.index).hold_connection()
    try:
        assert held.hold_connection() is held  # idempotent
        with ThreadPoolExecutor(4) as pool:
            got = list(
                pool.map(
                    lambda _: (held.closure(ids, "up"), held.descriptions("84114007")), range(8)
                )
            )
        assert all(g == expected for g in got)
    finally:
        held.close()
    assert (held.closure(ids, "up"), held.descriptions("84114007")) == expected
    held.close()  # a second release is a no-op
