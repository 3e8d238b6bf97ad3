"""Import CRMArena-Pro's official SQLite dumps (``crmarenapro_b2b_data.db``, ``..._b2c_data.db``) as datasets.

The dumps (SalesforceAIResearch/CRMArena ``local_data/``) have one table per object, 27 tables,
with a subset of each object's fields. The importer keeps every Id (the official tasks' answers
are those Ids) and reads the dumps' quirks:

- column names are matched without regard to case (``OrderItem.PriceBookEntryId`` is
  ``PricebookEntryId``); columns that are not fields of the object are left out and listed in
  the manifest;
- ``EmailMessage.ToIds`` holds a list of Ids as text (``['003...', '005...']`` or comma-separated);
- ``Task.WhatId``/``Event.WhatId`` are polymorphic: an Id whose key prefix is none of the field's
  targets in this schema is cleared and counted in ``repairs``, as a dangling reference is;
- custom objects keep the key prefixes their Ids carry (a real org hands them out per org):
  the manifest records them (``key_prefixes``) and a load gives the org the same.

What the dumps' rows need but leave out is made: person names from first and last names,
published en_US article versions with their masters, a product catalog for the categories, a
territory model and type for the territories, a chat visitor per chat, the org-computed fields
of the sales objects (line totals, IsClosed, an event's end). A file that is not such a dump
ends with one line naming what is missing (the table, or the table and column) and nothing written.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.loaders.crmarena_dump import convert_dump, read_dump
from crmarena_sf.loaders.crmarena_dump_convert import DumpConverter
from crmarena_sf.loaders.dataset import DatasetError, DatasetWriter
from crmarena_sf.loaders.fill import ADMIN_USER_ID
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.crmarena_pro import PRO_STAGES, PROFILE, with_key_prefixes
from crmarena_sf.metadata.model import Schema
from crmarena_sf.metadata.opportunity_stages import OPPORTUNITY_STAGES

PRO_DUMP_TABLES: dict[str, tuple[str, ...]] = {
    "User": ("Id", "FirstName", "LastName", "Email", "Username", "Alias"),
    "Account": ("Id", "Name"),
    "Contact": ("Id", "FirstName", "LastName", "Email", "AccountId"),
    "Lead": ("Id", "LastName", "Company", "Status", "OwnerId", "IsConverted"),
    "Opportunity": (
        "Id",
        "ContractID__c",
        "AccountId",
        "OwnerId",
        "StageName",
        "Name",
        "CreatedDate",
        "CloseDate",
    ),
    "OpportunityLineItem": (
        "Id",
        "OpportunityId",
        "Product2Id",
        "PricebookEntryId",
        "Quantity",
        "TotalPrice",
    ),
    "Quote": ("Id", "OpportunityId", "Name", "Status", "CreatedDate"),
    "QuoteLineItem": ("Id", "QuoteId", "Product2Id", "PricebookEntryId", "Quantity", "UnitPrice", "Discount"),
    "Contract": ("Id", "AccountId", "Status", "CompanySignedDate"),
    "Order": ("Id", "AccountId", "Status", "EffectiveDate", "Pricebook2Id"),
    "OrderItem": ("Id", "OrderId", "Product2Id", "Quantity", "UnitPrice", "PriceBookEntryId"),
    "Product2": ("Id", "Name"),
    "ProductCategory": ("Id", "Name"),
    "ProductCategoryProduct": ("Id", "ProductCategoryId", "ProductId"),
    "Pricebook2": ("Id", "Name"),
    "PricebookEntry": ("Id", "Pricebook2Id", "Product2Id", "UnitPrice"),
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
    "EmailMessage": ("Id", "Subject", "TextBody", "ParentId", "FromAddress", "ToIds", "MessageDate"),
    "LiveChatTranscript": ("Id", "CaseId", "Body", "EndTime", "OwnerId"),
    "Task": ("Id", "WhatId", "OwnerId", "Status", "Subject"),
    "Event": ("Id", "WhatId", "OwnerId", "StartDateTime", "Subject"),
    "Territory2": ("Id", "Name", "Description"),
    "UserTerritory2Association": ("Id", "UserId", "Territory2Id"),
    "Knowledge__kav": ("Id", "Title", "FAQ_Answer__c", "UrlName"),
    "Issue__c": ("Id", "Name"),
    "CaseHistory__c": ("Id", "CaseId__c", "Field__c", "OldValue__c", "NewValue__c", "CreatedDate"),
    "VoiceCallTranscript__c": ("Id", "Body__c", "LeadId__c", "OpportunityId__c", "EndTime__c"),
}
"""The dumps' 27 tables and the columns the importer needs from each (CRMArena-Pro's dumps,
SalesforceAIResearch/CRMArena local_data/crmarenapro_b2b_data.db); every other column that is a
field of the object is imported too."""

_ID_IN_TEXT = re.compile(r"[a-zA-Z0-9]{18}|[a-zA-Z0-9]{15}")


def import_pro_dump(
    db_path: str | Path, out: str | Path, *, progress: bool = False, schema: Schema | None = None
) -> Path:
    """Convert the CRMArena-Pro SQLite dump at ``db_path`` into a new dataset directory ``out``."""
    tables = read_pro_dump(db_path)
    base = schema or load_schema(PROFILE)
    prefixes = custom_prefixes(tables, base)
    try:
        schema, _ = with_key_prefixes(base, prefixes)
    except ValueError as exc:
        raise DatasetError(f"{db_path}: {exc}") from None

    def manifest(converter: ProDumpConverter, repairs: dict[str, int]) -> dict[str, Any]:
        doc = {
            "source": "crmarena-pro-dump",
            "dump": Path(db_path).name,
            "schema": PROFILE,
            "repairs": repairs,
        }
        if prefixes:
            doc["key_prefixes"] = prefixes
        if converter.left_out:
            doc["columns_not_imported"] = converter.left_out
        return doc

    return convert_dump(db_path, tables, out, schema, ProDumpConverter, manifest, progress=progress)


def read_pro_dump(db_path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Rows of the dump's 27 tables (column names lower-cased), after checking tables and columns."""
    return read_dump(
        db_path,
        PRO_DUMP_TABLES,
        kind="CRMArena-Pro dump",
        layout="the 27 tables of local_data/crmarenapro_b2b_data.db",
    )


def custom_prefixes(tables: dict[str, list[dict]], schema: Schema) -> dict[str, str]:
    """Custom objects whose Ids in the dump carry another key prefix than the schema's."""
    found = {}
    for name, rows in tables.items():
        obj = schema.get(name)
        if obj is None or not name.endswith("__c") or not rows:
            continue
        prefixes = {str(r.get("id") or "")[:3] for r in rows} - {""}
        if len(prefixes) > 1:
            raise DatasetError(
                f"dump table {name}: its Ids carry several key prefixes ({', '.join(sorted(prefixes))})"
            )
        (prefix,) = prefixes
        if prefix != obj.keyPrefix:
            found[name] = prefix
    return found


def _numbers(object_name: str, field_name: str, order_by: list) -> list[str]:
    """Auto-numbers for rows in the order of ``order_by`` (then as they come), as the org numbers them."""
    from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS

    digits, first = AUTONUMBER_FORMATS.get((object_name, field_name), (8, 1))
    rank = sorted(range(len(order_by)), key=lambda i: (str(order_by[i] or ""), i))
    out = [""] * len(order_by)
    for position, i in enumerate(rank):
        out[i] = str(first + position).zfill(digits)
    return out


class ProDumpConverter(DumpConverter):
    """Dump rows to dataset columns: every column that is a field, converted by the field's type,
    then the fixes each object needs (:data:`PRO_DUMP_TABLES`)."""

    def __init__(self, tables: dict[str, list[dict]], schema: Schema, writer: DatasetWriter) -> None:
        super().__init__(tables, schema, writer)
        self.left_out: dict[str, list[str]] = {}
        self.extra_ids: dict[str, list[str]] = defaultdict(list)

    # ------------------------------------------------------------------ generic
    def _value(self, table: str, row: dict, field) -> Any:
        kind = field.type
        name = field.name
        if kind in ("id", "reference"):
            return self._id(table, row, name)
        if kind == "junctionidlist":
            found = [ids.normalize(m) for m in _ID_IN_TEXT.findall(str(row.get(name.lower()) or ""))]
            return [i for i in found if i] or None
        if kind == "datetime":
            return self._datetime(table, row, name)
        if kind == "date":
            return self._date(table, row, name)
        if kind in ("int", "long"):
            number = self._number(table, row, name)
            return int(number) if number is not None else None
        if kind in ("double", "currency", "percent"):
            return self._number(table, row, name)
        if kind == "boolean":
            value = row.get(name.lower())
            return None if value is None else self._flag(value)
        return self._text(row.get(name.lower()))

    def _columns(self, table: str) -> dict[str, list]:
        """The dump table's fields (``Id`` first) as typed columns, rows in Id order."""
        obj = self.schema.get(table)
        rows = sorted(self.t[table], key=lambda r: str(r.get("id")))
        present = set().union(*(r.keys() for r in rows)) if rows else set()
        fields = [f for f in obj.stored_fields if f.name.lower() in present]
        known = {f.name.lower() for f in obj.stored_fields}
        ignored = sorted(c for c in present if c not in known)
        if ignored:
            self.left_out[table] = ignored
        return {f.name: [self._value(table, r, f) for r in rows] for f in fields}

    def _stage_with(self, table: str, columns: dict[str, list], **constant: Any) -> None:
        n = len(next(iter(columns.values()), []))
        for name, value in constant.items():
            columns.setdefault(name, [value] * n)
        self._stage(table, columns)

    # ------------------------------------------------------------------ objects
    def stage_all(self) -> None:
        for table in ("User", "Contact", "Lead"):
            columns = self._columns(table)
            first, last = columns.get("FirstName", []), columns.get("LastName", [])
            columns["Name"] = [
                " ".join(part for part in (given, family) if part)
                for given, family in zip(first or [None] * len(last), last)
            ]
            if table == "User":
                self._users_defaults(columns)
            self._stage_with(table, columns)
        account = self._columns("Account")
        self._stage_with("Account", account)
        self._catalog()
        for table in (
            "Opportunity",
            "Contract",
            "Order",
            "Issue__c",
            "Case",
            "CaseHistory__c",
            "VoiceCallTranscript__c",
        ):
            columns = self._columns(table)
            n = len(columns["Id"])
            if table == "Opportunity":
                stages = columns.get("StageName", [])
                category = {stage: c for stage, _, c in (*OPPORTUNITY_STAGES, *PRO_STAGES)}
                columns.setdefault(
                    "IsClosed", [s == "Closed" or (s or "").startswith("Closed ") for s in stages]
                )
                columns.setdefault("IsWon", [s in ("Closed", "Closed Won") for s in stages])
                columns.setdefault("ForecastCategory", [category.get(s, "Pipeline") for s in stages])
                columns.setdefault("ForecastCategoryName", [category.get(s, "Pipeline") for s in stages])
            if table == "Case":
                columns.setdefault("IsClosed", [s == "Closed" for s in columns.get("Status", [])])
                columns["CaseNumber"] = _numbers("Case", "CaseNumber", columns.get("CreatedDate", [None] * n))
            if table in ("CaseHistory__c", "VoiceCallTranscript__c"):
                columns["Name"] = [f"{i + 1:08d}" for i in range(len(columns["Id"]))]
            if table == "Contract":
                status = columns["Status"]
                columns.setdefault(
                    "StatusCode", [v if v in ("Draft", "Activated") else "Draft" for v in status]
                )
                columns["ContractNumber"] = _numbers(
                    "Contract", "ContractNumber", columns.get("StartDate", [None] * n)
                )
            if table == "Order":
                columns.setdefault("StatusCode", columns["Status"])
                columns["OrderNumber"] = _numbers(
                    "Order", "OrderNumber", columns.get("EffectiveDate", [None] * n)
                )
                totals: dict[str, Any] = defaultdict(int)
                for r in self.t["OrderItem"]:
                    quantity = self._number("OrderItem", r, "Quantity")
                    price = self._number("OrderItem", r, "UnitPrice")
                    if quantity is not None and price is not None:
                        totals[self._id("OrderItem", r, "OrderId")] += quantity * price
                columns["TotalAmount"] = [totals.get(i, 0) for i in columns["Id"]]
            self._stage_with(table, columns)
        self._line_items()
        self._activities()
        self._territories()
        self._knowledge_pro()
        self._conversations_pro()

    def _users_defaults(self, columns: dict[str, list]) -> None:
        n = len(columns["Id"])
        nicknames, seen = [], set()
        for username in columns.get("Username", [None] * n):
            base = nick = (username or "user").split("@")[0][:36]
            k = 1
            while nick in seen:
                k += 1
                nick = f"{base}{k}"
            seen.add(nick)
            nicknames.append(nick)
        columns.setdefault("CommunityNickname", nicknames)
        for key, default in (
            ("TimeZoneSidKey", "America/Los_Angeles"),
            ("LocaleSidKey", "en_US"),
            ("EmailEncodingKey", "UTF-8"),
            ("LanguageLocaleKey", "en_US"),
        ):
            columns[key] = [v or default for v in columns.get(key, [None] * n)]
        from crmarena_sf.emulator.store.seed import STANDARD_USER_PROFILE_ID

        columns.setdefault("ProfileId", [STANDARD_USER_PROFILE_ID] * n)
        columns.setdefault("IsActive", [True] * n)
        columns.setdefault("UserType", ["Standard"] * n)
        columns.setdefault("Alias", [None] * n)
        columns["Alias"] = [a or f"u{i}" for i, a in enumerate(columns["Alias"])]

    def _catalog(self) -> None:
        categories = self._columns("ProductCategory")
        catalogs = sorted({c for c in categories.get("CatalogId", []) if c})
        catalog_ids = catalogs or [ids.make_id(self.schema.get("ProductCatalog").keyPrefix, 1)]
        self._stage(
            "ProductCatalog",
            {"Id": catalog_ids, "Name": [f"Catalog {i + 1}" for i in range(len(catalog_ids))]},
        )
        categories["CatalogId"] = [
            c or catalog_ids[0] for c in categories.get("CatalogId", [None] * len(categories["Id"]))
        ]
        self._stage_with("ProductCategory", categories)
        self._stage_with("Product2", self._columns("Product2"))
        links = self._columns("ProductCategoryProduct")
        links["Name"] = [f"{i + 1:08d}" for i in range(len(links["Id"]))]
        self._stage_with("ProductCategoryProduct", links)
        books = self._columns("Pricebook2")
        books["IsStandard"] = [(n or "").lower() == "standard price book" for n in books["Name"]]
        self._stage_with("Pricebook2", books)
        entries = self._columns("PricebookEntry")
        names = dict(zip(self._columns("Product2")["Id"], self._columns("Product2")["Name"]))
        entries["Name"] = [names.get(p) for p in entries["Product2Id"]]
        self._stage_with("PricebookEntry", entries, IsActive=True)

    def _line_items(self) -> None:
        for table in ("OpportunityLineItem", "QuoteLineItem", "OrderItem"):
            columns = self._columns(table)
            n = len(columns["Id"])
            quantity = columns.get("Quantity", [None] * n)
            price = columns.get("UnitPrice", [None] * n)
            total = columns.get("TotalPrice", [None] * n)
            if table == "OpportunityLineItem":
                columns["UnitPrice"] = [
                    p if p is not None else (t / q if t is not None and q else None)
                    for p, q, t in zip(price, quantity, total)
                ]
            else:
                discount = columns.get("Discount", [None] * n)
                columns["TotalPrice"] = [
                    (q * p * (100 - (d or 0)) / 100) if q is not None and p is not None else t
                    for q, p, d, t in zip(quantity, price, discount, total)
                ]
                if table == "QuoteLineItem":
                    columns["Subtotal"] = [
                        q * p if q is not None and p is not None else None for q, p in zip(quantity, price)
                    ]
                    columns["LineNumber"] = [f"{i + 1:08d}" for i in range(n)]
                else:
                    columns.setdefault("AvailableQuantity", quantity)
                    columns["OrderItemNumber"] = [f"{i + 1:010d}" for i in range(n)]
            self._stage_with(table, columns)
        quotes = self._columns("Quote")
        quotes["QuoteNumber"] = [f"{i + 1:08d}" for i in range(len(quotes["Id"]))]
        self._stage_with("Quote", quotes)

    def _activities(self) -> None:
        tasks = self._columns("Task")
        tasks.setdefault("Priority", ["Normal"] * len(tasks["Id"]))
        tasks["Priority"] = [p or "Normal" for p in tasks["Priority"]]
        tasks["Status"] = [s or "Not Started" for s in tasks["Status"]]
        tasks["IsClosed"] = [s == "Completed" for s in tasks["Status"]]
        tasks["IsHighPriority"] = [p == "High" for p in tasks["Priority"]]
        self._stage_with("Task", tasks)
        events = self._columns("Event")
        n = len(events["Id"])
        starts = events.get("StartDateTime", [None] * n)
        minutes = events.get("DurationInMinutes", [None] * n)
        events["ActivityDateTime"] = starts
        events["ActivityDate"] = [s.date() if s else None for s in starts]
        events.setdefault(
            "EndDateTime",
            [
                s + dt.timedelta(minutes=int(m)) if s and m is not None else None
                for s, m in zip(starts, minutes)
            ],
        )
        self._stage_with("Event", events)

    def _territories(self) -> None:
        territories = self._columns("Territory2")
        model = ids.make_id(self.schema.get("Territory2Model").keyPrefix, 1)
        kind = ids.make_id(self.schema.get("Territory2Type").keyPrefix, 1)
        self._stage(
            "Territory2Model",
            {"Id": [model], "Name": ["Territories"], "DeveloperName": ["Territories"], "State": ["Active"]},
        )
        self._stage(
            "Territory2Type",
            {"Id": [kind], "MasterLabel": ["Territory"], "DeveloperName": ["Territory"], "Priority": [1]},
        )
        n = len(territories["Id"])
        territories["Territory2ModelId"] = [model] * n
        territories["Territory2TypeId"] = [kind] * n
        territories["DeveloperName"] = [
            re.sub(r"[^A-Za-z0-9]+", "_", name or f"Territory_{i + 1}").strip("_") or f"Territory_{i + 1}"
            for i, name in enumerate(territories["Name"])
        ]
        self._stage_with("Territory2", territories)
        self._stage_with(
            "UserTerritory2Association", self._columns("UserTerritory2Association"), IsActive=True
        )

    def _knowledge_pro(self) -> None:
        articles = self._columns("Knowledge__kav")
        n = len(articles["Id"])
        masters = [ids.make_id(self.schema.get("KnowledgeArticle").keyPrefix, i + 1) for i in range(n)]
        numbers = [str(1000 + i).zfill(9) for i in range(n)]
        self._stage(
            "KnowledgeArticle", {"Id": masters, "ArticleNumber": numbers, "MasterLanguage": ["en_US"] * n}
        )
        articles.update(
            KnowledgeArticleId=masters,
            PublishStatus=["Online"] * n,
            Language=["en_US"] * n,
            VersionNumber=[1] * n,
            IsLatestVersion=[True] * n,
            IsVisibleInApp=[True] * n,
            ArticleNumber=numbers,
            ArticleType=["Knowledge__kav"] * n,
            ArticleMasterLanguage=["en_US"] * n,
        )
        self._stage_with("Knowledge__kav", articles)

    def _conversations_pro(self) -> None:
        emails = self._columns("EmailMessage")
        n = len(emails["Id"])
        user_addresses = {str(r.get("email") or "").lower() for r in self.t["User"]}
        senders = emails.get("FromAddress", [None] * n)
        incoming = [(s or "").lower() not in user_addresses for s in senders]
        emails.setdefault("Incoming", incoming)
        emails.setdefault("Status", ["1" if i else "3" for i in incoming])
        emails.setdefault("CreatedDate", emails.get("MessageDate", [None] * n))
        self._stage_with("EmailMessage", emails)
        chats = self._columns("LiveChatTranscript")
        n = len(chats["Id"])
        prefix = self.schema.get("LiveChatVisitor").keyPrefix
        visitors = [
            v if v and v.startswith(prefix) else ids.make_id(prefix, i + 1)
            for i, v in enumerate(chats.get("LiveChatVisitorId", [None] * n))
        ]
        unique = sorted(set(visitors))
        self._stage("LiveChatVisitor", {"Id": unique, "Name": [f"{i + 1:08d}" for i in range(len(unique))]})
        chats["LiveChatVisitorId"] = visitors
        chats["Name"] = [f"{i + 1:08d}" for i in range(n)]
        chats["OwnerId"] = [o or ADMIN_USER_ID for o in chats.get("OwnerId", [None] * n)]
        chats.setdefault("Status", ["Completed"] * n)
        self._stage_with("LiveChatTranscript", chats)
