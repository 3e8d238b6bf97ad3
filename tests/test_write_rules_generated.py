"""Every rule the describes declare, broken and kept, for every object of the ``crmarena`` org (its
CRMArena objects and the standard sales objects), through simple-salesforce.

For each object the test builds a valid record (and the parents it needs), then walks the
object's describe and, for each rule a field or relationship declares, writes once breaking it
and once keeping it (values drawn by hypothesis), checking the error code, the fields the error
names, and that a refused write changed nothing:

- ``length`` of text fields: STRING_TOO_LONG past it (REST API Developer Guide, "Status Codes and
  Error Responses"; SOAP API, "Core Data Types Used in API Calls": strings longer than the field
  fail since API 15.0);
- ``precision`` and ``scale`` of numbers: NUMBER_OUTSIDE_VALID_RANGE past the integer digits; the
  decimals sent are kept (Salesforce Help 000387302 and 000385689);
- ``digits`` of integers: NUMBER_OUTSIDE_VALID_RANGE past them;
- ``restrictedPicklist``: INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST for another value;
- ``nillable`` (required on create): REQUIRED_FIELD_MISSING when left out;
- ``createable`` / ``updateable``: INVALID_FIELD_FOR_INSERT_UPDATE, calculated and auto-number
  fields included; an auto-number is given by the org, a new value per record;
- ``defaultedOnCreate``: left out, the org fills it in;
- ``unique``: DUPLICATE_VALUE for a value another record holds; ``externalId``: an upsert on it
  updates its one record, and two records holding a non-unique external id answer 300;
- ``restrictedDelete`` and ``cascadeDelete`` of child relationships: DELETE_FAILED while a child
  holds the record; children that cascade go with it and come back with undelete (SOAP API
  Developer Guide, "delete()" and "undelete()").

The ``crmarena`` objects declare no unique field, so a describe document adds one (a custom
object with a unique external id), as a user would with ``connect(describes=...)``.
"""

from __future__ import annotations

import json
import os
import string
from decimal import Decimal
from typing import Any

import pytest
from crmarena_sf.emulator.ids import make_id
from crmarena_sf.emulator.store.ddl import integer_digits
from crmarena_sf.metadata import load_schema
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from simple_salesforce.exceptions import SalesforceMalformedRequest, SalesforceMoreThanOneRecord

import crmarena_sf
from crmarena_sf.connection.connect import emulated_org

SCHEMA = load_schema("crmarena")
OBJECTS = [obj.name for obj in SCHEMA]
TEXT = {
    "string",
    "textarea",
    "phone",
    "url",
    "email",
    "combobox",
    "encryptedstring",
    "datacategorygroupreference",
}
NUMBERS = {"double", "currency", "percent"}
INTEGERS = {"int", "long"}
SAFE = string.ascii_letters + string.digits
STANDARD_PRICE_BOOK = "Standard Price Book"

GADGET = {
    "name": "Gadget__c",
    "labelPlural": "Gadgets",
    "fields": [
        {
            "name": "Code__c",
            "type": "string",
            "length": 20,
            "unique": True,
            "externalId": True,
            "idLookup": True,
        },
        {"name": "Serial__c", "type": "string", "length": 20, "externalId": True, "idLookup": True},
    ],
}

RECIPES: dict[str, dict[str, Any]] = {
    "Account": {"Name": "Acme"},
    "Order": {"Status": "Draft", "Pricebook2Id": "standard"},
    "PricebookEntry": {"Pricebook2Id": "standard", "UnitPrice": 10},
    "OrderItem": {"PricebookEntryId": "standard entry", "Quantity": 1, "UnitPrice": 10},
    "OpportunityLineItem": {"PricebookEntryId": "standard entry", "Quantity": 1, "UnitPrice": 10},
    "QuoteLineItem": {"PricebookEntryId": "standard entry", "Quantity": 1, "UnitPrice": 10},
    "Opportunity": {"StageName": "Prospecting"},
    "Contract": {"Status": "Draft"},
    "Knowledge__DataCategorySelection": {"DataCategoryGroupName": "Topics", "DataCategoryName": "Policies"},
}
"""Values a valid record of the object needs beyond what its describe says (cross-field rules)."""

UNBUILT = {"KnowledgeArticle", "Organization", "Profile", "UserLicense"}
"""Objects the API cannot create (``createable: false``): only their refusal is checked."""


@pytest.fixture(scope="module")
def describes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("describes")
    (folder / "Gadget__c.json").write_text(json.dumps(GADGET), encoding="utf-8")
    return str(folder)


class Builder:
    """Valid records of any object of the org, with the parents they need (made once per object)."""

    def __init__(self, sf):
        self.sf = sf
        self.schema = emulated_org(sf).schema
        self.parents: dict[str, str] = {}
        self.serial = 0

    def existing(self, name: str) -> str:
        return self.sf.query(f"SELECT Id FROM {name} LIMIT 1")["records"][0]["Id"]

    def parent(self, name: str) -> str:
        if name not in self.parents:
            obj = self.schema.get(name)
            self.parents[name] = (
                self.create(name) if obj.createable and name not in UNBUILT else self.existing(name)
            )
        return self.parents[name]

    def standard_entry(self) -> str:
        if "standard entry" not in self.parents:
            product = self.sf.Product2.create({"Name": "Gizmo"})["id"]
            self.parents["standard entry"] = self.sf.PricebookEntry.create(
                {
                    "Pricebook2Id": self.standard_book(),
                    "Product2Id": product,
                    "UnitPrice": 10,
                    "IsActive": True,
                }
            )["id"]
        return self.parents["standard entry"]

    def standard_book(self) -> str:
        return self.sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]

    def values(self, name: str, **overrides: Any) -> dict[str, Any]:
        """A valid record of ``name``: its required fields, its recipe, ``overrides``."""
        obj = self.schema.get(name)
        self.serial += 1
        values: dict[str, Any] = {}
        for f in obj.required_fields:
            values[f.name] = self.sample(obj, f)
        for key, value in RECIPES.get(name, {}).items():
            if value == "standard":
                value = self.standard_book()
            elif value == "standard entry":
                value = self.standard_entry()
            values[key] = value
        if name == "PricebookEntry":
            values["Product2Id"] = self.sf.Product2.create({"Name": f"Product {self.serial}"})["id"]
        values.update(overrides)
        if name == "PricebookEntry" and values["Pricebook2Id"] != self.standard_book():
            # a custom price needs the product's standard price first
            self.sf.PricebookEntry.create(
                {"Pricebook2Id": self.standard_book(), "Product2Id": values["Product2Id"], "UnitPrice": 10}
            )
        return values

    def create(self, name: str, **overrides: Any) -> str:
        return getattr(self.sf, name).create(self.values(name, **overrides))["id"]

    def sample(self, obj, f) -> Any:
        """A value ``f`` accepts."""
        if f.type == "reference":
            target = next(t for t in f.referenceTo if t != "Group")
            return self.parent(target)
        if f.type in ("picklist", "multipicklist"):
            return f.picklist_values[0] if f.picklist_values else "Account"  # an open list: any value
        if f.type == "junctionidlist":
            return []
        if f.type == "email":
            return f"user{self.serial}@example.com"
        if f.type == "url":
            return "https://example.com"
        if f.type in TEXT:
            return f"{f.name[: max(1, (f.length or 10) - 4)]}{self.serial}"[: f.length or 10]
        if f.type in NUMBERS | INTEGERS:
            return 1
        if f.type == "boolean":
            return True
        if f.type == "date":
            return "2024-01-01"
        if f.type == "datetime":
            return "2024-01-01T10:00:00.000Z"
        if f.type == "time":
            return "10:00:00.000Z"
        raise AssertionError(f"no sample value for {obj.name}.{f.name} ({f.type})")


def _refused(call, *args) -> dict:
    with pytest.raises(SalesforceMalformedRequest) as refused:
        call(*args)
    [error] = refused.value.content
    return error


def _snapshot(sf, name: str, record_id: str) -> dict:
    return {k: v for k, v in getattr(sf, name).get(record_id).items() if k != "attributes"}


def _count(sf, name: str) -> int:
    return sf.query(f"SELECT COUNT() FROM {name}")["totalSize"]


def _writable(f) -> bool:
    return not f.is_compound and f.type not in ("id", "reference", "base64", "address", "location")


# ---------------------------------------------------------------------------- value strategies
def _text_of_length(lengths):
    """Text of a drawn length, from a drawn seed (hypothesis cannot draw thousands of characters itself)."""
    seed = st.text(SAFE, min_size=1, max_size=12)
    return st.tuples(seed, lengths).map(lambda pair: (pair[0] * (pair[1] // len(pair[0]) + 1))[: pair[1]])


def too_long(f):
    if f.type == "email":
        return st.integers(f.length + 1, f.length + 20).map(lambda n: "a" * (n - 12) + "@example.com")
    return _text_of_length(st.integers(f.length + 1, f.length + 20))


def fitting_text(f):
    if f.type == "email":
        return st.integers(13, f.length).map(lambda n: "a" * (n - 12) + "@example.com")
    if f.type == "url":
        return _text_of_length(st.integers(1, f.length - 8)).map(lambda s: "https://" + s)
    return _text_of_length(st.sampled_from(sorted({1, max(1, f.length // 2), f.length})))


def too_large(f):
    if f.type in INTEGERS:
        digits = f.digits or (10 if f.type == "int" else 19)
        return st.integers(10**digits, 10**digits * 9)
    room = integer_digits(f)
    return st.integers(10**room, 10**room * 9).map(lambda n: Decimal(n) + Decimal("0.5"))


FACTORS = {
    name: {"Quantity", "UnitPrice", "Discount", "ListPrice"}
    for name in ("OrderItem", "OpportunityLineItem", "QuoteLineItem")
}
"""Fields the org multiplies into a computed total (TotalPrice = Quantity x UnitPrice less Discount):
each fits its own field, but two large ones together outgrow the total's, which the org refuses
(NUMBER_OUTSIDE_VALID_RANGE on the total). Their keeping values stay small enough for any product."""


def fitting_number(f, obj_name: str = ""):
    if f.type in INTEGERS:
        limit = min(10 ** (f.digits or 9) - 1, 2**31 - 1 if f.type == "int" else 2**63 - 1)
        return st.integers(-limit, limit)
    room = integer_digits(f)
    if f.name in FACTORS.get(obj_name, ()):
        room = min(room, 4)
    whole = st.integers(0, 10 ** min(room, 12) - 1)
    decimals = st.integers(0, 10**6 - 1).map(lambda n: Decimal(n) / Decimal(10**6))
    return st.tuples(whole, decimals).map(lambda pair: pair[0] + pair[1])


def not_in_picklist(f):
    allowed = {v.lower() for v in f.picklist_values}
    return st.text(SAFE, min_size=1, max_size=min(f.length or 40, 30)).filter(
        lambda s: s.lower() not in allowed
    )


def value_rules(obj) -> list[tuple[Any, str]]:
    """(field, rule) for every value rule a field of ``obj`` declares and a write can reach."""
    rules = []
    for f in obj.fields:
        if not (f.createable or f.updateable) or not _writable(f):
            continue
        if f.type in TEXT and f.length:
            rules.append((f, "length"))
        elif f.type in NUMBERS | INTEGERS:
            rules.append((f, "precision"))
        elif f.type in ("picklist", "multipicklist") and f.restrictedPicklist and f.picklist_values:
            rules.append((f, "restricted picklist"))
    return rules


def _put(sf, obj, builder, record_id, f, value):
    """Write ``value`` into ``f``: an update of the record, or a new record when ``f`` is createable only."""
    payload = {f.name: float(value) if isinstance(value, Decimal) else value}
    if f.updateable and obj.updateable:
        getattr(sf, obj.name).update(record_id, payload)
        return record_id
    return getattr(sf, obj.name).create(builder.values(obj.name, **payload))["id"]


def _check_value_rule(target, f, rule, data) -> None:
    """One breaking and one keeping write of ``f``'s ``rule``; ``target.state`` is the record as last read."""
    sf, obj, builder = target.sf, target.obj, target.builder
    where = f"{obj.name}.{f.name} ({rule})"
    by_update = f.updateable and obj.updateable
    count = None if by_update else _count(sf, obj.name)
    if rule == "length":
        bad, good, code = data.draw(too_long(f)), data.draw(fitting_text(f)), "STRING_TOO_LONG"
    elif rule == "precision":
        bad, good, code = (
            data.draw(too_large(f)),
            data.draw(fitting_number(f, obj.name)),
            "NUMBER_OUTSIDE_VALID_RANGE",
        )
    else:
        bad, good = data.draw(not_in_picklist(f)), data.draw(st.sampled_from(f.picklist_values))
        code = "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST"
    error = _refused(_put, sf, obj, builder, target.record_id, f, bad)
    assert (error["errorCode"], error["fields"]) == (code, [f.name]), where
    if by_update:  # nothing half-written: the record reads as before the refused write
        assert _snapshot(sf, obj.name, target.record_id) == target.state, where
    else:
        assert _count(sf, obj.name) == count, where
    written = _put(sf, obj, builder, target.record_id, f, good)
    record = _snapshot(sf, obj.name, written)
    if by_update:
        target.state = record
    if rule == "precision" and f.type in NUMBERS:  # the decimals sent are kept
        assert Decimal(str(record[f.name])) == pytest.approx(good, rel=Decimal("1e-15")), where
    else:
        assert record[f.name] == good, where


# ---------------------------------------------------------------------------- the test
@pytest.mark.parametrize("name", OBJECTS)
def test_every_declared_rule_of_the_object_is_enforced(name, describes):
    sf = crmarena_sf.connect("blank", describes=describes)
    builder = Builder(sf)
    obj = builder.schema.get(name)
    if not obj.createable:
        # ActivityHistory and OpenActivity cannot be queried on their own (only as a subquery)
        count = _count(sf, name) if obj.queryable else None
        error = _refused(getattr(sf, name).create, {})
        assert error["errorCode"] == "CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY"
        assert count is None or _count(sf, name) == count
        return
    record_id = builder.create(name)
    check_required_and_defaults(sf, obj, builder, record_id)
    check_createable_and_updateable(sf, obj, builder, record_id)
    check_auto_numbers(sf, obj, builder, record_id)
    check_external_ids(sf, obj, builder)
    check_value_rules(sf, obj, builder, record_id)
    check_delete_rules(sf, obj, builder)


def test_a_unique_external_id_is_enforced_on_insert_and_update(describes):
    sf = crmarena_sf.connect("blank", describes=describes)
    builder = Builder(sf)
    obj = builder.schema.get("Gadget__c")
    check_external_ids(sf, obj, builder)
    assert [f.name for f in obj.fields if f.unique] == ["Code__c"]


def check_required_and_defaults(sf, obj, builder, record_id):
    full = builder.values(obj.name)
    for f in obj.required_fields:
        if full.get(f.name) is None:
            continue
        count = _count(sf, obj.name)
        error = _refused(getattr(sf, obj.name).create, {k: v for k, v in full.items() if k != f.name})
        assert (error["errorCode"], f.name in error["fields"]) == ("REQUIRED_FIELD_MISSING", True), f.name
        assert _count(sf, obj.name) == count, f.name
    record = _snapshot(sf, obj.name, record_id)
    sent = set(builder.values(obj.name))
    for f in obj.fields:
        if f.defaultedOnCreate and f.name not in sent and not f.is_compound:
            assert record[f.name] is not None, f"{obj.name}.{f.name} is defaulted on create"


def check_createable_and_updateable(sf, obj, builder, record_id):
    for f in obj.fields:
        if f.is_compound or f.name == "Id":
            continue
        value = builder.sample(obj, f) if f.type != "reference" else _some_id(builder, f)
        if not f.createable:
            count = _count(sf, obj.name)
            error = _refused(getattr(sf, obj.name).create, builder.values(obj.name, **{f.name: value}))
            assert (error["errorCode"], error["fields"]) == ("INVALID_FIELD_FOR_INSERT_UPDATE", [f.name]), (
                f.name
            )
            assert _count(sf, obj.name) == count, f.name
        if obj.updateable and not f.updateable:
            before = _snapshot(sf, obj.name, record_id)
            error = _refused(getattr(sf, obj.name).update, record_id, {f.name: value})
            assert (error["errorCode"], error["fields"]) == ("INVALID_FIELD_FOR_INSERT_UPDATE", [f.name]), (
                f.name
            )
            assert _snapshot(sf, obj.name, record_id) == before, f.name


def _some_id(builder, f) -> str:
    """An Id of the lookup's target (refused for the field's flags before anyone looks it up)."""
    return make_id(builder.schema.get(f.referenceTo[0]).keyPrefix, 999_999)


def check_auto_numbers(sf, obj, builder, record_id):
    numbers = [f for f in obj.fields if f.autoNumber]
    if not numbers:
        return
    second = builder.create(obj.name)
    first, then = _snapshot(sf, obj.name, record_id), _snapshot(sf, obj.name, second)
    for f in numbers:
        assert first[f.name] and then[f.name] and int(then[f.name]) > int(first[f.name]), f.name


def check_external_ids(sf, obj, builder):
    for f in obj.fields:
        if not f.externalId:
            continue
        api = getattr(sf, obj.name)
        key = f"K{builder.serial}"
        first = builder.create(obj.name, **{f.name: key})
        if f.unique:
            count = _count(sf, obj.name)
            error = _refused(api.create, builder.values(obj.name, **{f.name: key.lower()}))
            assert error == {
                "errorCode": "DUPLICATE_VALUE",
                "message": f"duplicate value found: {f.name} duplicates value on record with id: {first[:15]}",
                "fields": [],
            }
            assert _count(sf, obj.name) == count
            other = builder.create(obj.name, **{f.name: f"{key}-2"})
            before = _snapshot(sf, obj.name, other)
            assert _refused(api.update, other, {f.name: key})["errorCode"] == "DUPLICATE_VALUE"
            assert _snapshot(sf, obj.name, other) == before
        else:
            builder.create(obj.name, **{f.name: key})  # a value two records may share ...
            with pytest.raises(SalesforceMoreThanOneRecord):  # ... but then an upsert on it is ambiguous: 300
                api.upsert(f"{f.name}/{key}", {})
        fresh = f"N{builder.serial}"
        body = {k: v for k, v in builder.values(obj.name).items() if k != f.name}
        assert api.upsert(f"{f.name}/{fresh}", body) == 201  # created
        assert (
            api.upsert(f"{f.name}/{fresh}", body) == 200
        )  # then updated (API 46.0 and later: 200), not duplicated
        assert sf.query(f"SELECT COUNT() FROM {obj.name} WHERE {f.name} = '{fresh}'")["totalSize"] == 1


class Target:
    """The record the value rules write into (a short repr for hypothesis's reports)."""

    def __init__(self, sf, obj, builder, record_id):
        self.sf, self.obj, self.builder, self.record_id = sf, obj, builder, record_id
        self.state = _snapshot(sf, obj.name, record_id)

    def __repr__(self) -> str:
        return f"Target({self.obj.name} {self.record_id})"


# No shrinking: a failing walk is reported as drawn (shrinking thousands of draws takes minutes).
@settings(
    max_examples=int(os.environ.get("RULES_EXAMPLES", "2")),  # more to hunt for a rule: RULES_EXAMPLES=60
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def _value_rules_hold(target, data):
    for f, rule in value_rules(target.obj):
        _check_value_rule(target, f, rule, data)


def check_value_rules(sf, obj, builder, record_id):
    _value_rules_hold(Target(sf, obj, builder, record_id))


def check_delete_rules(sf, obj, builder):
    if not obj.deletable:
        return
    for rel in obj.childRelationships:
        child = builder.schema.get(rel.childSObject)
        f = child.field(rel.field) if child else None
        if (
            child is None
            or f is None
            or obj.name not in f.referenceTo
            or not child.createable
            or child.name in UNBUILT
            or not (rel.cascadeDelete or rel.restrictedDelete)
        ):
            continue
        where = f"{obj.name} -> {child.name}.{f.name}"
        parent = builder.create(obj.name)
        kid = builder.create(child.name, **{f.name: parent})
        org = emulated_org(sf)
        if rel.restrictedDelete and not rel.cascadeDelete:
            error = _refused(getattr(sf, obj.name).delete, parent)
            assert (error["errorCode"], error["fields"]) == ("DELETE_FAILED", []), where
            assert error["message"].startswith("Your attempt to delete "), where
            assert _deleted(sf, obj.name, parent) is False and _deleted(sf, child.name, kid) is False, where
            getattr(sf, child.name).delete(kid)
            getattr(sf, obj.name).delete(parent)  # kept: nothing holds it any more
            assert _deleted(sf, obj.name, parent) is True, where
        else:  # cascades (an unactivated child of a cascading and restricting relationship too)
            getattr(sf, obj.name).delete(parent)
            assert _deleted(sf, child.name, kid) is True, where
            org.undelete(obj.name, parent)
            assert _deleted(sf, child.name, kid) is False, where


def _deleted(sf, name, record_id):
    found = sf.query_all(f"SELECT IsDeleted FROM {name} WHERE Id = '{record_id}'", include_deleted=True)[
        "records"
    ]
    return found[0]["IsDeleted"] if found else None


def test_the_walk_covers_every_object_of_the_crmarena_org_and_the_sales_objects():
    sales = {"Lead", "Opportunity", "OpportunityLineItem", "Campaign", "CampaignMember", "Task", "Event", "Quote",
             "QuoteLineItem"}  # fmt: skip
    assert sales <= set(OBJECTS) and {"Account", "Case", "Knowledge__kav", "Issue__c"} <= set(OBJECTS)
