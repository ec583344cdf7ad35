"""The SNOMED CT terminology: an RF2 release built into a DuckDB store + a token index.

No Dagster here (``resources/terminology.py`` wraps it for the assets), so ``cardio snomed
load``, ``cardio ground``, the lexicon and the benchmarks use it directly. One module per
seam:

- ``rf2``: the RF2 Snapshot format and the checks on its files (header, UTF-8, columns);
- ``build``: a release -> a store (``load_rf2``): active content, the is-a closure, the
  ``load_skip`` account, atomic install;
- ``index``: the numpy inverted token index searched per term;
- ``store``: an opened store (``SnomedStore``) and what a store file must hold;
- ``location``: which store a run uses ($CARDIO_SNOMED_STORE or the bundled sample, built
  on first use) and its identity for code versions;
- ``text``: the folding and tokenizer shared by the index and grounding.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str], None]  # one human-readable line per step


def say(progress: Progress | None, msg: str) -> None:
    if progress:
        progress(msg)
