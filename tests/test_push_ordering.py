"""Load order from references: parents first, self-references and one nillable edge per cycle deferred
to the update pass, a cycle of required references refused (CumulusCI's ``after`` steps)."""

from __future__ import annotations

import pytest
from crmarena_sf.loaders.push.ordering import CycleError, order_objects
from crmarena_sf.loaders.push.plan import Column


def test_parents_come_first_and_ties_go_by_name():
    owner, account, case = (
        Column("OwnerId", "reference"),
        Column("AccountId", "reference"),
        Column("X", "reference"),
    )
    order, deferred = order_objects(
        ["Case", "Account", "User", "Issue__c"],
        {"Case": {"Account": [account], "User": [owner], "Issue__c": [case]}, "Account": {"User": [owner]}},
    )
    assert order == ["Issue__c", "User", "Account", "Case"] and deferred == []


def test_a_self_reference_and_a_nillable_cycle_edge_are_deferred():
    parent = Column("ParentId", "reference")
    contact_account = Column("AccountId", "reference", nillable=True)
    account_contact = Column("PrimaryContact__c", "reference", nillable=True)
    order, deferred = order_objects(
        ["Account", "Case", "Contact"],
        {
            "Case": {"Case": [parent], "Contact": [Column("ContactId", "reference")]},
            "Account": {"Contact": [account_contact]},
            "Contact": {"Account": [contact_account]},
        },
    )
    # the cycle is broken at its first edge by name (Account -> Contact), written after loading
    assert order == ["Account", "Contact", "Case"]
    assert parent in deferred and account_contact in deferred and contact_account not in deferred


def test_a_cycle_of_required_references_cannot_be_loaded():
    a, b = Column("BId", "reference", nillable=False), Column("AId", "reference", nillable=False)
    with pytest.raises(CycleError, match="A, B"):
        order_objects(["A", "B"], {"A": {"B": [a]}, "B": {"A": [b]}})
