"""Fields every sObject shares, written once (values as real describes report them)."""

from __future__ import annotations

from crmarena_sf.metadata.spec import field


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


def address_fields(name_prefix: str, label_prefix: str, compound: str | None = None) -> list[dict]:
    """The components of an address compound field and the compound itself, in describe order.

    ``address_fields("PersonMailing", "Mailing")`` gives PersonMailingStreet ... PersonMailingAddress,
    labelled "Mailing Street" ... "Mailing Address"; ``address_fields("", "")`` gives User's
    Street ... Address. Lengths and flags are those of every real address (Account, Contact, User).
    """
    from crmarena_sf.metadata.specs._locales import GEOCODE_ACCURACY

    compound = compound or f"{name_prefix}Address"
    label = f"{label_prefix} " if label_prefix else ""
    part = {"compoundFieldName": compound}
    return [
        field(f"{name_prefix}Street", "textarea", f"{label}Street", **part),
        field(f"{name_prefix}City", "string", f"{label}City", length=40, **part),
        field(f"{name_prefix}State", "string", f"{label}State/Province", length=80, **part),
        field(f"{name_prefix}PostalCode", "string", f"{label}Zip/Postal Code", length=20, **part),
        field(f"{name_prefix}Country", "string", f"{label}Country", length=80, **part),
        field(f"{name_prefix}Latitude", "double", f"{label}Latitude", scale=15, **part),
        field(f"{name_prefix}Longitude", "double", f"{label}Longitude", scale=15, **part),
        field(f"{name_prefix}GeocodeAccuracy", "picklist", f"{label}Geocode Accuracy", values=GEOCODE_ACCURACY, restrictedPicklist=True, **part),
        field(compound, "address", f"{label}Address", createable=False, queryByDistance=True, updateable=False, permissionable=True),
    ]


def read_only(name: str, type: str, label: str, **overrides) -> dict:
    """A field the org maintains itself: neither createable nor updateable."""
    return field(name, type, label, createable=False, updateable=False, **overrides)


def custom_object_scopes(plural: str) -> list[tuple[str, str]]:
    """The supportedScopes of a custom object owned by users or queues."""
    low = plural.lower()
    return [
        ("everything", f"All {low}"),
        ("mine", f"My {low}"),
        ("queue_owned", f"Queue owned {low}"),
        ("user_owned", f"User owned {low}"),
    ]


def custom_object_standard_fields(name_field: dict) -> list[dict]:
    """Id, OwnerId, IsDeleted, Name and the audit fields every custom object has, in describe order."""
    return [
        id_field("Record ID"),
        owner_field(),
        is_deleted(),
        name_field,
        *audit_fields(),
        *last_viewed_fields(),
    ]
