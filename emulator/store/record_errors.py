"""The errors a record write is refused with, as the REST API words them.

Shared by :mod:`crmarena_sf.emulator.store.dml` (inserts, updates, deletes) and
:mod:`crmarena_sf.emulator.store.external_ids` (upserts, parents named by external id), so a
write is refused in the same words whichever way it reaches the store (REST API Developer
Guide, "Status Codes and Error Responses",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm).
"""

from __future__ import annotations

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.metadata.model import SObject


def no_such_field(obj: SObject, name: str) -> SalesforceError:
    """INVALID_FIELD for a DML body naming a field the object lacks (REST wording)."""
    return SalesforceError("INVALID_FIELD", f"No such column '{name}' on sobject of type {obj.name}", [])


def not_writable(fields: list[str]) -> SalesforceError:
    return SalesforceError(
        "INVALID_FIELD_FOR_INSERT_UPDATE",
        f"Unable to create/update fields: {', '.join(fields)}. Please check the security settings of this field "
        "and verify that it is read/write for your profile or permission set.",
        fields,
    )


def required_missing(fields: list[str]) -> SalesforceError:
    return SalesforceError(
        "REQUIRED_FIELD_MISSING", f"Required fields are missing: [{', '.join(fields)}]", fields
    )


def entity_is_deleted() -> SalesforceError:
    return SalesforceError("ENTITY_IS_DELETED", "entity is deleted", [])


def converted_lead() -> SalesforceError:
    """A converted lead is read-only, and a second conversion is refused: ``CANNOT_UPDATE_CONVERTED_LEAD``
    (SOAP API Developer Guide, "StatusCode"; the words real orgs answer, quoted in Apex errors as
    ``CANNOT_UPDATE_CONVERTED_LEAD, cannot reference converted lead``)."""
    return SalesforceError("CANNOT_UPDATE_CONVERTED_LEAD", "cannot reference converted lead", [])
