"""CSV as Bulk API 2.0 writes and reads it.

Bulk API 2.0 Developer Guide (datafiles_prepare_csv.htm, query_get_job_results.htm,
get_job_successful_results.htm): jobs name their ``columnDelimiter`` (COMMA, TAB, PIPE,
SEMICOLON, CARET, BACKQUOTE) and ``lineEnding`` (LF, CRLF); results quote every value
(``"Id","Name"``); in uploaded data an empty value leaves a field alone and ``#N/A`` sets it
to null; parent fields of a query come back as ``Account.Name`` columns.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

from crmarena_sf.emulator.soql.errors import SoqlError
from crmarena_sf.emulator.soql.parser import describe_select

DELIMITERS = {"COMMA": ",", "TAB": "\t", "PIPE": "|", "SEMICOLON": ";", "CARET": "^", "BACKQUOTE": "`"}
LINE_ENDINGS = {"LF": "\n", "CRLF": "\r\n"}
NULL_MARKER = "#N/A"

_WIRE_DATETIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\+0000$")


class MalformedCsv(ValueError):
    """Uploaded data that is not CSV; the message is the one Salesforce's CSV reader gives."""


def read_rows(data: bytes, delimiter: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of uploaded CSV (a UTF-8 byte order mark is ignored).

    A line whose cells are all empty (``,`` under a two-column header) is a record that sets no
    field, and gets a result like any other (jsforce sends a record whose only values are in
    columns the header lacks that way; a real org answers it REQUIRED_FIELD_MISSING for
    Account); only a line without a single delimiter or character is skipped, as a blank line.
    A quote that is never closed, or text after a closing quote, is :class:`MalformedCsv`:
    the whole upload is refused rather than one value swallowing the rest of the file.
    """
    text = data.decode("utf-8-sig", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS.get(delimiter, ","), strict=True)
    try:
        rows = [row for row in reader if row]
    except csv.Error as exc:
        raise MalformedCsv(_salesforce_wording(str(exc))) from None
    if not rows:
        return [], []
    return [h.strip() for h in rows[0]], rows[1:]


def _salesforce_wording(python_message: str) -> str:
    """The message of Salesforce's CSV reader (com.sforce.async.CSVReader) for Python's csv.Error."""
    if python_message.startswith("unexpected end of data"):
        return "EOF reached before closing an opened quote"
    if python_message.endswith("expected after '\"'"):
        return "Not expecting more text after end quote"
    return python_message


def write_rows(header: list[str], rows: Iterable[list[Any]], delimiter: str, line_ending: str) -> str:
    """CSV with every value quoted, as Bulk API 2.0 results are written."""
    buffer = io.StringIO()
    writer = csv.writer(
        buffer,
        delimiter=DELIMITERS.get(delimiter, ","),
        lineterminator=LINE_ENDINGS.get(line_ending, "\n"),
        quoting=csv.QUOTE_ALL,
    )
    writer.writerow(header)
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
    return buffer.getvalue()


def cell_text(value: Any) -> str:
    """A REST JSON value as a Bulk CSV cell: booleans ``true``/``false``, dateTimes ending in ``Z``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        match = _WIRE_DATETIME.match(value)
        return f"{match.group(1)}Z" if match else value
    return str(value)


def flatten_record(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A query record as dotted columns (``Account.Name``); ``attributes`` dropped, a null parent gives nothing."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "attributes":
            continue
        if isinstance(value, dict) and "attributes" in value:
            out.update(flatten_record(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def select_list(soql: str) -> list[str]:
    """The columns of a query's SELECT list as written, without child subqueries (the header of a result
    with no rows); a query that does not parse has none."""
    try:
        items = describe_select(soql).items
    except SoqlError:
        return []
    return [item.text.split()[0] for item in items if item.subquery is None]


def object_of_query(soql: str) -> str:
    """The object after FROM (for a job's ``object``), or an empty string for a query that does not parse."""
    try:
        return describe_select(soql).object_name
    except SoqlError:
        return ""
