"""Guideline partitions: one dynamic partition per guideline.

Partition keys come from two places:
- the registry, configs/guidelines.yaml (``id`` of each entry);
- the guideline inbox folder (configs/pipeline.yaml ``inbox.dir``; default
  ``$CARDIO_HOME/inbox``, i.e. ``var/inbox/``). Drop a document there (.html, .htm, .md,
  .docx, .json Docling export, .pdf) and ``guideline_inbox_sensor`` adds a partition named
  after its lower-cased file stem (other characters become '_') and requests a run of every
  asset for it. Its title is the file stem until you register it in configs/guidelines.yaml
  (a registry entry with the same id wins). Replacing the file requests a new run.

``sync_guideline_partitions`` adds missing keys. Loading the definitions never calls it
(importing them must not write to an instance); the inbox sensor
(cardio_assets/sensors/inbox.py) adds new keys on every tick while the daemon runs, and
``cardio demo`` and ``cardio partitions sync`` call it, so the Dagster UI and
``dagster asset materialize --partition`` see them.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

from cardio_assets.config import (
    GUIDELINE_ID_PATTERN,
    ConfigError,
    GuidelineEntry,
    PipelineSettings,
    entry_error,
    load_pipeline_settings,
    load_registry,
)

_log = logging.getLogger(__name__)
GUIDELINE_PARTITIONS_NAME = "guidelines"
guideline_partitions = dg.DynamicPartitionsDefinition(name=GUIDELINE_PARTITIONS_NAME)


class UnknownGuidelineError(LookupError):
    pass


class InvalidGuidelineEntryError(ConfigError):
    """The partition's registry entry is invalid (the message names the key)."""


def inbox_guideline_id(path: Path) -> str:
    key = re.sub(r"[^a-z0-9_-]+", "_", path.stem.lower()).strip("_-")
    return key or "document"


@dataclass(frozen=True)
class InboxScan:
    """The inbox's documents by partition key, and the keys two or more files claim."""

    documents: dict[str, Path]
    clashes: dict[str, list[Path]]

    def warnings(self) -> list[str]:
        return [
            f"inbox files {' and '.join(repr(p.name) for p in files)} both map to partition "
            f"'{key}': both ignored; rename or remove one of them"
            for key, files in self.clashes.items()
        ]


def scan_inbox(folder: Path, extensions: list[str]) -> InboxScan:
    """Supported files in ``folder`` by partition key. A key claimed by two files
    ("HF Sample.html", "hf_sample.md") names neither: picking one would run the wrong
    document silently, so both are left out and reported."""
    if not folder.is_dir():
        return InboxScan({}, {})
    allowed = {e.lower() for e in extensions}
    by_key: dict[str, list[Path]] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix.lower() in allowed and not path.name.startswith("."):
            by_key.setdefault(inbox_guideline_id(path), []).append(path)
    return InboxScan(
        documents={k: v[0] for k, v in by_key.items() if len(v) == 1},
        clashes={k: v for k, v in by_key.items() if len(v) > 1},
    )


def inbox_documents(settings: PipelineSettings | None = None) -> dict[str, Path]:
    """Partition key -> document for every supported file in the inbox folder (files that
    clash on one key are left out, with a logged warning naming both)."""
    settings = settings or load_pipeline_settings()
    scan = scan_inbox(settings.inbox_dir(), settings.inbox.extensions)
    for warning in scan.warnings():
        _log.warning(warning)
    return scan.documents


def resolve_guideline(guideline_id: str) -> GuidelineEntry:
    """The registry entry for a partition, or an entry made up for an inbox document."""
    registry = load_registry()
    entry = registry.get(guideline_id)
    if entry is not None:
        return entry
    if guideline_id in registry.invalid:
        raise InvalidGuidelineEntryError(entry_error(registry, guideline_id))
    document = inbox_documents().get(guideline_id)
    if document is not None:
        return GuidelineEntry(
            id=guideline_id, title=document.stem.replace("_", " "), sources=[str(document)]
        )
    raise UnknownGuidelineError(
        f"guideline '{guideline_id}' is neither in configs/guidelines.yaml nor a document in "
        f"the inbox {load_pipeline_settings().inbox_dir()}; register it or drop its file there"
    )


def registry_partition_ids(registry=None) -> list[str]:
    """Registry ids that are partitions: the valid entries and the invalid ones whose id is
    well-formed (their runs fail naming the bad key; the others run)."""
    registry = registry or load_registry()
    ids = list(registry.ids)
    ids += [
        key for key in registry.invalid if key not in ids and re.match(GUIDELINE_ID_PATTERN, key)
    ]
    return ids


def known_guideline_ids() -> list[str]:
    ids = registry_partition_ids()
    ids += [key for key in inbox_documents() if key not in ids]
    return ids


def sync_guideline_partitions(instance: dg.DagsterInstance, prune: bool = False) -> list[str]:
    """Add partitions for every registered or inbox guideline; with ``prune``, also delete
    partitions that are in neither. Returns the keys added."""
    wanted = known_guideline_ids()
    existing = set(instance.get_dynamic_partitions(GUIDELINE_PARTITIONS_NAME))
    added = [key for key in wanted if key not in existing]
    if added:
        instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, added)
    if prune:
        for key in sorted(existing - set(wanted)):
            instance.delete_dynamic_partition(GUIDELINE_PARTITIONS_NAME, key)
    return added
