"""Adding a guideline to configs/guidelines.yaml without editing YAML by hand.

The registry file is the users' own: its comments and layout are kept, so a new entry is
appended as text under ``guidelines:`` and the whole file is validated (every entry, the
new one included) before it replaces the old file atomically. A duplicate id, an invalid
field or a registry that was already broken is refused with the key named.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import yaml

from cardio_assets.config import (
    GUIDELINE_ID_PATTERN,
    ConfigError,
    GuidelineEntry,
    config_dir,
    load_registry,
)


class RegistryEditError(ConfigError):
    """The entry cannot be added (names the key or the clash)."""


def entry_yaml(entry: GuidelineEntry) -> str:
    """The entry as one YAML list item, indented like the entries of the shipped file."""
    data = entry.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    data = {
        "id": entry.id,
        "title": entry.title,
        **{k: v for k, v in data.items() if k not in ("id", "title")},
    }
    text = yaml.safe_dump([data], sort_keys=False, allow_unicode=True, width=100)
    return "".join("  " + line if line.strip() else line for line in text.splitlines(True))


def add_guideline(entry: GuidelineEntry, path: Path | None = None) -> Path:
    """Append ``entry`` to the registry (configs/guidelines.yaml by default)."""
    path = path or config_dir() / "guidelines.yaml"
    registry = load_registry(path)
    registry.raise_if_invalid(path)  # never add to a file that already has bad entries
    if registry.get(entry.id) is not None or entry.id in registry.invalid:
        raise RegistryEditError(
            f"{path}: a guideline with id '{entry.id}' is already registered; choose another "
            "--id or edit the existing entry"
        )
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    if not re.search(r"^guidelines:", text, re.MULTILINE):
        text += "guidelines:\n"
    elif not (yaml.safe_load(text) or {}).get("guidelines"):
        # "guidelines: []" or an empty key: the list starts with this entry
        text = re.sub(r"^guidelines:.*$", "guidelines:", text, count=1, flags=re.MULTILINE)
    candidate = text + entry_yaml(entry)
    fd, tmp = tempfile.mkstemp(prefix=".guidelines-", suffix=".yaml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(candidate)
        checked = load_registry(Path(tmp))
        checked.raise_if_invalid(path)
        if checked.get(entry.id) is None:
            raise RegistryEditError(f"{path}: the new entry '{entry.id}' did not read back")
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def valid_id(value: str) -> bool:
    return bool(re.match(GUIDELINE_ID_PATTERN, value))
