"""How big a generated org is: row counts per object for each profile.

Counts are what the *org* holds once the dataset is loaded, so they include the records
every new org already has (the admin user, the standard price book; see
``emulator/store/seed.py``). ``full`` is the original CRMArena org, counted from the
authors' SQLite dump (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db). ``dev-org`` fits a Developer Edition
org's 5 MB of data storage with room to spare (Salesforce Help, Data and File Storage Allocations: most
records count 2 KB, person accounts and articles 4 KB, an email its own size; products,
price books, price book entries and order items count nothing). ``tiny`` is for tests.
``--scale N`` multiplies ``full`` for large orgs, except the reference data (issues,
categories, articles, price books) that a bigger store would not multiply.
"""

from __future__ import annotations

from dataclasses import dataclass

SEEDED = {"User": 1, "Pricebook2": 1}
"""Records of a brand-new org that the counts include (admin user, standard price book)."""

FULL = {
    "User": 152,
    "Account": 201,
    "Contact": 208,
    "Case": 977,
    "Knowledge__kav": 45,
    "ProductCategory": 12,
    "Product2": 501,
    "ProductCategoryProduct": 762,
    "Pricebook2": 46,
    "PricebookEntry": 22_000,
    "Order": 2_069,
    "OrderItem": 7_100,
    "EmailMessage": 3_241,
    "LiveChatTranscript": 774,
    "Issue__c": 10,
    "CaseHistory__c": 2_983,
}
"""The original org's row counts (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)."""

FULL_TRANSFERS = 111
"""'Owner Assignment' history rows beyond each case's first assignment (1,088 − 977)."""

FULL_OPEN_CASES = 59
"""Cases not closed (977 cases − 918 'Case Closed' history rows)."""

DEV_ORG = {
    "User": 8,
    "Account": 150,
    "Contact": 152,
    "Case": 200,
    "Knowledge__kav": 45,
    "ProductCategory": 12,
    "Product2": 60,
    "ProductCategoryProduct": 90,
    "Pricebook2": 3,
    "PricebookEntry": 150,
    "Order": 200,
    "OrderItem": 600,
    "EmailMessage": 300,
    "LiveChatTranscript": 60,
    "Issue__c": 10,
}

TINY = {
    "User": 13,
    "Account": 40,
    "Contact": 42,
    "Case": 160,
    "Knowledge__kav": 45,
    "ProductCategory": 12,
    "Product2": 40,
    "ProductCategoryProduct": 60,
    "Pricebook2": 3,
    "PricebookEntry": 100,
    "Order": 160,
    "OrderItem": 420,
    "EmailMessage": 420,
    "LiveChatTranscript": 60,
    "Issue__c": 10,
}

PROFILES = {"full": FULL, "dev-org": DEV_ORG, "tiny": TINY}

NOT_SCALED = ("Issue__c", "ProductCategory", "Knowledge__kav", "Pricebook2")
"""Reference data that stays the same size when ``--scale`` multiplies an org."""

STORAGE_KB = {
    "Account": 4,
    "Knowledge__kav": 4,
    "Contact": 0,
    "Case": 2,
    "Order": 2,
    "Issue__c": 2,
    "CaseHistory__c": 2,
    "LiveChatTranscript": 2,
    "User": 0,
}
"""Data storage a record uses in a real org, in KB; objects not listed count nothing.

A person account's contact is part of its 4 KB; users use licences, not storage.
EmailMessage counts its real size (:func:`estimated_storage_kb` measures it).
"""


@dataclass(frozen=True)
class Sizing:
    """Resolved row counts of one generation run."""

    profile: str
    scale: int
    counts: dict[str, int]
    transfers: int
    open_cases: int

    def generated(self, object_name: str) -> int:
        """How many records of ``object_name`` the generator writes (org count minus what a new org has)."""
        return max(self.counts.get(object_name, 0) - SEEDED.get(object_name, 0), 0)


def resolve(profile: str, scale: int = 1) -> Sizing:
    """The row counts of ``profile`` (``full``, ``dev-org`` or ``tiny``) multiplied by ``scale``.

    Raises ValueError for an unknown profile or a scale below 1.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
    if not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a whole number >= 1, not {scale!r}")
    base = PROFILES[profile]
    counts = {}
    for name, count in base.items():
        counts[name] = count if name in NOT_SCALED or scale == 1 else count * scale
    if scale > 1 and "User" in counts:
        counts["User"] = (base["User"] - 1) * scale + 1
    cases = counts["Case"]
    if profile == "full":
        transfers, open_cases = FULL_TRANSFERS * scale, FULL_OPEN_CASES * scale
    else:
        transfers = round(cases * FULL_TRANSFERS / FULL["Case"])
        open_cases = round(cases * FULL_OPEN_CASES / FULL["Case"])
    # One 'Case Creation' and one first 'Owner Assignment' per case, one row per transfer, one
    # 'Case Closed' per closed case: for `full` that is the dump's 977 + 1,088 + 918 = 2,983.
    counts["CaseHistory__c"] = 2 * cases + transfers + (cases - open_cases)
    return Sizing(profile, scale, counts, transfers, open_cases)


def estimated_storage_kb(counts: dict[str, int], email_bytes: int = 0) -> float:
    """Data storage the records would use in a real org (KB), emails at their real size."""
    total = sum(STORAGE_KB.get(name, 0) * n for name, n in counts.items())
    return total + email_bytes / 1024
