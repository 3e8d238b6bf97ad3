"""Writing planned records: rows built in Python, staged as columns, written in describe order.

The Pro orgs are small (tens of thousands of records), so each step plans its rows as Python
dicts and :func:`emit` stages them as one table (typed from the org's schema, so a date stays a
date and a currency a decimal) and writes the object's Parquet file from it in the background.
Every row of one object carries the same keys.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store.ddl import column_type, quote
from crmarena_sf.loaders.generate.context import ADMIN_USER_N, Context

ORG_START = dt.datetime(2019, 11, 4, 9, 0, 0)
"""When the company set up its org (before any record below)."""
FIRST_DAY = dt.datetime(2020, 1, 2, 8, 0, 0)
"""The first sales and service activity."""
LAST_DAY = dt.datetime(2024, 12, 20, 18, 0, 0)
"""The last record created: CRMArena-Pro's tasks are dated up to 2024-12-23."""
DATA_NOW = dt.datetime(2025, 1, 2, 0, 0, 0)
"""When the data was captured: what is open then is still open."""


AUDIT_FIELDS = ("CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById", "SystemModstamp")


def admin_id(ctx: Context) -> str:
    admin = ctx.plan.get("_admin_id")
    if admin is None:
        admin = ctx.plan["_admin_id"] = ctx.record_id("User", ADMIN_USER_N)
    return admin


def audit(
    ctx: Context, created: dt.datetime, modified: dt.datetime | None = None, by: str | None = None
) -> dict[str, Any]:
    """The audit fields of a record created at ``created`` by ``by`` (default: the admin user)."""
    who = by or admin_id(ctx)
    modified = max(modified or created, created)
    return {
        "CreatedDate": created,
        "CreatedById": who,
        "LastModifiedDate": modified,
        "LastModifiedById": who,
        "SystemModstamp": modified,
    }


def emit(ctx: Context, object_name: str, rows: list[dict[str, Any]]) -> None:
    """Stage ``rows`` as ``raw_<object>`` and write the object from it, rows in their order."""
    obj = ctx.schema.get(object_name)
    if obj is None:
        ctx.writer.skipped_objects.append(object_name)
        return
    if not rows:
        return
    # Audit fields an object lacks (a LiveChatVisitor has no LastModifiedDate) are left out.
    names = [n for n in rows[0] if n not in AUDIT_FIELDS or obj.field(n) is not None]
    columns = {}
    for name in names:
        f = obj.field(name)
        if f is None:
            raise AssertionError(f"the generator writes {object_name}.{name}, which the schema lacks")
        kind = column_type(f)
        values = [row[name] for row in rows]
        if kind.startswith("DECIMAL"):
            # Staged as doubles (DuckDB takes Python floats far faster than Decimals); the
            # object's file casts them back to its decimal type, which rounds them exactly.
            kind, values = "DOUBLE", [None if v is None else float(v) for v in values]
        columns[name] = (kind, values)
    table = f"raw_{object_name}"
    ctx.stage(table, columns)
    ctx.write(object_name, f"SELECT * FROM {quote(table)}")


def autonumber(object_name: str, field_name: str, n: int) -> str:
    """The ``n``-th value (from 1) of an auto-number field, formatted as the org store numbers them."""
    from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS

    digits, first = AUTONUMBER_FORMATS.get((object_name, field_name), (8, 1))
    return str(first + n - 1).zfill(digits)


_SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"


class ProContext(Context):
    """The generation context, with record Ids minted without a per-character loop.

    Below 62**5 records an Id's counter has four leading zeros, so its middle suffix character
    is always 'A' and only the last five digits vary: the same Id :func:`crmarena_sf.emulator.ids.make_id`
    gives (the tests compare them), several times faster for the tens of thousands of Ids a Pro org needs.
    """

    def record_id(self, object_name: str, n: int) -> str:
        if n >= 62**5:
            return super().record_id(object_name, n)
        head = self.plan.setdefault("_id_heads", {}).get(object_name)
        if head is None:
            head15 = f"{self.prefix(object_name)}{ids.EMULATOR_POD}"
            head = self.plan["_id_heads"][object_name] = (head15 + "0000", ids.checksum(head15 + "0" * 10)[0])
        digits = []
        bits = 0
        for position in range(4, -1, -1):
            n, value = divmod(n, 62)
            digits.append(ids.BASE62[value])
            if 10 <= value <= 35:
                bits |= 1 << position
        return f"{head[0]}0{''.join(reversed(digits))}{head[1]}A{_SUFFIX[bits]}"
