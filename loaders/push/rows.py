"""A dataset's rows as a push reads them, and values as the org's APIs take them.

Rows come from the object's Parquet file in Id order (so records reach the org in the order
the dataset made them, and the org's Ids keep that order). Values are written in the formats
the REST API and Bulk API 2.0 read (REST API Developer Guide, "Valid Date and DateTime
Formats"; Bulk API 2.0 Developer Guide, "Valid Date Format in Records"): datetimes in UTC as
``2020-01-30T07:51:04.000Z``, dates as ``2020-01-30``, checkboxes as ``true``/``false``.
"""

from __future__ import annotations

import datetime as dt
import weakref
from decimal import Decimal
from typing import Any

import duckdb
from crmarena_sf.loaders.dataset import Dataset


def read_rows(dataset: Dataset, object_name: str) -> list[dict[str, Any]]:
    """Every row of ``object_name``, as ``{column: value}``, in Id order (read once per dataset)."""
    cache = _cache.setdefault(dataset, {})
    if object_name not in cache:
        con = duckdb.connect(":memory:")
        try:
            cursor = con.execute(f'SELECT * FROM {dataset.parquet_sql(object_name)} ORDER BY "Id"')
            names = [d[0] for d in cursor.description]
            cache[object_name] = [dict(zip(names, values)) for values in cursor.fetchall()]
        finally:
            con.close()
    return cache[object_name]


_cache: weakref.WeakKeyDictionary[Dataset, dict[str, list[dict[str, Any]]]] = weakref.WeakKeyDictionary()
"""Rows per Dataset object: a push reads an object once, and forgets it with the Dataset."""


def json_value(value: Any) -> Any:
    """A value as a REST JSON body carries it."""
    if isinstance(value, dt.datetime):
        return _datetime(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


def csv_value(value: Any) -> str:
    """A value as a Bulk API 2.0 CSV cell carries it (empty: leave the field alone)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return _datetime(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _datetime(value: dt.datetime) -> str:
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
