"""Small helpers shared by asset definitions (metadata previews, code versions, failures)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import dagster as dg

from cardio_assets.config import config_hash


def stage_code_version(stage_version: str, *configs: Any) -> str:
    """'<code revision>-<hash of exactly the config the stage reads>'."""
    return f"{stage_version}-{config_hash(list(configs))}" if configs else stage_version


def _cell(value: Any, width: int) -> str:
    text = "" if value is None else str(value)
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def markdown_preview(
    items: Sequence[Any], columns: dict[str, Callable[[Any], Any]], limit: int = 10, width: int = 90
) -> dg.MetadataValue:
    """Markdown table of the first ``limit`` items (what a reviewer checks in the UI)."""
    if not items:
        return dg.MetadataValue.md("_no rows_")
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for item in items[:limit]:
        lines.append("| " + " | ".join(_cell(get(item), width) for get in columns.values()) + " |")
    if len(items) > limit:
        lines.append(f"\n_{len(items) - limit} more not shown_")
    return dg.MetadataValue.md("\n".join(lines))


def warnings_metadata(warnings: list[str]) -> dg.MetadataValue:
    if not warnings:
        return dg.MetadataValue.md("_none_")
    return dg.MetadataValue.md("\n".join(f"- {w}" for w in warnings))
