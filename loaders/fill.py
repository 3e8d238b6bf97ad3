"""Values the loader supplies for stored fields a dataset file leaves out.

A dataset carries what the org stores, but a file may omit fields whose value a real org
would supply itself on insert: the recycle-bin flag, checkbox defaults, picklist defaults,
the audit fields (the loading user, the org's creation time). The validator accepts a
missing non-nillable column exactly when :func:`fill_expression` can supply it.
"""

from __future__ import annotations

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store.seed import ORG_CREATED
from crmarena_sf.metadata.model import Field, SObject

ADMIN_USER_ID = ids.make_id("005", 1)
"""The running user of a new org (``Org.user_id``)."""

_ORG_CREATED_SQL = f"TIMESTAMP '{ORG_CREATED.isoformat(sep=' ')}'"


def fill_expression(obj: SObject, field: Field, present: set[str]) -> str | None:
    """SQL for ``field`` when the file lacks its column, or None when only NULL can be supplied.

    ``present`` holds the columns the file does have (LastModifiedDate falls back on CreatedDate).
    """
    name = field.name
    if name == "IsDeleted" or field.type == "boolean":
        return "true" if field.defaultValue is True else "false"
    if name in ("CreatedById", "LastModifiedById"):
        return f"'{ADMIN_USER_ID}'"
    if name == "OwnerId" and "User" in field.referenceTo:
        return f"'{ADMIN_USER_ID}'"
    if name == "CreatedDate":
        return _ORG_CREATED_SQL
    if name in ("LastModifiedDate", "SystemModstamp"):
        for source in ("LastModifiedDate", "CreatedDate"):
            if source in present and source != name:
                return f'"{source}"'
        return _ORG_CREATED_SQL
    if field.type in ("picklist", "multipicklist") and isinstance(field.defaultValue, str):
        return "'" + field.defaultValue.replace("'", "''") + "'"
    return None
