"""The `llm` extraction backend: BAML functions over tagged rows, with retries and a cache.

Design choices (docs/ARCHITECTURE.md, "Extraction"):
- Calls go through the generated BAML client (baml_client.async_client); the client is
  built at run time from configs/models.yaml as a BAML ClientRegistry, so one baml_src
  serves vLLM, Ollama, OpenAI and Anthropic.
- ALL retries happen here in Python with exponential backoff, for network errors, HTTP
  408/429/5xx, timeouts AND for answers that cannot be parsed or were cut off: BAML retry
  policies only cover the network side, and local models fail mostly on the parse side.
- The final answer is always re-parsed with ``b.parse`` after removing ``<think>`` blocks,
  and checked against the raw text: BAML's lenient parser returns empty lists for prose
  and silently drops list items with a missing field, which would pass as "no concepts".
- Every raw answer is kept (RowExtraction.raw_output and the cache); a failing row is
  recorded with its error and never raises, so one bad row never sinks a guideline.
- Every answer, cached or new, is checked against its row before use
  (cardio_assets/logic/llm_validation.py): spans not in the row are dropped, parameter
  values re-parsed from their spans; RowExtraction.validation records what changed.
- Error texts and raw answers are redacted of every known secret value, then bounded
  (cardio_assets/logic/redaction.py), before anything stores, logs or shows them: an
  endpoint may echo the key it got, and BAML's messages may repeat the whole prompt.
- The prompt hash is the sha256 of the request messages BAML renders for a fixed
  placeholder input through a fixed internal client (``b.request``): it changes when the
  template, the few-shot examples or the output schema change, and does not depend on
  the model or endpoint (those are a separate part of the cache key).
No Dagster imports: the resource in resources/llm_extractor.py and the CLI both call this.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cardio_assets.config import load_models_config
from cardio_assets.errors import LlmConfigError
from cardio_assets.llm_clients import LlmClientConfig
from cardio_assets.logic.llm_cache import CacheEntry, LlmCache
from cardio_assets.logic.llm_validation import validate_records, validation_summary
from cardio_assets.logic.redaction import (
    Secrets,
    known_secrets,
    redact,
    register_secret_env,
    safe_error,
)
from cardio_assets.records import ExtractedAction, ExtractedConcept, RowExtraction, TaggedRow

log = logging.getLogger(__name__)

FUNCTION_BY_FOCUS: dict[str, str] = {"MAIN": "ExtractMain", "POPULATION": "ExtractPopulation"}
# Top-level answer fields per function: an answer without any of them is not an answer.
ANSWER_FIELDS: dict[str, tuple[str, ...]] = {
    "ExtractMain": ("concepts", "actions"),
    "ExtractPopulation": ("conditions",),
}
RUNTIME_CLIENT = "CardioRuntime"  # name of the registry client made primary for a run
PROMPT_PLACEHOLDER = "<<TAGGED_ROW>>"
RETRYABLE_HTTP = frozenset({408, 409, 425, 429})


# --------------------------------------------------------------------------- configuration


def _api_key(name: str, cfg: LlmClientConfig) -> str | None:
    """Read at call time from the named env var; the value is never logged or stored (the
    variable is registered with the redaction module, whatever models file named it)."""
    if not cfg.api_key_env:
        return None
    register_secret_env(cfg.api_key_env)
    key = os.environ.get(cfg.api_key_env, "").strip()
    if not key and cfg.api_key_optional:
        return None
    if not key:
        raise LlmConfigError(
            f"LLM client {name!r} reads its API key from the environment variable "
            f"{cfg.api_key_env}, which is not set: export it (or set api_key_optional: "
            "true for an endpoint that may run without a key)"
        )
    return key


def build_client_registry(name: str, cfg: LlmClientConfig) -> Any:
    """A BAML ClientRegistry whose primary client is `cfg` (keys read now, from env)."""
    from baml_py import ClientRegistry

    options: dict[str, Any] = {
        "model": cfg.model,
        "default_role": cfg.default_role,
        "http": {
            "request_timeout_ms": int(cfg.timeout_s * 1000),
            "connect_timeout_ms": int(cfg.connect_timeout_s * 1000),
        },
        # A cut-off answer must fail loudly: the lenient parser would accept half a list.
        "finish_reason_deny_list": ["max_tokens"] if cfg.provider == "anthropic" else ["length"],
    }
    base_url = cfg.effective_base_url()
    if base_url:
        options["base_url"] = base_url
    if cfg.temperature is not None:
        options["temperature"] = cfg.temperature
    if cfg.max_tokens is not None:
        options["max_tokens"] = cfg.max_tokens
    key = _api_key(name, cfg)
    if key:
        options["api_key"] = key
    options.update(cfg.options)
    registry = ClientRegistry()
    registry.add_llm_client(RUNTIME_CLIENT, cfg.provider, options)
    registry.set_primary(RUNTIME_CLIENT)
    return registry


# --------------------------------------------------------------------------- BAML client


def _baml_async_client() -> Any:
    # BAML logs every prompt and answer at INFO; outcomes are recorded here instead.
    # Set before the runtime loads; an explicit BAML_LOG from the user wins.
    os.environ.setdefault("BAML_LOG", "error")
    try:
        from baml_client.async_client import b
    except ImportError as exc:
        raise RuntimeError(
            "baml_client is missing: generate it from baml_src/ with `make baml` "
            "(.venv/bin/baml-cli generate --from baml_src)"
        ) from exc
    return b


_PROMPT_HASHES: dict[str, str] = {}
_PROMPT_HASH_LOCK = threading.Lock()


def prompt_hash(function: str) -> str:
    """sha256 (16 hex) of the messages BAML renders for a fixed placeholder input.

    Rendering only (``b.request``), no network; cheap enough to call when computing an
    asset's code_version.
    """
    with _PROMPT_HASH_LOCK:
        if function in _PROMPT_HASHES:
            return _PROMPT_HASHES[function]
    from baml_py import ClientRegistry

    _baml_async_client()  # same import checks and log settings
    from baml_client.sync_client import b as sync_b

    registry = ClientRegistry()
    registry.add_llm_client(
        "PromptHash",
        "openai-generic",
        {"base_url": "http://127.0.0.1:9/v1", "model": "prompt-hash", "default_role": "user"},
    )
    registry.set_primary("PromptHash")
    request = getattr(sync_b.request, function)(
        PROMPT_PLACEHOLDER, baml_options={"client_registry": registry}
    )
    messages = request.body.json()["messages"]
    digest = hashlib.sha256(
        json.dumps(messages, sort_keys=True, ensure_ascii=False).encode("utf-8")
    ).hexdigest()[:16]
    with _PROMPT_HASH_LOCK:
        _PROMPT_HASHES[function] = digest
    return digest


def prompt_hashes() -> dict[str, str]:
    """Prompt hash of every extraction function (for asset code_version and metadata)."""
    return {fn: prompt_hash(fn) for fn in FUNCTION_BY_FOCUS.values()}


def input_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# --------------------------------------------------------------------------- answers

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def strip_think(text: str) -> str:
    """Drop reasoning blocks: closed ones, a dangling close (template ate the opening
    tag), and an unclosed one (the model ran out of tokens while thinking)."""
    text = _THINK_BLOCK.sub("", text)
    lower = text.lower()
    if "</think>" in lower:
        text = text[lower.rindex("</think>") + len("</think>") :]
        lower = text.lower()
    if "<think>" in lower:
        text = text[: lower.index("<think>")]
    return text.strip()


def _field_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"""["']?\b{name}\b["']?\s*:""")


_ITEM_FIELD = _field_pattern("text")


def _norm(value: str | None, fallback: str) -> str:
    return " ".join((value or fallback).split()).lower()


def _threshold(value: float | list[float] | str | None) -> float | list[float] | str | None:
    if isinstance(value, list):
        return float(value[0]) if len(value) == 1 else [float(v) for v in value]
    return value.strip() or None if isinstance(value, str) else value


def to_records(function: str, parsed: Any) -> dict[str, list[dict[str, Any]]]:
    """BAML result -> record dumps ({"concepts": [...], "actions": [...]}), the cached form."""
    concepts: list[ExtractedConcept] = []
    actions: list[ExtractedAction] = []
    if function == "ExtractMain":
        for c in parsed.concepts:
            concepts.append(
                ExtractedConcept(
                    role=c.role,
                    text=c.text.strip(),
                    normalized=_norm(c.normalized, c.text),
                    operator=c.operator,
                    threshold=_threshold(c.threshold),
                    unit=(c.unit or "").strip() or None,
                    alt_values=[
                        {"threshold": v.threshold, "unit": (v.unit or "").strip() or None}
                        for v in c.alt_values or []
                    ],
                    or_group=(c.or_group or "").strip() or None,
                    negated=bool(c.negated),
                    function=c.concept_function,
                )
            )
        for a in parsed.actions:
            actions.append(
                ExtractedAction(
                    text=a.text.strip(),
                    normalized=_norm(a.normalized, a.text),
                    role=a.role,
                    class_=(a.recommendation_class or "").strip() or None,
                    level=(a.level or "").strip() or None,
                    polarity=a.polarity,
                )
            )
    else:
        for p in parsed.conditions:
            concepts.append(
                ExtractedConcept(
                    role=p.role or "Condition",
                    text=p.text.strip(),
                    normalized=_norm(p.normalized, p.text),
                    or_group=(p.or_group or "").strip() or None,
                    negated=bool(p.negated),
                )
            )
    return {
        "concepts": [c.model_dump(mode="json", by_alias=True) for c in concepts],
        "actions": [a.model_dump(mode="json", by_alias=True) for a in actions],
    }


def parse_answer(b: Any, function: str, raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """(records, None) or (None, why the answer is unusable)."""
    from baml_py.errors import BamlError

    answer = strip_think(raw)
    if not answer:
        return None, "empty answer (nothing outside <think>)"
    fields = ANSWER_FIELDS[function]
    if not any(_field_pattern(f).search(answer) for f in fields):
        return None, f"no {' or '.join(fields)} field in the answer"
    try:
        parsed = getattr(b.parse, function)(answer)
    except BamlError as exc:
        return None, f"parser: {getattr(exc, 'message', str(exc))}"
    try:
        records = to_records(function, parsed)
    except ValueError as exc:  # pydantic ValidationError included
        return None, f"answer does not fit the record schema: {exc}"
    kept = len(records["concepts"]) + len(records["actions"])
    written = len(_ITEM_FIELD.findall(answer))
    if kept < written:
        return None, f"parser kept {kept} of {written} items (missing or invalid fields)"
    return records, None


# --------------------------------------------------------------------------- calls


@dataclass
class CallOutcome:
    raw: str | None
    records: dict[str, Any] | None
    error: str | None
    attempts: int
    http_calls: int
    latency_ms: float | None
    input_tokens: int | None
    output_tokens: int | None


# reqwest error markers (BAML's text for a request that got no HTTP answer) -> plain words
_TRANSPORT_REASONS: tuple[tuple[str, str], ...] = (
    ("ConnectionRefused", "connection refused"),
    ("dns error", "host name not found"),
    ("ConnectionReset", "connection reset by the server"),
    ("TimedOut", "timed out"),
    ("IncompleteMessage", "connection closed before the answer"),
    ("ConnectionAborted", "connection aborted"),
)
# Tail of BAML's "LLM call failed: LLMErrorResponse { ... }" text, which also holds the
# whole rendered prompt (never stored): the parse message, the code and the server's body.
_LLM_ERROR_TAIL = re.compile(
    r', message: "((?:[^"\\]|\\.)*)", code: [^,]*, raw_response: '
    r'(?:Some\("((?:[^"\\]|\\.)*)"\)|None) \}\s*$',
    re.DOTALL,
)
_STATUS_LINE = re.compile(r"^Request failed with status code: (\d{3}[^.]*)\. ", re.DOTALL)
_RUST_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|.)", re.DOTALL)
_RUST_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _rust_unescape(text: str) -> str:
    """Undo Rust's Debug escaping of a string (\\" \\\\ \\n \\u{e9} ...)."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u{"):
            return chr(int(code[2:-1], 16))
        return _RUST_ESCAPES.get(code, code)

    return _RUST_ESCAPE.sub(one, text)


def _display_url(url: str) -> str:
    """The URL without user:password@ (credentials never go into an error text)."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def describe_http_error(status: int, message: str, endpoint: str | None) -> tuple[str, bool]:
    """(error text, retryable) for a BamlClientHttpError, in plain words.

    BAML reports a request that never got an answer as "HTTP 503" (or 2) with a reqwest
    debug dump, and a body it cannot read as an LLMErrorResponse dump that repeats the
    whole prompt; neither is fit to store or show. Network failures are retryable.
    """
    message = message.split("\n\nStack backtrace:", 1)[0].strip()
    if message.startswith("reqwest::Error"):
        reason = next((r for marker, r in _TRANSPORT_REASONS if marker in message), None)
        url_match = re.search(r'url: "([^"]+)"', message)
        called = url_match.group(1) if url_match else "the endpoint"
        where = endpoint or re.sub(r"/(chat/completions|messages)$", "", called)
        return f"cannot reach {_display_url(where)} ({reason or 'network error'})", True
    retryable = status in RETRYABLE_HTTP or status >= 500
    if message.startswith("LLM call failed: LLMErrorResponse"):
        tail = _LLM_ERROR_TAIL.search(message)
        if tail is None:  # an unknown layout: say what happened, never the prompt it holds
            return f"HTTP {status}: the server's answer could not be read", retryable
        problem, body = _rust_unescape(tail.group(1)), _rust_unescape(tail.group(2) or "")
        shown = " ".join(body.split()) or "(empty body)"
        if 200 <= status < 300:  # an OK status with a body that is no chat completion
            return f"HTTP {status} but no chat completion ({problem}): {shown}", True
        return f"HTTP {status}: {shown}", retryable
    status_line = _STATUS_LINE.match(message)
    if status_line:
        return f"HTTP {status_line.group(1)}: {message[status_line.end() :]}", retryable
    if 200 <= status < 300 or status < 100:  # BAML's code for "answer of the wrong shape"
        return f"unreadable answer: {message}", True
    return f"HTTP {status}: {message}", retryable


async def _attempt(
    b: Any, registry: Any, function: str, text: str, cfg: LlmClientConfig
) -> tuple[str | None, dict[str, Any] | None, str | None, bool, dict[str, Any]]:
    """One HTTP call: (raw, records, error, retryable, usage). The error text is not yet
    redacted or bounded: call_with_retries does both, once (a cut made here could leave
    part of an echoed key that redaction then no longer recognises)."""
    from baml_py import Collector
    from baml_py.errors import (
        BamlClientError,
        BamlClientFinishReasonError,
        BamlClientHttpError,
        BamlError,
        BamlTimeoutError,
        BamlValidationError,
    )

    collector = Collector(name=f"cardio-{function}")
    raw: str | None = None
    error: str | None = None
    retryable = False
    guard = cfg.timeout_s + cfg.connect_timeout_s + 5.0  # BAML enforces timeout_s itself
    try:
        await asyncio.wait_for(
            getattr(b, function)(
                text, baml_options={"client_registry": registry, "collector": collector}
            ),
            timeout=guard,
        )
        last = collector.last
        raw = last.raw_llm_response if last is not None else None
    except BamlValidationError as exc:
        raw = exc.raw_output  # parsed again below, after removing <think> blocks
    except BamlClientFinishReasonError as exc:
        raw = exc.raw_output
        error, retryable = f"truncated answer (finish reason {exc.finish_reason})", True
    except BamlTimeoutError:
        error, retryable = f"timeout after {cfg.timeout_s:g} s", True
    except BamlClientHttpError as exc:
        error, retryable = describe_http_error(
            int(exc.status_code), str(exc.message), cfg.effective_base_url()
        )
    except TimeoutError:
        error, retryable = f"no answer within {guard:g} s", True
    except BamlClientError as exc:
        error, retryable = f"client error: {exc}", True
    except BamlError as exc:
        error = f"{type(exc).__name__}: {exc}"
    usage: dict[str, Any] = {}
    last = collector.last
    if last is not None:
        usage = {"input": last.usage.input_tokens, "output": last.usage.output_tokens}
    if error is not None:
        return raw, None, error.split("\n\nStack backtrace:", 1)[0], retryable, usage
    if raw is None:
        return None, None, "no answer text", True, usage
    records, problem = parse_answer(b, function, raw)
    if problem:
        return raw, None, f"unparseable answer: {problem}", True, usage
    return raw, records, None, False, usage


async def call_with_retries(
    b: Any,
    registry: Any,
    function: str,
    text: str,
    cfg: LlmClientConfig,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    secrets: Secrets | None = None,
) -> CallOutcome:
    """Attempts until one succeeds or the retries run out. The returned error is redacted
    and bounded (redaction.safe_error); the raw answer is redacted (`secrets`: the values
    to remove, collected now when not given)."""
    raw: str | None = None
    error: str | None = None
    attempts = 0
    tokens_in = tokens_out = 0
    secrets = known_secrets() if secrets is None else secrets
    for attempt in range(1, cfg.max_retries + 2):
        attempts = attempt
        started = time.monotonic()
        raw_now, records, error, retryable, usage = await _attempt(b, registry, function, text, cfg)
        latency_ms = (time.monotonic() - started) * 1000.0
        tokens_in += usage.get("input") or 0
        tokens_out += usage.get("output") or 0
        raw = raw_now if raw_now is not None else raw
        if error is None:
            return CallOutcome(
                _redact_raw(raw_now, secrets),
                records,
                None,
                attempt,
                attempt,
                latency_ms,
                tokens_in,
                tokens_out,
            )
        if not retryable or attempt > cfg.max_retries:
            break
        await sleep(cfg.backoff_delay(attempt))
    return CallOutcome(
        _redact_raw(raw, secrets),
        None,
        safe_error(
            error or "unknown error",
            suffix=f" (after {attempts} attempt{'s' if attempts > 1 else ''})",
            secrets=secrets,
        ),
        attempts,
        attempts,
        None,
        tokens_in or None,
        tokens_out or None,
    )


def _redact_raw(raw: str | None, secrets: Secrets) -> str | None:
    """A raw answer is kept whole for audit, except for secret values an endpoint echoed."""
    return redact(raw, secrets) if raw else raw


# --------------------------------------------------------------------------- runs


@dataclass
class LlmRunReport:
    """What a run did, for asset metadata and the CLI summary."""

    results: list[RowExtraction]
    client: str
    model: str
    prompt_hashes: dict[str, str]
    http_calls: int = 0
    cache_hits: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    failed_rows: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Plain numbers for asset metadata and the CLI (no raw text, no secrets)."""
        rows = len(self.results)
        return {
            "rows": rows,
            "client": self.client,
            "model": self.model,
            "prompt_hashes": dict(self.prompt_hashes),
            "http_calls": self.http_calls,
            "cache_hits": self.cache_hits,
            "failures": self.failures,
            "failure_share": round(self.failures / rows, 4) if rows else 0.0,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "failed_rows": list(self.failed_rows),
            "validation": validation_summary(self.results),
        }


async def extract_rows_async(
    rows: Sequence[TaggedRow],
    *,
    client_name: str,
    client: LlmClientConfig,
    cache: LlmCache,
    max_concurrency: int | None = None,
) -> LlmRunReport:
    """One RowExtraction per row, in order; errors are recorded, never raised per row."""
    b = _baml_async_client()
    registry = build_client_registry(client_name, client)  # raises on a missing key, once
    secrets = known_secrets()  # after the registry: its api_key_env is registered by now
    functions = sorted({FUNCTION_BY_FOCUS[row.focus] for row in rows})
    hashes = {fn: prompt_hash(fn) for fn in functions}

    # One call per distinct (function, input), however often a row text repeats.
    todo: dict[tuple[str, str], str] = {}
    for row in rows:
        todo.setdefault((FUNCTION_BY_FOCUS[row.focus], input_hash(row.text)), row.text)
    entries: dict[tuple[str, str], CacheEntry] = {}
    cached_keys: set[tuple[str, str]] = set()
    for fn in functions:
        hits = cache.successes(fn, hashes[fn], client.model, [ih for f, ih in todo if f == fn])
        for ih, entry in hits.items():
            entries[(fn, ih)] = entry
            cached_keys.add((fn, ih))

    report = LlmRunReport(results=[], client=client_name, model=client.model, prompt_hashes=hashes)
    semaphore = asyncio.Semaphore(max_concurrency or client.max_concurrency)
    store_lock = asyncio.Lock()
    pending: list[CacheEntry] = []

    async def run(key: tuple[str, str], text: str) -> None:
        fn, ih = key
        async with semaphore:
            try:
                outcome = await call_with_retries(b, registry, fn, text, client, secrets=secrets)
            except Exception as exc:  # one row never sinks the batch, whatever went wrong
                log.error(
                    "LLM extraction crashed on one input (%s): %s",
                    fn,
                    redact(traceback.format_exc(), secrets),
                )
                error = safe_error(f"internal error: {exc!r}", secrets=secrets)
                outcome = CallOutcome(None, None, error, 1, 1, None, None, None)
        entry = CacheEntry(
            function=fn,
            prompt_hash=hashes[fn],
            model=client.model,
            input_hash=ih,
            raw_response=outcome.raw,
            parsed=outcome.records,
            error=outcome.error,
            client=client_name,
            provider=client.provider,
            input_tokens=outcome.input_tokens,
            output_tokens=outcome.output_tokens,
            latency_ms=outcome.latency_ms,
            attempts=outcome.attempts,
        )
        entries[key] = entry
        report.http_calls += outcome.http_calls
        report.input_tokens += outcome.input_tokens or 0
        report.output_tokens += outcome.output_tokens or 0
        # Persist at once (a crash keeps what was paid for), in batches under load: while
        # one short DuckDB write runs off the loop, finished entries queue for the next.
        pending.append(entry)
        async with store_lock:
            batch = pending[:]
            pending.clear()
            if batch:
                try:
                    await asyncio.to_thread(cache.store_many, batch)
                except Exception:  # the results are still returned; only their reuse is lost
                    log.exception("could not write the LLM cache at %s", cache.path)

    await asyncio.gather(*(run(k, t) for k, t in todo.items() if k not in cached_keys))

    for row in rows:
        key = (FUNCTION_BY_FOCUS[row.focus], input_hash(row.text))
        entry = entries[key]
        # the cached answer as returned, checked against the row on every read
        records, issues = validate_records(entry.parsed or {}, row.text)
        result = RowExtraction(
            row_id=row.row_id,
            guideline=row.guideline,
            focus=row.focus,
            backend="llm",
            model=client.model,
            prompt_hash=hashes[key[0]],
            input_hash=key[1],
            raw_output=entry.raw_response,
            concepts=[ExtractedConcept.model_validate(c) for c in records["concepts"]],
            actions=[ExtractedAction.model_validate(a) for a in records["actions"]],
            error=entry.error,
            cached=key in cached_keys,
            validation=issues,
        )
        if result.cached:
            report.cache_hits += 1
        if result.error:
            report.failures += 1
            report.failed_rows.append(row.row_id)
            log.warning(
                "LLM extraction failed for %s (%s): %s", row.row_id, row.focus, result.error
            )
        report.results.append(result)
    return report


def extract_rows(
    rows: Sequence[TaggedRow],
    *,
    client_name: str | None = None,
    models_config: Path | str | None = None,
    cache_path: Path | str | None = None,
    max_concurrency: int | None = None,
) -> LlmRunReport:
    """Synchronous entry point (Dagster ops and the CLI are synchronous)."""
    name, client = load_models_config(models_config).client(client_name)
    cache = LlmCache(cache_path)
    coro_factory = lambda: extract_rows_async(  # noqa: E731 - built where it runs
        rows, client_name=name, client=client, cache=cache, max_concurrency=max_concurrency
    )
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro_factory())
    # Called from inside an event loop: run on a fresh loop in a worker thread.
    box: dict[str, Any] = {}

    def runner() -> None:
        try:
            box["value"] = asyncio.run(coro_factory())
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=runner, name="cardio-llm-extraction")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
