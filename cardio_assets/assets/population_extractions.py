"""Asset ``population_extractions``: the POPULATION pass (cohort conditions only) over every
tagged row; same backends, records, failure handling and check as ``main_extractions``."""

from cardio_assets.assets._extraction_factory import build_extraction_asset

population_extractions = build_extraction_asset(
    "POPULATION",
    "population_extractions",
    "POPULATION extraction pass per row: the cohort conditions the recommendation applies to.",
)
