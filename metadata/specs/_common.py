"""Fields every sObject shares, written once (values as real describes report them)."""

from __future__ import annotations

from metadata.spec import field


def id_field(label: str) -> dict:
    """``Id``: the record Id, idLookup, defaulted on create."""
    return field("Id", "id", label)


def is_deleted() -> dict:
    """``IsDeleted``: true for rows in the recycle bin (visible through queryAll)."""
    return field("IsDeleted", "boolean", "Deleted", createable=False, updateable=False)


def audit_fields() -> list[dict]:
    """CreatedDate, CreatedById, LastModifiedDate, LastModifiedById, SystemModstamp, in describe order.

    The org has "Set Audit Fields upon Record Creation" enabled (CRMArena's backdated history
    needs it), so the four audit fields are createable on insert, as a describe then reports.
    """
    return [
        field("CreatedDate", "datetime", "Created Date", required=True, defaultedOnCreate=True, updateable=False, permissionable=False),
        field("CreatedById", "reference", "Created By ID", to="User", required=True, defaultedOnCreate=True, updateable=False, permissionable=False),
        field("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True, updateable=False, permissionable=False),
        field("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True, updateable=False, permissionable=False),
        field("SystemModstamp", "datetime", "System Modstamp", required=True, createable=False, defaultedOnCreate=True, updateable=False),
    ]


def last_viewed_fields() -> list[dict]:
    """LastViewedDate and LastReferencedDate (objects with recent items)."""
    return [
        field("LastViewedDate", "datetime", "Last Viewed Date", createable=False, updateable=False),
        field("LastReferencedDate", "datetime", "Last Referenced Date", createable=False, updateable=False),
    ]


def owner_field(to: str | list[str] = ("Group", "User"), **overrides) -> dict:
    """``OwnerId``: required but defaulted to the running user; a queue (Group) may own records too."""
    targets = [to] if isinstance(to, str) else list(to)
    extra = {"namePointing": True} if len(targets) > 1 else {}
    return field("OwnerId", "reference", "Owner ID", to=targets, required=True, defaultedOnCreate=True, **extra, **overrides)
