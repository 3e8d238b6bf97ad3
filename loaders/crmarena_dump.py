"""Import the authors' SQLite dump of the original CRMArena org (``crmarena_data.db``) as a dataset.

The dump (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db) has one table per object with a subset of each object's
fields, and known gaps (§8) that this importer repairs so the official tasks run offline
with their official answers:

- Ids are kept as they are (the tasks' answers are those Ids);
- Account/Contact/User ``Name`` are derived from first and last names; every Account is a
  person account (the new org's Person Account record type), with its person Contact;
- Knowledge versions are published: ``PublishStatus`` 'Online', ``Language`` 'en_US';
- ``EmailMessage.ToAddress`` is filled from the recipients in ``ToIds``;
- numbers stored as text or REAL become numbers (prices, quantities), phones become text;
- records the dump's rows require but lacks (the product catalog, chat visitors, knowledge
  article masters) are created; references to records missing from the dump are set to the
  admin user (owners) or cleared, and counted in the manifest's ``repairs``.

A file that is not SQLite, or a SQLite file of another layout, ends with one clear
:class:`DatasetError` and nothing written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.loaders.crmarena_dump_convert import DumpConverter
from crmarena_sf.loaders.dataset import DatasetError, DatasetWriter
from crmarena_sf.loaders.fill import ADMIN_USER_ID
from crmarena_sf.loaders.validate import new_org_ids, validate_files
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.model import Schema

from crmarena_sf.progress import progress_bar

DUMP_TABLES: dict[str, tuple[str, ...]] = {
    "User": ("Id", "FirstName", "LastName", "Email", "Username", "Alias"),
    "Account": ("Id", "FirstName", "LastName", "PersonEmail", "ShippingState"),
    "Contact": ("Id", "FirstName", "LastName", "Email", "AccountId"),
    "Case": (
        "Id",
        "Subject",
        "Status",
        "CreatedDate",
        "ClosedDate",
        "OwnerId",
        "IssueId__c",
        "OrderItemId__c",
    ),
    "Knowledge__kav": ("Id", "Title", "FAQ_Answer__c", "UrlName"),
    "ProductCategory": ("Id", "Name"),
    "Product2": ("Id", "Name"),
    "ProductCategoryProduct": ("Id", "ProductCategoryId", "ProductId"),
    "Pricebook2": ("Id", "Name"),
    "PricebookEntry": ("Id", "Pricebook2Id", "Product2Id", "UnitPrice"),
    "Order": ("Id", "AccountId", "Status", "EffectiveDate", "Pricebook2Id"),
    "OrderItem": ("Id", "OrderId", "Product2Id", "Quantity", "UnitPrice", "PricebookEntryId"),
    "EmailMessage": ("Id", "ParentId", "Subject", "TextBody", "FromAddress", "ToIds", "MessageDate"),
    "LiveChatTranscript": ("Id", "CaseId", "Body", "EndTime", "OwnerId"),
    "Issue__c": ("Id", "Name"),
    "CaseHistory__c": ("Id", "CaseId__c", "Field__c", "OldValue__c", "NewValue__c", "CreatedDate"),
}
"""The dump's tables and the columns the importer needs from each (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)."""


def import_dump(
    db_path: str | Path, out: str | Path, *, progress: bool = False, schema: Schema | None = None
) -> Path:
    """Convert the SQLite dump at ``db_path`` into a new dataset directory ``out``."""
    return convert_dump(
        db_path,
        read_dump(db_path),
        out,
        schema or load_schema(),
        DumpConverter,
        lambda converter, repairs: {
            "source": "crmarena-dump",
            "dump": Path(db_path).name,
            "repairs": repairs,
        },
        progress=progress,
    )


def convert_dump(
    db_path: str | Path,
    tables: dict[str, list[dict[str, Any]]],
    out: str | Path,
    schema: Schema,
    converter_class: type[DumpConverter],
    manifest: Callable[[DumpConverter, dict[str, int]], dict[str, Any]],
    *,
    progress: bool = False,
) -> Path:
    """Stage a dump's rows with ``converter_class``, repair dangling references, write and validate
    the objects, and commit the dataset with ``manifest(converter, repairs)``."""
    with (
        DatasetWriter(out, schema) as writer,
        progress_bar(4, "importing", enabled=progress) as bar,
    ):
        converter = converter_class(tables, schema, writer)
        converter.stage_all()
        bar.update(1)
        repairs = repair_references(writer, converter.staged, schema)
        bar.update(1)
        for name in converter.staged:
            writer.write_object(name, f"SELECT * FROM {quote('raw_' + name)}")
        problems = validate_files(writer.files(), schema)
        if problems:
            raise DatasetError(
                f"{db_path}: the dump does not fit the metadata:\n  " + "\n  ".join(problems[:20])
            )
        bar.update(1)
        path = writer.commit(manifest(converter, repairs))
        bar.update(1)
    return path


def read_dump(
    db_path: str | Path,
    tables: dict[str, tuple[str, ...]] = DUMP_TABLES,
    *,
    kind: str = "CRMArena dump",
    layout: str = "the layout of CRMArena's local_data/crmarena_data.db",
) -> dict[str, list[dict[str, Any]]]:
    """Rows of every dump table (column names lower-cased), after checking the layout: ``tables``
    names each table and the columns it must have; ``kind`` and ``layout`` word the refusal."""
    path = Path(db_path)
    if not path.is_file():
        raise DatasetError(f"no such file: {path}")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise DatasetError(f"{path} cannot be opened as a SQLite database: {exc}") from None
    try:
        names = {
            r[0].lower(): r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        missing = [t for t in tables if t.lower() not in names]
        if missing:
            raise DatasetError(
                f"{path} is not a {kind}: it lacks the tables {', '.join(missing)} (expected {layout})"
            )
        out = {}
        for table, needed in tables.items():
            actual = names[table.lower()]
            cursor = con.execute(f"SELECT * FROM {quote(actual)}")
            columns = [d[0].lower() for d in cursor.description]
            lacking = [c for c in needed if c.lower() not in columns]
            if lacking:
                raise DatasetError(
                    f"{path} is not a {kind}: table {actual} lacks the columns {', '.join(lacking)}"
                )
            out[table] = [dict(zip(columns, row)) for row in cursor.fetchall()]
        return out
    except sqlite3.DatabaseError as exc:
        raise DatasetError(f"{path} is not a readable SQLite database ({exc})") from None
    finally:
        con.close()


def repair_references(writer: DatasetWriter, staged: list[str], schema: Schema) -> dict[str, int]:
    """Point dangling references at the admin user (owners) or clear them; returns counts per field."""
    con = writer.con
    parts = ["SELECT unnest(?::VARCHAR[]) AS id"] + [
        f'SELECT "Id" FROM {quote("raw_" + name)}' for name in staged
    ]
    con.execute(f"CREATE TABLE _known_ids AS {' UNION ALL '.join(parts)}", [list(new_org_ids())])
    repairs: dict[str, int] = {}
    for name in staged:
        obj = schema.get(name)
        table = quote("raw_" + name)
        present = {r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()}
        for f in obj.fields:
            if not f.is_reference or f.name not in present or f.name == "RecordTypeId":
                continue
            where = f"{quote(f.name)} IS NOT NULL AND {quote(f.name)} NOT IN (SELECT id FROM _known_ids)"
            count = con.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]
            if not count:
                continue
            owner_like = "User" in f.referenceTo and (
                not f.nillable or f.name in ("OwnerId", "CreatedById", "LastModifiedById")
            )
            replacement = f"'{ADMIN_USER_ID}'" if owner_like else "NULL"
            con.execute(f"UPDATE {table} SET {quote(f.name)} = {replacement} WHERE {where}")
            repairs[f"{name}.{f.name}"] = count
    return repairs
