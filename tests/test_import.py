"""Importing CRMArena's SQLite dump: a small file with the dump's layout (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db) and its gaps."""

from __future__ import annotations

import sqlite3

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.ids import make_id
from crmarena_sf.loaders.crmarena_dump import DUMP_TABLES, import_dump
from crmarena_sf.loaders.dataset import Dataset, DatasetError
from crmarena_sf.loaders.load import load_dataset
from crmarena_sf.loaders.validate import validate_dataset
from crmarena_sf.metadata import load_schema

from crmarena_sf.cli.main import main


def ws(prefix: str, n: int) -> str:
    """An Id of the original org (pod ``Ws``, as in ``005Ws000001xSR9IAM``)."""
    return make_id(prefix, n, pod="Ws")


USER, OTHER_USER, GONE_USER = ws("005", 1), ws("005", 2), ws("005", 99)
ACCOUNT, ACCOUNT2 = ws("001", 1), ws("001", 2)
CONTACT, CONTACT2, LONE_CONTACT = ws("003", 1), ws("003", 2), ws("003", 3)
ISSUE = ws("a1M", 1)
CATALOG, CATEGORY = ws("0ZS", 1), ws("0ZG", 1)
PRODUCT, PRODUCT2 = ws("01t", 1), ws("01t", 2)
STANDARD, SUMMER = ws("01s", 1), ws("01s", 2)
ENTRY, ENTRY2 = ws("01u", 1), ws("01u", 2)
ORDER, ITEM, ITEM2 = ws("801", 1), ws("802", 1), ws("802", 2)
CASE, OPEN_CASE = ws("500", 1), ws("500", 2)
ARTICLE = ws("ka0", 1)
VISITOR = ws("571", 1)

LAYOUT = {
    "User": "Id TEXT, FirstName TEXT, LastName TEXT, Email TEXT, Phone REAL, Username TEXT, Alias TEXT, "
    "LanguageLocaleKey TEXT, EmailEncodingKey TEXT, TimeZoneSidKey TEXT, LocaleSidKey TEXT",
    "Account": "Id TEXT, FirstName TEXT, LastName TEXT, PersonEmail TEXT, Phone REAL, RecordTypeId TEXT, ShippingCity TEXT, ShippingState TEXT",
    "Contact": "Id TEXT, FirstName TEXT, LastName TEXT, Email TEXT, AccountId TEXT, OwnerId TEXT",
    "Case": "Id TEXT, Priority TEXT, Subject TEXT, Description TEXT, Status TEXT, ContactId TEXT, CreatedDate TEXT, "
    "ClosedDate TEXT, OrderItemId__c TEXT, IssueId__c TEXT, AccountId TEXT, OwnerId TEXT",
    "Knowledge__kav": "Id TEXT, Title TEXT, FAQ_Answer__c TEXT, Summary TEXT, UrlName TEXT",
    "ProductCategory": "Id TEXT, Name TEXT, CatalogId TEXT",
    "Product2": "Id TEXT, Name TEXT, Description TEXT, IsActive INTEGER, External_ID__c TEXT",
    "ProductCategoryProduct": "Id TEXT, ProductCategoryId TEXT, ProductId TEXT",
    "Pricebook2": "Id TEXT, Name TEXT, Description TEXT, IsActive INTEGER, ValidFrom TEXT, ValidTo TEXT",
    "PricebookEntry": "Id TEXT, Pricebook2Id TEXT, Product2Id TEXT, UnitPrice TEXT",
    "Order": "Id TEXT, AccountId TEXT, Status TEXT, EffectiveDate TEXT, Pricebook2Id TEXT",
    "OrderItem": "Id TEXT, OrderId TEXT, Product2Id TEXT, Quantity TEXT, UnitPrice TEXT, PriceBookEntryId TEXT",
    "EmailMessage": "Id TEXT, Subject TEXT, TextBody TEXT, ParentId TEXT, FromAddress TEXT, ToIds TEXT, MessageDate TEXT",
    "LiveChatTranscript": "Id TEXT, CaseId TEXT, AccountId TEXT, OwnerId TEXT, Body TEXT, EndTime TEXT, LiveChatVisitorId TEXT, ContactId TEXT",
    "Issue__c": "Id TEXT, Name TEXT",
    "CaseHistory__c": "Id TEXT, CaseId__c TEXT, OldValue__c TEXT, NewValue__c TEXT, CreatedDate TEXT, Field__c TEXT",
}

ROWS = {
    "User": [
        (USER, "Ava", "Stone", "ava.stone@example.com", 4155550101.0, "ava.stone@crm.example", "astone", "en_US", "UTF-8", "America/Los_Angeles", "en_US"),
        (OTHER_USER, "Ben", "Cole", "ben.cole@example.com", None, "ben.cole@crm.example", "bcole", "en_US", "UTF-8", "America/New_York", "en_US"),
    ],
    "Account": [
        (ACCOUNT, "Brian", "Baker", "brian.baker@example.com", 3125550199.0, ws("012", 7), "Chicago", "IL"),
        (ACCOUNT2, "Cara", "Diaz", "cara.diaz@example.com", None, ws("012", 7), "Portland", "OR"),
    ],
    "Contact": [
        (CONTACT, "Brian", "Baker", "brian.baker@example.com", ACCOUNT, USER),
        (CONTACT2, "Cara", "Diaz", "cara.diaz@example.com", ACCOUNT2, GONE_USER),
        (LONE_CONTACT, "Dan", "Eng", "dan.eng@example.com", None, USER),
    ],
    "Issue__c": [(ISSUE, "Product Defect")],
    "ProductCategory": [(CATEGORY, "Women’s Athletic Wear", CATALOG)],
    "Product2": [
        (PRODUCT, "Women's Trail Jacket", "A light jacket.", 1, "Women’s Athletic Wear, Outdoor Apparel_75"),
        (PRODUCT2, "Waterproof Swim Cap", "A cap.", 0, "Swimwear_3"),
    ],
    "ProductCategoryProduct": [(ws("0ZH", 1), CATEGORY, PRODUCT), (ws("0ZH", 2), CATEGORY, PRODUCT2)],
    "Pricebook2": [
        (STANDARD, "Standard Price Book", None, 1, None, None),
        (SUMMER, "Summer Sale", "Sale prices", 1, "2021-06-01T00:00:00.000+0000", "2021-08-31T00:00:00.000+0000"),
    ],
    "PricebookEntry": [
        (ENTRY, STANDARD, PRODUCT, "49.99"),
        (ENTRY2, STANDARD, PRODUCT2, "12.5"),
        (ws("01u", 3), SUMMER, PRODUCT, "39.99"),
    ],
    "Order": [(ORDER, ACCOUNT, "Activated", "2021-03-22", STANDARD)],
    "OrderItem": [(ITEM, ORDER, PRODUCT, "2", "49.99", ENTRY), (ITEM2, ORDER, PRODUCT2, "1.0", "12.5", ENTRY2)],
    "Case": [
        (CASE, "High", "Torn jacket", "The seam tore.", "Closed", CONTACT, "2021-04-01T10:00:00.000+0000",
         "2021-04-02T12:30:00.000+0000", ITEM, ISSUE, ACCOUNT, OTHER_USER),
        (OPEN_CASE, "Low", "Cap question", "Is it latex free?", "New", CONTACT2, "2021-05-01T09:00:00.000+0000",
         None, ITEM2, ISSUE, ACCOUNT2, USER),
    ],
    "CaseHistory__c": [
        (ws("a1N", 1), CASE, None, None, "2021-04-01T10:00:00.000+0000", "Case Creation"),
        (ws("a1N", 2), CASE, None, USER, "2021-04-01T10:00:00.000+0000", "Owner Assignment"),
        (ws("a1N", 3), CASE, USER, OTHER_USER, "2021-04-01T15:00:00.000+0000", "Owner Assignment"),
        (ws("a1N", 4), CASE, None, None, "2021-04-02T12:30:00.000+0000", "Case Closed"),
    ],
    "Knowledge__kav": [
        (ARTICLE, "Return Policy", "<p>Returns within 30 days &amp; store credit within 90 days. We&#39;re here.</p>",
         "Returns.", "1726808617-8j0mb"),
    ],
    "EmailMessage": [
        (ws("02s", 1), "Torn jacket", "The seam tore.", CASE, "brian.baker@example.com", f"['{OTHER_USER}']", "2021-04-01T10:00:00.000+0000"),
        (ws("02s", 2), "RE: Torn jacket", "Sorry to hear that.", CASE, "ben.cole@example.com", CONTACT, "2021-04-01T11:00:00.000+0000"),
    ],
    "LiveChatTranscript": [
        (ws("570", 1), OPEN_CASE, ACCOUNT2, USER, "[2021-05-01T09:00:05] Cara Diaz (Customer): Hi", "2021-05-01T09:10:00.000+0000", VISITOR, CONTACT2),
    ],
}  # fmt: skip


def build_dump(path, layout=LAYOUT, rows=ROWS):
    con = sqlite3.connect(path)
    for table, columns in layout.items():
        con.execute(f'CREATE TABLE "{table}" ({columns})')
        for row in rows.get(table, []):
            con.execute(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(row))})', row)
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    base = tmp_path_factory.mktemp("dump")
    return import_dump(build_dump(base / "crmarena_data.db"), base / "dataset")


@pytest.fixture(scope="module")
def org(imported):
    loaded = load_dataset(imported)
    yield loaded
    loaded.close()


def one(org, query):
    (record,) = soql.query(org, query)["records"]
    record.pop("attributes")
    return record


def test_the_layout_covers_every_table_of_the_dump():
    assert set(LAYOUT) == set(DUMP_TABLES)


def test_import_keeps_the_dumps_ids_and_is_valid(imported, org):
    assert validate_dataset(imported, load_schema()) == []
    assert one(org, f"SELECT Id, Subject, OwnerId FROM Case WHERE Id = '{CASE}'") == {
        "Id": CASE,
        "Subject": "Torn jacket",
        "OwnerId": OTHER_USER,
    }
    assert org.count("Case") == 2 and org.count("CaseHistory__c") == 4


def test_names_are_derived_and_accounts_are_person_accounts(org):
    assert one(
        org, f"SELECT Name, IsPersonAccount, PersonContactId, Phone FROM Account WHERE Id = '{ACCOUNT}'"
    ) == {
        "Name": "Brian Baker",
        "IsPersonAccount": True,
        "PersonContactId": CONTACT,
        "Phone": "3125550199",
    }
    assert one(org, f"SELECT Name FROM Contact WHERE Id = '{LONE_CONTACT}'") == {"Name": "Dan Eng"}
    assert one(org, f"SELECT Name, Profile.Name, Phone FROM User WHERE Id = '{USER}'") == {
        "Name": "Ava Stone",
        "Profile": {
            "attributes": {"type": "Profile", "url": org_url("Profile", org)},
            "Name": "Standard User",
        },
        "Phone": "4155550101",
    }


def org_url(object_name, org):
    from crmarena_sf.emulator.store.seed import STANDARD_USER_PROFILE_ID

    return f"/services/data/v62.0/sobjects/{object_name}/{STANDARD_USER_PROFILE_ID}"


def test_knowledge_is_published_in_english(org):
    assert one(
        org, "SELECT Id, UrlName FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Language = 'en_US'"
    ) == {
        "Id": ARTICLE,
        "UrlName": "1726808617-8j0mb",
    }


def test_email_to_addresses_come_from_the_recipients(org):
    emails = soql.query(
        org,
        f"SELECT Subject, FromAddress, ToAddress FROM EmailMessage WHERE ParentId = '{CASE}' ORDER BY MessageDate",
    )
    assert [(e["FromAddress"], e["ToAddress"]) for e in emails["records"]] == [
        ("brian.baker@example.com", "ben.cole@example.com"),
        ("ben.cole@example.com", "brian.baker@example.com"),
    ]


def test_numbers_stored_as_text_become_numbers(org):
    item = one(org, f"SELECT Quantity, UnitPrice, TotalPrice FROM OrderItem WHERE Id = '{ITEM}'")
    assert item == {"Quantity": 2.0, "UnitPrice": 49.99, "TotalPrice": 99.98}
    assert one(org, f"SELECT TotalAmount, Status FROM Order WHERE Id = '{ORDER}'") == {
        "TotalAmount": 112.48,
        "Status": "Activated",
    }
    assert one(org, f"SELECT IsActive FROM Product2 WHERE Id = '{PRODUCT2}'") == {"IsActive": False}


def test_the_dumps_standard_price_book_replaces_the_new_orgs(org):
    assert one(org, "SELECT Id FROM Pricebook2 WHERE IsStandard = true") == {"Id": STANDARD}


def test_crmarenas_disambiguation_query_answers_on_the_import(org):
    records = soql.query(
        org,
        f"SELECT Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{ACCOUNT}' "
        f"AND OrderItem.Order.EffectiveDate = 2021-03-22 AND Product2Id IN ('{PRODUCT}') AND OrderItem.Order.Status = 'Activated'",
    )["records"]
    assert [r["Product2Id"] for r in records] == [PRODUCT]


def test_missing_records_are_created_or_repaired_and_counted(imported, org):
    assert one(org, f"SELECT OwnerId FROM Contact WHERE Id = '{CONTACT2}'") == {"OwnerId": make_id("005", 1)}
    assert Dataset(imported).manifest["repairs"] == {"Contact.OwnerId": 1}
    assert one(org, f"SELECT Id FROM LiveChatVisitor WHERE Id = '{VISITOR}'") == {"Id": VISITOR}
    assert one(org, f"SELECT CatalogId FROM ProductCategory WHERE Id = '{CATEGORY}'") == {
        "CatalogId": CATALOG
    }


def test_a_corrupt_file_is_refused_with_nothing_written(tmp_path):
    corrupt = tmp_path / "crmarena_data.db"
    corrupt.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(DatasetError, match="is not a readable SQLite database"):
        import_dump(corrupt, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_sqlite_file_of_another_layout_is_refused(tmp_path):
    other = build_dump(tmp_path / "other.db", layout={"Widgets": "Id TEXT"}, rows={})
    with pytest.raises(DatasetError, match="is not a CRMArena dump: it lacks the tables User, Account"):
        import_dump(other, tmp_path / "out")
    narrow = build_dump(tmp_path / "narrow.db", layout={**LAYOUT, "Case": "Id TEXT, Subject TEXT"}, rows={})
    with pytest.raises(DatasetError, match="table Case lacks the columns Status, CreatedDate"):
        import_dump(narrow, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_cli_import_reports_and_refuses_clearly(tmp_path, capsys):
    dump = build_dump(tmp_path / "crmarena_data.db")
    assert main(["import-crmarena", str(dump), "--out", str(tmp_path / "ds"), "--quiet"]) == 0
    assert "dangling references repaired" in capsys.readouterr().out
    assert (
        main(["import-crmarena", str(tmp_path / "missing.db"), "--out", str(tmp_path / "ds2"), "--quiet"])
        == 2
    )
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "ds2").exists()
