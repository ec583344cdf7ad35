"""Generic DuckDB IO manager for every pipeline stage.

Contract (any asset can use it without code here):
- the asset returns ``list[<pydantic record>]`` (models in ``cardio_assets.records``);
- the asset declares ``metadata={"record_type": "<ModelName>", "partition_expr": "guideline"}``;
  ``record_type`` is how loading recovers the model class (a name, so it survives in the
  Dagster UI and in run storage, unlike a Python type annotation);
- rows go to table ``<asset name>`` in ``cardio_assets.paths.warehouse_path()``, one column
  per model field (by alias, e.g. ``class``), scalars as DuckDB scalars and anything nested
  (lists, dicts, models, unions) as JSON text, plus ``guideline`` and ``_position``;
- writing a partition deletes that guideline's rows and inserts the new ones in ONE
  transaction, so other partitions are never touched and a failed write leaves the old rows;
- a field added to a model later becomes a new column (ALTER TABLE ADD COLUMN); columns of
  removed fields are ignored on load.
Identifiers (table, columns) are validated against a strict pattern and quoted; every value
travels as a query parameter.
"""

import json
import re
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import dagster as dg
from pydantic import BaseModel

from cardio_assets import paths, records
from cardio_assets.warehouse import connect

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INSERT_BATCH = 200
_SCALARS: dict[type, str] = {str: "VARCHAR", int: "BIGINT", float: "DOUBLE", bool: "BOOLEAN"}


class RecordStorageError(RuntimeError):
    """The IO manager cannot map an asset's output to a table (names the asset and key)."""


def _ident(name: str, what: str) -> str:
    if not _IDENT.match(name):
        raise RecordStorageError(f"{what} '{name}' is not a safe SQL identifier")
    return f'"{name}"'


def record_model(name: str) -> type[BaseModel]:
    """Model class from its name in cardio_assets.records (asset metadata 'record_type')."""
    model = getattr(records, name, None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise RecordStorageError(
            f"metadata record_type '{name}' is not a pydantic model in cardio_assets.records"
        )
    return model


def column_type(annotation: Any) -> str:
    """DuckDB type of a field: its scalar type (Optional allowed), else JSON text."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return column_type(args[0]) if len(args) == 1 else "JSON"
    if origin is Literal:
        values = typing.get_args(annotation)
        return "VARCHAR" if all(isinstance(v, str) for v in values) else "JSON"
    return _SCALARS.get(annotation, "JSON")


def _allows_none(annotation: Any) -> bool:
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return type(None) in typing.get_args(annotation)
    return False


def model_columns(model: type[BaseModel]) -> list[tuple[str, str, str]]:
    """(field name, column name, column kind) per model field; kind 'JSON' = stored as text."""
    columns = []
    for name, info in model.model_fields.items():
        columns.append((name, info.alias or name, column_type(info.annotation)))
    return columns


def _sql_type(kind: str) -> str:
    return "VARCHAR" if kind == "JSON" else kind


def write_records(
    db_path: Path,
    table: str,
    model: type[BaseModel],
    items: Sequence[BaseModel],
    partitions: list[str] | None,
    default_guideline: str = "",
) -> int:
    """Replace the rows of ``partitions`` (all rows when None) with ``items`` atomically."""
    columns = [c for c in model_columns(model) if c[1] != "guideline"]
    for _, column, _ in columns:
        _ident(column, f"field of {model.__name__}")
    table_sql = _ident(table, "table")
    rows = []
    for position, item in enumerate(items):
        if not isinstance(item, model):
            raise RecordStorageError(
                f"asset '{table}': item {position} is {type(item).__name__}, expected {model.__name__}"
            )
        data = item.model_dump(mode="json", by_alias=True)
        guideline = data.get("guideline") or default_guideline
        if partitions is not None and guideline not in partitions:
            raise RecordStorageError(
                f"asset '{table}': item {position} has guideline '{guideline}' outside the "
                f"partition(s) being written {partitions}"
            )
        values: list[Any] = [guideline, position]
        for _, column, kind in columns:
            value = data.get(column)
            values.append(
                json.dumps(value, ensure_ascii=False)
                if kind == "JSON" and value is not None
                else value
            )
        rows.append(values)
    column_defs = ", ".join(
        ['"guideline" VARCHAR NOT NULL', '"_position" INTEGER NOT NULL']
        + [f'"{column}" {_sql_type(kind)}' for _, column, kind in columns]
    )
    with connect(db_path) as con:
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(f"CREATE TABLE IF NOT EXISTS {table_sql} ({column_defs})")
            existing = {
                r[0]
                for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                    [table],
                ).fetchall()
            }
            for _, column, kind in columns:
                if column not in existing:
                    con.execute(f'ALTER TABLE {table_sql} ADD COLUMN "{column}" {_sql_type(kind)}')
            if partitions is None:
                con.execute(f"DELETE FROM {table_sql}")  # noqa: S608 - identifier validated
            else:
                con.execute(
                    f"DELETE FROM {table_sql} WHERE guideline IN (SELECT unnest(?))",  # noqa: S608
                    [partitions],
                )
            names = ", ".join(['"guideline"', '"_position"'] + [f'"{c}"' for _, c, _ in columns])
            one = "(" + ", ".join("?" * (len(columns) + 2)) + ")"
            for start in range(0, len(rows), _INSERT_BATCH):
                batch = rows[start : start + _INSERT_BATCH]
                con.execute(
                    f"INSERT INTO {table_sql} ({names}) VALUES " + ", ".join([one] * len(batch)),  # noqa: S608
                    [v for row in batch for v in row],
                )
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
    return len(rows)


def read_records(
    db_path: Path, table: str, model: type[BaseModel], partitions: list[str] | None
) -> list[BaseModel]:
    """Records of ``partitions`` (all when None), in partition then written order."""
    table_sql = _ident(table, "table")
    if not db_path.exists():
        return []
    with connect(db_path, read_only=True) as con:
        existing = {
            r[0]
            for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table]
            ).fetchall()
        }
        if not existing:
            return []
        columns = [c for c in model_columns(model) if c[1] in existing]
        select = ", ".join(['"guideline"'] + [f'"{c}"' for _, c, _ in columns])
        query = f"SELECT {select} FROM {table_sql}"  # noqa: S608 - identifiers validated
        params: list[Any] = []
        if partitions is not None:
            query += " WHERE guideline IN (SELECT unnest(?))"
            params.append(partitions)
        result = con.execute(query + " ORDER BY guideline, _position", params).fetchall()
    out = []
    for row in result:
        data: dict[str, Any] = {"guideline": row[0]}
        for (name, column, kind), value in zip(columns, row[1:], strict=True):
            if value is None and not _allows_none(model.model_fields[name].annotation):
                continue  # a column added after this row was written: use the field default
            data[column] = json.loads(value) if kind == "JSON" and value is not None else value
        if "guideline" not in model.model_fields:
            data.pop("guideline")
        out.append(model.model_validate(data))
    return out


class DuckDBRecordIOManager(dg.ConfigurableIOManager):
    """Stores each asset's list of pydantic records in a DuckDB table of the same name."""

    database: str | None = None  # default: cardio_assets.paths.warehouse_path() (CARDIO_HOME)

    def _db_path(self) -> Path:
        return Path(self.database) if self.database else paths.warehouse_path()

    @staticmethod
    def _model(metadata: dict[str, Any] | None, asset: str) -> type[BaseModel]:
        name = (metadata or {}).get("record_type")
        if name is None:
            raise RecordStorageError(
                f"asset '{asset}' uses the DuckDB IO manager without metadata "
                "{'record_type': '<model in cardio_assets.records>'}"
            )
        return record_model(str(getattr(name, "value", name)))

    @staticmethod
    def _table(asset_key: dg.AssetKey) -> str:
        return "_".join(asset_key.path)

    def handle_output(self, context: dg.OutputContext, obj: Any) -> None:
        if obj is None:
            return
        table = self._table(context.asset_key)
        model = self._model(context.definition_metadata, table)
        if not isinstance(obj, list | tuple):
            raise RecordStorageError(
                f"asset '{table}' must return a list of {model.__name__}, got {type(obj).__name__}"
            )
        partitions = list(context.asset_partition_keys) if context.has_asset_partitions else None
        default = partitions[0] if partitions and len(partitions) == 1 else ""
        count = write_records(self._db_path(), table, model, obj, partitions, default)
        context.add_output_metadata(
            {"duckdb_table": table, "duckdb_rows_written": count, "warehouse": str(self._db_path())}
        )

    def load_input(self, context: dg.InputContext) -> list[BaseModel]:
        upstream = context.upstream_output
        if upstream is None:
            raise RecordStorageError("DuckDB IO manager can only load asset inputs")
        table = self._table(context.asset_key)
        model = self._model(upstream.definition_metadata, table)
        partitions = list(context.asset_partition_keys) if context.has_asset_partitions else None
        return read_records(self._db_path(), table, model, partitions)
