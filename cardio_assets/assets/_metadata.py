"""What the assets show in the UI: markdown previews, warning lists, role counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import dagster as dg


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


def role_counts(roles: Iterable[str]) -> dict[str, int]:
    """Concepts per role, sorted by role: the 'roles' metadata of the extraction assets."""
    return dict(sorted(Counter(roles).items()))
