"""DuckDB tables for sObjects: one table per object, one column per stored field."""

from __future__ import annotations

from crmarena_sf.metadata.model import Field, SObject

_TYPES = {
    "boolean": "BOOLEAN",
    "int": "INTEGER",
    "long": "BIGINT",
    "date": "DATE",
    "datetime": "TIMESTAMP",
    "time": "TIME",
    "base64": "BLOB",
}


def quote(identifier: str) -> str:
    """A DuckDB identifier, always quoted (Case, Order and Group are SQL keywords)."""
    return '"' + identifier.replace('"', '""') + '"'


def column_type(field: Field) -> str:
    """The DuckDB type that stores ``field``; numbers keep Salesforce's precision and scale."""
    if field.type in ("double", "currency", "percent"):
        precision = min(max(field.precision or 18, 1), 38)
        scale = min(field.scale or 0, precision)
        return f"DECIMAL({precision},{scale})"
    if field.type == "junctionidlist":
        return "VARCHAR[]"  # a list of Ids (EmailMessage.ToIds); REST sends it as a JSON array
    return _TYPES.get(field.type, "VARCHAR")


def create_table_sql(obj: SObject, catalog: str | None = None) -> str:
    """``CREATE TABLE`` for ``obj`` (compound address/location fields are not stored)."""
    columns = ", ".join(f"{quote(f.name)} {column_type(f)}" for f in obj.stored_fields)
    table = quote(obj.name) if catalog is None else f"{quote(catalog)}.{quote(obj.name)}"
    return f"CREATE TABLE {table} ({columns})"
