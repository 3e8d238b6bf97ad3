"""The CRMArena org's metadata: describe documents, the typed schema and its lookups."""

from __future__ import annotations

import json

import pytest
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.metadata import DESCRIBE_DIR, load_schema, read_describes
from crmarena_sf.metadata.build import build_describes, main, render
from crmarena_sf.metadata.model import SObject
from crmarena_sf.metadata.spec import FIELD_KEYS, OBJECT_DEFAULTS

CRMARENA_OBJECTS = {
    "User", "Account", "Contact", "Case", "Knowledge__kav", "ProductCategory", "Product2",
    "ProductCategoryProduct", "Pricebook2", "PricebookEntry", "Order", "OrderItem",
    "EmailMessage", "LiveChatTranscript", "Issue__c", "CaseHistory__c",
}  # fmt: skip
"""The 16 objects of CRMArena (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)."""

NEW_ORG_OBJECTS = {"Profile", "RecordType", "Group", "Organization", "UserRole"}


@pytest.fixture(scope="module")
def schema():
    return load_schema()


@pytest.fixture(scope="module")
def standard():
    return load_schema("standard")


@pytest.fixture(scope="module")
def documents():
    return read_describes(DESCRIBE_DIR)


# ------------------------------------------------------------------ documents
def test_the_schema_has_every_crmarena_object_and_what_a_new_org_points_at(schema):
    assert set(schema.names) >= CRMARENA_OBJECTS | NEW_ORG_OBJECTS


def test_every_describe_document_validates_and_carries_every_describe_key(documents):
    for name, doc in documents.items():
        obj = SObject.model_validate(doc)
        assert obj.name == name
        assert set(OBJECT_DEFAULTS) <= set(doc), name
        for f in doc["fields"]:
            assert list(f) == FIELD_KEYS, f"{name}.{f['name']}"
        assert [rt["developerName"] for rt in doc["recordTypeInfos"]][-1] == "Master"


def test_field_names_are_unique_within_each_object(schema):
    for obj in schema:
        names = [f.name.lower() for f in obj.fields]
        assert len(names) == len(set(names)), obj.name


@pytest.mark.parametrize("profile", ["crmarena", "standard"])
def test_every_reference_resolves_inside_the_schema(profile):
    schema = load_schema(profile)
    assert schema.unresolved_references() == []
    for obj in schema:
        for rel in obj.childRelationships:
            child = schema.get(rel.childSObject)
            assert child is not None and child.field(rel.field) is not None, (
                f"{obj.name}.{rel.relationshipName}"
            )
            # a person account lists its contact's child relationships as Person* (real PA describe)
            parent = "Contact" if (rel.relationshipName or "").startswith("Person") else obj.name
            assert parent in child.field(rel.field).referenceTo


def test_committed_describes_equal_a_fresh_build(documents):
    fresh = build_describes()
    assert set(fresh) == set(documents)
    for name, describe in fresh.items():
        assert (DESCRIBE_DIR / f"{name}.json").read_text(encoding="utf-8") == render(describe), name
    assert main(["--check"]) == 0


def test_render_is_json_that_round_trips(documents):
    doc = documents["Case"]
    assert json.loads(render(doc)) == doc


def test_key_prefixes_are_real_unique_and_resolve_ids(schema):
    # ActivityHistory and OpenActivity are views of Task and Event: their rows carry those Ids
    views = {"ActivityHistory", "OpenActivity"}
    assert all(o.keyPrefix is None for o in schema if o.name in views)
    prefixes = [o.keyPrefix for o in schema if o.name not in views]
    assert all(p and len(p) == 3 for p in prefixes)
    assert len(prefixes) == len(set(prefixes))
    expected = {
        "User": "005", "Profile": "00e", "RecordType": "012", "Group": "00G", "Organization": "00D",
        "UserRole": "00E", "Account": "001", "Contact": "003", "Case": "500", "Product2": "01t",
        "Pricebook2": "01s", "PricebookEntry": "01u", "Order": "801", "OrderItem": "802",
        "EmailMessage": "02s", "LiveChatTranscript": "570", "LiveChatVisitor": "571", "Asset": "02i",
        "Contract": "800", "Individual": "0PK", "Knowledge__kav": "ka0", "KnowledgeArticle": "kA0",
        "ProductCategory": "0ZG", "ProductCatalog": "0ZS", "Issue__c": "a1M", "CaseHistory__c": "a1N",
    }  # fmt: skip
    assert {name: schema.get(name).keyPrefix for name in expected} == expected
    # real CRMArena Ids (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db) resolve to their objects
    assert schema.object_of_id("005Ws000001xSR9IAM").name == "User"
    assert schema.object_of_id("ka0Ws000000abcdIAA").name == "Knowledge__kav"
    assert schema.object_of_id("kA0Ws000000abcdIAA").name == "KnowledgeArticle"


def test_the_standard_profile_has_no_custom_object_or_field(standard):
    for obj in standard:
        assert not obj.name.endswith("__c")
        assert not [f.name for f in obj.fields if "__" in f.name], obj.name
        assert not [r for r in obj.childRelationships if r.childSObject.endswith("__c") or "__" in r.field]
    assert standard.get("Case").field("OrderItemId__c") is None
    assert standard.get("Product2").field("External_ID__c") is None
    # Lightning Knowledge's own article type stays, without CRMArena's custom body field
    assert standard.get("Knowledge__kav").field("FAQ_Answer__c") is None


# ------------------------------------------------------------------ lookups
def test_objects_and_fields_are_found_in_any_casing_with_canonical_names(schema):
    assert schema.get("pricebookentry").name == "PricebookEntry"
    assert "KNOWLEDGE__KAV" in schema
    assert schema.get("case").field("orderitemid__c").name == "OrderItemId__c"
    assert schema.get("USER").field("timezonesidkey").name == "TimeZoneSidKey"
    assert schema.get("NoSuchObject") is None
    assert schema.get("Account").field("NoSuchField") is None


def test_parent_relationships_including_the_polymorphic_case_owner(schema):
    case = schema.get("Case")
    owner = case.parent_relationship("owner")
    assert owner.name == "OwnerId" and owner.referenceTo == ["Group", "User"]
    assert owner.polymorphicForeignKey
    assert case.parent_relationship("ACCOUNT").name == "AccountId"
    assert case.parent_relationship("issueid__r").referenceTo == ["Issue__c"]
    assert case.parent_relationship("OrderItemId__r").referenceTo == ["OrderItem"]
    assert schema.get("OrderItem").parent_relationship("order").referenceTo == ["Order"]
    assert schema.get("CaseHistory__c").parent_relationship("CaseId__r").referenceTo == ["Case"]
    assert schema.get("EmailMessage").parent_relationship("Parent").referenceTo == ["Case"]
    assert schema.get("Account").parent_relationship("PersonContact").referenceTo == ["Contact"]


@pytest.mark.parametrize(
    ("parent", "name", "child", "field"),
    [
        ("Account", "cases", "Case", "AccountId"),
        ("Account", "Contacts", "Contact", "AccountId"),
        ("Account", "ORDERS", "Order", "AccountId"),
        ("Account", "PersonCases", "Case", "ContactId"),
        ("Contact", "cases", "Case", "ContactId"),
        ("Case", "emailmessages", "EmailMessage", "ParentId"),
        ("Case", "CaseHistories__r", "CaseHistory__c", "CaseId__c"),
        ("Case", "LiveChatTranscripts", "LiveChatTranscript", "CaseId"),
        ("Issue__c", "Cases__r", "Case", "IssueId__c"),
        ("OrderItem", "cases__r", "Case", "OrderItemId__c"),
        ("Order", "OrderItems", "OrderItem", "OrderId"),
        ("Pricebook2", "PricebookEntries", "PricebookEntry", "Pricebook2Id"),
        ("Product2", "PricebookEntries", "PricebookEntry", "Product2Id"),
        ("Product2", "ProductCategoryProducts", "ProductCategoryProduct", "ProductId"),
        ("ProductCategory", "CategoryProducts", "ProductCategoryProduct", "ProductCategoryId"),
        ("User", "Cases", None, None),
    ],
)
def test_child_relationships(schema, parent, name, child, field):
    rel = schema.get(parent).child_relationship(name)
    if child is None:
        assert rel is None  # Case.OwnerId's child relationship on User has no name
        return
    assert (rel.childSObject, rel.field) == (child, field)


def test_deletion_rules_of_child_relationships(schema):
    assert schema.get("Case").child_relationship("EmailMessages").cascadeDelete
    assert schema.get("Account").child_relationship("Contacts").cascadeDelete
    assert schema.get("Account").child_relationship("Cases").restrictedDelete
    assert schema.get("Order").child_relationship("OrderItems").cascadeDelete


# ------------------------------------------------------------------ required and derived fields
@pytest.mark.parametrize(
    ("name", "required"),
    [
        ("Contact", {"LastName"}),
        ("User", {"Username", "LastName", "Email", "Alias", "TimeZoneSidKey", "LocaleSidKey",
                  "EmailEncodingKey", "ProfileId", "LanguageLocaleKey"}),
        ("PricebookEntry", {"Pricebook2Id", "Product2Id", "UnitPrice"}),
        ("Order", {"AccountId", "EffectiveDate", "Status"}),
        ("OrderItem", {"OrderId", "PricebookEntryId", "Quantity", "UnitPrice"}),
        ("Pricebook2", {"Name"}),
        ("Product2", {"Name"}),
        ("Knowledge__kav", {"Title", "UrlName"}),
        ("EmailMessage", {"Status"}),
        ("LiveChatTranscript", {"LiveChatVisitorId"}),
        ("ProductCategory", {"Name", "CatalogId"}),
        ("ProductCategoryProduct", {"ProductCategoryId", "ProductId"}),
        ("Case", set()),
        ("Issue__c", set()),
        ("CaseHistory__c", set()),
        ("Account", set()),  # Name is nillable in a person-account org's describe
    ],
)  # fmt: skip
def test_required_on_create(schema, name, required):
    assert {f.name for f in schema.get(name).required_fields} == required


def test_an_account_needs_name_when_business_and_last_name_when_person():
    org = Org.new()
    person = org.schema.get("Account").record_type("PersonAccount").recordTypeId
    with pytest.raises(SalesforceError) as business:
        org.insert("Account", {"Phone": "555-0100"})
    assert (business.value.error_code, business.value.message) == (
        "REQUIRED_FIELD_MISSING",
        "Required fields are missing: [Name]",
    )
    with pytest.raises(SalesforceError) as individual:
        org.insert("Account", {"RecordTypeId": person, "FirstName": "Ann"})
    assert individual.value.message == "Required fields are missing: [LastName]"


def test_person_names_are_derived_not_createable(schema):
    for name in ("Contact", "User", "Individual"):
        full = schema.get(name).field("Name")
        assert not full.createable and not full.updateable and full.extraTypeInfo == "personname"
        assert schema.get(name).person_name_parts == ("FirstName", "LastName")
    account_name = schema.get("Account").field("Name")
    assert account_name.createable and account_name.extraTypeInfo == "switchablepersonname"
    assert schema.get("Account").person_name_parts == ("FirstName", "LastName")
    assert not schema.get("Case").field("IsClosed").createable


def test_person_account_fields_follow_the_real_describe(schema):
    account = schema.get("Account")
    names = [f.name for f in account.fields]
    person = names[names.index("PersonContactId") :]
    assert person[:3] == ["PersonContactId", "IsPersonAccount", "PersonMailingStreet"]
    assert "PersonMailingAddress" in person and "PersonOtherAddress" in person
    assert account.field("PersonMailingAddress").type == "address"
    assert account.field("PersonEmail").type == "email"
    assert account.field("PersonBirthdate").type == "date"
    assert not account.field("IsPersonAccount").createable
    assert account.field("PersonIndividualId").referenceTo == ["Individual"]
    assert not schema.get("Contact").field("IsPersonAccount").createable


def test_crmarena_custom_parts(schema):
    external = schema.get("Product2").field("External_ID__c")
    assert (external.type, external.length, external.externalId, external.custom) == (
        "string",
        255,
        True,
        True,
    )
    assert external.idLookup
    faq = schema.get("Knowledge__kav").field("FAQ_Answer__c")
    assert faq.htmlFormatted and faq.type == "textarea"
    events = schema.get("CaseHistory__c").field("Field__c").picklist_values
    assert set(events) == {"Case Creation", "Owner Assignment", "Case Closed"}
    assert schema.get("CaseHistory__c").field("Name").autoNumber
    assert schema.get("Issue__c").field("Description__c").length > 255
    assert schema.get("Case").field("IssueId__c").referenceTo == ["Issue__c"]


def test_knowledge_publish_status_and_language(schema):
    kav = schema.get("Knowledge__kav")
    status = kav.field("PublishStatus")
    assert not status.createable and status.picklist_values == ("Draft", "Online", "Archived")
    assert kav.field("Language").defaultValue == "en_US"
    assert kav.field("Language").canonical_picklist_value("EN_us") == "en_US"
    assert kav.name_field.name == "Title"


def test_user_locale_picklists_are_restricted_and_cover_the_new_org(schema):
    user = schema.get("User")
    for name in ("TimeZoneSidKey", "LocaleSidKey", "EmailEncodingKey", "LanguageLocaleKey"):
        assert user.field(name).restrictedPicklist
    assert "America/Los_Angeles" in user.field("TimeZoneSidKey").picklist_values
    assert "UTF-8" in user.field("EmailEncodingKey").picklist_values
    assert user.field("IsActive").defaultValue is True
    assert user.field("IsDeleted") is None and not user.deletable


def test_a_new_org_loads_the_whole_schema():
    org = Org.new()
    assert org.count("User") == 1 and org.count("Profile") == 2 and org.count("Organization") == 1
    assert org.count("Pricebook2") == 1
