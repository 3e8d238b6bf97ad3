"""How big each CRMArena-Pro org is: the per-object row counts of the official dumps.

``b2b`` and ``b2c`` hold exactly the record counts of CRMArena-Pro's SQLite dumps
(``local_data/crmarenapro_b2b_data.db`` and ``..._b2c_data.db`` of SalesforceAIResearch/CRMArena:
29,221 and 54,662 records over 27 objects), counted once loaded, so they include the admin user
and the standard price book a new org already has. Beside them the orgs hold the few records
those objects need and the dumps leave implicit (a product catalog, one territory model and
type, one chat visitor per chat, one article master per article version).

How the cases flow is not in the dumps' counts directly: CaseHistory__c holds one 'Case
Creation' and one first 'Owner Assignment' row per case, plus one row per transfer and one
'Case Closed' row per closed case, so ``closed + transfers`` is what the history count leaves
(B2B: 393 = 2 x 153 + 87). The split between them is this project's choice.

``--scale N`` multiplies every count except reference data a bigger company would not multiply
(the catalog, issues, territories, articles, price books). A fraction below 1 shrinks the org
the same way (``--scale 0.1`` is about a tenth: small enough for a Developer Edition org's
5 MB of data storage, and for rehearsing a push in a test).
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.loaders.profiles import SEEDED

B2B = {
    "User": 212,
    "Account": 101,
    "Contact": 886,
    "Lead": 1_465,
    "Opportunity": 1_170,
    "OpportunityLineItem": 4_926,
    "Quote": 704,
    "QuoteLineItem": 2_966,
    "Contract": 163,
    "Order": 163,
    "OrderItem": 689,
    "Product2": 51,
    "ProductCategory": 10,
    "ProductCategoryProduct": 100,
    "Pricebook2": 2,
    "PricebookEntry": 50,
    "Case": 153,
    "EmailMessage": 5_686,
    "LiveChatTranscript": 58,
    "Task": 4_783,
    "Event": 54,
    "Territory2": 10,
    "UserTerritory2Association": 184,
    "Knowledge__kav": 194,
    "Issue__c": 15,
    "CaseHistory__c": 393,
    "VoiceCallTranscript__c": 4_033,
}
"""The official B2B dump's row counts (29,221 records)."""

B2C = {
    "User": 212,
    "Account": 200,
    "Contact": 200,
    "Lead": 222,
    "Opportunity": 2_292,
    "OpportunityLineItem": 11_913,
    "Quote": 1_379,
    "QuoteLineItem": 7_107,
    "Contract": 329,
    "Order": 329,
    "OrderItem": 1_649,
    "Product2": 51,
    "ProductCategory": 5,
    "ProductCategoryProduct": 70,
    "Pricebook2": 2,
    "PricebookEntry": 50,
    "Case": 289,
    "EmailMessage": 11_403,
    "LiveChatTranscript": 110,
    "Task": 8_955,
    "Event": 19,
    "Territory2": 10,
    "UserTerritory2Association": 204,
    "Knowledge__kav": 110,
    "Issue__c": 15,
    "CaseHistory__c": 741,
    "VoiceCallTranscript__c": 6_796,
}
"""The official B2C dump's row counts (54,662 records)."""

PROFILES = {"b2b": B2B, "b2c": B2C}

CLOSED_CASES = {"b2b": 70, "b2c": 136}
"""Closed cases at scale 1; transfers are what the history count leaves (17 and 27)."""

TERRITORIES_PER_REP = 4
"""Each sales rep covers four territories, so the reps are the associations divided by four."""

SERVICE_AGENTS = {"b2b": 24, "b2c": 26}
"""Users who own cases, at scale 1; every other user beyond the reps is other staff."""

NOT_SCALED = (
    "Product2",
    "ProductCategory",
    "ProductCategoryProduct",
    "Pricebook2",
    "PricebookEntry",
    "Issue__c",
    "Territory2",
    "Knowledge__kav",
)


@dataclass(frozen=True)
class ProSizing:
    """Resolved row counts of one Pro generation run (the interface the generation context reads)."""

    profile: str
    scale: float
    counts: dict[str, int]
    closed_cases: int
    transfers: int
    reps: int
    agents: int

    def generated(self, object_name: str) -> int:
        """How many records of ``object_name`` the generator writes (org count minus what a new org has)."""
        return max(self.counts.get(object_name, 0) - SEEDED.get(object_name, 0), 0)


MIN_SCALE = 0.05
"""The smallest fraction: below it an org has too few reps, agents and cases to plant anything."""


def resolve(profile: str, scale: float = 1) -> ProSizing:
    """The row counts of ``profile`` (``b2b`` or ``b2c``) multiplied by ``scale``; ValueError otherwise."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not MIN_SCALE <= scale < 1e6:
        raise ValueError(f"scale must be a number from {MIN_SCALE} up, not {scale!r}")
    if scale >= 1 and scale != int(scale):
        raise ValueError(f"scale must be a whole number, or a fraction below 1, not {scale!r}")

    def scaled(n: int) -> int:
        return max(1, round(n * scale))

    base = PROFILES[profile]
    counts = {name: n if name in NOT_SCALED else scaled(n) for name, n in base.items()}
    counts["User"] = scaled(base["User"] - 1) + 1
    closed = min(scaled(CLOSED_CASES[profile]), counts["Case"])
    transfers = max(counts["CaseHistory__c"] - 2 * counts["Case"] - closed, 0)
    counts["CaseHistory__c"] = 2 * counts["Case"] + closed + transfers
    # Three reps at least, so their four territories each cover all ten territories.
    reps = max(counts["UserTerritory2Association"] // TERRITORIES_PER_REP, 3)
    counts["UserTerritory2Association"] = reps * TERRITORIES_PER_REP
    agents = max(scaled(SERVICE_AGENTS[profile]), 2)
    return ProSizing(profile, int(scale) if scale >= 1 else scale, counts, closed, transfers, reps, agents)
