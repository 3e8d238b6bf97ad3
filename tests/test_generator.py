"""The generator on the `tiny` profile: valid records, referential integrity, time consistency, determinism."""

from __future__ import annotations

import hashlib
import os

import pytest
from crmarena_sf.loaders.dataset import Dataset, DatasetError
from crmarena_sf.loaders.generate import generate
from crmarena_sf.loaders.profiles import resolve
from crmarena_sf.loaders.validate import validate_dataset
from crmarena_sf.metadata import load_schema


@pytest.fixture(scope="module")
def tiny(tiny_dataset):
    """The session's tiny dataset."""
    return Dataset(tiny_dataset)


@pytest.fixture(scope="module")
def con(tiny):
    connection = tiny.connect()
    yield connection
    connection.close()


def rows(con, sql, params=None):
    return con.execute(sql, params or []).fetchall()


def test_every_record_is_valid_against_the_metadata(tiny):
    # strict: every picklist value (restricted or not) is one the describe lists.
    assert validate_dataset(tiny, load_schema(), strict=True) == []


def test_counts_match_the_profile_once_loaded_with_what_a_new_org_has(tiny):
    sizing = resolve("tiny")
    counts = tiny.manifest["counts"]
    for name in (
        "Account",
        "Contact",
        "Case",
        "Product2",
        "Order",
        "OrderItem",
        "EmailMessage",
        "CaseHistory__c",
    ):
        assert counts[name] == sizing.counts[name], name
    assert counts["User"] == sizing.counts["User"] - 1  # the admin user comes with the new org
    assert counts["Pricebook2"] == sizing.counts["Pricebook2"] - 1  # so does the standard price book
    assert counts["PricebookEntry"] == sizing.counts["PricebookEntry"]


def test_same_seed_gives_byte_identical_dataset_and_another_seed_does_not(tiny, tmp_path):
    seed = tiny.manifest["seed"]
    again = generate(tmp_path / "again", profile="tiny", seed=seed)
    other = generate(tmp_path / "other", profile="tiny", seed=seed + 1)
    names = sorted(os.listdir(tiny.path))
    assert names == sorted(os.listdir(again))
    for name in names:
        assert (tiny.path / name).read_bytes() == (again / name).read_bytes(), name
    assert _digest(tiny.path / "Case.parquet") != _digest(other / "Case.parquet")


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_accounts_are_person_accounts_with_their_person_contact(con):
    person_type = load_schema().get("Account").record_type("PersonAccount").recordTypeId
    bad = rows(
        con,
        'SELECT a."Id" FROM "Account" a LEFT JOIN "Contact" c ON c."Id" = a."PersonContactId" '
        'WHERE NOT a."IsPersonAccount" OR a."RecordTypeId" <> ? OR c."AccountId" <> a."Id" '
        'OR c."Email" <> a."PersonEmail" OR a."Name" <> a."FirstName" || \' \' || a."LastName" '
        "OR NOT regexp_full_match(a.\"ShippingState\", '[A-Z]{2}')",
        [person_type],
    )
    assert bad == []


def test_agents_are_standard_users_and_the_admin_is_not_duplicated(con):
    from crmarena_sf.emulator.store.seed import ADMIN_USERNAME, STANDARD_USER_PROFILE_ID

    assert rows(con, 'SELECT DISTINCT "ProfileId" FROM "User"') == [(STANDARD_USER_PROFILE_ID,)]
    assert rows(
        con,
        'SELECT count(*) FROM "User" WHERE "Username" = ? OR "Id" = ?',
        [ADMIN_USERNAME, "005Em0000000001IAA"],
    ) == [(0,)]


def test_every_product_has_a_standard_price_and_items_use_their_orders_price_book(con):
    from crmarena_sf.emulator.store.seed import STANDARD_PRICEBOOK_ID

    assert rows(
        con,
        'SELECT count(*) FROM "Product2" p WHERE NOT EXISTS (SELECT 1 FROM "PricebookEntry" e '
        'WHERE e."Product2Id" = p."Id" AND e."Pricebook2Id" = ?)',
        [STANDARD_PRICEBOOK_ID],
    ) == [(0,)]
    mismatched = rows(
        con,
        'SELECT i."Id" FROM "OrderItem" i JOIN "Order" o ON o."Id" = i."OrderId" '
        'JOIN "PricebookEntry" e ON e."Id" = i."PricebookEntryId" '
        'WHERE e."Pricebook2Id" <> o."Pricebook2Id" OR e."Product2Id" <> i."Product2Id" OR i."UnitPrice" <> e."UnitPrice"',
    )
    assert mismatched == []
    totals = rows(
        con,
        'SELECT count(*) FROM "Order" o WHERE o."TotalAmount" <> '
        '(SELECT sum(i."TotalPrice") FROM "OrderItem" i WHERE i."OrderId" = o."Id")',
    )
    assert totals == [(0,)]


def test_times_are_consistent(con):
    checks = {
        "case closed before it was created": 'SELECT count(*) FROM "Case" WHERE "ClosedDate" < "CreatedDate"',
        "closed case without ClosedDate (or open with one)": 'SELECT count(*) FROM "Case" WHERE ("Status" = \'Closed\') <> ("ClosedDate" IS NOT NULL) OR "IsClosed" <> ("Status" = \'Closed\')',
        "case before the order of its item": 'SELECT count(*) FROM "Case" c JOIN "OrderItem" i ON i."Id" = c."OrderItemId__c" '
        'JOIN "Order" o ON o."Id" = i."OrderId" WHERE o."EffectiveDate" >= CAST(c."CreatedDate" AS DATE) '
        'OR o."AccountId" <> c."AccountId" OR o."Status" <> \'Activated\'',
        "order before its account existed": 'SELECT count(*) FROM "Order" o JOIN "Account" a ON a."Id" = o."AccountId" '
        'WHERE o."EffectiveDate" < CAST(a."CreatedDate" AS DATE)',
        "email outside its case's life": 'SELECT count(*) FROM "EmailMessage" e JOIN "Case" c ON c."Id" = e."ParentId" '
        'WHERE e."MessageDate" < c."CreatedDate" OR e."MessageDate" > coalesce(c."ClosedDate", TIMESTAMP \'2024-06-30\')',
        "chat outside its case's life": 'SELECT count(*) FROM "LiveChatTranscript" t JOIN "Case" c ON c."Id" = t."CaseId" '
        'WHERE t."StartTime" < c."CreatedDate" OR t."EndTime" > coalesce(c."ClosedDate", TIMESTAMP \'2024-06-30\') '
        'OR t."EndTime" < t."StartTime"',
        "case dates outside CRMArena's range": 'SELECT count(*) FROM "Case" WHERE "CreatedDate" < TIMESTAMP \'2020-01-02\' '
        "OR \"CreatedDate\" > TIMESTAMP '2024-05-27'",
    }
    failures = {name: n for name, sql in checks.items() if (n := rows(con, sql)[0][0])}
    assert failures == {}


def test_history_rows_retell_each_cases_life(con):
    # One creation and one first assignment at CreatedDate, a closing row at ClosedDate, and
    # the last assignment's NewValue__c is the case's owner.
    bad = rows(
        con,
        """
        WITH h AS (SELECT * FROM "CaseHistory__c")
        SELECT c."Id" FROM "Case" c WHERE
          (SELECT count(*) FROM h WHERE h."CaseId__c" = c."Id" AND h."Field__c" = 'Case Creation' AND h."CreatedDate" = c."CreatedDate") <> 1
          OR (SELECT count(*) FROM h WHERE h."CaseId__c" = c."Id" AND h."Field__c" = 'Owner Assignment'
                AND h."OldValue__c" IS NULL AND h."CreatedDate" = c."CreatedDate") <> 1
          OR (SELECT count(*) FROM h WHERE h."CaseId__c" = c."Id" AND h."Field__c" = 'Case Closed'
                AND h."CreatedDate" = c."ClosedDate") <> (c."Status" = 'Closed')::INT
          OR (SELECT arg_max(h."NewValue__c", h."CreatedDate") FROM h WHERE h."CaseId__c" = c."Id"
                AND h."Field__c" = 'Owner Assignment') <> c."OwnerId"
        """,
    )
    assert bad == []
    chained = rows(
        con,
        """SELECT count(*) FROM "CaseHistory__c" t WHERE t."OldValue__c" IS NOT NULL AND t."OldValue__c" <> (
             SELECT arg_max(p."NewValue__c", p."CreatedDate") FROM "CaseHistory__c" p
             WHERE p."CaseId__c" = t."CaseId__c" AND p."Field__c" = 'Owner Assignment' AND p."CreatedDate" < t."CreatedDate")""",
    )
    assert chained == [(0,)]  # a transfer's OldValue__c is the owner just before it


def test_knowledge_articles_are_published_faqs_with_escaped_rich_text(con):
    statuses = rows(
        con, 'SELECT DISTINCT "PublishStatus", "Language", "IsLatestVersion" FROM "Knowledge__kav"'
    )
    assert statuses == [("Online", "en_US", True)]
    answers = [r[0] for r in rows(con, 'SELECT "FAQ_Answer__c" FROM "Knowledge__kav"')]
    assert all(a.startswith("<p>") for a in answers)
    assert not any("'" in a for a in answers) and any("&#39;" in a for a in answers)


def test_chat_transcripts_use_crmarenas_line_format(con):
    bodies = [r[0] for r in rows(con, 'SELECT "Body" FROM "LiveChatTranscript"')]
    line = r"\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\] [^()]+ \((Customer|Agent)\): .+"
    import re

    assert bodies and all(re.fullmatch(line, ln) for body in bodies for ln in body.split("\n"))


def test_texts_vary_enough_to_avoid_duplicates(con):
    total, descriptions = rows(con, 'SELECT count(*), count(DISTINCT "Description") FROM "Case"')[0]
    assert descriptions == total
    emails, distinct_emails = rows(con, 'SELECT count(*), count(DISTINCT "TextBody") FROM "EmailMessage"')[0]
    assert distinct_emails >= 0.97 * emails
    chats, distinct_chats = rows(con, 'SELECT count(*), count(DISTINCT "Body") FROM "LiveChatTranscript"')[0]
    assert distinct_chats == chats


def test_unknown_profile_and_bad_scale_are_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="unknown profile 'huge'"):
        generate(tmp_path / "x", profile="huge")
    with pytest.raises(ValueError, match="scale"):
        generate(tmp_path / "x", profile="tiny", scale=0)
    assert list(tmp_path.iterdir()) == []


def test_unwritable_directory_and_existing_output_leave_nothing_behind(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    with pytest.raises(DatasetError, match="cannot write a dataset in"):
        generate(a_file / "ds", profile="tiny")
    (tmp_path / "taken").mkdir()
    with pytest.raises(DatasetError, match="already exists"):
        generate(tmp_path / "taken", profile="tiny")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "taken"]
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):  # running as root: permissions are not enforced
            pytest.skip("cannot make an unwritable directory as this user")
        with pytest.raises(DatasetError, match="cannot write a dataset in"):
            generate(locked / "ds", profile="tiny")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_a_failure_midway_removes_the_partial_dataset(tmp_path, monkeypatch):
    from crmarena_sf.loaders.generate import knowledge

    def broken(ctx):
        raise RuntimeError("disk full")

    monkeypatch.setattr("crmarena_sf.loaders.generate.STEPS", _steps_with(knowledge.write_articles, broken))
    with pytest.raises(RuntimeError, match="disk full"):
        generate(tmp_path / "ds", profile="tiny")
    assert list(tmp_path.iterdir()) == []


def _steps_with(original, replacement):
    import crmarena_sf.loaders.generate as g

    return tuple((name, replacement if step is original else step) for name, step in g.STEPS)
