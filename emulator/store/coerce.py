"""Turn a value a client sent for a field into the value the org stores, or refuse it.

Each refusal is the SalesforceError a real org returns for the same write (REST API
error codes; messages name the field by its label, as Salesforce does, for example
``Last Name: data value too large: ... (max length=80)``).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import re
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import stored_decimals
from crmarena_sf.emulator.wire import parse_date, parse_datetime, parse_time
from crmarena_sf.metadata.model import Field

_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+$"
)
_TEXT_TYPES = {
    "string",
    "textarea",
    "phone",
    "url",
    "email",
    "picklist",
    "multipicklist",
    "combobox",
    "encryptedstring",
    "anyType",
    "datacategorygroupreference",
}
_DECIMAL_DIGITS = 28
"""Significant digits of Python's default decimal context: the most an unbounded number field keeps."""
_WIDE = Context(prec=80)
"""Room to round a value to a column's decimals (38 digits) without the default context's 28-digit limit."""
_JSON_TYPE_NAMES = {
    "boolean": "boolean",
    "int": "int",
    "long": "long",
    "double": "double",
    "currency": "double",
    "percent": "double",
    "date": "date",
    "datetime": "datetime",
    "time": "time",
}


def json_token(value: Any) -> str:
    """The name of the JSON token a value was read from, as Jackson's messages call it (``VALUE_STRING`` ...)."""
    if isinstance(value, str):
        return "VALUE_STRING"
    if isinstance(value, bool):
        return "VALUE_TRUE" if value else "VALUE_FALSE"
    if isinstance(value, int):
        return "VALUE_NUMBER_INT"
    if isinstance(value, float):
        return "VALUE_NUMBER_FLOAT"
    if isinstance(value, dict):
        return "START_OBJECT"
    if value is None:
        return "VALUE_NULL"
    return "START_ARRAY"


def deserialize_error(field: Field, value: Any) -> SalesforceError:
    """JSON_PARSER_ERROR for a value of the wrong JSON type (what the REST deserializer reports)."""
    shown = value if not isinstance(value, (dict, list)) else ""
    target = _JSON_TYPE_NAMES.get(field.type, "String")
    return SalesforceError(
        "JSON_PARSER_ERROR",
        f"Cannot deserialize instance of {target} from {json_token(value)} value {shown} or request may be missing a required field",
    )


def coerce(field: Field, value: Any) -> Any:
    """The stored form of ``value`` for ``field`` (``None`` stays ``None``); raises SalesforceError."""
    if value is None:
        return None
    ftype = field.type
    if ftype in _TEXT_TYPES:
        return _text(field, value)
    if ftype in ("id", "reference"):
        return _reference(field, value)
    if ftype == "junctionidlist":
        items = value.replace(";", ",").split(",") if isinstance(value, str) else value
        if not isinstance(items, list):
            raise deserialize_error(field, value)
        return [_reference(field, item.strip() if isinstance(item, str) else item) for item in items if item]
    if ftype == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise deserialize_error(field, value)
    if ftype in ("int", "long"):
        return _integer(field, value)
    if ftype in ("double", "currency", "percent"):
        return _decimal(field, value)
    if ftype == "date":
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        parsed = parse_date(value) if isinstance(value, str) else None
        if parsed is None:
            raise deserialize_error(field, value)
        return parsed
    if ftype == "datetime":
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                value = value.astimezone(dt.UTC).replace(tzinfo=None)
            return value.replace(microsecond=value.microsecond // 1000 * 1000)
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None:
            raise deserialize_error(field, value)
        return parsed
    if ftype == "time":
        if isinstance(value, dt.time):
            return value
        parsed = parse_time(value) if isinstance(value, str) else None
        if parsed is None:
            raise deserialize_error(field, value)
        return parsed
    if ftype == "base64":
        if isinstance(value, (bytes, bytearray)):
            return bytes(value)
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, TypeError, ValueError):
            raise deserialize_error(field, value) from None
    raise SalesforceError(
        "INVALID_FIELD", f"Unable to write field {field.name} of type {ftype}", [field.name]
    )


def _text(field: Field, value: Any) -> str:
    if isinstance(value, bool):
        value = "true" if value else "false"
    elif isinstance(value, (int, float, Decimal)):
        value = str(value)
    elif not isinstance(value, str):
        raise deserialize_error(field, value)
    if "\x00" in value:
        value = value.replace("\x00", "")
    if field.type in ("picklist", "multipicklist") and field.restrictedPicklist and value != "":
        parts = value.split(";") if field.type == "multipicklist" else [value]
        canonical = []
        for part in parts:
            known = field.canonical_picklist_value(part)
            if known is None:
                raise SalesforceError(
                    "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST",
                    f"{field.label}: bad value for restricted picklist field: {part}",
                    [field.name],
                )
            canonical.append(known)
        value = ";".join(canonical)
    if field.type == "email" and value and not _EMAIL.match(value):
        raise SalesforceError(
            "INVALID_EMAIL_ADDRESS", f"{field.label}: invalid email address: {value}", [field.name]
        )
    if field.length and len(value) > field.length:
        raise SalesforceError(
            "STRING_TOO_LONG",
            f"{field.label}: data value too large: {value} (max length={field.length})",
            [field.name],
        )
    return value if value != "" else None


def _reference(field: Field, value: Any) -> str:
    if not isinstance(value, str):
        raise deserialize_error(field, value)
    if value == "":
        return None
    normalized = ids.normalize(value)
    if normalized is None:
        raise SalesforceError(
            "MALFORMED_ID", f"{field.label}: id value of incorrect type: {value}", [field.name]
        )
    return normalized


def _integer(field: Field, value: Any) -> int:
    number = _number(field, value)
    limit = 2**31 if field.type == "int" else 2**63
    # Compare magnitudes before converting: int(Decimal("1e99999999")) would expand a hundred
    # million digits while the org's lock is held.
    if number and number.adjusted() >= len(str(limit)):
        raise _out_of_range(field, value)
    as_int = int(number)
    if not -limit <= as_int < limit or (field.digits and len(str(abs(as_int))) > field.digits):
        raise _out_of_range(field, value)
    return as_int


def _decimal(field: Field, value: Any) -> Decimal:
    """The number as sent, not rounded to the field's scale: the API stores the decimals a client
    sends, only the UI rounds (:mod:`crmarena_sf.emulator.store.ddl`); past the
    :func:`~crmarena_sf.emulator.store.ddl.stored_decimals` the column keeps, the rest is rounded
    half up (that limit's rounding is modelled). Too many integer digits is NUMBER_OUTSIDE_VALID_RANGE."""
    number = _number(field, value)
    scale = field.scale or 0
    integer_room = field.precision - scale if field.precision else _DECIMAL_DIGITS - scale
    # Refuse what cannot fit before rounding: quantizing 1e300 overflows Decimal's context.
    if number and number.adjusted() >= integer_room:
        raise _out_of_range(field, value)
    kept = stored_decimals(field)
    if number.as_tuple().exponent < -kept:  # type: ignore[operator]
        number = number.quantize(Decimal(1).scaleb(-kept), rounding=ROUND_HALF_UP, context=_WIDE)
    integer_digits = len(str(abs(int(number)))) if int(number) != 0 else 0
    if integer_digits > integer_room:
        raise _out_of_range(field, value)
    return number


def _number(field: Field, value: Any) -> Decimal:
    """A JSON number or numeric text (ASCII digits, as Salesforce reads them) as a finite Decimal."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise deserialize_error(field, value)
    if isinstance(value, Decimal):
        number = value
    else:
        text = str(value).strip()
        if not text.isascii():
            # Decimal() would read Arabic-Indic or fullwidth digits; Salesforce does not.
            raise deserialize_error(field, value)
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise deserialize_error(field, value) from None
    if not number.is_finite():
        raise deserialize_error(field, value)
    return number


def check_computed_numbers(fields: list[Field], row: dict[str, Any]) -> None:
    """Refuse a write whose computed numbers (totals, line prices) outgrow their fields' integer digits.

    A value the org computes (Quantity x UnitPrice, a quote's Subtotal) has the same room as one a
    client sends; past it the write answers NUMBER_OUTSIDE_VALID_RANGE naming the field, as a sent
    value does (the wording for a computed value is modelled: no public payload shows one).
    """
    for field in fields:
        value = row.get(field.name)
        if value is None or field.type not in ("double", "currency", "percent") or isinstance(value, bool):
            continue
        number = value if isinstance(value, Decimal) else Decimal(str(value))
        integer_room = (field.precision or _DECIMAL_DIGITS) - (field.scale or 0)
        if number.is_finite() and number and number.adjusted() >= integer_room:
            raise _out_of_range(field, format(number.normalize(), "f"))


def _out_of_range(field: Field, value: Any) -> SalesforceError:
    return SalesforceError(
        "NUMBER_OUTSIDE_VALID_RANGE",
        f"{field.label}: value outside of valid range on numeric field: {value}",
        [field.name],
    )
