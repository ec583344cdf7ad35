"""Secret values out of every error text before it is stored, logged or printed.

Why: an endpoint may echo the credentials it received (a 401 body such as "Incorrect API
key provided: Bearer sk-..."), BAML passes that body on in its exception, and an error text
is stored per row (warehouse, LLM cache), logged (Dagster event log, compute logs) and
printed (``cardio extract``). So every value this process knows to be secret is replaced by
``[REDACTED:<NAME>]`` where error text is created or persisted.

The known secrets are collected at call time, never kept: the ``api_key_env`` variables of
configs/models.yaml (and of any other models file this process built a client from),
NEO4J_PASSWORD, and the local Neo4j launcher's generated password
($CARDIO_HOME/neo4j/password). Redaction runs before truncation, so a cut can never leave
part of a key behind. Pure: no Dagster, no records (records.py imports this module).
"""

from __future__ import annotations

import json
import os
import re
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from urllib.parse import quote, quote_plus

# The one bound on an error text stored per row (RowExtraction.error, MergedRow.errors, the
# LLM cache): long enough for a status line and the start of a server's answer, never a
# whole prompt or page.
MAX_ERROR_CHARS = 600
# Shorter values are not redacted: replacing every "abc" would mangle ordinary text, and
# such a value is no secret worth the name (Neo4j itself refuses passwords under 8).
MIN_SECRET_CHARS = 4

NEO4J_PASSWORD_ENV = "NEO4J_PASSWORD"
LOCAL_NEO4J_LABEL = "LOCAL_NEO4J_PASSWORD"

# api_key_env names of models files other than configs/models.yaml that this process built
# an LLM client from (`--models`, LlmExtractorResource.models_config): names only, never values.
_REGISTERED_ENV: set[str] = set()

Secrets = Mapping[str, str]  # secret value (or an encoded form of it) -> label


class RedactedError(RuntimeError):
    """Stands in for an exception whose text carried a secret; holds the redacted text."""


def register_secret_env(name: str) -> None:
    """Treat the value of environment variable `name` as secret from now on."""
    if name:
        _REGISTERED_ENV.add(name)


def _models_yaml_key_names() -> list[str]:
    """api_key_env names of configs/models.yaml and of the config dir's models.yaml."""
    from cardio_assets import config, paths

    files = [paths.DEFAULT_CONFIG_DIR / "models.yaml", config.config_path("models.yaml")]
    return [name for path in dict.fromkeys(files) for name in config.models_key_env_names(path)]


def _local_neo4j_password() -> str | None:
    from cardio_assets import neo4j_local

    try:
        return neo4j_local.read_password(neo4j_local.local_paths())
    except OSError:
        return None


def _encodings(value: str) -> set[str]:
    """The value as written, JSON/Rust-escaped and URL-encoded (how bodies and URLs echo it)."""
    forms = {value, json.dumps(value)[1:-1], quote(value, safe=""), quote_plus(value)}
    return {f for f in forms if len(f) >= MIN_SECRET_CHARS}


def known_secrets() -> dict[str, str]:
    """Every secret value this process knows right now, each encoded form -> its label."""
    labelled: list[tuple[str, str]] = []
    names = [*_models_yaml_key_names(), NEO4J_PASSWORD_ENV, *sorted(_REGISTERED_ENV)]
    for name in dict.fromkeys(names):
        value = os.environ.get(name, "").strip()
        if value:
            labelled.append((name, value))
    local = _local_neo4j_password()
    if local:
        labelled.append((LOCAL_NEO4J_LABEL, local))
    secrets: dict[str, str] = {}
    for label, value in labelled:
        if len(value) < MIN_SECRET_CHARS:
            continue
        for form in _encodings(value):
            secrets.setdefault(form, label)
    return secrets


def _pattern(secrets: Secrets) -> re.Pattern[str] | None:
    if not secrets:
        return None
    # Longest first, one pass: a key containing another secret is replaced whole, and a
    # label already written is never matched again.
    return re.compile("|".join(re.escape(s) for s in sorted(secrets, key=len, reverse=True)))


def redact(text: str, secrets: Secrets | None = None) -> str:
    """`text` with every known secret value replaced by [REDACTED:<NAME>]."""
    if not text:
        return text
    secrets = known_secrets() if secrets is None else secrets
    pattern = _pattern(secrets)
    if pattern is None:
        return text
    return pattern.sub(lambda m: f"[REDACTED:{secrets[m.group(0)]}]", text)


def contains_secret(text: str, secrets: Secrets | None = None) -> bool:
    secrets = known_secrets() if secrets is None else secrets
    pattern = _pattern(secrets)
    return bool(text and pattern is not None and pattern.search(text))


def bound(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """At most `limit` characters; a cut says how long the text was."""
    if len(text) <= limit:
        return text
    marker = f" [... cut, {len(text)} chars in all]"
    return text[: max(0, limit - len(marker))].rstrip() + marker


def safe_error(text: str, *, suffix: str = "", secrets: Secrets | None = None) -> str:
    """An error text fit to store: redacted, then bounded by MAX_ERROR_CHARS with `suffix`
    (e.g. "(after 3 attempts)") kept whole at the end."""
    clean = redact(text, secrets)
    suffix = redact(suffix, secrets)
    return bound(clean, MAX_ERROR_CHARS - len(suffix)) + suffix


def redacted_copy(exc: BaseException, secrets: Secrets | None = None) -> RedactedError | None:
    """A RedactedError to raise instead of `exc` when its text (cause chain included)
    carries a secret; None when it carries none and may be raised as it is."""
    secrets = known_secrets() if secrets is None else secrets
    full = "".join(traceback.format_exception(exc))
    if not contains_secret(full, secrets):
        return None
    parts = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts.append(f"{type(current).__name__}: {redact(str(current), secrets)}")
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__
        )
    return RedactedError(" <- caused by ".join(parts))


@contextmanager
def secrets_redacted() -> Iterator[None]:
    """Re-raise an exception that carries a secret as a RedactedError (``from None``, so the
    original text is neither chained nor shown); other exceptions pass unchanged."""
    try:
        yield
    except Exception as exc:
        replacement = redacted_copy(exc)
        if replacement is None:
            raise
        raise replacement from None
