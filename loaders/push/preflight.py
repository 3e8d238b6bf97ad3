"""Before anything is written: what the org is, has and allows, and whether the dataset fits.

Reads only (REST API Developer Guide: "Resources by Version" for the identity URL, "Limits"
for ``DailyApiRequests`` and ``DataStorageMB``, "Describe Global" and "sObject Describe"):
which objects exist (Knowledge, person accounts and Chat are features a new org may lack),
whether audit fields are createable for the running user ("Set Audit Fields upon Record
Creation"), how many ``Salesforce`` user licences are free (UserLicense), and whether the org
already holds a push (the ``CRMArena_Push`` permission set's description names the dataset).
:func:`problems` turns that and the plan into the reasons to stop, each saying what to change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crmarena_sf.loaders.push.client import PushClient, soql_string
from crmarena_sf.loaders.push.errors import OrgError
from crmarena_sf.loaders.push.keys import PERMISSION_SET, pushed_fingerprint
from crmarena_sf.metadata.crmarena_pro import TERRITORY_OBJECTS
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.loaders.push.plan import PushPlan

AUDIT_FIELDS = ("CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById")
FULL_LICENCE = "Salesforce"

FEATURE_ADVICE = {
    "Knowledge__kav": "Lightning Knowledge is not enabled: in Setup, tick Knowledge User on your user record, "
    "then in Knowledge Settings enable Lightning Knowledge",
    "LiveChatTranscript": "Chat (LiveChatTranscript) is not available in this org",
    "LiveChatVisitor": "Chat (LiveChatVisitor) is not available in this org",
}
"""Missing object -> the feature behind it."""

TERRITORY_ADVICE = (
    "Sales Territories (Enterprise Territory Management) is not enabled, so the org has no {objects}: in "
    'Setup, Territory Settings, click Enable Sales Territories (Salesforce Help, "Enable Sales Territories"); '
    "the push then creates the territory model, type and territories"
)
"""Why a dataset's territory objects cannot be loaded, and how to make them loadable."""


@dataclass
class TargetOrgFacts:
    """What a push needs to know about the target org."""

    org_id: str
    user_id: str
    limits: dict[str, dict[str, int]]
    object_names: set[str]
    describes: dict[str, SObject]
    licences: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Licence name -> (total, used)."""
    permission_set: dict[str, Any] | None = None

    def remaining(self, limit: str) -> int | None:
        value = self.limits.get(limit, {}).get("Remaining")
        return int(value) if value is not None else None

    @property
    def free_user_licences(self) -> int | None:
        total_used = self.licences.get(FULL_LICENCE)
        return None if total_used is None else max(0, total_used[0] - total_used[1])

    @property
    def person_accounts(self) -> bool:
        account = self.describes.get("Account")
        return bool(
            account is not None
            and account.field("IsPersonAccount") is not None
            and account.record_type("PersonAccount") is not None
        )

    @property
    def pushed_dataset(self) -> str | None:
        return pushed_fingerprint((self.permission_set or {}).get("Description"))


def read_org(client: PushClient, object_names: list[str]) -> TargetOrgFacts:
    """Read the org; raises OrgError when it refuses (login, API access, limits)."""
    org_id, user_id = client.identity()
    limits = client.rest("limits")
    global_describe = client.rest("sobjects")
    names = {o["name"] for o in global_describe["sobjects"]}
    describes = {}
    for name in object_names:
        if name in names:
            describes[name] = SObject.model_validate(client.rest(f"sobjects/{name}/describe"))
    facts = TargetOrgFacts(org_id, user_id, dict(limits), names, describes)
    if "UserLicense" in names:
        for row in client.query_all("SELECT Name, TotalLicenses, UsedLicenses FROM UserLicense"):
            facts.licences[row["Name"]] = (int(row["TotalLicenses"] or 0), int(row["UsedLicenses"] or 0))
    if "PermissionSet" in names:
        found = client.query_all(
            f"SELECT Id, Description FROM PermissionSet WHERE Name = {soql_string(PERMISSION_SET)}"
        )
        facts.permission_set = found[0] if found else None
    return facts


def problems(facts: TargetOrgFacts, plan: PushPlan) -> list[str]:
    """Why the push cannot start, each with what to change (empty: it can)."""
    found: list[str] = []
    missing = [name for name, why in plan.skipped.items() if why == "missing"]
    territory = [name for name in missing if name in TERRITORY_OBJECTS]
    if territory:
        found.append(
            TERRITORY_ADVICE.format(objects=", ".join(territory))
            + f"; or push without them: --skip {','.join(territory)}"
        )
    lacking = _missing_stages(facts, plan)
    if lacking:
        found.append(
            f"the org's opportunity stages lack {', '.join(lacking)}, which the dataset's opportunities use: in "
            "Setup, Object Manager, Opportunity, Fields & Relationships, Stage, add them as values (Closed as a "
            "closed, won stage)"
        )
    for name in missing:
        if name in TERRITORY_OBJECTS:
            continue
        advice = FEATURE_ADVICE.get(name, f"the org has no {name} object")
        found.append(f"{advice}; or push without it: --skip {name}")
    if plan.needs_person_accounts and not facts.person_accounts:
        found.append(
            "Person Accounts are not enabled, and the dataset's customers are person accounts: in Setup, "
            "Account Settings, enable Person Accounts (irreversible; where the org does not offer it, "
            "Salesforce Support enables them; a scratch org takes the PersonAccounts feature)"
        )
    locked = sorted(
        {f"{name}.{f}" for name in plan.loaded_objects for f in AUDIT_FIELDS if plan.writes(name, f) is False}
    )
    if locked:
        found.append(
            "the audit fields cannot be set ("
            + ", ".join(locked[:4])
            + (" ..." if len(locked) > 4 else "")
            + "), so cases and their history would lose their dates: in Setup, User Interface, enable "
            "'Set Audit Fields upon Record Creation' and 'Update Records with Inactive Owners' User "
            "Permissions, then give yourself both permissions (a permission set)"
        )
    if facts.pushed_dataset and facts.pushed_dataset != plan.fingerprint:
        found.append(
            f"this org already holds the push of another dataset ({facts.pushed_dataset}); remove it first "
            "with crmarena-sf push --teardown"
        )
    storage = facts.remaining("DataStorageMB")
    if storage is not None and plan.storage_kb > storage * 1024:
        found.append(
            f"the dataset needs about {plan.storage_kb / 1024:.1f} MB of data storage and the org has "
            f"{storage} MB left: push a smaller dataset (crmarena-sf generate --profile dev-org fits a "
            "Developer Edition org) or free storage"
        )
    requests_left = facts.remaining("DailyApiRequests")
    if requests_left is not None and plan.api_calls > requests_left:
        found.append(
            f"the push needs about {plan.api_calls} API requests and the org has {requests_left} left "
            "for today: wait for the 24-hour allowance to recover, or push a smaller dataset"
        )
    return found


def _missing_stages(facts: TargetOrgFacts, plan: PushPlan) -> list[str]:
    """Stage names the dataset's opportunities use that the org's Opportunity.StageName does not list."""
    described = facts.describes.get("Opportunity")
    stage = described.field("StageName") if described is not None else None
    used = {
        row.get("StageName") for step in plan.steps if step.object == "Opportunity" for row in step.rows
    } - {None}
    if stage is None or not used:
        return []
    return sorted(used - set(stage.picklist_values))


def read_present(client: PushClient, plan: PushPlan, key_field: str) -> dict[str, dict[str, str]]:
    """Per loaded object whose org describe has the key field: ``{key: org Id}`` of records already loaded."""
    present: dict[str, dict[str, str]] = {}
    for name in plan.loaded_objects:
        described = plan.target.org.get(name)
        if described is None or described.field(key_field) is None:
            continue
        present[name] = keyed_records(client, name, key_field)
    return present


def keyed_records(
    client: PushClient, name: str, key_field: str, statuses: tuple[str, ...] = ("Online", "Draft")
) -> dict[str, str]:
    """``{key: Id}`` of the records of ``name`` that carry a key.

    Knowledge article versions can only be queried with a filter on ``PublishStatus`` (or Id)
    ("Knowledge Article Version" in the SOQL and SOSL Reference), so they are read per status
    (``statuses``).
    """
    found: dict[str, str] = {}
    filters = [""]
    if name.endswith("__kav"):
        filters = [f" AND PublishStatus = '{status}'" for status in statuses]
    for extra in filters:
        try:
            rows = client.query_all(f"SELECT Id, {key_field} FROM {name} WHERE {key_field} != null{extra}")
        except OrgError as exc:
            if exc.code in ("INVALID_FIELD", "INVALID_TYPE"):
                return found
            raise
        for row in rows:
            found[row[key_field]] = row["Id"]
    return found
