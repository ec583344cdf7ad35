"""Load and validate every file under configs/: the one place that reads them.

- ``pipeline.yaml``: thresholds and settings of each stage (``load_pipeline_settings``);
- ``guidelines.yaml``: the guideline registry (``load_registry``);
- ``guideline_graph_schema.yaml``: the per-role grounding filters (``load_grounding_schema``);
- ``models.yaml``: the LLM clients (``load_models_config``);
- ``abbreviations.txt``: the abbreviation list (``load_abbreviations``);
- ``ask.yaml``: units, analytes and LOINC codes of ``cardio ask`` (``load_ask_config``).

Every file is parsed into a typed model on load, so a typo fails at once with the file and
the key (or line) in one message instead of deep inside a run. The folder is resolved at
call time (``config_dir()``: ``$CARDIO_CONFIG_DIR``, else the repo's configs/), so a test or
a user pointing CARDIO_CONFIG_DIR elsewhere after import is honoured for every file; a file
that folder lacks comes from the repo's configs/ (``config_path``). Each
stage hashes exactly the config it reads (``config_hash``, ``file_sha256``) into its
asset's code_version, so a change there marks that stage and its downstream stale and
nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from cardio_assets import paths
from cardio_assets.errors import ConfigError
from cardio_assets.llm_clients import ModelsConfig
from cardio_assets.records import ROLES, Role

if TYPE_CHECKING:
    from cardio_assets.logic.abbreviations import Abbreviations
    from cardio_assets.logic.ask.config import AskConfig

GUIDELINE_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
M = TypeVar("M", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- registry


class GuidelineEntry(_Strict):
    """One guideline = one partition of every asset."""

    id: str = Field(pattern=GUIDELINE_ID_PATTERN)
    title: str = Field(min_length=1)
    society: str | None = None
    year: int | None = Field(default=None, ge=1900, le=2100)
    sources: list[str] = Field(min_length=1)
    expected_rows: dict[str, int] = Field(default_factory=dict)

    @field_validator("sources")
    @classmethod
    def _non_empty_paths(cls, value: list[str]) -> list[str]:
        for source in value:
            if not source.strip():
                raise ValueError("source path must not be empty")
        return value

    @field_validator("expected_rows")
    @classmethod
    def _non_negative(cls, value: dict[str, int]) -> dict[str, int]:
        for table_id, count in value.items():
            if count < 0:
                raise ValueError(f"expected_rows[{table_id}] must be >= 0, got {count}")
        return value

    def source_paths(self) -> list[Path]:
        """Sources as absolute paths (relative entries resolve against the repo root)."""
        return [resolve_project_path(s) for s in self.sources]


class GuidelineRegistry(_Strict):
    """The valid entries, and what is wrong with the others.

    Entries are validated one by one: a bad entry fails only its own partition (with the
    key named), never the others."""

    guidelines: list[GuidelineEntry] = Field(default_factory=list)
    # id -> why that entry is unusable (ids that could be read; see ``problems`` for all)
    invalid: dict[str, str] = Field(default_factory=dict)
    problems: list[str] = Field(default_factory=list)  # one line per bad entry

    def get(self, guideline_id: str) -> GuidelineEntry | None:
        return next((g for g in self.guidelines if g.id == guideline_id), None)

    @property
    def ids(self) -> list[str]:
        return [g.id for g in self.guidelines]

    def raise_if_invalid(self, path: Path) -> None:
        """For callers that need the whole file right (e.g. before writing to it)."""
        if self.problems:
            raise ConfigError(
                f"{path}: invalid configuration\n" + "\n".join(f"  {p}" for p in self.problems)
            )


# --------------------------------------------------------------------------- pipeline


class InboxSettings(_Strict):
    # Relative paths resolve against $CARDIO_HOME (default var/), so the default is var/inbox.
    dir: str = "inbox"
    extensions: list[str] = Field(
        default_factory=lambda: [".html", ".htm", ".md", ".docx", ".json", ".pdf"]
    )


class DoclingSettings(_Strict):
    # Folder holding Docling's layout + TableFormer weights (`docling-tools models download`).
    # Only PDF input needs it; null = Docling's default cache (~/.cache/docling/models).
    artifacts_path: str | None = None
    # Which reader turns a PDF into tables: auto = Docling's full pipeline (TableFormer) when
    # its weights are in artifacts_path (or the default cache) and torch is installed, else
    # the text-layer reader (no weights); tableformer = always Docling (a clear error without
    # the weights); text-layer = always the text layer (cardio_assets/logic/pdf_tables.py).
    pdf_reader: Literal["auto", "tableformer", "text-layer"] = "auto"
    # Lines right under a table that start with one of these are its footnotes.
    footnote_marker_pattern: str = r"^\s*(?:[a-h]|\*{1,3}|[†‡§¶#]|\d{1,2})(?=[\s.):]|[A-Z])"
    # A caption/title containing one of these marks a table piece as a continuation.
    continuation_words: list[str] = Field(default_factory=lambda: ["continued", "cont."])

    @field_validator("footnote_marker_pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from exc
        return value


class RowSettings(_Strict):
    # Header labels (lower-case, footnote markers stripped) that identify the class / level columns.
    class_labels: list[str] = Field(
        default_factory=lambda: ["class", "class of recommendation", "cor", "recommendation class"]
    )
    level_labels: list[str] = Field(
        default_factory=lambda: ["level", "level of evidence", "loe", "evidence level"]
    )


SHIPPED_SPAN_TAGGER = "data/models/lexicon_span_tagger.crfsuite"
SpanTaggerScope = Literal["learned_guidelines", "all_guidelines"]
SPAN_TAGGER_SCOPES: tuple[str, ...] = get_args(SpanTaggerScope)


class ExtractionSettings(_Strict):
    # Backend of main_extractions / population_extractions and `cardio extract`; a run config
    # or --backend overrides it. lexicon = offline default; llm = BAML over models.yaml.
    backend: Literal["lexicon", "llm"] = "lexicon"
    # Client name in configs/models.yaml for the llm backend (null = its `default`).
    model: str | None = None
    # The extraction_failures asset check fails above this share of failed rows, and then
    # blocks what follows in the run (a failed extraction must not replace a good graph).
    max_failure_share: float = Field(default=0.1, ge=0.0, le=1.0)
    # The lexicon's learned second look at concept spans and roles (a CRF model file,
    # relative to the project root; null = the rules alone). Retrain it with
    # benchmarks/train_span_tagger.py after changing the rules.
    span_tagger: str | None = SHIPPED_SPAN_TAGGER
    # Which rows that model re-draws: those of the guidelines it was trained on (its
    # sidecar JSON lists them; other guidelines get the rules alone, which it does not beat
    # on a guideline it never saw), or every row.
    span_tagger_scope: SpanTaggerScope = "learned_guidelines"


class GroundingStageSettings(_Strict):
    # Candidates kept per term by grounding_candidates (threshold-free; filters live in
    # configs/guideline_graph_schema.yaml and never trigger a new search).
    top_k: int = Field(default=20, ge=1, le=200)
    # grounding_index checks: mapped share of distinct concepts, median winning score.
    # Below min_mapped_share the coverage check warns (a small terminology such as the
    # bundled sample maps less); below block_below_mapped_share it fails and blocks the rules
    # and the graph load (a missing or wrong terminology store maps next to nothing).
    min_mapped_share: float = Field(default=0.5, ge=0.0, le=1.0)
    block_below_mapped_share: float = Field(default=0.2, ge=0.0, le=1.0)
    min_median_score: float = Field(default=0.85, ge=0.0, le=1.0)
    # Interface terms (a name tables write -> the SNOMED CT description it stands for),
    # each searched as one more wording of the name; the filters still decide
    interface_terms: dict[str, str] = Field(default_factory=dict)

    @field_validator("interface_terms")
    @classmethod
    def _interface_terms_name_descriptions(cls, value: dict[str, str]) -> dict[str, str]:
        for name, description in value.items():
            if not name or name != " ".join(name.lower().split()) or not description.strip():
                raise ValueError(
                    f"interface term {name!r}: write a lower-case name -> a description"
                )
        return value

    @model_validator(mode="after")
    def _block_floor_below_warning(self) -> GroundingStageSettings:
        if self.block_below_mapped_share > self.min_mapped_share:
            raise ValueError(
                "block_below_mapped_share must not exceed min_mapped_share "
                f"({self.block_below_mapped_share} > {self.min_mapped_share})"
            )
        return self


class RulesSettings(_Strict):
    # The rules_have_actions check warns when a rule recommends nothing (a diagnostic
    # statement can be such a row) and fails, blocking the graph load, when fewer than this
    # share of the rules have an action: extraction then lost the recommendations.
    min_action_share: float = Field(default=0.5, ge=0.0, le=1.0)


class GraphSettings(_Strict):
    # neo4j_graph never replaces a loaded version of a guideline with one holding fewer than
    # this share of its rules, unless the run says so (neo4j_graph config allow_shrink: true).
    min_rule_share: float = Field(default=0.5, ge=0.0, le=1.0)


class BackfillSettings(_Strict):
    # true: a backfill of N guidelines runs every stage but neo4j_graph as ONE run taking all
    # N partitions (BackfillPolicy.single_run); false: one run per guideline (what
    # benchmarks/backfill.py compares). neo4j_graph always loads one guideline per run.
    single_run: bool = True


class ExecutionSettings(_Strict):
    # How a run's steps are started (Dagster's multiprocess executor): "forkserver" forks
    # each step from one process that imported the definitions once per run; "spawn" starts
    # a fresh interpreter per step (Dagster's default, each step pays the imports);
    # "in_process" runs every step in the run's own process, one after another.
    start_method: Literal["forkserver", "spawn", "in_process"] = "forkserver"


class PipelineSettings(_Strict):
    inbox: InboxSettings = Field(default_factory=InboxSettings)
    docling: DoclingSettings = Field(default_factory=DoclingSettings)
    rows: RowSettings = Field(default_factory=RowSettings)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    grounding: GroundingStageSettings = Field(default_factory=GroundingStageSettings)
    rules: RulesSettings = Field(default_factory=RulesSettings)
    graph: GraphSettings = Field(default_factory=GraphSettings)
    backfill: BackfillSettings = Field(default_factory=BackfillSettings)
    execution: ExecutionSettings = Field(default_factory=ExecutionSettings)

    def inbox_dir(self) -> Path:
        path = Path(self.inbox.dir).expanduser()
        return path if path.is_absolute() else paths.var_dir() / path


# --------------------------------------------------------------------------- loading


CONFIG_DIR_ENV = "CARDIO_CONFIG_DIR"


def config_dir() -> Path:
    """$CARDIO_CONFIG_DIR, else the repo's configs/; read at every call, never cached."""
    return Path(os.environ.get(CONFIG_DIR_ENV) or paths.DEFAULT_CONFIG_DIR)


def config_path(name: str) -> Path:
    """A config file as the folder is now ("pipeline.yaml", "abbreviations.txt").

    $CARDIO_CONFIG_DIR needs to hold only the files it changes: one it lacks is read from
    the repo's configs/ (as the abbreviations and the grounding schema always were)."""
    folder = config_dir()
    path = folder / name
    if path.exists():
        return path
    default = paths.DEFAULT_CONFIG_DIR / name
    return default if default.exists() else path


def resolve_project_path(path: str | Path) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else paths.PROJECT_ROOT / p


def _dotted_key(loc: tuple[Any, ...], data: Any) -> str:
    """Turn a pydantic error location into 'guidelines[esc_ccs].title' style keys."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int):
            label = str(item)
            if isinstance(node, list) and 0 <= item < len(node):
                node = node[item]
                if isinstance(node, dict) and isinstance(node.get("id"), str):
                    label = node["id"]
            else:
                node = None
            parts.append(f"[{label}]")
        else:
            parts.append(("." if parts else "") + str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return "".join(parts) or "<top level>"


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (PyYAML keeps the last)."""


def _unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key '{key}' (first given on line {seen[key] + 1}); "
                "a second value would silently replace the first",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def _load_yaml(path: Path) -> Any:
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)  # noqa: S506
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from exc


def _validate(model: type[M], data: Any, path: Path) -> M:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"  key '{_dotted_key(tuple(err['loc']), data)}': {err['msg']}" for err in exc.errors()
        ]
        raise ConfigError(f"{path}: invalid configuration\n" + "\n".join(problems)) from None


def _entry_problems(index: int, item: Any, data: dict) -> tuple[GuidelineEntry | None, list[str]]:
    """The entry, or the one-line problems that make it unusable (keys named)."""
    if not isinstance(item, dict):
        return None, [f"key 'guidelines[{index}]': expected a mapping, got {type(item).__name__}"]
    try:
        return GuidelineEntry.model_validate(item), []
    except ValidationError as exc:
        return None, [
            f"key '{_dotted_key(('guidelines', index, *err['loc']), data)}': {err['msg']}"
            for err in exc.errors()
        ]


def load_registry(path: Path | None = None) -> GuidelineRegistry:
    """Every valid entry, plus the problems of the invalid ones. Raises ConfigError only
    when the file as a whole is unusable (missing, not YAML, a duplicate key, not a list)."""
    path = path or config_path("guidelines.yaml")
    data = _load_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level, got {type(data).__name__}")
    extra = sorted(set(data) - {"guidelines"})
    if extra:
        raise ConfigError(
            f"{path}: invalid configuration\n  key '{extra[0]}': Extra inputs are not permitted "
            "(the file holds one key, 'guidelines')"
        )
    items = data.get("guidelines") or []
    if not isinstance(items, list):
        raise ConfigError(
            f"{path}: invalid configuration\n  key 'guidelines': expected a list of entries"
        )
    entries: list[GuidelineEntry] = []
    invalid: dict[str, str] = {}
    problems: list[str] = []
    id_positions: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            id_positions.setdefault(item["id"], []).append(index)
    for index, item in enumerate(items):
        entry, errors = _entry_problems(index, item, data)
        raw_id = item.get("id") if isinstance(item, dict) else None
        if isinstance(raw_id, str) and len(id_positions[raw_id]) > 1:
            where = ", ".join(f"#{i + 1}" for i in id_positions[raw_id])
            errors = [*errors, f"key 'guidelines[{raw_id}].id': duplicate id (entries {where})"]
        if errors:
            problems.extend(errors)
            if isinstance(raw_id, str):
                previous = invalid.get(raw_id)
                invalid[raw_id] = "; ".join(filter(None, [previous, *errors]))
        elif entry is not None:
            entries.append(entry)
    return GuidelineRegistry(guidelines=entries, invalid=invalid, problems=problems)


def entry_error(registry: GuidelineRegistry, guideline_id: str, path: Path | None = None) -> str:
    """The message a partition with an invalid registry entry fails with."""
    path = path or config_path("guidelines.yaml")
    return (
        f"guideline '{guideline_id}': invalid entry in {path}: {registry.invalid[guideline_id]}. "
        "Fix the entry; the other guidelines are not affected."
    )


def load_pipeline_settings(path: Path | None = None) -> PipelineSettings:
    path = path or config_path("pipeline.yaml")
    if not path.exists():
        return PipelineSettings()
    return _validate(PipelineSettings, _load_yaml(path), path)


def config_hash(obj: Any) -> str:
    """Stable short sha256 of exactly the config a stage reads (for asset code_version)."""
    if isinstance(obj, BaseModel):
        obj = obj.model_dump(mode="json", by_alias=True)
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def file_sha256(path: Path) -> str:
    """Content hash of a config file, for code versions (a missing file hashes as empty)."""
    data = path.read_bytes() if path.is_file() else b""
    return hashlib.sha256(data).hexdigest()[:16]


# --------------------------------------------------------------------------- abbreviations


def _abbreviation_lines(path: Path | None) -> list[tuple[str, str, bool]]:
    """(abbreviation, expansion, yields) per ``ABBREVIATION<TAB>expansion[<TAB>yields]``
    line; a malformed line is a ConfigError naming the file and line."""
    path = Path(path) if path else config_path("abbreviations.txt")
    out: list[tuple[str, str, bool]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if (
            len(parts) not in (2, 3)
            or not parts[0].strip()
            or not parts[1].strip()
            or (len(parts) == 3 and parts[2].strip() != "yields")
        ):
            raise ConfigError(
                f"{path}:{lineno}: expected 'ABBREVIATION<TAB>expansion' (optionally "
                f"'<TAB>yields'), got {line!r}"
            )
        out.append((parts[0].strip(), parts[1].strip(), len(parts) == 3))
    return out


def read_abbreviations(path: Path | None = None) -> dict[str, str]:
    """``ABBREVIATION<TAB>expansion`` lines (keys kept exactly as written)."""
    return {short: long for short, long, _ in _abbreviation_lines(path)}


def load_abbreviations(path: Path | None = None) -> Abbreviations:
    """The abbreviation list as the one expander extraction, merge and grounding share;
    the entries marked ``yields`` give way to a guideline's own definition."""
    from cardio_assets.logic.abbreviations import Abbreviations

    lines = _abbreviation_lines(path)
    return Abbreviations(
        {short: long for short, long, _ in lines},
        yields=[short for short, _, yields in lines if yields],
    )


# --------------------------------------------------------------------------- ask


def load_ask_config(path: Path | None = None) -> AskConfig:
    """configs/ask.yaml as an AskConfig (models in logic/ask/config.py); ConfigError naming
    the file and the key (a duplicate key, an unknown key, a molar mass <= 0)."""
    from cardio_assets.logic.ask.config import AskConfig

    path = Path(path) if path else config_path("ask.yaml")
    return _validate(AskConfig, _load_yaml(path), path)


# --------------------------------------------------------------------------- grounding schema


class RoleFilter(BaseModel):
    """Filters for one role. Every grounding threshold lives here and nowhere else."""

    model_config = ConfigDict(extra="forbid")

    target_label: Role
    allowed_roots: list[str] = Field(default_factory=list)  # SCTIDs; empty = no domain filter
    semantic_tags: list[str] = Field(default_factory=list)  # FSN tags; empty = no tag filter
    min_match_score: float = Field(ge=0.0, le=1.0)
    off_domain_min_score: float | None = Field(default=None, ge=0.0, le=1.0)

    @field_validator("allowed_roots", mode="before")
    @classmethod
    def _ids_as_text(cls, value: object) -> object:
        if isinstance(value, list):
            out = []
            for v in value:
                text = str(v).strip()
                if not text.isdigit():
                    raise ValueError(f"{v!r} is not a SNOMED CT concept id (digits only)")
                out.append(text)
            return out
        return value

    @field_validator("semantic_tags", mode="before")
    @classmethod
    def _tags_lower(cls, value: object) -> object:
        if isinstance(value, list):
            return [str(v).strip().lower() for v in value]
        return value


class GroundingSchema(BaseModel):
    """The ``roles`` section of guideline_graph_schema.yaml (other top-level keys belong
    to the graph mapping and are ignored here)."""

    model_config = ConfigDict(extra="forbid")

    roles: dict[Role, RoleFilter]

    @field_validator("roles")
    @classmethod
    def _all_roles(cls, value: dict[str, RoleFilter]) -> dict[str, RoleFilter]:
        missing = [r for r in ROLES if r not in value]
        if missing:
            raise ValueError(f"missing role(s) {missing}; every role needs its filters")
        return value

    def rule(self, role: str) -> RoleFilter:
        if role not in self.roles:
            raise ConfigError(f"unknown role {role!r}; expected one of {list(ROLES)}")
        return self.roles[role]  # type: ignore[index]


def grounding_schema_path() -> Path:
    return config_path("guideline_graph_schema.yaml")


def parse_grounding_schema(
    data: object, source: str = "guideline_graph_schema.yaml"
) -> GroundingSchema:
    """Validate the ``roles`` section; one line naming the file, the key path and the fix."""
    fix = f"fix {source} (its header comments describe every key) and reload"
    if not isinstance(data, dict) or "roles" not in data:
        raise ConfigError(f"{source}: missing top-level key 'roles'; {fix}")
    try:
        return GroundingSchema.model_validate({"roles": data["roles"]})
    except ValidationError as exc:
        problems = [
            f"key '{'.'.join(str(p) for p in err['loc'])}': {err['msg']}" for err in exc.errors()
        ]
        raise ConfigError(f"{source}: {'; '.join(problems)}; {fix}") from None


def load_grounding_schema(path: Path | None = None) -> GroundingSchema:
    """Load configs/guideline_graph_schema.yaml (or ``path``); ConfigError in one line."""
    path = Path(path) if path else grounding_schema_path()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: file not found; restore it from git (configs/guideline_graph_schema.yaml)"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise ConfigError(f"{where}: not valid YAML ({problem}); fix the file and reload") from None
    return parse_grounding_schema(data, str(path))


# --------------------------------------------------------------------------- models


def load_models_config(path: Path | str | None = None) -> ModelsConfig:
    path = Path(path) if path else config_path("models.yaml")
    return _validate(ModelsConfig, _load_yaml(path), path)


_KEY_NAMES_BY_FILE: dict[tuple[str, int, int], tuple[str, ...]] = {}


def models_key_env_names(path: Path) -> tuple[str, ...]:
    """The api_key_env names of one models file, read leniently: a missing or broken file
    names none (loading it reports the problem elsewhere; redaction must never raise)."""
    try:
        stat = path.stat()
        marker = (str(path), stat.st_mtime_ns, stat.st_size)
        if marker not in _KEY_NAMES_BY_FILE:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            clients = data.get("clients") if isinstance(data, dict) else None
            _KEY_NAMES_BY_FILE[marker] = tuple(
                c["api_key_env"]
                for c in (clients.values() if isinstance(clients, dict) else ())
                if isinstance(c, dict) and isinstance(c.get("api_key_env"), str)
            )
        return _KEY_NAMES_BY_FILE[marker]
    except (OSError, yaml.YAMLError):
        return ()
