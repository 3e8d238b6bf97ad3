"""DuckDB tables for sObjects: one table per object, one column per stored field.

A number column keeps the decimals a client sends beyond the field's scale: through the API
Salesforce stores a number, currency or percent value as it was sent and only the UI rounds it
to the field's decimal places (Salesforce Help, "Salesforce Number Field Stores More Decimal
Places Than Defined When Set via API or Apex", https://help.salesforce.com/s/articleView?id=000387302&type=1,
formerly knowledge article 000212661; for currency fields "Round Off Decimal Values of Currency
Fields in the Salesforce UI and API", https://help.salesforce.com/s/articleView?id=000385689&type=1).
Article 000212661 says up to 24 decimal places are kept; a column keeps as many as DuckDB's 38 digits leave beside the field's
integer digits, at most 24 (:func:`stored_decimals`).
"""

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


API_DECIMALS = 24
"""Decimal places Salesforce keeps of a number sent through the API, whatever the field's scale."""

_MAX_DIGITS = 38
"""The most digits a DuckDB DECIMAL holds."""


def integer_digits(field: Field) -> int:
    """Digits a number field allows left of the decimal point: its precision less its scale."""
    precision = min(max(field.precision or 18, 1), _MAX_DIGITS)
    return precision - min(field.scale or 0, precision)


def stored_decimals(field: Field) -> int:
    """Decimal places the org keeps for ``field``: what the API sent, up to :data:`API_DECIMALS`
    (never fewer than the field's scale, never more than DuckDB can hold beside its integer digits)."""
    return min(_MAX_DIGITS - integer_digits(field), max(field.scale or 0, API_DECIMALS))


def fits_column(field: Field, number: str) -> bool:
    """True when the numeric literal ``number`` has no more integer digits than ``field``'s column
    holds (DuckDB casts a literal compared with a DECIMAL column to that column's scale)."""
    if field.type not in ("double", "currency", "percent"):
        return True
    whole = number.lstrip("+-").split(".")[0].split("e")[0].split("E")[0].lstrip("0")
    return "e" not in number.lower() and len(whole) <= _MAX_DIGITS - stored_decimals(field)


def declared_type(field: Field) -> str:
    """The DuckDB type of ``field`` as its describe declares it: a number has exactly its precision and
    scale. Datasets are written with these types (generated values have the field's decimals);
    an org stores them in :func:`column_type` columns."""
    if field.type in ("double", "currency", "percent"):
        return f"DECIMAL({integer_digits(field) + min(field.scale or 0, 38)},{min(field.scale or 0, 38)})"
    return column_type(field)


def column_type(field: Field) -> str:
    """The DuckDB type that stores ``field``; a number keeps its integer digits and the decimals the API sent."""
    if field.type in ("double", "currency", "percent"):
        decimals = stored_decimals(field)
        return f"DECIMAL({integer_digits(field) + decimals},{decimals})"
    if field.type == "junctionidlist":
        return "VARCHAR[]"  # a list of Ids (EmailMessage.ToIds); REST sends it as a JSON array
    return _TYPES.get(field.type, "VARCHAR")


def create_table_sql(obj: SObject, catalog: str | None = None) -> str:
    """``CREATE TABLE`` for ``obj`` (compound address/location fields are not stored)."""
    columns = ", ".join(f"{quote(f.name)} {column_type(f)}" for f in obj.stored_fields)
    table = quote(obj.name) if catalog is None else f"{quote(catalog)}.{quote(obj.name)}"
    return f"CREATE TABLE {table} ({columns})"
