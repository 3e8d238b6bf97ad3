"""A small SQLite file shaped like CRMArena-Pro's official dumps, for the importer's tests.

The 27 tables and their columns follow the B2B dump (SalesforceAIResearch/CRMArena
local_data/crmarenapro_b2b_data.db, as DataAgentBench's query_crmarenapro/db_description.txt
describes it), quirks included: ``OrderItem.PriceBookEntryId`` in that casing, list-valued
``EmailMessage.ToIds`` kept as text, polymorphic ``Task.WhatId``, numbers stored as text or REAL,
Ids with the ``Wt`` pod and the official custom-object prefixes (Issue__c ``a03``,
VoiceCallTranscript__c ``a05``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from crmarena_sf.emulator.ids import make_id


def sid(prefix: str, n: int) -> str:
    return make_id(prefix, n, pod="Wt")


USERS = [sid("005", n) for n in (1, 2, 3)]
ACCOUNTS = [sid("001", n) for n in (1, 2)]
CONTACTS = [sid("003", n) for n in (1, 2, 3)]
LEADS = [sid("00Q", n) for n in (1, 2)]
OPPS = [sid("006", n) for n in (1, 2)]
PRODUCTS = [sid("01t", n) for n in (1, 2)]
ENTRIES = [sid("01u", n) for n in (1, 2)]
PRICEBOOK = sid("01s", 1)
CONTRACT = sid("800", 1)
ORDER = sid("801", 1)
ORDER_ITEMS = [sid("802", n) for n in (1, 2)]
QUOTE = sid("0Q0", 1)
CASE = sid("500", 1)
ISSUE = sid("a03", 1)
HISTORY = [sid("a04", n) for n in (1, 2)]
CALLS = [sid("a05", n) for n in (1, 2)]
TERRITORIES = [sid("0MI", n) for n in (1, 2)]
ARTICLES = [sid("ka0", n) for n in (1, 2)]
TASKS = [sid("00T", n) for n in (1, 2, 3)]
UNKNOWN_WHAT = sid("a0Z", 7)
"""A Task.WhatId whose object is not in the org: the importer clears it and counts the repair."""

TABLES: dict[str, tuple[list[str], list[tuple]]] = {
    "User": (
        ["Id", "FirstName", "LastName", "Email", "Phone", "Username", "Alias", "LanguageLocaleKey", "EmailEncodingKey", "TimeZoneSidKey", "LocaleSidKey"],
        [(u, f"Rep{i}", f"Person{i}", f"rep{i}@techpulse.example.com", 5550100 + i, f"rep{i}@techpulse.example.com", f"rep{i}", "en_US", "UTF-8", "America/New_York", "en_US") for i, u in enumerate(USERS)],
    ),
    "Account": (
        ["Id", "Name", "Phone", "Industry", "Description", "NumberOfEmployees", "ShippingState"],
        [(ACCOUNTS[0], "Orbit Devices", "555-0101", "Electronics", "Boards.", "240", "CA"), (ACCOUNTS[1], "Keel Robotics", "555-0102", "Technology", None, 90.0, "OR")],
    ),
    "Contact": (
        ["Id", "FirstName", "LastName", "Email", "AccountId"],
        [(CONTACTS[0], "Ada", "Stone", "ada@orbit.example.com", ACCOUNTS[0]), (CONTACTS[1], "Ben", "Ruiz", "ben@orbit.example.com", ACCOUNTS[0]), (CONTACTS[2], "Cy", "Park", "cy@keel.example.com", ACCOUNTS[1])],
    ),
    "Lead": (
        ["Id", "FirstName", "LastName", "Email", "Phone", "Company", "Status", "ConvertedContactId", "ConvertedAccountId", "Title", "CreatedDate", "ConvertedDate", "IsConverted", "OwnerId"],
        [
            (LEADS[0], "Cy", "Park", "cy@keel.example.com", None, "Keel Robotics", "Closed - Converted", CONTACTS[2], ACCOUNTS[1], "CTO", "2023-01-10T09:00:00.000+0000", "2023-01-20", 1, USERS[1]),
            (LEADS[1], "Di", "Moss", "di@nowhere.example.com", "555-0199", "Nowhere Inc", "Working - Contacted", None, None, "Engineer", "2023-03-01T09:00:00.000+0000", None, 0, USERS[2]),
        ],
    ),
    "Opportunity": (
        ["Id", "ContractID__c", "AccountId", "ContactId", "OwnerId", "Probability", "Amount", "StageName", "Name", "Description", "CreatedDate", "CloseDate"],
        [
            (OPPS[0], CONTRACT, ACCOUNTS[1], CONTACTS[2], USERS[1], 100, "12000.0", "Closed", "Keel - Router", None, "2023-01-20T10:00:00.000+0000", "2023-03-15"),
            (OPPS[1], None, ACCOUNTS[0], CONTACTS[0], USERS[2], 20, 5000, "Discovery", "Orbit - Suite", "Early.", "2023-05-01T10:00:00.000+0000", "2023-09-30"),
        ],
    ),
    "OpportunityLineItem": (
        ["Id", "OpportunityId", "Product2Id", "PricebookEntryId", "Quantity", "TotalPrice"],
        [(sid("00k", 1), OPPS[0], PRODUCTS[0], ENTRIES[0], "2", "12000"), (sid("00k", 2), OPPS[1], PRODUCTS[1], ENTRIES[1], 1.0, 5000.0)],
    ),
    "Quote": (
        ["Id", "OpportunityId", "AccountId", "ContactId", "Name", "Description", "Status", "CreatedDate", "ExpirationDate"],
        [(QUOTE, OPPS[0], ACCOUNTS[1], CONTACTS[2], "Keel quote", None, "Accepted", "2023-02-01T10:00:00.000+0000", "2023-03-01")],
    ),
    "QuoteLineItem": (
        ["Id", "QuoteId", "OpportunityLineItemId", "Product2Id", "PricebookEntryId", "Quantity", "UnitPrice", "Discount", "TotalPrice"],
        [(sid("0QL", 1), QUOTE, sid("00k", 1), PRODUCTS[0], ENTRIES[0], 2, "6000", "25", None)],
    ),
    "Contract": (
        ["Id", "AccountId", "Status", "StartDate", "CustomerSignedDate", "CompanySignedDate", "Description", "ContractTerm"],
        [(CONTRACT, ACCOUNTS[1], "Activated", "2023-03-20", "2023-03-14", "2023-03-15", "Router deal.", "12")],
    ),
    "Order": (
        ["Id", "AccountId", "Status", "EffectiveDate", "Pricebook2Id", "OwnerId"],
        [(ORDER, ACCOUNTS[1], "Activated", "2023-03-20", PRICEBOOK, USERS[1])],
    ),
    "OrderItem": (
        ["Id", "OrderId", "Product2Id", "Quantity", "UnitPrice", "PriceBookEntryId"],
        [(ORDER_ITEMS[0], ORDER, PRODUCTS[0], 2.0, "6000.0", ENTRIES[0]), (ORDER_ITEMS[1], ORDER, PRODUCTS[1], "1", 5000, ENTRIES[1])],
    ),
    "Product2": (
        ["Id", "Name", "Description", "IsActive", "External_ID__c"],
        [(PRODUCTS[0], "Trace Router", "Routes traces.", 1, "PCB_1"), (PRODUCTS[1], "Layout Suite", None, "1", "PCB_2")],
    ),
    "ProductCategory": (["Id", "Name", "CatalogId"], [(sid("0ZG", 1), "PCB Design", None)]),
    "ProductCategoryProduct": (
        ["Id", "ProductCategoryId", "ProductId"],
        [(sid("0ZH", 1), sid("0ZG", 1), PRODUCTS[0]), (sid("0ZH", 2), sid("0ZG", 1), PRODUCTS[1])],
    ),
    "Pricebook2": (
        ["Id", "Name", "Description", "IsActive", "ValidFrom", "ValidTo"],
        [(PRICEBOOK, "Standard Price Book", None, 1, None, None)],
    ),
    "PricebookEntry": (
        ["Id", "Pricebook2Id", "Product2Id", "UnitPrice"],
        [(ENTRIES[0], PRICEBOOK, PRODUCTS[0], "6000"), (ENTRIES[1], PRICEBOOK, PRODUCTS[1], 5000.0)],
    ),
    "Case": (
        ["Id", "Priority", "Subject", "Description", "Status", "ContactId", "CreatedDate", "ClosedDate", "OrderItemId__c", "IssueId__c", "AccountId", "OwnerId"],
        [(CASE, "High", "Router crashes", "It crashes.", "Closed", CONTACTS[2], "2023-04-01T09:00:00.000+0000", "2023-04-02T09:00:00.000+0000", ORDER_ITEMS[0], ISSUE, ACCOUNTS[1], USERS[0])],
    ),
    "EmailMessage": (
        ["Id", "Subject", "TextBody", "ParentId", "FromAddress", "ToIds", "MessageDate", "RelatedToId"],
        [
            (sid("02s", 1), "Router crashes", "Hello, it crashes.", CASE, "cy@keel.example.com", f"['{USERS[0]}']", "2023-04-01T09:05:00.000+0000", CASE),
            (sid("02s", 2), "Re: Router crashes", "Fixed.", CASE, "rep0@techpulse.example.com", f"['{CONTACTS[2]}', '{USERS[1]}']", "2023-04-02T08:00:00.000+0000", CASE),
        ],
    ),
    "LiveChatTranscript": (
        ["Id", "CaseId", "AccountId", "OwnerId", "Body", "EndTime", "LiveChatVisitorId", "ContactId"],
        [(sid("570", 1), CASE, ACCOUNTS[1], USERS[0], "[2023-04-01T09:01:00] Cy Park (Customer): hi", "2023-04-01T09:10:00.000+0000", None, CONTACTS[2])],
    ),
    "Task": (
        ["Id", "WhatId", "OwnerId", "Priority", "Status", "ActivityDate", "Subject", "Description"],
        [
            (TASKS[0], OPPS[0], USERS[1], "High", "Completed", "2023-02-10", "Prepare the proposal", None),
            (TASKS[1], ACCOUNTS[0], USERS[2], "Normal", "Not Started", "2023-06-01", "Research the account", None),
            (TASKS[2], UNKNOWN_WHAT, USERS[2], "Normal", "Not Started", "2023-06-02", "Something else", None),
        ],
    ),
    "Event": (
        ["Id", "WhatId", "OwnerId", "StartDateTime", "Subject", "Description", "DurationInMinutes", "Location", "IsAllDayEvent"],
        [(sid("00U", 1), OPPS[0], USERS[1], "2023-02-15T15:00:00.000+0000", "Demo", None, 60, "Video call", 0)],
    ),
    "Territory2": (
        ["Id", "Name", "Description"],
        [(TERRITORIES[0], "West", "CA, OR, WA"), (TERRITORIES[1], "Texas", "TX")],
    ),
    "UserTerritory2Association": (
        ["Id", "UserId", "Territory2Id"],
        [(sid("0R0", 1), USERS[1], TERRITORIES[0]), (sid("0R0", 2), USERS[2], TERRITORIES[1])],
    ),
    "Knowledge__kav": (
        ["Id", "Title", "FAQ_Answer__c", "Summary", "UrlName"],
        [(ARTICLES[0], "Quote Approval", "Discounts above 20% need approval.", "Quotes.", "quote-approval"), (ARTICLES[1], "Routing", "By territory.", None, "routing")],
    ),
    "Issue__c": (["Id", "Name", "Description__c"], [(ISSUE, "Simulation Crash", "Runs stop.")]),
    "CaseHistory__c": (
        ["Id", "CaseId__c", "OldValue__c", "NewValue__c", "CreatedDate", "Field__c"],
        [(HISTORY[0], CASE, None, None, "2023-04-01T09:00:00.000+0000", "Case Creation"), (HISTORY[1], CASE, None, USERS[0], "2023-04-01T09:00:00.000+0000", "Owner Assignment")],
    ),
    "VoiceCallTranscript__c": (
        ["Id", "OpportunityId__c", "LeadId__c", "Body__c", "CreatedDate", "EndTime__c"],
        [
            (CALLS[0], None, LEADS[1], "[2023-03-02T10:00:00] Rep2 Person2: Hi Di.\n[2023-03-02T10:01:00] Di Moss: I can't approve purchases.", "2023-03-02T10:05:00.000+0000", "2023-03-02T10:05:00.000+0000"),
            (CALLS[1], OPPS[0], None, "[2023-02-05T10:00:00] Rep1 Person1: Hello Cy.\n[2023-02-05T10:01:00] Cy Park: The price works for us.", "2023-02-05T10:05:00.000+0000", "2023-02-05T10:05:00.000+0000"),
        ],
    ),
}  # fmt: skip


def write_pro_dump(
    path: Path, *, drop_table: str | None = None, drop_column: tuple[str, str] | None = None
) -> Path:
    """Write the dump-shaped file at ``path``; ``drop_table``/``drop_column`` make it a wrong one."""
    con = sqlite3.connect(path)
    for table, (columns, rows) in TABLES.items():
        if table == drop_table:
            continue
        keep = [i for i, c in enumerate(columns) if drop_column is None or (table, c) != drop_column]
        names = [columns[i] for i in keep]
        con.execute(f'CREATE TABLE "{table}" ({", ".join(f"{chr(34)}{c}{chr(34)}" for c in names)})')
        con.executemany(
            f'INSERT INTO "{table}" VALUES ({", ".join("?" for _ in names)})',
            [tuple(row[i] for i in keep) for row in rows],
        )
    con.commit()
    con.close()
    return path
