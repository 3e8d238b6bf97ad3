"""Picklist values the sales objects share, as a new org's describes list them (Object Reference)."""

LEAD_SOURCES = ["Web", "Phone Inquiry", "Partner Referral", "Purchased List", "Other"]
"""Lead.LeadSource, Opportunity.LeadSource (Contact.LeadSource has the same values)."""

SALUTATIONS = ["Mr.", "Ms.", "Mrs.", "Dr.", "Prof.", "Mx."]

INDUSTRIES = [
    "Agriculture", "Apparel", "Banking", "Biotechnology", "Chemicals", "Communications", "Construction",
    "Consulting", "Education", "Electronics", "Energy", "Engineering", "Entertainment", "Environmental",
    "Finance", "Food & Beverage", "Government", "Healthcare", "Hospitality", "Insurance", "Machinery",
    "Manufacturing", "Media", "Not For Profit", "Recreation", "Retail", "Shipping", "Technology",
    "Telecommunications", "Transportation", "Utilities", "Other",
]  # fmt: skip
"""Lead.Industry (the values of Account.Industry)."""

OPPORTUNITY_STAGES = [
    ("Prospecting", 10, "Pipeline"),
    ("Qualification", 10, "Pipeline"),
    ("Needs Analysis", 20, "Pipeline"),
    ("Value Proposition", 50, "Pipeline"),
    ("Id. Decision Makers", 60, "Pipeline"),
    ("Perception Analysis", 70, "Pipeline"),
    ("Proposal/Price Quote", 75, "Pipeline"),
    ("Negotiation/Review", 90, "Pipeline"),
    ("Closed Won", 100, "Closed"),
    ("Closed Lost", 0, "Omitted"),
]
"""A new org's opportunity stages: (StageName, default probability, forecast category), the
OpportunityStage rows (Object Reference: OpportunityStage). The store derives IsClosed, IsWon,
Probability and the forecast category from them (:mod:`crmarena_sf.emulator.store.derive_sales`)."""

FORECAST_CATEGORIES = [("Omitted", "Omitted"), ("Pipeline", "Pipeline"), ("BestCase", "Best Case"), ("Forecast", "Commit"), ("Closed", "Closed")]  # fmt: skip
"""Opportunity.ForecastCategory (API value, label); ForecastCategoryName holds the labels."""

ACTIVITY_WHAT = ["Account", "Asset", "Campaign", "Case", "Contract", "Opportunity", "Order", "Product2", "Quote"]
"""What a Task's or Event's WhatId can point at in this schema (standard objects with activities)."""

ACTIVITY_WHO = ["Contact", "Lead"]
"""What a Task's or Event's WhoId can point at."""
