"""Asset ``main_extractions``: the MAIN pass (conditions, parameters, actions with class,
level and polarity, outcomes) over every tagged row, by the lexicon or the llm backend.

One RowExtraction per row, failures included (the asset succeeds and counts them; the
``extraction_failures`` check fails above configs/pipeline.yaml extraction.max_failure_share).
A re-run pays only for failed rows: the LLM response cache answers the rest.
"""

from cardio_assets.assets._extraction_factory import build_extraction_asset

main_extractions = build_extraction_asset(
    "MAIN",
    "main_extractions",
    "MAIN extraction pass per row (backend: run config or configs/pipeline.yaml extraction).",
)
