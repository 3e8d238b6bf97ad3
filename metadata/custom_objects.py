"""The describe document of a new custom object, as a real org reports one the Metadata API created.

A custom object gets the standard fields every custom object has (Id, OwnerId, IsDeleted, its
Name field, the audit fields, LastViewedDate and LastReferencedDate), the scopes of an object
owned by users or queues, and the key prefix it is given (Metadata API Developer Guide,
"CustomObject"; Object Reference, "Custom Objects"). The store builds one for
``createMetadata`` (:mod:`crmarena_sf.emulator.store.schema_changes`) from here, so the specs'
private helpers stay theirs.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.metadata.build import build_describes
from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import custom_object_scopes, custom_object_standard_fields


def custom_object_describe(
    name: str, label: str, plural_label: str, key_prefix: str, name_field: dict[str, Any]
) -> dict[str, Any]:
    """The describe document of custom object ``name`` whose Name field is ``name_field`` (a field spec)."""
    spec_name = {"name": "Name", "nameField": True, **name_field}
    spec = sobject(
        name,
        label,
        plural_label,
        key_prefix,
        scopes=custom_object_scopes(plural_label),
        fields=custom_object_standard_fields(spec_name),
    )
    return build_describes([spec])[name]
