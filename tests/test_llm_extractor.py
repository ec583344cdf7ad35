"""The llm extraction path end to end: generated BAML client -> HTTP on 127.0.0.1 -> replay server.

Expected results are derived from the recorded answers (tests/fixtures/llm_replay), except
the docs/ARCHITECTURE.md worked example, whose concept set is the specification itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardio_assets.config import ConfigError
from cardio_assets.records import RowExtraction, RowRecord, TaggedRow
from tests.replay_server import ReplayServer, ensure_baml_client, load_recordings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def baml_client_generated() -> Path:
    return ensure_baml_client()


@pytest.fixture(scope="module")
def server():
    with ReplayServer() as replay:
        yield replay


@pytest.fixture()
def replay(server: ReplayServer) -> ReplayServer:
    server.reset()
    server.state.slow_seconds = 4.0
    return server


def write_models(path: Path, base_url: str, **overrides: object) -> Path:
    client = {
        "provider": "openai-generic",
        "base_url": base_url,
        "model": "replay/qwen2.5-7b-instruct",
        "default_role": "user",
        "timeout_s": 2.0,  # generous for a loaded 2-core machine; "slow" answers take 4 s
        "connect_timeout_s": 1.0,
        "max_retries": 2,
        "backoff_initial_s": 0.01,
        "backoff_max_s": 0.05,
        "max_concurrency": 4,
    }
    client.update(overrides)
    path.write_text(json.dumps({"default": "replay", "clients": {"replay": client}}), "utf-8")
    return path


def tagged(name: str) -> TaggedRow:
    recording = load_recordings()[name]
    focus = "POPULATION" if "FOCUS: POPULATION" in recording.tagged_row else "MAIN"
    return TaggedRow(
        row_id=f"test:{name}", guideline="test", focus=focus, text=recording.tagged_row
    )


# validation_*: answers that fail the deterministic checks (tests/test_llm_validation.py)
ALL = sorted(n for n in load_recordings() if not n.startswith("validation_"))


def run(tmp_path: Path, names: list[str], base_url: str, **overrides: object):
    from cardio_assets.logic.llm_extraction import extract_rows

    models = write_models(tmp_path / "models.yaml", base_url, **overrides)
    return extract_rows(
        [tagged(n) for n in names], models_config=models, cache_path=tmp_path / "cache.duckdb"
    )


def recorded_answer(name: str) -> dict:
    """The JSON object inside the recorded answer (fences and <think> removed by hand)."""
    content = load_recordings()[name].content
    content = re.sub(r"<think>.*?</think>", "", content, flags=re.S).strip()
    content = re.sub(r"^```(?:json)?\s*|\s*```$", "", content)
    return json.loads(content)


def concept_keys(result: RowExtraction) -> set[tuple]:
    return {
        (c.role, c.text, c.normalized, c.operator, json.dumps(c.threshold), c.unit, c.or_group)
        for c in result.concepts
    }


def expected_concept_keys(name: str) -> set[tuple]:
    answer = recorded_answer(name)
    items = answer.get("concepts") or [{"role": "Condition", **c} for c in answer["conditions"]]
    keys = set()
    for c in items:
        threshold = c.get("threshold")
        if isinstance(threshold, list):
            threshold = [float(t) for t in threshold]
        elif threshold is not None:
            threshold = float(threshold)
        keys.add(
            (
                c["role"],
                c["text"],
                c["normalized"].lower(),
                c.get("operator"),
                json.dumps(threshold),
                c.get("unit"),
                c.get("or_group"),
            )
        )
    return keys


# --------------------------------------------------------------------------- configuration


def test_shipped_models_yaml_is_valid() -> None:
    from cardio_assets.config import load_models_config

    config = load_models_config(ROOT / "configs" / "models.yaml")
    assert config.default in config.clients
    assert {c.provider for c in config.clients.values()} == {
        "openai-generic",
        "openai",
        "anthropic",
    }


@pytest.mark.parametrize(
    ("client", "key", "words"),
    [
        (
            {"provider": "openai-generic", "model": "m", "base_url": "http://h:8000"},
            "clients.bad.base_url",
            "/v1",
        ),
        (
            {"provider": "vllm", "model": "m", "base_url": "http://h/v1"},
            "clients.bad.provider",
            "openai-generic",
        ),
        (
            {
                "provider": "openai-generic",
                "model": "m",
                "base_url": "http://h/v1",
                "max_retries": -1,
            },
            "clients.bad.max_retries",
            "greater",
        ),
        (
            {"provider": "openai-generic", "model": "m", "base_url": "http://h/v1", "timout_s": 3},
            "clients.bad.timout_s",
            "not permitted",
        ),
        ({"provider": "anthropic", "model": "m"}, "clients.bad", "api_key_env"),
        (
            {"provider": "openai", "model": "m", "api_key_env": "K", "options": {"api_key": "x"}},
            "clients.bad.options",
            "api_key_env",
        ),
    ],
)
def test_models_yaml_errors_name_the_key(
    tmp_path: Path, client: dict, key: str, words: str
) -> None:
    from cardio_assets.config import load_models_config

    path = tmp_path / "models.yaml"
    path.write_text(json.dumps({"clients": {"bad": client}}), "utf-8")
    with pytest.raises(ConfigError) as err:
        load_models_config(path)
    assert f"key '{key}'" in str(err.value)
    assert words in str(err.value)
    assert str(path) in str(err.value)


def test_unknown_default_and_unknown_client_are_named(tmp_path: Path) -> None:
    from cardio_assets.config import load_models_config
    from cardio_assets.errors import LlmConfigError

    path = tmp_path / "models.yaml"
    client = {"provider": "openai-generic", "model": "m", "base_url": "http://h/v1"}
    path.write_text(json.dumps({"default": "nope", "clients": {"a": client}}), "utf-8")
    with pytest.raises(ConfigError, match="default 'nope' is not one of the clients"):
        load_models_config(path)
    path.write_text(json.dumps({"default": "a", "clients": {"a": client}}), "utf-8")
    with pytest.raises(LlmConfigError, match="unknown LLM client 'b'"):
        load_models_config(path).client("b")


def test_base_url_env_overrides_base_url(tmp_path: Path, replay: ReplayServer, monkeypatch) -> None:
    monkeypatch.setenv("CARDIO_TEST_LLM_BASE_URL", replay.base_url)
    report = run(
        tmp_path,
        ["af_oac_main"],
        "http://127.0.0.1:9/v1",  # nothing listens there: only the override can succeed
        base_url_env="CARDIO_TEST_LLM_BASE_URL",
    )
    assert report.failures == 0
    assert replay.calls("af_oac_main") == 1


# --------------------------------------------------------------------------- API keys


def test_api_key_is_read_from_env_sent_and_never_stored(
    tmp_path: Path, replay: ReplayServer, monkeypatch
) -> None:
    secret = "sk-replay-0123456789abcdef"
    monkeypatch.setenv("CARDIO_TEST_LLM_KEY", secret)
    report = run(tmp_path, ["hf_icd_main"], replay.base_url, api_key_env="CARDIO_TEST_LLM_KEY")
    assert report.failures == 0
    assert replay.state.requests[-1]["authorization"] == f"Bearer {secret}"
    assert secret not in report.results[0].model_dump_json()
    from cardio_assets.logic.llm_cache import LlmCache

    stored = LlmCache(tmp_path / "cache.duckdb").entries()
    assert stored and all(secret not in json.dumps(vars(e), default=str) for e in stored)


def test_missing_api_key_env_var_fails_before_any_call(
    tmp_path: Path, replay: ReplayServer, monkeypatch
) -> None:
    from cardio_assets.errors import LlmConfigError

    monkeypatch.delenv("CARDIO_TEST_LLM_KEY", raising=False)
    with pytest.raises(LlmConfigError, match="CARDIO_TEST_LLM_KEY"):
        run(tmp_path, ["hf_icd_main"], replay.base_url, api_key_env="CARDIO_TEST_LLM_KEY")
    assert replay.calls() == 0


# --------------------------------------------------------------------------- parsing


def test_recorded_answers_parse_into_records(tmp_path: Path, replay: ReplayServer) -> None:
    report = run(tmp_path, ALL, replay.base_url)
    assert report.failures == 0, [r.error for r in report.results]
    assert report.http_calls == len(ALL) == replay.calls()
    assert report.input_tokens > 0 and report.output_tokens > 0
    for name, result in zip(ALL, report.results, strict=True):
        assert result.backend == "llm" and result.model == "replay/qwen2.5-7b-instruct"
        assert result.raw_output == load_recordings()[name].content  # raw kept verbatim
        assert concept_keys(result) == expected_concept_keys(name), name
        assert result.validation == [], name  # every span is in its row, every value agrees
        answer = recorded_answer(name)
        expected_actions = {
            (a["role"], a["text"], a["normalized"], a["class"], a["level"], a["polarity"])
            for a in answer.get("actions", [])
        }
        actual_actions = {
            (a.role, a.text, a.normalized, a.class_, a.level, a.polarity) for a in result.actions
        }
        assert actual_actions == expected_actions, name


def test_think_block_is_ignored(tmp_path: Path, replay: ReplayServer) -> None:
    """The reasoning draft names PCI as a population condition; the answer does not."""
    assert "<think>" in load_recordings()["ccs_pci_population"].content
    report = run(tmp_path, ["ccs_pci_population"], replay.base_url)
    result = report.results[0]
    assert result.error is None
    assert "PCI" not in {c.text for c in result.concepts}
    assert "<think>" in result.raw_output  # the raw answer is kept whole for audit


def test_strip_think_variants() -> None:
    from cardio_assets.logic.llm_extraction import strip_think

    assert strip_think('<think>a {"x": 1}</think>\n{"y": 2}') == '{"y": 2}'
    assert strip_think('reasoning without opening tag</think>{"y": 2}') == '{"y": 2}'
    assert strip_think('{"y": 2}\n<think>ran out of tokens') == '{"y": 2}'
    assert strip_think("<THINK>shout</THINK> ok") == "ok"


@pytest.mark.parametrize("fault", ["fenced", "prose"])
def test_messy_but_complete_answers_parse_first_time(
    tmp_path: Path, replay: ReplayServer, fault: str
) -> None:
    replay.script("hf_ndhp_ccb_main", [fault])
    report = run(tmp_path, ["hf_ndhp_ccb_main"], replay.base_url)
    result = report.results[0]
    assert result.error is None
    assert replay.calls("hf_ndhp_ccb_main") == 1
    assert concept_keys(result) == expected_concept_keys("hf_ndhp_ccb_main")
    assert {a.normalized for a in result.actions} == {"diltiazem", "verapamil"}
    if fault == "fenced":
        assert result.raw_output.startswith("```json")


# --------------------------------------------------------------------------- retries


@pytest.mark.parametrize("fault", ["http500", "slow", "truncated", "garbage", "missing_field"])
def test_one_failed_attempt_is_retried(tmp_path: Path, replay: ReplayServer, fault: str) -> None:
    replay.script("af_oac_main", [fault])
    report = run(tmp_path, ["af_oac_main"], replay.base_url)
    result = report.results[0]
    assert result.error is None, result.error
    assert replay.calls("af_oac_main") == 2
    assert report.http_calls == 2
    assert concept_keys(result) == expected_concept_keys("af_oac_main")


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("http500", "HTTP 500"),
        ("slow", "timeout after 2 s"),
        ("truncated", "truncated answer (finish reason length)"),
        ("garbage", "unparseable answer: no concepts or actions field"),
        ("missing_field", "unparseable answer: parser kept 5 of 6 items"),
    ],
)
def test_persistent_failure_is_recorded_and_the_batch_succeeds(
    tmp_path: Path, replay: ReplayServer, fault: str, message: str
) -> None:
    replay.script("af_oac_main", [fault] * 3)  # 1 attempt + max_retries 2
    names = ["af_oac_main", "hf_icd_main", "ccs_pci_population"]
    report = run(tmp_path, names, replay.base_url)
    failed, *others = report.results
    assert message in failed.error and "after 3 attempts" in failed.error
    assert failed.concepts == [] and failed.actions == []
    assert report.failures == 1 and report.failed_rows == ["test:af_oac_main"]
    summary = report.summary()
    assert (summary["rows"], summary["failures"], summary["failure_share"]) == (3, 1, 0.3333)
    assert summary["http_calls"] == 5 and summary["cache_hits"] == 0
    assert all(r.error is None and r.concepts for r in others)
    assert replay.calls("af_oac_main") == 3
    if fault in ("truncated", "garbage", "missing_field"):
        assert failed.raw_output  # the unusable answer is kept for audit

    # The failure is in the cache with its error; the next run retries only that row.
    from cardio_assets.logic.llm_cache import LlmCache

    stored = {e.input_hash: e for e in LlmCache(tmp_path / "cache.duckdb").entries()}
    assert stored[failed.input_hash].error == failed.error
    assert stored[failed.input_hash].attempts == 3
    replay.reset()
    again = run(tmp_path, names, replay.base_url)
    assert again.failures == 0
    assert replay.calls() == 1 and replay.calls("af_oac_main") == 1
    assert [r.cached for r in again.results] == [False, True, True]


def test_client_errors_are_not_retried(tmp_path: Path, replay: ReplayServer) -> None:
    """A 404 (no such route, model or recording) will not fix itself: one attempt, recorded."""
    from cardio_assets.logic.llm_extraction import extract_rows

    models = write_models(tmp_path / "models.yaml", replay.base_url)
    unknown = TaggedRow(
        row_id="test:unknown", guideline="test", focus="MAIN", text="ROW: no such row"
    )
    report = extract_rows(
        [unknown, tagged("hf_icd_main")], models_config=models, cache_path=tmp_path / "c.duckdb"
    )
    failed, ok = report.results
    assert "HTTP 404" in failed.error and "(after 1 attempt)" in failed.error
    assert ok.error is None
    assert replay.state.calls["<unmatched>"] == 1


def test_unreachable_endpoint_is_recorded(tmp_path: Path) -> None:
    report = run(tmp_path, ["hf_icd_main", "af_oac_main"], "http://127.0.0.1:9/v1")
    assert report.failures == 2
    assert all("after 3 attempts" in r.error for r in report.results)


# --------------------------------------------------------------------------- cache


def test_rerun_makes_zero_calls(tmp_path: Path, replay: ReplayServer) -> None:
    first = run(tmp_path, ALL, replay.base_url)
    assert replay.calls() == len(ALL) and first.cache_hits == 0
    replay.reset()
    second = run(tmp_path, ALL, replay.base_url)
    assert replay.calls() == 0 and second.http_calls == 0
    assert second.cache_hits == len(ALL) and all(r.cached for r in second.results)
    for a, b in zip(first.results, second.results, strict=True):
        assert a.model_dump(exclude={"cached"}) == b.model_dump(exclude={"cached"})

    from cardio_assets.logic.llm_cache import LlmCache

    entries = LlmCache(tmp_path / "cache.duckdb").entries()
    assert len(entries) == len(ALL)
    for e in entries:
        assert e.error is None and e.raw_response and e.latency_ms is not None
        assert e.input_tokens and e.output_tokens
        assert e.prompt_hash == first.prompt_hashes[e.function]


def test_cache_key_includes_model(tmp_path: Path, replay: ReplayServer) -> None:
    run(tmp_path, ["hf_icd_main"], replay.base_url)
    run(tmp_path, ["hf_icd_main"], replay.base_url, model="replay/another-model")
    assert replay.calls("hf_icd_main") == 2
    run(tmp_path, ["hf_icd_main"], replay.base_url, model="replay/another-model")
    assert replay.calls("hf_icd_main") == 2


def test_duplicate_rows_cost_one_call(tmp_path: Path, replay: ReplayServer) -> None:
    report = run(tmp_path, ["hf_icd_main", "hf_icd_main", "hf_icd_main"], replay.base_url)
    assert replay.calls("hf_icd_main") == 1
    assert len(report.results) == 3 and report.failures == 0


def test_prompt_hash_tracks_the_rendered_prompt(tmp_path: Path, replay: ReplayServer) -> None:
    from cardio_assets.logic.llm_extraction import PROMPT_PLACEHOLDER

    report = run(tmp_path, ["ccs_pci_main", "ccs_pci_population"], replay.base_url)
    hashes = report.prompt_hashes
    assert set(hashes) == {"ExtractMain", "ExtractPopulation"}
    assert hashes["ExtractMain"] != hashes["ExtractPopulation"]
    assert {r.prompt_hash for r in report.results} == set(hashes.values())
    # The hash is of the template, not of the row: the row text is not in the hashed prompt.
    assert PROMPT_PLACEHOLDER not in load_recordings()["ccs_pci_main"].tagged_row


# --------------------------------------------------------------------------- concurrency


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    # A server of its own: a "slow" handler left over from another test would count as in flight.
    names = ["af_oac_main", "hf_icd_main", "hf_ndhp_ccb_main", "ccs_pci_main"]
    with ReplayServer() as fresh:
        for name in names:
            fresh.script(name, ["slow"])
        fresh.state.slow_seconds = 0.4
        report = run(tmp_path, names, fresh.base_url, timeout_s=5.0, max_concurrency=2)
        assert report.failures == 0
        assert fresh.state.max_in_flight == 2
        assert fresh.calls() == len(names)


# --------------------------------------------------------------------------- resource


def test_resource_runs_the_same_code_and_exposes_the_pool(
    tmp_path: Path, replay: ReplayServer
) -> None:
    from resources.llm_extractor import LLM_POOL
    from resources.llm_extractor import LlmExtractorResource as LlmExtractor

    models = write_models(tmp_path / "models.yaml", replay.base_url)
    extractor = LlmExtractor(
        models_config=str(models), cache_path=str(tmp_path / "resource_cache.duckdb")
    )
    report = extractor.extract([tagged("ccs_pci_main"), tagged("ccs_pci_population")])
    assert report.failures == 0 and report.client == "replay"
    assert LLM_POOL == "llm"
    info = extractor.describe()
    assert info["model"] == "replay/qwen2.5-7b-instruct" and info["provider"] == "openai-generic"
    assert info["prompt_hashes"] == report.prompt_hashes
    assert {r.prompt_hash for r in report.results} == set(info["prompt_hashes"].values())


# --------------------------------------------------------------------------- worked example


DESIGN_WORKED_EXAMPLE = {
    ("Condition", "chronic coronary syndrome", None, None, None),
    ("ClinicalParameter", "left ventricular ejection fraction", "<=", 35.0, "%"),
    ("Condition", "high surgical risk", None, None, None),
    ("Condition", "not operable", None, None, None),
    ("Procedure", "percutaneous coronary intervention", None, None, None),
}


def worked_example_row() -> RowRecord:
    return RowRecord(
        id="ccs:table9:r5",
        guideline="ccs",
        guideline_title="2024 ESC Guidelines for the management of chronic coronary syndromes",
        table_id="table9",
        row_index=5,
        header=["Recommendations", "Class", "Level"],
        row_text=(
            "In chronic coronary syndrome patients with LVEF <= 35% who are high surgical "
            "risk or not operable, PCI may be considered."
        ),
        level="B",
        section="Revascularization in CCS",
        **{"class": "IIb"},
    )


def test_design_worked_example_through_both_passes(tmp_path: Path, replay: ReplayServer) -> None:
    """Row -> tagged MAIN/POPULATION texts -> BAML over HTTP -> both passes -> merge."""
    from cardio_assets.config import load_abbreviations
    from cardio_assets.logic.llm_extraction import extract_rows
    from cardio_assets.logic.merged_concepts import merge_row
    from cardio_assets.logic.tagged_rows import tag_rows

    models = write_models(tmp_path / "models.yaml", replay.base_url)
    report = extract_rows(
        tag_rows([worked_example_row()]), models_config=models, cache_path=tmp_path / "c.duckdb"
    )
    main, population = report.results
    assert (main.focus, population.focus) == ("MAIN", "POPULATION")
    assert main.error is None and population.error is None  # the recordings matched the tags
    assert replay.calls("ccs_pci_main") == replay.calls("ccs_pci_population") == 1

    # Union of the two raw passes, deduplicated by (role, normalized), actions as concepts.
    union: dict[tuple[str, str], tuple] = {}
    or_groups: dict[str, set[str | None]] = {}
    for result in (main, population):
        for c in result.concepts:
            union.setdefault(
                (c.role, c.normalized), (c.role, c.normalized, c.operator, c.threshold, c.unit)
            )
            or_groups.setdefault(c.normalized, set()).add(c.or_group)
    for a in main.actions:
        union.setdefault((a.role, a.normalized), (a.role, a.normalized, None, None, None))
    assert set(union.values()) == DESIGN_WORKED_EXAMPLE
    (group,) = or_groups["high surgical risk"]
    assert group and or_groups["not operable"] == {group}
    assert or_groups["chronic coronary syndrome"] == {None}

    # The pipeline's merge step gives the final set of docs/ARCHITECTURE.md.
    merged = merge_row(main, population, load_abbreviations(ROOT / "configs" / "abbreviations.txt"))
    final = {(c.role, c.normalized, c.operator, c.threshold, c.unit) for c in merged.concepts}
    assert final == DESIGN_WORKED_EXAMPLE
    by_term = {c.normalized: c for c in merged.concepts}
    assert by_term["high surgical risk"].or_group == by_term["not operable"].or_group is not None
    assert by_term["chronic coronary syndrome"].or_group is None
    assert by_term["chronic coronary syndrome"].is_population
    assert not any(c.negated for c in merged.concepts)
    (action,) = merged.actions
    assert (action.role, action.normalized) == ("Procedure", "percutaneous coronary intervention")
    assert (action.class_, action.level, action.polarity) == ("IIb", "B", "recommended")


def test_population_of_both_passes_follows_the_contract(
    tmp_path: Path, replay: ReplayServer
) -> None:
    """The contract's population (section 9) is who the row is for: its conditions, the
    therapy the cohort is already on (the POPULATION pass names its role) and an age
    threshold (found by MAIN); never the recommended drug or the one it is preferred over."""
    from cardio_assets.config import load_abbreviations
    from cardio_assets.logic.merged_concepts import merge_row, prediction_line

    report = run(tmp_path, ["hf_diuretic_main", "hf_diuretic_population"], replay.base_url)
    main, population = report.results
    assert main.error is None and population.error is None
    roles = {c.normalized: c.role for c in population.concepts}
    assert roles["loop diuretic"] == "Medication" and roles["heart failure"] == "Condition"
    population = population.model_copy(update={"row_id": main.row_id})  # one row, two passes
    merged = merge_row(main, population, load_abbreviations(ROOT / "configs" / "abbreviations.txt"))
    line = prediction_line("row", "hf", merged)
    assert sorted(line["population"]) == [
        "adult", "age", "breathlessness", "heart failure", "loop diuretic"
    ]  # fmt: skip
    by_term = {c.normalized: c for c in merged.concepts}
    assert by_term["age"].is_population and by_term["age"].sources == ["MAIN"]
    assert not by_term["thiazide"].is_population


# --------------------------------------------------------------------------- prompts


def test_few_shot_rows_are_sample_rows_or_written_for_the_prompt() -> None:
    """A few-shot row is a row of the synthetic Markdown sample guideline (class and level
    included) or one the team wrote for the prompt (its SECTION says so); never a row a
    test sends, and never a row of the real-row gold (compared by the gold's sha256)."""
    import hashlib

    baml = (ROOT / "baml_src" / "extraction.baml").read_text("utf-8")
    examples = re.findall(
        r"^\s*SECTION: (.+)\n\s*ROW: (.+?) \| (I|IIa|IIb|III) \| ([ABC])$", baml, flags=re.M
    )
    assert len(examples) >= 3
    samples = "\n".join(p.read_text("utf-8") for p in (ROOT / "data" / "guidelines").rglob("*.md"))
    test_rows = " ".join(r.tagged_row for r in load_recordings().values())
    test_rows += worked_example_row().row_text
    gold = ROOT / "data" / "gold" / "real_rows" / "gold.jsonl"
    gold_hashes = {json.loads(line)["sha256"] for line in gold.read_text("utf-8").splitlines()}
    written = 0
    for section, text, klass, level in examples:
        if section.endswith("(written for this prompt)"):
            written += 1
        else:
            assert f"| {text} | {klass} | {level} |" in samples, f"not a sample row: {text}"
        assert text not in test_rows, f"few-shot row used by a test: {text}"
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() not in gold_hashes, text
    assert 0 < written < len(examples)


@pytest.mark.parametrize(
    ("provider", "extra", "url", "key_header"),
    [
        (
            "openai-generic",
            {"base_url": "http://10.0.0.5:8000/v1"},
            "http://10.0.0.5:8000/v1/chat/completions",
            "authorization",
        ),
        ("openai", {}, "https://api.openai.com/v1/chat/completions", "authorization"),
        ("anthropic", {}, "https://api.anthropic.com/v1/messages", "x-api-key"),
    ],
)
def test_each_provider_renders_a_request_from_config(
    provider: str, extra: dict, url: str, key_header: str, monkeypatch
) -> None:
    """No network: b.request renders what would be sent for each configured provider."""
    from baml_client.sync_client import b
    from cardio_assets.llm_clients import LlmClientConfig
    from cardio_assets.logic.llm_extraction import build_client_registry

    monkeypatch.setenv("CARDIO_TEST_PROVIDER_KEY", "test-key-value")
    cfg = LlmClientConfig(
        provider=provider, model="some-model", api_key_env="CARDIO_TEST_PROVIDER_KEY", **extra
    )
    request = b.request.ExtractMain(
        tagged("hf_icd_main").text,
        baml_options={"client_registry": build_client_registry("x", cfg)},
    )
    assert request.url == url
    assert "test-key-value" in str(request.headers.get(key_header))
    body = request.body.json()
    assert body["model"] == "some-model" and body["max_tokens"] == 4096
    assert body["messages"][0]["role"] == "user"
    contents = [m["content"] for m in body["messages"]]
    prompt = "".join(c if isinstance(c, str) else "".join(p["text"] for p in c) for c in contents)
    assert tagged("hf_icd_main").text in prompt


def test_what_a_test_looks_for_comes_through_as_purpose(
    tmp_path: Path, replay: ReplayServer
) -> None:
    """The contract's function "purpose" (what a test is meant to find) is part of the
    answer schema: a recorded answer that marks the disease a test rules out keeps the mark
    on its record, and the merged row's logic leaves that concept out (the patient need not
    have it)."""
    from cardio_assets.logic.merged_concepts import merge_row

    (result,) = run(tmp_path, ["aim_echo_main"], replay.base_url).results
    assert result.error is None and result.validation == []
    marked = {c.normalized: c.function for c in result.concepts}
    assert marked["pericardial effusion"] == "purpose" and marked["chest pain"] is None
    merged = merge_row(result, None)
    leaves: list[int] = []

    def walk(node) -> None:  # type: ignore[no-untyped-def]
        if node.op == "LEAF":
            leaves.append(node.concept)
        for child in node.children:
            walk(child)

    walk(merged.logic)
    in_logic = {merged.concepts[i].normalized for i in leaves}
    assert "pericardial effusion" not in in_logic and "chest pain" in in_logic
