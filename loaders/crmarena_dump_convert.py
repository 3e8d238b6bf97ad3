"""Dump rows to dataset columns, one method per group of objects (see :mod:`crmarena_sf.loaders.crmarena_dump`).

Each method reads the dump tables' rows (column names lower-cased), repairs the known gaps
(names, person accounts, publish status, recipients' addresses, numbers stored as text) and
stages the object's final columns as ``raw_<Object>``; the importer then repairs dangling
references and writes the files.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from decimal import Decimal, InvalidOperation
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store.ddl import declared_type
from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS
from crmarena_sf.emulator.store.seed import STANDARD_USER_PROFILE_ID
from crmarena_sf.emulator.wire import parse_date, parse_datetime
from crmarena_sf.loaders.dataset import DatasetError, DatasetWriter
from crmarena_sf.loaders.fill import ADMIN_USER_ID
from crmarena_sf.metadata.model import Schema

_ID_IN_TEXT = re.compile(r"[a-zA-Z0-9]{18}")


class DumpConverter:
    """Turns dump rows into final columns per object, staged as ``raw_<Object>`` tables."""

    def __init__(self, tables: dict[str, list[dict]], schema: Schema, writer: DatasetWriter) -> None:
        self.t = tables
        self.schema = schema
        self.writer = writer
        self.staged: list[str] = []

    # ------------------------------------------------------------------ values
    def _id(self, table: str, row: dict, column: str = "id") -> str | None:
        value = row.get(column.lower())
        if value in (None, ""):
            return None
        normalized = ids.normalize(str(value).strip())
        if normalized is None:
            raise DatasetError(
                f"dump table {table}: {column} {value!r} is not a Salesforce Id (row {row.get('id')})"
            )
        return normalized

    @staticmethod
    def _text(value: Any) -> str | None:
        if value is None or value == "":
            return None
        if isinstance(value, float) and value.is_integer():
            return str(int(value))  # phones stored as REAL
        return str(value)

    def _number(self, table: str, row: dict, column: str) -> Decimal | None:
        value = row.get(column.lower())
        if value is None or value == "":
            return None
        try:
            return Decimal(str(value).strip())
        except InvalidOperation:
            raise DatasetError(
                f"dump table {table}: {column} {value!r} is not a number (row {row.get('id')})"
            ) from None

    def _datetime(self, table: str, row: dict, column: str):
        value = row.get(column.lower())
        if value is None or value == "":
            return None
        parsed = parse_datetime(str(value))
        if parsed is None:
            raise DatasetError(
                f"dump table {table}: {column} {value!r} is not a date and time (row {row.get('id')})"
            )
        return parsed

    def _date(self, table: str, row: dict, column: str):
        value = row.get(column.lower())
        if value is None or value == "":
            return None
        parsed = parse_date(str(value)[:10])
        if parsed is None:
            raise DatasetError(f"dump table {table}: {column} {value!r} is not a date (row {row.get('id')})")
        return parsed

    @staticmethod
    def _flag(value: Any) -> bool:
        return str(value).strip().lower() in ("1", "true", "1.0")

    def _stage(self, obj_name: str, columns: dict[str, list]) -> None:
        obj = self.schema.get(obj_name)
        if obj is None:
            self.writer.skipped_objects.append(obj_name)
            return
        typed = {}
        for name, values in columns.items():
            f = obj.field(name)
            if f is None:
                raise AssertionError(f"importer writes {obj_name}.{name}, which the schema lacks")
            typed[f.name] = (declared_type(f), values)
        self.writer.stage(f"raw_{obj_name}", typed)
        self.staged.append(obj_name)

    # ------------------------------------------------------------------ objects
    def stage_all(self) -> None:
        self._users()
        self._people()
        self._catalog()
        self._orders()
        self._cases()
        self._knowledge()
        self._conversations()

    def _users(self) -> None:
        rows = sorted(self.t["User"], key=lambda r: str(r["id"]))
        nicknames: set[str] = set()
        cols = defaultdict(list)
        for r in rows:
            first, last = self._text(r.get("firstname")), self._text(r.get("lastname"))
            nick = base = (self._text(r.get("username")) or "user").split("@")[0][:36]
            n = 1
            while nick in nicknames:
                n += 1
                nick = f"{base}{n}"
            nicknames.add(nick)
            cols["Id"].append(self._id("User", r))
            cols["Username"].append(self._text(r.get("username")))
            cols["FirstName"].append(first)
            cols["LastName"].append(last)
            cols["Name"].append(" ".join(p for p in (first, last) if p))
            cols["Email"].append(self._text(r.get("email")))
            cols["Phone"].append(self._text(r.get("phone")))
            cols["Alias"].append(self._text(r.get("alias")))
            cols["CommunityNickname"].append(nick)
            cols["IsActive"].append(True)
            for key, default in (
                ("TimeZoneSidKey", "America/Los_Angeles"),
                ("LocaleSidKey", "en_US"),
                ("EmailEncodingKey", "UTF-8"),
                ("LanguageLocaleKey", "en_US"),
            ):
                cols[key].append(self._text(r.get(key.lower())) or default)
            cols["ProfileId"].append(STANDARD_USER_PROFILE_ID)
            cols["UserType"].append("Standard")
            cols["DigestFrequency"].append("D")
            cols["DefaultGroupNotificationFrequency"].append("N")
        self._stage("User", cols)

    def _people(self) -> None:
        accounts = sorted(self.t["Account"], key=lambda r: str(r["id"]))
        contacts = sorted(self.t["Contact"], key=lambda r: str(r["id"]))
        person_contact: dict[str, str] = {}
        for r in contacts:
            account = self._id("Contact", r, "AccountId")
            if account and account not in person_contact:
                person_contact[account] = self._id("Contact", r)
        person_type = self.schema.get("Account").record_type("PersonAccount")
        cols = defaultdict(list)
        for r in accounts:
            first, last = self._text(r.get("firstname")), self._text(r.get("lastname"))
            account_id = self._id("Account", r)
            cols["Id"].append(account_id)
            cols["Name"].append(" ".join(p for p in (first, last) if p))
            cols["FirstName"].append(first)
            cols["LastName"].append(last)
            cols["RecordTypeId"].append(person_type.recordTypeId if person_type else None)
            cols["IsPersonAccount"].append(True)
            cols["PersonContactId"].append(person_contact.get(account_id))
            cols["PersonEmail"].append(self._text(r.get("personemail")))
            cols["Phone"].append(self._text(r.get("phone")))
            cols["ShippingCity"].append(self._text(r.get("shippingcity")))
            cols["ShippingState"].append(self._text(r.get("shippingstate")))
        self._stage("Account", cols)
        persons = set(person_contact.values())
        cols = defaultdict(list)
        for r in contacts:
            first, last = self._text(r.get("firstname")), self._text(r.get("lastname"))
            contact_id = self._id("Contact", r)
            cols["Id"].append(contact_id)
            cols["AccountId"].append(self._id("Contact", r, "AccountId"))
            cols["FirstName"].append(first)
            cols["LastName"].append(last)
            cols["Name"].append(" ".join(p for p in (first, last) if p))
            cols["Email"].append(self._text(r.get("email")))
            cols["OwnerId"].append(self._id("Contact", r, "OwnerId") or ADMIN_USER_ID)
            cols["IsPersonAccount"].append(contact_id in persons)
        self._stage("Contact", cols)

    def _catalog(self) -> None:
        categories = sorted(self.t["ProductCategory"], key=lambda r: str(r["id"]))
        catalogs = sorted({self._id("ProductCategory", r, "CatalogId") or "" for r in categories} - {""})
        if not catalogs:
            catalogs = [ids.make_id(self.schema.get("ProductCatalog").keyPrefix, 1)]
        self._stage(
            "ProductCatalog", {"Id": catalogs, "Name": [f"Catalog {i + 1}" for i in range(len(catalogs))]}
        )
        self._stage(
            "ProductCategory",
            {
                "Id": [self._id("ProductCategory", r) for r in categories],
                "Name": [self._text(r.get("name")) for r in categories],
                "CatalogId": [self._id("ProductCategory", r, "CatalogId") or catalogs[0] for r in categories],
            },
        )
        products = sorted(self.t["Product2"], key=lambda r: str(r["id"]))
        self.product_names = {self._id("Product2", r): self._text(r.get("name")) for r in products}
        self._stage(
            "Product2",
            {
                "Id": [self._id("Product2", r) for r in products],
                "Name": [self._text(r.get("name")) for r in products],
                "Description": [self._text(r.get("description")) for r in products],
                "IsActive": [self._flag(r.get("isactive", 1)) for r in products],
                "External_ID__c": [self._text(r.get("external_id__c")) for r in products],
            },
        )
        links = sorted(self.t["ProductCategoryProduct"], key=lambda r: str(r["id"]))
        digits = AUTONUMBER_FORMATS.get(("ProductCategoryProduct", "Name"), (8, 1))[0]
        self._stage(
            "ProductCategoryProduct",
            {
                "Id": [self._id("ProductCategoryProduct", r) for r in links],
                "Name": [str(i + 1).zfill(digits) for i in range(len(links))],
                "ProductCategoryId": [
                    self._id("ProductCategoryProduct", r, "ProductCategoryId") for r in links
                ],
                "ProductId": [self._id("ProductCategoryProduct", r, "ProductId") for r in links],
            },
        )
        books = sorted(self.t["Pricebook2"], key=lambda r: str(r["id"]))
        self._stage(
            "Pricebook2",
            {
                "Id": [self._id("Pricebook2", r) for r in books],
                "Name": [self._text(r.get("name")) for r in books],
                "Description": [self._text(r.get("description")) for r in books],
                "IsActive": [self._flag(r.get("isactive", 1)) for r in books],
                "IsStandard": [
                    (self._text(r.get("name")) or "").lower() == "standard price book" for r in books
                ],
                "ValidFrom": [self._datetime("Pricebook2", r, "ValidFrom") for r in books],
                "ValidTo": [self._datetime("Pricebook2", r, "ValidTo") for r in books],
            },
        )
        entries = sorted(self.t["PricebookEntry"], key=lambda r: str(r["id"]))
        self.entry_price = {
            self._id("PricebookEntry", r): self._number("PricebookEntry", r, "UnitPrice") for r in entries
        }
        product_ids = [self._id("PricebookEntry", r, "Product2Id") for r in entries]
        self._stage(
            "PricebookEntry",
            {
                "Id": [self._id("PricebookEntry", r) for r in entries],
                "Name": [self.product_names.get(p) for p in product_ids],
                "Pricebook2Id": [self._id("PricebookEntry", r, "Pricebook2Id") for r in entries],
                "Product2Id": product_ids,
                "UnitPrice": [self._number("PricebookEntry", r, "UnitPrice") for r in entries],
                "IsActive": [True] * len(entries),
            },
        )

    def _orders(self) -> None:
        items = sorted(self.t["OrderItem"], key=lambda r: str(r["id"]))
        totals: Counter = Counter()
        cols = defaultdict(list)
        item_digits = AUTONUMBER_FORMATS.get(("OrderItem", "OrderItemNumber"), (8, 1))[0]
        for i, r in enumerate(items):
            quantity = self._number("OrderItem", r, "Quantity")
            price = self._number("OrderItem", r, "UnitPrice")
            entry = self._id("OrderItem", r, "PricebookEntryId")
            order = self._id("OrderItem", r, "OrderId")
            total = quantity * price if quantity is not None and price is not None else None
            totals[order] += total or 0
            cols["Id"].append(self._id("OrderItem", r))
            cols["OrderId"].append(order)
            cols["Product2Id"].append(self._id("OrderItem", r, "Product2Id"))
            cols["PricebookEntryId"].append(entry)
            cols["Quantity"].append(quantity)
            cols["AvailableQuantity"].append(quantity)
            cols["UnitPrice"].append(price)
            cols["ListPrice"].append(self.entry_price.get(entry, price))
            cols["TotalPrice"].append(total)
            cols["OrderItemNumber"].append(str(i + 1).zfill(item_digits))
        orders = sorted(self.t["Order"], key=lambda r: (str(r.get("effectivedate")), str(r["id"])))
        digits, first = AUTONUMBER_FORMATS.get(("Order", "OrderNumber"), (8, 1))
        order_cols = defaultdict(list)
        for i, r in enumerate(orders):
            order_id = self._id("Order", r)
            status = self._text(r.get("status")) or "Draft"
            effective = self._date("Order", r, "EffectiveDate")
            order_cols["Id"].append(order_id)
            order_cols["AccountId"].append(self._id("Order", r, "AccountId"))
            order_cols["Pricebook2Id"].append(self._id("Order", r, "Pricebook2Id"))
            order_cols["EffectiveDate"].append(effective)
            order_cols["Status"].append(status)
            order_cols["StatusCode"].append(status)
            order_cols["OrderNumber"].append(str(first + i).zfill(digits))
            order_cols["TotalAmount"].append(totals.get(order_id, Decimal(0)))
            order_cols["CreatedDate"].append(parse_datetime(effective.isoformat()) if effective else None)
        self._stage("Order", order_cols)
        self._stage("OrderItem", cols)

    def _cases(self) -> None:
        issues = sorted(self.t["Issue__c"], key=lambda r: str(r["id"]))
        self._stage(
            "Issue__c",
            {
                "Id": [self._id("Issue__c", r) for r in issues],
                "Name": [self._text(r.get("name")) for r in issues],
                "Description__c": [self._text(r.get("description__c")) for r in issues],
            },
        )
        cases = sorted(self.t["Case"], key=lambda r: (str(r.get("createddate")), str(r["id"])))
        digits, first = AUTONUMBER_FORMATS.get(("Case", "CaseNumber"), (8, 1))
        cols = defaultdict(list)
        for i, r in enumerate(cases):
            created = self._datetime("Case", r, "CreatedDate")
            closed = self._datetime("Case", r, "ClosedDate")
            status = self._text(r.get("status"))
            cols["Id"].append(self._id("Case", r))
            cols["CaseNumber"].append(str(first + i).zfill(digits))
            cols["ContactId"].append(self._id("Case", r, "ContactId"))
            cols["AccountId"].append(self._id("Case", r, "AccountId"))
            cols["Status"].append(status)
            cols["Priority"].append(self._text(r.get("priority")))
            cols["Subject"].append(self._text(r.get("subject")))
            cols["Description"].append(self._text(r.get("description")))
            cols["IsClosed"].append(status == "Closed")
            cols["ClosedDate"].append(closed)
            cols["OwnerId"].append(self._id("Case", r, "OwnerId") or ADMIN_USER_ID)
            cols["CreatedDate"].append(created)
            cols["LastModifiedDate"].append(
                max(d for d in (created, closed) if d) if (created or closed) else None
            )
            cols["OrderItemId__c"].append(self._id("Case", r, "OrderItemId__c"))
            cols["IssueId__c"].append(self._id("Case", r, "IssueId__c"))
        self._stage("Case", cols)
        history = sorted(self.t["CaseHistory__c"], key=lambda r: (str(r.get("createddate")), str(r["id"])))
        digits = AUTONUMBER_FORMATS.get(("CaseHistory__c", "Name"), (8, 1))[0]
        self._stage(
            "CaseHistory__c",
            {
                "Id": [self._id("CaseHistory__c", r) for r in history],
                "Name": [str(i + 1).zfill(digits) for i in range(len(history))],
                "CaseId__c": [self._id("CaseHistory__c", r, "CaseId__c") for r in history],
                "OldValue__c": [self._text(r.get("oldvalue__c")) for r in history],
                "NewValue__c": [self._text(r.get("newvalue__c")) for r in history],
                "Field__c": [self._text(r.get("field__c")) for r in history],
                "CreatedDate": [self._datetime("CaseHistory__c", r, "CreatedDate") for r in history],
            },
        )

    def _knowledge(self) -> None:
        articles = sorted(self.t["Knowledge__kav"], key=lambda r: str(r["id"]))
        master_prefix = self.schema.get("KnowledgeArticle").keyPrefix
        masters = [ids.make_id(master_prefix, i + 1) for i in range(len(articles))]
        digits, first = AUTONUMBER_FORMATS.get(("Knowledge__kav", "ArticleNumber"), (8, 1))
        numbers = [str(first + i).zfill(digits) for i in range(len(articles))]
        self._stage(
            "KnowledgeArticle",
            {"Id": masters, "ArticleNumber": numbers, "MasterLanguage": ["en_US"] * len(articles)},
        )
        n = len(articles)
        self._stage(
            "Knowledge__kav",
            {
                "Id": [self._id("Knowledge__kav", r) for r in articles],
                "KnowledgeArticleId": masters,
                "Title": [self._text(r.get("title")) for r in articles],
                "Summary": [self._text(r.get("summary")) for r in articles],
                "UrlName": [self._text(r.get("urlname")) for r in articles],
                "FAQ_Answer__c": [self._text(r.get("faq_answer__c")) for r in articles],
                "PublishStatus": ["Online"] * n,
                "Language": ["en_US"] * n,
                "VersionNumber": [1] * n,
                "IsLatestVersion": [True] * n,
                "IsVisibleInApp": [True] * n,
                "IsVisibleInPkb": [True] * n,
                "IsVisibleInCsp": [True] * n,
                "ArticleNumber": numbers,
                "ArticleType": ["Knowledge__kav"] * n,
                "ArticleMasterLanguage": ["en_US"] * n,
                "ValidationStatus": ["Validated"] * n,
            },
        )

    def _conversations(self) -> None:
        addresses: dict[str, str] = {}
        for table, column in (("User", "email"), ("Contact", "email"), ("Account", "personemail")):
            for r in self.t[table]:
                if r.get(column):
                    addresses[self._id(table, r)] = str(r[column])
        user_addresses = {str(r["email"]).lower() for r in self.t["User"] if r.get("email")}
        emails = sorted(self.t["EmailMessage"], key=lambda r: (str(r.get("messagedate")), str(r["id"])))
        cols = defaultdict(list)
        for r in emails:
            recipients = [
                i for i in (ids.normalize(m) for m in _ID_IN_TEXT.findall(str(r.get("toids") or ""))) if i
            ]
            sent = self._datetime("EmailMessage", r, "MessageDate")
            sender = self._text(r.get("fromaddress"))
            incoming = (sender or "").lower() not in user_addresses
            cols["Id"].append(self._id("EmailMessage", r))
            cols["ParentId"].append(self._id("EmailMessage", r, "ParentId"))
            cols["Subject"].append(self._text(r.get("subject")))
            cols["TextBody"].append(self._text(r.get("textbody")))
            cols["FromAddress"].append(sender)
            cols["ToAddress"].append("; ".join(addresses[i] for i in recipients if i in addresses) or None)
            cols["ToIds"].append(recipients or None)
            cols["MessageDate"].append(sent)
            cols["CreatedDate"].append(sent)
            cols["Incoming"].append(incoming)
            cols["Status"].append("1" if incoming else "3")
        self._stage("EmailMessage", cols)
        chats = sorted(self.t["LiveChatTranscript"], key=lambda r: str(r["id"]))
        visitor_prefix = self.schema.get("LiveChatVisitor").keyPrefix
        visitors = []
        for i, r in enumerate(chats):
            visitor = ids.normalize(str(r.get("livechatvisitorid") or ""))
            visitors.append(
                visitor
                if visitor and visitor.startswith(visitor_prefix)
                else ids.make_id(visitor_prefix, i + 1)
            )
        unique_visitors = sorted(set(visitors))
        self._stage(
            "LiveChatVisitor",
            {"Id": unique_visitors, "Name": [str(i + 1).zfill(8) for i in range(len(unique_visitors))]},
        )
        ended = [self._datetime("LiveChatTranscript", r, "EndTime") for r in chats]
        self._stage(
            "LiveChatTranscript",
            {
                "Id": [self._id("LiveChatTranscript", r) for r in chats],
                "Name": [str(i + 1).zfill(8) for i in range(len(chats))],
                "OwnerId": [self._id("LiveChatTranscript", r, "OwnerId") or ADMIN_USER_ID for r in chats],
                "LiveChatVisitorId": visitors,
                "Body": [self._text(r.get("body")) for r in chats],
                "CaseId": [self._id("LiveChatTranscript", r, "CaseId") for r in chats],
                "AccountId": [self._id("LiveChatTranscript", r, "AccountId") for r in chats],
                "ContactId": [self._id("LiveChatTranscript", r, "ContactId") for r in chats],
                "EndTime": ended,
                "CreatedDate": ended,
                "Status": ["Completed"] * len(chats),
            },
        )
