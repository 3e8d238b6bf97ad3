"""Records a dataset refers to but does not hold, found in the target org by what they are.

A generated dataset's rows point at what every new org already has (the records
:mod:`crmarena_sf.emulator.store.seed` puts in a new emulated org, with fixed Ids): the admin user who
created them, the standard price book, the 'Standard User' profile, Account's person-account
record type. In a real org those records exist with other Ids, so they are matched by natural
key: the admin user is the running user, the standard price book is the one with
``IsStandard = true``, profiles go by name and record types by object and developer name
(from the target's describe). Anything else a row points at that is neither in the dataset
nor here stays unresolved, and the field is left for the org to default.
"""

from __future__ import annotations

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store import seed
from crmarena_sf.loaders.push.client import PushClient
from crmarena_sf.loaders.push.preflight import TargetOrgFacts
from crmarena_sf.metadata.model import Schema

ADMIN_USER_ID = ids.make_id("005", 1)
SEEDED_PROFILES = {
    seed.SYSTEM_ADMINISTRATOR_PROFILE_ID: "System Administrator",
    seed.STANDARD_USER_PROFILE_ID: "Standard User",
}


def seeded_references(
    client: PushClient,
    facts: TargetOrgFacts,
    wanted: set[str],
    source: Schema,
    standard_price_books: set[str],
) -> dict[str, str]:
    """Dataset Id -> org Id for each Id in ``wanted`` that names a record every org has."""
    found: dict[str, str] = {}
    if ADMIN_USER_ID in wanted:
        found[ADMIN_USER_ID] = facts.user_id
    if seed.ORGANIZATION_ID in wanted:
        found[seed.ORGANIZATION_ID] = facts.org_id
    books = wanted & standard_price_books
    if books:
        rows = client.query_all("SELECT Id FROM Pricebook2 WHERE IsStandard = true LIMIT 1")
        if rows:
            found.update({book: rows[0]["Id"] for book in books})
    profiles = {i: name for i, name in SEEDED_PROFILES.items() if i in wanted}
    if profiles:
        rows = client.query_in("SELECT Id, Name FROM Profile WHERE Name", sorted(set(profiles.values())))
        by_name = {r["Name"]: r["Id"] for r in rows}
        found.update({i: by_name[name] for i, name in profiles.items() if name in by_name})
    for obj in source:
        target = facts.describes.get(obj.name)
        for info in obj.recordTypeInfos:
            if info.recordTypeId in wanted and target is not None:
                match = target.record_type(info.developerName)
                if match is not None and not match.master:
                    found[info.recordTypeId] = match.recordTypeId
    return found
