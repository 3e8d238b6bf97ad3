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

ACTIVITY_WHAT = ["Account", "Asset", "Campaign", "Case", "Contract", "Opportunity", "Order", "Product2", "Quote"]
"""What a Task's or Event's WhatId can point at in this schema (standard objects with activities)."""

ACTIVITY_WHO = ["Contact", "Lead"]
"""What a Task's or Event's WhoId can point at."""
